"""The session's record of draws: every draw of a corpus is a release of it, and releases compose.

"Redraw until it reads well" must be neither free nor invisible: a reader who sees two draws of one corpus learns
from both, so their ε add up (DESIGN invariant 14). Each draw is recorded with the public settings it was made at;
the Export page states the count for this corpus and these settings and the ε the draws spend together, and the
exported report carries the same ledger (:mod:`relguard.release.draws`). "This corpus" is decided by public
information only, the documents' names (:func:`~relguard.release.draws.same_corpus`): a draw after one relation
was reworded counts as a draw of the same corpus, so the count never reads the wording.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from relguard.privacy.bounds import composed_epsilon
from relguard.release.draws import DrawHistory, draw_entry, same_corpus


@dataclass(frozen=True)
class Draw:
    """One draw: the corpus (its document names), its public settings, whether a teaching seed made it, and the
    most relation groups in one of its documents (m, public structure: the per-document bound's exponent)."""

    number: int
    corpus: tuple[str, ...]
    epsilon: float
    lam: float
    k: int
    entity_budget: bool
    teaching: bool
    max_groups: int = 0

    @property
    def settings(self) -> tuple[float, float, int, bool]:
        return (self.epsilon, self.lam, self.k, self.entity_budget)

    def entry(self) -> dict:
        """The draw as a ledger entry of the report."""
        return draw_entry(
            epsilon=self.epsilon,
            lam=self.lam,
            k=self.k,
            entity_epsilon=self.epsilon if self.entity_budget else None,
            private=not self.teaching,
            max_groups=self.max_groups,
        )


@dataclass(frozen=True)
class DrawCount:
    """Draws of one corpus: all of them, those at the current settings, the private ones, and their total ε."""

    corpus: int
    same_settings: int
    private: int
    total_epsilon: float

    def words(self) -> str:
        times = "once" if self.corpus == 1 else f"{self.corpus} times"
        said = (
            f"This corpus was drawn {times} in this app ({self.same_settings} at these settings, "
            f"{self.private} private). "
        )
        if self.private <= 1:
            return said + "Each new draw is another release of the same corpus: its ε adds to the total."
        return said + (
            f"Each draw is a release of the same corpus, so a reader who sees them all learns up to a total "
            f"ε = {self.total_epsilon:g} (the bounds become e^({self.total_epsilon:g}·d_R)). Drawing again until "
            "a draw reads well and publishing that one breaks the promise: the choice itself depends on the "
            "originals."
        )


def earlier_of(log: Sequence[Draw], current: Draw) -> list[Draw]:
    """The draws of ``current``'s corpus made before it."""
    return [d for d in log if d.number < current.number and same_corpus(d.corpus, current.corpus)]


def count_draws(log: Sequence[Draw], current: Draw) -> DrawCount:
    """How often ``current``'s corpus was drawn, and the ε its private draws spend together."""
    same = [*earlier_of(log, current), current]
    private = [d for d in same if not d.teaching]
    return DrawCount(
        corpus=len(same),
        same_settings=sum(d.settings == current.settings for d in same),
        private=len(private),
        total_epsilon=composed_epsilon([d.epsilon for d in private]),
    )


def ledger_of(log: Sequence[Draw], corpus: Sequence[str]) -> list[dict]:
    """Every draw of ``corpus`` in ``log``, as ledger entries: what a new draw of it is charged against."""
    return [d.entry() for d in log if same_corpus(d.corpus, corpus)]


def _find(log: Sequence[Draw], number: int) -> Draw | None:
    return next((d for d in log if d.number == number), None)


def count_of(log: Sequence[Draw], number: int) -> DrawCount | None:
    """The count for draw ``number`` of ``log``, or None when it is not there (no draw yet)."""
    current = _find(log, number)
    return None if current is None else count_draws(log, current)


def history_of(log: Sequence[Draw], number: int, *, budget: float | None = None) -> DrawHistory:
    """The earlier draws of draw ``number``'s corpus, as the ledger its exported report continues."""
    current = _find(log, number)
    earlier = earlier_of(log, current) if current is not None else []
    return DrawHistory(tuple(d.entry() for d in earlier), budget=budget)
