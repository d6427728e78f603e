"""report.md: the public report as a privacy officer reads and signs it.

It opens in plain words — what was protected, what was not, with numbers — then the sign-off block, then the
guarantee with its bounds said in words, and the technical detail after. Everything rendered comes from the
public report dict (:func:`relguard.release.report.build_report`), so the Markdown can say nothing the JSON
does not.
"""

from __future__ import annotations

import math
import re

from relguard.release.entity import entity_lines
from relguard.release.report import COUNT_LABELS, loss_words
from relguard.textable import markdown_cell, markdown_table, plural

SIGN_OFF_FIELDS = ("reviewer", "date", "decision", "notes")


def in_words(factor: float | str) -> str:
    """A bound e^x as a reader says it: "7.4 times", "about 60,000 times", "beyond any practical meaning"."""
    if not isinstance(factor, int | float) or not math.isfinite(factor) or factor > 1e12:
        return "beyond any practical meaning (more than a trillion times)"
    if factor < 10:
        return f"{factor:.2f} times"
    if factor < 1000:
        return f"{factor:.0f} times"
    magnitude = 10 ** (int(math.log10(factor)) - 1)
    return f"about {round(factor / magnitude) * magnitude:,.0f} times"


def summary_lines(report: dict) -> list[str]:
    """The opening paragraph: what this release protected and what it did not, in plain words with numbers."""
    counts, params, cover = report["counts"], report["parameters"], report.get("coverage") or {}
    bound = report["guarantee"]["worst_case_per_relation_bound"]
    bare = cover.get("sentences_with_two_entities_and_no_slot", 0)
    bare_documents = cover.get("documents_with_unprotected_sentences", 0)
    untyped = cover.get("sentences_with_an_untyped_name", 0)
    unslotted = cover.get("documents_without_slots", 0)
    lines = [
        "## Summary",
        "",
        f"This release rewrote **{plural(counts['documents'], 'document')}**. RelGuard found "
        f"**{plural(counts['slots'], 'relation span')}** between named entities, on "
        f"**{plural(counts['groups'], 'entity pair')}**. Each pair's relation was replaced "
        f"by one of {params['k']} public candidate relations, or its sentence deleted, drawn at random with "
        f"ε = {params['epsilon']:g}: whatever a reader knows, the release makes them at most **{in_words(bound)}** "
        "more confident about which of two relations links the same two entities (less for relations close in "
        f"meaning). {plural(counts['groups_deleted'], 'pair was', 'pairs were')} deleted, removing "
        f"**{counts['sentences_removed']} of {plural(counts['sentences'], 'sentence')}**.",
        "",
        "**Not protected:** relations RelGuard did not find stay in the text as written. "
        f"**{plural(bare, 'sentence')}** {'names' if bare == 1 else 'name'} two or more entities but "
        f"{'holds' if bare == 1 else 'hold'} no relation slot, **{plural(untyped, 'sentence')}** "
        f"{'holds' if untyped == 1 else 'hold'} a name no entity stands for (in "
        f"{plural(bare_documents, 'document')} in all), and "
        f"**{plural(unslotted, 'document')}** had no relation at all and {'is' if unslotted == 1 else 'are'} "
        "released word for word. Entity names are not hidden. "
        f"Slot mode: **{report.get('slot_mode', 'spans')}** (see Limits).",
    ]
    fields = report.get("record_fields") or {}
    if left := fields.get("left_out"):
        one = len(left) == 1
        lines += [
            "",
            f"**Left out:** the record {'field' if one else 'fields'} {', '.join(f'`{n}`' for n in left)} "
            f"{'holds' if one else 'hold'} words and only the text field is sanitized, so "
            f"{'it is' if one else 'they are'} not in this release (rerun with --keep-fields NAME to release "
            "one as written).",
        ]
    if kept := fields.get("kept_as_written"):
        lines += [
            "",
            f"**Released as written, not sanitized:** the record {'field' if len(kept) == 1 else 'fields'} "
            f"{', '.join(f'`{n}`' for n in kept)} (--keep-fields).",
        ]
    unfillable = counts.get("sentences_unfillable", 0)
    if unfillable:
        lines += [
            "",
            f"**{plural(unfillable, 'sentence')}** {'was' if unfillable == 1 else 'were'} deleted because no wording "
            "of the drawn relation fits where the relation stood (failing closed instead of printing broken English).",
        ]
    restated = counts.get("sentences_restated", 0)
    if restated:
        lines += [
            "",
            f"**{plural(restated, 'sentence')}** {'was' if restated == 1 else 'were'} restated: no wording of the "
            "drawn relation reads well where it stood, so each keeps its first clause where that reads alone and "
            'states its other relations plainly ("<subject> <drawn relation> <object>."); what else it said is not '
            "in the release.",
        ]
    connected = counts.get("sentences_connected", 0)
    if connected:
        lines += [
            "",
            f"**{plural(connected, 'sentence')}** kept {'its' if connected == 1 else 'their'} words with a neutral "
            'connector ("associated with") where a fill of the drawn relation did not read; the drawn relation is '
            "stated in a plain sentence right after.",
        ]
    withheld = counts.get("sentences_withheld", 0)
    if withheld:
        lines += [
            "",
            f"**{plural(withheld, 'sentence was', 'sentences were')} withheld** by the leak scan (an original "
            f"relation was still visible there); {'it is' if withheld == 1 else 'they are'} not in the release.",
        ]
    losing = report.get("documents_losing_text") or []
    if losing:
        lines += [
            "",
            f"**{plural(len(losing), 'document')} came out empty or lost more than half of "
            f"{'its' if len(losing) == 1 else 'their'} sentences;** read {'it' if len(losing) == 1 else 'them'} "
            "before publishing:",
            "",
            *(f"- {loss_words({**entry, 'document': _md_code(entry['document'])})}" for entry in losing),
        ]
    if not report.get("private_release", True):
        lines += ["", "**This is a teaching draw with a fixed seed, not a private release.**"]
    return [*lines, ""]


