"""Shapes of a masked sentence that no fill reads well in (:mod:`relguard.rewrite.shape`), and the preposition
a fill must keep, each from a real HotpotQA sentence that printed broken English before (issue 25).

Real spaCy extraction and the inventory's wordings; outcomes without names, so an unfillable sentence is deleted
and counted (with names it would be restated: tests/test_restate.py).
"""

from __future__ import annotations

import pytest

from relguard.candidates.inventory import InventoryCandidates
from relguard.rewrite import Sampled, fill, mask
from relguard.rewrite.verbalize import FormVerbalizer
from relguard.types import Document

VERBALIZE = FormVerbalizer(InventoryCandidates().forms)


def _out(extractor, text: str, predicate: str):
    extraction = extractor.extract(Document("d.txt", text))
    keys = sorted({t.pair_key for t in extraction.triples})
    masked = mask(extraction, {key: n for n, key in enumerate(keys)})
    return masked, fill(masked, {n: Sampled((k[1], k[3]), predicate) for n, k in enumerate(keys)}, VERBALIZE)


@pytest.mark.parametrize(
    ("text", "predicate", "masked_holds"),
    [
        # the second end of a range: "changed from X [to] Y" read "from X that competes with Y"
        ("The name was changed from National Language Authority to National Language Promotion Department.",
         "competes_with", "from National Language Authority [REL_"),
        # "between X and [the city of] Y" read "between the village of Dexter and governs Watertown"
        ("The route runs between the village of Dexter and the city of Watertown.", "governs", "and [REL_"),
        # a slot that opens a range: "changed its identity that sanctioned the ROIA to simply OIA" (user's read)
        ("After the public Honolulu schools joined, the league changed its identity from the ROIA to simply OIA.",
         "sanctioned", "[REL_0] the ROIA to"),
        # a singular role where the text wants a plural: "Veditz was one of the first founder of American Sign
        # Language" (user's read)
        ("Deafened by scarlet fever at the age of eight, Veditz was one of the first to make motion-picture "
         "recordings of American Sign Language.", "founded", "one of the first [REL_"),
    ],
)  # fmt: skip
def test_a_shape_no_fill_reads_in_is_unfillable(extractor, text, predicate, masked_holds):
    """The sentence is not printed filled: deleted, or cut to a first clause that reads (relguard.rewrite.clause)."""
    masked, out = _out(extractor, text + " The end.", predicate)
    assert masked_holds in masked.text, masked.text
    assert 0 in out.unfillable_sentences + out.restated_sentences, (masked.text, out.text)
    assert out.text.endswith(". The end.") or out.text == "The end."


def test_several_fills_in_one_clause_stay_in_place_with_every_other_word(extractor):
    """Fills stay in place with every other word rather than the sentence being restated (which loses its dates
    and descriptions): after a noun phrase the drawn predicate's preposition reads ("a game by X and by Y");
    "founded in 1988 by" keeps its date."""
    text = "Daytona USA is a racing video game developed by Amusement Vision and published by Sega. The end."
    _, out = _out(extractor, text, "owned_by")
    assert out.text == "Daytona USA is a racing video game by Amusement Vision and by Sega. The end."
    assert out.restated_sentences == () and out.unfillable_sentences == ()
    text = "Zeitgeist Films is an American film distributor based in New York City founded in 1988 by Nancy Gerstman."
    _, out = _out(extractor, text, "located_in")
    assert out.restated_sentences == () and out.unfillable_sentences == (), out.text
    for kept in ("Zeitgeist Films is an American film distributor", "New York City", "1988", "Nancy Gerstman"):
        assert kept in out.text
    _, out = _out(extractor, "Acme Corp is owned by Globex Inc. The end.", "owned_by")
    assert out.text == "Acme Corp is owned by Globex Inc. The end." and out.unfillable_sentences == ()


