"""Review edits that change who a mention stands for: a name the NER missed, what a pronoun refers to, and a name
that is two names joined ("Acme Corp v. Beta Ltd").

All change mentions, never a relation's words, and all end as every extraction does: the document's slots are
paired again by position (:func:`~relguard.extract.regions.pair_by_position`; in the strict mode the stretches
are taken again, :func:`~relguard.extract.stretches.to_stretches`), so a new mention takes part in the slots
around it exactly as a mention the extractor had found would, and no slot is left without a pair.
"""

from __future__ import annotations

import re
from dataclasses import replace

from relguard.errors import InputError
from relguard.extract.regions import pair_by_position
from relguard.extract.spacy.inflect import normalize_predicate
from relguard.extract.stretches import to_stretches
from relguard.types import DocumentExtraction, Entity, Mention, Occurrence, Triple


def add_entity(doc: DocumentExtraction, name: str, kind: str, *, number: int) -> DocumentExtraction:
    """``doc`` with every place ``name`` is spelled (whole words, within one sentence, outside the names already
    found) a mention of the entity ``name`` of type ``kind``; unchanged when it is spelled nowhere new.

    In the default mode a slot that already covers such a place is an error (the span would hide the name): remove
    that slot first. In the strict mode the stretches are taken again around the new mentions.
    """
    text = doc.document.text
    covered = [(m.start, m.end) for e in doc.entities for m in e.mentions]
    slots = [o for t in doc.triples for o in t.occurrences]
    found = []
    for match in re.finditer(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text):
        start, end = match.span()
        sentence = next((s.index for s in doc.sentences if s.start <= start and end <= s.end), None)
        if sentence is None or any(a < end and start < b for a, b in covered):
            continue
        inside = next((o for o in slots if o.start < end and start < o.end), None)
        if inside is not None and not doc.stretches:
            raise InputError(
                f"review edit {number}: {name!r} in {doc.document.name} lies inside the slot {inside.text!r}; "
                "remove that slot first, then add the entity and the slot again"
            )
        found.append(Mention(sentence, start, end, text[start:end]))
    if not found:
        return doc
    old = next((e for e in doc.entities if e.name == name), None)
    mentions = tuple(sorted((*(old.mentions if old else ()), *found), key=lambda m: (m.start, m.end)))
    entities = (*(e for e in doc.entities if e.name != name), Entity(name, kind, mentions))
    if doc.stretches:
        return to_stretches(replace(doc, entities=entities))
    return pair_by_position(replace(doc, entities=entities))


def split_name(doc: DocumentExtraction, name: str, between: str, *, number: int) -> DocumentExtraction:
    """``doc`` with every mention of the entity ``name`` that spells ``between`` inside it cut into two mentions,
    of the names before and after those words, and a slot over ``between`` joining them ("Acme Corp [v.] Beta
    Ltd": a lawsuit named as one title states who sued whom). Each part keeps the type of an entity already so
    named, else the type of ``name``; unchanged when ``name`` is not in ``doc``.
    """
    old = next((e for e in doc.entities if e.name == name), None)
    if old is None:
        return doc
    if not between.strip():
        raise InputError(f"review edit {number}: say which words join the two names (e.g. 'v.')")
    pattern = re.compile(r"\s+" + re.escape(between.strip()) + r"\s+")
    cut = [(m, pattern.search(m.text)) for m in old.mentions]
    if not any(found for _, found in cut):
        raise InputError(
            f"review edit {number}: {name!r} does not spell {between.strip()!r} between two words; copy the joining "
            "words exactly as the name writes them"
        )
    named = {e.name: e for e in doc.entities if e.name != name}
    added: dict[str, list[Mention]] = {}
    slots: list[tuple[Mention, Mention, Occurrence]] = []
    kept: list[Mention] = []
    for mention, found in cut:
        if found is None:
            kept.append(mention)
            continue
        left = Mention(mention.sentence, mention.start, mention.start + found.start(), mention.text[: found.start()])
        right = Mention(mention.sentence, mention.start + found.end(), mention.end, mention.text[found.end() :])
        gap = found.group()
        start = mention.start + found.start() + len(gap) - len(gap.lstrip())
        words = gap.strip()
        occurrence = Occurrence(doc.document.name, mention.sentence, start, start + len(words), words)
        for part in (left, right):
            added.setdefault(part.text, []).append(part)
        slots.append((left, right, occurrence))
    entities = [e for e in doc.entities if e.name not in added and e.name != name]
    if kept:
        entities.append(replace(old, mentions=tuple(kept)))
    for part, mentions in added.items():
        before = named.get(part)
        every = sorted((*(before.mentions if before else ()), *mentions), key=lambda m: (m.start, m.end))
        entities.append(Entity(part, before.type if before else old.type, tuple(every)))
    kinds = {e.name: e.type for e in entities}
    triples = list(doc.triples)  # a slot on the joined name keeps its region: pairing by position re-reads its ends
    for left, right, occurrence in slots:
        if left.text == right.text:
            continue
        predicate = normalize_predicate(occurrence.text) or "v"
        triples.append(Triple(left.text, kinds[left.text], predicate, right.text, kinds[right.text], (occurrence,)))
    edited = replace(doc, entities=tuple(entities), triples=tuple(triples))
    return to_stretches(edited) if doc.stretches else pair_by_position(edited)


