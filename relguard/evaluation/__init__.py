"""Measure what a release protects and what it keeps (paper §4.3, §6, App. E): the evaluation's façade.

* :func:`evaluate_release` runs the offline targeted reconstruction attack on a
  release (or on the original corpus, ``release=None``) and, given questions,
  measures answer survival and BM25 retrieval recall.
* :func:`expected_leakage` / :func:`expected_leakage_curve` give exact expected
  connection and relation retention from the probability tables, for live display.
* :func:`run_evaluation` compares no defence, RelGuard over ε (with and without
  null), sentence deletion and Presidio masking, with λ and K sweeps, and
  :func:`write_outputs` writes the CSV/markdown tables and PNG plots.
* :func:`run_qa` is the paper's utility measure: a :class:`Reader` (any OpenAI-compatible model) answers the
  questions from the top BM25 passages of the original and of releases; :func:`write_qa` writes EM/F1 and the loss.
"""

from __future__ import annotations

from relguard.evaluation.attack import TargetedAttacker
from relguard.evaluation.core import (
    Evaluation,
    Truth,
    evaluate_documents,
    evaluate_release,
    truth_from_extraction,
    truth_from_gold,
)
from relguard.evaluation.datasets import EvalDataset, Question, load_dataset
from relguard.evaluation.expected import expected_leakage, expected_leakage_curve
from relguard.evaluation.matching import EncoderRelationMatcher, default_matcher
from relguard.evaluation.metrics import Fact, LeakageScore, score_leakage
from relguard.evaluation.qa import CorpusScore, QAResult, read_corpus, run_qa, write_qa
from relguard.evaluation.reader import Reader, reader_config
from relguard.evaluation.sweep import SweepResult, run_evaluation, write_outputs
from relguard.privacy.closeness import calibrate_threshold
from relguard.privacy.expected import ExpectedLeakage

__all__ = [
    "CorpusScore",
    "EncoderRelationMatcher",
    "EvalDataset",
    "Evaluation",
    "ExpectedLeakage",
    "Fact",
    "LeakageScore",
    "QAResult",
    "Question",
    "Reader",
    "SweepResult",
    "TargetedAttacker",
    "Truth",
    "calibrate_threshold",
    "default_matcher",
    "evaluate_documents",
    "evaluate_release",
    "expected_leakage",
    "expected_leakage_curve",
    "load_dataset",
    "read_corpus",
    "reader_config",
    "run_evaluation",
    "run_qa",
    "score_leakage",
    "truth_from_extraction",
    "truth_from_gold",
    "write_outputs",
    "write_qa",
]
