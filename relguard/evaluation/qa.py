"""Downstream QA, the paper's utility measure (§6): a reader answers from BM25 passages of the original and of releases.

For each question the top passages by BM25 (title + text, :func:`~relguard.evaluation.utility.bm25_top`) are
retrieved from the whole corpus — once from the original documents, once from each release of them — and the
reader (:mod:`relguard.evaluation.reader`, any OpenAI-compatible model) answers with a short span. EM and token F1
use HotpotQA's normalization against the best gold answer (2Wiki's aliases included). The loss is original −
release in points, so a positive loss is utility the release cost; over several releases per ε it is reported as
mean ± sample std. Releases are drawn from one :func:`~relguard.pipeline.prepare` of the corpus with OS entropy,
or, for teaching and repeatable checks only, from a fixed seed (then they are not private releases).
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from relguard.errors import InputError
from relguard.evaluation.datasets import EvalDataset, Question
from relguard.evaluation.metrics import answer_scores, mean_and_std
from relguard.evaluation.reader import PROMPT_VERSION, PURPOSE, Reader
from relguard.evaluation.utility import bm25_top
from relguard.pipeline import Prepared, prepare
from relguard.settings import DEFAULT_ENCODER
from relguard.textable import markdown_table

#: Progress of one corpus's reading: (label, questions answered, questions).
Progress = Callable[[str, int, int], None]
DEFAULT_PASSAGES = 5


@dataclass(frozen=True)
class QAAnswer:
    """One question read over one corpus: the retrieved passages (names, best first), the span and its scores."""

    question: str
    passages: tuple[str, ...]
    prediction: str
    em: float
    f1: float
    support_recall: float


@dataclass(frozen=True)
class CorpusScore:
    """Every answer over one corpus: the original (``epsilon`` None) or release number ``release`` at ε, λ, K."""

    answers: tuple[QAAnswer, ...]
    epsilon: float | None = None
    lam: float | None = None
    k: int | None = None
    release: int | None = None
    seconds: float = 0.0

    @property
    def corpus(self) -> str:
        return "original" if self.epsilon is None else "RelGuard"

    def mean(self, metric: str) -> float:
        """Mean of ``em``, ``f1`` or ``support_recall`` over the questions, in points (0–100)."""
        values = [getattr(a, metric) for a in self.answers]
        return 100 * statistics.fmean(values) if values else 0.0


def paired_se(original: CorpusScore, release: CorpusScore) -> float:
    """Standard error, in points, of the F1 loss from the sample of questions: sd(per-question loss) / √n.

    The same questions are read over both corpora, so the loss is a paired difference; this is how far another
    sample of as many questions could move it, which the spread over releases (the mechanism's noise) does not show.
    """
    losses = [100 * (o.f1 - r.f1) for o, r in zip(original.answers, release.answers, strict=True)]
    return statistics.stdev(losses) / math.sqrt(len(losses)) if len(losses) > 1 else 0.0


def read_corpus(
    questions: Sequence[Question],
    texts: Mapping[str, str],
    reader: Reader,
    *,
    passages: int = DEFAULT_PASSAGES,
    label: str = "reading",
    progress: Progress | None = None,
) -> tuple[QAAnswer, ...]:
    """Answer every question from its top ``passages`` documents of ``texts`` (name → text), in question order.

    Requests run ``reader.config.max_concurrency`` at a time (a local one-request server wants 1).
    """
    ranked = bm25_top([q.question for q in questions], texts, k=passages)

    def one(item: tuple[Question, tuple[str, ...]]) -> QAAnswer:
        question, names = item
        prediction = reader.answer(question.question, [(name, texts[name]) for name in names])
        em, f1 = answer_scores(prediction, question.answers)
        relevant = set(question.passages)
        recall = len(relevant & set(names)) / len(relevant) if relevant else 0.0
        return QAAnswer(question.id, names, prediction, em, f1, recall)

    answers: list[QAAnswer] = []
    if progress:
        progress(label, 0, len(questions))
    with ThreadPoolExecutor(max_workers=reader.config.max_concurrency) as pool:
        for answer in pool.map(one, zip(questions, ranked, strict=True)):
            answers.append(answer)
            if progress:
                progress(label, len(answers), len(questions))
    return tuple(answers)


@dataclass
class QAResult:
    """The original's score, every release's, and what the run cost (calls, tokens, seconds)."""

    dataset: str
    note: str
    reader: str
    endpoint: str
    questions: int
    original: CorpusScore
    passages: int = DEFAULT_PASSAGES
    releases: list[CorpusScore] = field(default_factory=list)
    gold: dict[str, tuple[str, ...]] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)

    def rows(self) -> list[dict[str, Any]]:
        """One row per corpus read (the original, then each release), with its loss against the original."""
        out = []
        for score in (self.original, *self.releases):
            row: dict[str, Any] = {
                "corpus": score.corpus,
                "epsilon": score.epsilon,
                "lam": score.lam,
                "k": score.k,
                "release": score.release,
                "questions": len(score.answers),
                "em": score.mean("em"),
                "f1": score.mean("f1"),
                "support_recall": score.mean("support_recall"),
                "seconds": score.seconds,
            }
            if score.epsilon is not None:
                row["em_loss"] = self.original.mean("em") - row["em"]
                row["f1_loss"] = self.original.mean("f1") - row["f1"]
                row["f1_loss_se"] = paired_se(self.original, score)
            out.append(row)
        return out

    def summary(self) -> list[dict[str, Any]]:
        """The original, then per (ε, λ, K): mean ± sample std over its releases of scores and losses (points)."""
        rows = self.rows()
        out = [{**rows[0], "releases": 0, "reader": self.reader}]
        groups: dict[tuple, list[dict[str, Any]]] = {}
        for row in rows[1:]:
            groups.setdefault((row["epsilon"], row["lam"], row["k"]), []).append(row)
        for (epsilon, lam, k), members in groups.items():
            item: dict[str, Any] = {"corpus": "RelGuard", "epsilon": epsilon, "lam": lam, "k": k}
            item.update(releases=len(members), questions=members[0]["questions"], reader=self.reader)
            for metric in ("em", "f1", "em_loss", "f1_loss", "f1_loss_se", "support_recall"):
                item.update(mean_and_std(metric, [m[metric] for m in members]))
            out.append(item)
        return out


def run_qa(
    dataset: EvalDataset,
    *,
    reader: Reader,
    epsilons: Sequence[float] = (5.0, 1.0),
    lam: float = 1.0,
    k: int = 10,
    releases: int = 1,
    seed: int | None = None,
    limit: int | None = None,
    passages: int = DEFAULT_PASSAGES,
    prepared: Prepared | None = None,
    extractor: Any = "spacy",
    candidates: Any = "inventory",
    encoder: str = DEFAULT_ENCODER,
    progress: Progress | None = None,
    log: Callable[[str], None] = lambda message: None,
) -> QAResult:
    """Read the first ``limit`` questions over the original corpus, then over ``releases`` draws per ε.

    The original is read first, before the corpus is prepared, so a reader that cannot be reached fails within
    seconds. ``seed`` draws release i (counted over every ε) with teaching seed ``seed + i``.
    """
    questions = dataset.questions[:limit] if limit else dataset.questions
    if not questions:
        raise InputError(f"dataset {dataset.name!r} has no questions; --qa reads hotpotqa or 2wiki")
    if releases < 1:
        raise InputError(f"releases per ε must be at least 1 (got {releases})")
    texts = {d.name: d.text for d in dataset.documents}

    def read(label: str, corpus: Mapping[str, str], **setting: Any) -> CorpusScore:
        start = time.perf_counter()
        answers = read_corpus(questions, corpus, reader, passages=passages, label=label, progress=progress)
        score = CorpusScore(answers, seconds=time.perf_counter() - start, **setting)
        log(f"  {label}: EM {score.mean('em'):.1f}, F1 {score.mean('f1'):.1f} ({score.seconds:.0f} s)")
        return score

    log(f"{dataset.name}: {len(questions)} questions over {len(texts)} documents, reader {reader.name}")
    original = read("original", texts)
    result = QAResult(dataset.name, dataset.note, reader.name, reader.endpoint, len(questions), original, passages)
    result.gold = {q.id: q.answers for q in questions}
    if prepared is None:
        start = time.perf_counter()
        prepared = prepare(dataset.documents, k=k, extractor=extractor, candidates=candidates, encoder=encoder)
        result.info["seconds prepare"] = round(time.perf_counter() - start, 1)
        log(f"{dataset.name}: prepared {len(prepared.triples)} relations in {result.info['seconds prepare']:.0f} s")
    drawn = 0
    for epsilon in epsilons:
        for number in range(releases):
            release = prepared.draw(epsilon=epsilon, lam=lam, seed=None if seed is None else seed + drawn)
            drawn += 1
            corpus = {d.name: d.text for d in release.documents}
            label = f"ε={epsilon:g} release {number + 1}/{releases}"
            result.releases.append(read(label, corpus, epsilon=epsilon, lam=lam, k=prepared.k, release=number))
    usage = reader.usage.snapshot().get(PURPOSE, {})
    calls = usage.get("calls", 0)
    reading = sum(s.seconds for s in (result.original, *result.releases))
    result.info.update(
        {
            "reader": f"{reader.name} at {reader.endpoint} (prompt {PROMPT_VERSION}, temperature "
            f"{reader.config.temperature:g}, top-{passages} BM25 passages over {len(texts)} documents)",
            "releases": f"{releases} per ε, "
            + ("OS entropy (OpenDP)" if seed is None else f"teaching seeds {seed}..{seed + drawn - 1}: NOT private"),
            "model calls": calls,
            "cache hits": usage.get("cache_hits", 0),
            "prompt tokens": usage.get("prompt_tokens", 0),
            "completion tokens": usage.get("completion_tokens", 0),
            "seconds reading": round(reading, 1),
            "seconds per model call": round(reading / calls, 2) if calls else None,
            "prompt tokens per call": round(usage.get("prompt_tokens", 0) / calls) if calls else None,
            "retries": usage.get("retries", 0),
            "truncated replies": usage.get("truncated_replies", 0),
        }
    )
    return result


# ---------------------------------------------------------------- outputs


def _cell(item: Mapping[str, Any], metric: str) -> str:
    if item.get(metric) is None:
        return "–"
    text = f"{item[metric]:.1f}"
    if item.get("releases", 0) > 1:
        text += f" ± {item[f'{metric}_std']:.1f}"
    return text


def qa_table(result: QAResult) -> str:
    """The summary as a markdown table: EM/F1 and their loss in points, mean ± std over releases."""
    heads = ("corpus", "setting", "releases", "questions", "EM ↑", "F1 ↑", "EM loss ↓", "F1 loss ↓", "F1 loss SE")
    heads += (f"support R@{result.passages}",)
    rows = []
    for item in result.summary():
        setting = "–" if item["epsilon"] is None else f"ε={item['epsilon']:g}, λ={item['lam']:g}, K={item['k']}"
        rows.append(
            (
                item["corpus"],
                setting,
                str(item["releases"] or "–"),
                str(item["questions"]),
                *(_cell(item, m) for m in ("em", "f1", "em_loss", "f1_loss")),
                "–" if item.get("f1_loss_se") is None else f"{item['f1_loss_se']:.1f}",
                _cell(item, "support_recall"),
            )
        )
    return "\n".join(markdown_table(heads, rows))


def write_qa(result: QAResult, out: str | Path) -> list[Path]:
    """qa.md, qa_summary.csv, qa_results.csv (one row per corpus read) and qa_answers.csv (every answer)."""
    import pandas as pd

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    gold = result.gold
    answers = [
        {
            "corpus": score.corpus,
            "epsilon": score.epsilon,
            "release": score.release,
            "question": answer.question,
            "gold": " | ".join(gold.get(answer.question, ())),
            "prediction": answer.prediction,
            "em": answer.em,
            "f1": answer.f1,
            "passages": " | ".join(answer.passages),
        }
        for score in (result.original, *result.releases)
        for answer in score.answers
    ]
    written = []
    tables = {"qa_summary.csv": result.summary(), "qa_results.csv": result.rows(), "qa_answers.csv": answers}
    for name, data in tables.items():
        path = folder / name
        pd.DataFrame(data).to_csv(path, index=False)
        written.append(path)
    parts = [f"# {result.dataset}: downstream QA ({result.note})", ""]
    parts += [f"- questions: {result.questions}"]
    parts += [f"- {key}: {value}" for key, value in result.info.items() if value is not None]
    parts += ["", "EM and token F1 in points (HotpotQA normalization, best gold answer); loss = original − release."]
    parts += ["F1 loss SE: standard error of the loss from the sample of questions (paired, mean over releases);"]
    parts += ["the ± after a score is the sample std over releases (the mechanism's noise)."]
    parts += [f"support R@{result.passages}: share of each question's supporting passages among those read.", ""]
    parts += [qa_table(result)]
    path = folder / "qa.md"
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")
    written.append(path)
    return written
