"""Batch engines: whole corpora through the release, on every core (:func:`run_local`) or on Ray (:func:`run_ray`).

Both stream documents rather than hold the corpus, keep only the per-group outcome table and the encoder's cache
corpus-wide, and write the same public files as :func:`relguard.pipeline.sanitize` for the same teaching seed.
"""

from relguard.engine.local import RunResult, auto_workers, run_local


def run_ray(*args, **kwargs) -> RunResult:
    """:func:`relguard.engine.ray.run_ray`, imported on first use (Ray is an optional dependency)."""
    from relguard.engine.ray import run_ray as run

    return run(*args, **kwargs)


__all__ = ["RunResult", "auto_workers", "run_local", "run_ray"]
