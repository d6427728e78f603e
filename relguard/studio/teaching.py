"""The numbers behind the "Learn relation-DP" page: Definition 3 on a small example.

Two alternative true relations r and r′ on the same entity pair go through the
same mechanism over the same public pool. Their output distributions differ,
but for every outcome y the log-ratio |log P(y|r) − log P(y|r′)| stays below
ε·d_R(r, r′); this module computes both sides exactly so the page can show
the inequality hold as ε and λ move.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from relguard.errors import InputError
from relguard.privacy.bounds import bound_of
from relguard.privacy.entity import group_epsilons, group_loss, max_move
from relguard.privacy.mechanism import log_probabilities
from relguard.settings import check_epsilon
from relguard.studio.wording import after_reading, percent, times
from relguard.types import TypePair

#: The built-in example: "Alice ___ Acme", with two alternative true relations.
EXAMPLE_PAIR: TypePair = ("PERSON", "ORG")
EXAMPLE_SENTENCE = "Alice {relation} Acme."
EXAMPLE_R = "worked_for"
EXAMPLE_R2 = "founded"


@dataclass(frozen=True)
class Comparison:
    """Output distributions of r and r′ over the pool plus null, and the Definition 3 check."""

    outcomes: tuple[str, ...]
    p_r: np.ndarray
    p_r2: np.ndarray
    log_ratio: np.ndarray
    d_r: float
    epsilon: float

    @property
    def worst(self) -> float:
        return float(np.max(self.log_ratio))

    @property
    def bound(self) -> float:
        """ε·d_R(r, r′): the most any outcome may shift the log-odds (Definition 3)."""
        return self.epsilon * self.d_r

    @property
    def holds(self) -> bool:
        return self.worst <= self.bound + 1e-9


def compare(
    pool: Sequence[str],
    distances_r: Sequence[float],
    distances_r2: Sequence[float],
    d_between: float,
    *,
    epsilon: float,
    lam: float,
) -> Comparison:
    """Exact output distributions of two relations under one pool and the per-outcome log-ratios."""
    epsilon = check_epsilon(epsilon)
    log_p = log_probabilities(np.array([distances_r, distances_r2], dtype=np.float64), epsilon=epsilon, lam=lam)
    return Comparison(
        outcomes=(*pool, "null"),
        p_r=np.exp(log_p[0]),
        p_r2=np.exp(log_p[1]),
        log_ratio=np.abs(log_p[0] - log_p[1]),
        d_r=float(d_between),
        epsilon=epsilon,
    )


def pool_pairs(pool: Sequence[str], distances: np.ndarray, *, count: int = 4) -> list[tuple[str, str, float]]:
    """A few example relation pairs from a pool (closest, middle, farthest) with their d_R.

    ``distances`` is the pool's (K, K) d_R matrix; the pairs show the range of
    guarantees e^{ε·d_R}, from near-synonyms (weak distinction, strong protection)
    to unrelated relations.
    """
    k = len(pool)
    pairs = sorted((float(distances[i, j]), pool[i], pool[j]) for i in range(k) for j in range(i + 1, k))
    if len(pairs) <= count:
        chosen = pairs
    else:
        picks = sorted({round(x) for x in np.linspace(0, len(pairs) - 1, count)})
        chosen = [pairs[i] for i in picks]
    return [(a, b, d) for d, a, b in chosen]


def worked_example(*, epsilon: float, d_r: float) -> str:
    """Definition 3 in one sentence a newcomer can follow, with the numbers filled in."""
    factor = bound_of(check_epsilon(epsilon) * d_r)
    return (
        f"At ε = {epsilon:g}, two relations at distance d_R = {d_r:.2f} can be told apart only so far: whatever an "
        f"observer sees in the release, they can be at most **{times(factor)} more confident** that the document said "
        f"one rather than the other (e^(ε·d_R) = e^({epsilon:g}·{d_r:.2f})). Closer relations are harder to tell "
        "apart; at ε = 0 they cannot be told apart at all."
    )


#: The entity-level example: one person in three relation groups, each with another entity seen once.
ENTITY_PERSON = "Ilse Markov"
ENTITY_GROUPS = (("works for", "Acme"), ("is married to", "Tom Baker"), ("lives in", "Vienna"))


@dataclass(frozen=True)
class EntityExample:
    """The person's three groups, each at its ε_g with its d_max, and what they add up to."""

    rows: tuple[dict, ...]
    total: float
    epsilon: float
    per_entity: bool

    @property
    def bound(self) -> float:
        return float(np.exp(self.total))