def sign_off_lines(report: dict) -> list[str]:
    """The sign-off block: filled in when the release was signed on Export, blank lines to fill in otherwise."""
    signed = report.get("sign_off") or {}
    rows = [(name, markdown_cell(signed.get(name) or "")) for name in SIGN_OFF_FIELDS]
    return ["## Sign-off", "", *markdown_table(("field", "entry"), rows), ""]


def draws_lines(report: dict) -> list[str]:
    """The composition ledger in words: which draw of the corpus this is, and what the private draws spend."""
    draws = report.get("draws")
    if not draws:
        return []
    number, private = draws["this_draw"], draws["private"]
    per_relation, per_document = draws["worst_case_per_relation_bound"], draws["worst_case_per_document_bound"]
    said = "the first recorded draw" if number == 1 else f"draw **{number}**"
    lines = [
        "## Draws of this corpus (composition ledger)",
        "",
        f"This release is {said} of this corpus ({draws['at_these_settings']} at these settings, "
        f"{plural(private, 'private draw')}). Each draw is another release of the same corpus, and a reader who sees "
        "several learns from all of them, so the ledger adds up their ε: "
        + (
            f"together the private draws spend **ε = {draws['total_epsilon']:g}** per relation (a reader at most "
            f"{in_words(per_relation)} more confident about one relation than another) and ε·m = "
            f"{draws['total_per_document_epsilon']:g} per document ({in_words(per_document)} when every relation of "
            "the most crowded document changes at once)."
            if private
            else "no private draw is on it yet (teaching draws carry no guarantee to add: never publish them)."
        ),
    ]
    if "budget" in draws:
        lines += [
            "",
            f"The budget set for this corpus is ε = {draws['budget']:g}; it leaves ε = {draws['budget_left']:g}.",
        ]
    if number > 1:
        lines += [
            "",
            "Drawing again until a draw reads well and publishing only that one breaks the promise: the choice "
            "itself depends on the originals. Publish one draw, and count every draw made.",
        ]
    rows = [
        (
            str(e["draw"]),
            f"{e['epsilon']:g}" + (" (per entity)" if e.get("entity_epsilon") is not None else ""),
            f"{e['lambda']:g}",
            str(e["k"]),
            "yes" if e["private"] else "no (teaching seed)",
            str(e["max_groups_in_one_document"]),
        )
        for e in draws["ledger"]
    ]
    header = ("draw", "ε", "λ", "K", "private", "most groups in one document (m)")
    lines += ["", *markdown_table(header, rows, align="rrrrlr"), "", formula(draws["counted"]), ""]
    return lines