def test_a_clause_set_off_by_commas_may_stand_beside_the_main_verb(extractor):
    """One aside next to one more fill reads: ", which is owned by Globex Inc," and the main verb; the same
    predicate drawn for both says it twice ("Acme Corp, which sued Globex Inc, sued Initech Corp"), which is kept
    in place as the last try rather than deleting the sentence."""
    text = "Acme Corp, which is owned by Globex Inc, sued Initech Corp. The end."
    masked, out = _out(extractor, text, "sued")
    assert masked.text.count("[REL_") >= 2, masked.text
    assert out.text == "Acme Corp, which sued Globex Inc, sued Initech Corp. The end.", (masked.text, out.text)
    extraction = extractor.extract(Document("d.txt", text))
    keys = sorted({t.pair_key for t in extraction.triples})
    outcomes = {n: Sampled((k[1], k[3]), "acquired" if k[2] == "Globex Inc" else "sued") for n, k in enumerate(keys)}
    out = fill(mask(extraction, {key: n for n, key in enumerate(keys)}), outcomes, VERBALIZE)
    assert out.text == "Acme Corp, which acquired Globex Inc, sued Initech Corp. The end.", out.text
    assert out.unfillable_sentences == ()


def _masked(text: str, *, tail: bool = False):
    """A masked sentence by hand: two slots, the second optionally the closing part of the first's expression."""
    from relguard.rewrite.mask import MaskedDocument, Slot

    first, second = text.index("[REL_0]"), text.index("[REL_1]")
    slots = (
        Slot((0,), 0, first, first + 7),
        Slot((0,) if tail else (1,), 0, second, second + 7, role="tail" if tail else "", head=0 if tail else -1),
    )
    return MaskedDocument("d", text, ((0, len(text)),), slots)


def test_a_form_without_preposition_is_set_off_by_commas_only_around_a_date():
    from relguard.rewrite.shape import dated_between

    assert dated_between(
        _masked("Acme [REL_0] in 1777 [REL_1] William Bass.", tail=True),
        _masked("Acme [REL_0] in 1777 [REL_1] William Bass.", tail=True).slots[1],
    )
    numbered = _masked("It had 6,493, [REL_0] to 7,049 [REL_1] the 2011 Census.", tail=True)
    assert not dated_between(numbered, numbered.slots[1])


def test_a_relative_clause_after_and_needs_a_relative_clause_before_it():
    """ "a game owned by Acme Corp and that is a sequel to Sega Inc": the halves no longer match; with the first
    half a relative clause too ("that is owned by … and that is …") they do."""
    from relguard.rewrite.shape import mismatched

    masked = _masked("Daytona is a game [REL_0] Acme Corp and [REL_1] Sega Inc.")
    assert mismatched(masked, {0: "owned by", 1: "that is a sequel to"}) == {0}
    assert mismatched(masked, {0: "that is owned by", 1: "that is a sequel to"}) == set()
    assert mismatched(masked, {0: "owned by", 1: "owned by"}) == set()
    assert mismatched(masked, {0: "the supporters of", 1: "founded"}) == {0}  # a noun phrase, then a verb
    assert mismatched(masked, {0: "the founder of", 1: "the owner of"}) == set()


def test_a_first_clause_with_a_form_split_around_a_number_is_not_kept():
    """ "a population of 6,493, [increasing] to 7,049 [at] the 2011 Census": the head's form has no preposition
    and the words between are no date, so the piece "which organized to 7,049 the 2011 Census" is not kept."""
    from relguard.rewrite.clause import first_clause

    masked = _masked("It had 6,493, [REL_0] to 7,049 [REL_1] the 2011 Census.", tail=True)
    census = masked.text.index("2011 Census")
    masked = type(masked)(masked.name, masked.text, masked.sentences, masked.slots, ((census, census + 11, "EVENT"),))
    assert first_clause(masked, 0, {0: ", which organized", 1: ""}) is None
    dated = _masked("Acme [REL_0] in 1777 [REL_1] William Bass.", tail=True)
    bass = dated.text.index("William Bass")
    dated = type(dated)(dated.name, dated.text, dated.sentences, dated.slots, ((bass, bass + 12, "PERSON"),))
    assert first_clause(dated, 0, {0: "employed,", 1: ","}) == (
        "Acme employed, in 1777, William Bass.",
        ((5, 14), (22, 23)),
    )


