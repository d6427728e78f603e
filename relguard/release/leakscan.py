"""The last check before anything leaves the building: scan public outputs for what they promised to hide.

Reconstruction is designed so it cannot copy an original relation (DESIGN
invariant 7), but a bug there, in a serializer or in a new export path would
publish exactly what the user asked RelGuard to hide. So every public export
is scanned, after it is built and before a byte is written, for

* the original relation span of every substituted or deleted triple, **in its
  own sentence context**: the span together with up to ``CONTEXT`` characters of
  the same sentence on each side (the whole sentence when it has less context);
* the full text of every sentence that should have been deleted;
* the marker of the confidential audit file.

Why context and counting keep false positives rare: a word such as "founded"
may legitimately appear elsewhere, so a bare span is never searched. A window
"Alice Smith founded Acme Corp" only survives in the output if the span was
left in place. A window (or deleted sentence) counts as a leak only when the
output holds it *more often* than the original holds it outside the places
that were rewritten — text the corpus repeats in untouched places is not a hit.
One legitimate coincidence remains — the sampled predicate is worded like the
original span, or a wording of it starts or ends with the span ("founded by" for
a span "by") — and is excused, because then the words are a function of the sample. So is an original worded
exactly as a neutral connector ("associated with", a bare comma: :mod:`relguard.rewrite.neutral`), which a
slot with no fill that reads prints whatever was drawn.
"""

from __future__ import annotations

import bisect
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from relguard.errors import RelGuardError
from relguard.extract.positions import slot_table
from relguard.release.confidential import MARKER
from relguard.release.wordings import Forms, worded_as, wordings
from relguard.rewrite.neutral import is_connector
from relguard.rewrite.shape import preposition_after
from relguard.rewrite.verbalize import RELATIVES
from relguard.types import Document, DocumentExtraction, TypePair

CONTEXT = 30
MIN_CONTEXT = 8


class LeakError(RelGuardError):
    """A public output still holds an original relation or a sentence that should have been deleted."""


@dataclass(frozen=True)
class Leak:
    """One hit: the public file, what leaked (relation span / deleted sentence / audit) and where it came from."""

    file: str
    kind: str
    document: str
    sentence: int
    text: str

    def describe(self) -> str:
        what = {
            "relation": f"the original relation {self.text!r} (in its sentence context)",
            "sentence": "a sentence that should have been deleted",
            "audit": "the confidential original-to-sampled mapping",
        }[self.kind]
        where = f" from {self.document} sentence {self.sentence + 1}" if self.document else ""
        return f"{self.file} contains {what}{where}"


class Needle(NamedTuple):
    """What must not survive: a relation's window (``span`` at offset ``at`` of ``text``) or a whole sentence."""

    kind: str
    text: str
    sentence: int
    span: str
    at: int = 0


def _window(
    extraction: DocumentExtraction, sentence: int, start: int, end: int, others: Iterable[tuple]
) -> tuple[int, str]:
    """The span with up to CONTEXT characters of its sentence each side, stopping at other relation spans
    (they are rewritten too, so a window reaching into one could never match)."""
    s = extraction.sentences[sentence]
    low, high = s.start, s.end
    for other_start, other_end in others:
        if other_end <= start:
            low = max(low, other_end)
        elif other_start >= end:
            high = min(high, other_start)
    left, right = max(low, start - CONTEXT), min(high, end + CONTEXT)
    if (start - left) + (right - end) < MIN_CONTEXT:
        left, right = low, high
    return left, extraction.document.text[left:right]


def _count(text: str, needle: str) -> int:
    """Occurrences of ``needle`` in ``text``, overlapping ones included (windows of a repeated phrase overlap)."""
    count, start = 0, text.find(needle)
    while start != -1:
        count += 1
        start = text.find(needle, start + 1)
    return count


def _document_file(extraction: DocumentExtraction) -> str:
    return f"documents/{extraction.document.source or extraction.document.name}"


#: Per relation group, by its public key: (its index in the outcome table, the sampled predicate or None).
Drawn = Mapping[tuple[str, str, str, str], tuple[int, str | None]]


def _shown(doc: DocumentExtraction, drawn: Drawn) -> dict[tuple[int, int, int], tuple[int, str | None, TypePair]]:
    """For every occurrence of ``doc``, the outcome whose words fill its span in the output, with the type pair
    of the group it belongs to (the fill is worded for that pair, which may not be the occurrence's own).

    Spans become slots by the one rule masking uses (:func:`relguard.extract.positions.slot_table`): a slot is
    filled with the outcome of the group named nearest it, then the lowest index. What a reader sees at a span is
    that outcome, so it is the one whose public wordings may excuse the original words there. It is re-derived
    here from the outcomes, not read from reconstruction, so a bug there cannot hide itself.
    """
    table = slot_table(doc)
    starts = [r.start for r in table.regions]
    primary: list[tuple[int, str | None, TypePair]] = []
    for region in table.regions:
        _, first, key = min((distance, drawn[key][0], key) for key, distance in region.pairs.items())
        primary.append((first, drawn[key][1], (key[1], key[3])))
    shown: dict[tuple[int, int, int], tuple[int, str | None, TypePair]] = {}
    for triple in doc.triples:
        for occ in triple.occurrences:
            shown[(occ.sentence, occ.start, occ.end)] = primary[bisect.bisect_right(starts, occ.start) - 1]
    return shown


