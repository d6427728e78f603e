"""Predicate normal form: lexical normalization for every backend, tense and voice from the parse."""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

from relguard.extract.spacy import lexicon as lex

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token


def normalize_predicate(text: str) -> str:
    """Lower-case snake_case form of a relation phrase, for predicates from any backend.

    Purely lexical (no parse is needed, so the LLM backend and user input share
    it): Unicode NFKC and case folding, words of letters and digits joined by
    ``_``, leading auxiliaries, copulas and articles dropped ("is the capital
    of" -> ``capital_of``, "was born in" -> ``born_in``, "works at" ->
    ``works_at``), and a word repeated next to itself said once: a path through
    "the daughter of Henry Percy, Earl of Northumberland" collects "of" twice, an
    artefact of the path that d_R would otherwise read as part of the relation.
    Tense and voice are
    *not* changed here; the spaCy extractor does that from the parse before
    calling this (module docstring).
    """
    words = re.findall(r"[^\W_]+(?:['’-][^\W_]+)*", unicodedata.normalize("NFKC", text).casefold())
    words = [w.replace("’", "").replace("'", "").replace("-", "_") for w in words]
    while len(words) > 1 and words[0] in lex.FUNCTION_WORDS:
        words.pop(0)
    if not words:
        raise ValueError(f"predicate {text!r} has no letters or digits; give a relation phrase such as 'works for'")
    return "_".join(w for i, w in enumerate(words) if i == 0 or w != words[i - 1])


def verb_form(v: Token, *, participle: bool = False) -> str:
    """The predicate form of verb ``v``: its past tense (participle for agentless passives), merging tenses.

    A form that is already past (tag VBD/VBN) is taken as written, since the
    small model's lemmas of past forms can be wrong ("fined" -> "fin" would
    give "finned"); irregular verbs still go through the table so that "has
    written" and "wrote" agree. Present and gerund forms are rebuilt from the
    lemma ("works" -> "worked").
    """
    lemma = v.lemma_.lower()
    if v.tag_ in ("VBD", "VBN") and lemma not in lex.IRREGULAR and v.lower_.replace("-", "").isalpha():
        return v.lower_
    return past(lemma, participle=participle)


def past(lemma: str, *, participle: bool = False) -> str:
    """Past tense (or participle) of a verb lemma: the predicate form that merges tenses."""
    lemma = lemma.lower()
    if lemma in lex.IRREGULAR:
        return lex.IRREGULAR[lemma][1 if participle else 0]
    if lemma.endswith("e"):
        return lemma + "d"
    if len(lemma) > 2 and lemma.endswith("y") and lemma[-2] not in "aeiou":
        return lemma[:-1] + "ied"
    if lemma.endswith("c"):
        return lemma + "ked"
    cvc = len(lemma) >= 3 and lemma[-1] not in "aeiouwxy" and lemma[-2] in "aeiou" and lemma[-3] not in "aeiou"
    if lemma in lex.DOUBLING or (cvc and len(re.findall("[aeiouy]+", lemma)) == 1):
        return lemma + lemma[-1] + "ed"
    return lemma + "ed"


def hyphen_group(doc: Doc, tok: Token) -> list[Token]:
    """``tok`` with the tokens joined to it by hyphens and no space ("co", "-", "founded")."""
    start = end = tok.i
    while start > 0 and not doc[start - 1].whitespace_ and "-" in (doc[start - 1].text, doc[start].text):
        start -= 1
    while end + 1 < len(doc) and not doc[end].whitespace_ and "-" in (doc[end].text, doc[end + 1].text):
        end += 1
    return [doc[i] for i in range(start, end + 1)]


def expression_word(t: Token) -> str:
    """One expression word in the predicate, or "" for words that carry no meaning of their own."""
    pos, dep = t.pos_, t.dep_
    if dep == "neg" or t.lower_ in ("not", "n't", "never"):
        return "not" if t.lower_ != "never" else "never"
    if dep == "case":
        return ""
    if pos in ("PUNCT", "DET", "CCONJ", "SPACE", "PRON", "SYM", "X", "INTJ"):
        return ""
    if pos == "AUX" or dep in ("aux", "auxpass"):
        return t.lower_ if t.lower_ in lex.MODALS else ""
    if pos == "VERB":
        passive = any(c.dep_ == "auxpass" for c in t.children) or (
            t.tag_ == "VBN" and (t.dep_ in ("acl", "amod") or any(c.dep_ == "agent" for c in t.children))
        )
        return t.lower_ if passive and t.tag_ == "VBN" else verb_form(t)
    if pos == "NOUN":
        return t.lemma_.lower()
    if pos == "ADV":
        return t.lower_ if t.lower_ in lex.HEDGES else ""
    return t.lower_
