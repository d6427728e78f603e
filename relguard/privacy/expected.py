"""Exact expected outcomes of a release: one model for the app's live figures and the evaluation's expectations.

The app shows what a release would do *before* one is drawn: the expected share
of relations kept, substituted with a close or a distant predicate, deleted,
and the expected number of sentences removed. All are exact expectations under
the mechanism (no sampling), so they are noise-free and cheap enough to redraw
on every slider move, and as curves over ε.

Outcomes of different relation groups are independent (one draw per group,
DESIGN invariant 6), and a sentence is removed when any group with an
occurrence in it is deleted, so P(sentence removed) = 1 − Π_g (1 − P_g(null)).
Shares are over canonical triples: a triple is kept when its group's sample
equals its own predicate.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from relguard.privacy.mechanism import outcome_probabilities, utilities
from relguard.settings import check_epsilon, check_lam
from relguard.types import CandidatePool, RelationGroup, TypePair


@dataclass(frozen=True)
class ExpectedOutcomes:
    """Expected shares of canonical triples per outcome kind (they sum to 1) and expected sentences removed."""

    epsilon: float
    lam: float
    triples: int
    kept: float
    close: float
    distant: float
    deleted: float
    sentences: int
    sentences_removed: float

    def as_dict(self) -> dict[str, float]:
        return {
            "kept": self.kept,
            "substituted (close)": self.close,
            "substituted (distant)": self.distant,
            "deleted": self.deleted,
        }


@dataclass(frozen=True)
class OutcomeModel:
    """Everything ε-independent that the expectations need, precomputed once per corpus and K.

    ``distances`` are the (g, K) group rows the mechanism samples from; ``triple_group[i]`` is the group of
    triple i, ``kept[i, j]`` says candidate j is triple i's own predicate, ``close[i, j]`` that it is another
    predicate within ``close_threshold`` of it (the calibrated cut-off of
    :mod:`relguard.privacy.closeness`); ``pair_triple``/``pair_sentence`` list each (group, sentence)
    incidence once.
    """

    distances: np.ndarray = field(repr=False)
    triple_group: np.ndarray = field(repr=False)
    kept: np.ndarray = field(repr=False)
    close: np.ndarray = field(repr=False)
    pair_triple: np.ndarray = field(repr=False)
    pair_sentence: np.ndarray = field(repr=False)
    sentences: int
    close_threshold: float = 0.0

    @classmethod
    def build(
        cls,
        groups: Sequence[RelationGroup],
        pools: Mapping[TypePair, CandidatePool],
        distances: np.ndarray,
        *,
        triple_distances: np.ndarray,
        sentences: Mapping[str, int],
        close_threshold: float,
    ) -> OutcomeModel:
        """``sentences`` maps each document name to its sentence count (sentences without slots count too)."""
        triples = [t for g in groups for t in g.triples]
        triple_group = np.array([i for i, g in enumerate(groups) for _ in g.triples], dtype=np.int64)
        d = _rows(triple_distances, len(triples))
        kept = np.zeros(d.shape, dtype=bool)
        for i, triple in enumerate(triples):
            predicates = pools[triple.type_pair].predicates
            kept[i] = [p == triple.predicate for p in predicates]
        close = (~kept) & (d <= close_threshold)
        offsets: dict[str, int] = {}
        total = 0
        for name in sorted(sentences):
            offsets[name] = total
            total += int(sentences[name])
        incidences = sorted(
            {(i, offsets[occ.document] + occ.sentence) for i, g in enumerate(groups) for occ in g.occurrences}
        )
        pair_triple = np.array([i for i, _ in incidences], dtype=np.int64)
        pair_sentence = np.array([s for _, s in incidences], dtype=np.int64)
        rows = _rows(distances, len(groups))
        return cls(rows, triple_group, kept, close, pair_triple, pair_sentence, total, float(close_threshold))

    @classmethod
    def from_prepared(cls, prepared, *, close_threshold: float) -> OutcomeModel:
        """The model of a :class:`~relguard.pipeline.Prepared` corpus."""
        sentences = {d.document.name: len(d.sentences) for d in prepared.extraction.documents}
        return cls.build(
            prepared.groups,
            prepared.pools,
            prepared.distances,
            triple_distances=prepared.triple_distances,
            sentences=sentences,
            close_threshold=close_threshold,
        )

    @property
    def triples(self) -> int:
        return int(self.kept.shape[0])

    def expected(
        self, *, epsilon: float, lam: float, probabilities: np.ndarray | None = None, allow_null: bool = True
    ) -> ExpectedOutcomes:
        """Exact expectations at (ε, λ); pass ``probabilities`` when the (g, K+1) table is already computed.

        ``allow_null=False`` is the no-deletion ablation (paper Table 3): null has probability 0.
        """
        epsilon, lam = check_epsilon(epsilon), check_lam(lam)
        if self.triples == 0:
            return ExpectedOutcomes(epsilon, lam, 0, 0.0, 0.0, 0.0, 0.0, self.sentences, 0.0)
        if probabilities is None:
            probabilities = outcome_probabilities(self.distances, epsilon=epsilon, lam=lam, allow_null=allow_null)
        p = probabilities
        return self._summaries(np.asarray(p)[None], [epsilon], lam)[0]

    def curve(
        self, epsilons: Iterable[float], *, lam: float, shares: np.ndarray | None = None
    ) -> list[ExpectedOutcomes]:
        """Expectations at each ε of ``epsilons`` (the Tune page's curves), vectorized over ε.

        ``shares`` (one per group) draws group g at ε·shares[g]: with a per-entity budget E, shares are
        1 / max(n(s), n(o)) and the grid is E (:mod:`relguard.privacy.entity`).
        """
        grid = np.array([check_epsilon(e) for e in epsilons], dtype=np.float64)
        lam = check_lam(lam)
        if self.triples == 0:
            return [self.expected(epsilon=e, lam=lam) for e in grid]
        per_group = np.ones(len(self.distances)) if shares is None else np.asarray(shares, dtype=np.float64)
        logits = grid[:, None, None] * per_group[None, :, None] * utilities(self.distances, lam=lam)[None] / 2.0
        logits -= logits.max(axis=2, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=2, keepdims=True)
        return self._summaries(p, grid.tolist(), lam)

    def _summaries(self, p: np.ndarray, epsilons: Sequence[float], lam: float) -> list[ExpectedOutcomes]:
        """(E, g, K+1) group probability tables -> one :class:`ExpectedOutcomes` per table."""
        m = self.triples
        per_triple = p[:, self.triple_group, :]
        real = per_triple[:, :, :-1]
        kept = np.einsum("emk,mk->e", real, self.kept) / m
        close = np.einsum("emk,mk->e", real, self.close) / m
        deleted = per_triple[:, :, -1].sum(axis=1) / m
        distant = np.maximum(0.0, 1.0 - kept - close - deleted)
        removed = self._sentences_removed(p[:, :, -1])
        return [
            ExpectedOutcomes(
                float(e),
                lam,
                m,
                float(kept[i]),
                float(close[i]),
                float(distant[i]),
                float(deleted[i]),
                self.sentences,
                float(removed[i]),
            )
            for i, e in enumerate(epsilons)
        ]

    def _sentences_removed(self, p_null: np.ndarray) -> np.ndarray:
        """Σ_s 1 − Π_{t in s} (1 − P_t(null)) for each row of the (E, m) null probabilities."""
        if not len(self.pair_triple):
            return np.zeros(p_null.shape[0])
        with np.errstate(divide="ignore"):
            log_survive = np.log1p(-np.clip(p_null[:, self.pair_triple], 0.0, 1.0))
        touched, inverse = np.unique(self.pair_sentence, return_inverse=True)
        rows = p_null.shape[0]
        index = (np.arange(rows)[:, None] * len(touched) + inverse[None, :]).ravel()
        per_sentence = np.bincount(index, weights=log_survive.ravel(), minlength=rows * len(touched))
        return np.sum(1.0 - np.exp(per_sentence.reshape(rows, len(touched))), axis=1)


def epsilon_grid(low: float = 0.01, high: float = 100.0, *, per_decade: int = 10) -> tuple[float, ...]:
    """A log-spaced ε grid rounded to 3 significant digits: the stops of the app's ε slider and curves."""
    if not 0 < low < high:
        raise ValueError(f"epsilon grid needs 0 < low < high, got {low!r}, {high!r}")
    count = round(np.log10(high / low) * per_decade) + 1
    return tuple(float(f"{v:.3g}") for v in np.geomspace(low, high, count))


@dataclass(frozen=True)
class ExpectedLeakage:
    """Expected retention over the canonical triples of one prepared corpus at one (ε, λ, K).

    ``connection`` is the expected share of relations whose entity pair stays connected (not deleted),
    ``relation`` the share whose released predicate means the original (kept, or within the threshold).
    """

    epsilon: float
    lam: float
    k: int
    triples: int
    connection: float
    relation: float
    deleted: float

    def as_dict(self) -> dict[str, float]:
        return {
            "epsilon": self.epsilon,
            "lam": self.lam,
            "k": float(self.k),
            "triples": float(self.triples),
            "expected_connection_retention": self.connection,
            "expected_relation_retention": self.relation,
            "expected_deleted": self.deleted,
        }


def equivalent_candidates(prepared, *, threshold: float) -> np.ndarray:
    """(m, K) boolean: candidate j means the same as triple i's predicate (equal, or d_R ≤ threshold)."""
    model = OutcomeModel.from_prepared(prepared, close_threshold=threshold)
    return model.kept | model.close


def expected_leakage(
    prepared,
    *,
    epsilon: float,
    lam: float,
    threshold: float,
    allow_null: bool = True,
    entity_epsilon: float | None = None,
) -> ExpectedLeakage:
    """Exact expected connection and relation retention of a release drawn from ``prepared`` at (ε, λ).

    The same :class:`OutcomeModel` as the app's expected outcomes, with ``threshold`` as the "close" cut-off:
    relation retention is kept + close, connection retention is 1 − deleted. With ``entity_epsilon`` E each
    group is drawn at its own ε_g (:meth:`~relguard.pipeline.Prepared.group_epsilons`) and ``epsilon`` is E.
    """
    model = OutcomeModel.from_prepared(prepared, close_threshold=threshold)
    if entity_epsilon is None:
        return _leakage(model, prepared.k, epsilon, lam, allow_null)
    per_group = prepared.group_epsilons(entity_epsilon=entity_epsilon)
    probabilities = prepared.probabilities(epsilon=per_group, lam=lam, allow_null=allow_null)
    return _leakage(model, prepared.k, entity_epsilon, lam, allow_null, probabilities)


def expected_leakage_curve(
    prepared,
    *,
    epsilons: Iterable[float] = (0.0, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0),
    lam: float,
    threshold: float,
    allow_null: bool = True,
) -> tuple[ExpectedLeakage, ...]:
    """:func:`expected_leakage` at each ε (milliseconds each: no extraction, no sampling)."""
    model = OutcomeModel.from_prepared(prepared, close_threshold=threshold)
    return tuple(_leakage(model, prepared.k, e, lam, allow_null) for e in epsilons)


def _leakage(
    model: OutcomeModel, k: int, epsilon: float, lam: float, allow_null: bool, probabilities: np.ndarray | None = None
) -> ExpectedLeakage:
    outcome = model.expected(epsilon=epsilon, lam=lam, allow_null=allow_null, probabilities=probabilities)
    return ExpectedLeakage(
        epsilon=outcome.epsilon,
        lam=outcome.lam,
        k=k,
        triples=outcome.triples,
        connection=1.0 - outcome.deleted if outcome.triples else 0.0,
        relation=outcome.kept + outcome.close,
        deleted=outcome.deleted,
    )


def _rows(values, count: int) -> np.ndarray:
    """``values`` as ``count`` rows; a corpus with no relation (nothing to draw) has an empty table, not an error."""
    array = np.asarray(values, dtype=np.float64)
    return array.reshape(count, -1) if count else np.zeros((0, 0))
