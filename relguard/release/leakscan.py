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
One legitimate coincidence remains — the sampled predicate is worded exactly
like the original span — and is excused when the span equals a public wording
of the sampled predicate, because then the words are a function of the sample.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from relguard import registry
from relguard.candidates.forms import default_forms
from relguard.errors import OutputError, RelGuardError
from relguard.release.confidential import MARKER
from relguard.types import DocumentExtraction, Outcome, Release, TypePair

CONTEXT = 30
MIN_CONTEXT = 8

Forms = Callable[[str, TypePair], Mapping[str, str | None]]


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


def _normalize(text: str) -> str:
    return " ".join(text.lower().replace("_", " ").replace("-", " ").split())


def _wordings(predicate: str, type_pair: TypePair, forms: Forms) -> set[str]:
    """Every public way the sampled predicate may read in the output."""
    found = forms(predicate, type_pair) or {}
    words = {predicate, *(v for v in found.values() if isinstance(v, str) and v)}
    noun = found.get("noun")
    if noun:
        words |= {f"the {noun} of", f"{noun} of"}
    for word in list(words):
        words.add(re.sub(r"^(is|was|are|were)\s+", "", word))
    return {_normalize(w) for w in words}


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


def _output_texts(name: str, data: bytes) -> str:
    """The text a reader sees in one public file (JSON lines are decoded, so escapes cannot hide a hit)."""
    text = data.decode("utf-8", errors="replace")
    if not name.endswith(".jsonl"):
        return text
    parts = []
    for line in text.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            parts.append(line)
            continue
        parts.append("\n".join(str(v) for v in record.values()) if isinstance(record, dict) else line)
    return "\n".join(parts)


def _count(text: str, needle: str) -> int:
    """Occurrences of ``needle`` in ``text``, overlapping ones included (windows of a repeated phrase overlap)."""
    count, start = 0, text.find(needle)
    while start != -1:
        count += 1
        start = text.find(needle, start + 1)
    return count


def _document_file(extraction: DocumentExtraction) -> str:
    return f"documents/{extraction.document.source or extraction.document.name}"


def scan(release: Release, files: Mapping[str, bytes], *, forms: Forms | None = None) -> list[Leak]:
    """Every leak in ``files`` (public file name → bytes) for ``release``; empty when the export is clean.

    ``forms`` gives the public wordings of a predicate (the candidate backend's ``forms``); by default the
    inventory's when the release used it, else a predicate's own words are its only wording.
    """
    forms = forms or forms_for(release) or default_forms
    by_name = {d.document.name: d for d in release.extraction.documents}
    # derived from the outcomes, not from what reconstruction says it removed: a bug there must not hide itself
    deleted_sentences = {
        (occ.document, occ.sentence) for o in release.outcomes if o.deleted for occ in o.group.occurrences
    }
    deleted_sentences |= {(d.name, s) for d in release.documents for s in d.withheld_sentences}
    # per public file: windows/sentences that must not survive, and how many copies the original keeps elsewhere
    spans: dict[tuple[str, int], set[tuple[int, int]]] = {}
    for outcome in release.outcomes:
        for occ in outcome.group.occurrences:
            spans.setdefault((occ.document, occ.sentence), set()).add((occ.start, occ.end))
    needles: dict[str, list[tuple[str, str, str, int, str]]] = {}
    removed: dict[str, set[tuple[str, str, int]]] = {}
    shown = _shown_outcomes(release)
    for outcome in release.outcomes:
        for triple in outcome.group.triples:
            for occ in triple.occurrences:
                shown_outcome = shown.get((occ.document, occ.sentence, occ.start, occ.end), outcome)
                if shown_outcome.kept(triple):
                    continue
                extraction = by_name.get(occ.document)
                if extraction is None:
                    continue
                if (occ.document, occ.sentence) not in deleted_sentences and _normalize(occ.text) in _wordings(
                    shown_outcome.predicate, shown_outcome.group.type_pair, forms
                ):
                    continue
                others = [(a, b) for a, b in spans[(occ.document, occ.sentence)] if b <= occ.start or a >= occ.end]
                left, window = _window(extraction, occ.sentence, occ.start, occ.end, others)
                target = _document_file(extraction)
                needles.setdefault(target, []).append(("relation", window, occ.document, occ.sentence, occ.text))
                removed.setdefault(target, set()).add((window, occ.document, left))
    for name, index in sorted(deleted_sentences):
        extraction = by_name.get(name)
        if extraction is None:
            continue
        raw = extraction.sentence_text(index)
        sentence = raw.strip()
        if sentence:
            target = _document_file(extraction)
            start = extraction.sentences[index].start + len(raw) - len(raw.lstrip())
            needles.setdefault(target, []).append(("sentence", sentence, name, index, ""))
            removed.setdefault(target, set()).add((sentence, name, start))
    originals: dict[str, list[str]] = {}
    for extraction in release.extraction.documents:
        originals.setdefault(_document_file(extraction), []).append(extraction.document.text)

    leaks: list[Leak] = []
    all_needles = [n for group in needles.values() for n in group]
    for file, data in files.items():
        text = _output_texts(file, data)
        if MARKER in text:
            leaks.append(Leak(file, "audit", "", 0, ""))
        if file in originals:
            source = "\n".join(originals[file])
            checks = needles.get(file, [])
            gone = Counter(needle for needle, _, _ in removed.get(file, ()))
            allowed = {n[1]: _count(source, n[1]) - gone[n[1]] for n in checks}
        else:
            checks, allowed = all_needles, {}
        reported: set[str] = set()
        for kind, needle, document, sentence, span in sorted(checks, key=lambda n: n[0] != "sentence"):
            if needle in reported:
                continue
            if _count(text, needle) > allowed.get(needle, 0):
                reported.add(needle)
                leaks.append(Leak(file, kind, document, sentence, span))
    return leaks


