"""The offline spaCy extractor on the real ``en_core_web_sm`` pipeline.

Example sentences were checked to be tagged correctly by the small model's NER,
so a failing row means the rules broke, not the model.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from relguard.errors import ModelError
from relguard.extract.regions import UNREAD
from relguard.extract.spacy import SpacyExtractor, normalize_predicate
from relguard.extract.spacy import model as spacy_extract
from relguard.types import Document, DocumentExtraction

pytest.importorskip("spacy")


def run(extractor: SpacyExtractor, text: str, name: str = "doc.txt") -> DocumentExtraction:
    result = extractor.extract(Document(name, text))
    check_invariants(result)
    return result


def triples(result: DocumentExtraction) -> set[tuple[str, str, str]]:
    return {(t.subject, t.predicate, t.object) for t in result.triples}


def spans(result: DocumentExtraction) -> dict[tuple[str, str, str], list[str]]:
    return {(t.subject, t.predicate, t.object): [o.text for o in t.occurrences] for t in result.triples}


def check_invariants(result: DocumentExtraction) -> None:
    """What every extraction must satisfy, whatever the text: exact spans that never touch an entity."""
    text = result.document.text
    for i, s in enumerate(result.sentences):
        assert s.index == i and 0 <= s.start < s.end <= len(text)
        assert text[s.start : s.end].strip() == text[s.start : s.end]
    mentions = [m for e in result.entities for m in e.mentions]
    for m in mentions:
        assert text[m.start : m.end] == m.text
    for t in result.triples:
        assert t.subject != t.object or t.subject_type != t.object_type
        assert list(t.occurrences) == sorted(t.occurrences, key=lambda o: (o.start, o.end))
        for o in t.occurrences:
            assert o.document == result.document.name
            assert text[o.start : o.end] == o.text and o.text.strip() == o.text
            sentence = result.sentences[o.sentence]
            assert sentence.start <= o.start < o.end <= sentence.end
            assert all(o.end <= m.start or m.end <= o.start for m in mentions), (o, t)
    keys = [t.key for t in result.triples]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


# (text, expected (subject, predicate, object), expected occurrence text)
POSITIVE = [
    # active subject-verb-object
    ("Steve Jobs founded Apple.", ("Steve Jobs", "founded", "Apple"), "founded"),
    # subject-verb-preposition-object; tense is normalized (present -> past)
    ("Barack Obama works at Google.", ("Barack Obama", "worked_at", "Google"), "works at"),
    # the same relation in the past tense gets the same predicate
    ("Barack Obama worked at Google.", ("Barack Obama", "worked_at", "Google"), "worked at"),
    # passive without agent keeps the participle
    ("Angela Merkel was born in Hamburg.", ("Angela Merkel", "born_in", "Hamburg"), "was born in"),
    # passive with agent: the entity named first is the subject, the predicate keeps its voice (invariant 11)
    ("Microsoft was founded by Bill Gates.", ("Microsoft", "founded_by", "Bill Gates"), "was founded by"),
    # appositive role noun
    ("Tim Cook, CEO of Apple, spoke in Paris.", ("Tim Cook", "ceo_of", "Apple"), "CEO of"),
    # possessive role noun: the owner is named first, the role is the object's
    ("Apple's founder Steve Jobs died in 2011.", ("Apple", "with_founder", "Steve Jobs"), "founder"),
    # compound role noun
    ("Apple CEO Tim Cook visited Berlin.", ("Apple", "with_ceo", "Tim Cook"), "CEO"),
    # a role noun after the object's name: the subject holds the role
    ("Bob Jones, an Acme Corp employee, retired.", ("Bob Jones", "employee_of", "Acme Corp"), "employee"),
    # copula with a relational noun: the verb group is part of the span
    ("Paris is the capital of France.", ("Paris", "capital_of", "France"), "is the capital of"),
    # copula with "member of"
    ("Alice Smith is a member of the Labour Party.", ("Alice Smith", "member_of", "Labour Party"), "is a member of"),
    # role through "served as ... of"
    (
        "Barack Obama served as the president of the United States.",
        ("Barack Obama", "served_as_president_of", "United States"),
        "served as the president of",
    ),
    # nominal apposition with a place noun -> located_in; the article joins the span, so the slot reads as a phrase
    # the head noun of a description stays in the text ("a city"); the relation's word is the preposition
    ("Hamburg, a city in Germany, hosted the summit.", ("Hamburg", "located_in", "Germany"), "in"),
    # participle clause "(born in Y)"
    ("Albert Einstein (born in Ulm) was a physicist.", ("Albert Einstein", "born_in", "Ulm"), "born in"),
    # relative clause: "who" stands for its antecedent; the comma that sets it off joins the span, as the comma of
    # "Dublin, Ohio" is the span there, so both wordings leave the same masked text
    ("Steve Wozniak, who founded Apple, lives in California.", ("Steve Wozniak", "founded", "Apple"), ", who founded"),
    # reduced passive relative clause with agent
    ("Acme Corp, founded by Alice Smith, makes robots.", ("Acme Corp", "founded_by", "Alice Smith"), ", founded by"),
    # passive participle + preposition
    ("The Louvre Museum is located in Paris.", ("Louvre Museum", "located_in", "Paris"), "is located in"),
    # conjoined objects: each gets the relation
    # one slot, one pair (DESIGN invariant 6): Beta Inc is reached through "and", which is no slot
    ("Siemens acquired Acme Corp and Beta Inc.", ("Siemens", "acquired", "Acme Corp"), "acquired"),
    # coordinated verb inherits its subject; "it" resolves to the only organization
    (
        "Bob Jones founded Acme Corp and later sold it to Siemens.",
        ("Bob Jones", "sold", "Acme Corp"),
        "sold",  # an adverb of time that opens the expression stays in the text, a fact of its own (issue 39)
    ),
    # a negated second clause does not block the first
    ("Bill Gates joined Google, but he did not join Apple.", ("Bill Gates", "joined", "Google"), "joined"),
    # fix 3: a form that is already past is kept as written (the lemma "fin" gave "finned")
    (
        "In 2020 the European Commission fined Atlas Shipping for breaching the EU Competition Law.",
        ("European Commission", "fined", "Atlas Shipping"),
        "fined",
    ),
    # fix 3: an irregular perfect still merges with the simple past ("has bought" -> bought)
    ("Google has bought YouTube.", ("Google", "bought", "YouTube"), "has bought"),
    # fix 4: the light noun of "take place" stays in the predicate; the date between is not the relation's, so the
    # expression is two parts of one slot (the second takes the closing preposition)
    (
        "The Danube Jazz Festival takes place every summer in Vienna.",
        ("Danube Jazz Festival", "took_place_in", "Vienna"),
        # a short stretch between two related names is slotted whole (relguard.extract.stretches.widen_to_stretches)
        ["takes place every summer in"],
    ),
    # fix 2: the bare surname "Raman" (labelled ORG) merges into the only person it names;
    # the preposition hung on the short object "computer science" is read onto the verb
    (
        "Priya Raman founded Quantix Labs in 2012. Raman studied computer science at Stanford University.",
        ("Priya Raman", "studied_at", "Stanford University"),
        "studied computer science at",
    ),
    # fix 2: "Novak" (labelled ORG) is Elena Novak
    (
        "Elena Novak succeeded Lukas Gruber in 2019. Novak performed with the Vienna Philharmonic for a decade.",
        ("Elena Novak", "performed_with", "Vienna Philharmonic"),
        "performed with",
    ),
    # fix 5: "It" is the main-clause subject of the previous sentence, not the place in its adjunct
    (
        "Atlas Shipping is a container shipping line based in Rotterdam. It was founded by Pieter de Vries in 1987.",
        ("Atlas Shipping", "founded_by", "Pieter de Vries"),
        "was founded by",
    ),
    # "serves on the board of" goes through the body noun
    (
        "Sofia Jansen serves on the board of the Dutch Maritime Institute.",
        ("Sofia Jansen", "served_on_board_of", "Dutch Maritime Institute"),
        "serves on the board of",
    ),
    # the whole expression: hyphenated prefix, copula and participle, compound role noun, coordinated verbs
    ("Alice Smith co-founded Acme Corp.", ("Alice Smith", "co_founded", "Acme Corp"), "co-founded"),
    ("Alice Smith is married to Bob Jones.", ("Alice Smith", "married_to", "Bob Jones"), "is married to"),
    (
        "Alice Smith was appointed chief executive of Acme Corp.",
        ("Alice Smith", "appointed_chief_executive_of", "Acme Corp"),
        "was appointed chief executive of",
    ),
    (
        "Alice Smith, the chief executive of Acme Corp, spoke today.",
        ("Alice Smith", "chief_executive_of", "Acme Corp"),
        "the chief executive of",
    ),
    ("Alice Smith founded and led Acme Corp.", ("Alice Smith", "founded_led", "Acme Corp"), "founded and led"),
    ("Alice Smith was born and raised in Paris.", ("Alice Smith", "born_raised_in", "Paris"), "was born and raised in"),
    # a second relation in a coordinated clause is its own slot, the carrier verb left to the first; the pair
    # stands for the first region too, which lies between its names (relguard.extract.regions)
    (
        "Acme Corp is headquartered in Berlin and was founded by Alice Smith.",
        ("Acme Corp", "founded_by", "Alice Smith"),  # a verb after "and" takes the sentence's first name
        ["was founded by"],
    ),
    # a possessive object between the verb and its preposition joins the span: one slot, filled once
    (
        "Pieter de Vries sold his stake to Maersk in 2006.",
        ("Pieter de Vries", "sold_to", "Maersk"),
        "sold his stake to",
    ),
    # "is a ... game created by": the description stays, only the relation is the span
    (
        "Demon Dice is a collectible dice game created by Lester Smith.",
        ("Demon Dice", "created_by", "Lester Smith"),
        "created by",
    ),
]


@pytest.mark.parametrize(("text", "triple", "span"), POSITIVE, ids=[row[0][:40] for row in POSITIVE])
def test_patterns(extractor: SpacyExtractor, text: str, triple: tuple[str, str, str], span: str | list[str]) -> None:
    result = run(extractor, text)
    found = spans(result)
    assert triple in found, found
    assert found[triple] == ([span] if isinstance(span, str) else span)


# Fail closed (invariant 11): negated, modal, hedged and hypothetical clauses get a slot like any other, with
# their words in the span and in the predicate; otherwise the sentence would be released as written and a
# neighbouring corpus with an asserted relation there would be told apart by its slot.
FAIL_CLOSED = [
    ("Bill Gates did not found Apple.", ("Bill Gates", "Apple"), "did not found"),
    ("Alice Smith never worked for Google.", ("Alice Smith", "Google"), "never worked for"),
    ("Bill Gates might join Google.", ("Bill Gates", "Google"), "might join"),
    ("Bill Gates would have joined Google.", ("Bill Gates", "Google"), "would have joined"),
    ("Alice Smith planned to found Acme Corp.", ("Alice Smith", "Acme Corp"), "planned to found"),
    ("Alice Smith allegedly founded Acme Corp.", ("Alice Smith", "Acme Corp"), "allegedly founded"),
    ("Tim Cook is not the CEO of Microsoft.", ("Tim Cook", "Microsoft"), "is not the CEO of"),
    ("Bill Gates joined Google, but he did not join Apple.", ("Bill Gates", "Apple"), "did not join"),
    # the noun "name" with a preposition leads to a relation, not an alias ("the ring name Naomi" is one)
    (
        "The Parker School takes its name from Francis Wayland Parker.",
        ("Parker School", "Francis Wayland Parker"),
        "takes its name from",
    ),
]


@pytest.mark.parametrize(("text", "pair", "span"), FAIL_CLOSED, ids=[row[0][:40] for row in FAIL_CLOSED])
def test_hedged_and_negated_clauses_get_a_slot(extractor: SpacyExtractor, text: str, pair, span: str) -> None:
    result = run(extractor, text)
    found = {(t.subject, t.object): [o.text for o in t.occurrences] for t in result.triples}
    assert span in found.get(pair, []), found


# (text, the pair that must get no slot)
NEGATIVE = [
    # a nationality qualifies the noun: the adjective, not the noun, says how the two relate, whatever the noun is
    # ("an American singer" had no slot, "an American director" had "director" as one; development reading at
    # 9e9459c: "was an American group that had as a descendant and actor of the silent era")
    ("Tom Reed was an American director and actor of the silent era.", ("Tom Reed", "American")),
    ("Ann Berg was a Swedish stage actress.", ("Ann Berg", "Swedish")),
    # the object of one verb is not the subject of the verb coordinated with it, and a fronted phrase the parse
    # took for a second subject is not the verb's subject (development reading at 9e9459c: "starred ... Charles
    # French, and that succeeded Josef von Sternberg", "for writer Nicholas Meyer, it defeated Denis Sanders")
    ("The film starred Tom Reed, Carl Hahn and Eve Stone, and was directed by Ann Berg.", ("Tom Reed", "Ann Berg")),
    ("The first film venture for writer Tom Reed, it was directed by Ann Berg.", ("Tom Reed", "Ann Berg")),
    # a verb below the path's top whose subject is a common noun is a third party's clause, relating neither name
    # (Re-DocRED development: "impressed Brezhnev to such an extent that Western commentators [believed] that
    # Kulakov would become" read "commentators associated with that Kulakov")
    (
        "Ann Berg impressed Tom Reed to such an extent that critics believed that Carl Hahn would become his heir.",
        ("Tom Reed", "Carl Hahn"),
    ),
    # a name that is the subject of an adverbial or complement clause below the path's top does what that clause
    # says alone (Re-DocRED development: "adopted its current calls when Sangamon State merged with" read "and
    # criticized its current calls"); a relative clause's subject still relates to the name it qualifies
    (
        "Radio Alpha became Beta FM in 1989, and adopted its current name when Sangamon State merged with Acme.",
        ("Radio Alpha", "Sangamon State"),
    ),
    # words of no English between two pieces of a foreign title the NER cut up relate nothing (Re-DocRED
    # development: "Castellari's Quel maledetto treno blindato" read "Quel that preceded treno contrasted with")
    (
        "De Masi also scored several action films, such as Enzo G. Castellari's Quel maledetto treno blindato (The "
        "Inglorious Bastards).",
        ("Quel", "treno"),
    ),
    # a nationality that qualifies a common noun in object position says what that noun is, not how the subject
    # relates to the nation (Re-DocRED development: "The novel had provided a test for American laws" read "The
    # novel premiered in American laws"); with a name on that noun the slot stays (below)
    ("Tom Reed had provided a test for American laws on pornography.", ("Tom Reed", "American")),
    # self-relation after alias merging (Microsoft = Microsoft Corp.)
    ("Microsoft acquired Microsoft Corp.", ("Microsoft Corp", "Microsoft Corp")),
    # another name for the same entity is an alias, not a relation
    ("Rakim Mayers, better known by his stage name ASAP Rocky, is a rapper.", ("Rakim Mayers", "ASAP Rocky")),
    # and "known in X as" another name (2Wiki development: "known in the United States as Victor Seastrom" read
    # "in the United States of Victor Seastrom")
    (
        "Victor Sjöström, sometimes known in the United States as Victor Seastrom, was a Swedish director.",
        ("United States", "Victor Seastrom"),
    ),
    # and a name that the noun "name" gives (Re-DocRED development: "the SmackDown brand under the ring name Naomi"
    # read "brand owned by the ring name Naomi"); "takes its name from X" stays a relation
    (
        "Trinity Fatu is an American wrestler signed to WWE, performing on the SmackDown brand under the ring name "
        "Naomi.",
        ("WWE", "Naomi"),
    ),
    # so is a birth name (development readings: "Bonnie Tyler (born Gaynor Hopkins; 8 June 1951)" read "(the
    # promoter of Gaynor Hopkins; 8 June 1951)")
    ("Bonnie Tyler (born Gaynor Hopkins; 8 June 1951) is a Welsh singer.", ("Bonnie Tyler", "Gaynor Hopkins")),
    # "like" compares or exemplifies, it relates nothing ("funded_like")
    (
        "The senator sponsored the Community Health Access Act, which funds clinics like Harbor Street.",
        ("Community Health Access Act", "Harbor Street"),
    ),
    # an object pronoun never means its own verb's subject, and the nearer candidate blocks a far one
    (
        "Sofia Jansen joined Atlas Shipping in 2010. Blue Note Records released it in 2023.",
        ("Blue Note Records", "Atlas Shipping"),
    ),
]


@pytest.mark.parametrize(("text", "pair"), NEGATIVE, ids=[row[0][:40] for row in NEGATIVE])
def test_exclusions(extractor: SpacyExtractor, text: str, pair: tuple[str, str]) -> None:
    result = run(extractor, text)
    names = {e.name for e in result.entities}
    assert set(pair) <= names, names  # the entities are there, so the rule (not NER) did the work
    assert not {(s, o) for s, _, o in triples(result)} & {pair, pair[::-1]}, triples(result)


def test_a_rank_alone_is_no_name_but_a_surname_is(extractor: SpacyExtractor) -> None:
    """A rank without its holder names an office (2Wiki development: "Knud, Hereditary Prince of Denmark" read
    "Knud, Hereditary Prince [was banned in] Denmark"): the pair is the holder and the country, the rank is in the
    slot. One word that ends a longer name of the document is that person's surname and stays a name."""
    result = run(extractor, "Knud, Hereditary Prince of Denmark, was born in Copenhagen.")
    assert "Hereditary Prince" not in {e.name for e in result.entities}
    slots = {(t.subject, t.object): [o.text for o in t.occurrences] for t in result.triples}
    assert any("Hereditary Prince of" in text for text in slots.get(("Knud", "Denmark"), [])), slots
    result = run(extractor, "Eric Klipping was King of Denmark.")
    assert ("Eric Klipping", "Denmark") in {(s, o) for s, _, o in triples(result)}, triples(result)
    assert "King" not in {e.name for e in result.entities}
    result = run(extractor, "Stephen King lives in Maine. King wrote Carrie in Bangor.")
    assert ("Stephen King", "Carrie") in {(s, o) for s, _, o in triples(result)}, triples(result)


