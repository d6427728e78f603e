"""Reconstruction: masking, deletion, filling, and DESIGN invariant 7 (fill never reads the original)."""

from __future__ import annotations

from relguard.rewrite import FormVerbalizer, Sampled, fill, mask
from relguard.rewrite.frames import APPOSITION, COMMA, COPULA, FINITE, MODIFIER, NOUN, POSSESSIVE, read_frames
from relguard.rewrite.verbalize import Place
from relguard.types import Document, DocumentExtraction, Entity, Mention, Occurrence, Sentence, Triple

FORMS = {
    "works_for": {"clause": "works for", "noun": "employee"},
    "founded": {"clause": "founded", "noun": "founder"},
    "capital_of": {"clause": "is the capital of", "noun": "capital"},
    "sued": {"clause": "sued", "noun": None},
}
VERBALIZE = FormVerbalizer(lambda p, _pair: FORMS.get(p, {"clause": p.replace("_", " "), "noun": None}))


def _doc(text: str, relations: list[tuple[str, str, str, str]]) -> DocumentExtraction:
    """Sentences split on '. '; each relation is (subject, predicate, object, exact span text)."""
    sentences, start = [], 0
    for part in text.split(". "):
        end = start + len(part) + (1 if not part.endswith(".") and start + len(part) < len(text) else 0)
        sentences.append(Sentence(len(sentences), start, min(end, len(text))))
        start = start + len(part) + 2
    triples = []
    for subject, predicate, obj, span in relations:
        at = text.index(span)
        number = next(s.index for s in sentences if s.start <= at < s.end)
        occ = Occurrence("d", number, at, at + len(span), span)
        triples.append(Triple(subject, "PERSON", predicate, obj, "ORG", (occ,)))
    return DocumentExtraction(Document("d", text), tuple(sentences), (), tuple(triples))


def _index(doc: DocumentExtraction) -> dict:
    return {t.pair_key: i for i, t in enumerate(doc.triples)}


def test_mask_replaces_only_relation_spans():
    doc = _doc(
        "Alice works at Acme. Bob sued Acme. The sky is blue.",
        [
            ("Alice", "works_at", "Acme", "works at"),
            ("Bob", "sued", "Acme", "sued"),
        ],
    )
    masked = mask(doc, _index(doc))
    assert masked.text == "Alice [REL_0] Acme. Bob [REL_1] Acme. The sky is blue."
    assert [masked.text[s:e] for s, e in masked.sentences] == [
        "Alice [REL_0] Acme.",
        "Bob [REL_1] Acme.",
        "The sky is blue.",
    ]


def test_null_deletes_the_sentence_and_everything_else_is_byte_identical():
    text = "Alice works at Acme. Bob sued Acme. The sky is blue.\n"
    doc = _doc(text, [("Alice", "works_at", "Acme", "works at"), ("Bob", "sued", "Acme", "sued")])
    outcomes = {0: Sampled(("PERSON", "ORG"), "founded"), 1: Sampled(("PERSON", "ORG"), None)}
    result = fill(mask(doc, _index(doc)), outcomes, VERBALIZE)
    assert result.text == "Alice founded Acme. The sky is blue.\n"
    assert result.removed_sentences == (1,)
    assert result.filled_spans == 1


def test_deleting_the_last_sentence_takes_the_space_before_it():
    doc = _doc("The sky is blue. Bob sued Acme.", [("Bob", "sued", "Acme", "sued")])
    result = fill(mask(doc, _index(doc)), {0: Sampled(("PERSON", "ORG"), None)}, VERBALIZE)
    assert result.text == "The sky is blue."


