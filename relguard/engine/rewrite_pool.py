"""The rewrite on every core: worker processes that rewrite documents from one outcome table, in input order.

Documents are independent once the outcome table is drawn (:func:`~relguard.engine.rewrite.rewrite_document`
reads a document's extraction and the table only), so the local engine hands them out in batches, a few at a
time, and takes the pieces back in input order: the release is the same bytes as a rewrite in one process. The
pool starts before the draw, so the workers load the tagger while the draw runs; the table travels pickled with
each batch (a few MB at most) and each worker unpickles it once. Workers start with "spawn" and end with their
parent, like the extraction workers (:mod:`relguard.extract.parallel`).
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import pickle
import signal
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice

from relguard.engine.outcomes import OutcomeTable
from relguard.engine.rewrite import Piece, rewrite_document
from relguard.extract.parallel import _die_with
from relguard.types import DocumentExtraction, Forms

#: Documents per batch: enough to amortize the round trip, few enough that results stream back steadily.
BATCH = 32

_table: tuple[int, OutcomeTable, Forms] | None = None


def _start(parent: int) -> None:
    """Load the tagger the frames and the guard read, once per worker, while the parent draws."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with(parent)
    from relguard.rewrite.tagging import tagger

    tagger()


def _ready() -> None:
    return None


def _rewrite(token: int, payload: bytes, batch: list[DocumentExtraction], options: dict) -> list[Piece]:
    global _table
    if _table is None or _table[0] != token:
        outcomes, forms = pickle.loads(payload)
        _table = (token, outcomes, forms)
    _, outcomes, forms = _table
    return [rewrite_document(doc, outcomes, forms=forms, **options) for doc in batch]


class RewritePool:
    """``workers`` processes that rewrite documents; a context manager, started before the draw."""

    def __init__(self, workers: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.workers = workers
        self._pool = ProcessPoolExecutor(
            max_workers=workers, mp_context=context, initializer=_start, initargs=(os.getpid(),)
        )
        for _ in range(workers):  # the executor starts a process per waiting task: start them all now
            self._pool.submit(_ready)
        self._tables = itertools.count(1)  # which table a batch reads: a worker unpickles each one once

    def __enter__(self) -> RewritePool:
        return self

    def __exit__(self, *exc: object) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)

    def rewrite(
        self,
        documents: Iterable[DocumentExtraction],
        outcomes: OutcomeTable,
        *,
        forms: Forms,
        mapping: bool,
        inline_marks: bool,
    ) -> Iterator[Piece]:
        """Each document's piece, in input order, as :func:`rewrite_document` in this process would give it."""
        payload = pickle.dumps((outcomes, forms), protocol=pickle.HIGHEST_PROTOCOL)
        token = next(self._tables)
        options = {"mapping": mapping, "inline_marks": inline_marks}
        pending: deque[Future] = deque()
        iterator = iter(documents)
        for batch in iter(lambda: list(islice(iterator, BATCH)), []):
            pending.append(self._pool.submit(_rewrite, token, payload, batch, options))
            if len(pending) >= 2 * self.workers:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()


__all__ = ["BATCH", "RewritePool"]