def test_a_name_particle_between_two_parts_of_a_name_joins_them(extractor: SpacyExtractor) -> None:
    """2Wiki development: "Adalberto Pereira dos Santos" was two names (the NER's PERSON and GPE), "dos" a verb
    between them, released "Adalberto Pereira, who was a rival of Santos,". One person, the given name's type."""
    result = run(extractor, "Adalberto Pereira dos Santos (11 April 1905 – 2 April 1984) was a Brazilian general.")
    people = {e.name: e.type for e in result.entities}
    assert people.get("Adalberto Pereira dos Santos") == "PERSON", people
    assert not triples(result), triples(result)


def test_a_regnal_number_belongs_to_the_name_and_makes_a_person(extractor: SpacyExtractor) -> None:
    """2Wiki development: the NER read "Christian X" as the NORP "Christian" and "Ferdinand III" as an ORG, and
    "King Gustaf V" was of no known kind; the numeral is part of a ruler's name, and the name is a person's. A
    numbered event stays what it is."""
    result = run(
        extractor,
        "Knud was the younger son of Christian X and Alexandrine. Leopold was the second son of Ferdinand III in "
        "1640. Tullgarn Palace is mainly associated with King Gustaf V and Queen Victoria. World War II ended.",
    )
    kinds = {e.name: e.type for e in result.entities}
    for name in ("Christian X", "Ferdinand III", "King Gustaf V"):
        assert kinds.get(name) == "PERSON", kinds
    assert kinds.get("World War II") == "EVENT", kinds
    assert ("Knud", "Christian X") in {(s, o) for s, _, o in triples(result)}, triples(result)


