"""The rewrite on every core: worker processes that rewrite documents from one outcome table, in input order.

Documents are independent once the outcome table is drawn (:func:`~relguard.engine.rewrite.rewrite_document`
reads a document's extraction and the table only), so the local engine hands them out in batches, a few at a
time, and takes the pieces back in input order: the release is the same bytes as a rewrite in one process. The
workers are the extraction's (:class:`~relguard.extract.parallel.WorkerPool`): their spaCy pipeline is loaded
already and is the tagger the frames and the guard read. The table travels pickled with each batch (a few MB at
most) and each worker unpickles it once.
"""

from __future__ import annotations

import itertools
import pickle
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future
from itertools import islice

from relguard.engine.outcomes import OutcomeTable
from relguard.engine.rewrite import Piece, rewrite_document
from relguard.extract.parallel import WorkerPool
from relguard.types import DocumentExtraction, Forms

#: Documents per batch: enough to amortize the round trip, few enough that results stream back steadily.
BATCH = 32

_table: tuple[int, OutcomeTable, Forms] | None = None


def _rewrite(token: int, payload: bytes, batch: list[DocumentExtraction], options: dict) -> list[Piece]:
    global _table
    if _table is None or _table[0] != token:
        outcomes, forms = pickle.loads(payload)
        _table = (token, outcomes, forms)
    _, outcomes, forms = _table
    return [rewrite_document(doc, outcomes, forms=forms, **options) for doc in batch]


class RewritePool:
    """The rewrite on the processes of a running :class:`~relguard.extract.parallel.WorkerPool`."""

    def __init__(self, workers: WorkerPool) -> None:
        self._pool = workers.executor
        self.workers = workers.workers
        self._tables = itertools.count(1)  # which table a batch reads: a worker unpickles each one once

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
