"""Relation slots of one sentence from dependency paths: every linked pair of entity mentions, failing closed.

Two typed mentions of different entities in one sentence get a slot when the dependency path between them runs
through a word that can carry a relation (a verb, a noun, an adjective or a preposition) and through no other
entity, except one coordinated with an end ("Alice and Bob founded Acme" links both to Acme) or one nested on a
verb-free stretch ("lives in Dublin in Ireland", "Leeds, a city in England"). A name that modifies a noun on the
path is related by that noun ("Lana Grey is an American singer", "Bob, an Acme Corp employee"). Which pairs are
linked is decided from the tree's shape, not from which verb or noun sits on the path, so another wording of the same
relation links the same pair; negated, modal and hedged clauses are slotted too (their words join the span),
since a sentence left out would be released as written.

The relation expression is the path's inner words and what belongs to them: auxiliaries, particles, negation and
hedges of a verb; compounds, modifiers and the article of a role noun ("the chief executive of", "late wife");
coordinated verbs and nouns that share the pair ("founded and led", "was born and raised in"); hyphenated
prefixes ("co-founded"). A verb that only carries the subject into a coordinated or subordinate clause ("founded
Acme Corp and remains its chief executive") is not part of the second relation. The expression is cut wherever
an entity mention lies inside it, so every piece is a contiguous span that never covers a name; each piece with
a relation-bearing word is one occurrence. Spans of different pairs may overlap; masking merges them.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import TYPE_CHECKING

from relguard.extract.spacy import lexicon as lex
from relguard.extract.spacy.inflect import expression_word, hyphen_group, normalize_predicate
from relguard.extract.spacy.juxtaposed import juxtaposed, juxtaposed_predicate
from relguard.extract.spacy.nouns import NounRules
from relguard.extract.spacy.parsed import ParsedDocument
from relguard.extract.spacy.spans import SpanCutter
from relguard.extract.spacy.wordclass import (
    SUBJECTS,
    bearing,
    foreign,
    hedge,
    named_as,
    noun_part,
    qualifies_an_object,
    someone_elses_clause,
)

if TYPE_CHECKING:
    from spacy.tokens import Span, Token


#: Longest dependency path between two linked mentions, in edges; longer paths relate nothing directly. Failing
#: closed, the limits are generous: a pair left without a slot is released as written, while a slot too many only
#: rewrites a sentence (docs/evaluation.md has what tighter limits cost in gold coverage).
MAX_PATH_EDGES = 10
#: Inner path words allowed (after carriers are dropped); more means the two names are only loosely connected.
MAX_INNER_TOKENS = 8
#: Mentions per sentence considered; bounds the quadratic pair loop on run-on lists.
MAX_MENTIONS = 24

#: Links from a word to a clause it heads; the word above may only carry the subject into that clause.
CARRIER_LINKS = frozenset({"conj", "ccomp", "advcl", "parataxis"})
_OWN_COMPLEMENTS = frozenset({"dobj", "attr", "prep", "agent", "dative", "oprd", "acomp", "pobj"})
_VERB_PARTS = frozenset({"aux", "auxpass", "neg", "prt"})
_MODIFIER_DEPS = frozenset({"amod", "compound", "nmod", "nummod"})

_NOUNS = frozenset({"NOUN", "PROPN"})
#: Complements of a verb: between two parts of an expression they make the parts one slot ("sold his stake to").
_COMPLEMENTS = frozenset({"dobj", "attr", "oprd", "dative", "acomp"})

#: first mention, second mention, predicate, spans (inclusive tokens), each span's role in the expression
_Found = tuple[int, int, str, tuple[tuple[int, int], ...], tuple[str, ...]]


class SentenceRelations(NounRules, SpanCutter):
    """The linked mention pairs of one sentence, each with its predicate and its spans (inclusive tokens)."""

    def __init__(self, state: ParsedDocument, sent: Span) -> None:
        self.s = state
        self.doc = state.doc
        self.ment_of = state.ment_of
        self.sent = sent
        self._quoted_tokens: frozenset[int] | None = None
        self.bracket_reach = {}  # per sentence start: the brackets' reach (NounRules._brackets)
        self.after: set[int] = set()  # coordinated verbs after the second name: later parts, removed

    def find(self) -> list[_Found]:
        ment_of, mentions = self.ment_of, self.s.mentions
        present = sorted({ment_of[i] for i in range(self.sent.start, self.sent.end) if ment_of[i] >= 0})
        present = sorted(present, key=lambda m: mentions[m][0])[:MAX_MENTIONS]
        heads = {m: self.doc[mentions[m][0] : mentions[m][1]].root for m in present}
        chains = {m: _ancestors(heads[m]) for m in present}
        pairs = [
            (a, b)
            for a, b in combinations(present, 2)
            if mentions[a][3] != mentions[b][3] and mentions[a][3] >= 0 and mentions[b][3] >= 0
        ]
        return self._found(pairs, heads, chains)

    def _found(self, pairs: list[tuple[int, int]], heads: dict, chains: dict) -> list[_Found]:
        """Slots of every linked pair of ``pairs`` (fail closed: a pair left out is released as written)."""
        found: list[_Found] = []
        for a, b in pairs:
            inner = self._inner(a, b, heads, chains)
            if inner is None:
                if spans := juxtaposed(self.s, a, b, heads):
                    found.append((a, b, juxtaposed_predicate(self.s, a, b), spans, ("",) * len(spans)))
                continue
            expression = self._expression(inner, a, b)
            predicate = self._predicate(expression, inner, a, b)
            if predicate is None:
                continue
            spannable = self._outside_asides(self._without_descriptions(inner), a, b)
            if not any(bearing(t) for t in spannable):
                continue  # "Lana Grey is an American singer": what she is, no relation phrase to replace
            spans, roles = self._parts(self._expression(spannable, a, b), a, b)
            if spans:
                found.append((a, b, predicate, spans, roles))
        return found

    # -- the path and its carriers

    def _inner(self, a: int, b: int, heads: dict, chains: dict) -> list[Token] | None:
        """Inner words of the path from mention ``a`` to ``b``, or None when the two are not linked directly."""
        up, down = chains[a], chains[b]
        on_b = {t.i: n for n, t in enumerate(down)}
        top = next((n for n, t in enumerate(up) if t.i in on_b), None)
        if top is None:
            return None
        lca = up[top]
        path = up[: top + 1] + list(reversed(down[: on_b[lca.i]]))
        if len(path) - 1 > MAX_PATH_EDGES:
            return None
        side_a = up[top - 1] if top > 0 else None
        side_b = down[on_b[lca.i] - 1] if on_b[lca.i] > 0 else None
        inner = [t for t in path if self.ment_of[t.i] not in (a, b)]
        for k, t in enumerate(path):
            other = self.ment_of[t.i]
            if other not in heads and other >= 0:
                return None  # the path leaves the sentence (the strict mode cuts sentences at punctuation)
            if other < 0 or other in (a, b) or self._coordinated(heads[other], (heads[a], heads[b])):
                continue
            if not (_nominal_chain(path[: k + 1]) or _nominal_chain(path[k:])):
                return None  # a third name the path meets through a verb: "Alice said Bob founded Acme"
        inner = [t for t in inner if self.ment_of[t.i] < 0]
        for child, other in ((side_a, side_b), (side_b, side_a)):
            if child is None or child.dep_ not in CARRIER_LINKS or lca.i not in {t.i for t in inner}:
                continue
            if _has_subject(child):
                return None  # "Alice said that Bob founded Acme", "Alice left and Bob joined Acme"
            if self._carrier(lca, child, a, b):
                if other is not None and self.ment_of[other.i] not in (a, b):
                    return None  # the other name hangs on the carrier's own adjunct ("based in Berlin and founded by")
                if other is not None and child.dep_ == "conj" and other.dep_ not in SUBJECTS:
                    return None  # the carrier's object is not the next verb's subject ("starred X and was directed by")
                inner = [t for t in inner if t.i != lca.i]
        if len(path) > 2 and (named_as(path[1], path[0]) or named_as(path[-2], path[-1])):
            return None  # "wrote under the pen name Mark Twain", "the ring name Naomi": another name, an alias
        if any(_second_subject(t, path) for t in inner):
            return None  # "The first film of X, it was directed by Y": the verb's subject is "it", not X's phrase
        if any(_subordinate_subject(end, lca) for end in (path[0], path[-1])):
            return None  # "adopted its calls when Sangamon State merged with": its own clause's subject
        if any(someone_elses_clause(t, path, lca) for t in inner):
            return None  # "impressed X so much that commentators believed that Y would": the verb is theirs
        described: set[int] = set()
        for end in (path[0], path[-1]):
            noun = end.head
            if end.dep_ not in _MODIFIER_DEPS or self.ment_of[noun.i] >= 0 or noun.pos_ not in _NOUNS:
                continue
            if qualifies_an_object(end, self.ment_of):
                return None  # "provided a test for American laws": the adjective says what the laws are
            described.add(noun.i)  # "Lana Grey is an American singer", "Bob, an Acme Corp employee"
        inner = self._nouns(path, inner, described)
        if len(inner) > MAX_INNER_TOKENS:
            return None
        listed = all(t.dep_ in ("conj", "appos") for t in path if t != lca)
        if not any(bearing(t) for t in inner) or (listed and not _role_between(inner)):
            return None  # "Alice, Bob and Carol"; but "Amdír and his son Amroth" names a relation
        return inner

    def _carrier(self, lca: Token, child: Token, a: int, b: int) -> bool:
        """Whether ``lca`` only carries a subject into the clause of ``child`` and is no part of the relation.

        Coordinated words that share the pair ("founded and led Acme") are part of it; a first conjunct with a
        complement of its own ("founded Acme Corp and remains its chief executive"), or outside the two names,
        is not; nor is the verb above a subordinate clause ("after joining Acme, Alice moved").
        """
        if child.dep_ != "conj":
            return True
        low, high = self.s.mentions[a][1], self.s.mentions[b][0]
        own = any(c.dep_ in _OWN_COMPLEMENTS and c.i != child.i and c.dep_ != "conj" for c in lca.children)
        return own or not low <= lca.i < high

    def _coordinated(self, other: Token, ends: tuple[Token, Token]) -> bool:
        """Whether the path may pass through ``other``: a name coordinated with an end ("Alice and Bob founded
        Acme") or in apposition with it ("near Dublin, Ohio" links the river to Ohio as to Dublin)."""
        conjuncts = {t.i for t in other.conjuncts}
        for end in ends:
            if end.i in conjuncts or (end.dep_ == "appos" and end.head.i == other.i):
                return True
            if other.dep_ == "appos" and other.head.i == end.i:
                return True
        return False

    # -- the whole expression

    def _expression(self, inner: list[Token], a: int, b: int) -> list[Token]:
        """The path's words with their auxiliaries, particles, negation, modifiers, coordinated words and prefixes."""
        ment_of = self.ment_of
        low, high = self.s.mentions[a][1], self.s.mentions[b][0]
        taken: dict[int, Token] = {t.i: t for t in inner}
        queue = list(inner)
        while queue:
            t = queue.pop()
            for child in t.children:
                if child.i in taken or ment_of[child.i] >= 0 or not self.sent.start <= child.i < self.sent.end:
                    continue
                light = child.dep_ == "dobj" and child.lemma_.lower() in lex.LIGHT_NOUNS  # "takes place in"
                manner = child.dep_ == "advmod" and child.tag_ in ("RB", "RBR", "RBS") and low <= child.i < high
                verb_part = child.dep_ in _VERB_PARTS or hedge(child) or light or manner or _relativizer(child, t)
                if (t.pos_ in ("VERB", "AUX") and verb_part) or (
                    t.pos_ in ("NOUN", "PROPN", "ADJ") and child.i < t.i and noun_part(child)
                ):
                    taken[child.i] = child
                    queue.append(child)
                elif child.dep_ == "conj" and child.pos_ == t.pos_ == "VERB" and child.i >= high and _bare(child, self):
                    taken[child.i] = child  # "joined Acme in 2005 and [left] in 2010": the relation's second verb
                    self.after.add(child.i)
                    queue.append(child)
                elif (
                    child.dep_ == "conj" and child.pos_ == t.pos_ and low <= child.i < high and not _has_subject(child)
                ):
                    taken[child.i] = child
                    queue.append(child)
                    for part in child.children:
                        if part.dep_ == "cc" and ment_of[part.i] < 0:
                            taken[part.i] = part
        for t in list(taken.values()):
            for joined in _hyphen_joined(self.doc, t, self.sent):
                if ment_of[joined.i] < 0:
                    taken.setdefault(joined.i, joined)
        inside = [i for i in taken if low <= i < high]
        if inside and min(inside) - 2 >= low:
            verb, cc = self.doc[min(inside) - 2], self.doc[min(inside) - 1]
            if cc.lower_ in ("and", "or") and verb.tag_ in ("VBN", "VBD") and ment_of[verb.i] < 0:
                taken[verb.i], taken[cc.i] = verb, cc  # "directed and [co-written by]": the parse lost the "conj"
        for i in range(low + 1, high - 1):
            if self.doc[i].text == "," and all(j in taken and self.doc[j].pos_ == "VERB" for j in (i - 1, i + 1)):
                taken[i] = self.doc[i]  # "[born, raised and educated in]": one expression, not two parts
        first = min((i for i in taken if low <= i < high), default=None)
        while first is not None and first - 2 >= low:
            verb, comma, next_verb = self.doc[first - 2], self.doc[first - 1], self.doc[first]
            listed = verb.head.i in (next_verb.head.i, next_verb.i) or next_verb.head.i == verb.i
            if comma.text != "," or verb.tag_ not in ("VBN", "VBD") or ment_of[verb.i] >= 0 or not listed:
                break
            taken[verb.i], taken[comma.i] = verb, comma  # "[written, produced and directed by]": a list of verbs
            first = verb.i
        return [taken[i] for i in sorted(taken)]

    # -- the predicate (confidential: it only feeds d_R)

    def _predicate(self, expression: list[Token], inner: list[Token], a: int, b: int) -> str | None:
        """The relation's normal form: verbs in the past tense (participles for passives), nouns singular,
        auxiliaries and articles dropped, negation and modals kept; a role noun without a preposition says which
        end holds the role ("Acme's founder Alice" → ``with_founder``; "Alice, an Acme employee" → ``employee_of``)."""
        words: list[str] = []
        seen: set[int] = set()
        doc = self.doc
        for t in expression:
            if t.i in seen:
                continue
            group = hyphen_group(doc, t)
            if len(group) > 1:
                seen.update(g.i for g in group)
                words.append("".join(g.text for g in group).lower())
                continue
            word = expression_word(t)
            if word and t.pos_ == "VERB" and words and words[-1] in lex.MODALS:
                word = t.lemma_.lower()  # "will report to": a modal keeps the verb's base form
            if word:
                words.append(word)
        if not words:
            return None
        content = [t for t in expression if t.pos_ in ("NOUN", "PROPN") and self.ment_of[t.i] < 0]
        nouns = {t.lemma_.lower() for t in content}
        if len(nouns) == 1 and nouns <= lex.PLACE_NOUNS and words[-1] in lex.PLACE_PREPS:
            words = ["located", "in"]
        elif content and words[-1] == expression_word(content[-1]) and not any(t.pos_ == "VERB" for t in expression):
            owner = {c.i for c in content[-1].children if c.dep_ in ("poss", "compound")}
            first = self.s.mentions[a]
            words = ["with", *words] if any(first[0] <= i < first[1] for i in owner) else [*words, "of"]
        predicate = normalize_predicate(" ".join(_one_preposition_per_run(words)))
        if predicate in lex.IDENTITY or predicate.rsplit("_", 1)[-1] in lex.NON_RELATIONAL_PREPS:
            return None
        if _names_an_alias(predicate.split("_")):
            return None  # "better known by his stage name", "stylized as": another name, not a relation
        if foreign(expression):
            return None  # "Quel [maledetto] treno [blindato]": the inside of a foreign title, no relation
        if predicate in lex.BIRTH_NAME_WORDS and self._name_follows(max(t.i for t in expression), b):
            return None  # "Bonnie Tyler (born Gaynor Hopkins; 1951)": her birth name
        return predicate

    def _name_follows(self, i: int, mention: int) -> bool:
        """Whether ``mention`` starts right after token ``i``, quotes aside."""
        start = self.s.mentions[mention][0]
        return i < start and all(t.is_punct for t in self.doc[i + 1 : start])


def _one_preposition_per_run(words: list[str]) -> list[str]:
    """``words`` with each run of prepositions cut to one: the first after a word of content ("filed against [in
    of]" → "filed against"), the last where the run opens the expression ("in of" → "of"). A path through a noun
    phrase collects its prepositions, which no relation name repeats ("in_of", "filed_against_in_of")."""
    out: list[str] = []
    for word in words:
        if out and word in _PREPOSITIONS and out[-1] in _PREPOSITIONS:
            if len(out) == 1:
                out[-1] = word
            continue
        out.append(word)
    return out


_PREPOSITIONS = lex.words(
    """of in on at to for from with by into onto about against among between over under through after before
    during within without near across toward towards upon"""
)


def _names_an_alias(words: list[str]) -> bool:
    """Whether the predicate gives another name: an alias word, except "known" with a complement that is not a
    name ("known for founding Acme" is a relation; "known as", "known by", "known in X as" an alias)."""
    for n, word in enumerate(words):
        if word not in lex.ALIAS_WORDS:
            continue
        later = words[n + 1 :]
        if word != "known" or not later or later[0] in ("as", "by", "under"):
            return True
        if "as" in later and all(w in _PREPOSITIONS for w in later[: later.index("as")]):
            return True  # "known in the United States as Victor Seastrom"; not "known for his role as" a part
    return False


def _ancestors(tok: Token) -> list[Token]:
    chain = [tok]
    while chain[-1].head.i != chain[-1].i and len(chain) < 64:
        chain.append(chain[-1].head)
    return chain


def _nominal_chain(tokens: list[Token]) -> bool:
    """Whether a stretch of the path holds no verb: names nested by prepositions, apposition or possession."""
    return not any(t.pos_ in ("VERB", "AUX") for t in tokens)


def _role_between(inner: list[Token]) -> bool:
    return any(t.pos_ == "NOUN" and t.lemma_.lower() in lex.ROLE_NOUNS for t in inner)


def _relativizer(tok: Token, verb: Token) -> bool:
    """The relative pronoun that opens a relative clause's verb ("a game that was created by"): part of the
    expression, since a release fills the slot with its own relative form and a "that" left outside would
    tell a relative wording from a participle ("a game created by")."""
    return verb.dep_ == "relcl" and tok.i < verb.i and tok.dep_ in SUBJECTS and tok.tag_ in ("WDT", "WP")


def _bare(verb: Token, relations: SentenceRelations) -> bool:
    """A coordinated verb with no subject, object or name of its own: it shares the pair of the verb before it
    ("joined Acme in 2005 and [left] in 2010"). A prepositional object that is a thing, not a time, is its own
    ("enrolled in La Fémis and graduated with a diploma": taken out, it left "and with a diploma")."""
    if _has_subject(verb):
        return False
    for child in verb.children:
        if child.dep_ in ("dobj", "attr", "dative", "ccomp", "xcomp") or relations.ment_of[child.i] >= 0:
            return False
        if child.dep_ == "prep" and any(relations.ment_of[g.i] >= 0 or _thing(g) for g in child.children):
            return False
    return True


def _thing(tok: Token) -> bool:
    """A preposition's object that is a common noun and no time ("with a diploma", not "in 2010", "in May")."""
    return tok.dep_ == "pobj" and tok.pos_ == "NOUN" and tok.ent_type_ not in ("DATE", "TIME")


def _subordinate_subject(end: Token, lca: Token) -> bool:
    """Whether a name at one end of the path is the subject of a subordinate clause (adverbial or complement)
    below the path's top: what it does there is said of it alone, not of the name outside the clause."""
    return end.dep_ in SUBJECTS and end.head.dep_ in ("advcl", "ccomp") and end.head.i != lca.i


def _has_subject(tok: Token) -> bool:
    return any(c.dep_ in SUBJECTS for c in tok.children)


def _second_subject(tok: Token, path: list[Token]) -> bool:
    """Whether the verb ``tok`` has two subjects, one on the path and one off it: a fronted phrase the parse took
    for a subject ("The first film venture for X, it was directed by Y")."""
    subjects = [c for c in tok.children if c.dep_ in SUBJECTS]
    return len(subjects) > 1 and any(c in path for c in subjects) and not all(c in path for c in subjects)


def _hyphen_joined(doc, tok: Token, sent: Span) -> Iterable[Token]:
    return (t for t in hyphen_group(doc, tok) if sent.start <= t.i < sent.end and t.i != tok.i)
