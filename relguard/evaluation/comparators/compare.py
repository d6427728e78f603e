"""The seed sanitizers inside ``relguard evaluate``: each paper's default and a utility-matched setting.

Every variant is attacked and measured by the sweep's own ``measure`` (the targeted extractor attacker, the
independent co-occurrence reader, answer survival and BM25 recall), so its rows sit beside RelGuard's.

Query-aware variants score against the dataset's questions (all of them: the workload a deployment would
see); query-free variants use no query (TRIP-RAG's own pre-indexing setting; PA-HDP's document stand-in).
PromptGraph never uses a query. A dataset without questions (Re-DocRED) runs the query-free variants only.

The matched setting moves one knob of the paper (TRIP-RAG's threshold θ, PromptGraph's λ, PA-HDP's
thresholds τ1, τ2 shifted together by δ at the paper's ε = 5) over a fixed grid and keeps the value whose
utility is nearest RelGuard's mean utility at ε = 5; utility is answer survival where the dataset has
questions, otherwise the mean cosine between each document and its sanitized version (``doc_similarity``).
The search reuses the expensive parts (embeddings are cached per text; PA-HDP reuses each sentence's m
candidates through ``memo``), so only the first, paper-default run of each sanitizer is timed.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from relguard import registry
from relguard.embed import embed_passages
from relguard.errors import ConfigError
from relguard.evaluation.comparators import COMPARATORS
from relguard.evaluation.utility import answer_survival
from relguard.types import Document, SanitizedDocument


@dataclass(frozen=True)
class Variant:
    """One way of running a seed sanitizer, and the knob (with its grid) that the utility match moves."""

    label: str
    comparator: str
    query_aware: bool
    knob: str
    default: float
    grid: tuple[float, ...]


VARIANTS: tuple[Variant, ...] = (
    Variant("PromptGraph", "promptgraph", False, "lam", 0.2, (0.05, 0.2, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0)),
    Variant("TRIP-RAG (query-free)", "trip-rag", False, "threshold", 2 / 3, (0.25, 2 / 3, 1.0, 1.5, 2.0, 3.0, 5.0)),
    Variant("TRIP-RAG (query-aware)", "trip-rag", True, "threshold", 2 / 3, (0.25, 2 / 3, 1.0, 1.5, 2.0, 3.0, 5.0)),
    Variant("PA-HDP (query-aware)", "pa-hdp", True, "tau_shift", 0.0, (0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.5)),
    Variant("PA-HDP (query-free)", "pa-hdp", False, "tau_shift", 0.0, (0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.5)),
)
UNITS = {"promptgraph": "spans", "trip-rag": "entities", "pa-hdp": "sentences"}
KNOB_NAMES = {"lam": "λ", "threshold": "θ", "tau_shift": "τ shift δ"}


def parse_baselines(text: str | None) -> tuple[str, ...]:
    """``--baselines``: comma-separated names, ``all`` (the default) or ``none``."""
    value = (text or "all").strip().lower()
    if value == "all":
        return tuple(COMPARATORS)
    if value == "none":
        return ()
    names = tuple(dict.fromkeys(n.strip() for n in value.split(",") if n.strip()))
    unknown = [n for n in names if n not in COMPARATORS]
    if unknown or not names:
        raise ConfigError(
            f"--baselines: unknown seed sanitizer {', '.join(unknown) or repr(text)}; "
            f"use a comma-separated subset of {','.join(COMPARATORS)}, 'all' or 'none'"
        )
    return names


def settings_for(variant: Variant, value: float) -> dict[str, float]:
    """The comparator's ``Settings`` fields for a knob value (δ moves τ1 = 0.3 and τ2 = 0.7 together)."""
    if variant.knob == "tau_shift":
        return {"tau_low": 0.3 + value, "tau_high": 0.7 + value}
    return {variant.knob: value}


def setting_text(variant: Variant, value: float) -> str:
    name = KNOB_NAMES[variant.knob]
    if variant.knob == "tau_shift":
        return f"ε=5, τ1={0.3 + value:.2f}, τ2={0.7 + value:.2f}" + (" (paper)" if value == variant.default else "")
    return f"{name}={value:.3g}" + (" (paper)" if value == variant.default else "")


def document_similarity(originals: Sequence[Document], sanitized: Sequence[SanitizedDocument], encoder: Any) -> float:
    """Mean cos(E(D), E(D')) over documents: how much of each document's meaning the release keeps."""
    if not originals:
        return 0.0
    a = embed_passages(encoder, [d.text for d in originals])
    b = embed_passages(encoder, [d.text for d in sanitized])
    return float(np.mean(np.sum(a * b, axis=1)))


