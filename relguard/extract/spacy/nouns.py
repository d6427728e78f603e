"""Which nouns on a path are the relation's wording and which describe a name (they stay in the text).

A mixin of :class:`~relguard.extract.spacy.patterns.SentenceRelations`. A noun links two names by its structure
— a preposition of role ("the founder of"), a possessor ("Acme's founder"), a name compound in apposition
("Apple CEO Tim Cook") — or it says what a name is ("a village in", "an American singer"); a third thing the names
meet through ("produced at two breweries in") stays between two parts of one slot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from relguard.extract import gazetteer
from relguard.extract.spacy import lexicon as lex

if TYPE_CHECKING:
    from spacy.tokens import Span, Token


from relguard.extract.spacy.wordclass import descriptive
from relguard.wordlist import KIND_NOUNS

_NOUNS = frozenset({"NOUN", "PROPN"})
#: Where a noun on the path is a third thing the two names meet through, not what one of them is.
_THIRD = frozenset({"pobj", "dobj", "nsubj", "nsubjpass", "npadvmod", "iobj", "dative"})
#: Nouns a relation passes through without describing a name: support-verb idioms, areas, bodies.
_SUPPORT_NOUNS = lex.LIGHT_NOUNS | lex.DIRECTION_NOUNS | lex.BODY_NOUNS
#: Object positions: a noun there is what a verb acts on, not a role a name holds ("published an edition of").
_OBJECTS = frozenset({"dobj", "pobj", "iobj", "dative"})
#: Prepositions that make a noun a role of the name after them ("founder of", "ambassador to", "candidate for").
_ROLE_PREPS = frozenset({"of", "to", "for"})
#: Kinds of name that describe the noun they stand on, as an adjective does ("Welsh singer Bonnie Tyler", as
#: "an American singer"): such a name links nothing through that noun.
_DESCRIBING = frozenset({"NORP", "LANGUAGE"})
_RELATIONAL = lex.ROLE_NOUNS | lex.LIGHT_NOUNS | lex.AREA_NOUNS | lex.BODY_NOUNS | lex.PLACE_NOUNS
_PREDICATIVE = frozenset({"attr", "appos", "oprd", "ROOT", "conj"})


#: Per token, the bracket open before it and the bracket that closes after it (:func:`_bracket_reach`).
_Reach = tuple[dict[int, int | None], dict[int, int | None]]


def _bracket_reach(sent: Span) -> _Reach:
    """One pass each way over ``sent``: per token, the nearest "(" still open before it and the nearest ")" still
    to close after it."""
    opened: dict[int, int | None] = {}
    closed: dict[int, int | None] = {}
    for tokens, table, mark, match in ((sent, opened, "(", ")"), (reversed(sent), closed, ")", "(")):
        stack: list[int] = []
        for u in tokens:
            table[u.i] = stack[-1] if stack else None
            if u.text == mark:
                stack.append(u.i)
            elif u.text == match and stack:
                stack.pop()
    return opened, closed


class NounRules:
    """Noun rules of a path (mixed into :class:`~relguard.extract.spacy.patterns.SentenceRelations`)."""

    ment_of: list[int]
    bracket_reach: dict[int, _Reach]

    def _nouns(self, path: list[Token], inner: list[Token], described: set[int]) -> list[Token]:
        """Keep the relation's words, not what a name is described as.

        A noun heading a reduced or relative clause on the path only describes the first name, with its copula
        ("is a collectible dice game created by" → "created by"); a predicate noun that names no relation only
        carries a preposition ("a racing driver from"). A noun that a name modifies (``described``: "a Norwegian
        politician", "the Disney film") is what relates the two, so it stays. A noun argument between the names
        ("won two medals at") keeps the pair: a list of which nouns may stand there would make a slot depend on the
        relation's words (invariant 11), and a pair left out is released as written.
        """
        order = {t.i: k for k, t in enumerate(path)}
        for k in range(len(path) - 1):
            low, high = path[k], path[k + 1]
            for noun, clause, side in ((low, high, "after"), (high, low, "before")):
                if noun.pos_ not in _NOUNS or clause.head.i != noun.i or clause.dep_ not in ("acl", "relcl"):
                    continue
                at = order[noun.i]
                cut = [t for t in inner if (order[t.i] <= at if side == "after" else order[t.i] >= at)]
                if all(t.dep_ == "det" or t.lemma_ in lex.COPULAS or descriptive(t) for t in cut):
                    inner = [t for t in inner if t not in cut]
        ends = {path[0].i, path[-1].i}
        for t in list(inner):
            classifier = any(c.i in ends and c.dep_ in ("compound", "appos", "nmod") for c in t.children)
            if t.pos_ in _NOUNS and classifier and not self._relational(t, order):
                inner = [u for u in inner if u.i != t.i]  # "invited the saxophonist Kenny Ward": what he is
                continue
            if t.pos_ in _NOUNS and t.dep_ in _PREDICATIVE and self._qualified(t, ends, order):
                drop = {t.i} | {u.i for u in inner if u.lemma_ in lex.COPULAS and t.head.i == u.i}
                inner = [u for u in inner if u.i not in drop]  # "was an American director": the adjective relates
                continue
            if _nominal(t) and t.dep_ in _PREDICATIVE and not self._relational(t, order):
                drop = {t.i} | {u.i for u in inner if u.lemma_ in lex.COPULAS and t.head.i == u.i}
                inner = [u for u in inner if u.i not in drop]  # "a racing driver from": only "from" relates
        return inner

    def _qualified(self, noun: Token, ends: set[int], order: dict[int, int]) -> bool:
        """A noun that an end of the path qualifies as an adjective ("an American director", "a Turkish stage
        actress"), with no preposition of its own on the path: the adjective says how the two are related, the
        noun what the first name is, whatever noun it is ("an American director" as "an American singer"). Only
        a predicate noun is taken out (the caller): taking out others shortened paths into new slots."""
        adjective = any(c.i in ends and c.dep_ == "amod" for c in noun.children)
        return adjective and not any(c.dep_ == "prep" and c.i in order for c in noun.children)

    def _relational(self, noun: Token, order: dict[int, int]) -> bool:
        """A predicate noun that names a relation ("the capital of", "a member of", "CEO of"), not a description
        of the first name that only carries a preposition ("a racing driver from", "an album released in")."""
        if noun.lemma_.lower() in _RELATIONAL:
            return True
        return any(c.dep_ == "prep" and c.i in order and c.lower_ in _ROLE_PREPS for c in noun.children)

    def _linking(self, noun: Token) -> bool:
        """A noun that links two names by its structure, whatever the noun: a preposition of role ("the founder
        of", "the critic of"), a possessor ("Acme's founder", "his son") or a name compound in apposition with
        another name ("Apple CEO Tim Cook"). Any other noun on the path says what a name is ("a village in", "an
        American singer", "the album's lead single"): it stays in the text."""
        lemma = noun.lemma_.lower()
        if self._kind_of_thing(noun):
            return False  # "a set of editor tools from": what the first name is
        of = any(c.dep_ == "prep" and c.lower_ == "of" for c in noun.children)
        direction = lemma in lex.DIRECTION_NOUNS and lemma not in lex.LIGHT_NOUNS | lex.BODY_NOUNS
        if lemma in _SUPPORT_NOUNS and (lemma not in lex.LIGHT_NOUNS or noun.dep_ == "dobj") and (of or not direction):
            return True  # "took place in", "in the north of", "on the board of"; not "a census-designated place",
            # nor "a community health centre in": a direction noun links only with its "of"
        if noun.dep_ in _OBJECTS and not (noun.dep_ == "pobj" and noun.head.lower_ == "as"):
            return False  # "published an edition of": what a verb acts on; but "served as the president of"
        if any(c.dep_ == "prep" and c.lower_ in _ROLE_PREPS and c.i > noun.i for c in noun.children):
            return True
        named = [
            c
            for c in noun.children
            if self.ment_of[c.i] >= 0 and c.dep_ in ("poss", "compound") and not self._describing(self.ment_of[c.i])
        ]
        return bool(named) and (
            self.ment_of[noun.head.i] >= 0 or any(c.dep_ == "appos" and self.ment_of[c.i] >= 0 for c in noun.children)
        )  # "Acme's critic Alice", "his second album X", "Apple CEO Tim Cook": whatever the noun, it links them

    def _describing(self, mention: int) -> bool:
        """Whether ``mention`` is a nationality or a language by the public gazetteer, its name alone: it describes
        the noun it stands on (the NER's label in context varies: "Welsh" was an ORG there)."""
        start, end = self.s.mentions[mention][:2]
        entry = gazetteer.lookup(self.doc[start:end].text)
        return entry is not None and entry.type in _DESCRIBING

    def _kind_of_thing(self, noun: Token) -> bool:
        """A noun of kind or number whose "of" leads to a common noun, no name: "a set of tools", "a series of
        novels" (not "a series of Acme", "a member of")."""
        if noun.lemma_.lower() not in KIND_NOUNS:
            return False
        of = [c for c in noun.children if c.dep_ == "prep" and c.lower_ == "of"]
        objects = [o for c in of for o in c.children if o.dep_ == "pobj"]
        return bool(objects) and all(o.pos_ == "NOUN" and self.ment_of[o.i] < 0 for o in objects)

    def _outside_asides(self, inner: list[Token], a: int, b: int) -> list[Token]:
        """``inner`` without the words of a bracket that holds neither name: "Guido Bonatti ([died] between 1296 and
        1300) was an Italian mathematician" took the aside's verb for a relation of Bonatti and "Italian"."""
        starts = [self.s.mentions[m][0] for m in (a, b)]
        kept = []
        for t in inner:
            opened, closed = self._brackets(t.sent)
            low, high = opened[t.i], closed[t.i]
            if low is None or high is None or any(low < start < high for start in starts):
                kept.append(t)
        return kept

    def _brackets(self, sent: Span) -> _Reach:
        """Per token of ``sent``, the nearest bracket still open before it and the nearest still to close after it
        (None where there is none): read once per sentence (:func:`_bracket_reach`), however many pairs ask."""
        if sent.start not in self.bracket_reach:
            self.bracket_reach[sent.start] = _bracket_reach(sent)
        return self.bracket_reach[sent.start]

    def _without_descriptions(self, inner: list[Token]) -> list[Token]:
        """``inner`` without what is not the relation's wording: the nouns that describe a name
        (:meth:`_linking`) and the participles that qualify them ("an adult animated sitcom"; not one a name hangs on:
        "a Boston-based band") with the copula that introduces one — the slot of "Warton is a village in Lancaster"
        is "in", and "is a village" stays — and a third thing the names meet through with the preposition that
        leads to it: "is produced [at two breweries] in Madagascar" keeps the breweries between two parts of
        one slot."""
        described = {t.i for t in inner if _nominal(t) and not self._linking(t)}
        described |= {
            t.i
            for t in inner
            if t.dep_ == "amod"
            and t.tag_ in ("VBN", "VBG")
            and t.head.pos_ in _NOUNS
            and not self._linking(t.head)
            and all(self.ment_of[c.i] < 0 for c in t.children)
        }
        copulas = {t.i for t in inner if t.lemma_ in lex.COPULAS and any(c.i in described for c in t.children)}
        third = {t.i for t in inner if t.i in described and t.dep_ in _THIRD}
        leading = {
            t.head.i for t in inner if t.i in third and t.head.pos_ == "ADP" and t.head.head.pos_ in ("VERB", "AUX")
        }  # "produced [at] two breweries in" loses its "at"; "published all [of] Ibsen's works" keeps its "of"
        leading |= {t.i for t in inner if t.dep_ == "prep" and t.head.i in described and self._kind_of_thing(t.head)}
        return [t for t in inner if t.i not in described | copulas | leading]


def _nominal(tok: Token) -> bool:
    """A noun, or a word the tagger took for an adjective that heads a noun phrase with its article ("is the debut
    [single] by": tagged ADJ, it is what the first name is)."""
    return tok.pos_ in _NOUNS or (
        tok.pos_ == "ADJ" and tok.dep_ == "attr" and any(c.dep_ == "det" for c in tok.children)
    )
