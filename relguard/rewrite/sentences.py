"""Each rewritten sentence of a release next to its original, with where the slots were and where the fills went.

What a reader of fluency needs (:mod:`relguard.evaluation.fluency`, ``bench/fluency.py``, the app's review): the
same fill as the release, sentence by sentence. It reads the original text, so what it returns is confidential.
"""

from __future__ import annotations

from dataclasses import dataclass

from relguard.extract.regions import slot_regions
from relguard.rewrite.fill import Sampled, filled_sentences
from relguard.rewrite.mask import mask
from relguard.rewrite.verbalize import FormVerbalizer
from relguard.types import Release

Span = tuple[int, int]


@dataclass(frozen=True)
class Rewritten:
    """One kept sentence that held a slot: ``slots`` index ``original`` and ``fills`` index ``released``,
    one fill per slot in order (a removed part of an expression is an empty fill)."""

    document: str
    sentence: int
    original: str
    released: str
    slots: tuple[Span, ...]
    fills: tuple[Span, ...]

    @property
    def changed(self) -> bool:
        return self.original != self.released


def rewritten_sentences(release: Release, forms=None) -> list[Rewritten]:
    """Every kept sentence of ``release`` that holds a slot, as released, next to its original."""
    from relguard.release.leakscan import forms_for

    forms = forms or forms_for(release)
    verbalize = FormVerbalizer(forms) if forms else FormVerbalizer(lambda p, t: {"clause": p.replace("_", " ")})
    index = {o.group.key: i for i, o in enumerate(release.outcomes)}
    sampled = {i: Sampled(o.group.type_pair, o.predicate) for i, o in enumerate(release.outcomes)}
    withheld = {d.name: set(d.withheld_sentences) for d in release.documents}
    out: list[Rewritten] = []
    for doc in release.extraction.documents:
        name = doc.document.name
        regions = slot_regions((o.start, o.end, o.sentence) for t in doc.triples for o in t.occurrences)
        for number, (text, fills) in filled_sentences(mask(doc, index), sampled, verbalize).items():
            if number in withheld.get(name, ()):
                continue
            start = doc.sentences[number].start
            slots = tuple((r.start - start, r.end - start) for r in regions if r.sentence == number)
            out.append(Rewritten(name, number, doc.sentence_text(number), text, slots, fills))
    return out