def test_a_slot_inside_a_quoted_title_or_after_a_cut_name_word_is_unfillable():
    from relguard.rewrite.mask import MaskedDocument, Slot
    from relguard.rewrite.shape import inside_name

    def masked(text: str, names: list[str]) -> MaskedDocument:
        at = text.index("[REL_0]")
        mentions = tuple(sorted((text.index(n), text.index(n) + len(n), "ORG") for n in names))
        return MaskedDocument("d", text, ((0, len(text)),), (Slot((0,), 0, at, at + 7),), mentions)

    assert inside_name(masked('It is on the album "Staring [REL_0] the Sun".', ["Sun"])) == {0}
    assert inside_name(masked("It was published by Office [REL_0] National Statistics.", ["National Statistics"])) == {
        0
    }
    assert inside_name(masked("Acme Corp [REL_0] Globex Inc.", ["Acme Corp", "Globex Inc"])) == set()
    assert inside_name(masked('Acme Corp [REL_0] "Globex".', ["Acme Corp", "Globex"])) == set()


def test_a_singular_role_after_are_or_one_of_the_first_is_unfillable():
    """ "His experimental works are the investor of Malayalam Cinema industry" (user's read): the forms have no
    plural roles. A verb after "are" agrees by itself, and "is the investor of" reads."""
    from relguard.rewrite.mask import MaskedDocument, Slot
    from relguard.rewrite.shape import wants_plural

    def masked(text: str) -> MaskedDocument:
        at = text.index("[REL_0]")
        return MaskedDocument("d", text, ((0, len(text)),), (Slot((0,), 0, at, at + 7),))

    assert wants_plural(masked("His works are [REL_0] Malayalam Cinema."), {0: "the investor of"}) == {0}
    assert wants_plural(masked("His works are [REL_0] Malayalam Cinema."), {0: "owned by"}) == set()
    assert wants_plural(masked("His work is [REL_0] Malayalam Cinema."), {0: "the investor of"}) == set()
    assert wants_plural(masked("Veditz was one of the first [REL_0] Sign Language."), {0: "founder of"}) == {0}
    assert wants_plural(masked("Veditz was the first [REL_0] Sign Language."), {0: "founder of"}) == set()


def test_a_verb_whose_subject_is_a_noun_and_not_the_pairs_name_is_off_subject():
    """ "The first edition [REL] Penguin and Knopf" (no name before the verb, both of the pair's after it), "Braun's
    credits [REL] X", "The American edition [REL] X": a drawn verb there is said of the noun. A name right before
    the verb, an adverb between or not, is its subject ("Alice Smith later [REL]", "Acme's founder Alice [REL]")."""
    from relguard.rewrite.frames import FINITE, Frame
    from relguard.rewrite.mask import MaskedDocument, Slot
    from relguard.rewrite.subject import off_subject

    def verdict(text: str, names: list[tuple[str, str]]) -> bool:
        at = text.index("[REL_0]")
        mentions = tuple(sorted((text.index(n), text.index(n) + len(n), kind) for n, kind in names))
        masked = MaskedDocument("d", text, ((0, len(text)),), (Slot((0,), 0, at, at + 7),), mentions)
        return off_subject(masked, {0: "founded"}, (Frame(FINITE),)) == {0}

    assert verdict("The first edition [REL_0] Penguin and Knopf.", [("Penguin", "ORG"), ("Knopf", "ORG")])
    assert verdict("Braun's credits [REL_0] Night Harbor.", [("Braun", "PERSON"), ("Night Harbor", "WORK_OF_ART")])
    assert verdict("The American edition [REL_0] Penguin.", [("American", "NORP"), ("Penguin", "ORG")])
    assert not verdict("Alice Smith later [REL_0] Acme.", [("Alice Smith", "PERSON"), ("Acme", "ORG")])
    assert not verdict(
        "Acme's founder Alice [REL_0] Globex.", [("Acme", "ORG"), ("Alice", "PERSON"), ("Globex", "ORG")]
    )
    assert not verdict("The American [REL_0] Penguin.", [("American", "NORP"), ("Penguin", "ORG")])
    assert not verdict("[REL_0] and more.", [])  # no name anywhere: no pair to misplace
    # a noun a possessive pronoun owns is the subject too ("Her work was buried at": development reading); a kin
    # is a person, whom a person's relation fits; past "and" the pronoun's owner is the subject again
    assert verdict("Her work [REL_0] the Met.", [("Her", "PERSON"), ("the Met", "FAC")])
    assert verdict("Its offices [REL_0] Paris.", [("Its", "ORG"), ("Paris", "GPE")])
    assert not verdict("His father [REL_0] Acme.", [("His", "PERSON"), ("Acme", "ORG")])
    assert not verdict("She rolled up her sleeves and [REL_0] Acme.", [("her", "PERSON"), ("Acme", "ORG")])