def attack_lines(report: dict) -> list[str]:
    attack = report.get("attack")
    if not attack:
        return []
    return [
        "## Measured attack (connections)",
        "",
        f"A targeted attacker (`{attack.get('attacker', '')}`) re-extracted the released corpus and looked for the "
        f"entity pairs RelGuard had found, around {attack.get('targets', 0)} target entities (paper App. E). It "
        f"recovered **{attack['conn_recall']:.0%}** of the connections (precision {attack['conn_precision']:.0%}, "
        f"F1 {attack['conn_f1']:.0%}). Whether a recovered relation *means* the original, and what the attacker "
        "scores on the original text, can only be measured against the originals, so that part is in the "
        "confidential mapping.",
        "",
    ]


def review_lines(report: dict) -> list[str]:
    edits = report.get("review_edits") or {}
    if not any(edits.values()):
        return []
    said = ", ".join(f"{count} {kind.replace('_', ' ')}" for kind, count in edits.items() if count)
    return [
        "## Analyst's review",
        "",
        f"Before the draw an analyst edited the extraction: {said}. These decide where slots are, never which outcome "
        "a slot gets; the edits themselves are in the confidential mapping.",
        "",
    ]


def measurement_lines(measurement: dict | None) -> list[str]:
    """The draw's OpenDP measurement and its privacy map, which the bounds above are read from."""
    if not measurement:
        return []
    return [
        f"- **Measurement:** {measurement['opendp']}; input metric: {measurement['input_metric']}; output measure: "
        f"{measurement['output_measure']}; privacy map {measurement['privacy_map']} "
        f"(ε·d_R = {measurement['loss_at_d_R_1']:g} at d_R = 1)."
    ]


def render_markdown(report: dict) -> str:
    """A human-readable rendering of :func:`~relguard.release.report.build_report`."""
    params = report["parameters"]
    guarantee = report["guarantee"]
    lines = ["# RelGuard release report", ""]
    if report["notice"]:
        lines += [f"> **{report['notice']}**", ""]
    lines += summary_lines(report) + sign_off_lines(report) + draws_lines(report)
    lines += attack_lines(report) + review_lines(report)
    lines += entity_lines(report, in_words=in_words)
    per_document = guarantee["worst_case_per_document_bound"]
    lines += [
        "## Guarantee",
        "",
        f"- **Definition:** {formula(guarantee['definition'])}.",
        f"- **Unit of privacy:** {report['unit_of_privacy']}.",
        f"- **Distance:** {formula(guarantee['distance'])}.",
        f"- **Document level:** {guarantee['document_level']}.",
        f"- **Parameters:** ε = {params['epsilon']:g}, λ = {params['lambda']:g}, K = {params['k']}.",
        f"- **Worst case per relation:** e^ε = {guarantee['worst_case_per_relation_bound']:.4g}: a reader is at most "
        f"{in_words(guarantee['worst_case_per_relation_bound'])} more confident about one relation than another "
        "(d_R ≤ 1).",
        f"- **Worst case per document:** up to {guarantee['max_groups_in_one_document']} relation groups in one "
        f"document, whose bounds multiply: e^(ε·m) = "
        + (f"{per_document:.4g}" if isinstance(per_document, float) else "∞")
        + f", {in_words(per_document)} when every relation of that document changes at once.",
        f"- **Grouping:** {guarantee['grouping']}.",
        *measurement_lines(guarantee.get("measurement")),
        f"- **Randomness:** {report['rng']}.",
        "",
        "## How it was computed",
        "",
        f"- Mechanism: {formula(report['mechanism'])}.",
        f"- Extractor: `{report['extractor']}`",
        f"- Encoder: `{report['encoder']}`"
        + (f", run by `{report['encoder_runtime']}`" if report.get("encoder_runtime") else ""),
        f"- Candidate pools: {report['candidates']['backend']} ({report['candidates']['source']}), "
        f"sha256 `{report['candidates']['sha256']}`"
        + (
            f" (whole inventory: `{report['candidates']['inventory_sha256']}`)"
            if report["candidates"].get("inventory_sha256")
            else ""
        ),
        f"- RelGuard {report['versions']['relguard']}, Python {report['versions']['python']}, "
        + (
            f"created {report['created']}"
            if report.get("created")
            else "no creation time (a teaching draw replays byte for byte)"
        ),
        *backend_lines(report.get("backends") or {}),
        "",
        "## Counts",
        "",
    ]
    labels = [(COUNT_LABELS.get(key, key.replace("_", " ")), value) for key, value in report["counts"].items()]
    lines += markdown_table(("what", "number"), labels, align="lr")
    lines += ["", "## Candidate pools used (public)", ""]
    lines += exclusion_lines(report["candidates"].get("exclusion_policy"))
    lines += sensitive_lines(report["candidates"])
    for pair, predicates in report["candidates"]["pools"].items():
        lines.append(f"- **{pair.replace('|', ' → ')}:** {', '.join(predicates)}")
    lines += ["", "## Output files (SHA-256)", "", f"Names: {report['files'].get('naming', '')}.", ""]
    outputs = report["files"]["outputs"].items()
    lines += markdown_table(("file", "sha256"), [(_md_code(name), f"`{digest}`") for name, digest in outputs])
    lines += marks_lines(report.get("slot_marks") or {})
    if report.get("self_audit"):
        lines += _self_audit_lines(report["self_audit"])
    lines += ["", "## Limits", ""] + [f"- {text}" for text in report["limits"]]
    return "\n".join(lines) + "\n"