def test_one_outcome_fills_every_occurrence_of_a_triple():
    text = "Alice works at Acme. Later Alice worked for Acme again."
    doc = _doc(text, [])
    occs = (
        Occurrence("d", 0, 6, 14, "works at"),
        Occurrence("d", 1, text.index("worked for"), text.index("worked for") + 10, "worked for"),
    )
    doc = DocumentExtraction(
        doc.document, doc.sentences, (), (Triple("Alice", "PERSON", "works_for", "Acme", "ORG", occs),)
    )
    result = fill(mask(doc, _index(doc)), {0: Sampled(("PERSON", "ORG"), "sued")}, VERBALIZE)
    assert result.text == "Alice sued Acme. Later Alice sued Acme again."


def test_invariant_7_documents_differing_only_in_relation_expressions_give_identical_output():
    a = _doc(
        "Alice works at Acme. Bob sued Acme.",
        [("Alice", "works_for", "Acme", "works at"), ("Bob", "sued", "Acme", "sued")],
    )
    b = _doc(
        "Alice is employed by Acme. Bob took to court Acme.",
        [
            ("Alice", "founded", "Acme", "is employed by"),
            ("Bob", "sued", "Acme", "took to court"),
        ],
    )
    outcomes = {0: Sampled(("PERSON", "ORG"), "founded"), 1: Sampled(("PERSON", "ORG"), "works_for")}
    index_a = {t.pair_key: i for i, t in enumerate(a.triples)}
    index_b = {t.pair_key: i for i, t in enumerate(b.triples)}
    masked_a, masked_b = mask(a, index_a), mask(b, index_b)
    assert masked_a.text == masked_b.text
    assert "works at" not in masked_a.text and "employed" not in masked_b.text
    assert fill(masked_a, outcomes, VERBALIZE) == fill(masked_b, outcomes, VERBALIZE)


def test_overlapping_spans_share_one_slot_and_null_wins():
    text = "Alice and Bob founded Acme. The end."
    doc = _doc(text, [("Alice", "founded", "Acme", "founded"), ("Bob", "founded", "Acme", "founded")])
    masked = mask(doc, _index(doc))
    assert masked.text.count("[REL_") == 1
    kept = fill(masked, {0: Sampled(("PERSON", "ORG"), "sued"), 1: Sampled(("PERSON", "ORG"), "sued")}, VERBALIZE)
    assert kept.text == "Alice and Bob sued Acme. The end."
    gone = fill(masked, {0: Sampled(("PERSON", "ORG"), "sued"), 1: Sampled(("PERSON", "ORG"), None)}, VERBALIZE)
    assert gone.text == "The end."


def test_literal_placeholder_text_in_the_source_is_left_alone():
    doc = _doc("The form says [REL_0] here. Alice works at Acme.", [("Alice", "works_at", "Acme", "works at")])
    result = fill(mask(doc, _index(doc)), {0: Sampled(("PERSON", "ORG"), "founded")}, VERBALIZE)
    assert result.text == "The form says [REL_0] here. Alice founded Acme."


def test_verbalizer_fits_the_frame():
    """Each frame gets the form that is English there; the frame, not the replaced words, decides."""
    pair = ("PERSON", "ORG")
    assert VERBALIZE("works_for", pair, Place(FINITE)) == "works for"
    assert VERBALIZE("founded", pair, Place(POSSESSIVE, inverted=True)) == "founder"  # "Acme's [founder] Alice"
    assert VERBALIZE("founded", pair, Place(APPOSITION)) == "the founder of"  # "Alice, [the founder of] Acme,"
    assert VERBALIZE("sued", pair, Place(APPOSITION, person=True)) == "who sued"
    assert VERBALIZE("capital_of", ("GPE", "GPE"), Place(NOUN)) == "capital of"  # "Paris is the [capital of]"
    assert VERBALIZE("capital_of", ("GPE", "GPE"), Place(NOUN, name_after=False)) == "capital"
    assert VERBALIZE("capital_of", ("GPE", "GPE"), Place(FINITE)) == "is the capital of"
    assert VERBALIZE("capital_of", ("GPE", "GPE"), Place(COPULA)) == "the capital of"  # "Paris is [the capital of]"
    assert VERBALIZE("sued", pair, Place(NOUN)) == "person who sued"  # no role noun: a head noun of the type
    assert VERBALIZE("sued", pair, Place(FINITE, preposition_after=True)) == "sued"
    assert VERBALIZE("works_for", pair, Place(FINITE, preposition_after=True)) == "works"  # "[works] for X" kept


