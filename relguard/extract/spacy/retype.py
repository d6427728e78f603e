"""Entity types that never read a relation's words: labels from the masked sentences and the canonical name.

The NER reads the words around a name, so "Elena Novak was born in Bratislava" and "Elena Novak founded
Bratislava" label the city differently — and the type chooses the pool, which is public. Here every sentence
that holds a relation span is labelled again with each span replaced by one neutral filler
(:data:`relguard.extract.slots.FILLER`); a sentence without one is labelled as it stands, since no relation's
words are in it. Each named mention votes with its label, weighted by its length in words, and the canonical
name votes once more inside a fixed template (the paper types from canonical names), its label breaking ties.
The corpus then gives one
name one type (:func:`relguard.extract.slots.align_corpus`).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

from relguard.extract import gazetteer
from relguard.extract.slots import FILLER, masked_text, vote
from relguard.extract.spacy import lexicon as lex
from relguard.extract.spacy.evidence import context_evidence, name_evidence, natural_feature, person_shape
from relguard.extract.stretches import stretch_between
from relguard.types import ENTITY_TYPES, UNSURE

if TYPE_CHECKING:
    from spacy.tokens import Doc

    from relguard.extract.spacy.document import DocumentState

#: How a canonical name is shown to the NER on its own: a frame that says nothing about what the entity is.
TEMPLATE = "I read about {name}."
_TYPES = frozenset(ENTITY_TYPES)
_PLACES = frozenset({"GPE", "LOC", "FAC"})
_WORD = re.compile(r"\w+")
_ACRONYM = re.compile(r"[A-Z][A-Z&]{1,5}")
_NAME_LEFT = re.compile(r"(?:\w|[A-Z][\w'’.-]*\s)$")
_NAME_RIGHT = re.compile(r"\w|\s[A-Z]")
#: Capitalized words that a mention's edges catch from the sentence around a name.
_EDGE_NOISE = frozenset(
    {"Born", "Died", "Legendary", "Opposition", "Congress", "Former", "Late", "Then", "President", "Senator"}
)
#: Gazetteer kinds that what the text says may overrule (a town's name is also a film's or a club's); a country's,
#: a nationality's or a language's name stays what it is.
_OVERRULED = frozenset({"city", "region"})
_PERSONAL = re.compile(r"(?:He|She|His|Her)\s")
#: A peer's numbered title after his name, which the name keeps (:func:`~.spelled.continues_name`).
_PEER_TITLE = re.compile(
    rf",\s+(?i:{lex.PEER_ORDINAL})\s+(?:{'|'.join(sorted(w.title() for w in lex.RANK_HEADS))})\s+of\s.*$"
)
#: Labels a person-shaped name keeps: a film or a law may be named after someone ("Jerry Maguire").
_NAMED_KINDS = frozenset({"PERSON", "WORK_OF_ART", "EVENT", "LAW"})
#: NER labels right often enough on their own (nationalities, religions and parties; wars and games: 88-97 %).
_SURE_ALONE = frozenset({"NORP", "EVENT"})


@dataclass(frozen=True)
class MaskedSentence:
    """A sentence of one document with its relation spans replaced by the filler, and the offset map back."""

    sentence: int
    text: str
    offsets: tuple[int, ...]


def masked_sentences(state: DocumentState) -> list[MaskedSentence]:
    """Every sentence of ``state`` that holds a relation span, masked (the others need no second look)."""
    text = state.document.text
    spans: dict[int, list[tuple[int, int]]] = {}
    doc = state.doc
    if state.strict:
        spans = _stretches(state)
    for sentence, _a, _b, _predicate, pieces, _roles in () if state.strict else state.found:
        bounds = state.sentences[sentence]
        for first, last in pieces:
            start, end = doc[first].idx, doc[last].idx + len(doc[last])
            spans.setdefault(sentence, []).append((start - bounds.start, end - bounds.start))
    masked = []
    filler = f" {FILLER} " if state.strict else FILLER
    for sentence, ranges in sorted(spans.items()):
        bounds = state.sentences[sentence]
        body, offsets = masked_text(text[bounds.start : bounds.end], ranges, filler=filler)
        masked.append(MaskedSentence(sentence, body, tuple(offsets)))
    return masked


def _stretches(state: DocumentState) -> dict[int, list[tuple[int, int]]]:
    """The strict mode's slots, as the release masks them: each stretch between two adjacent mentions with the
    blanks around it (filled with one blank each side), offsets into its sentence."""
    text, doc = state.document.text, state.doc
    by_sentence: dict[int, list[tuple[int, int]]] = {}
    for start, end, sentence, _ in state.mentions:
        by_sentence.setdefault(sentence, []).append((doc[start].idx, doc[end - 1].idx + len(doc[end - 1])))
    found: dict[int, list[tuple[int, int]]] = {}
    for sentence, row in by_sentence.items():
        base = state.sentences[sentence].start
        for (_, a_end), (b_start, _) in pairwise(sorted(row)):
            stretch = stretch_between(text, a_end, b_start)
            if stretch is None:
                continue
            start, end = stretch
            while start > a_end and text[start - 1] in " \t":
                start -= 1
            while end < b_start and text[end] in " \t":
                end += 1
            found.setdefault(sentence, []).append((start - base, end - base))
    return found


def final_types(
    state: DocumentState, masked: list[MaskedSentence], labelled: list[Doc], templates: dict[str, str | None]
) -> list[str]:
    """One type per entity of ``state``: the weighted vote of its named mentions' masked labels and its name's.

    ``labelled`` are the NER's parses of ``masked`` (same order); ``templates`` maps a canonical name to the
    label the NER gives it inside :data:`TEMPLATE` (None: no entity found there).
    """
    doc = state.doc
    relabelled = {m.sentence: (m, _entities(parsed)) for m, parsed in zip(masked, labelled, strict=True)}
    votes: list[dict[str, float]] = [{} for _ in state.names]
    tie: list[str | None] = [None] * len(state.names)
    for index, label in enumerate(state.labels):
        start, end, sentence, entity = state.mentions[index]
        if sentence in relabelled:
            label = _masked_label(state, relabelled[sentence], index)
        label = state.vote_label(index, label) if label else None
        if label in _TYPES:
            words = sum(not t.is_space for t in doc[start:end])
            votes[entity][label] = votes[entity].get(label, 0.0) + words
    for entity, name in enumerate(state.names):
        label = templates.get(name)
        if label in _TYPES:
            votes[entity][label] = votes[entity].get(label, 0.0) + 1.0
            tie[entity] = label
    ner = [vote(votes[e], tie[e]) or state.entity_types[e] for e in range(len(state.names))]
    said = _context_votes(state, relabelled)
    aliased = _called_by_last_word(state)
    types = [public_type(name, ner[e], said[e], surname=e in aliased) for e, name in enumerate(state.names)]
    titles = set(state.described)
    for start, end, _, entity in state.mentions:
        if (start, end) in titles:
            types[entity] = "WORK_OF_ART"  # its own sentence says it is a film, a novel, a song …
    return _surnames_of_people(state.names, types)


def _surnames_of_people(names: list[str], types: list[str]) -> list[str]:
    """A one-word name that is the last word of a person named in the same document is that person's surname
    ("Gorka" after "John Gorka"), unless a gazetteer knows it as something else ("Washington")."""
    surnames = {n.split()[-1] for n, kind in zip(names, types, strict=True) if kind == "PERSON" and " " in n}
    return [
        "PERSON" if name in surnames and kind not in _NAMED_KINDS and gazetteer.lookup(name) is None else kind
        for name, kind in zip(names, types, strict=True)
    ]


def _called_by_last_word(state: DocumentState) -> set[int]:
    """Entities of two or more words that the document also calls by their last word alone ("Priya Raman" …
    "Raman studied"), as a mention of their own or as a name of its own: the way a text shortens a person's name,
    seldom a firm's, a place's or a work's."""
    doc = state.doc
    alone = {name for name in state.names if " " not in name}
    alone |= {doc[start].text for start, end, _, _ in state.mentions if end - start == 1}
    return {e for e, name in enumerate(state.names) if " " in name and name.split()[-1] in alone}


