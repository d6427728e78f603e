"""Word classes the slot rules of :mod:`.patterns` test a token against: what may sit inside a relation span.

Each is a function of one token's part of speech, dependency label and lemma, never of which relation the
sentence states, so the same classes decide the span of every wording.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from relguard.extract.spacy import lexicon as lex
from relguard.extract.spacy.spelled import openers

if TYPE_CHECKING:
    from spacy.tokens import Token

#: The dependency labels of a verb's subject.
SUBJECTS = frozenset({"nsubj", "nsubjpass", "csubj", "expl"})
#: Parts of speech that can carry a relation.
BEARING = frozenset({"VERB", "NOUN", "PROPN", "ADJ", "ADP", "NUM"})
#: Words a span may take between two expression words: they modify the relation, they are not a description.
GAP_POS = frozenset({"ADV", "PART", "DET", "AUX", "ADP", "PRON", "CCONJ"})


def gap_word(tok: Token) -> bool:
    if tok.pos_ in GAP_POS or tok.dep_ in ("npadvmod", "tmod") or tok.head.dep_ == "npadvmod":
        return True
    return tok.pos_ == "ADJ" and (tok.tag_ == "JJS" or tok.lower_ in lex.ROLE_MODIFIERS)


def object_word(tok: Token) -> bool:
    """A word of a short verb object: a noun, an adjective, an article or a possessive ("his stake")."""
    return tok.pos_ in ("NOUN", "ADJ", "DET") or possessive(tok)


def possessive(tok: Token) -> bool:
    return tok.pos_ == "PRON" and tok.dep_ == "poss"


def descriptive(tok: Token) -> bool:
    """A word of what a name is described as ("is a county owned, public use airport located in")."""
    return tok.pos_ in ("NOUN", "PROPN", "ADJ") and tok.dep_ in ("attr", "conj", "appos", "compound", "amod", "acl")


def noun_part(tok: Token) -> bool:
    """Words that belong to a role noun: its article, noun compounds and role modifiers ("the chief executive",
    "late wife", "board member"); not a description ("a small village", "the 2010 album")."""
    if tok.dep_ == "det":
        return True
    rank = rank_modifier(tok.lower_, tok.head.lower_)
    if tok.dep_ == "compound":  # "board member", "gen. mgr", "Managing Director"
        return tok.pos_ == "NOUN" or tok.is_lower or tok.text == "." or tok.lower_ in lex.ROLE_MODIFIERS or rank
    return tok.dep_ == "amod" and (tok.lower_ in lex.ROLE_MODIFIERS or rank)


def rank_modifier(word: str, noun: str) -> bool:
    """Whether ``word`` (lower case) qualifies the rank ``noun``, as "hereditary" does "prince": one title
    ("Hereditary Prince", "Holy Roman Emperor")."""
    return word in lex.RANK_MODIFIERS and noun in lex.RANKS


def hedge(tok: Token) -> bool:
    return tok.dep_ in ("advmod", "neg") and tok.lower_ in lex.HEDGES


def edge(tok: Token) -> bool:
    """Words a span never starts or ends with: punctuation, conjunctions, spaces."""
    return tok.is_space or tok.pos_ in ("PUNCT", "CCONJ", "SPACE") or tok.dep_ == "cc"


def bearing(tok: Token) -> bool:
    return tok.pos_ in BEARING


def someone_elses_clause(tok: Token, path: list[Token], lca: Token) -> bool:
    """Whether the path passes through a verb below its top whose subject is a common noun off the path: the
    clause says what a third party did or thought ("impressed X to such an extent that commentators [believed]
    that Y would"), which relates neither name to the other."""
    if tok.i == lca.i or tok.pos_ not in ("VERB", "AUX"):
        return False
    return any(c.dep_ in SUBJECTS and c.pos_ == "NOUN" and c not in path for c in tok.children)


def named_as(noun: Token, name: Token) -> bool:
    """Whether ``name`` is what the noun "name" next to it on the path says ("the ring name Naomi", "his pen name
    Mark Twain"), not a name its preposition leads to ("takes its name from X" is a relation)."""
    if noun.lemma_.lower() != "name" or noun.pos_ != "NOUN":
        return False
    return (name.head.i == noun.i and name.dep_ in ("appos", "compound", "nmod")) or (
        noun.head.i == name.i and noun.dep_ in ("compound", "nmod", "appos")
    )


def qualifies_an_object(end: Token, ment_of: list[int]) -> bool:
    """Whether a name at one end of a path is an adjective ("American", "Italian") on a common noun that is a
    verb's direct object, or the object of a preposition on one, and carries no name of its own: the adjective
    says what that thing is ("founded the first Italian school", "had provided a test for American laws"), not
    how the other name relates to the nation. On a noun said of the subject ("an actress of Armenian descent",
    "a screenwriter of Iranian cinema"), after a verb's preposition ("worked in Argentine film") or with a name
    ("the daughter of Indian filmmaker, Mahesh Bhatt") it keeps the pair."""
    noun = end.head
    if end.dep_ != "amod" or end.pos_ != "ADJ" or noun.pos_ != "NOUN":
        return False
    named = any(ment_of[c.i] >= 0 and c.i != end.i for c in noun.children)
    on_object = noun.dep_ == "dobj" or (noun.dep_ == "pobj" and noun.head.head.dep_ == "dobj")
    return on_object and not named


def foreign(words: list[Token]) -> bool:
    """Whether no word of ``words`` is English and one of them is a word of four letters or more: the inside of a
    foreign title or name the NER cut up ("Quel [maledetto] treno [blindato]", "Lo [squartatore di] New York",
    "[iure uxoris] Marquis"), which relates nothing. Short unknown words ("ft.", "vs", "aka") may be English
    abbreviations of a relation and never count."""
    letters = [t.lower_ for t in words if t.is_alpha]
    return any(len(w) >= 4 for w in letters) and not any(_english(w) for w in letters)


@cache
def _english(word: str) -> bool:
    """In lemminflect's English lexicon or among the English function words (:func:`~.spelled.openers`)."""
    from lemminflect import getAllLemmas

    return word in openers() or bool(getAllLemmas(word))
