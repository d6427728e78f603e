"""Scores: App. E connection/relation recovery, HotpotQA's answer normalisation and token F1, and their mean ± std.

The leakage score follows the paper's Appendix E exactly: per target entity,
precision = hits / max(1, |predicted|) and recall = hits / |true|, both averaged
over targets, and F1 of the two averages. Connection recovery (Conn.) compares
distinct directed entity pairs; relation recovery (Rel.) compares triples and
also asks whether the predicted predicate means the true one.
"""

from __future__ import annotations

import re
import statistics
import string
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from relguard.types import TypePair


@dataclass(frozen=True)
class Fact:
    """A (subject, predicate, object) triple as scored: canonical entity names and the public type pair.

    ``predicate`` may be ``None`` for a prediction that names a connection but no
    relation; such predictions count for Conn. only (App. E).
    """

    subject: str
    predicate: str | None
    object: str
    type_pair: TypePair = ("", "")

    @property
    def key(self) -> tuple[str, str | None, str]:
        return (self.subject, self.predicate, self.object)

    @property
    def pair(self) -> tuple[str, str]:
        return (self.subject, self.object)


SameRelation = Callable[[Fact, Fact], bool]


def exact_relation(true: Fact, predicted: Fact) -> bool:
    """The strictest relation rule: identical normalized predicates."""
    return predicted.predicate is not None and predicted.predicate == true.predicate


@dataclass(frozen=True)
class LeakageScore:
    """Averaged per-target precision/recall and their F1 for Conn. and Rel. (fractions in [0, 1])."""

    conn_precision: float
    conn_recall: float
    rel_precision: float
    rel_recall: float
    targets: int

    @property
    def conn_f1(self) -> float:
        return f1(self.conn_precision, self.conn_recall)

    @property
    def rel_f1(self) -> float:
        return f1(self.rel_precision, self.rel_recall)

    def as_dict(self) -> dict[str, float]:
        return {
            "conn_p": self.conn_precision,
            "conn_r": self.conn_recall,
            "conn_f1": self.conn_f1,
            "rel_p": self.rel_precision,
            "rel_r": self.rel_recall,
            "rel_f1": self.rel_f1,
            "targets": float(self.targets),
        }


def f1(precision: float, recall: float) -> float:
    return 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)


def mean_and_std(metric: str, values: Sequence[float]) -> dict[str, float]:
    """``metric`` and ``metric_std`` of repeated measurements: their mean and sample standard deviation, the std
    0 for a single measurement (it has no spread to estimate), so every summary row has both columns."""
    return {metric: statistics.fmean(values), f"{metric}_std": statistics.stdev(values) if len(values) > 1 else 0.0}


def _dedupe(facts: Iterable[Fact]) -> list[Fact]:
    return list({f.key: f for f in facts}.values())


def _pair(fact: Fact, directed: bool) -> tuple[str, str]:
    return fact.pair if directed else tuple(sorted(fact.pair))  # type: ignore[return-value]


def score_leakage(
    truth: Iterable[Fact],
    predicted: Iterable[Fact],
    *,
    same_relation: SameRelation = exact_relation,
    targets: Iterable[str] | None = None,
    directed: bool = True,
) -> LeakageScore:
    """App. E scores of ``predicted`` against ``truth`` over target entities.

    Targets default to every entity in a true triple; each target's sets are the
    facts incident to it (its one-hop neighbourhood). Duplicate predictions count
    once (the paper merges repeated results). For Rel., precision counts predicted
    triples that match some true triple on the same pair and recall counts true
    triples matched by some prediction. ``directed=False`` compares unordered
    pairs, for gold data whose predicate direction differs from surface text.
    """
    true_facts = _dedupe(truth)
    predicted_facts = _dedupe(predicted)
    names = sorted(set(targets) if targets is not None else {n for f in true_facts for n in f.pair})
    by_entity_true: dict[str, list[Fact]] = {}
    by_entity_pred: dict[str, list[Fact]] = {}
    for facts, index in ((true_facts, by_entity_true), (predicted_facts, by_entity_pred)):
        for fact in facts:
            for name in set(fact.pair):
                index.setdefault(name, []).append(fact)
    sums = [0.0, 0.0, 0.0, 0.0]
    counted = 0
    for name in names:
        true_here = by_entity_true.get(name, [])
        if not true_here:
            continue
        counted += 1
        pred_here = by_entity_pred.get(name, [])
        true_pairs = {_pair(f, directed) for f in true_here}
        pred_pairs = {_pair(f, directed) for f in pred_here}
        hits = len(true_pairs & pred_pairs)
        sums[0] += hits / max(1, len(pred_pairs))
        sums[1] += hits / len(true_pairs)
        with_predicate = [p for p in pred_here if p.predicate is not None]
        pred_hits = sum(
            any(_pair(t, directed) == _pair(p, directed) and same_relation(t, p) for t in true_here)
            for p in with_predicate
        )
        true_hits = sum(
            any(_pair(t, directed) == _pair(p, directed) and same_relation(t, p) for p in with_predicate)
            for t in true_here
        )
        sums[2] += pred_hits / max(1, len(with_predicate))
        sums[3] += true_hits / len(true_here)
    if not counted:
        return LeakageScore(0.0, 0.0, 0.0, 0.0, 0)
    return LeakageScore(*(s / counted for s in sums), targets=counted)


# ---------------------------------------------------------------- HotpotQA answers


def normalize_answer(text: str) -> str:
    """HotpotQA's official normalisation: lower case, no punctuation, no articles, single spaces."""
    text = text.lower()
    text = "".join(ch for ch in text if ch not in set(string.punctuation))
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


def token_f1(prediction: str, gold: str) -> float:
    """HotpotQA's official token F1 (yes/no/noanswer must match exactly)."""
    pred, truth = normalize_answer(prediction), normalize_answer(gold)
    if (pred in {"yes", "no", "noanswer"} or truth in {"yes", "no", "noanswer"}) and pred != truth:
        return 0.0
    common = Counter(pred.split()) & Counter(truth.split())
    same = sum(common.values())
    if same == 0:
        return 0.0
    precision, recall = same / len(pred.split()), same / len(truth.split())
    return 2 * precision * recall / (precision + recall)


def exact_match(prediction: str, gold: str) -> float:
    """HotpotQA's official exact match: 1.0 when the normalized strings are equal, else 0.0."""
    return float(normalize_answer(prediction) == normalize_answer(gold))


def answer_scores(prediction: str, answers: Sequence[str]) -> tuple[float, float]:
    """(EM, token F1) of ``prediction`` against the best of the gold ``answers`` (2Wiki's aliases count alike).

    Each score takes its own best alias, as the benchmarks' scripts do; no gold answer scores (0, 0).
    """
    if not answers:
        return 0.0, 0.0
    return max(exact_match(prediction, a) for a in answers), max(token_f1(prediction, a) for a in answers)


def contains_answer(text: str, answer: str) -> bool:
    """Whether the normalized answer appears as whole words in the normalized text."""
    needle = normalize_answer(answer)
    return bool(needle) and f" {needle} " in f" {normalize_answer(text)} "