def utility_of(dataset, prepared, documents: Sequence[SanitizedDocument], encoder: Any) -> dict[str, float]:
    """``doc_similarity`` always; ``answer_survival`` too where the dataset has questions."""
    row = {"doc_similarity": document_similarity(prepared.documents, documents, encoder)}
    if dataset.questions:
        originals = {d.name: d for d in prepared.documents}
        extractions = {e.document.name: e for e in prepared.extraction.documents}
        sanitized = {d.name: d for d in documents}
        row["answer_survival"] = answer_survival(dataset.questions, originals, sanitized, extractions)[0]
    return row


def matching_key(dataset) -> str:
    return "answer_survival" if dataset.questions else "doc_similarity"


def relguard_reference(
    prepared, dataset, *, epsilons: Sequence[float], lam: float, trials: int, encoder: Any
) -> tuple[list[dict[str, Any]], float]:
    """RelGuard's utility at each ε (``trials`` fresh draws each), and the seconds one draw takes."""
    rows, draw_seconds = [], []
    for epsilon in epsilons:
        for trial in range(trials):
            begin = time.perf_counter()
            release = prepared.draw(epsilon=epsilon, lam=lam)
            draw_seconds.append(time.perf_counter() - begin)
            util = utility_of(dataset, prepared, release.documents, encoder)
            rows.append({"table": "seed-reference", "method": "RelGuard", "epsilon": epsilon, "trial": trial, **util})
    return rows, float(np.mean(draw_seconds)) if draw_seconds else 0.0


def run_seed_sanitizers(
    names: Sequence[str],
    *,
    dataset,
    prepared,
    measure: Callable[..., Any],
    encoder: Any,
    lam: float = 1.0,
    trials: int = 3,
    epsilons: Sequence[float] = (10.0, 5.0, 1.0, 0.1),
    match_epsilon: float = 5.0,
    match: bool = True,
    log: Callable[[str], None] = lambda message: None,
) -> tuple[list[dict[str, Any]], dict[str, float]]:
    """Rows (table ``seed``: each variant at its paper default and, with ``match``, utility-matched;
    ``seed-reference``: RelGuard's utility per ε) and seconds (each sanitizer's first run, one RelGuard draw)."""
    key = matching_key(dataset)
    reference, draw = relguard_reference(
        prepared, dataset, epsilons=sorted({*epsilons, match_epsilon}), lam=lam, trials=trials, encoder=encoder
    )
    target = float(np.mean([r[key] for r in reference if r["epsilon"] == match_epsilon]))
    rows: list[dict[str, Any]] = list(reference)
    seconds = {"relguard_draw": draw}
    nlp = registry.create("extractor", "spacy").nlp
    queries = [q.question for q in dataset.questions] if dataset.questions else None
    memo: dict = {}
    for variant in VARIANTS:
        if variant.comparator not in names or (variant.query_aware and not queries):
            continue
        base = registry.create("sanitizer", variant.comparator, nlp=nlp, encoder=encoder, memo=memo)

        def sanitize(value: float, variant: Variant = variant, base: Any = base) -> tuple[SanitizedDocument, ...]:
            settings = dataclasses.replace(base.settings, **settings_for(variant, value))
            sanitizer = type(base)(settings, nlp=nlp, encoder=encoder, memo=memo)
            return sanitizer.sanitize(prepared.documents, queries=queries if variant.query_aware else None)

        begin = time.perf_counter()
        default_docs = sanitize(variant.default)
        elapsed = time.perf_counter() - begin
        seconds.setdefault(variant.comparator, elapsed)
        tried = {variant.default: (default_docs, utility_of(dataset, prepared, default_docs, encoder))}
        for value in variant.grid if match else ():
            if value not in tried:
                docs = sanitize(value)
                tried[value] = (docs, utility_of(dataset, prepared, docs, encoder))
        matched = min(tried, key=lambda v: (abs(tried[v][1][key] - target), v))
        log(
            f"  {variant.label}: utility {key} {tried[variant.default][1][key]:.3f} at the paper's setting, "
            f"{tried[matched][1][key]:.3f} at {setting_text(variant, matched)} (RelGuard ε=5: {target:.3f})"
        )
        for kind, value in (("paper default", variant.default), ("matched", matched))[: 2 if match else 1]:
            docs, util = tried[value]
            evaluation = measure(docs, f"{variant.label} — {kind}", {}, 0.0, prepared)
            rows.append(
                {
                    "table": "seed",
                    **evaluation.as_dict(),
                    **util,
                    "variant": variant.label,
                    "kind": kind,
                    "setting": setting_text(variant, value),
                    "query_aware": variant.query_aware,
                    "matched_on": key,
                    "target": target,
                    "spans_changed": sum(d.filled_spans for d in docs),
                    "protects": UNITS[variant.comparator],
                    "seconds": elapsed if kind == "paper default" else None,
                }
            )
    return rows, seconds
