"""Extraction on every core: worker processes that each load the extractor once and take batches in turn.

Used by the batch engine (:mod:`relguard.engine.local`) and, through :class:`ParallelExtractor`, by anything
that takes an extractor (``relguard evaluate``). Worker processes start with "spawn": a script that calls this
must guard its entry point with ``if __name__ == "__main__":`` (the ``relguard`` command does).

Batches are handed out a few at a time (never the whole corpus), results come back in input order, and each
worker is a separate process started fresh ("spawn"), so nothing of the parent — the encoder, torch — is copied
into it. One worker, or a small input, runs in this process and skips the start-up.
"""

from __future__ import annotations

import atexit
import contextlib
import multiprocessing
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from itertools import islice

from relguard import registry
from relguard.protocols import Extractor
from relguard.types import Document, DocumentExtraction

#: Documents per batch sent to a worker: large enough to keep spaCy's pipe busy, small enough to bound memory.
BATCH = 64
#: Below this many characters of input, worker start-up costs more than it saves.
PARALLEL_FROM_CHARS = 200_000

_extractor: Extractor | None = None


def default_workers() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def _start(name: str, parent: int) -> None:
    """Load the extractor once per worker; Ctrl-C is the parent's to handle (it stops the pool, then reports).

    A worker also ends when its parent does: a batch job killed outright (SIGTERM, SIGKILL) must not leave
    workers holding a spaCy pipeline each. When its pool ends it skips the interpreter's teardown: its results
    went back through the pipe and multiprocessing's own exit work has run, so all that is left is freeing the
    pipeline object by object, which kept the parent waiting half a second.
    """
    global _extractor
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with(parent)
    atexit.register(_quick_exit)
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    _extractor = registry.create("extractor", name)


def _quick_exit() -> None:
    """End a worker whose pool is done without freeing its objects one by one (what it printed is flushed)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):
            stream.flush()
    os._exit(0)


def _die_with(parent: int) -> None:
    """Linux: ask for SIGTERM when the parent process dies (prctl PR_SET_PDEATHSIG); elsewhere a no-op."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


def _extract(batch: list[Document]) -> list[DocumentExtraction]:
    assert _extractor is not None, "worker was not started"
    return list(_extractor.extract_many(batch))


def _model_id() -> str:
    assert _extractor is not None, "worker was not started"
    return _extractor.model_id


class ExtractorId:
    """The model id of the extractor that ran, filled in by whichever ran it (a worker or this process)."""

    value: str = ""


def extract_stream(
    documents: Iterable[Document],
    *,
    extractor: str,
    workers: int,
    in_process: Extractor | None = None,
    model: ExtractorId | None = None,
    pool: WorkerPool | None = None,
) -> Iterator[DocumentExtraction]:
    """Every document's extraction, in input order, with ``workers`` processes (1: in this process).

    ``extractor`` names a registry backend the workers build for themselves; ``in_process`` is the object to use
    when running here (so an already loaded pipeline is not loaded twice); ``model`` receives its model id;
    ``pool`` is a running :class:`WorkerPool` to extract on (else one is started and stopped here).
    """
    model = model or ExtractorId()
    if pool is not None:
        yield from pool.extract(documents, model=model)
        return
    if workers <= 1:
        backend = in_process or registry.create("extractor", extractor)
        model.value = backend.model_id
        yield from backend.extract_many(documents)
        return
    with WorkerPool(extractor=extractor, workers=workers) as started:
        yield from started.extract(documents, model=model)


class WorkerPool:
    """``workers`` processes that each load the extractor once, for the whole run: extraction first, then the
    rewrite (:mod:`relguard.engine.rewrite_pool`), whose tagger is the same loaded pipeline
    (:func:`relguard.extract.spacy.model.load_pipeline` loads a model once per process). Loading spaCy costs
    seconds of CPU per process, so a second set of processes would cost more than the rewrite it serves.
    A context manager: leaving it stops the workers.

    ``then`` is a task (function and arguments) each worker is handed once the last batch is out, so a worker
    that runs out of batches early prepares for what comes next (the draw's encoder) instead of waiting.
    """

    def __init__(self, *, extractor: str, workers: int, then: tuple[Callable, tuple] | None = None) -> None:
        self.workers = workers
        self._then = then
        self.executor = ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start,
            initargs=(extractor, os.getpid()),
        )

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)

    def extract(self, documents: Iterable[Document], *, model: ExtractorId) -> Iterator[DocumentExtraction]:
        """Every document's extraction, in input order, batches handed out a few at a time."""
        identity = self.executor.submit(_model_id)
        pending: deque[Future] = deque()
        iterator = iter(documents)
        for batch in iter(lambda: list(islice(iterator, BATCH)), []):
            pending.append(self.executor.submit(_extract, batch))
            if len(pending) >= 2 * self.workers:
                yield from pending.popleft().result()
        if self._then is not None:
            for _ in range(self.workers):
                self.executor.submit(self._then[0], *self._then[1])
        while pending:
            yield from pending.popleft().result()
        model.value = identity.result()


class ParallelExtractor:
    """An :class:`~relguard.protocols.Extractor` that spreads ``extract_many`` over ``workers`` processes.

    Every worker builds the registry backend ``name`` itself; the results are those of one such backend, in
    input order, so a caller cannot tell it from the backend apart from the time it takes.
    """

    def __init__(self, name: str, *, workers: int) -> None:
        self.name = name
        self.workers = workers
        self._local = registry.create("extractor", name)
        self.model_id = self._local.model_id

    def extract_many(self, documents: Iterable[Document]) -> Iterator[DocumentExtraction]:
        documents = list(documents)
        parallel = self.workers > 1 and sum(len(d.text) for d in documents) >= PARALLEL_FROM_CHARS
        yield from extract_stream(
            documents, extractor=self.name, workers=self.workers if parallel else 1, in_process=self._local
        )

    def extract(self, document: Document) -> DocumentExtraction:
        return next(iter(self._local.extract_many([document])))

    def provenance(self) -> dict:
        return self._local.provenance()
