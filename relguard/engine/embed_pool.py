"""The draw's embeddings on the extraction's worker processes, one ONNX Runtime thread each.

After extraction the workers wait while this process embeds every typed sentence the distance rows read. Two
processes of one thread each embed faster than one process of two threads (ONNX Runtime's threads share one pass;
processes split the passes, at one encoder load per worker; docs/scaling.md has the timings). An embedding is a
function of its text alone (:func:`relguard.embed.base.same_length_batches`: every pass is one length and one
shape), so where it is computed does not change a float; the texts are split by whole batches all the same, so each
pass is the one this process would have run. The vectors come back into this process's encoder cache, checked to be
from the same model and runtime, and :func:`~relguard.engine.outcomes.distance_matrix` then reads them from there.

Only the encoders this package names can be built in a worker (a user's registered encoder lives in the user's
process); for any other the driver embeds as before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from relguard import registry
from relguard.errors import ModelError
from relguard.extract.parallel import WorkerPool
from relguard.protocols import Encoder

#: The encoder backends a worker can build for itself (``--encoder-runtime`` and the default).
WORKER_ENCODERS = ("sentence-transformers", "onnxruntime-fp32", "torch")
#: Tasks per worker: enough that a worker that finishes early takes more, few enough to keep passes full.
TASKS_PER_WORKER = 4

_encoders: dict[tuple[str, str], Encoder] = {}


def _embed(backend: str, model: str, texts: list[str]) -> tuple[str, str, np.ndarray]:
    if (backend, model) not in _encoders:
        _encoders[backend, model] = registry.create("encoder", backend, model=model, threads=1)
    encoder = _encoders[backend, model]
    return encoder.model_id, encoder.runtime, encoder.embed_texts(texts)


def warm_task(*, backend: str, model: str) -> tuple[Callable, tuple] | None:
    """The task that loads the encoder in a worker (for :class:`~relguard.extract.parallel.WorkerPool`'s
    ``then``: the end of extraction leaves one worker idle first), or None if a worker cannot build it."""
    return (_embed, (backend, model, [])) if backend in WORKER_ENCODERS else None


def embed_on_workers(pool: WorkerPool, encoder: Encoder, texts: Sequence[str], *, backend: str, model: str) -> int:
    """Embed the ``texts`` ``encoder`` lacks on ``pool``'s workers into its cache; how many were embedded there.

    Does nothing for an encoder a worker cannot build or one without :meth:`batches` and :meth:`preload`.
    """
    if backend not in WORKER_ENCODERS or not hasattr(encoder, "batches") or not hasattr(encoder, "preload"):
        return 0
    batches = encoder.batches(encoder.missing(texts))
    if not batches:
        return 0
    tasks: list[list[str]] = [[] for _ in range(min(len(batches), pool.workers * TASKS_PER_WORKER))]
    for number, batch in enumerate(batches):  # shortest first: each task gets every length alike
        tasks[number % len(tasks)].extend(batch)
    futures = [pool.executor.submit(_embed, backend, model, task) for task in tasks]
    for task, future in zip(tasks, futures, strict=True):
        model_id, runtime, vectors = future.result()
        if (model_id, runtime) != (encoder.model_id, encoder.runtime):
            raise ModelError(
                f"a worker loaded encoder {model_id} on {runtime}, this process {encoder.model_id} on "
                f"{encoder.runtime}; reinstall so every process reads the same weights"
            )
        encoder.preload(task, vectors)
    return sum(len(task) for task in tasks)


__all__ = ["WORKER_ENCODERS", "embed_on_workers", "warm_task"]
