"""Dependency patterns of one sentence: subject-verb-object, prepositions, passives, relational nouns.

Every relation occurrence is the shortest contiguous span that expresses it and never touches an entity mention,
so masking can replace it safely. Negated, modal, conditional and hedged clauses give no relation (the paper's
"no negation, hypotheticals, or speculation")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from relguard.extract.spacy import lexicon as lex
from relguard.extract.spacy.inflect import normalize_predicate, verb_form

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

    from relguard.extract.spacy.document import DocumentState

#: Longest relation span, in tokens; longer material is "large unrelated material".
MAX_SPAN_TOKENS = 8
#: Coordinated names taken per slot ("A, B, ... and Z founded X"); bounds the work on run-on lists.
MAX_CONJUNCTS = 16


_Found = tuple[int, str, int, int, int]  # subject mention, predicate, object mention, first and last span token


class SentenceRelations:
    """Dependency patterns of one sentence; every found relation passes through :meth:`_add`."""

    def __init__(self, state: DocumentState, sent: Span) -> None:
        self.s = state
        self.ment_of = state.ment_of
        self.sent = sent
        self.out: list[_Found] = []

    def find(self) -> list[_Found]:
        ment_of = self.ment_of
        for tok in self.sent:
            pos = tok.pos_
            if ment_of[tok.i] >= 0:
                if tok.dep_ != "compound":
                    self._entity_roles(tok)
            elif pos == "VERB":
                self._verb(tok)
            elif pos in ("NOUN", "PROPN"):
                self._noun(tok)
            elif pos == "AUX" and tok.lemma_ == "be":
                self._be_prep(tok)
        return self.out

    # -- who is meant

    def refs(self, tok: Token) -> list[int]:
        """Mentions denoted by ``tok``, with the ones coordinated to it ("Alice and Bob")."""
        first = self.ref(tok)
        if first is None:
            return []
        found = [first]
        for other in tok.conjuncts[:MAX_CONJUNCTS]:
            m = self.ref(other)
            if m is not None and m not in found:
                found.append(m)
        return found

    def ref(self, tok: Token, depth: int = 0) -> int | None:
        """The mention ``tok`` stands for: itself, a relative pronoun's antecedent, an appositive's entity."""
        m = self.ment_of[tok.i]
        if m >= 0 or depth > 3:
            return m if m >= 0 else None
        if tok.lower_ in lex.REL_PRONOUNS and tok.head.dep_ == "relcl":
            return self.ref(tok.head.head, depth + 1)
        if tok.pos_ in ("NOUN", "PROPN"):
            if tok.dep_ == "appos":
                return self.ref(tok.head, depth + 1)
            for child in tok.children:
                if child.dep_ == "appos" and self.ment_of[child.i] >= 0:
                    return self.ment_of[child.i]
            if tok.dep_ == "attr" and tok.head.lemma_ in lex.COPULAS:
                subj = _child(tok.head, ("nsubj", "nsubjpass"))
                if subj is not None:
                    return self.ref(subj, depth + 1)
        return None

    # -- verbs: subject-verb-object, subject-verb-preposition-object, passive with agent

    def _verb(self, v: Token) -> None:
        subjects, passive = self._subjects(v)
        if not subjects or _blocked(v):
            return
        start = self._verb_start(v)
        particles = [c for c in v.children if c.dep_ == "prt" and c.i > v.i]
        for child in v.children:
            dep = child.dep_
            if dep == "dobj" and not passive:
                before = [p for p in particles if p.i < child.i]
                phrase = " ".join([verb_form(v)] + [p.lower_ for p in before])
                self._add(subjects, phrase, self.refs(child), start, v.i, max([v.i] + [p.i for p in before]))
                self._object_prep(v, subjects, passive, start, child)
            elif dep in ("agent", "prep"):
                pobj = _child(child, ("pobj",))
                objects = self.refs(pobj) if pobj is not None else []
                if not objects:
                    if pobj is not None and not (passive and child.lower_ == "by"):
                        self._through_noun(v, subjects, passive, start, child, pobj)
                    continue
                if passive and child.lower_ == "by":
                    for agent in objects:  # the agent does what the verb says to the patient
                        self._add([agent], verb_form(v), subjects, start, v.i, child.i)
                elif dep == "prep":
                    light = _object_before(v, child)
                    if light is None:
                        continue
                    words = [verb_form(v, participle=passive)] + [p.lower_ for p in particles if p.i < child.i]
                    self._add(subjects, " ".join([*words, *light, child.lower_]), objects, start, v.i, child.i)

    def _object_prep(self, v: Token, subjects: list[int], passive: bool, start: int, obj: Token) -> None:
        """A place preposition the parser hung on a short common-noun object: "studied engineering at Y"."""
        if self.ment_of[obj.i] >= 0 or _object_before(v, obj) is None:
            return
        for prep in obj.children:
            if prep.dep_ == "prep" and prep.lower_ in lex.OBJECT_PREPS:
                pobj = _child(prep, ("pobj",))
                if pobj is not None and _object_before(v, prep) == []:
                    words = f"{verb_form(v, participle=passive)} {prep.lower_}"
                    self._add(subjects, words, self.refs(pobj), start, v.i, prep.i)

    def _through_noun(self, v: Token, subjects: list[int], passive: bool, start: int, prep: Token, noun: Token) -> None:
        """Prepositions chained through a noun: "served as president of Y", "moved to the north of Y"."""
        lemma = noun.lemma_.lower()
        as_role = prep.lower_ == "as" and self.ment_of[noun.i] < 0
        body = lemma in lex.BODY_NOUNS and prep.lower_ in ("on", "to") and self.ment_of[noun.i] < 0
        if not as_role and not body and lemma not in lex.AREA_NOUNS:
            return
        inner = _child(noun, ("prep",))
        pobj = _child(inner, ("pobj",)) if inner is not None else None
        if pobj is None:
            return
        if as_role:
            phrase = f"{_noun_words(self.s.doc, self._noun_start(noun), noun)} {inner.lower_}"
        elif body:  # "serves on the board of Y" -> served_on_board_of
            phrase = f"{verb_form(v, participle=passive)} {prep.lower_} {lemma} {inner.lower_}"
        else:
            phrase = f"{verb_form(v, participle=passive)} {prep.lower_}"
        self._add(subjects, phrase, self.refs(pobj), start, v.i, inner.i)

    def _subjects(self, v: Token, depth: int = 0) -> tuple[list[int], bool]:
        """The subject mentions of verb ``v`` and whether ``v`` is passive (its subject is the patient)."""
        for child in v.children:
            if child.dep_ in ("nsubj", "nsubjpass"):
                return self.refs(child), child.dep_ == "nsubjpass"
        dep, head = v.dep_, v.head
        own_passive = any(c.dep_ == "auxpass" or (c.dep_ == "agent" and v.tag_ == "VBN") for c in v.children)
        if dep == "acl" and v.tag_ in ("VBN", "VBG"):  # "a film directed by", "a band consisting of"
            return self.refs(head), v.tag_ == "VBN"
        if dep == "conj" and head.pos_ in ("VERB", "AUX") and depth < 4:  # "founded Acme and sold it"
            subjects, passive = self._subjects(head, depth + 1)
            return subjects, (passive and v.tag_ == "VBN") or own_passive
        if dep == "xcomp" and head.pos_ == "VERB" and _child(head, ("dobj",)) is None and depth < 4:
            return self._subjects(head, depth + 1)[0], own_passive  # "went on to found"
        return [], False

    def _verb_start(self, v: Token) -> int:
        """First token of the verb group: the earliest auxiliary before the verb ("was later founded")."""
        start = v.i
        for child in v.children:
            if child.dep_ in ("aux", "auxpass") and child.i < start and child.tag_ != "TO":
                start = child.i
        return start

    # -- relational nouns: "is the capital of", "CEO of", "a city in"

    def _noun(self, n: Token) -> None:
        dep, head = n.dep_, n.head
        if dep == "appos" or any(c.dep_ == "appos" for c in n.children):
            subjects = [m for m in [self.ref(n)] if m is not None]
            start = self._noun_start(n)
        elif dep == "attr" and head.lemma_ in lex.COPULAS and head.i < n.i and not _blocked(head):
            subj = _child(head, ("nsubj", "nsubjpass"))
            subjects = self.refs(subj) if subj is not None else []
            start = self._verb_start(head)
        else:
            return
        if not subjects:
            return
        lemma = n.lemma_.lower()
        noun = _noun_words(self.s.doc, self._noun_start(n), n)
        for child in n.children:
            if child.dep_ == "prep":
                pobj = _child(child, ("pobj",))
                if pobj is None:
                    continue
                prep = child.lower_
                phrase = "located in" if lemma in lex.PLACE_NOUNS and prep in lex.PLACE_PREPS else f"{noun} {prep}"
                self._add(subjects, phrase, self.refs(pobj), start, n.i, child.i)
            elif child.dep_ == "poss" and lemma in lex.ROLE_NOUNS:  # "Alice, Acme's founder"
                self._add(subjects, f"{noun} of", self.refs(child), self._noun_start(n), n.i, n.i)

    def _noun_start(self, n: Token) -> int:
        """First token of the noun with its compounds and hyphenated prefixes ("vice president", "co-founder")."""
        doc, ment_of = self.s.doc, self.ment_of
        start = n.i
        while start > self.sent.start:
            prev = doc[start - 1]
            if ment_of[prev.i] >= 0:
                break
            compound = prev.dep_ == "compound" and start <= prev.head.i <= n.i
            hyphen = not prev.whitespace_ and (prev.text == "-" or doc[start].text == "-")
            if not (compound or hyphen):
                break
            start -= 1
        return start

    # -- "Acme's founder Alice", "Apple CEO Tim Cook"

    def _entity_roles(self, e: Token) -> None:
        role = None
        owner = None
        for child in e.children:
            if child.dep_ == "poss":
                owner = self.ref(child)
            elif child.dep_ == "compound" and self.ment_of[child.i] < 0 and child.lemma_.lower() in lex.ROLE_NOUNS:
                role = child
        if role is None:
            return
        for child in role.children:
            if owner is None and child.dep_ in ("compound", "poss"):
                owner = self.ref(child)
        if owner is not None:
            start = self._noun_start(role)
            noun = _noun_words(self.s.doc, start, role)
            self._add([self.ment_of[e.i]], f"{noun} of", [owner], start, role.i, role.i)

    # -- "The museum is in Paris"

    def _be_prep(self, be: Token) -> None:
        subj = _child(be, ("nsubj",))
        prep = _child(be, ("prep",))
        if subj is None or prep is None or prep.lower_ not in ("in", "at", "near"):
            return
        pobj = _child(prep, ("pobj",))
        if pobj is None or _child(be, ("attr", "acomp")) is not None or _blocked(be):
            return
        subjects = [m for m in self.refs(subj) if self.s.mention_type(m) in lex.PLACE_TYPES]
        self._add(subjects, "located in", self.refs(pobj), self._verb_start(be), be.i, prep.i)

    # -- the span check shared by all patterns

    def _add(self, subjects: list[int], phrase: str, objects: list[int], first: int, head: int, last: int) -> None:
        """Record relations whose span runs ``first..last`` (inclusive tokens) around ``head``.

        A mention before the head clips the span to start after it; a mention
        between the head and the last token leaves no contiguous span that
        avoids entity names, so nothing is recorded.
        """
        if not subjects or not objects or not first <= head <= last:
            return
        cum = self.s.cum
        if cum[last + 1] - cum[head] > 0:
            return
        if cum[head] - cum[first] > 0:
            first = head
            while first > self.sent.start and self.ment_of[first - 1] < 0:
                first -= 1
        doc = self.s.doc
        while first < last and doc[first].is_space:
            first += 1
        while last > first and doc[last].is_space:
            last -= 1
        if last - first + 1 > MAX_SPAN_TOKENS or doc[first].is_space:
            return
        predicate = normalize_predicate(phrase)
        if predicate in lex.IDENTITY or predicate.rsplit("_", 1)[-1] in lex.NON_RELATIONAL_PREPS:
            return
        for subj in subjects:
            for obj in objects:
                self.out.append((subj, predicate, obj, first, last))


def _child(tok: Token, deps: tuple[str, ...]) -> Token | None:
    for child in tok.children:
        if child.dep_ in deps:
            return child
    return None


def _object_before(v: Token, prep: Token) -> list[str] | None:
    """Predicate words for a direct object between verb ``v`` and its preposition, or None to skip the relation.

    With no such object there is nothing to add. A light noun of a support-verb
    idiom joins the predicate ("takes place in" -> ``took_place_in``). A short
    common-noun object leaves the preposition on the verb ("studied engineering
    at", "sold his stake to"). A named or long object ("recorded the album
    Midnight on") more likely owns the preposition itself, so the relation is
    skipped rather than misattributed.
    """
    words: list[str] = []
    for obj in v.children:
        if obj.dep_ != "dobj" or not v.i < obj.i < prep.i:
            continue
        lemma = obj.lemma_.lower()
        if lemma in lex.LIGHT_NOUNS and obj.pos_ == "NOUN":
            words.append(lemma)
            continue
        tokens = [t for t in obj.subtree if t.i < prep.i]
        content = [t for t in tokens if t.pos_ in ("NOUN", "ADJ")]
        if len(content) > 3 or any(t.pos_ not in ("NOUN", "ADJ", "DET", "PRON") for t in tokens):
            return None
    return words


def _noun_words(doc: Doc, start: int, n: Token) -> str:
    """The relational noun as predicate words: compounds as written, the head noun singular."""
    return " ".join([doc[i].lower_ for i in range(start, n.i) if not doc[i].is_punct] + [n.lemma_.lower()])


def _blocked(v: Token) -> bool:
    """True when the clause of ``v`` is negated, modal, conditional, hedged or under a non-factive verb.

    The check climbs through coordinated and complement clauses ("did not
    want to found", "if ... and sold"); a negation on a coordinated verb does
    not carry over ("did not found Acme but joined Beta").
    """
    node, via = v, ""
    for _ in range(10):
        for child in node.children:
            dep = child.dep_
            if (
                (dep == "neg" and via != "conj")
                or (dep == "aux" and child.lower_ in lex.MODALS)
                or (dep == "mark" and child.lower_ in lex.COND_MARKS)
                or (dep == "advmod" and child.lower_ in lex.HEDGES)
            ):
                return True
        if via in ("xcomp", "ccomp") and node.lemma_.lower() in lex.HYPOTHETICAL:
            return True
        if node.dep_ not in ("conj", "xcomp", "ccomp") or node.head is node:
            return False
        via, node = node.dep_, node.head
    return False
