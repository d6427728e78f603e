"""Which pairs a slot region stands for comes from positions alone (DESIGN invariant 11).

The extractions here are built by hand, so each test says exactly what an extractor handed over: the same
regions with different pairs linked (as a parse of two wordings links them) must give the same result.
"""

from __future__ import annotations

from relguard.extract.regions import UNREAD, opens_noun_phrase, pair_by_position, slot_regions
from relguard.rewrite import mask
from relguard.types import Document, DocumentExtraction, Entity, Mention, Occurrence, Sentence, Triple

TEXT = "Alice Smith met Bob Jones in Paris."
NAMES = {"Alice Smith": "PERSON", "Bob Jones": "PERSON", "Paris": "GPE"}


def _extraction(
    links: list[tuple[str, str, str, str]], text: str = TEXT, names: dict[str, str] = NAMES
) -> DocumentExtraction:
    """``links`` are (subject, predicate, object, span text) as an extractor reported them."""
    document = Document("doc.txt", text)
    entities = tuple(
        Entity(name, kind, (Mention(0, text.index(name), text.index(name) + len(name), name),))
        for name, kind in names.items()
        if name in text
    )
    triples = tuple(
        Triple(s, names[s], p, o, names[o], (Occurrence("doc.txt", 0, text.index(f" {w} ") + 1,
                                                        text.index(f" {w} ") + 1 + len(w), w),))
        for s, p, o, w in links
    )  # fmt: skip
    return DocumentExtraction(document, (Sentence(0, 0, len(text)),), entities, triples)


def _pairs(extraction: DocumentExtraction) -> set[tuple[str, str, tuple[str, ...]]]:
    return {(t.subject, t.object, tuple(o.text for o in t.occurrences)) for t in extraction.triples}


def test_two_linkings_of_the_same_regions_give_the_same_pairs() -> None:
    """A parse of one wording links Bob to Paris, of another Alice to Paris; the regions are the same."""
    one = _extraction([("Alice Smith", "met", "Bob Jones", "met"), ("Bob Jones", "lives_in", "Paris", "in")])
    other = _extraction([("Alice Smith", "met", "Bob Jones", "met"), ("Alice Smith", "born_in", "Paris", "in")])
    expected = {
        ("Alice Smith", "Bob Jones", ("met",)),
        ("Alice Smith", "Paris", ("met", "in")),  # "met" has two names after it, "in" two before it
        ("Bob Jones", "Paris", ("in",)),
    }
    assert _pairs(pair_by_position(one)) == _pairs(pair_by_position(other)) == expected


def test_a_pair_keeps_what_the_extractor_read_and_an_unlinked_pair_says_so() -> None:
    result = {
        (t.subject, t.predicate, t.object)
        for t in pair_by_position(
            _extraction([("Alice Smith", "met", "Bob Jones", "met"), ("Bob Jones", "lives_in", "Paris", "in")])
        ).triples
    }
    assert result == {
        ("Alice Smith", "met", "Bob Jones"),
        ("Bob Jones", "lives_in", "Paris"),
        ("Alice Smith", UNREAD, "Paris"),
    }


def test_a_pair_linked_in_another_region_of_the_sentence_keeps_that_predicate() -> None:
    linked = _extraction([("Alice Smith", "met", "Bob Jones", "met"), ("Alice Smith", "met_in", "Paris", "in")])
    predicates = {(t.subject, t.object): t.predicate for t in pair_by_position(linked).triples}
    assert predicates[("Alice Smith", "Paris")] == "met_in"
    assert predicates[("Bob Jones", "Paris")] == UNREAD


def test_pairing_twice_changes_nothing() -> None:
    once = pair_by_position(
        _extraction([("Alice Smith", "met", "Bob Jones", "met"), ("Bob Jones", "x", "Paris", "in")])
    )
    assert pair_by_position(once) == once


def test_regions_merge_spans_that_touch_and_keep_sentences_apart() -> None:
    regions = slot_regions([(10, 14, 0), (0, 4, 0), (4, 8, 0), (20, 24, 1), (24, 26, 2)])
    assert [(r.sentence, r.start, r.end) for r in regions] == [(0, 0, 8), (0, 10, 14), (1, 20, 24), (2, 24, 26)]


def test_the_fill_of_a_shared_slot_comes_from_the_pair_named_next_to_it() -> None:
    """The "in" slot stands for (Alice, Paris) and (Bob, Paris); the reader takes "in" as linking Bob and Paris,
    so that group's outcome is the one printed, whichever index the corpus gave it."""
    paired = pair_by_position(
        _extraction([("Alice Smith", "met", "Bob Jones", "met"), ("Bob Jones", "lives_in", "Paris", "in")])
    )
    keys = sorted({t.pair_key for t in paired.triples})
    for order in (keys, keys[::-1]):
        index = {key: number for number, key in enumerate(order)}
        slot = mask(paired, index).slots[1]
        assert order[slot.groups[0]] == ("Bob Jones", "PERSON", "Paris", "GPE")
        assert set(slot.groups) == {index[("Alice Smith", "PERSON", "Paris", "GPE")], slot.groups[0]}


def test_a_region_that_ends_a_noun_phrase_on_a_name_links_the_names_before_it() -> None:
    text = "Alice Smith is an American singer from Paris."
    document = _extraction([("American", "singer_from", "Paris", "singer from")], text, {**NAMES, "American": "NORP"})
    pairs = {(t.subject, t.object) for t in pair_by_position(document).triples}
    assert pairs == {("Alice Smith", "Paris"), ("American", "Paris"), ("Alice Smith", "American")}


def test_a_name_after_an_article_opens_a_noun_phrase_unless_it_opens_the_sentence() -> None:
    """ "an [Acme Corp] employee" ends a noun phrase at the slot; "The [Harbor Street Clinic] is …" (the bundled
    sample's first sentence) and "leads the [Harbor Street Clinic] and …" name the entity with its own article,
    and the slot after it is a verb."""
    cases = {
        ("Bob Jones, an Acme Corp employee, left.", "Acme"): True,
        ("Lana Grey is an American singer from Ohio.", "American"): True,
        ("The Harbor Street Clinic is a community health centre in Boston.", "Harbor"): False,
        ("It grew. The Acme Corp is based in Berlin.", "Acme"): False,
        ("Alice Smith founded Acme Corp in Berlin.", "Acme"): False,
        ("Alberta is a province of the Canadian federation.", "Canadian"): True,
        ("Maria Alvarez leads the Harbor Street Clinic and teaches at Harvard.", "Harbor Street Clinic"): False,
    }
    found = {}
    for text, name in cases:
        start = text.index(name)
        found[(text, name)] = opens_noun_phrase(text, start, start + len(name))
    assert found == cases


def test_a_region_with_too_few_names_around_it_keeps_the_extractors_triples() -> None:
    """Fail closed: an extractor whose mentions miss a name ("Smith" for Alice Smith) still gets its slot masked."""
    text = "Smith praised Bob Jones."
    alone = _extraction(
        [("Alice Smith", "praised", "Bob Jones", "praised")], text, {"Alice Smith": "PERSON", "Bob Jones": "PERSON"}
    )
    assert [m.text for e in alone.entities for m in e.mentions] == ["Bob Jones"]
    assert pair_by_position(alone).triples == alone.triples