def entity_example(*, epsilon: float, lam: float, k: int, per_entity: bool) -> EntityExample:
    """Ilse Markov in three groups at ε each, or with a per-entity budget E = ``epsilon`` at E / 3 each."""
    epsilon = check_epsilon(epsilon)
    keys = [(ENTITY_PERSON, "PERSON", other, "X") for _, other in ENTITY_GROUPS]
    shares = group_epsilons(keys, entity_epsilon=epsilon) if per_entity else np.full(len(keys), epsilon)
    rows = tuple(
        {
            "relation group": f"{ENTITY_PERSON} — {relation} → {other}",
            "ε_g": float(e),
            "d_max": max_move(epsilon=float(e), lam=lam, k=k),
            "ε_g·d_max": group_loss(epsilon=float(e), lam=lam, k=k),
        }
        for (relation, other), e in zip(ENTITY_GROUPS, shares, strict=True)
    )
    return EntityExample(rows, sum(r["ε_g·d_max"] for r in rows), epsilon, per_entity)


def entity_words(example: EntityExample) -> str:
    """The entity-level bound in plain words, with the example's numbers."""
    n = len(example.rows)
    said = (
        f"With a per-entity budget E = {example.epsilon:g}, each of her groups is drawn at E / {n}, so together "
        f"they stay within e^E = {times(bound_of(example.epsilon))}."
        if example.per_entity
        else f"At ε = {example.epsilon:g} for every pair, that is up to e^(ε·n) = "
        f"{times(bound_of(example.epsilon * n))}; a per-entity budget spreads one E over her groups instead."
    )
    return (
        f"A person is more than one relation. {ENTITY_PERSON} takes part in {n} relation groups; a reader who "
        "compares two corpora that differ in *all* of them sees the three draws together, and their bounds add "
        f"up: e^(Σ ε_g·d_max) = e^{example.total:.3g} = **{times(example.bound)}**. d_max ≤ 1 is the most one "
        f"group's outcome law can move, in units of its ε_g. {said}"
    )


#: The longest relation of one's own the Learn page accepts (a relation is a few words, not a sentence).
OWN_RELATION_WORDS = 6


def own_relation(text: str) -> str:
    """A student's own relation ("married to") as a predicate (``married_to``); a clear error when it is not one."""
    words = re.findall(r"[A-Za-z][A-Za-z'-]*", text)
    if not text.strip():
        raise InputError("Your relation is empty: type a few words, e.g. 'married to'.")
    if len(words) > OWN_RELATION_WORDS or " ".join(words) != " ".join(text.split()):
        raise InputError(
            f"'{text.strip()}' is not a relation: use up to {OWN_RELATION_WORDS} words of letters only, "
            "e.g. 'married to' or 'reports to'."
        )
    return "_".join(w.lower() for w in words)


def before_after(result: Comparison, r: str, *, top: int = 3) -> str:
    """The example sentence as the document says it and the likeliest ways the release may say it."""
    order = np.argsort(-result.p_r)[:top]
    ways = []
    for j in order:
        outcome = result.outcomes[j]
        said = "*(the sentence is deleted)*" if outcome == "null" else f"*“{_sentence(outcome)}”*"
        ways.append(f"{said} ({result.p_r[j]:.0%})")
    return f"**Before:** *“{_sentence(r)}”* **After**, one draw among these (the likeliest {top}): " + " · ".join(ways)


def _sentence(relation: str) -> str:
    return EXAMPLE_SENTENCE.format(relation=relation.replace("_", " "))


def odds_example(*, epsilon: float, d_r: float) -> str:
    """The worked example's factor as beliefs before and after reading the release."""
    factor = bound_of(check_epsilon(epsilon) * d_r)
    lines = [
        f"if you thought it {before:.0%} likely that the document said r, after reading the release you can think "
        f"it at most {percent(after_reading(before, factor))} likely"
        for before in (0.5, 0.1)
    ]
    return f"**In odds:** {times(factor)} more confident means: " + "; ".join(lines) + "."