def document_needles(
    doc: DocumentExtraction, drawn: Drawn, *, forms: Forms, withheld: Iterable[int] = ()
) -> tuple[list[Needle], Counter]:
    """What must not survive in ``doc``'s output, and how many copies of each its original keeps elsewhere.

    Needles are the window of every substituted or deleted relation and every
    sentence that must go (a null outcome, or withheld); a needle the original holds outside the rewritten
    places may survive that many times.
    """
    deleted = _gone(doc, drawn, withheld)
    shown = _shown(doc, drawn)
    spans: dict[int, set[tuple[int, int]]] = {}
    for triple in doc.triples:
        for occ in triple.occurrences:
            spans.setdefault(occ.sentence, set()).add((occ.start, occ.end))
    needles: list[Needle] = []
    removed: list[tuple[str, int]] = []
    for triple in doc.triples:
        for occ in triple.occurrences:
            _, predicate, pair = shown[(occ.sentence, occ.start, occ.end)]
            if predicate == triple.predicate:
                continue
            if occ.sentence not in deleted and worded_as(occ.text, predicate, pair, forms):
                continue
            if occ.sentence not in deleted and is_connector(occ.text):
                continue  # a neutral connector prints these words whatever was drawn (relguard.rewrite.neutral)
            before = doc.document.text[max(0, occ.start - 40) : occ.start]
            if occ.sentence not in deleted and occ.text.strip().lower() == preposition_after(before):
                continue  # "such [as]": the phrase outside the slot asks for that word whatever the slot held
            others = [(a, b) for a, b in spans[occ.sentence] if b <= occ.start or a >= occ.end]
            left, window = _window(doc, occ.sentence, occ.start, occ.end, others)
            needles.append(Needle("relation", window, occ.sentence, occ.text, occ.start - left))
            removed.append((window, left))
    for index in sorted(deleted):
        raw = doc.sentence_text(index)
        sentence = raw.strip()
        if sentence:
            needles.append(Needle("sentence", sentence, index, ""))
            removed.append((sentence, doc.sentences[index].start + len(raw) - len(raw.lstrip())))
    gone = Counter(needle for needle, _ in set(removed))
    original = reader_text(doc.document)
    allowed = Counter({n.text: _count(original, n.text) - gone[n.text] for n in needles})
    return needles, allowed


def reader_text(document: Document) -> str:
    """What a reader of the original sees for ``document``: its text, and for a ``.jsonl`` record every other
    value too, joined as :func:`_record_texts` joins the output's, so a word the record's other fields repeat
    (a title in ``id``) is counted where it is allowed to stay."""
    if document.line is None:
        return document.text
    values = [str(json.loads(value)) for _, value in document.fields]
    return "\n".join([*values, document.text])


def scan_document(
    doc: DocumentExtraction,
    output: str,
    drawn: Drawn,
    *,
    forms: Forms,
    withheld: Iterable[int] = (),
    file: str | None = None,
    needles: tuple[list[Needle], Counter] | None = None,
) -> list[Leak]:
    """Every leak of one document's output text (for ``.jsonl``, all values of its record).

    A relation window found more often than the original allows is a leak unless a fill wrote those copies
    (:func:`_written_by_fills`): a short window, cut at its neighbour spans down to a function word and a name
    (" in Springfield"), is also what a fill elsewhere writes ("is headquartered in Springfield").
    ``needles`` is :func:`document_needles` of the same arguments, when the caller has it already.
    """
    needles, allowed = needles or document_needles(doc, drawn, forms=forms, withheld=withheld)
    name = file or _document_file(doc)
    leaks: list[Leak] = []
    reported: set[str] = set()
    written: list[tuple[int, int]] | None = None
    for needle in sorted(needles, key=lambda n: n.kind != "sentence"):
        if needle.text in reported:
            continue
        found = _count(output, needle.text)
        if found > allowed[needle.text] and needle.kind == "relation":
            written = _fill_regions(output, doc, drawn, forms, withheld) if written is None else written
            found -= _written_by_fills(output, needle, written)
        if found > allowed[needle.text]:
            reported.add(needle.text)
            leaks.append(Leak(name, needle.kind, doc.document.name, needle.sentence, needle.span))
    return leaks


