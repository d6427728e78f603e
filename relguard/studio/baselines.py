"""The Risk page's side-by-side: the seed papers' sanitizers on the analyst's own documents.

The same two attackers (the targeted extractor attacker and the independent co-occurrence reader) read each
sanitized corpus as read RelGuard's release. The analyst's documents come without questions, so every
sanitizer runs query-free and utility is the mean similarity of each document to its sanitized version; the
matched setting (optional: it searches a grid of settings) is the one nearest RelGuard's at ε = 5.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from relguard.evaluation import TargetedAttacker
from relguard.evaluation.comparators import COMPARATORS
from relguard.evaluation.comparators.compare import UNITS, document_similarity, run_seed_sanitizers
from relguard.evaluation.cooccurrence import CooccurrenceAttacker
from relguard.evaluation.core import Measure, truth_from_extraction
from relguard.evaluation.datasets import EvalDataset
from relguard.pipeline import Prepared
from relguard.types import Release

PERCENT_COLUMNS = ("Conn. F1", "Rel. F1", "co-occ. Conn. F1", "co-occ. Rel. F1", "doc. similarity")
SECONDS_HINT = (
    "per 100 short documents on two shared cores: PromptGraph under a minute, TRIP-RAG 1–4 min, PA-HDP 8–9 min"
)


@dataclass(frozen=True)
class SeedComparison:
    """One measured comparison, tied to the release it was run beside."""

    release: Release
    rows: tuple[dict[str, Any], ...]
    seconds: float
    matched: bool


def compare_seed_sanitizers(
    prepared: Prepared,
    release: Release,
    *,
    attacker: TargetedAttacker,
    matcher,
    encoder: Any,
    names: Sequence[str],
    match: bool = False,
    log: Callable[[str], None] = lambda message: None,
) -> SeedComparison:
    """No defence, the drawn release and each named seed sanitizer, attacked and measured the same way.

    A sanitizer that cannot run (a missing model or extra) raises the registry's ``BackendError``.
    """
    started = time.perf_counter()
    attacker.seed([d.text for d in prepared.documents], prepared.extraction)
    truth = truth_from_extraction(prepared)
    independent = CooccurrenceAttacker(truth.names)

    measure = Measure(truth, attacker, matcher, independent)

    g = release.guarantee
    deleted = sum(o.deleted for o in release.outcomes) / max(1, len(release.outcomes))
    rows = [
        _row("no defence (original text)", "–", "–", measure(prepared.documents, "no defence", {}, 0.0, prepared), 1.0),
        _row(
            "RelGuard (your release)",
            "relations",
            f"ε = {g.epsilon:g}, λ = {g.lam:g}, K = {g.k}",
            measure(release.documents, "RelGuard", {}, deleted, prepared),
            document_similarity(prepared.documents, release.documents, encoder),
        ),
    ]
    dataset = EvalDataset("your documents", tuple(prepared.documents))
    seed, _ = run_seed_sanitizers(
        names,
        dataset=dataset,
        prepared=prepared,
        measure=measure,
        encoder=encoder,
        trials=1,
        epsilons=(5.0,),
        match=match,
        log=log,
    )
    for r in (r for r in seed if r["table"] == "seed"):
        rows.append(
            {
                "method": f"{r['variant']} ({r['kind']})",
                "protects": r["protects"],
                "setting": r["setting"],
                **{c: 100 * r[k] for c, k in zip(PERCENT_COLUMNS, _KEYS, strict=True)},
                "spans changed": r["spans_changed"],
                "seconds": r["seconds"],
            }
        )
    return SeedComparison(release, tuple(rows), time.perf_counter() - started, match)


def display_rows(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The comparison's rows with "spans changed" and "seconds" as text, "—" where they do not apply: the
    original text and the release drawn earlier were not sanitized in this run, and a table cell reading
    "None" looks like a failure."""
    return [
        {
            **row,
            "spans changed": "—" if row["spans changed"] is None else f"{row['spans changed']:,}",
            "seconds": "—" if row["seconds"] is None else f"{row['seconds']:.1f} s",
        }
        for row in rows
    ]


def descriptions(names: Sequence[str]) -> dict[str, str]:
    """What each sanitizer protects and what guarantee its paper claims, by name."""
    return {name: COMPARATORS[name].describe() for name in names}


_KEYS = ("conn_f1", "rel_f1", "cooc_conn_f1", "cooc_rel_f1", "doc_similarity")


def _row(method: str, protects: str, setting: str, evaluation, similarity: float) -> dict[str, Any]:
    values = {**evaluation.as_dict(), "doc_similarity": similarity}
    return {
        "method": method,
        "protects": protects,
        "setting": setting,
        **{c: 100 * values[k] for c, k in zip(PERCENT_COLUMNS, _KEYS, strict=True)},
        "spans changed": None,
        "seconds": None,
    }


__all__ = [
    "PERCENT_COLUMNS",
    "SECONDS_HINT",
    "UNITS",
    "SeedComparison",
    "compare_seed_sanitizers",
    "descriptions",
    "display_rows",
]
