"""TRIP-RAG: selective entity anonymization (seed paper 003, Zhu et al.), as a comparison sanitizer.

Implemented (the stored text is the paper's section summary, without its equations, so each
formula below is the stated definition written out):
* §4.1.1 marginal privacy risk, MPR(e | A) = R(D ⊕ A) - R(D ⊕ A ⊕ g(e)): the drop in document-level
  risk when e is generalized, given the set A already generalized (context-aware, §3.1).
* §4.1.1 knowledge divergence, KD(e) = 1 - cos(E(D), E(D ⊕ g(e))), the angular shift of the document
  representation, divided by the document's largest KD so that it lies in [0, 1].
* §4.1.1 topical relevance: the entity is the simulated retrieval query and its L2 divergence from the
  topic t is ‖E(e) - E(t)‖₂; smaller is more relevant, TR(e) = max(0, 1 - ‖E(e) - E(t)‖₂² / 2) ∈ [0, 1].
* §4.1.2 priority Ψ(e | A) = α·MPR - β·KD - γ·TR; §3.1's context-aware greedy: generalize the entity of
  largest Ψ while Ψ > θ, recomputing MPR after each step (KD and TR are measured on the original D).
* §4.1.2 / App. E generalization g: every mention of e becomes its coarse class label ("[PERSON]",
  "[LOCATION]", ...), a deterministic non-injective map with large preimages.

Defaults: α = 1, β = 0.5, γ = 0.4 (§5.5: α fixed at 1, best γ/β = 0.8), θ = 2/3.

Departures, and why:
* The privacy surrogate is not the paper's fine-tuned LM (no LLM or labels here). It scores with the
  App. C.1 four-level rubric: level 3 direct identifiers (PERSON, e-mail, phone, ID, credential),
  level 2 context-dependent (ORG, GPE, LOC, FAC, DATE, MONEY, URL, disease), level 1 personal
  characteristics (NORP, LANGUAGE, TIME, CARDINAL, QUANTITY), level 0 general vocabulary. An entity's
  risk in a sentence is p = level/3, raised to 1 - (1 - p)² for levels 1-2 when another level-3 entity
  is visible in that sentence (attributes of an identified person); R(D) is the sum over sentences
  and visible entities, i.e. the expected number of disclosed items.
* θ is dataset-specific and LLM-calibrated in the paper (§4.1.2, App. D); offline it is fixed at 2/3,
  the risk of an unlinked level-2 entity: an entity is generalized only when, after utility penalties,
  it is riskier than a context-free moderate mention. The β/γ roles follow the order the paper lists
  the features in (KD with β, TR with γ); the paper's text is ambiguous here.
* Entities come from en_core_web_sm plus regexes (PA-HDP's hybrid extractor) instead of GLiNER;
  mentions are grouped by surface text so that generalizing an entity covers all its mentions.
* Topic t. Query-free (``queries=None``, the paper's own pre-indexing setting): t = the document.
  With ``queries`` the topic is the query most similar to the document (the user's query that would
  retrieve it), so entities that query asks about are kept for retrieval.
* No randomness: ``seed`` is accepted for the common interface and ignored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from relguard.embed import embed_passages
from relguard.evaluation.comparators.pa_hdp import ModelBacked, SensitiveSpan, sensitive_spans
from relguard.types import Document, SanitizedDocument

RUBRIC_LEVELS: tuple[tuple[str, int], ...] = (
    *(("PERSON", 3), ("EMAIL", 3), ("PHONE", 3), ("ID_NUMBER", 3), ("CREDENTIAL", 3)),
    *(("ORG", 2), ("GPE", 2), ("LOC", 2), ("FAC", 2), ("DATE", 2), ("MONEY", 2), ("URL", 2), ("DISEASE", 2)),
    *(("NORP", 1), ("LANGUAGE", 1), ("TIME", 1), ("CARDINAL", 1), ("QUANTITY", 1)),
    *(("PRODUCT", 0), ("EVENT", 0), ("WORK_OF_ART", 0), ("LAW", 0), ("ORDINAL", 0), ("PERCENT", 0)),
)
CLASS_LABELS: dict[str, str] = {
    **dict.fromkeys(("GPE", "LOC", "FAC"), "[LOCATION]"),
    **dict.fromkeys(("EMAIL", "PHONE", "URL"), "[CONTACT]"),
    **dict.fromkeys(("CARDINAL", "QUANTITY", "MONEY", "PERCENT", "ORDINAL"), "[NUMBER]"),
    **{"PERSON": "[PERSON]", "ORG": "[ORGANIZATION]", "NORP": "[GROUP]", "DATE": "[DATE]", "TIME": "[TIME]"},
    **{"ID_NUMBER": "[IDENTIFIER]", "CREDENTIAL": "[CREDENTIAL]", "DISEASE": "[CONDITION]"},
    **{"LANGUAGE": "[LANGUAGE]"},
}


@dataclass(frozen=True, kw_only=True)
class Settings:
    alpha: float = 1.0
    beta: float = 0.5
    gamma: float = 0.4
    threshold: float = 2 / 3
    rubric_levels: tuple[tuple[str, int], ...] = RUBRIC_LEVELS

    def __post_init__(self) -> None:
        if min(self.alpha, self.beta, self.gamma) < 0:
            raise ValueError("alpha, beta and gamma weigh the three scores and must be ≥ 0")


@dataclass(frozen=True)
class RubricEntity:
    """One entity of a document: its level on the rubric and the sentences it is mentioned in."""

    text: str
    label: str
    level: int
    sentences: frozenset[int]


@dataclass(frozen=True)
class EntityDecision:
    text: str
    label: str
    level: int
    divergence: float
    relevance: float
    initial_priority: float
    anonymized: bool


def contextual_risk(level: int, *, linked: bool) -> float:
    """p = level/3; levels 1-2 rise to 1 - (1-p)² when an identifier is visible in the same sentence."""
    p = level / 3
    return 1 - (1 - p) ** 2 if linked and 0 < level < 3 else p


def document_risk(entities: Sequence[RubricEntity], anonymized: frozenset[int]) -> float:
    """R(D ⊕ A): expected number of disclosed items over sentences and visible entities."""
    visible = [i for i in range(len(entities)) if i not in anonymized]
    total = 0.0
    for sentence in {s for i in visible for s in entities[i].sentences}:
        here = [i for i in visible if sentence in entities[i].sentences]
        identifiers = {i for i in here if entities[i].level == 3}
        for i in here:
            total += contextual_risk(entities[i].level, linked=bool(identifiers - {i}))
    return total


def marginal_risk(entities: Sequence[RubricEntity], index: int, anonymized: frozenset[int]) -> float:
    """MPR(e | A) = R(D ⊕ A) - R(D ⊕ A ⊕ g(e))."""
    return document_risk(entities, anonymized) - document_risk(entities, anonymized | {index})


def priority(mpr: float, divergence: float, relevance: float, settings: Settings) -> float:
    """Ψ = α·MPR - β·KD - γ·TR (§4.1.2)."""
    return settings.alpha * mpr - settings.beta * divergence - settings.gamma * relevance


def select_for_anonymization(
    entities: Sequence[RubricEntity], divergence: Sequence[float], relevance: Sequence[float], settings: Settings
) -> tuple[int, ...]:
    """Context-aware greedy: repeatedly generalize the entity of largest Ψ(e | A) while it exceeds θ."""
    chosen: list[int] = []
    while True:
        done = frozenset(chosen)
        scores = {
            i: priority(marginal_risk(entities, i, done), divergence[i], relevance[i], settings)
            for i in range(len(entities))
            if i not in done
        }
        best = max(scores, key=lambda i: (scores[i], -i), default=None)
        if best is None or scores[best] <= settings.threshold:
            return tuple(chosen)
        chosen.append(best)


def topical_relevance(entity_vectors: np.ndarray, topic: np.ndarray) -> np.ndarray:
    """TR = max(0, 1 - ‖E(e) - E(t)‖₂² / 2) for unit vectors: 1 on the topic, 0 when orthogonal or beyond."""
    distance = np.linalg.norm(np.asarray(entity_vectors) - np.asarray(topic)[None, :], axis=1)
    return np.clip(1 - distance**2 / 2, 0.0, 1.0)


def knowledge_divergence(document: np.ndarray, generalized: np.ndarray) -> np.ndarray:
    """KD = 1 - cos(E(D), E(D ⊕ g(e))), scaled by the document's largest value (0 when all are 0)."""
    raw = np.clip(1 - np.asarray(generalized) @ np.asarray(document), 0.0, None)
    top = raw.max(initial=0.0)
    return raw / top if top > 0 else np.zeros_like(raw)


