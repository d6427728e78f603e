"""The read-back guard: a filled sentence whose fill sits where no phrase of its shape is English is deleted.

The checks run on the real spaCy tagger over released sentences; each case names the place a fill landed.
"""

from __future__ import annotations

import pytest

from relguard.rewrite import guard
from relguard.rewrite.tagging import tagger


def _misread(text: str, fill: str) -> str | None:
    start = text.index(fill)
    return guard.misread(text, [(start, start + len(fill))], guard.tag_released([text], tagger())[0])


@pytest.mark.parametrize(
    ("text", "fill", "check"),
    [
        ("At first, it that houses the headquarters to Siam.", "that houses the headquarters to", "relative_after"),
        ("Previously he was the de facto that plays for the Council.", "that plays for", "relative_after"),
        ("It makes missiles such that sued Cirit.", "that sued", "relative_after"),
        ("It is a French film of Leo Mittler and that cited Renee Heribel.", "that cited", "relative_after"),
        ("He was a retired British colonized Northern Ireland.", "colonized", "verb_for_noun"),
        ("The album was is located in Columbia.", "is located in", "verb_after_verb"),
        ("It was founded by is the founder of Acme.", "is the founder of", "verb_after_verb"),
        ("It is Acme's founded Globex.", "founded", "not_a_noun_after_possessive"),
        ("The county has 27governs Ohio.", "governs", "glued"),
        ("He was a cartoonist whose work that translated for decades in Punch.", "that translated", "relative_after"),
        ("It follows rival stage magicians that is a citizen of London.", "that is a citizen of", "relative_disagrees"),
        ("Song of Freedom that is a member of the film Robeson was making.", "that is a member of", "no_main_verb"),
        ("Later, Esch that is a member of the Moderate Party as he campaigned.", "that is a member of", "no_main_verb"),
        (
            "Bristow Group, a large operator with worldwide operations, the invader of Lider.",
            "the invader of",
            "no_main_verb",
        ),
        ("In 1990 he wrote owned by the press.", "owned by", "participle_after_verb"),
        ("He said founded by Acme that it was over.", "founded by", "participle_after_verb"),
        ("Heathrow and Gatwick is located in London serve the city.", "is located in", "second_verb"),
        ("Alice Smith founded Acme Corp employs him.", "founded", "second_verb"),
        ("It says that the Soviet Union, the invader of Nazi Germany invaded Poland.", "the invader of", "second_verb"),
        (
            "Charlie Rowland (July 23, 1899, Warrenton, which is the largest city of North Carolina) was a catcher.",
            ", which is the largest city of",
            "clause_in_aside",
        ),
        ("In single-player mode, Daytona maintained a consistent rate, even with multiple opponents on screen, was "
         "reverse-engineered by the motion smoothness.", "was reverse-engineered by", "comma_splice"),
        ("IFFM is an important fixture in the local arts calendar: founded Bollywood's best.", "founded",
         "comma_splice"),
        ("Its density is 259 people per square kilometre (671 people per sq mi), that colonized England having more.",
         "that colonized", "relative_after"),
        ("He is a singer, currently which dominated and guitarist for the band.", "which dominated", "relative_after"),
        ("Mountain Crystal is a 1949 Austrian-German historical drama film expelled Harald Reinl.", "expelled",
         "finite_after_noun"),
        ("She was the daughter of Jeanne and her second husband (died 1412), governor of Brittany and baron works in "
         "Laval.", "works in", "finite_after_noun"),
        ("Fyns Hoved associated with Great Belt region, where rainfall is low.", "associated with", "verbless"),
        # a preposition with nothing to take (development reading: "The song [failed to make impact elsewhere,
        # peaking] at number 37" read "The song was commissioned by, at number 37")
        ("The song was commissioned by, at number 37 in Canada.", "was commissioned by", "dangling_preposition"),
        ("He was the son of Bao Dai, Vietnam's last place that was inspired by.", "place that was inspired by",
         "dangling_preposition"),
        # a clause right after a year inside brackets (2Wiki development: "(6 July 1564 [at] Château de
        # Lichtenberg" read "(6 July 1564 shared a name with Château de Lichtenberg")
        ("Johanna Sibylla (6 July 1564 shared a name with Château de Lichtenberg – 24 March 1636 in Runkel) was a "
         "countess.", "shared a name with", "clause_after_a_date"),
    ],
)  # fmt: skip
def test_a_fill_where_no_phrase_of_its_shape_reads_is_caught(text, fill, check):
    assert _misread(text, fill) == check