INVERSE_FORMS = {
    "founded": {"clause": "founded", "noun": "founder", "inverse": "was founded by"},
    "directed": {"clause": "directed", "noun": "director", "inverse": "was directed by"},
    "headquartered_in": {"clause": "is headquartered in", "noun": None, "inverse": "is home to"},
}
INVERSE = FormVerbalizer(lambda p, _pair: INVERSE_FORMS[p])


def test_verbalizer_uses_the_inverse_when_the_object_comes_first():
    pair = ("PERSON", "ORG")
    assert INVERSE("founded", pair, Place(FINITE, inverted=True)) == "was founded by"
    assert INVERSE("founded", pair, Place(COPULA, inverted=True)) == "founded by"
    assert INVERSE("directed", ("PERSON", "WORK_OF_ART"), Place(MODIFIER, inverted=True)) == "directed by"
    assert INVERSE("founded", pair, Place(APPOSITION, inverted=True)) == "founded by"
    assert INVERSE("founded", pair, Place(POSSESSIVE, inverted=True)) == "founder"


def test_verbalizer_turns_a_slot_after_a_noun_phrase_into_a_participle_or_relative_clause():
    assert INVERSE("headquartered_in", ("ORG", "GPE"), Place(MODIFIER)) == "headquartered in"
    assert INVERSE("founded", ("PERSON", "ORG"), Place(MODIFIER)) == "that founded"
    assert INVERSE("founded", ("PERSON", "ORG"), Place(MODIFIER, person=True)) == "who founded"


def test_a_noun_that_names_a_passive_verbs_act_keeps_its_by():
    """ "Neighbours, the adaptation of Ashleigh Brewer" (HotpotQA development): "adaptation of X" makes X what was
    adapted. A noun that names the act or result of a "was … by" clause keeps the agent's "by"; a noun that
    names a role of the subject keeps "of" ("the film of", "the capital of")."""
    from relguard.candidates.inventory import InventoryCandidates

    inventory = FormVerbalizer(InventoryCandidates().forms)
    work = ("WORK_OF_ART", "PERSON")
    assert inventory("adapted_by", work, Place(APPOSITION)) == "the adaptation by"
    assert inventory("published_by", ("WORK_OF_ART", "ORG"), Place(NOUN)) == "publication by"
    assert inventory("directed_by", work, Place(NOUN)) == "film of"
    assert inventory("adapted_by", work, Place(NOUN, inverted=True)) == "adapter of"
    assert inventory("capital_of", ("GPE", "GPE"), Place(NOUN)) == "capital of"


def test_where_no_form_fits_the_verbalizer_says_so():
    """A possessive wants the next name's role: with no role noun and no participle there is no English fill, and
    the sentence is deleted and counted rather than printed broken."""
    bare = FormVerbalizer(lambda p, _pair: {"clause": "sued", "noun": None, "inverse": "was sued by"})
    assert bare("sued", ("PERSON", "ORG"), Place(POSSESSIVE, pronoun=True)) is None
    assert bare("sued", ("PERSON", "ORG"), Place(POSSESSIVE)) is None  # "Acme-sued Bob" does not read glued
    owned = FormVerbalizer(lambda p, _pair: {"clause": "owns", "noun": None, "inverse": "is owned by"})
    assert owned("owns", ("PERSON", "ORG"), Place(POSSESSIVE)) == "-owned"  # "Acme's [REL] Bob" -> "Acme-owned Bob"