def generalize(text: str, spans: Sequence[SensitiveSpan], chosen: set[str]) -> tuple[str, int]:
    """Replace every mention whose surface text is in ``chosen`` by its class label; returns (text, count)."""
    count = 0
    for span in sorted(spans, key=lambda s: -s.start):
        if span.text in chosen:
            text = text[: span.start] + CLASS_LABELS.get(span.label, "[ENTITY]") + text[span.end :]
            count += 1
    return text, count


class TripRag(ModelBacked):
    """TRIP-RAG over whole documents; see the module docstring for the scores and departures."""

    name = "trip-rag"
    Settings = Settings
    PROTECTS = (
        "Entities. Each entity is scored by its marginal privacy risk in context, minus penalties for how much "
        "generalizing it shifts the document (knowledge divergence) and how close it is to the topic (topical "
        "relevance); a context-aware greedy pass replaces the highest-priority entities by coarse class labels "
        "until no priority exceeds the threshold. Claimed guarantee: no differential privacy; generalized "
        "entities are semantically indistinguishable within their class (App. E); kept entities are unprotected."
    )

    def sanitize(
        self, documents: Sequence[Document], *, queries: Sequence[str] | None = None, seed: int | None = None
    ) -> tuple[SanitizedDocument, ...]:
        return tuple(doc for doc, _ in self.sanitize_with_decisions(documents, queries=queries))

    def sanitize_with_decisions(
        self, documents: Sequence[Document], *, queries: Sequence[str] | None = None
    ) -> tuple[tuple[SanitizedDocument, tuple[EntityDecision, ...]], ...]:
        levels = dict(self.settings.rubric_levels)
        query_vectors = embed_passages(self.encoder, list(queries)) if queries else None
        out = []
        for document, parsed in zip(documents, self.nlp.pipe([d.text for d in documents]), strict=True):
            spans = sensitive_spans(parsed, levels)
            sentences = [(s.start_char, s.end_char) for s in parsed.sents]
            out.append(self._sanitize_document(document, spans, sentences, levels, query_vectors))
        return tuple(out)

    def _sanitize_document(self, document, spans, sentences, levels: Mapping[str, int], query_vectors):
        entities = rubric_entities(spans, sentences, levels)
        if not entities:
            return SanitizedDocument(document.name, document.text), ()
        variants = [generalize(document.text, spans, {e.text})[0] for e in entities]
        vectors = embed_passages(self.encoder, [document.text, *variants, *(e.text for e in entities)])
        doc_vector, n = vectors[0], len(entities)
        topic = doc_vector
        if query_vectors is not None and len(query_vectors):
            topic = query_vectors[int(np.argmax(query_vectors @ doc_vector))]
        divergence = knowledge_divergence(doc_vector, vectors[1 : 1 + n])
        relevance = topical_relevance(vectors[1 + n :], topic)
        chosen = set(select_for_anonymization(entities, divergence, relevance, self.settings))
        text, count = generalize(document.text, spans, {entities[i].text for i in chosen})
        decisions = tuple(
            EntityDecision(
                e.text,
                e.label,
                e.level,
                float(divergence[i]),
                float(relevance[i]),
                priority(marginal_risk(entities, i, frozenset()), divergence[i], relevance[i], self.settings),
                i in chosen,
            )
            for i, e in enumerate(entities)
        )
        return SanitizedDocument(document.name, text, filled_spans=count), decisions


def rubric_entities(
    spans: Sequence[SensitiveSpan], sentences: Sequence[tuple[int, int]], levels: Mapping[str, int]
) -> tuple[RubricEntity, ...]:
    """Group mentions by surface text (first label wins) and record the sentences they occur in."""
    grouped: dict[str, tuple[str, set[int]]] = {}
    for span in spans:
        sentence = next((k for k, (a, b) in enumerate(sentences) if a <= span.start < b), 0)
        grouped.setdefault(span.text, (span.label, set()))[1].add(sentence)
    return tuple(
        RubricEntity(text, label, levels.get(label, 0), frozenset(found)) for text, (label, found) in grouped.items()
    )