@pytest.mark.parametrize(
    ("text", "fill"),
    [
        ("The tracks were recorded at Studio 92 headquartered in Canada.", "headquartered in"),
        ("Acme Corp acquired Globex Inc.", "acquired"),
        ("Warton is a village that borders Lancashire.", "that borders"),
        ("He, who invests in the June List, became its chairman.", ", who invests in"),
        ("Acme Corp's employee Alice Smith retired.", "employee"),
        ("Ann Lee, the founder of Beta, spoke.", "the founder of"),
        ("It follows rival stage magicians that are citizens of London.", "that are citizens of"),
        ("He was a cartoonist whose work appeared in Punch, a magazine that is owned by Acme.", "that is owned by"),
        ("In 2011, the Monitors, who advised the Smithsonian Festival, played in Paris.", "who advised"),
        ("Dell Magazines was a company that is a child of George Delacorte.", "that is a child of"),
        ("Dell Magazines became known as Acme.", "known as"),
        ("Alice Smith founded Acme Corp in 1990.", "founded"),
        ("Acme Corp is owned by Globex Inc. It grew.", "is owned by"),
        ("Charlie Rowland (born in Warrenton) was a catcher, who played for Acme.", ", who played for"),
        ("Acme Corp, which Alice Smith founded, owns Globex Inc.", "owns"),
        ("Bob, who was born in Paris, founded Acme.", "founded"),
        ("In 1990, Acme Corp acquired Globex.", "acquired"),
        ("He said he founded Acme.", "founded"),
        ("He bought a house and cars were sold.", "were sold"),
        ("The county includes the islands (islands are located in Niihau) and Oahu.", "are located in"),
        ("Ann Lee is a minister whose hymns are associated with Quakers.", "are associated with"),  # "whose" clause
        ("Since 2012 he has been a regular board member of Guitar World.", "a regular board member of"),
        ("The Oregon Nursery Company was a nursery company located in Salem.", "located in"),
        # a capitalized "As" inside a name opens no clause (development reading: "Naomi van As is a … player that
        # is a member of" had no main verb and the sentence was restated)
        ("Naomi van As is a hockey player that is a member of MHC Laren.", "that is a member of"),
        # "That" as a determiner opens no clause (development reading: "That Summer of White Roses is a 1989 film
        # [directed by] Rajko Grlić" had no main verb, and the sentence was restated without its year)
        ("That Summer of White Roses is a 1989 British film by Rajko Grlić.", "by"),
        ("The drawing was praised by critics.", "praised by"),  # the preposition takes what follows it
        ("Johanna Sibylla (6 July 1564 at Château de Lichtenberg – 1636) was a countess.", "at"),  # a date's place
        ("Johanna Sibylla (born 1564) governed Runkel until 1600.", "governed"),  # the bracket is closed
        # a complementizer "that" opens a clause with its own subject: no comma splice after its aside
        ("The report says that Alice Smith, who leads Bob Jones, leads Paris.", "leads Paris"),
        # "and" joins a second relative clause to a first
        ("It is a film that Acme made and that cited Renee Heribel.", "that cited"),
    ],
)
def test_a_fill_that_reads_in_its_place_is_kept(text, fill):
    assert _misread(text, fill) is None


def test_a_compound_glued_to_a_closing_quote_is_caught():
    text = "The song 'Maana Ho Tum'-appointed Kaifi Azmi."
    start = text.index("-appointed")
    fill = (start, start + len("-appointed"))
    assert guard.misread(text, [fill], guard.tag_released([text], tagger())[0]) == "hyphen_after_quote"
    text = "The Paris-appointed Kaifi Azmi left."
    start = text.index("-appointed")
    assert guard.misread(text, [(start, start + 10)], guard.tag_released([text], tagger())[0]) is None
    text = "Braun-written Night Harbor."  # the compound stands for "Braun's [REL]" where the slot held the verb
    start = text.index("-written")
    assert guard.misread(text, [(start, start + 8)], guard.tag_released([text], tagger())[0]) == "verbless"


def test_a_misread_fill_is_never_printed_and_the_rest_kept(extractor):
    """End to end through ``fill``: a verbalizer (any plug-in, an LLM one included) that puts a relative clause
    after "It" never gets it printed: the slot takes the neutral connector (counted as connected) and the other
    sentences stay as they were."""
    from relguard.rewrite import Sampled, fill, mask
    from relguard.types import Document

    text = "The sky is blue. Acme Corp makes cars. It is owned by Globex Inc."
    extraction = extractor.extract(Document("d.txt", text))
    keys = sorted({t.pair_key for t in extraction.triples})
    masked = mask(extraction, {key: n for n, key in enumerate(keys)})
    outcomes = {n: Sampled((key[1], key[3]), "owns") for n, key in enumerate(keys)}
    owned = next(n for n, (a, b) in enumerate(masked.sentences) if "Globex" in masked.text[a:b])
    out = fill(masked, outcomes, lambda predicate, pair, place: "that owns")
    assert owned in out.connected_sentences and out.unfillable_sentences == ()
    assert "It is associated with Globex Inc." in out.text and "that owns" not in out.text
    assert out.text.startswith("The sky is blue.")


def test_a_phrase_after_a_slash_is_glued_a_word_is_not():
    """From the HotpotQA reading at 810a378: "a professional American football end/that endorsed the National
    Football League". A slash joins words of one kind ("actor/director"); a clause after it never reads."""
    text = "He was a professional American football end/that endorsed the National Football League."
    start = text.index("that endorsed")
    assert guard.glued(text, (start, start + len("that endorsed")))
    text = "He was a football end/coach of the Lions."
    start = text.index("coach")
    assert not guard.glued(text, (start, start + len("coach of")))
