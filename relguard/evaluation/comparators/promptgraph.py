"""PromptGraph: graph-guided span sanitization (seed paper 001, Gu et al.), as a comparison sanitizer.

Implemented: §III-C the prompt graph G = (V, E, P, I); §IV-B span privacy P_i = max(D_i, C_i) (Eq. 5)
with the direct detector score D_i and the counterfactual score C_i = max_a [G(a|q) - G(a|q\\i)]₊
(Eq. 4, masking per Eq. 1); §IV-C the sparse candidate pairs C (each span joined to its k nearest
spans by embedding cosine, undirected), a_ij = ½([ℓ_i(q) - ℓ_i(q\\j)]₊ + [ℓ_j(q) - ℓ_j(q\\i)]₊) (Eq. 7)
and I_ij = a_ij / max_C a (Eq. 8, all 0 when every a is 0); §IV-D the objective
F(S) = Σ_{i∈S} P_i - λ·Σ_{(i,j)∈E_aff(S)} I_ij (Eq. 9, an edge charged once when either end is
protected) and its greedy marginal heuristic: from S = ∅ add the node with the largest positive
gain P_v - λ·Σ_{u∉S} I_vu and stop when no gain is positive; §IV-D/E opaque placeholders [P1], [P2], ...
with a local restoration table, restored only after the identifier and metadata checks.

Defaults (§V-A4): λ = 0.2, k = 4. The greedy is the paper's heuristic, not an exact maximizer:
F is a modular gain minus a coverage cost (supermodular), and greedy can stop at a local optimum.

Departures, and why:
* Spans: noun chunks, named entities and rule matches of en_core_web_sm (no span segmenter is
  specified); text outside them is context that is never protected.
* D_i: no detectors trained on AI4Privacy here; the hybrid regex + NER extractor of PA-HDP maps
  detector classes to fixed scores (``DETECTOR_SCORES``, Presidio-like confidences), other spans 0.
* G(a|x): a cue-lexicon detector per sensitive attribute, G = 1 - Π(1 - w_c) over the distinct cue
  lemmas still visible (the paper leaves the "lightweight classifiers and cue detectors" open).
* ℓ_i(x): no masked LM offline. The reconstruction score is the cosine between span i's embedding and
  the normalized sum of the embeddings of the other spans visible in x, so q\\j drops span j's vector.
* Sanitizing before indexing leaves the placeholders in the indexed text; ``restore_placeholders``
  implements §IV-E for responses and is not applied to the corpus. Identical protected strings of a
  document share one identifier. Queries play no role (a prompt sanitizer); ``seed`` is ignored.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from relguard.embed import embed_passages
from relguard.evaluation.comparators.pa_hdp import ModelBacked, SensitiveSpan, disjoint_spans, sensitive_spans
from relguard.types import Document, SanitizedDocument

DETECTOR_SCORES: tuple[tuple[str, float], ...] = (
    *(("EMAIL", 1.0), ("PHONE", 1.0), ("ID_NUMBER", 1.0), ("CREDENTIAL", 1.0), ("URL", 0.5), ("DISEASE", 0.85)),
    *(("PERSON", 0.85), ("FAC", 0.85), ("GPE", 0.6), ("LOC", 0.6), ("NORP", 0.6), ("ORG", 0.5), ("DATE", 0.5)),
    *(("TIME", 0.3), ("MONEY", 0.3)),
)
#: Cue lemmas per sensitive attribute a ∈ A, with their evidence weights (strong 0.8, weak 0.4).
ATTRIBUTE_CUES: dict[str, dict[str, float]] = {
    "health": {
        **dict.fromkeys(("diagnosis", "disease", "cancer", "diabetes", "hiv", "depression", "illness"), 0.8),
        **dict.fromkeys(("medication", "dosage", "therapy", "surgery", "symptom", "pregnancy", "disorder"), 0.8),
        **dict.fromkeys(("hospital", "clinic", "treatment", "patient", "doctor", "fasting", "insulin"), 0.4),
    },
    "religion": dict.fromkeys(("church", "mosque", "synagogue", "temple", "religion", "faith", "prayer"), 0.4),
    "politics": dict.fromkeys(("party", "election", "vote", "democrat", "republican", "campaign"), 0.4),
    "finance": {
        **dict.fromkeys(("salary", "debt", "loan", "mortgage", "bankruptcy", "income"), 0.8),
        **dict.fromkeys(("account", "bank", "tax", "credit", "payment"), 0.4),
    },
    "criminal": dict.fromkeys(("arrest", "conviction", "prison", "jail", "crime", "lawsuit"), 0.8),
    "residence": dict.fromkeys(("address", "home", "street", "apartment", "neighborhood"), 0.4),
}
PLACEHOLDER = re.compile(r"\[P(\d+)\]")


@dataclass(frozen=True, kw_only=True)
class Settings:
    lam: float = 0.2
    k: int = 4
    detector_scores: tuple[tuple[str, float], ...] = DETECTOR_SCORES

    def __post_init__(self) -> None:
        if self.lam < 0 or self.k < 1:
            raise ValueError("need lam ≥ 0 (λ = 0 is span-only sanitization) and k ≥ 1 neighbours")


@dataclass(frozen=True)
class RestorationEntry:
    original: str
    kind: str
    document: str


def objective(
    selected: Sequence[int], privacy: Sequence[float], edges: Mapping[tuple[int, int], float], lam: float
) -> float:
    """Eq. 9: F(S) = Σ_{i∈S} P_i - λ·Σ I_ij over edges with at least one end in S (each charged once)."""
    chosen = set(selected)
    cost = sum(w for (i, j), w in edges.items() if i in chosen or j in chosen)
    return sum(privacy[i] for i in chosen) - lam * cost


def greedy_protected_set(
    privacy: Sequence[float], edges: Mapping[tuple[int, int], float], *, lam: float
) -> tuple[int, ...]:
    """§IV-D greedy: add the node of largest positive marginal gain until none is positive (order kept)."""
    neighbours: dict[int, list[tuple[int, float]]] = {i: [] for i in range(len(privacy))}
    for (i, j), weight in edges.items():
        neighbours[i].append((j, weight))
        neighbours[j].append((i, weight))
    chosen: list[int] = []
    while True:
        taken = set(chosen)
        gains = {
            v: privacy[v] - lam * sum(w for u, w in neighbours[v] if u not in taken)
            for v in range(len(privacy))
            if v not in taken
        }
        best = max(gains, key=lambda v: (gains[v], -v), default=None)
        if best is None or gains[best] <= 0:
            return tuple(chosen)
        chosen.append(best)


def attribute_evidence(cues: Sequence[tuple[str, int]], hidden: Sequence[SensitiveSpan] = ()) -> dict[str, float]:
    """G(a | x) for every attribute: noisy-or over distinct cue lemmas whose position is not masked."""
    visible = {lemma for lemma, pos in cues if not any(s.start <= pos < s.end for s in hidden)}
    return {
        attribute: 1 - float(np.prod([1 - w for lemma, w in lexicon.items() if lemma in visible]))
        for attribute, lexicon in ATTRIBUTE_CUES.items()
    }


def counterfactual_privacy(cues: Sequence[tuple[str, int]], spans: Sequence[SensitiveSpan]) -> np.ndarray:
    """Eq. 4: C_i = max_a [G(a|q) - G(a|q\\i)]₊ for each span."""
    full = attribute_evidence(cues)
    scores = []
    for span in spans:
        masked = attribute_evidence(cues, (span,))
        scores.append(max(max(full[a] - masked[a], 0.0) for a in full))
    return np.array(scores)


def candidate_pairs(vectors: np.ndarray, k: int) -> tuple[tuple[int, int], ...]:
    """The sparse set C: each span joined to its k most cosine-similar spans, as undirected pairs i < j."""
    n = len(vectors)
    similarity = vectors @ vectors.T
    np.fill_diagonal(similarity, -np.inf)
    pairs = set()
    for i in range(n):
        for j in np.argsort(-similarity[i], kind="stable")[: min(k, n - 1)]:
            pairs.add((min(i, int(j)), max(i, int(j))))
    return tuple(sorted(pairs))


def dependency_weights(vectors: np.ndarray, pairs: Sequence[tuple[int, int]]) -> dict[tuple[int, int], float]:
    """Eqs. 7-8 with ℓ_i(x) = cos(v_i, Σ of the other visible span vectors), normalized by the largest a."""
    total = vectors.sum(axis=0)

    def support(i: int, masked: int | None) -> float:
        context = total - vectors[i] - (vectors[masked] if masked is not None else 0.0)
        norm = np.linalg.norm(context)
        return float(vectors[i] @ context / norm) if norm > 0 else 0.0

    raw = {
        (i, j): 0.5 * (max(support(i, None) - support(i, j), 0.0) + max(support(j, None) - support(j, i), 0.0))
        for i, j in pairs
    }
    top = max(raw.values(), default=0.0)
    return {pair: (a / top if top > 0 else 0.0) for pair, a in raw.items()}


def restore_placeholders(
    response: str, table: Mapping[str, RestorationEntry], *, document: str
) -> tuple[str, tuple[str, ...]]:
    """§IV-E: restore a placeholder only if its identifier is in the table and its entry belongs to
    ``document``; rewritten, invented or foreign placeholders stay as they are and are reported."""
    unresolved: list[str] = []

    def replace(match: re.Match[str]) -> str:
        entry = table.get(match.group(0))
        if entry is None or entry.document != document:
            unresolved.append(match.group(0))
            return match.group(0)
        return entry.original

    return PLACEHOLDER.sub(replace, response), tuple(unresolved)


class PromptGraph(ModelBacked):
    """PromptGraph over whole documents (a document plays the prompt); see the module docstring."""

    name = "promptgraph"
    Settings = Settings
    PROTECTS = (
        "Spans (entities, noun chunks, rule matches). Each span gets a privacy score, the larger of a detector "
        "score and how much masking it lowers the evidence for a sensitive attribute; pairs of similar spans "
        "get a dependency weight; a greedy pass protects the spans whose privacy outweighs λ times the "
        "dependencies they break, replacing them by opaque placeholders kept in a local restoration table. "
        "Claimed guarantee: none formal (no DP); empirical hiding rate and attack success rates only."
    )

    def sanitize(
        self, documents: Sequence[Document], *, queries: Sequence[str] | None = None, seed: int | None = None
    ) -> tuple[SanitizedDocument, ...]:
        return tuple(doc for doc, _ in self.sanitize_with_tables(documents))

    def sanitize_with_tables(
        self, documents: Sequence[Document]
    ) -> tuple[tuple[SanitizedDocument, dict[str, RestorationEntry]], ...]:
        parsed = self.nlp.pipe([d.text for d in documents])
        return tuple(self._sanitize_document(d, p) for d, p in zip(documents, parsed, strict=True))

    def graph(self, parsed: Any) -> tuple[tuple[SensitiveSpan, ...], np.ndarray, dict[tuple[int, int], float]]:
        """Spans, their privacy scores P and the dependency weights I of one parsed document."""
        detectors = dict(self.settings.detector_scores)
        spans = prompt_spans(parsed, detectors)
        if not spans:
            return spans, np.zeros(0), {}
        cues = [(t.lemma_.lower(), t.idx) for t in parsed if t.lemma_.lower() in _ALL_CUES]
        direct = np.array([detectors.get(s.label, 0.0) for s in spans])
        privacy = np.maximum(direct, counterfactual_privacy(cues, spans))
        vectors = embed_passages(self.encoder, [s.text for s in spans])
        return spans, privacy, dependency_weights(vectors, candidate_pairs(vectors, self.settings.k))

    def _sanitize_document(self, document: Document, parsed: Any):
        spans, privacy, edges = self.graph(parsed)
        protected = sorted(greedy_protected_set(privacy, edges, lam=self.settings.lam), key=lambda i: spans[i].start)
        ids: dict[str, str] = {}
        for i in protected:
            ids.setdefault(spans[i].text, f"[P{len(ids) + 1}]")
        text = document.text
        for i in sorted(protected, key=lambda i: -spans[i].start):
            text = text[: spans[i].start] + ids[spans[i].text] + text[spans[i].end :]
        kinds = {spans[i].text: spans[i].label for i in protected}
        table = {pid: RestorationEntry(original, kinds[original], document.name) for original, pid in ids.items()}
        return SanitizedDocument(document.name, text, filled_spans=len(protected)), table


_ALL_CUES = frozenset(itertools.chain.from_iterable(ATTRIBUTE_CUES.values()))


def prompt_spans(parsed: Any, detectors: Mapping[str, float]) -> tuple[SensitiveSpan, ...]:
    """Rule matches and entities (detector classes), then noun chunks that overlap neither and hold a content word."""
    found = list(sensitive_spans(parsed, detectors))
    found += [SensitiveSpan(e.start_char, e.end_char, e.text, e.label_) for e in parsed.ents]
    for chunk in parsed.noun_chunks:
        if any(not (t.is_stop or t.pos_ in ("PRON", "DET", "PUNCT")) for t in chunk):
            found.append(SensitiveSpan(chunk.start_char, chunk.end_char, chunk.text, "CHUNK"))
    return disjoint_spans(found)
