"""PA-HDP: prompt-aware dynamic hierarchical DP (seed paper 004), as a comparison sanitizer.

Implemented: §4.1 (the sentence is the privacy unit), §4.2.1 risk-aware gating and relevance
S_rel(q, s) = cos(E(q), E(s)) if I(q) = 1 else 0, §4.2.2 field sensitivity S_sen(s) = max_k w_k
over a hybrid NER + rule extraction, §4.2.3 Eq. 1 S_total = λ·S_rel + (1-λ)·S_sen, App. 6.2 step 1
S* = S_total + Lap(2/ε) and the levels low (S* < τ1), medium (τ1 ≤ S* < τ2), high (S* ≥ τ2),
§4.3.1 m same-type entity-replacement candidates, §4.3.2 u = -α·d_sem - (1-α)·r with
d_sem = ‖φ(s) - φ(s^v)‖₂ and r = max_{e ∈ E(s^v)} cos(s, e), Lemma 3 P(s^v) ∝ exp(ε_level·u/2),
and §4.3.4 ε_H = ε / (2(N_H + γ·N_M)), ε_M = γ·ε_H. Low-risk sentences are kept verbatim.

Defaults (the paper's): ε = 5, λ = 0.6, τ1 = 0.3, τ2 = 0.7, α = 0.5, γ = 2, m = 50.

Departures, and why:
* Pre-indexing, not post-retrieval: every sentence of every document is assessed (no top-K), and
  N_H, N_M and the budget split are counted per document (the paper counts per retrieved context).
* Queries. With ``queries`` (evaluation: the dataset's questions) S_rel(s) = max over the gated
  queries, the worst case over the workload. Query-free (``queries=None``): the document's own
  embedding stands in for the query that retrieves it, S_rel(s) = max(0, cos(E(D), E(s))), and the
  gate is taken as open (I = 1), the conservative choice when no query is known.
* §4.3.4 prints λ in ε_H's denominator; γ is used, the only reading under which
  N_H·ε_H + N_M·ε_M = ε/2 as App. 6.2 step 4 requires.
* Tables 10-11 (per-type weights) are not in the text: ``TYPE_WEIGHTS`` follows the ranges of §4.2.2
  and App. 6.3. Extraction is en_core_web_sm (OntoNotes) plus regexes for e-mail, phone, ID and
  card numbers, credentials and URLs, and a small disease keyword list (the paper's "keyword library").
* The sanitized corpus R (§4.3.1) is, per type, the other entities of that type in the corpus being
  sanitized plus the fixed public surrogates below; rule-found types (e-mail, phone, ID, credential,
  URL) and diseases draw from surrogates only, so no one's contact data or diagnosis is copied into
  another document. A replacement is never the original surface form. Embeddings are MiniLM, not bge.
* r is clipped at 0 (a risk); the selection uses the paper's exp(ε·u/2), i.e. its Δu = 1 claim, which
  is reproduced, not re-derived. A medium/high sentence with no sensitive entity has one candidate
  (itself), stays verbatim and still counts in N_H or N_M.
* Randomness: OpenDP ``make_laplace`` and ``make_noisy_max`` (zCDP ⇒ Gumbel, P ∝ exp(score/scale)),
  and a uniform pick of replacements by noisy max over zeros. A ``seed`` switches to a seeded numpy
  generator drawing the same distributions: for tests and teaching only, never for a release.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from relguard import registry
from relguard.embed import embed_passages
from relguard.privacy.sampling import Draws
from relguard.settings import DEFAULT_ENCODER
from relguard.types import Document, SanitizedDocument

LOW, MEDIUM, HIGH = "low", "medium", "high"
TYPE_WEIGHTS: tuple[tuple[str, float], ...] = (
    *(("ID_NUMBER", 1.0), ("CREDENTIAL", 1.0), ("PHONE", 0.9), ("EMAIL", 0.9), ("PERSON", 0.8), ("DISEASE", 0.8)),
    *(("URL", 0.5), ("FAC", 0.5), ("ORG", 0.4), ("NORP", 0.4), ("MONEY", 0.4), ("GPE", 0.3)),
    *(("LOC", 0.2), ("DATE", 0.2), ("TIME", 0.2), ("CARDINAL", 0.1), ("QUANTITY", 0.1), ("PERCENT", 0.1)),
    *(("ORDINAL", 0.1), ("PRODUCT", 0.1), ("EVENT", 0.1), ("WORK_OF_ART", 0.1), ("LAW", 0.1), ("LANGUAGE", 0.1)),
)
#: E_sens of §4.2.1: the query entity types that open the relevance gate.
QUERY_SENSITIVE_TYPES = frozenset({"PERSON", "ORG", "GPE", "LOC", "FAC", "NORP", "DISEASE", "EMAIL", "PHONE"})
RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("EMAIL", re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")),
    ("CREDENTIAL", re.compile(r"(?i)\b(?:password|passwd|pin|api[ _]?key|token)\s*[:=]\s*\S+")),
    ("ID_NUMBER", re.compile(r"\b\d{3}-\d{2}-\d{4}\b|\b(?:\d{4}[ -]){3}\d{4}\b")),
    ("PHONE", re.compile(r"(?<![\w-])(?:\+?\d{1,3}[ .-]?)?(?:\(\d{3}\)\s?|\d{3}[ .-])\d{3}[ .-]\d{4}(?![\w-])")),
    ("URL", re.compile(r"\bhttps?://\S+|\bwww\.\S+")),
    ("DISEASE", re.compile(r"(?i)\b(?:cancer|diabetes|hiv|asthma|leukemia|tuberculosis|hepatitis|dementia)\b")),
)
SURROGATES: dict[str, tuple[str, ...]] = {
    "PERSON": ("Alex Morgan", "Jordan Lee", "Taylor Brooks", "Casey Rivera", "Riley Chen", "Jamie Patel"),
    "ORG": ("Acme Corporation", "Northwind Traders", "Globex", "Contoso", "Initech"),
    **{"GPE": ("Springfield", "Riverton", "Fairview"), "LOC": ("the Northern Range", "Silver Lake")},
    **{"FAC": ("Central Station", "Oak Park"), "NORP": ("European", "Canadian"), "ORDINAL": ("second", "third")},
    **{"DATE": ("1990", "March 2001", "the 1980s"), "TIME": ("noon", "8 a.m."), "MONEY": ("$100", "$2,500")},
    **{"CARDINAL": ("two", "12"), "QUANTITY": ("ten miles", "3 kilograms"), "PERCENT": ("10%", "45 percent")},
    **{"PRODUCT": ("the Model X", "Widget Pro"), "EVENT": ("the Spring Festival",), "LANGUAGE": ("Spanish",)},
    **{"WORK_OF_ART": ("The Long Road", "Blue Horizons"), "LAW": ("the Data Act", "the Civil Code")},
    **{"EMAIL": ("user1@example.com", "contact@example.org"), "PHONE": ("555-0100", "555-0142", "555-0199")},
    **{"ID_NUMBER": ("000-00-0000",), "CREDENTIAL": ("password: ********",), "URL": ("https://example.com",)},
    "DISEASE": ("influenza", "migraine", "hypertension"),
}
SURROGATE_ONLY = frozenset({"EMAIL", "PHONE", "ID_NUMBER", "CREDENTIAL", "URL", "DISEASE"})


@dataclass(frozen=True, kw_only=True)
class Settings:
    epsilon: float = 5.0
    lam: float = 0.6
    tau_low: float = 0.3
    tau_high: float = 0.7
    alpha: float = 0.5
    gamma: float = 2.0
    candidates: int = 50
    type_weights: tuple[tuple[str, float], ...] = TYPE_WEIGHTS

    def __post_init__(self) -> None:
        if not (math.isfinite(self.epsilon) and self.epsilon > 0):
            raise ValueError(f"epsilon must be finite and > 0 (Lap(2/ε) needs it), got {self.epsilon!r}")
        if not (0 <= self.lam <= 1 and 0 <= self.alpha <= 1 and 0 <= self.tau_low <= self.tau_high):
            raise ValueError("need 0 ≤ lam ≤ 1, 0 ≤ alpha ≤ 1 and 0 ≤ tau_low ≤ tau_high")
        if self.gamma < 1 or self.candidates < 1:
            raise ValueError("need gamma ≥ 1 (medium never gets less budget than high) and candidates ≥ 1")


@dataclass(frozen=True)
class SensitiveSpan:
    start: int
    end: int
    text: str
    label: str


@dataclass(frozen=True)
class SentenceDecision:
    """What PA-HDP decided for one sentence; ``budget`` is 0 for low-risk sentences."""

    text: str
    relevance: float
    sensitivity: float
    noisy_score: float
    level: str
    budget: float
    output: str


def risk_score(relevance: float, sensitivity: float, *, lam: float) -> float:
    """Eq. 1: S_total = λ·S_rel + (1-λ)·S_sen."""
    return lam * relevance + (1 - lam) * sensitivity


def risk_level(noisy_score: float, *, tau_low: float, tau_high: float) -> str:
    """§4.2.3: low below τ1, medium in [τ1, τ2), high from τ2 on (applied to the noisy S*)."""
    if noisy_score < tau_low:
        return LOW
    return MEDIUM if noisy_score < tau_high else HIGH


def level_budgets(levels: Iterable[str], *, epsilon: float, gamma: float) -> dict[str, float]:
    """§4.3.4: ε_H = ε / (2(N_H + γ·N_M)), ε_M = γ·ε_H, low-risk sentences spend nothing."""
    levels = list(levels)
    n_high, n_medium = levels.count(HIGH), levels.count(MEDIUM)
    if n_high + n_medium == 0:
        return {LOW: 0.0, MEDIUM: 0.0, HIGH: 0.0}
    eps_high = epsilon / (2 * (n_high + gamma * n_medium))
    return {LOW: 0.0, MEDIUM: gamma * eps_high, HIGH: eps_high}


def field_sensitivity(spans: Iterable[SensitiveSpan], weights: Mapping[str, float]) -> float:
    """§4.2.2: the maximum weight, so one high-risk entity is enough to make the sentence high risk."""
    return max((weights.get(s.label, 0.0) for s in spans), default=0.0)


def candidate_utilities(
    original: np.ndarray, candidates: np.ndarray, residual_risks: np.ndarray, *, alpha: float
) -> np.ndarray:
    """§4.3.2: u = -α·‖φ(s) - φ(s^v)‖₂ - (1-α)·r(s, s^v), one value per candidate row."""
    d_sem = np.linalg.norm(np.asarray(candidates) - np.asarray(original)[None, :], axis=1)
    return -alpha * d_sem - (1 - alpha) * np.asarray(residual_risks, dtype=np.float64)


def selection_probabilities(utilities: np.ndarray, *, epsilon: float) -> np.ndarray:
    """Lemma 3: P(s^v) = exp(ε·u_v/2) / Σ_w exp(ε·u_w/2), computed stably."""
    logits = epsilon * np.asarray(utilities, dtype=np.float64) / 2.0
    weights = np.exp(logits - logits.max())
    return weights / weights.sum()


def select_candidate(utilities: np.ndarray, *, epsilon: float, draws: Draws) -> int:
    """One exponential-mechanism draw: noisy max at scale 2/ε gives exactly ``selection_probabilities``."""
    return draws.exponential_mechanism(np.asarray(utilities, dtype=np.float64), 2.0 / epsilon)


def sensitive_spans(parsed: Any, weights: Mapping[str, float]) -> tuple[SensitiveSpan, ...]:
    """Hybrid extraction (§4.2.2): rule matches first, then NER entities that do not overlap them."""
    text, found = parsed.text, []
    for label, pattern in RULES:
        found += [SensitiveSpan(m.start(), m.end(), m.group(), label) for m in pattern.finditer(text)]
    found += [_trim_possessive(e.start_char, e.text, e.label_) for e in parsed.ents if e.label_ in weights]
    return disjoint_spans(span for span in found if span.label in weights)


def disjoint_spans(found: Iterable[SensitiveSpan]) -> tuple[SensitiveSpan, ...]:
    """The spans that overlap no span found before them (the earlier one wins), in text order."""
    kept: list[SensitiveSpan] = []
    for span in found:
        if all(span.end <= k.start or span.start >= k.end for k in kept):
            kept.append(span)
    return tuple(sorted(kept, key=lambda s: s.start))


def replacement_pools(spans: Iterable[SensitiveSpan]) -> dict[str, tuple[str, ...]]:
    """The entity corpus R per type: corpus entities of that type (not for rule types) plus surrogates."""
    pools: dict[str, dict[str, None]] = {label: dict.fromkeys(values) for label, values in SURROGATES.items()}
    for span in spans:
        if span.label not in SURROGATE_ONLY:
            pools.setdefault(span.label, {})[span.text] = None
    return {label: tuple(values) for label, values in pools.items()}


def generate_candidates(
    sentence: str, spans: Sequence[SensitiveSpan], pools: Mapping[str, Sequence[str]], *, count: int, draws: Draws
) -> tuple[str, ...]:
    """§4.3.1: ``count`` candidates, each replacing every sensitive span by a random same-type entity."""
    choices = [[v for v in pools.get(s.label, ()) if v != s.text] for s in spans]
    candidates = []
    for _ in range(count):
        text = sentence
        for span, options in sorted(zip(spans, choices, strict=True), key=lambda p: -p[0].start):
            if options:
                text = text[: span.start] + options[draws.uniform_index(len(options))] + text[span.end :]
        candidates.append(text)
    return tuple(candidates)


class ModelBacked:
    """Shared plumbing of the comparators: settings plus the house spaCy pipeline and MiniLM encoder,
    loaded on first use (tests pass the real ones in to load them once)."""

    Settings: type
    PROTECTS: str

    def __init__(self, settings: Any = None, *, nlp: Any = None, encoder: Any = None, memo: dict | None = None) -> None:
        self.settings = settings or self.Settings()
        self._nlp, self._encoder = nlp, encoder
        self.memo = memo

    @classmethod
    def describe(cls) -> str:
        return cls.PROTECTS

    @property
    def nlp(self) -> Any:
        if self._nlp is None:
            self._nlp = registry.create("extractor", "spacy").nlp
        return self._nlp

    @property
    def encoder(self) -> Any:
        if self._encoder is None:
            self._encoder = registry.create("encoder", "sentence-transformers", model=DEFAULT_ENCODER)
        return self._encoder


class PaHdp(ModelBacked):
    """PA-HDP over whole documents; see the module docstring for equations and departures."""

    name = "pa-hdp"
    Settings = Settings
    PROTECTS = (
        "Sentences. Each sentence gets a risk score from query relevance and the most sensitive entity type it "
        "holds, released with Laplace noise; medium- and high-risk sentences are replaced by an exponential-"
        "mechanism draw among copies whose sensitive entities are swapped for same-type entities, high risk "
        "with the smaller budget. Claimed guarantee: (ε, 0)-semantic-metric DP per sentence-level release "
        "(ε/2 for the noisy scores, ε/2 shared by the selections), resting on the paper's Δ = 1 assumptions."
    )

    def sanitize(
        self, documents: Sequence[Document], *, queries: Sequence[str] | None = None, seed: int | None = None
    ) -> tuple[SanitizedDocument, ...]:
        return tuple(doc for doc, _ in self.sanitize_with_decisions(documents, queries=queries, seed=seed))

    def sanitize_with_decisions(
        self, documents: Sequence[Document], *, queries: Sequence[str] | None = None, seed: int | None = None
    ) -> tuple[tuple[SanitizedDocument, tuple[SentenceDecision, ...]], ...]:
        weights, draws = dict(self.settings.type_weights), Draws(seed)
        parsed = list(self.nlp.pipe([d.text for d in documents]))
        spans = [sensitive_spans(p, weights) for p in parsed]
        pools = replacement_pools(s for doc_spans in spans for s in doc_spans)
        gated = self.gated_queries(queries)
        return tuple(
            self._sanitize_document(document, p, doc_spans, pools, gated, draws)
            for document, p, doc_spans in zip(documents, parsed, spans, strict=True)
        )

    def sentence_relevance(self, document: str, sentences: Sequence[str], gated: np.ndarray | None) -> np.ndarray:
        """§4.2.1 S_rel per sentence: max over gated queries, or the query-free document stand-in."""
        vectors = embed_passages(self.encoder, list(sentences))
        topic = embed_passages(self.encoder, [document]) if gated is None else gated
        if len(topic) == 0 or len(vectors) == 0:
            return np.zeros(len(vectors))
        return np.clip((vectors @ topic.T).max(axis=1), 0.0, 1.0)

    def gated_queries(self, queries: Sequence[str] | None) -> np.ndarray | None:
        """Embeddings of the queries with I(q) = 1; queries naming no sensitive entity give S_rel = 0."""
        if queries is None:
            return None
        weights = dict(self.settings.type_weights)
        keep = [q for q, p in zip(queries, self.nlp.pipe(queries), strict=True) if _opens_gate(p, weights)]
        return embed_passages(self.encoder, keep) if keep else np.zeros((0, 1))

    def _sanitize_document(self, document, parsed, spans, pools, gated, draws):
        s = self.settings
        sentences = [(sent.start_char, sent.end_char) for sent in parsed.sents]
        texts = [document.text[a:b] for a, b in sentences]
        local = [tuple(_shift(x, a) for x in spans if a <= x.start and x.end <= b) for a, b in sentences]
        relevance = self.sentence_relevance(document.text, texts, gated)
        sensitivity = [field_sensitivity(sp, dict(s.type_weights)) for sp in local]
        noisy = [
            draws.laplace(risk_score(float(r), sen, lam=s.lam), 2.0 / s.epsilon)
            for r, sen in zip(relevance, sensitivity, strict=True)
        ]
        levels = [risk_level(n, tau_low=s.tau_low, tau_high=s.tau_high) for n in noisy]
        budgets = level_budgets(levels, epsilon=s.epsilon, gamma=s.gamma)
        decisions, replaced = [], 0
        for text, sp, rel, sen, n, level in zip(texts, local, relevance, sensitivity, noisy, levels, strict=True):
            output = text
            if level != LOW and sp:
                output = self._protect(text, sp, pools, budgets[level], draws)
                replaced += len(sp)
            decisions.append(SentenceDecision(text, float(rel), sen, n, level, budgets[level], output))
        pieces, cursor = [], 0
        for (a, b), decision in zip(sentences, decisions, strict=True):
            pieces += [document.text[cursor:a], decision.output]
            cursor = b
        text = "".join([*pieces, document.text[cursor:]])
        return SanitizedDocument(document.name, text, filled_spans=replaced), tuple(decisions)

    def _protect(self, sentence, spans, pools, budget, draws) -> str:
        """With ``memo`` (an evaluation's setting search) a sentence's m candidates and their utilities are
        drawn once and reused across settings; only the level noise and the selection are drawn anew."""
        key = (sentence, tuple(spans), self.settings.candidates, self.settings.alpha)
        cached = self.memo.get(key) if self.memo is not None else None
        if cached is None:
            candidates = generate_candidates(sentence, spans, pools, count=self.settings.candidates, draws=draws)
            cached = candidates, self.score_candidates(sentence, candidates)
            if self.memo is not None:
                self.memo[key] = cached
        candidates, utilities = cached
        return candidates[select_candidate(utilities, epsilon=budget, draws=draws)]

    def score_candidates(self, sentence: str, candidates: Sequence[str]) -> np.ndarray:
        """u for each candidate: embedding distance and the residual risk of re-extracted entities."""
        weights = dict(self.settings.type_weights)
        distinct = list(dict.fromkeys(candidates))
        entities = {c: sensitive_spans(p, weights) for c, p in zip(distinct, self.nlp.pipe(distinct), strict=True)}
        names = list(dict.fromkeys(e.text for spans in entities.values() for e in spans))
        vectors = embed_passages(self.encoder, [sentence, *distinct, *names])
        original, by_text = vectors[0], dict(zip(distinct, vectors[1 : 1 + len(distinct)], strict=True))
        similarity = dict(zip(names, vectors[1 + len(distinct) :] @ original, strict=True))
        risk = {c: max([0.0, *(float(similarity[e.text]) for e in entities[c])]) for c in distinct}
        rows = np.stack([by_text[c] for c in candidates])
        return candidate_utilities(original, rows, np.array([risk[c] for c in candidates]), alpha=self.settings.alpha)


def _opens_gate(parsed_query: Any, weights: Mapping[str, float]) -> bool:
    """I(q) = 1 when the query names an entity of a sensitive type."""
    return any(s.label in QUERY_SENSITIVE_TYPES for s in sensitive_spans(parsed_query, weights))


def _trim_possessive(start: int, text: str, label: str) -> SensitiveSpan:
    """spaCy often includes a trailing 's in PERSON/ORG spans; the replacement should keep it."""
    core = text[:-2] if text.endswith(("'s", "’s")) and len(text) > 2 else text
    return SensitiveSpan(start, start + len(core), core, label)


def _shift(span: SensitiveSpan, offset: int) -> SensitiveSpan:
    return SensitiveSpan(span.start - offset, span.end - offset, span.text, span.label)