def test_mask_marks_slots_whose_object_comes_first():
    from relguard.types import Entity, Mention

    text = "Acme was founded by Alice. Alice founded Beta."
    sentences = (Sentence(0, 0, 26), Sentence(1, 27, 46))
    entities = (
        Entity("Acme", "ORG", (Mention(0, 0, 4, "Acme"),)),
        Entity("Alice", "PERSON", (Mention(0, 20, 25, "Alice"), Mention(1, 27, 32, "Alice"))),
        Entity("Beta", "ORG", (Mention(1, 41, 45, "Beta"),)),
    )
    triples = (
        Triple("Alice", "PERSON", "founded", "Acme", "ORG", (Occurrence("d", 0, 5, 19, "was founded by"),)),
        Triple("Alice", "PERSON", "founded", "Beta", "ORG", (Occurrence("d", 1, 33, 40, "founded"),)),
    )
    doc = DocumentExtraction(Document("d", text), sentences, entities, triples)
    masked = mask(doc, {t.pair_key: i for i, t in enumerate(triples)})
    assert [slot.inverted for slot in masked.slots] == [True, False]
    outcomes = {0: Sampled(("PERSON", "ORG"), "founded"), 1: Sampled(("PERSON", "ORG"), "founded")}
    assert fill(masked, outcomes, INVERSE).text == "Acme was founded by Alice. Alice founded Beta."


def test_context_from_entity_positions_decides_between_clause_and_apposition():
    from relguard.types import Entity, Mention

    text = "Her predecessor, Bob Stone, testified before Acme Council. Ann Lee, CEO of Beta, spoke."
    bob, council = text.index("Bob Stone"), text.index("Acme Council")
    ann, beta = text.index("Ann Lee"), text.index("Beta")
    sentences = (Sentence(0, 0, text.index(" Ann")), Sentence(1, ann, len(text)))
    entities = (
        Entity("Bob Stone", "PERSON", (Mention(0, bob, bob + 9, "Bob Stone"),)),
        Entity("Acme Council", "ORG", (Mention(0, council, council + 12, "Acme Council"),)),
        Entity("Ann Lee", "PERSON", (Mention(1, ann, ann + 7, "Ann Lee"),)),
        Entity("Beta", "ORG", (Mention(1, beta, beta + 4, "Beta"),)),
    )
    span_a, span_b = text.index("testified before"), text.index("CEO of")
    triples = (
        Triple("Ann Lee", "PERSON", "ceo_of", "Beta", "ORG", (Occurrence("d", 1, span_b, span_b + 6, "CEO of"),)),
        Triple(
            "Bob Stone", "PERSON", "testified_before", "Acme Council", "ORG",
            (Occurrence("d", 0, span_a, span_a + 16, "testified before"),),
        ),
    )  # fmt: skip
    doc = DocumentExtraction(Document("d", text), sentences, entities, triples)
    masked = mask(doc, {t.pair_key: i for i, t in enumerate(triples)})
    assert [f.name for f in read_frames(masked)] == [FINITE, APPOSITION]
    outcomes = {0: Sampled(("PERSON", "ORG"), "founded"), 1: Sampled(("PERSON", "ORG"), "founded")}
    assert fill(masked, outcomes, INVERSE).text == (
        "Her predecessor, Bob Stone, founded Acme Council. Ann Lee, the founder of Beta, spoke."
    )


