"""The public release report (DESIGN "The public release report"): report.json and its Markdown rendering.

The report says what was promised and how it was computed, so a privacy
officer can check a release without rerunning it: the guarantee and its unit,
ε/λ/K, the encoder and its weights hash, the pools and their hash, the RNG,
counts that follow from the output, and SHA-256 of every output file.

Everything in it is a function of the sampled outcomes and of public
information only (DESIGN invariant 12): no digest or size of an input (the
sanitized text is public except the relation spans, so hashing guesses of a
span would recover the original), no count that needs the original relations
(unchanged / substituted), no LLM usage. Those, and the mapping from original
to sampled relations, go to the confidential mapping
(:mod:`relguard.release.confidential`), written only on request.
``docs/reliability.md`` lists every public field and why it is safe.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping

from relguard.textable import markdown_cell, markdown_table
from relguard.types import Release

REPORT_VERSION = 2
LIMITS = (
    "Only relations the extractor found are protected: a relation it missed is left in the text as written.",
    "Entity identities are not hidden: names stay in the text; what is protected is which relation links them.",
    "The guarantee bounds how well any reader can tell two alternative relations on the same entity pair apart; "
    "relations far apart in meaning (d_R near 1) are protected less than close ones.",
    "Releases compose: publishing two releases of the same corpus adds up their epsilon * d_R.",
    "Every count here follows from the released text itself; how many relations kept their original wording "
    "is known only to the confidential file.",
)
#: The public counts, each computable from the sanitized output and the public structure of the slots.
PUBLIC_COUNTS = (
    "documents",
    "documents_changed",
    "sentences",
    "sentences_removed",
    "sentences_withheld",
    "slots",
    "groups",
    "groups_deleted",
)
COUNT_LABELS = {
    "documents": "documents",
    "documents_changed": "documents changed",
    "sentences": "sentences",
    "sentences_removed": "sentences removed (a deleted relation)",
    "sentences_withheld": "sentences withheld by the leak scan",
    "slots": "relation slots (spans rewritten or removed)",
    "groups": "relation groups (aligned entity pairs, one draw each)",
    "groups_deleted": "groups deleted (null outcome)",
}


def release_counts(release: Release) -> dict[str, int]:
    """The public counts (:data:`PUBLIC_COUNTS`): functions of the outcomes and of where the slots are."""
    return {
        "documents": len(release.documents),
        "documents_changed": sum(
            1 for d in release.documents if d.removed_sentences or d.filled_spans or d.withheld_sentences
        ),
        "sentences": sum(len(d.sentences) for d in release.extraction.documents),
        "sentences_removed": sum(len(d.removed_sentences) for d in release.documents),
        "sentences_withheld": sum(len(d.withheld_sentences) for d in release.documents),
        "slots": sum(len(o.group.occurrences) for o in release.outcomes),
        "groups": len(release.outcomes),
        "groups_deleted": sum(1 for o in release.outcomes if o.deleted),
    }


def build_report(release: Release, *, output_hashes: Mapping[str, str] | None = None) -> dict:
    """The public report as a JSON-ready dict: outcomes and public information only (DESIGN invariant 12)."""
    g = release.guarantee
    p = release.provenance
    per_doc = Counter(occ.document for o in release.outcomes for occ in o.group.occurrences)
    groups_per_doc = Counter(name for o in release.outcomes for name in o.group.documents)
    worst_m = max(groups_per_doc.values(), default=0)
    return {
        "relguard_report_version": REPORT_VERSION,
        "private_release": g.private_release,
        "notice": None
        if g.private_release
        else "NOT A PRIVATE RELEASE: drawn with a fixed teaching seed, so the output is reproducible "
        "and the guarantee does not hold. Do not publish it.",
        "unit_of_privacy": g.unit,
        "guarantee": {
            "definition": "epsilon-relation-DP (paper Def. 3): Pr[M(r) in S] <= exp(epsilon * d_R(r, r')) "
            "* Pr[M(r') in S] for every pair of relations r, r' on the same entity pair",
            "distance": "d_R(r, r') = 0.5 * || z(r) - z(r') ||_2 with z the unit-normalized encoder embedding",
            "document_level": g.document_level,
            "grouping": "every occurrence on one aligned entity pair (canonical subject and object, their types, "
            "direction), in every document, shares one outcome; a group's utility is -min_i d_R(r_i, c), which "
            "moves by at most d_R(r, r') when one of its relations changes",
            "worst_case_per_relation_bound": math.exp(g.epsilon),
            "max_groups_in_one_document": worst_m,
            "worst_case_per_document_bound": math.exp(g.epsilon * worst_m)
            if worst_m < 700 / max(g.epsilon, 1e-9)
            else "inf",
        },
        "parameters": {"epsilon": g.epsilon, "lambda": g.lam, "k": g.k},
        "mechanism": "exponential mechanism over K public candidates plus null: P(c) ~ exp(-epsilon*d_R(r,c)/2), "
        "P(null) ~ exp(-epsilon*lambda/2); one outcome per relation group, reused for every occurrence",
        "rng": g.rng,
        "encoder": p.get("encoder"),
        "extractor": p.get("extractor"),
        "candidates": {
            "backend": p.get("candidates"),
            "source": p.get("pool_source"),
            "sha256": p.get("pool_hash"),
            "inventory_sha256": p.get("inventory_hash"),
            "pools": {f"{a}|{b}": list(pool.predicates) for pool in release.pools for a, b in [pool.type_pair]},
        },
        "backends": p.get("backends", {}),
        "versions": {"relguard": p.get("relguard_version"), "python": p.get("python")},
        "created": p.get("created"),
        "counts": release_counts(release),
        "slots_per_document": dict(sorted(per_doc.items())),
        "files": {"outputs": dict(output_hashes or {})},
        "limits": list(LIMITS),
        **({"self_audit": p["self_audit"]} if p.get("self_audit") else {}),
    }


def render_markdown(report: dict) -> str:
    """A human-readable rendering of :func:`build_report`."""
    params = report["parameters"]
    counts = report["counts"]
    guarantee = report["guarantee"]
    lines = ["# RelGuard release report", ""]
    if report["notice"]:
        lines += [f"> **{report['notice']}**", ""]
    lines += [
        "## Guarantee",
        "",
        f"- **Definition:** {guarantee['definition']}.",
        f"- **Unit of privacy:** {report['unit_of_privacy']}.",
        f"- **Distance:** {guarantee['distance']}.",
        f"- **Document level:** {guarantee['document_level']}.",
        f"- **Parameters:** ε = {params['epsilon']:g}, λ = {params['lambda']:g}, K = {params['k']}.",
        f"- **Worst case per relation:** e^ε = {guarantee['worst_case_per_relation_bound']:.4g} (d_R ≤ 1).",
        f"- **Worst case per document:** up to {guarantee['max_groups_in_one_document']} relation groups in one "
        f"document, e^(ε·m) = {guarantee['worst_case_per_document_bound']:.4g}"
        if isinstance(guarantee["worst_case_per_document_bound"], float)
        else "- **Worst case per document:** unbounded in practice (too many triples at this ε).",
        f"- **Grouping:** {guarantee['grouping']}.",
        f"- **Randomness:** {report['rng']}.",
        "",
        "## How it was computed",
        "",
        f"- Mechanism: {report['mechanism']}.",
        f"- Extractor: `{report['extractor']}`",
        f"- Encoder: `{report['encoder']}`",
        f"- Candidate pools: {report['candidates']['backend']} ({report['candidates']['source']}), "
        f"sha256 `{report['candidates']['sha256']}`"
        + (
            f" (whole inventory: `{report['candidates']['inventory_sha256']}`)"
            if report["candidates"].get("inventory_sha256")
            else ""
        ),
        f"- RelGuard {report['versions']['relguard']}, Python {report['versions']['python']}, "
        f"created {report['created']}",
        *backend_lines(report.get("backends") or {}),
        "",
        "## Counts",
        "",
    ]
    labels = [(COUNT_LABELS.get(key, key.replace("_", " ")), value) for key, value in counts.items()]
    lines += markdown_table(("what", "number"), labels, align="lr")
    lines += ["", "## Candidate pools used (public)", ""]
    for pair, predicates in report["candidates"]["pools"].items():
        lines.append(f"- **{pair.replace('|', ' → ')}:** {', '.join(predicates)}")
    lines += ["", "## Output files (SHA-256)", ""]
    outputs = report["files"]["outputs"].items()
    lines += markdown_table(("file", "sha256"), [(_md_code(name), f"`{digest}`") for name, digest in outputs])
    if report.get("self_audit"):
        lines += _self_audit_lines(report["self_audit"])
    lines += ["", "## Limits", ""] + [f"- {text}" for text in report["limits"]]
    return "\n".join(lines) + "\n"


def _md_code(text: str) -> str:
    """User text (a file name) as a Markdown code span inside a table: no backtick, pipe or newline breaks out."""
    text = " ".join(str(text).split()).replace("|", "\\|")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    return f"{fence} {text} {fence}" if longest else f"`{text}`"


def _self_audit_lines(audit: dict) -> list[str]:
    """The ``relguard audit`` pass/fail table (relguard/verify) as a Markdown section."""
    verdict = "PASS" if audit.get("passed") else "FAIL"
    rows = [
        (
            markdown_cell(check.get("name", "")),
            {True: "PASS", False: "FAIL", None: "skipped"}[check.get("passed")],
            markdown_cell(check.get("detail", "")),
        )
        for check in audit.get("checks", [])
    ]
    return ["", f"## Self-audit of the guarantee: {verdict}", "", *markdown_table(("check", "result", "detail"), rows)]


def backend_lines(backends: dict) -> list[str]:
    """Report lines for backends that describe themselves: model and prompt versions (never their usage)."""
    lines = []
    for role, info in backends.items():
        if not isinstance(info, dict) or "model" not in info:
            continue
        versions = ", ".join(f"{k} {v}" for k, v in info.get("prompt_versions", {}).items())
        lines.append(f"- {role.capitalize()} LLM: model `{info['model']}`, prompts {versions}")
    return lines