def _wording_pattern(wording: str) -> re.Pattern:
    """A normalized wording as the output may write it: any case, hyphens or spaces between its words, and for
    a relative clause the comma the verbalizer opens it with (", which borders")."""
    words = wording.split()
    body = r"[\s_-]+".join(re.escape(w) for w in words)
    if re.match(r"\w", wording):
        body = r"(?<!\w)" + body
    if re.search(r"\w$", wording):
        body += r"(?!\w)"
    if words[0] in RELATIVES:
        body = r"(?:,\s*)?" + body
    return re.compile(body, re.IGNORECASE)


def _gone(doc: DocumentExtraction, drawn: Drawn, withheld: Iterable[int]) -> set[int]:
    """The sentences of ``doc`` that are not in its output: those with a null outcome, and the withheld ones."""
    return {o.sentence for t in doc.triples if drawn[t.pair_key][1] is None for o in t.occurrences} | set(withheld)


def _fill_regions(
    output: str, doc: DocumentExtraction, drawn: Drawn, forms: Forms, withheld: Iterable[int]
) -> list[tuple[int, int]]:
    """Where ``output`` reads as a public wording of an outcome shown at a slot of one of ``doc``'s kept sentences.

    Re-derived from the outcomes (:func:`_shown`), not from reconstruction, like every other excuse here.
    """
    gone = _gone(doc, drawn, withheld)
    kept = {(p, pair) for (sentence, _, _), (_, p, pair) in _shown(doc, drawn).items() if p and sentence not in gone}
    written = set().union(*(wordings(predicate, pair, forms) for predicate, pair in kept))
    regions: list[tuple[int, int]] = []
    for wording in sorted(w for w in written if w):
        regions += [m.span() for m in _wording_pattern(wording).finditer(output)]
    return regions


def _written_by_fills(output: str, needle: Needle, regions: list[tuple[int, int]]) -> int:
    """The copies of ``needle`` in ``output`` whose span words a fill wrote.

    A copy counts when one wording region covers its span, is longer than the span, and reaches past the copy's
    own window. The last condition keeps every real leak: an original phrase left in place holds its whole
    window, so a wording inside that window ("was founded by" in "Acme Corp was founded by Alice Smith") is
    the original's words, not a fill's, and excuses nothing.
    """
    written, start = 0, output.find(needle.text)
    while start != -1:
        end, low = start + len(needle.text), start + needle.at
        high = low + len(needle.span)
        if any(a <= low and b >= high and b - a > high - low and (a < start or b > end) for a, b in regions):
            written += 1
        start = output.find(needle.text, start + 1)
    return written


def report_leaks(
    doc: DocumentExtraction,
    texts: Mapping[str, str],
    drawn: Drawn,
    *,
    forms: Forms,
    withheld: Iterable[int] = (),
    needles: tuple[list[Needle], Counter] | None = None,
) -> list[Leak]:
    """Every needle of ``doc`` found in a public file that is not its own (``texts``: name → text, the reports).

    A report holds no document text, so any copy of a needle there is a leak; pass the texts through
    :func:`without_names` first, since a document's name is public and may repeat its words. ``needles`` as
    for :func:`scan_document`.
    """
    needles, _ = needles or document_needles(doc, drawn, forms=forms, withheld=withheld)
    return [
        Leak(name, n.kind, doc.document.name, n.sentence, n.span)
        for name, text in texts.items()
        for n in needles
        if n.text in text
    ]


def marker_leak(name: str, text: str) -> Leak | None:
    """A public file that holds the confidential mapping's marker (the mapping, or a part of it, copied there)."""
    return Leak(name, "audit", "", 0, "") if MARKER in text else None


def without_names(text: str, names: Iterable[str]) -> str:
    """A report's text with the document names taken out, longest first (as written raw and JSON-escaped).

    A report lists documents by name, and a name is public by design: it is the input's file name or record id
    and names the output too. A title can itself state a relation (Re-DocRED's "National Executive Committee of
    the African National Congress"); its words then come from the name, not from the text RelGuard rewrote.
    """
    for name in sorted(set(names), key=len, reverse=True):
        for written in dict.fromkeys((name, json.dumps(name, ensure_ascii=False)[1:-1])):
            text = text.replace(written, " ")
    return text


def unsafe_names(names: Iterable[str]) -> list[str]:
    """Public file names that would leave the release folder (absolute, backslashes, NUL, ``..``)."""
    return [n for n in names if n.startswith(("/", "\\")) or "\\" in n or "\x00" in n or ".." in n.split("/")]


def blocked(leaks: Iterable[Leak]) -> LeakError:
    """The error that blocks a release on ``leaks``, naming the first three."""
    leaks = list(leaks)
    shown = "; ".join(leak.describe() for leak in leaks[:3])
    more = f" (and {len(leaks) - 3} more)" if len(leaks) > 3 else ""
    return LeakError(
        f"export blocked, nothing was written: {shown}{more}. This is a bug in reconstruction or export, "
        "not in your input; please report it with the RelGuard version"
    )
