"""What extraction covered, measured against human gold that no extractor wrote (Re-DocRED).

Three numbers, each a share:

* **coverage**: gold relations between named entities whose entity pair holds a relation slot in their document
  (pairs compared unordered: Wikidata's direction often differs from the text's). A gold relation with no slot
  is never seen by the mechanism and is released as written.
* **slots off gold**: slots on an entity pair with no gold relation in that document — the cost of failing
  closed (a slot too many deletes or rewrites a sentence for nothing; it never leaks). ``1 −`` this is the slot
  precision.
* **verbatim evidence**: gold evidence sentences that name both entities of their relation and come out of a
  release byte for byte — the relation stated in them reaches the index untouched.

Names go through the gold alias table (every annotated mention → its entity's longest name) and
:func:`~relguard.evaluation.matching.normalize_name`, so "The Beatles," and "Beatles" are one entity.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from relguard.evaluation.datasets import EvalDataset
from relguard.evaluation.matching import EntityResolver, normalize_name
from relguard.types import Extraction

Pair = tuple[str, frozenset[str]]


@dataclass(frozen=True)
class GoldCoverage:
    """Coverage of gold relations and the share of slots that sit on no gold pair (fractions in [0, 1])."""

    coverage: float
    gold: int
    slots: int
    slots_off_gold: float

    @property
    def slot_precision(self) -> float:
        return 1.0 - self.slots_off_gold if self.slots else 0.0


def gold_resolver(dataset: EvalDataset) -> EntityResolver:
    """Every annotated mention name → its gold entity's name (the attacker knows the entity set, App. E)."""
    resolver = EntityResolver(dataset.aliases)
    for name in {n for _, fact in dataset.gold for n in fact.pair}:
        resolver.add(name, name)
    return resolver


def _pair(resolver: EntityResolver, document: str, first: str, second: str) -> Pair:
    return document, frozenset((normalize_name(resolver(first)), normalize_name(resolver(second))))


def gold_coverage(dataset: EvalDataset, extraction: Extraction, resolver: EntityResolver | None = None) -> GoldCoverage:
    """Coverage of ``dataset.gold`` by the slots of ``extraction``, and the share of slots on no gold pair."""
    resolver = resolver or gold_resolver(dataset)
    gold = {_pair(resolver, document, f.subject, f.object) for document, f in dataset.gold}
    slotted: set[Pair] = set()
    slots = off = 0
    for document in extraction.documents:
        name = document.document.name
        for triple in document.triples:
            pair = _pair(resolver, name, triple.subject, triple.object)
            slotted.add(pair)
            slots += len(triple.occurrences)
            off += len(triple.occurrences) * (pair not in gold)
    covered = sum(_pair(resolver, document, f.subject, f.object) in slotted for document, f in dataset.gold)
    return GoldCoverage(
        coverage=covered / len(dataset.gold) if dataset.gold else 0.0,
        gold=len(dataset.gold),
        slots=slots,
        slots_off_gold=off / slots if slots else 0.0,
    )


def verbatim_evidence(dataset: EvalDataset, texts: Mapping[str, str]) -> float | None:
    """The share of ``dataset.evidence`` sentences found byte for byte in the released ``texts`` (by name).

    ``None`` when the dataset has no evidence sentences (HotpotQA, 2Wiki, a user corpus).
    """
    if not dataset.evidence:
        return None
    originals = {d.name: d.text for d in dataset.documents}
    kept = sum(originals[e.document][e.start : e.end] in texts.get(e.document, "") for e in dataset.evidence)
    return kept / len(dataset.evidence)
