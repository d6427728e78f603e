"""The Risk page's numbers: the targeted attack on a drawn release next to the unprotected originals.

The attack itself is :func:`relguard.evaluation.evaluate_release`; this module runs it twice (no defence, the
release), times it, and turns the results into the rows and figures the page shows.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from relguard.evaluation import Evaluation, TargetedAttacker, evaluate_release
from relguard.pipeline import Prepared
from relguard.types import Release

PERCENT_COLUMNS = ("Conn. P", "Conn. R", "Conn. F1", "Rel. P", "Rel. R", "Rel. F1", "coverage", "deleted")


@dataclass(frozen=True)
class AttackResult:
    """One measured attack: on the originals (the baseline) and on the release, with its settings and cost."""

    release: Release
    baseline: Evaluation
    measured: Evaluation
    seconds: float
    threshold: float
    attacker: str

    @property
    def epsilon(self) -> float:
        return self.release.guarantee.epsilon

    def public_summary(self) -> dict:
        """The connection-level scores only: they compare entity pairs (public structure) with the released text.

        Relation-level scores compare recovered predicates with the originals, and the score without a defence
        is computed on the original text, so both stay confidential (:meth:`confidential_summary`).
        """
        s = self.measured.leakage
        return {
            "attacker": self.attacker,
            "epsilon": self.epsilon,
            "targets": s.targets,
            "conn_precision": s.conn_precision,
            "conn_recall": s.conn_recall,
            "conn_f1": s.conn_f1,
        }

    def confidential_summary(self) -> dict:
        """What the attack scored on the original text (no defence): a function of the originals, confidential."""
        return {"baseline_conn_f1": self.baseline.leakage.conn_f1}


def run_attack(prepared: Prepared, release: Release, *, attacker: TargetedAttacker, matcher) -> AttackResult:
    """The targeted attack on the original corpus and on ``release``, with the same attacker and matcher."""
    started = time.perf_counter()
    attacker.seed([d.text for d in prepared.documents], prepared.extraction)
    baseline = evaluate_release(prepared, None, attacker=attacker, matcher=matcher)
    measured = evaluate_release(prepared, release, attacker=attacker, matcher=matcher)
    return AttackResult(release, baseline, measured, time.perf_counter() - started, matcher.threshold, attacker.name)


def leakage_row(method: str, evaluation: Evaluation) -> dict:
    """One table row: precision, recall and F1 of connections and relations, deletions (percent), and coverage
    when the truth is annotated gold: against RelGuard's own extraction it would be 100 % by definition, a
    number that says nothing about the relations the extractor missed."""
    s = evaluation.leakage
    coverage = {"coverage": 100 * evaluation.coverage} if evaluation.truth == "gold" else {}
    return {
        "method": method,
        "Conn. P": 100 * s.conn_precision,
        "Conn. R": 100 * s.conn_recall,
        "Conn. F1": 100 * s.conn_f1,
        "Rel. P": 100 * s.rel_precision,
        "Rel. R": 100 * s.rel_recall,
        "Rel. F1": 100 * s.rel_f1,
        **coverage,
        "deleted": 100 * evaluation.deleted_share,
        "targets": s.targets,
    }


def leakage_rows(result: AttackResult) -> list[dict]:
    g = result.release.guarantee
    return [
        leakage_row("no defence (original text)", result.baseline),
        leakage_row(f"RelGuard (ε = {g.epsilon:g}, λ = {g.lam:g}, K = {g.k})", result.measured),
    ]


def utility_figures(prepared: Prepared, release: Release) -> dict[str, str]:
    """Sentences kept, documents changed: what survives of the text, from the release itself."""
    removed = sum(len(d.removed_sentences) + len(d.withheld_sentences) for d in release.documents)
    total = sum(len(d.sentences) for d in release.extraction.documents)
    changed = sum(o.text != d.text for o, d in zip(prepared.documents, release.documents, strict=True))
    return {
        "sentences kept": f"{total - removed} of {total}",
        "documents changed": f"{changed} of {len(release.documents)}",
    }
