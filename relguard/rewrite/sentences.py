"""Each rewritten sentence of a release next to its original, with where the slots were and where the fills went.

What a reader of fluency needs (:mod:`relguard.evaluation.fluency`, ``bench/fluency.py``, the app's review): the
same fill as the release, sentence by sentence. It reads the original text, so what it returns is confidential.
"""

from __future__ import annotations

from dataclasses import dataclass

from relguard.rewrite.fill import Sampled, written_sentences
from relguard.rewrite.mask import mask
from relguard.rewrite.verbalize import Forms, FormVerbalizer, default_forms
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
        written, restated, connected = written_sentences(masked, sampled, verbalize)
        for number, (text, fills) in written.items():
            if number in withheld.get(name, ()):
                continue
            start = doc.sentences[number].start
            slots = tuple((a - start, b - start) for a, b in (s.source for s in masked.slots if s.sentence == number))
            original = doc.sentence_text(number)
            out.append(Rewritten(name, number, original, text, slots, fills, number in restated, number in connected))
    return out