def _shown_outcomes(release: Release) -> dict[tuple[str, int, int, int], Outcome]:
    """For every occurrence, the outcome whose words fill its span in the output.

    Overlapping spans of one sentence become one slot ("X studied at Y and Z": one span, two groups), filled
    with the outcome of the slot's first group (:func:`relguard.reconstruct.mask`). What a reader sees at such
    a span is that outcome, so it is the one whose public wordings may excuse the original words there. This
    is re-derived here from the outcomes, not read from reconstruction, so a bug there cannot hide itself.
    """
    by_sentence: dict[tuple[str, int], list[tuple[int, int, int]]] = {}
    for index, outcome in enumerate(release.outcomes):
        for occ in outcome.group.occurrences:
            by_sentence.setdefault((occ.document, occ.sentence), []).append((occ.start, occ.end, index))
    shown: dict[tuple[str, int, int, int], Outcome] = {}
    for (document, sentence), spans in by_sentence.items():
        clusters: list[list[tuple[int, int, int]]] = []
        for span in sorted(spans):
            if clusters and span[0] < max(end for _, end, _ in clusters[-1]):
                clusters[-1].append(span)
            else:
                clusters.append([span])
        for cluster in clusters:
            first = release.outcomes[min(index for _, _, index in cluster)]
            for start, end, _ in cluster:
                shown[(document, sentence, start, end)] = first
    return shown


def check_public_files(release: Release, files: Mapping[str, bytes], *, forms: Forms | None = None) -> None:
    """Raise :class:`LeakError` naming every hit; call it on the complete public file set before writing."""
    unsafe = [n for n in files if n.startswith(("/", "\\")) or "\\" in n or "\x00" in n or ".." in n.split("/")]
    if unsafe:
        raise OutputError(
            f"export blocked, nothing was written: the output name {unsafe[0]!r} would leave the release folder; "
            "rename the input file"
        )
    leaks = scan(release, files, forms=forms)
    if leaks:
        shown = "; ".join(leak.describe() for leak in leaks[:3])
        more = f" (and {len(leaks) - 3} more)" if len(leaks) > 3 else ""
        raise LeakError(
            f"export blocked, nothing was written: {shown}{more}. This is a bug in reconstruction or export, "
            "not in your input; please report it with the RelGuard version"
        )


def forms_for(release: Release) -> Forms | None:
    """The public wordings of the candidate backend named in the release, when it is the offline inventory."""
    if release.provenance.get("candidates") != "inventory":
        return None
    return registry.create("candidates", "inventory").forms