def test_a_royal_style_takes_of_and_its_place_into_the_name(extractor: SpacyExtractor) -> None:
    """2Wiki development: "Alfonso IV of Aragon" was released "Alfonso IV honored by Aragon", and "Prince Radu of
    Romania … is the husband of Margareta" paired Romania, not the prince, with his wife. A ruler's or noble's name
    in royal style (a rank before one name, or a regnal number after it) takes "of" and its place; its place is no
    surname that a later "Romania" could stand for. A name without a rank or a number keeps its slot."""
    result = run(extractor, "Her estate passed to her husband, Alfonso IV of Aragon.")
    assert {e.name: e.type for e in result.entities}.get("Alfonso IV of Aragon") == "PERSON", result.entities
    assert not triples(result), triples(result)
    result = run(extractor, "Prince Radu of Romania is the husband of Margareta of Romania.")
    assert ("Prince Radu of Romania", "Margareta of Romania") in {(s, o) for s, _, o in triples(result)}
    result = run(extractor, "She was a daughter of Queen Anne of Romania. Romania left the war in 1918.")
    assert {"Queen Anne of Romania", "Romania"} <= {e.name for e in result.entities}, result.entities
    result = run(extractor, "The painter Anne Smith of Romania met Jones.")
    assert "Anne Smith of Romania" not in {e.name for e in result.entities}, result.entities


def test_a_peers_numbered_title_is_part_of_his_name(extractor: SpacyExtractor) -> None:
    """2Wiki development: "the son of Henry Beaufort, 3rd Duke of Somerset by his mistress Joan Hill" paired
    Somerset, not the duke, with his mistress, and read "Somerset that was the residence of Joan Hill": the NER cut
    the peer's name into "Henry Beaufort", "3rd Duke" and "Somerset". A numbered peer's rank after a name and its
    comma, and the place after its "of", are the name's own words (as the NER already reads "Henry Percy, 4th Earl
    of Northumberland"); the name is a person's. A comma before a name that is no numbered rank joins nothing."""
    result = run(extractor, "He was the son of Henry Beaufort, 3rd Duke of Somerset by his mistress Joan Hill.")
    types = {e.name: e.type for e in result.entities}
    assert types.get("Henry Beaufort, 3rd Duke of Somerset") == "PERSON", result.entities
    assert {(s, o) for s, _, o in triples(result)} == {("Henry Beaufort, 3rd Duke of Somerset", "Joan Hill")}
    result = run(extractor, "Paris, Texas is a town near Dallas.")
    assert {"Paris", "Texas"} <= {e.name for e in result.entities}, result.entities


def test_an_eras_letters_beside_a_year_are_no_name(extractor: SpacyExtractor) -> None:
    """2Wiki development and a held-out reading: "until his death in 68 BC" made "BC" a body (ORG) and drew "Xuan
    was studied by BC"; "from 320 - 185 BCE" read "lent its name to 320 - 185 BCE". An era's letters beside a
    number are part of a date. Letters that begin a name stay one ("BC Place")."""
    result = run(extractor, "The empire ruled from 320 BC to 185 BCE in India. Pompeii was buried in AD 79.")
    assert not {"BC", "BCE", "AD"} & {e.name for e in result.entities}, result.entities
    result = run(extractor, "He played at BC Place in Vancouver.")
    assert "BC Place" in {e.name for e in result.entities}, result.entities


