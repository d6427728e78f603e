"""Each rewritten sentence of a release next to its original, with where the slots were and where the fills went.

What a reader of fluency needs (:mod:`relguard.evaluation.fluency`, ``bench/fluency.py``, the app's review): the
same fill as the release, sentence by sentence. It reads the original text, so what it returns is confidential.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from relguard.rewrite.fill import Sampled, fill_slots, restated_statements
from relguard.rewrite.frames import Frame
from relguard.rewrite.mask import MaskedDocument, mask
from relguard.rewrite.seams import assemble
from relguard.rewrite.verbalize import Forms, FormVerbalizer, Verbalizer, default_forms
from relguard.types import Release

Span = tuple[int, int]


@dataclass(frozen=True)
class Rewritten:
    """One kept sentence that held a slot: ``slots`` index ``original`` and ``fills`` index ``released``,
    one fill per slot in order (a removed part of an expression is an empty fill). A ``restated`` sentence is a
    plain statement of its drawn relations (:mod:`relguard.rewrite.restate`): its fills are the predicates'
    words, not one per slot. A ``connected`` sentence keeps its words with a neutral connector in each slot and
    states its drawn relations after it (:mod:`relguard.rewrite.neutral`): its fills are the connectors, then the
    predicates' words."""

    document: str
    sentence: int
    original: str
    released: str
    slots: tuple[Span, ...]
    fills: tuple[Span, ...]
    restated: bool = False
    connected: bool = False

    @property
    def changed(self) -> bool:
        return self.original != self.released


def rewritten_sentences(release: Release, forms: Forms = default_forms) -> list[Rewritten]:
    """Every kept sentence of ``release`` that holds a slot, as released, next to its original; ``forms`` are
    the pool backend's wordings (the generator's ``forms``)."""
    verbalize = FormVerbalizer(forms)
    index = {o.group.key: i for i, o in enumerate(release.outcomes)}
    sampled = {
        i: Sampled(o.group.type_pair, o.predicate, o.group.subject, o.group.object)
        for i, o in enumerate(release.outcomes)
    }
    withheld = {d.name: set(d.withheld_sentences) for d in release.documents}
    out: list[Rewritten] = []
    for doc in release.extraction.documents:
        name = doc.document.name
        masked = mask(doc, index)
        written, restated, connected, masked = written_sentences(masked, sampled, verbalize)
        for number, (text, fills) in written.items():
            if number in withheld.get(name, ()):
                continue
            start = doc.sentences[number].start
            slots = tuple((a - start, b - start) for a, b in (s.source for s in masked.slots if s.sentence == number))
            original = doc.sentence_text(number)
            out.append(Rewritten(name, number, original, text, slots, fills, number in restated, number in connected))
    return out


def filled_sentences(
    masked: MaskedDocument,
    outcomes: Mapping[int, Sampled],
    verbalize: Verbalizer,
    frames: Sequence[Frame] | None = None,
) -> dict[int, tuple[str, tuple[tuple[int, int], ...]]]:
    """Each kept sentence that holds a slot, as it reads in the output, with where its fills are.

    The same fill as :func:`fill`, sentence by sentence, so a reviewer can read a filled sentence on its own;
    the ranges are character offsets of the fills inside the returned sentence text. A restated sentence is its
    statement (:func:`written_sentences` says which).
    """
    return written_sentences(masked, outcomes, verbalize, frames)[0]


def written_sentences(masked, outcomes, verbalize, frames=None) -> tuple[dict, set[int], set[int], MaskedDocument]:
    """:func:`filled_sentences`, which of them are restated, which keep their words with neutral connectors
    and state their drawn relations after them, and the masked document the fill's slots are those of (an
    expression in parts may be one slot there: :mod:`relguard.rewrite.collapse`)."""
    filled = fill_slots(masked, outcomes, verbalize, frames)
    masked = filled.masked
    deleted, texts, unfillable, connected = filled.deleted, filled.texts, filled.unfillable, set(filled.connected)
    restated = restated_statements(masked, outcomes, verbalize, decided=filled, gone=deleted)
    out: dict[int, tuple[str, tuple[tuple[int, int], ...]]] = {}
    for number, (start, end) in enumerate(masked.sentences):
        if number in restated:
            out[number] = (restated[number].text, restated[number].fills)
        elif number not in deleted | unfillable and any(s.sentence == number for s in masked.slots):
            text, ranges = assemble(masked, start, end, texts)
            out[number] = (text, tuple(ranges))
    return out, set(restated) - connected, connected, masked