def test_a_name_that_closes_a_relative_clause_is_followed_by_the_main_verb():
    """ "Steve Wozniak, who founded Apple, lives in California": the relative clause's slot (its comma included)
    opens at Steve Wozniak, so Apple sits inside it and the next slot is the main verb, filled as a clause."""
    text = "Steve Wozniak, who founded Apple, lives in California."
    names = {name: text.index(name) for name in ("Steve Wozniak", "Apple", "California")}
    entities = tuple(
        Entity(name, kind, (Mention(0, at, at + len(name), name),))
        for (name, at), kind in zip(names.items(), ("PERSON", "ORG", "GPE"), strict=True)
    )
    clause, verb = text.index(", who founded"), text.index("lives in")
    triples = (
        Triple("Steve Wozniak", "PERSON", "founded", "Apple", "ORG",
               (Occurrence("d", 0, clause, clause + 13, ", who founded"),)),
        Triple("Steve Wozniak", "PERSON", "lived_in", "California", "GPE",
               (Occurrence("d", 0, verb, verb + 8, "lives in"),)),
    )  # fmt: skip
    doc = DocumentExtraction(Document("d", text), (Sentence(0, 0, len(text)),), entities, triples)
    masked = mask(doc, {t.pair_key: i for i, t in enumerate(triples)})
    assert masked.text == "Steve Wozniak[REL_0] Apple, [REL_1] California."
    assert [f.name for f in read_frames(masked)] == [COMMA, FINITE]
    outcomes = {0: Sampled(("PERSON", "ORG"), "founded"), 1: Sampled(("PERSON", "GPE"), "headquartered_in")}
    assert fill(masked, outcomes, INVERSE).text == "Steve Wozniak, who founded Apple, is headquartered in California."


def test_a_slot_after_a_prepositions_object_qualifies_it():
    """ "recorded at Studio 92 [in] Canada": the name after "at" is a preposition's object, so the fill cannot be
    a main verb ("at Studio 92 is headquartered in Canada"); it reads as the predicate's preposition."""
    text = "The tracks were recorded at Studio 92 in Canada."
    names = {name: text.index(name) for name in ("Studio 92", "Canada")}
    entities = tuple(
        Entity(name, kind, (Mention(0, at, at + len(name), name),))
        for (name, at), kind in zip(names.items(), ("FAC", "GPE"), strict=True)
    )
    at = text.index(" in ") + 1
    triples = (Triple("Studio 92", "FAC", "located_in", "Canada", "GPE", (Occurrence("d", 0, at, at + 2, "in"),)),)
    doc = DocumentExtraction(Document("d", text), (Sentence(0, 0, len(text)),), entities, triples)
    masked = mask(doc, {triples[0].pair_key: 0})
    assert [f.name for f in read_frames(masked)] == [MODIFIER]
    pair = ("FAC", "GPE")
    assert fill(masked, {0: Sampled(pair, "headquartered_in")}, INVERSE).text == (
        "The tracks were recorded at Studio 92 in Canada."
    )
    assert fill(masked, {0: Sampled(pair, "founded")}, INVERSE).text == (
        "The tracks were recorded at Studio 92 that founded Canada."
    )
    subject = "Studio 92 is in Canada."  # a name that opens the sentence takes the main verb as before
    doc = DocumentExtraction(
        Document("d", subject),
        (Sentence(0, 0, len(subject)),),
        (
            Entity("Studio 92", "FAC", (Mention(0, 0, 9, "Studio 92"),)),
            Entity("Canada", "GPE", (Mention(0, 16, 22, "Canada"),)),
        ),
        (Triple("Studio 92", "FAC", "located_in", "Canada", "GPE", (Occurrence("d", 0, 10, 15, "is in"),)),),
    )
    assert [f.name for f in read_frames(mask(doc, {triples[0].pair_key: 0}))] == [FINITE]