def test_a_name_cut_in_two_is_joined_whichever_part_was_found_first(extractor: SpacyExtractor) -> None:
    """2Wiki development: the NER labelled "Fregonese" a NORP and left "Hugo" (a CARDINAL) to the proper-noun pass,
    so the two parts were two names and "Hugo Fregonese [starring] Ricardo Montalban" read "commemorates Hugo
    Fregonese Ricardo Montalban". One name, a person's by its spelling, whatever the NER's EVENT said of it."""
    result = run(
        extractor,
        "The Mark of the Renegade is a 1951 American western film directed by Hugo Fregonese starring Ricardo "
        "Montalban and Cyd Charisse.",
    )
    assert {e.name: e.type for e in result.entities}.get("Hugo Fregonese") == "PERSON", result.entities


def test_a_hyphen_glued_to_its_word_ends_no_sentence(extractor: SpacyExtractor) -> None:
    """2Wiki development: the parser ended a sentence at "a 1961 Spanish-" (2Wiki's text sets a blank after a
    compound's hyphen), so "Mexican film directed by Luis Buñuel" was a sentence of its own and the film related to
    nobody; released, it read "Mexican film is associated with Luis Buñuel". One sentence, the film its subject."""
    result = run(extractor, "Viridiana is a 1961 Spanish- Mexican film directed by Luis Buñuel.")
    assert len(result.sentences) == 1, result.sentences
    assert ("Viridiana", "Luis Buñuel") in {(s, o) for s, _, o in triples(result)}, triples(result)


def test_a_nationality_on_a_named_noun_keeps_its_slot(extractor: SpacyExtractor) -> None:
    """ "the daughter of Indian filmmaker, Mahesh Bhatt": the noun the nationality qualifies carries a name, so the
    relation's words stay masked (2Wiki development), unlike "a test for American laws"."""
    text = (
        "Pooja Bhatt is an actress. Born into the Bhatt family, she is the daughter of Indian filmmaker, Mahesh Bhatt."
    )
    result = run(extractor, text)
    assert "is the daughter of" in {o.text for t in result.triples for o in t.occurrences}, triples(result)


# Fail closed on the tree's shape, not on word lists (invariant 11, issue 12): a name that modifies the noun
# predicated of the other ("an American singer": citizenship in Re-DocRED gold), a noun object between the names
# ("wrote the foreword for"), and a third name nested by prepositions or apposition ("in Dublin in Ireland",
# "Leeds, a city in England") each get a slot; the span never covers a name.
STRUCTURAL = [
    # "singer from" hangs off the phrase "American" opens: the singer is Lana Grey, not the nationality.
    ("Lana Grey is an American singer from Ohio.", ("Lana Grey", "Ohio"), ["from"]),
    # the same after an article and a year, across the phrase's own words, which stay outside the slot
    ("Snow Road is a 1952 Swedish comedy film directed by Anna Berg.", ("Snow Road", "Anna Berg"), ["directed by"]),
    # also across adjectives before the year, or with none ("a lost 1931", "an upcoming"; HotpotQA development:
    # "is an upcoming South Korean television series starring Jin Goo"), and in a caption with no article, where
    # the nationality stands for its phrase (2Wiki development: "Mexican film directed by Luis Buñuel")
    ("Snow Road is a lost 1931 Swedish comedy film directed by Anna Berg.", ("Snow Road", "Anna Berg"),
     ["directed by"]),
    ("Snow Road is an upcoming Swedish television series starring Anna Berg.", ("Snow Road", "Anna Berg"),
     ["starring"]),
    ("Swedish comedy film directed by Anna Berg.", ("Swedish", "Anna Berg"), ["directed by"]),
    # a possessive pronoun that coreference names is read past to the name that ends its phrase (HotpotQA
    # development: "a song recorded by … Carrie Underwood from her fifth studio album, Storyteller")
    ('"Night Song" is a song recorded by Lana Grey from her fifth studio album, Storyteller.',
     ("Lana Grey", "Storyteller"), ["from"]),
    # a relative clause's subject relates to the name the clause qualifies (its verb is no subordinate clause's)
    ("Acme Corp, which Tom Reed founded in 1990, sells tools.", ("Acme Corp", "Tom Reed"), ["founded"]),
    ("Bob Jones wrote the foreword for the Acme Corp annual report.", ("Bob Jones", "Acme Corp"),
     ["wrote the foreword for"]),
    ("Alice Smith lives in Dublin in Ireland.", ("Dublin", "Ireland"), ["in"]),
    ("Acme Corp is based in Leeds, a city in England.", ("Leeds", "England"), ["in"]),
    ("Bob Jones studied at Harvard University in Massachusetts.", ("Harvard University", "Massachusetts"), ["in"]),
    # a relation stated by the comma alone (Re-DocRED's most frequent gold: located in), through a chain of names,
    # a parenthesis or a modifier of the next name; the slot is the comma
    ("Westmere is a hamlet in the town of Guilderland, Albany County, New York.", ("Guilderland", "Albany County"),
     [","]),
    ("Westmere is a hamlet in the town of Guilderland, Albany County, New York.", ("Albany County", "New York"),
     [","]),
    # the comma after a bracket joins the name before the bracket: "Kristiania (now Oslo), Norway"
    ("He died during 1922 in Kristiania (now Oslo), Norway.", ("Kristiania", "Norway"), [","]),
    # a role noun between coordinated names relates them
    ("Alice Smith and her husband Bob Jones moved to Boston.", ("Alice Smith", "Bob Jones"), ["husband"]),
    # a coordinated verb with only a time joins the expression; one with an object of its own stays in the text
    # (2Wiki development reading at 9e9459c: "she honored La Fémis and with a diploma in directing")
    ("Alice Smith joined Acme Corp in 2005 and left in 2010.", ("Alice Smith", "Acme Corp"), ["joined", "left"]),
    ("Ann Berg enrolled in Acme Academy and graduated with a diploma in 1989.", ("Ann Berg", "Acme Academy"),
     ["enrolled in"]),
]  # fmt: skip


def test_a_list_of_names_is_not_a_relation(extractor: SpacyExtractor) -> None:
    """Names in a coordinated list share no relation through their commas ("Paul, Alexandre, Nicolas, and
    Charles"); the comma rule must see the list, not only the first pair of it."""
    result = run(extractor, "They toured Paris, Berlin, Vienna, and Rome with Alice Smith.")
    pairs = {(t.subject, t.object) for t in result.triples}
    names = ("Paris", "Berlin", "Vienna", "Rome")
    assert not {(a, b) for a in names for b in names} & pairs, pairs


def test_a_comma_slot_is_filled_as_a_relative_clause(extractor: SpacyExtractor) -> None:
    """The fill of a comma slot reads only the masked text: no space before it, so it opens its own clause."""
    from relguard.candidates.inventory import InventoryCandidates
    from relguard.rewrite import FormVerbalizer, Sampled, fill, mask

    result = run(extractor, "Bob Jones lives in Dublin, Ohio.")
    keys = sorted({t.pair_key for t in result.triples})
    masked = mask(result, {key: number for number, key in enumerate(keys)})
    from relguard.rewrite.frames import COMMA, read_frames

    comma = [frame for frame in read_frames(masked) if frame.name == COMMA]
    assert len(comma) == 1, masked.text
    verbalize = FormVerbalizer(InventoryCandidates().forms)
    outcomes = {
        n: Sampled((key[1], key[3]), "borders" if key[1] == "GPE" else "lives_in") for n, key in enumerate(keys)
    }
    assert "Dublin, which borders Ohio." in fill(masked, outcomes, verbalize).text
    outcomes = {n: Sampled((key[1], key[3]), "located_in") for n, key in enumerate(keys)}
    assert "Dublin, Ohio." in fill(masked, outcomes, verbalize).text  # the relation a bare comma states