def public_type(name: str, ner: str, said: dict[str, float], *, surname: bool = False) -> str:
    """One entity's type from what is public about it, strongest first: the gazetteer's type for a country, a
    nationality or a language; the name's own head words ("… Glacier", "FK …",
    :func:`~.evidence.name_evidence`); what its masked sentences say it is (``said``,
    :func:`~.evidence.context_evidence`); the gazetteer's type for a city or a region; a person's
    name by its spelling (:func:`~.evidence.person_shape`); and last the NER's vote ``ner`` where it is
    reliable alone, else :data:`~relguard.types.UNSURE` (:func:`_ner_alone`; ``surname``: the document also calls
    the name by its last word alone). A label
    of the evidence's family stands ("Bari" GPE: the NER's LOC is kept; "French" NORP or LANGUAGE), but a
    natural feature's name that no source holds is a LOC, whatever place label the NER gave it. Where its
    sentences say it is a work, that beats a place's head word: films and series are named after places."""
    core = _core(name)
    entry = gazetteer.lookup(core)
    if entry is not None and entry.kind not in _OVERRULED:
        return ner if ner in gazetteer.allowed(entry) else entry.type
    told = vote(said, ner) if said else None
    found = "WORK_OF_ART" if told == "WORK_OF_ART" else name_evidence(name) or told  # '"South Park"', "Gosford Park"
    if found is None and entry is not None:
        return ner if ner in gazetteer.allowed(entry) else entry.type
    if found is None:
        return _ner_alone(name, ner, surname=surname)
    if found == "LOC" and ner == "GPE" and entry is None and natural_feature(core):
        return "LOC"  # "Lake Nokomis": a lake is no polity, though the NER's GPE is of the place family
    return ner if ner in _family(found) else found