def set_referent(doc: DocumentExtraction, start: int, end: int, entity: str, *, number: int) -> DocumentExtraction:
    """``doc`` with the mention at ``start:end`` (a pronoun or "the company", resolved or not) standing for
    ``entity``, an entity of ``doc``; the slots of its sentence that it took part in link ``entity`` instead.

    Refused, naming the reason, when the span is no such word, the entity is not in the document, the old
    referent is also named in that sentence (which slot used which mention could not be told), or a slot would
    then link an entity to itself.
    """
    name, text = doc.document.name, doc.document.text
    target = next((e for e in doc.entities if e.name == entity), None)
    if target is None:
        raise InputError(
            f"review edit {number}: no entity {entity!r} in {name}; add it first (add an entity), then link the word"
        )
    old, mention = _mention_at(doc, start, end)
    if mention is None:
        sentence = next((s.index for s in doc.sentences if s.start <= start < end <= s.end), None)
        words = text[start:end]
        if sentence is None or not re.fullmatch(r"[A-Za-z][\w' -]*", words or "-"):
            raise InputError(f"review edit {number}: {start}-{end} of {name} is no word of one sentence to link")
        if any(m.start < end and start < m.end for e in doc.entities for m in e.mentions):
            raise InputError(f"review edit {number}: {words!r} overlaps a name; link the whole word")
        mention = Mention(sentence, start, end, words)
    if old is not None and old.name == entity:
        raise InputError(f"review edit {number}: {mention.text!r} already refers to {entity}; remove this edit")
    triples = doc.triples
    if old is not None:
        triples = _relinked(doc, old, target, mention, number)
    entities = []
    for e in doc.entities:
        mentions = tuple(m for m in e.mentions if m != mention)
        if e.name == entity:
            mentions = tuple(sorted((*mentions, mention), key=lambda m: (m.start, m.end)))
        if mentions:
            entities.append(replace(e, mentions=mentions))
    edited = replace(doc, entities=tuple(entities), triples=triples)
    return to_stretches(edited) if doc.stretches else pair_by_position(edited)


def _mention_at(doc: DocumentExtraction, start: int, end: int) -> tuple[Entity | None, Mention | None]:
    for entity in doc.entities:
        for mention in entity.mentions:
            if (mention.start, mention.end) == (start, end):
                return entity, mention
    return None, None


def _relinked(
    doc: DocumentExtraction, old: Entity, target: Entity, mention: Mention, number: int
) -> tuple[Triple, ...]:
    """The triples with ``old`` replaced by ``target`` on their occurrences in ``mention``'s sentence."""
    here = mention.sentence
    uses = [
        t for t in doc.triples if old.name in (t.subject, t.object) and any(o.sentence == here for o in t.occurrences)
    ]
    named = [m for m in old.mentions if m.sentence == here and m != mention]
    if uses and named:
        raise InputError(
            f"review edit {number}: {old.name} is also named in the sentence of {mention.text!r}, so which slot "
            "stood on which of the two cannot be told; remove those slots and add them again between the right names"
        )
    found: dict[tuple[str, str, str, str, str], list[Occurrence]] = {}
    for t in doc.triples:
        moved = [o for o in t.occurrences if o.sentence == here] if t in uses else []
        kept = [o for o in t.occurrences if o not in moved]
        if kept:
            found.setdefault((t.subject, t.subject_type, t.predicate, t.object, t.object_type), []).extend(kept)
        if not moved:
            continue
        subject = (target.name, target.type) if t.subject == old.name else (t.subject, t.subject_type)
        obj = (target.name, target.type) if t.object == old.name else (t.object, t.object_type)
        if subject[0] == obj[0]:
            raise InputError(
                f"review edit {number}: {mention.text!r} would refer to {target.name}, the other end of its own slot "
                f"{moved[0].text!r}; link it to another entity, or remove the slot"
            )
        found.setdefault((*subject, t.predicate, *obj), []).extend(moved)
    return tuple(
        Triple(*key, occurrences=tuple(sorted(set(occurrences), key=lambda o: (o.start, o.end))))
        for key, occurrences in found.items()
    )