def test_a_slot_after_a_possessive_pronoun_of_an_entity_is_a_role_noun():
    """ "Bob Jones met his [wife] Alice Smith": "his" is a mention of Bob Jones with nothing before the slot, but
    the slot is a role noun after a possessive, not a verb after a name ("met his is married to Alice Smith")."""
    text = "Bob Jones met his wife Alice Smith."
    his, wife, alice = text.index("his"), text.index("wife"), text.index("Alice")
    entities = (
        Entity("Bob Jones", "PERSON", (Mention(0, 0, 9, "Bob Jones"), Mention(0, his, his + 3, "his"))),
        Entity("Alice Smith", "PERSON", (Mention(0, alice, alice + 11, "Alice Smith"),)),
    )
    triple = Triple(
        "Bob Jones", "PERSON", "wife", "Alice Smith", "PERSON", (Occurrence("d", 0, wife, wife + 4, "wife"),)
    )
    doc = DocumentExtraction(Document("d", text), (Sentence(0, 0, len(text)),), entities, (triple,))
    masked = mask(doc, {triple.pair_key: 0})
    assert [f.name for f in read_frames(masked)] == [POSSESSIVE]
    married = FormVerbalizer(lambda p, _pair: {"clause": "is married to", "noun": "spouse", "inverse": "is married to"})
    assert fill(masked, {0: Sampled(("PERSON", "PERSON"), "married_to")}, married).text == (
        "Bob Jones met his spouse Alice Smith."
    )


def test_deleting_a_sentence_keeps_line_and_paragraph_breaks():
    """The release issue: deleting the last sentence of a paragraph keeps the paragraph break."""
    text = "Alice works at Acme. Bob sued Acme.\n\nThe sky is blue. It rained."
    doc = DocumentExtraction(
        Document("d", text),
        (Sentence(0, 0, 20), Sentence(1, 21, 35), Sentence(2, 37, 53), Sentence(3, 54, 64)),
        (),
        (
            Triple("Alice", "PERSON", "works_at", "Acme", "ORG", (Occurrence("d", 0, 6, 14, "works at"),)),
            Triple("Bob", "PERSON", "sued", "Acme", "ORG", (Occurrence("d", 1, 25, 29, "sued"),)),
        ),
    )
    masked = mask(doc, _index(doc))
    founded, null = Sampled(("PERSON", "ORG"), "founded"), Sampled(("PERSON", "ORG"), None)
    assert fill(masked, {0: founded, 1: null}, VERBALIZE).text == "Alice founded Acme.\n\nThe sky is blue. It rained."
    assert fill(masked, {0: null, 1: founded}, VERBALIZE).text == "Bob founded Acme.\n\nThe sky is blue. It rained."
    assert fill(masked, {0: null, 1: null}, VERBALIZE).text == "The sky is blue. It rained."
    withheld = fill(masked, {0: founded, 1: founded}, VERBALIZE, withheld=[2])
    assert withheld.text == "Alice founded Acme. Bob founded Acme.\n\nIt rained."
    assert withheld.withheld_sentences == (2,) and withheld.removed_sentences == ()


def test_a_null_on_one_paragraph_leaves_the_next_one_with_the_real_extractor():
    from relguard.pipeline import prepare

    prepared = prepare([Document("p.txt", "Bob Jones visited Paris.\n\nAcme Corp is based in Berlin.\n")], k=10)
    assert len(prepared.extraction.documents[0].sentences) == 2 and len(prepared.groups) == 2
    visited = next(i for i, g in enumerate(prepared.groups) if g.subject == "Bob Jones")
    sampled = {i: Sampled(g.type_pair, None if i == visited else "founded") for i, g in enumerate(prepared.groups)}
    masked = mask(prepared.extraction.documents[0], {g.key: i for i, g in enumerate(prepared.groups)})
    assert fill(masked, sampled, VERBALIZE).text == "Acme Corp founded Berlin.\n"


def test_after_a_possessive_pronoun_the_fill_is_the_role_noun():
    """ "with her husband, Tom Hughes" masked to "with her [REL], Tom Hughes" reads as a noun, never a clause."""
    forms = {"clause": "is a sibling of", "noun": "sibling"}
    verbalize = FormVerbalizer(lambda p, _pair: forms)
    assert verbalize("sibling_of", ("PERSON", "PERSON"), Place(POSSESSIVE, pronoun=True)) == "sibling"
    assert verbalize("sibling_of", ("PERSON", "PERSON"), Place(FINITE)) == "is a sibling of"