def _ner_alone(name: str, ner: str, *, surname: bool = False) -> str:
    """The type of a name that only the NER has labelled. Measured against Re-DocRED's gold types, the NER alone
    is right about 62 % of such names in drawn relations (bench/typing_accuracy.py), too seldom for a pool of one
    kind: a person's name by its spelling ("Celine Dion") or one the text shortens to its last word is a person,
    an acronym is a body (a place where it is a country's code), a nationality or an event stays what the NER
    says, and any other name is :data:`~relguard.types.UNSURE`, whose pools hold what any kind can be."""
    core = _core(name)
    if core.replace(".", "") in gazetteer.PLACE_CODES:
        return "GPE"  # "UK", "U.S.", "D.C.": a place's letters, whatever the NER made of them
    if ner == "PERSON" and _ACRONYM.fullmatch(name):
        return "GPE" if name in gazetteer.PLACE_CODES else "ORG"  # "JTBC", "BBFC": letters spell no person's name
    if person_shape(core):
        return ner if ner in _NAMED_KINDS - {"EVENT"} else "PERSON"  # "Hugo Fregonese": the NER's EVENT alone
    if ner == "PERSON" and (surname or (" " not in core and gazetteer.given_name(core))):
        return "PERSON"  # "Wilfried Schneider … Schneider later moved"; "Jennifer", a lone census given name
    if ner == "ORG" and _ACRONYM.fullmatch(core):
        return "ORG"  # "BBC", "SXSW": letters the NER reads as a body are one four times in five
    if ner == "NORP" and " " not in core and gazetteer.given_name(core):
        return UNSURE  # "Maria": a given name no source holds as a people, whatever the NER said
    return ner if ner in _SURE_ALONE else UNSURE


def _core(name: str) -> str:
    """A canonical name without what a mention's edges caught of its sentence: a parenthesis opened after it
    ("Gujranwala (Punjabi") and a capitalized word glued before or after that no name begins or ends with
    ("Duque de Caxias Born", "Legendary Dolly Parton")."""
    name = name.split(" (", 1)[0].strip()
    name = _PEER_TITLE.sub("", name)  # "Henry Beaufort, 3rd Duke of Somerset": the peer is "Henry Beaufort"
    words = name.split()
    if len(words) > 2 and words[-1] in _EDGE_NOISE:
        words = words[:-1]
    if len(words) > 2 and words[0] in _EDGE_NOISE:
        words = words[1:]
    return " ".join(words)


