"""Measure what a release protects and what it keeps (paper §4.3, §6, App. E) — the public façade.

* :func:`evaluate_release` runs the offline targeted reconstruction attack on a
  release (or on the original corpus, ``release=None``) and, given questions,
  measures answer survival and BM25 retrieval recall.
* :func:`expected_leakage` / :func:`expected_leakage_curve` give exact expected
  connection and relation retention from the probability tables, for live display.
* :func:`run_evaluation` compares no defence, RelGuard over ε (with and without
  null), sentence deletion and Presidio masking, with λ and K sweeps, and
  :func:`write_outputs` writes the CSV/markdown tables and PNG plots.
"""

from __future__ import annotations

from collections.abc import Sequence

from relguard.evaluation.attack import TargetedAttacker
from relguard.evaluation.core import Evaluation, Truth, evaluate_documents, truth_from_extraction, truth_from_gold
from relguard.evaluation.datasets import EvalDataset, Question, load_dataset
from relguard.evaluation.expected import ExpectedLeakage, expected_leakage, expected_leakage_curve
from relguard.evaluation.matching import EncoderRelationMatcher, calibrate_threshold, default_matcher
from relguard.evaluation.metrics import Fact, LeakageScore, score_leakage
from relguard.evaluation.sweep import SweepResult, run_evaluation, write_outputs
from relguard.types import Release

__all__ = [
    "EncoderRelationMatcher",
    "EvalDataset",
    "Evaluation",
    "ExpectedLeakage",
    "Fact",
    "LeakageScore",
    "Question",
    "SweepResult",
    "TargetedAttacker",
    "Truth",
    "calibrate_threshold",
    "default_matcher",
    "evaluate_release",
    "expected_leakage",
    "expected_leakage_curve",
    "load_dataset",
    "run_evaluation",
    "score_leakage",
    "truth_from_extraction",
    "truth_from_gold",
    "write_outputs",
]


def evaluate_release(
    prepared,
    release: Release | None,
    *,
    questions: Sequence[Question] = (),
    truth: Truth | None = None,
    attacker: TargetedAttacker | None = None,
    matcher=None,
) -> Evaluation:
    """Leakage, coverage and (with ``questions``) utility of ``release``; ``None`` means no defence.

    Pass the same ``attacker`` to repeated calls: it caches its extraction per text,
    so evaluating the original corpus and then a release re-extracts only what changed.
    """
    if release is None:
        from relguard.evaluation.baselines import no_defence

        documents, method, settings, deleted = no_defence(prepared), "no defence", {}, 0.0
    else:
        g = release.guarantee
        documents, method = release.documents, "RelGuard"
        settings = {"epsilon": g.epsilon, "lam": g.lam, "k": g.k}
        deleted = sum(o.deleted for o in release.outcomes) / max(1, len(release.outcomes))
    return evaluate_documents(
        prepared,
        documents,
        method=method,
        truth=truth,
        attacker=attacker,
        matcher=matcher,
        questions=questions,
        settings=settings,
        deleted_share=deleted,
    )