@pytest.mark.parametrize(("text", "pair", "pieces"), STRUCTURAL, ids=[row[0][:40] for row in STRUCTURAL])
def test_structural_links_get_a_slot(extractor: SpacyExtractor, text: str, pair, pieces: list[str]) -> None:
    result = run(extractor, text)
    found = {(t.subject, t.object): [o.text for o in t.occurrences] for t in result.triples}
    assert found.get(pair) == pieces, found


def test_a_third_name_reached_through_a_verb_links_nothing(extractor: SpacyExtractor) -> None:
    """Only a verb-free stretch of the path may pass through another name: "hired Bob Jones, who founded" does not
    make Alice a founder, and no slot joins Alice and Acme, so they get no draw (DESIGN invariant 6)."""
    result = run(extractor, "Alice Smith hired Bob Jones, who founded Acme Corp.")
    assert triples(result) == {("Alice Smith", "hired", "Bob Jones"), ("Bob Jones", "founded", "Acme Corp")}


def test_coordinated_subjects_give_one_draw_for_the_slot(extractor: SpacyExtractor) -> None:
    """One slot, one pair: "founded" joins the names either side of it; Bill Gates is reached through "and"."""
    result = run(extractor, "Bill Gates and Paul Allen founded Microsoft.")
    assert triples(result) == {("Paul Allen", "founded", "Microsoft")}


def test_surname_alias_merges_into_full_name(extractor: SpacyExtractor) -> None:
    text = "Wilfried Schneider joined Siemens in 1990. Schneider later moved to Munich."
    result = run(extractor, text)
    person = next(e for e in result.entities if e.type == "PERSON")
    assert person.name == "Wilfried Schneider"
    assert [m.text for m in person.mentions] == ["Wilfried Schneider", "Schneider"]
    assert ("Wilfried Schneider", "moved_to", "Munich") in triples(result)
    assert [e.name for e in result.entities].count("Siemens") == 1


def test_org_suffix_variants_merge(extractor: SpacyExtractor) -> None:
    result = run(extractor, "Acme Corp hired Bob Jones. Acme Inc. later moved to Paris.")
    orgs = [e for e in result.entities if e.type == "ORG"]
    assert [(e.name, [m.text for m in e.mentions]) for e in orgs] == [("Acme Corp", ["Acme Corp", "Acme Inc."])]
    assert triples(result) == {("Acme Corp", "hired", "Bob Jones"), ("Acme Corp", "moved_to", "Paris")}


def test_a_word_in_a_bracket_that_holds_neither_name_is_no_relation_of_theirs(extractor: SpacyExtractor) -> None:
    """Re-DocRED development reading at b51aeab: "Guido Bonatti (died between 1296 and 1300) was an Italian
    mathematician" was parsed with "died" on the path from Bonatti to "Italian", and the release printed "(between
    1296 and 1300)", the death lost. A bracket's words relate only names one of which is inside it."""
    assert triples(run(extractor, "Guido Bonatti (died between 1296 and 1300) was an Italian mathematician.")) == set()
    assert triples(run(extractor, "Alice Smith (born in Paris) founded Acme Corp.")) == {
        ("Alice Smith", "born_in", "Paris"),
        ("Alice Smith", "founded", "Acme Corp"),
    }


def test_pronoun_resolves_to_the_only_person(extractor: SpacyExtractor) -> None:
    text = "Angela Merkel was born in Hamburg. She studied at Leipzig University."
    result = run(extractor, text)
    merkel = next(e for e in result.entities if e.name == "Angela Merkel")
    she = text.index("She")
    assert [(m.text, m.start, m.sentence) for m in merkel.mentions][1] == ("She", she, 1)
    occurrence = spans(result)[("Angela Merkel", "studied_at", "Leipzig University")]
    assert occurrence == ["studied at"]


def test_ambiguous_pronoun_is_left_alone(extractor: SpacyExtractor) -> None:
    result = run(extractor, "Alice Smith met Bob Jones. He moved to Paris.")
    assert triples(result) == {("Alice Smith", "met", "Bob Jones")}
    assert all(m.text != "He" for e in result.entities for m in e.mentions)


@pytest.mark.parametrize(
    ("after", "resolved"),
    [("hired three singers and their songs sold well", False), ("makes cars and they sell well", False),
     ("hired Bob Jones and their songs sold well", True)],
)  # fmt: skip
def test_a_plural_pronoun_after_a_nearer_plural_noun_is_left_alone(extractor: SpacyExtractor, after, resolved) -> None:
    """HotpotQA development reading at b51aeab: "It follows a group of friends who find their luxurious lifestyle"
    took "their" for Counting Crows, two sentences back, and drew a relation of the film to the band over the
    friends' lifestyle ("It has its copyright held by their luxurious lifestyle"). A plural common noun nearer than
    any name is the likelier antecedent, which no entity stands for; with a name nearer, "their" is resolved."""
    result = run(extractor, f"Acme Corp is a company in Denver. Acme Corp {after}.")
    pronouns = [m.text for e in result.entities for m in e.mentions if m.text in ("their", "they")]
    assert bool(pronouns) == resolved, pronouns


def test_he_or_she_resolves_to_the_person_named_most_often(extractor: SpacyExtractor) -> None:
    """A biography names its subject again and again; a pronoun there means the subject, while two persons named
    equally often stay ambiguous (the test above)."""
    text = "Alice Smith founded Acme Corp. Alice Smith later met Bob Jones. She moved to Paris."
    result = run(extractor, text)
    assert ("Alice Smith", "moved_to", "Paris") in triples(result), triples(result)


def test_a_comma_pair_inside_a_coordination_of_phrases_is_not_a_list(extractor: SpacyExtractor) -> None:
    """ "in Montreal, Quebec, and at INSEAD": the conjunction joins two phrases, not a list of names."""
    result = run(extractor, "He studied at McGill University in Montreal, Quebec, and at INSEAD in Paris.")
    found = {(t.subject, t.object): [o.text for o in t.occurrences] for t in result.triples}
    assert found.get(("Montreal", "Quebec")) == [","], found


def test_definite_nominal_resolves_to_the_company(extractor: SpacyExtractor) -> None:
    result = run(extractor, "Acme Corp opened an office in Berlin. The company later moved to Paris.")
    acme = next(e for e in result.entities if e.name == "Acme Corp")
    assert [m.text for m in acme.mentions] == ["Acme Corp", "The company"]
    assert spans(result)[("Acme Corp", "moved_to", "Paris")] == ["moved to"]


def test_offsets_in_a_multi_sentence_document(extractor: SpacyExtractor) -> None:
    text = (
        "  Steve Jobs founded Apple.\n\nLater, Microsoft was founded by Bill Gates.  Paris is the capital of France. "
    )
    result = run(extractor, text)
    assert [text[s.start : s.end] for s in result.sentences] == [
        "Steve Jobs founded Apple.",
        "Later, Microsoft was founded by Bill Gates.",
        "Paris is the capital of France.",
    ]
    occ = {(t.subject, t.predicate, t.object): t.occurrences[0] for t in result.triples}
    founded = occ[("Microsoft", "founded_by", "Bill Gates")]
    assert (founded.sentence, founded.start, founded.text) == (1, text.index("was founded by"), "was founded by")
    capital = occ[("Paris", "capital_of", "France")]
    assert (capital.sentence, capital.start) == (2, text.index("is the capital"))


