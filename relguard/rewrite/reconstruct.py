"""A whole corpus rewritten from its outcomes: each document masked, then filled (DESIGN invariant 7)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from relguard.rewrite.fill import Sampled, fill
from relguard.rewrite.mask import mask
from relguard.rewrite.verbalize import Verbalizer
from relguard.types import Extraction, Outcome, SanitizedDocument


def reconstruct(
    extraction: Extraction,
    outcomes: Sequence[Outcome],
    verbalize: Verbalizer,
    *,
    withheld: Mapping[str, Iterable[int]] | None = None,
) -> tuple[SanitizedDocument, ...]:
    """Mask each document and fill it from the outcomes alone.

    ``withheld`` names sentences (per document) that the leak scan took out; they are removed like deleted ones.
    """
    index = {o.group.key: i for i, o in enumerate(outcomes)}
    sampled = {i: Sampled(o.group.type_pair, o.predicate) for i, o in enumerate(outcomes)}
    withheld = withheld or {}
    return tuple(
        fill(mask(doc, index), sampled, verbalize, withheld=withheld.get(doc.document.name, ()))
        for doc in extraction.documents
    )