def formula(text: str) -> str:
    """Plain text with formulas as Markdown shows it: ``*`` and ``_`` escaped, so ``epsilon*d_R ... epsilon*lambda``
    reads as written instead of turning the words between two stars into italics."""
    return text.replace("\\", "\\\\").replace("*", "\\*").replace("_", "\\_")


def exclusion_lines(policy: dict | None) -> list[str]:
    """The exclusion policy the pools were built under: its file, digest and every predicate it takes out."""
    if not policy:
        return []
    entries = "; ".join(
        f"{'every type pair' if pair == '*' else pair.replace('|', ' → ')}: {', '.join(found)}"
        for pair, found in policy["excluded"].items()
    )
    return [
        f"Built under the exclusion policy {_md_code(policy['file'])} (sha256 `{policy['sha256']}`), which no pool "
        f"may break: never published — {formula(entries)}.",
        "",
    ]


def sensitive_lines(candidates: dict) -> list[str]:
    """Whether the sensitive-predicate list kept accusations, dismissals, crimes, health and family ties about
    people out of the pools (:mod:`relguard.candidates.sensitive`)."""
    if "sensitive_policy" not in candidates:
        return []
    policy = candidates["sensitive_policy"]
    if not policy:
        return [
            "**The sensitive-predicate policy was switched off:** the pools may hold accusations, dismissals, "
            "crimes, health and family ties, drawn about named people.",
            "",
        ]
    found = sum(len(v) for v in policy["excluded"].values())
    return [
        f"Sensitive-predicate policy {_md_code(policy['file'])} (sha256 `{policy['sha256']}`): {found} accusations, "
        "dismissals, crimes, health and family ties about people are in no pool; each pool took the next public "
        "predicates and still holds K.",
        "",
    ]


def marks_lines(marks: dict) -> list[str]:
    """Where the release marks the words RelGuard wrote (:mod:`relguard.engine.marks`), and what a mark means."""
    if not marks:
        return []
    where = [f"the `{marks['jsonl_field']}` field of every `.jsonl` record"]
    if marks.get("sidecar"):
        where.append(f"`{marks['sidecar']}` (one line per text file, beside `documents/`)")
    if marks.get("inline"):
        where.append(f"the text itself ({marks['inline']})")
    return [
        "",
        "## Slot marks",
        "",
        f"Marked in {', '.join(where)}: {marks['meaning']}. Ranges are {marks['ranges']}.",
    ]


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
        kept = "; every slot of the offline extractor kept, the model's added"
        union = kept if info.get("backend") == "union" else ""
        lines.append(f"- {role.capitalize()} LLM: model `{info['model']}`, prompts {versions}{union}")
    return lines
