"""Word lists written as one string: the closed-class cues, role nouns and names the rules of several packages read.

One helper so that a rule in :mod:`relguard.rewrite` reads its word lists without importing the spaCy extractor's
modules, and so that every list is built the same way (split on white space, a frozen set).
"""

from __future__ import annotations


def words(text: str) -> frozenset[str]:
    """A word list written as one string."""
    return frozenset(text.split())


#: Nouns that say of what kind or how many a thing is, with their "of": "a set of tools from Y" describes the
#: first name ("tools from"), unlike "a member of Y".
KIND_NOUNS = words("set series collection group pair range family line type kind form variety number sort genus")

#: Nouns for a person's kin or companions: "Robert E. Lee's wife" names a person as much as the name does.
KIN = words(
    """wife husband son daughter father mother brother sister uncle aunt nephew niece cousin grandson granddaughter
    grandfather grandmother widow widower friend partner fiancé fiancée stepson stepdaughter stepfather stepmother
    confessor mentor protégé successor predecessor"""
)

#: Adverbs of time, order and degree that may open a clause's verb ("Alice Smith [later] joined Acme"): outside the
#: relation's words, facts of their own (a default-mode slot starts after them).
LOOSE_ADVERBS = words(
    """also later then once first still again subsequently eventually originally previously formerly currently
    initially finally briefly soon twice jointly frequently often recently successfully unsuccessfully famously
    notably primarily mainly mostly largely officially temporarily permanently regularly occasionally repeatedly
    immediately shortly already only even both"""
)
#: :data:`LOOSE_ADVERBS` as a regular-expression alternation, longest first.
LOOSE_ADVERB_PATTERN = "|".join(sorted(LOOSE_ADVERBS, key=lambda w: (-len(w), w)))
#: The months, lower case: a date's words wherever a rule must tell one from a name.
MONTHS = words("january february march april may june july august september october november december")
#: Possessive pronouns (a coreference mention may be one): "ended [his] role as", "from [her] fifth album"
#: (:data:`relguard.rewrite.mask.POSSESSIVE_PRONOUNS`, those a release replaces by their name, leaves out "their").
POSSESSIVE_PRONOUNS = words("his her its their")
#: Adjectives that say how a name stands to another ("the rival Lakers", "its parent Acme Corp"): before the second
#: name they are the relation's words, not a description of the name, and stay in its slot.
RELATIONAL_ADJECTIVES = words(
    """rival sister parent partner allied neighbouring neighboring fellow hometown home host affiliated associated
    subsidiary enemy opposing former late then future founding chief managing executive senior junior deputy
    acting interim longtime long-time sole joint co-founding"""
)

#: Last words of a natural feature's name ("Olza River", "Crater Lake", "Hyde Park"): a lake, a river,
#: a mountain, an island or a park is a LOC, never a polity, whatever town or region shares its name.
NATURAL_HEADS = words(
    """lake lakes river rivers mountain mountains peak peaks island islands valley bay creek glacier canyon desert
    forest park peninsula strait sea ocean gulf hill hills reservoir waterfall pond brook basin lagoon marsh swamp
    fjord bight plateau archipelago"""
)

#: Nouns for a person (a regular-expression alternation; a few of two words): "an American actor" says the name is a
#: person's, and a clause on such a noun opens with "who" ("a professor who founded X").
PEOPLE = (
    "actor|actress|singer|songwriter|singer-songwriter|musician|rapper|guitarist|drummer|pianist|bassist|"
    "vocalist|composer|conductor|politician|diplomat|writer|author|novelist|poet|playwright|screenwriter|"
    "journalist|painter|sculptor|artist|photographer|architect|footballer|cricketer|athlete|boxer|wrestler|"
    "swimmer|cyclist|sprinter|tennis player|golfer|player|coach|manager|director|filmmaker|producer|lawyer|"
    "judge|scientist|physicist|chemist|biologist|mathematician|economist|philosopher|historian|engineer|"
    "businessman|businesswoman|entrepreneur|priest|bishop|cardinal|monk|theologian|soldier|officer|general|"
    "admiral|king|queen|prince|princess|emperor|empress|nobleman|noblewoman|model|dancer|comedian|presenter|"
    "broadcaster|activist|educator|teacher|professor|academic|physician|surgeon|nurse|astronaut|pilot|"
    "explorer|inventor|designer|chef|cartoonist|illustrator|translator|critic|scholar|linguist|socialite|"
    "skier|skater|jockey|racing driver|driver|rower|fencer|gymnast|archer|shooter|sailor|mountaineer|"
    "pitcher|outfielder|infielder|quarterback|goalkeeper|defender|midfielder|forward|striker|"
    "man|woman|son|daughter|brother|sister|wife|husband|mother|father"
)
#: The one-word nouns of :data:`PEOPLE` and the last words of the others, but those that also name things ("a model
#: that Toyota built", "the forward"): a relative clause on one of these opens with "who".
PERSON_NOUNS = frozenset(p.split()[-1].split("-")[-1] for p in PEOPLE.split("|")) - {"model", "forward", "general"}
_PLACE_KINDS = ("GPE", "CITY", "COUNTRY", "REGION", "LOC")
_KIND_NOUNS_BY_KIND: tuple[tuple[tuple[str, ...], str], ...] = (
    (
        ("ORG",),
        """company corporation firm band group duo trio club team side squad university college school academy
        institute party organization organisation association society foundation agency ministry department
        newspaper magazine label network channel broadcaster airline bank brand division branch unit league
        federation council committee government army navy regiment brigade orchestra choir franchise chain""",
    ),
    (
        _PLACE_KINDS,
        """city town village hamlet municipality commune suburb neighbourhood neighborhood borough county district
        province region state country nation kingdom republic island islands river lake mountain mountains valley
        bay sea area parish township territory coast peninsula""",
    ),
    (("FAC", "ORG"), "station church studio studios museum hospital"),
    (("FAC",), "airport bridge stadium arena palace castle building road street"),
    (
        ("WORK_OF_ART",),
        """film movie album song single novel book series show play opera musical poem painting episode game
        sitcom documentary soundtrack strip""",
    ),
    (
        ("EVENT",),
        "war battle festival tournament championship championships cup election games competition contest tour tours",
    ),
    (("PERSON",), " ".join(p.split()[-1] for p in PEOPLE.split("|"))),
)


def _kinds_of_nouns() -> dict[str, frozenset[str]]:
    found: dict[str, frozenset[str]] = {}
    for kinds, nouns in _KIND_NOUNS_BY_KIND:
        for noun in words(nouns):
            for form in (noun, noun + "s"):
                found[form] = found.get(form, frozenset()) | frozenset(kinds)
    return found


#: The kinds of name a common noun says a thing is ("the MTV [series]": a work, not the channel), where the noun
#: says one; a noun after a name of another kind names another thing that the name qualifies.
KIND_OF_NOUN: dict[str, frozenset[str]] = _kinds_of_nouns()
#: Nouns of time after a name: an adverbial phrase ("married Alice Smith [last year]"), not a noun she qualifies.
TIME_NOUNS = words("year years month months week weeks day days time times season seasons decade century era period")