def _family(label: str) -> frozenset[str]:
    return _PLACES if label in _PLACES else frozenset({label})


def _context_votes(state: DocumentState, relabelled: dict[int, tuple[MaskedSentence, Doc]]) -> list[dict[str, float]]:
    """Per entity, the types that the masked text around each occurrence of its name gives it (one vote each; the
    NER may have missed the name where the sentence says most: "Song of Freedom is a 1936 British film"), and a
    vote for PERSON from each sentence that opens with "He" or "She" to the entity whose name opened the last
    sentence opened by a name ("Paul Robeson was … . He …"). Names are found by their first word, so the cost is
    linear in the words of the document."""
    text = state.document.text
    said: list[dict[str, float]] = [{} for _ in state.names]
    by_word: dict[str, list[tuple[str, int]]] = {}
    for entity, name in enumerate(state.names):
        word = _WORD.match(name)
        if word is not None and len(name) > 1:
            by_word.setdefault(word.group(), []).append((name, entity))
    opener = None
    for sentence, bounds in enumerate(state.sentences):
        body = relabelled[sentence][0].text if sentence in relabelled else text[bounds.start : bounds.end]
        opened = None
        for word in _WORD.finditer(body):
            first = word.start()
            for name, entity in by_word.get(word.group(), ()):
                last = first + len(name)
                if not body.startswith(name, first) or not _alone(body, first, last):
                    continue
                if opened is None and not body[:first].strip():
                    opened = entity
                kind = context_evidence(
                    body[max(0, first - 120) : first], body[last : last + 120], words=len(name.split())
                )
                if kind in _TYPES:
                    said[entity][kind] = said[entity].get(kind, 0.0) + 1.0
        if opened is not None:
            opener = opened
        elif opener is not None and _PERSONAL.match(body):
            said[opener]["PERSON"] = said[opener].get("PERSON", 0.0) + 1.0
    return said


def _alone(body: str, first: int, last: int) -> bool:
    """Whether ``body[first:last]`` stands on its own: not inside a word nor a longer name ("Paris" in "Paris
    Hilton")."""
    return not _NAME_LEFT.search(body[max(0, first - 40) : first]) and not _NAME_RIGHT.match(body, last)


def _entities(parsed: Doc) -> tuple[list[int], list[tuple[int, int, str]]]:
    """The NER's entities of one masked sentence as (start, end, label), sorted, and their starts: read once per
    sentence (``Doc.ents`` builds every span anew on each read, which made a 100,000-character sentence cost
    minutes)."""
    found = [(ent.start_char, ent.end_char, ent.label_) for ent in parsed.ents]
    return [a for a, _, _ in found], found


def _masked_label(state: DocumentState, relabelled: tuple[MaskedSentence, tuple], index: int) -> str | None:
    """The label the NER gives mention ``index`` in its masked sentence (the entity overlapping it most)."""
    masked, (starts, entities) = relabelled
    start, end = state.mentions[index][:2]
    bounds = state.sentences[masked.sentence]
    first = masked.offsets[state.doc[start].idx - bounds.start]
    last = masked.offsets[state.doc[end - 1].idx + len(state.doc[end - 1]) - bounds.start]
    best, label = 0, None
    position = bisect.bisect_left(starts, last)  # entities do not overlap: those that start before ``last``
    while position > 0:
        position -= 1
        ent_start, ent_end, ent_label = entities[position]
        if ent_end <= first:
            break
        overlap = min(last, ent_end) - max(first, ent_start)
        if overlap > 0 and overlap >= best:  # a tie goes to the earlier entity, as reading them in order did
            best, label = overlap, ent_label
    return label


def template_text(name: str) -> str:
    return TEMPLATE.format(name=name)


def template_label(parsed: Doc, name: str) -> str | None:
    """The label of the entity that covers ``name`` inside its template, if the NER found one."""
    start = TEMPLATE.index("{name}")
    for ent in parsed.ents:
        if ent.start_char <= start + 1 and ent.end_char >= start + len(name) - 1:
            return ent.label_
    return None
