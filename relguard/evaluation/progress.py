"""How far an evaluation is and about how long it has left, said on every measurement.

An evaluation is a sequence of measurements (one sanitized corpus attacked and scored each) of roughly equal cost
on one dataset, so the time so far per measurement times those left is a fair estimate; the seed papers'
sanitizers come after, at a cost of their own, and are said to come without one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence


def measurement_count(
    *,
    trials: int,
    presidio: bool,
    epsilons: Sequence[float],
    no_null_epsilons: Sequence[float],
    entity_epsilons: Sequence[float],
    lams: Sequence[float],
    ks: Sequence[int],
    lam: float,
    k: int,
    sweep_epsilon: float,
) -> int:
    """The measurements a sweep makes before the seed papers' sanitizers (the λ and K sweeps reuse ε's rows)."""
    shared = sweep_epsilon in epsilons
    settings = len(epsilons) + len(no_null_epsilons) + len(entity_epsilons)
    settings += sum(not (shared and v == lam) for v in lams) + sum(not (shared and s == k) for s in ks)
    return 2 + int(presidio) + trials * settings


class Progress:
    """Counts measurements as they start and logs "n/N, elapsed, about M left" (then the sanitizers, if any)."""

    def __init__(self, total: int, log: Callable[[str], None], *, then: str = "") -> None:
        self.total, self.log, self.then = total, log, then
        self.started, self.count = time.perf_counter(), 0

    def tick(self) -> None:
        self.count += 1
        elapsed, done = time.perf_counter() - self.started, self.count - 1
        if self.count > self.total:
            self.log(f"  [{self.then}: measurement {self.count - self.total}, {minutes(elapsed)} so far]")
            return
        left = f", about {minutes(elapsed / done * (self.total - done))} left" if done else ""
        after = f", then {self.then}" if self.then else ""
        self.log(f"  [measurement {self.count}/{self.total}: {minutes(elapsed)} so far{left}{after}]")


def minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} min"
