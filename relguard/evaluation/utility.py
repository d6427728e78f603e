"""Utility of a sanitized corpus for question answering, measured without an LLM.

* Answer survival: of the questions whose answer string appears in their
  original supporting passages, the share whose supporting sentences were not
  deleted and whose answer is still present in the sanitized passages.
* Retrieval recall@k: BM25 (the ``bm25s`` package) over title + text of every
  document; the share of each question's supporting passages in its top k,
  averaged over questions — on the original and on the sanitized corpus.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from relguard.errors import ModelError
from relguard.evaluation.datasets import Question
from relguard.evaluation.metrics import contains_answer
from relguard.types import Document, DocumentExtraction, SanitizedDocument


@dataclass(frozen=True)
class Utility:
    """Answer survival, supporting-sentence retention and retrieval recall (fractions in [0, 1])."""

    answer_survival: float
    support_kept: float
    answerable: int
    recall: Mapping[int, float]

    def as_dict(self) -> dict[str, float]:
        row = {"answer_survival": self.answer_survival, "support_kept": self.support_kept}
        row.update({f"recall@{k}": v for k, v in sorted(self.recall.items())})
        return row


def removed_ranges(extraction: DocumentExtraction | None, sanitized: SanitizedDocument) -> list[tuple[int, int]]:
    """Character ranges of the original document that the sanitized version deleted."""
    if extraction is None:
        return []
    return [(extraction.sentences[i].start, extraction.sentences[i].end) for i in sanitized.removed_sentences]


def _deleted(start: int, end: int, removed: Sequence[tuple[int, int]]) -> bool:
    """A supporting span counts as deleted when at least half of its characters were removed."""
    covered = sum(max(0, min(end, b) - max(start, a)) for a, b in removed)
    return covered * 2 >= max(1, end - start)


def answer_survival(
    questions: Sequence[Question],
    documents: Mapping[str, Document],
    sanitized: Mapping[str, SanitizedDocument],
    extractions: Mapping[str, DocumentExtraction],
) -> tuple[float, float, int]:
    """(answer survival, share of supporting spans kept, number of answerable questions)."""
    survived = answerable = kept = spans = 0
    for question in questions:
        original = " ".join(documents[p].text for p in question.passages)
        if not any(contains_answer(original, a) for a in question.answers):
            continue
        answerable += 1
        gone = False
        for support in question.supports:
            removed = removed_ranges(extractions.get(support.document), sanitized[support.document])
            deleted = _deleted(support.start, support.end, removed)
            gone |= deleted
            kept += not deleted
            spans += 1
        text = " ".join(sanitized[p].text for p in question.passages)
        survived += (not gone) and any(contains_answer(text, a) for a in question.answers)
    if not answerable:
        return 0.0, 0.0, 0
    return survived / answerable, kept / max(1, spans), answerable


def bm25_top(queries: Sequence[str], texts: Mapping[str, str], *, k: int) -> list[tuple[str, ...]]:
    """For each query, the names of the ``k`` best documents by BM25 over title + text, best first.

    One index over every document of ``texts`` (``bm25s``, English stop words); the same ranking serves the
    recall diagnostic and the QA reader, so both see the passages a retriever over that corpus would return.
    """
    try:
        import bm25s
    except ImportError as exc:  # pragma: no cover - part of the eval extra
        raise ModelError("BM25 retrieval needs bm25s: pip install 'relguard[eval]'") from exc
    if not queries or not texts:
        return [() for _ in queries]
    names = list(texts)
    corpus = bm25s.tokenize([f"{n} {texts[n]}" for n in names], stopwords="en", return_ids=False, show_progress=False)
    retriever = bm25s.BM25()
    retriever.index(corpus, show_progress=False)
    tokens = bm25s.tokenize(list(queries), stopwords="en", return_ids=False, show_progress=False)
    ranked, _ = retriever.retrieve(tokens, k=min(k, len(names)), show_progress=False)
    return [tuple(names[int(i)] for i in row) for row in ranked]


def retrieval_recall(
    questions: Sequence[Question], texts: Mapping[str, str], *, ks: Sequence[int] = (2, 5)
) -> dict[int, float]:
    """Mean share of supporting passages in BM25's top k, for each k (titles are indexed with the text)."""
    if not questions or not texts:
        return {k: 0.0 for k in ks}
    ranked = bm25_top([q.question for q in questions], texts, k=max(ks))
    scores = {}
    for k in ks:
        total = 0.0
        for question, row in zip(questions, ranked, strict=True):
            relevant = set(question.passages)
            total += len(relevant & set(row[:k])) / max(1, len(relevant))
        scores[k] = total / len(questions)
    return scores