def test_a_fill_or_an_empty_slot_between_two_commas_leaves_one_comma():
    """ "Anant Mahadevan, [REL_0], and [REL_1] Hindi films" with a fill that closes on a comma, or an empty slot
    between two commas, printed ",," ("outlasted,, and influenced"); one comma reads."""
    from relguard.rewrite.mask import MaskedDocument, Slot
    from relguard.rewrite.seams import assemble

    text = "Anant Mahadevan [REL_0], and [REL_1] Hindi films."
    first, second = text.index("[REL_0]"), text.index("[REL_1]")
    slots = (Slot((0,), 0, first, first + 7), Slot((1,), 0, second, second + 7))
    masked = MaskedDocument("d", text, ((0, len(text)),), slots)
    assert assemble(masked, 0, len(text), {0: "outlasted,", 1: "influenced"})[0] == (
        "Anant Mahadevan outlasted, and influenced Hindi films."
    )
    text = "Anant Mahadevan, [REL_0], and Hindi films."
    at = text.index("[REL_0]")
    masked = MaskedDocument("d", text, ((0, len(text)),), (Slot((0,), 0, at, at + 7),))
    assert assemble(masked, 0, len(text), {0: ""})[0] == "Anant Mahadevan, and Hindi films."


def test_an_irregular_participle_on_a_noun_that_is_not_the_name_is_off_subject():
    """ "the riverboats [born in] the Mississippi River" (Re-DocRED development): "born" ends in none of the regular
    endings of a participle, so the fill passed as one that says nothing of the noun before it; the drawn relation
    is the pair's, not the riverboats'. After the name itself the participle is the name's."""
    from relguard.rewrite.frames import MODIFIER, Frame
    from relguard.rewrite.mask import MaskedDocument, Slot
    from relguard.rewrite.subject import off_subject

    def verdict(text: str, names: list[tuple[str, str]], words: str) -> bool:
        at = text.index("[REL_0]")
        mentions = tuple(sorted((text.index(n), text.index(n) + len(n), kind) for n, kind in names))
        masked = MaskedDocument("d", text, ((0, len(text)),), (Slot((0,), 0, at, at + 7),), mentions)
        return off_subject(masked, {0: words}, (Frame(MODIFIER),)) == {0}

    boats = ("He played on the riverboats [REL_0] the Mississippi River.", [("He", "PERSON"), ("Mississippi", "LOC")])
    for words in ("born in", "won by", "set in", "taught by", "struck by", "banned in"):
        assert verdict(*boats, words), words
    assert not verdict(*boats, "in")  # a preposition claims no verb of the boats
    assert not verdict(
        "It starred Alice Smith [REL_0] Paris.", [("Alice Smith", "PERSON"), ("Paris", "GPE")], "born in"
    )
