"""HTML views of documents: highlighted entities and relation spans, and an original/sanitized diff.

Document text is untrusted (an uploaded file can hold ``<script>``), so every
piece of it goes through :func:`html.escape` before it is wrapped in markup;
only this module's own tags and fixed colours are emitted unescaped.
"""

from __future__ import annotations

import difflib
import html
import re
from collections.abc import Sequence

from relguard.extract.unprotected import unprotected_in
from relguard.studio.graph import STATUS_COLOURS, TYPE_COLOURS
from relguard.types import DocumentExtraction, Outcome, SanitizedDocument

_BOX = "white-space:pre-wrap;line-height:1.9;font-size:0.95rem"
_UNPROTECTED = "background:#fff3cd;outline:1px dashed #b58900;border-radius:3px"
_UNPROTECTED_TITLE = "names two entities but has no relation slot: not protected"


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _spans_html(text: str, spans: Sequence[tuple[int, int, str, str]]) -> str:
    """Wrap non-overlapping ``(start, end, style, title)`` spans of ``text``; overlapping ones are dropped."""
    pieces: list[str] = []
    cursor = 0
    for start, end, style, title in sorted(spans):
        if start < cursor or end <= start:
            continue
        pieces.append(_esc(text[cursor:start]))
        pieces.append(f'<span style="{style}" title="{_esc(title)}">{_esc(text[start:end])}</span>')
        cursor = end
    pieces.append(_esc(text[cursor:]))
    return "".join(pieces)


def highlight_html(extraction: DocumentExtraction) -> str:
    """The document with entity mentions coloured by type and relation spans underlined (all text escaped)."""
    spans: list[tuple[int, int, str, str]] = []
    for entity in extraction.entities:
        colour = TYPE_COLOURS.get(entity.type, "#BBBBBB")
        for m in entity.mentions:
            style = f"background:{colour}55;border-bottom:2px solid {colour};padding:1px 2px;border-radius:3px"
            spans.append((m.start, m.end, style, f"{entity.name} ({entity.type})"))
    for triple in extraction.triples:
        for occ in triple.occurrences:
            if occ.document == extraction.document.name:
                style = "border-bottom:3px double #333;font-style:italic"
                title = f"{triple.subject} —{triple.predicate}→ {triple.object}"
                spans.append((occ.start, occ.end, style, title))
    unprotected = {s.sentence for s in unprotected_in(extraction)}
    mark = f'<mark style="{_UNPROTECTED}" title="{_UNPROTECTED_TITLE}">{{}}</mark>'
    return _document_html(extraction, spans, {i: mark for i in unprotected})


def _document_html(
    extraction: DocumentExtraction, spans: list[tuple[int, int, str, str]], wraps: dict[int, str]
) -> str:
    """The document sentence by sentence, each with its styled spans; sentence ``i`` wrapped in ``wraps[i]``."""
    text = extraction.document.text
    pieces: list[str] = []
    cursor = 0
    for sentence in extraction.sentences:
        inner = [(max(s, sentence.start), min(e, sentence.end), st, t) for s, e, st, t in spans]
        inner = [(s - sentence.start, e - sentence.start, st, t) for s, e, st, t in inner if s < e]
        pieces.append(_esc(text[cursor : sentence.start]))
        body = _spans_html(text[sentence.start : sentence.end], inner)
        pieces.append(wraps[sentence.index].format(body) if sentence.index in wraps else body)
        cursor = sentence.end
    pieces.append(_esc(text[cursor:]))
    return f'<div class="relguard-doc" style="{_BOX}">{"".join(pieces)}</div>'


def legend_html() -> str:
    """Colour key for entity types, plus the relation-span style; the chips wrap in a narrow window."""
    chips = " ".join(
        f'<span style="background:{c}55;border-bottom:2px solid {c};padding:1px 6px;white-space:nowrap">{t}</span>'
        for t, c in TYPE_COLOURS.items()
    )
    relation = ' <i style="border-bottom:3px double #333">relation</i>'
    unprotected = (
        f' <mark style="{_UNPROTECTED}">sentence with two entities and no relation slot (not protected)</mark>'
    )
    return f'<div style="font-size:0.8rem;line-height:2">{chips}{relation}{unprotected}</div>'


def original_diff_html(extraction: DocumentExtraction, outcomes: Sequence[Outcome], removed: Sequence[int]) -> str:
    """The original text with removed sentences struck through and each relation span coloured by its outcome."""
    by_key = {o.group.key: o for o in outcomes}
    spans: list[tuple[int, int, str, str]] = []
    for triple in extraction.triples:
        outcome = by_key.get(triple.pair_key)
        if outcome is None:
            continue
        status = "deleted" if outcome.deleted else "kept" if outcome.kept(triple) else "substituted"
        colour = STATUS_COLOURS[status]
        title = {
            "kept": f"kept: {triple.predicate}",
            "substituted": f"{triple.predicate} → {outcome.predicate}",
            "deleted": f"deleted: {triple.predicate}",
        }[status]
        for occ in triple.occurrences:
            if occ.document == extraction.document.name:
                style = f"background:{colour}33;border-bottom:3px solid {colour}"
                spans.append((occ.start, occ.end, style, title))
    struck = '<del style="color:#C62828;text-decoration:line-through" title="sentence removed">{}</del>'
    return _document_html(extraction, spans, dict.fromkeys(removed, struck))


_TOKENS = re.compile(r"\s+|[^\s]+")


def sanitized_diff_html(original: str, sanitized: SanitizedDocument) -> str:
    """The sanitized text with words that are not in the original marked (a word-level diff)."""
    a = _TOKENS.findall(original)
    b = _TOKENS.findall(sanitized.text)
    pieces: list[str] = []
    for tag, _, _, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        chunk = _esc("".join(b[j1:j2]))
        if tag in ("replace", "insert") and chunk.strip():
            colour = STATUS_COLOURS["substituted"]
            pieces.append(f'<span style="background:{colour}33;border-bottom:3px solid {colour}">{chunk}</span>')
        else:
            pieces.append(chunk)
    return f'<div class="relguard-doc" style="{_BOX}">{"".join(pieces)}</div>'
