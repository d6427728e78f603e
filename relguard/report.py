"""The public release report (DESIGN "The public release report") and the confidential audit file.

The report says what was promised and how it was computed, so a privacy
officer can check a release without rerunning it: the guarantee and its unit,
ε/λ/K, the encoder and its weights hash, the pools and their hash, the RNG,
counts, and SHA-256 of every input and output file. The mapping from original
to sampled relations is *not* in it; it goes to a separate audit file that is
written only on request.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

from relguard.io import atomic_write_all, safe_output_path, serialize_documents, sha256_bytes
from relguard.types import Release

REPORT_VERSION = 1
AUDIT_FILE = "CONFIDENTIAL-audit.json"
LIMITS = (
    "Only relations the extractor found are protected: a relation it missed is left in the text as written.",
    "Entity identities are not hidden: names stay in the text; what is protected is which relation links them.",
    "The guarantee bounds how well any reader can tell two alternative relations on the same entity pair apart; "
    "relations far apart in meaning (d_R near 1) are protected less than close ones.",
    "Releases compose: publishing two releases of the same corpus adds up their epsilon * d_R.",
    "Counts of unchanged and substituted relations below are computed from the confidential mapping; "
    "they are aggregate and noise-free.",
)


def release_counts(release: Release) -> dict[str, int]:
    outcomes = release.outcomes
    sentences = sum(len(d.sentences) for d in release.extraction.documents)
    removed = sum(len(d.removed_sentences) for d in release.documents)
    return {
        "documents": len(release.documents),
        "documents_changed": sum(1 for d in release.documents if d.removed_sentences or d.filled_spans),
        "sentences": sentences,
        "sentences_removed": removed,
        "triples": len(outcomes),
        "occurrences": sum(len(o.triple.occurrences) for o in outcomes),
        "unchanged": sum(1 for o in outcomes if o.unchanged),
        "substituted": sum(1 for o in outcomes if not o.deleted and not o.unchanged),
        "deleted": sum(1 for o in outcomes if o.deleted),
    }


def build_report(release: Release, *, output_hashes: Mapping[str, str] | None = None) -> dict:
    """The public report as a JSON-ready dict; holds no original relation."""
    g = release.guarantee
    p = release.provenance
    per_doc = Counter(occ.document for o in release.outcomes for occ in o.triple.occurrences)
    triples_per_doc = Counter()
    for o in release.outcomes:
        for name in {occ.document for occ in o.triple.occurrences}:
            triples_per_doc[name] += 1
    worst_m = max(triples_per_doc.values(), default=0)
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
            "worst_case_per_relation_bound": math.exp(g.epsilon),
            "max_triples_in_one_document": worst_m,
            "worst_case_per_document_bound": math.exp(g.epsilon * worst_m)
            if worst_m < 700 / max(g.epsilon, 1e-9)
            else "inf",
        },
        "parameters": {"epsilon": g.epsilon, "lambda": g.lam, "k": g.k},
        "mechanism": "exponential mechanism over K public candidates plus null: P(c) ~ exp(-epsilon*d_R(r,c)/2), "
        "P(null) ~ exp(-epsilon*lambda/2); one outcome per canonical triple, reused for every occurrence",
        "rng": g.rng,
        "encoder": p.get("encoder"),
        "extractor": p.get("extractor"),
        "candidates": {
            "backend": p.get("candidates"),
            "source": p.get("pool_source"),
            "sha256": p.get("pool_hash"),
            "pools": {f"{a}|{b}": list(pool.predicates) for pool in release.pools for a, b in [pool.type_pair]},
        },
        "backends": p.get("backends", {}),
        "versions": {"relguard": p.get("relguard_version"), "python": p.get("python")},
        "created": p.get("created"),
        "counts": release_counts(release),
        "occurrences_per_document": dict(sorted(per_doc.items())),
        "files": {"inputs": p.get("input_sha256", {}), "outputs": dict(output_hashes or {})},
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
        f"- **Worst case per document:** up to {guarantee['max_triples_in_one_document']} triples in one "
        f"document, e^(ε·m) = {guarantee['worst_case_per_document_bound']:.4g}"
        if isinstance(guarantee["worst_case_per_document_bound"], float)
        else "- **Worst case per document:** unbounded in practice (too many triples at this ε).",
        f"- **Randomness:** {report['rng']}.",
        "",
        "## How it was computed",
        "",
        f"- Mechanism: {report['mechanism']}.",
        f"- Extractor: `{report['extractor']}`",
        f"- Encoder: `{report['encoder']}`",
        f"- Candidate pools: {report['candidates']['backend']} ({report['candidates']['source']}), "
        f"sha256 `{report['candidates']['sha256']}`",
        f"- RelGuard {report['versions']['relguard']}, Python {report['versions']['python']}, "
        f"created {report['created']}",
        *backend_lines(report.get("backends") or {}),
        "",
        "## Counts",
        "",
        "| what | number |",
        "|---|---:|",
    ]
    lines += [f"| {key.replace('_', ' ')} | {value} |" for key, value in counts.items()]
    lines += ["", "## Candidate pools used (public)", ""]
    for pair, predicates in report["candidates"]["pools"].items():
        lines.append(f"- **{pair.replace('|', ' → ')}:** {', '.join(predicates)}")
    lines += ["", "## Files (SHA-256)", "", "| file | role | sha256 |", "|---|---|---|"]
    for role in ("inputs", "outputs"):
        for name, digest in report["files"][role].items():
            lines.append(f"| {_md_code(name)} | {role[:-1]} | `{digest}` |")
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
    """The ``relguard audit`` pass/fail table (relguard/selfaudit.py) as a Markdown section."""
    verdict = "PASS" if audit.get("passed") else "FAIL"
    lines = ["", f"## Self-audit of the guarantee: {verdict}", "", "| check | result | detail |", "|---|---|---|"]
    for check in audit.get("checks", []):
        result = {True: "PASS", False: "FAIL", None: "skipped"}[check.get("passed")]
        cells = [str(check.get(key, "")).replace("|", "\\|") for key in ("name", "detail")]
        lines.append(f"| {cells[0]} | {result} | {cells[1]} |")
    return lines


def backend_lines(backends: dict) -> list[str]:
    """Report lines for backends that describe themselves (LLM model, prompt versions, calls, tokens)."""
    lines = []
    for role, info in backends.items():
        if not isinstance(info, dict) or "model" not in info:
            continue
        versions = ", ".join(f"{k} {v}" for k, v in info.get("prompt_versions", {}).items())
        lines.append(
            f"- {role.capitalize()} LLM: model `{info['model']}`, prompts {versions}; "
            f"{info.get('calls', 0)} calls, {info.get('prompt_tokens', 0)} prompt + "
            f"{info.get('completion_tokens', 0)} completion tokens"
        )
        dropped = {k: v for k, v in (info.get("dropped") or {}).items() if v}
        if dropped:
            counts = ", ".join(f"{k} {v}" for k, v in dropped.items())
            lines.append(f"  - model output dropped as unverifiable: {counts}")
    return lines


def build_audit(release: Release) -> dict:
    """The CONFIDENTIAL mapping from original to sampled relations: never part of a public export."""
    return {
        "CONFIDENTIAL": "This file maps original relations to sampled ones and undoes the protection. "
        "Do not publish it or store it with the release.",
        "outcomes": [
            {
                "subject": o.triple.subject,
                "subject_type": o.triple.subject_type,
                "original": o.triple.predicate,
                "sampled": o.predicate,
                "object": o.triple.object,
                "object_type": o.triple.object_type,
                "occurrences": [
                    {"document": occ.document, "sentence": occ.sentence, "span": occ.text}
                    for occ in o.triple.occurrences
                ],
            }
            for o in release.outcomes
        ],
    }


def public_files(release: Release) -> dict[str, bytes]:
    """Everything a public export holds: sanitized documents under ``documents/`` plus the report.

    Scanned by :mod:`relguard.leakscan` before it is returned: a leak raises ``LeakError`` and nothing is written.
    """
    originals = {d.document.name: d for d in release.extraction.documents}
    pairs = [(originals[s.name].document, s.text) for s in release.documents]
    files = {f"documents/{name}": data for name, data in serialize_documents(pairs).items()}
    hashes = {name: sha256_bytes(data) for name, data in files.items()}
    report = build_report(release, output_hashes=hashes)
    files["report.json"] = (json.dumps(report, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    files["report.md"] = render_markdown(report).encode("utf-8")
    from relguard.leakscan import check_public_files, forms_for

    check_public_files(release, files, forms=forms_for(release))
    return files


def write_release(release: Release, out_dir: str | Path, *, audit: bool = False) -> list[Path]:
    """Write the public files (and the audit file only if ``audit``) atomically under ``out_dir``."""
    out = Path(out_dir)
    staged = [(safe_output_path(out, name), data) for name, data in public_files(release).items()]
    if audit:
        data = (json.dumps(build_audit(release), indent=2, ensure_ascii=False) + "\n").encode()
        staged.append((safe_output_path(out, AUDIT_FILE), data))
    return atomic_write_all(staged)