def test_repeated_triple_keeps_every_occurrence_sorted(extractor: SpacyExtractor) -> None:
    text = "Steve Jobs founded Apple. Bill Gates founded Microsoft. Steve Jobs later founded Apple again."
    result = run(extractor, text)
    jobs = next(t for t in result.triples if t.subject == "Steve Jobs")
    assert [(o.sentence, o.text) for o in jobs.occurrences] == [(0, "founded"), (2, "founded")]
    assert len(result.triples) == 2


def test_direction_is_the_order_of_mention_whatever_the_voice(extractor: SpacyExtractor) -> None:
    """The issue's case: founded_by and employs share the pool ORG -> PERSON and the direction (invariant 11)."""
    passive = run(extractor, "Acme Corp was founded by Alice Smith.")
    active = run(extractor, "Acme Corp employs Alice Smith.")
    assert [t.pair_key for t in passive.triples] == [t.pair_key for t in active.triples]
    assert [t.pair_key for t in active.triples] == [("Acme Corp", "ORG", "Alice Smith", "PERSON")]


@pytest.mark.parametrize("relation", ["was born in", "lives in", "founded", "works for"])
def test_types_do_not_read_the_relation(extractor: SpacyExtractor, relation: str) -> None:
    """The issue's case: the NER labels Bratislava by the verb before it; the masked sentence gives one label."""
    result = run(extractor, f"Elena Novak {relation} Bratislava.")
    reference = run(extractor, "Elena Novak was born in Bratislava.")
    assert {(e.name, e.type) for e in result.entities} == {(e.name, e.type) for e in reference.entities}
    assert [t.pair_key for t in result.triples] == [t.pair_key for t in reference.triples]


def test_canonical_names_drop_punctuation_and_prepositions() -> None:
    from relguard.extract.slots import canonical_name, name_key

    assert canonical_name("Acme Corp.") == canonical_name("Acme Corp") == "Acme Corp"
    assert canonical_name("Acme in") == "Acme" and canonical_name("the Beatles,") == "Beatles"
    assert canonical_name("U.S.") == "U.S." and canonical_name("J.R.R. Tolkien") == "J.R.R. Tolkien"
    assert name_key("Acme Corp.") == name_key("ACME corporation") == name_key("Acme") == ("acme",)


@pytest.mark.parametrize("text", ["", "   ", "\n\t \r\n"])
def test_empty_text_has_nothing(extractor: SpacyExtractor, text: str) -> None:
    result = run(extractor, text)
    assert (result.sentences, result.entities, result.triples) == ((), (), ())


def test_extract_many_matches_extract_and_is_deterministic(extractor: SpacyExtractor) -> None:
    docs = [Document(f"d{i}", row[0]) for i, row in enumerate(POSITIVE)] + [Document("empty", "")]
    one_by_one = [extractor.extract(d) for d in docs]
    batched = list(extractor.extract_many(iter(docs), batch_size=3))
    assert batched == one_by_one
    assert list(extractor.extract_many(docs)) == batched


