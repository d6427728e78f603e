"""What extraction covered, measured against human gold that no extractor wrote (Re-DocRED).

Three numbers, each a share:

* **coverage**: gold relations between named entities that are protected in their document (pairs compared
  unordered: Wikidata's direction often differs from the text's): either a slot joins the pair, or, in a sentence
  naming both, every stretch between consecutive mentions from one to the other holds a slot or only lists the
  names ("A, B and C") — the pair's
  relation is then only readable through drawn slots (one draw per stated relation, DESIGN invariant 6: the far
  ends of a chain "A in B, C" get no draw of their own). ``direct`` counts the first kind alone. A gold relation
  neither covers is never seen by the mechanism and is released as written.
* **slots off gold**: slots on an entity pair with no gold relation in that document — the cost of failing
  closed (a slot too many deletes or rewrites a sentence for nothing; it never leaks). ``1 −`` this is the slot
  precision.
* **verbatim evidence**: gold evidence sentences that name both entities of their relation and come out of a
  release byte for byte — the relation stated in them reaches the index untouched.

Names go through the gold alias table (every annotated mention → its entity's longest name) and
:func:`~relguard.evaluation.matching.normalize_name`, so "The Beatles," and "Beatles" are one entity.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from relguard.evaluation.datasets import EvalDataset
from relguard.evaluation.matching import EntityResolver, normalize_name
from relguard.extract.positions import slot_table
from relguard.types import DocumentExtraction, Extraction

Pair = tuple[str, frozenset[str]]
#: A stretch between two names that only lists them ("A, B and C"): it carries no relation words, so what the slot
#: before the list states reaches every name of it and is drawn.
_LIST_GAP = re.compile(r"\s*(?:,|;|&|and|or|, and|, or)?\s*", re.IGNORECASE)


@dataclass(frozen=True)
class GoldCoverage:
    """Coverage of gold relations and the share of slots that sit on no gold pair (fractions in [0, 1])."""

    coverage: float
    gold: int
    slots: int
    slots_off_gold: float
    direct: float = 0.0

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
    chained = {
        _pair(resolver, document.document.name, first, second)
        for document in extraction.documents
        for first, second in chained_pairs(document)
    }
    direct = sum(_pair(resolver, document, f.subject, f.object) in slotted for document, f in dataset.gold)
    covered = sum(_pair(resolver, document, f.subject, f.object) in slotted | chained for document, f in dataset.gold)
    return GoldCoverage(
        coverage=covered / len(dataset.gold) if dataset.gold else 0.0,
        gold=len(dataset.gold),
        slots=slots,
        slots_off_gold=off / slots if slots else 0.0,
        direct=direct / len(dataset.gold) if dataset.gold else 0.0,
    )


def chained_pairs(document: DocumentExtraction) -> set[tuple[str, str]]:
    """Entity pairs (by name) of ``document`` named in one sentence with a slot in every stretch between
    consecutive mentions from one to the other (a stretch that only lists names needs none, but one slot at least
    lies between them): what the pair states is read only through drawn slots."""
    table = slot_table(document)
    found: set[tuple[str, str]] = set()
    by_sentence: dict[int, list] = {}
    for region in table.regions:
        by_sentence.setdefault(region.sentence, []).append(region)
    for sentence, row in table.mentions.by_sentence.items():
        regions = by_sentence.get(sentence, [])
        text = document.document.text
        slotted = [
            any(row[i].end <= r.start and r.end <= row[i + 1].start for r in regions) for i in range(len(row) - 1)
        ]
        covered = [
            slotted[i]
            or row[i].entity == row[i + 1].entity
            or _LIST_GAP.fullmatch(text[row[i].end : row[i + 1].start]) is not None
            for i in range(len(row) - 1)
        ]
        for i in range(len(row)):
            drawn = False
            for j in range(i + 1, len(row)):
                if not covered[j - 1]:
                    break
                drawn |= slotted[j - 1]
                if drawn and row[i].entity != row[j].entity:
                    found.add((row[i].entity[0], row[j].entity[0]))
    return found


def verbatim_evidence(dataset: EvalDataset, texts: Mapping[str, str]) -> float | None:
    """The share of ``dataset.evidence`` sentences found byte for byte in the released ``texts`` (by name).

    ``None`` when the dataset has no evidence sentences (HotpotQA, 2Wiki, a user corpus).
    """
    if not dataset.evidence:
        return None
    originals = {d.name: d.text for d in dataset.documents}
    kept = sum(originals[e.document][e.start : e.end] in texts.get(e.document, "") for e in dataset.evidence)
    return kept / len(dataset.evidence)