def test_long_documents_are_parsed_in_pieces(extractor: SpacyExtractor, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(spacy_extract, "CHUNK_CHARS", 120)
    sentence = "Steve Jobs founded Apple. Microsoft was founded by Bill Gates. "
    text = sentence * 6
    result = run(extractor, text)
    assert len(result.sentences) == 12
    jobs = next(t for t in result.triples if t.subject == "Steve Jobs")
    assert [o.start for o in jobs.occurrences] == [i * len(sentence) + len("Steve Jobs ") for i in range(6)]


def test_hostile_text_does_not_break_offsets(extractor: SpacyExtractor) -> None:
    text = (
        "<b>Steve Jobs</b> founded <i>Apple</i>.\x00\x07 \u202eTim Cook\u202c, CEO of Apple, "
        "visited 東京 🚀.\n" + "lorem " * 3000 + "\n\ufeffBarack Obama works at Google."
    )
    result = run(extractor, text)  # offsets and spans stay exact (check_invariants)
    assert any(t.predicate == "worked_at" and t.object == "Google" for t in result.triples)
    assert any(e.name.startswith("Cook") for e in result.entities)
    assert all(c.isprintable() for e in result.entities for c in e.name)  # bidi and control marks dropped
    assert extractor.extract(Document("doc.txt", text)) == result


def test_missing_model_says_what_to_install() -> None:
    with pytest.raises(ModelError, match="pip install"):
        SpacyExtractor("no_such_pipeline_xyz")


def test_model_identity(extractor: SpacyExtractor) -> None:
    assert extractor.name == "spacy"
    assert extractor.model_id.startswith("spacy:en_core_web_sm")
    assert {"parser", "ner"} <= set(extractor.nlp.pipe_names)


@pytest.mark.parametrize(
    ("phrase", "predicate"),
    [
        ("works at", "works_at"),  # lexical only: no tense change
        ("is the capital of", "capital_of"),  # leading copula and article dropped
        ("was born in", "born_in"),  # leading auxiliary dropped
        ("CEO of", "ceo_of"),  # lower-cased
        ("  Co-Founder  OF ", "co_founder_of"),  # hyphen and spacing
        ("is", "is"),  # never emptied
        ("Ｗorks　for", "works_for"),  # NFKC: full-width letters and spaces
        ("was the daughter of of", "daughter_of"),  # a path's repeated word said once
        ("broadcast on On", "broadcast_on"),
    ],
)
def test_normalize_predicate(phrase: str, predicate: str) -> None:
    assert normalize_predicate(phrase) == predicate


def test_normalize_predicate_rejects_empty() -> None:
    with pytest.raises(ValueError, match="no letters"):
        normalize_predicate(" -- ")


SAMPLE = Path(__file__).resolve().parents[1] / "assets" / "sample_corpus"


@pytest.mark.parametrize("path", sorted(SAMPLE.glob("*.txt")), ids=lambda p: p.name)
def test_sample_corpus_gives_one_type_per_entity(extractor: SpacyExtractor, path: Path) -> None:
    """Fixes 1 and 6: a name is one canonical entity with one type, and every triple uses that type."""
    result = run(extractor, path.read_text(encoding="utf-8"), path.name)
    names = [e.name for e in result.entities]
    assert len(names) == len(set(names)), names
    type_of = {e.name: e.type for e in result.entities}
    for t in result.triples:
        assert (t.subject_type, t.object_type) == (type_of[t.subject], type_of[t.object]), t


@pytest.mark.parametrize(
    ("file", "triple", "types"),
    [
        # fix 1: "Nordlicht Energie" is labelled ORG three times and PERSON once: the vote says ORG. Nothing
        # public says what "Greenpeace" is (one word the NER alone labels, right about one time in three on
        # Re-DocRED): ENTITY, whose pools hold what any kind can be
        ("nordlicht_energie.txt", ("Nordlicht Energie", "sued_by", "Greenpeace"), ("ORG", "ENTITY")),
        # fix 5: "the company" is the company with most mentions, not the university Schneider studied at
        ("nordlicht_energie.txt", ("Nordlicht Energie", "acquired", "Baltic Turbines"), ("ORG", "ORG")),
        # fix 1: a "person" named "... Labs" votes ORG
        ("quantix_merger.txt", ("Priya Raman", "founded", "Quantix Labs"), ("PERSON", "ORG")),
        # fix 2: "De Vries" (labelled ORG) is Pieter de Vries. Its type is not checked: typed without the
        # relation's words, the small NER calls the name ORG in every context it appears in here
        ("atlas_shipping.txt", ("Pieter de Vries", "retired_to", "Utrecht"), None),
        # fix 5: "The company appealed" is Atlas Shipping (most mentions), not the Commission that fined it
        ("atlas_shipping.txt", ("Atlas Shipping", "appealed_to", "European Court of Justice"), ("ORG", "ORG")),
        # fix 5: "The school" is Riverside Academy, not the publisher of the previous sentence
        ("riverside_school.txt", ("Riverside Academy", "worked_with", "BBC"), ("ORG", "ORG")),
        # fix 2: "Hughes" (labelled ORG) is Margaret Hughes, the namesake introduced before it
        ("riverside_school.txt", ("Margaret Hughes", "lived_in", "Edinburgh"), ("PERSON", "GPE")),
        # "the clinic" is the one entity whose name ends in "clinic"; "it" then follows the clinic
        ("harbor_clinic.txt", ("Harbor Street Clinic", "received_grant_from", "Gates Foundation"), ("ORG", "ORG")),
        # "the festival" is the Danube Jazz Festival although it was last named four sentences back; a name
        # ending in "Festival" is an EVENT whatever the NER says (relguard.extract.spacy.evidence.name_evidence)
        ("danube_festival.txt", ("Danube Jazz Festival", "sponsored_by", "Erste Bank"), ("EVENT", "ORG")),
    ],
)
def test_sample_corpus_triples(
    extractor: SpacyExtractor, file: str, triple: tuple[str, str, str], types: tuple[str, str] | None
) -> None:
    result = run(extractor, (SAMPLE / file).read_text(encoding="utf-8"), file)
    found = {(t.subject, t.predicate, t.object): t.type_pair for t in result.triples}
    assert triple in found, sorted(found)
    assert types is None or found[triple] == types, sorted(found)


def test_sample_corpus_drops_the_observed_errors(extractor: SpacyExtractor) -> None:
    """The defects that motivated fixes 3-5 are gone from the bundled corpus."""
    found = {
        (t.subject, t.predicate, t.object)
        for path in sorted(SAMPLE.glob("*.txt"))
        for t in run(extractor, path.read_text(encoding="utf-8"), path.name).triples
    }
    predicates = {p for _, p, _ in found}
    assert not predicates & {"finned", "funded_like"}, predicates
    assert ("Technical University of Munich", "acquired", "Baltic Turbines") not in found
    assert any(s == "Elena Novak" and p.startswith("invited") for s, p, _ in found)  # "She" was Bratislava (a city)
    assert not any(s == "Bratislava" and p != UNREAD for s, p, _ in found)  # by position only, not as "She"


@pytest.mark.parametrize(
    "text",
    [
        # the release issue: a fronted place gave played_in with the span '' at 24-2 and blocked every dataset
        "In Madrid, Sofia Jansen played three concerts at the Royal Theatre.",
        "In Berlin, Alice Smith founded Acme Corp.",
        "At the Louvre, Marie Curie met Albert Einstein.",
        "From Paris, Bob Jones moved to Lyon in 1990.",
    ],
)
def test_a_fronted_preposition_never_gives_an_empty_or_reversed_span(extractor, text):
    result = run(extractor, text)
    for triple in result.triples:
        for occ in triple.occurrences:
            assert occ.start < occ.end and occ.text.strip(), occ


def test_occurrences_are_validated_where_they_are_built():
    from relguard.types import InvalidOccurrence, Occurrence, Sentence, Triple

    with pytest.raises(InvalidOccurrence, match="empty or reversed"):
        Occurrence("d", 0, 24, 2, "")
    with pytest.raises(InvalidOccurrence, match="blank"):
        Occurrence("d", 0, 0, 2, "  ")
    with pytest.raises(InvalidOccurrence, match="does not fill"):
        Occurrence("d", 0, 0, 5, "abc")
    text = "Alice founded Acme. Bob left."
    occ = Occurrence("d", 1, 6, 13, "founded")  # the right text, the wrong sentence
    with pytest.raises(InvalidOccurrence, match="is not that text of sentence 1"):
        DocumentExtraction(
            Document("d", text),
            (Sentence(0, 0, 19), Sentence(1, 20, 29)),
            (),
            (Triple("Alice", "PERSON", "founded", "Acme", "ORG", (occ,)),),
        )


def test_a_blank_line_always_ends_a_sentence(extractor):
    """A sentence never spans a paragraph break, so deleting one cannot take the next paragraph with it."""
    result = run(extractor, "Acme Corp.\n\nBob Jones visited Paris. Alice Smith founded Acme Corp in Boston.\n")
    assert [result.sentence_text(i) for i in range(len(result.sentences))] == [
        "Acme Corp.",
        "Bob Jones visited Paris.",
        "Alice Smith founded Acme Corp in Boston.",
    ]


def test_known_for_is_a_relation_known_as_an_alias(extractor):
    """ "known for founding" relates the two names; "known as"/"known by" only gives another name."""
    from relguard.types import Document

    related = extractor.extract(Document("d.txt", "Tom Smith is known for founding Acme Corp."))
    assert [(t.subject, t.object) for t in related.triples] == [("Tom Smith", "Acme Corp")]
    alias = extractor.extract(Document("d.txt", "Acme Corp, also known as Globex Inc, is big."))
    assert alias.triples == ()


def test_a_direction_noun_links_only_with_its_of(extractor):
    """ "in the centre of Vienna" is relation words; "a community health centre in Boston" describes the clinic."""
    from relguard.types import Document

    described = extractor.extract(Document("d.txt", "The Harbor Street Clinic is a community health centre in Boston."))
    assert [o.text for t in described.triples for o in t.occurrences] == ["in"]


def test_a_quoted_title_is_a_work_and_replaces_the_ner_pieces_of_it(extractor):
    """Re-DocRED 073 and 003: the NER missed "Can't Take My Eyes Off You" and took "Joan" out of a song's title."""
    from relguard.types import Document

    text = '" Can\'t Take My Eyes Off You " is a 1967 single credited to Frankie Valli.'
    song = extractor.extract(Document("d.txt", text))
    assert ("Can't Take My Eyes Off You", "WORK_OF_ART") in {(e.name, e.type) for e in song.entities}
    assert [(t.subject, t.object) for t in song.triples] == [("Can't Take My Eyes Off You", "Frankie Valli")]
    text = 'Other songs included " The Old Chaperone " and " Leave It to Joan ".'
    listed = extractor.extract(Document("d.txt", text))
    assert "PERSON" not in {e.type for e in listed.entities}
    assert {m.text for e in listed.entities for m in e.mentions} == {"The Old Chaperone", "Leave It to Joan"}


def test_a_long_quoted_title_in_title_case_is_one_work(extractor):
    """From the development reading at 6fa954e: the book "A Unit of Water, A Unit of Time" (nine tokens) was cut at
    its comma into two names ("Time honored Douglass Whynott"). A quoted run longer than a short title is one when
    every word but the small ones is capitalized; a quotation of speech is not."""
    from relguard.types import Document

    text = 'His life was chronicled in the book "A Unit of Water, A Unit of Time" by Douglass Whynott.'
    book = extractor.extract(Document("d.txt", text))
    assert "A Unit of Water, A Unit of Time" in {m.text for e in book.entities for m in e.mentions}
    assert "Time" not in {e.name for e in book.entities}
    text = 'White wrote to Katherine White: "I guess everyone has crazy brothers and sisters, and so do I."'
    speech = extractor.extract(Document("d.txt", text))
    assert not any("crazy" in e.name for e in speech.entities)


def test_a_nickname_or_a_quotation_is_no_title(extractor):
    from relguard.types import Document

    nickname = extractor.extract(Document("d.txt", 'Robert "Bob" Smith founded Acme Corp.'))
    assert "WORK_OF_ART" not in {e.type for e in nickname.entities}
    text = 'Pete Wentz said, "Where the Wild Things Are is a great narrative about a boy and his fears."'
    speech = extractor.extract(Document("d.txt", text))
    assert "Where the Wild Things Are is a great narrative about a boy and his fears" not in {
        e.name for e in speech.entities
    }


def test_a_place_head_word_types_a_name_the_ner_leaves_untyped(extractor):
    """Re-DocRED 092: the NER types "Regal Mountain" neither in context nor alone; its last word says it is a place."""
    from relguard.types import Document

    mountain = extractor.extract(Document("d.txt", "Regal Mountain is a mountain in Alaska."))
    assert ("Regal Mountain", "LOC") in {(e.name, e.type) for e in mountain.entities}
    assert [(t.subject, t.object) for t in mountain.triples] == [("Regal Mountain", "Alaska")]


def test_a_proper_name_that_modifies_a_noun_is_a_mention(extractor):
    """Re-DocRED 046: "The Dragon Quest series ... in Japan" names the series through a compound."""
    from relguard.types import Document

    series = extractor.extract(
        Document("d.txt", "The Dragon Quest series is one of the most popular video game series in Japan.")
    )
    assert [(t.subject, t.object) for t in series.triples] == [("Dragon Quest", "Japan")]


def test_a_verb_coordinated_before_the_expression_is_in_its_span(extractor):
    """From the 2WikiMultiHopQA reading at 810a378: spaCy parses "directed and co-written by" with "written" as the
    film's own modifier and "directed" cut off from it, so "directed and" stayed in the text — a relation word
    published as written ("drama film directed and that supported Pascal Bonitzer")."""
    from relguard.types import Document

    text = "Tout de suite maintenant is a 2016 French drama film directed and co-written by Pascal Bonitzer."
    result = extractor.extract(Document("d.txt", text))
    check_invariants(result)
    assert [o.text for t in result.triples for o in t.occurrences if t.object == "Pascal Bonitzer"] == [
        "directed and co-written by"
    ], spans(result)
    married = extractor.extract(Document("d.txt", "Anna Berg was born in 1950 and married John Smith."))
    assert [o.text for t in married.triples for o in t.occurrences] == ["married"], spans(married)


def test_loading_the_pipeline_imports_no_other_packages_spacy_components():
    """A worker loads the pipeline once; spaCy would import every package's spaCy components first (Presidio's
    pulls in transformers: 2.3 of 4.1 s). Run in a fresh interpreter, since this one may have imported them."""
    import subprocess
    import sys

    pytest.importorskip("presidio_analyzer")
    code = (
        "import sys; from relguard.extract.spacy.model import load_pipeline; nlp = load_pipeline('en_core_web_sm'); "
        "print(sorted(m for m in ('presidio_analyzer', 'transformers') if m in sys.modules), nlp.pipe_names)"
    )
    printed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert printed.startswith("[] ['tok2vec', 'tagger', 'relguard_paragraph_breaks', 'parser'"), printed


def test_the_pipeline_is_loaded_once_per_process_and_shared_by_the_tagger(extractor):
    from relguard.rewrite.tagging import tagger

    assert spacy_extract.load_pipeline("en_core_web_sm") is extractor.nlp is tagger()


def _stock_pipeline():
    """The same package loaded by spaCy alone, its attribute ruler matching through spaCy's Matcher."""
    import spacy

    for name in ("en_core_web_sm", *spacy_extract._FALLBACK_PACKAGES.values()):
        try:
            return spacy.load(name)
        except OSError:
            continue
    pytest.skip("no en_core_web_sm package")


TRICKY = [
    "Y'all ain't seen nothin' yet, and there is gonna be more.",
    "There were two of them;  it 's what they wanna do.\n\nHe ca n't go.",
    "   ",
    "y' all",
]


def test_the_attribute_rulers_lookup_sets_what_spacys_matcher_sets(shared_data, sample):
    """Every token attribute the ruler sets (and the lemmatizer reads after it) must be the stock pipeline's, over
    HotpotQA and 2Wiki paragraphs, the sample corpus and the ruler's own odd patterns (regular expressions,
    contractions, whitespace), in the full pipeline and in the rewrite's tagging (no parse: no dependency)."""
    from relguard.evaluation.datasets import load_dataset
    from relguard.extract.spacy.ruler import fast_attribute_ruler

    ours, stock = spacy_extract.load_pipeline("en_core_web_sm"), _stock_pipeline()
    assert not fast_attribute_ruler(stock.__class__(stock.vocab)), "a pipeline without a ruler is not changed"
    texts = [
        d.text for name in ("hotpotqa", "2wiki") for d in load_dataset(name, data_dir=shared_data, limit=8).documents
    ]
    texts += [d.text for d in sample.documents] + TRICKY
    assert len(texts) > 60

    def read(nlp, disable):
        return [
            [(t.i, t.tag_, t.pos_, t.lemma_, str(t.morph), t.dep_) for t in doc]
            for doc in nlp.pipe(texts, disable=disable)
        ]

    for disable in ([], ["parser", "ner", "lemmatizer"]):
        stock_disable = [name for name in disable if name in stock.pipe_names]
        assert read(ours, disable) == read(stock, stock_disable)


def test_a_ruler_with_a_pattern_the_lookup_does_not_read_keeps_spacys_matcher():
    from relguard.extract.spacy.ruler import fast_attribute_ruler

    stock = _stock_pipeline()
    ruler = stock.get_pipe("attribute_ruler")
    ruler.add([[{"LOWER": "very", "OP": "+"}, {"TAG": "JJ"}]], {"LEMMA": "much"})
    match = ruler.match
    assert fast_attribute_ruler(stock) is False
    assert ruler.match == match
    assert [t.lemma_ for t in stock("It was very very good.")][2:4] == ["much", "much"]  # "+": spaCy's Matcher


def test_one_draw_per_stated_relation_on_the_sample_corpus(extractor: SpacyExtractor) -> None:
    """Every slot region stands for exactly one relation group, so a sentence carries no more drawn relations than
    it has slots, and the far ends of a chain get none (DESIGN invariant 6). The old pairing drew for every pair of
    names near a slot: "Riedel migrated to Sweden and attended school in Stockholm, including the Adolf Fredrik's
    Music School" printed "Sweden borders Stockholm" and "Stockholm is a member of the … Music School"."""
    from relguard.extract.positions import slot_table

    for path in sorted(SAMPLE.glob("*.txt")):
        result = run(extractor, path.read_text(encoding="utf-8"), path.name)
        table = slot_table(result)
        assert all(len(region.pairs) == 1 for region in table.regions), path.name
        for sentence in {r.sentence for r in table.regions}:
            regions = [r for r in table.regions if r.sentence == sentence]
            groups = {key for r in regions for key in r.pairs}
            assert len(groups) <= len(regions), (path.name, sentence)
    result = run(extractor, "Riedel migrated to Sweden and attended school in Stockholm, including the Adolf Fredrik's "
                 "Music School.")  # fmt: skip
    pairs = {frozenset((t.subject, t.object)) for t in result.triples}
    assert frozenset(("Sweden", "Stockholm")) not in pairs, pairs


def test_relation_names_read_as_names_a_modal_keeps_the_base_form_and_prepositions_do_not_pile_up(extractor):
    """From the officer's reading (issue 42): "will_reported_to", "in_of", "filed_against_in_of" on Triples."""
    from relguard.extract.spacy.patterns import _one_preposition_per_run

    result = run(extractor, "Sarah Lindqvist will report to Daniel Okafor at Vireo Analytics.")
    assert ("Sarah Lindqvist", "will_report_to", "Daniel Okafor") in {
        (t.subject, t.predicate, t.object) for t in result.triples
    }
    assert _one_preposition_per_run(["filed", "against", "in", "of"]) == ["filed", "against"]
    assert _one_preposition_per_run(["in", "of"]) == ["of"]
    assert _one_preposition_per_run(["capital", "of"]) == ["capital", "of"]
