"""Cutting a relation expression into slot spans: contiguous pieces, what stays in the text, each piece's role.

A mixin of :class:`~relguard.extract.spacy.patterns.SentenceRelations` (it reads that class's sentence, parse and
mentions). The pieces between two names are the slot; numbers, dates, names the NER cut short and quoted titles
never join a span; one expression cut by words between (a date, an adjunct) is one slot whose later parts take
the closing preposition or are removed (:class:`relguard.types.Link`).
"""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING

from relguard.extract.spacy import lexicon as lex
from relguard.extract.spacy.parsed import ParsedDocument

if TYPE_CHECKING:
    from spacy.tokens import Span, Token


from relguard.extract.spacy.wordclass import bearing, edge, gap_word, object_word, rank_modifier
from relguard.wordlist import LOOSE_ADVERBS

#: Other words a span may take between two of its expression words ("takes place every summer in").
MAX_GAP = 3
_NOUNS = frozenset({"NOUN", "PROPN"})
#: NER labels of values, never of relation words: numbers, dates, amounts stay in the text.
_VALUE_ENTITIES = frozenset({"DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL"})
#: Lower-case words inside a name ("the Order of Friars Minor"): between two capitalized words, not a relation's.
_NAME_JOINERS = frozenset({"of", "de", "du", "des", "la", "le", "van", "von", "the", "and", "&"})
_COMPLEMENTS = frozenset({"dobj", "attr", "oprd", "dative", "acomp"})


class SpanCutter:
    """Spans of an expression (mixed into :class:`~relguard.extract.spacy.patterns.SentenceRelations`)."""

    s: ParsedDocument
    doc: object
    ment_of: list[int]
    sent: Span
    _quoted_tokens: frozenset[int] | None
    after: set[int]

    def _parts(self, expression: list[Token], a: int, b: int) -> tuple[tuple[tuple[int, int], ...], tuple[str, ...]]:
        """Contiguous pieces of the expression and each one's role: cut at entity mentions, at what stays in the
        text (numbers, dates, names, quoted titles: :meth:`_kept_out`) and at wide gaps; trimmed; each bearing a
        word.

        Pieces between the two names are the slot; only when none lies between them do pieces outside count
        ("In Madrid, Sofia Jansen played", "Bob Jones, an Acme Corp employee"): a verb before both names
        belongs to its own subject's relation ("aviator awarded the Medal of Honor in the Vietnam War"). One
        expression is one slot: of several pieces between the names the first is filled, the last takes the
        closing preposition when it stands right before the second name ("tail": "was founded [in 1777] by"), and
        the others are removed.
        """
        cum, doc = self.s.cum, self.doc
        pieces: list[list[int]] = []
        for t in expression:
            if self._kept_out(t):
                continue
            if pieces:
                last = pieces[-1][-1]
                gap = t.i - last - 1
                if (
                    gap <= MAX_GAP
                    and cum[t.i] - cum[last + 1] == 0
                    and not any(self._kept_out(doc[i]) for i in range(last + 1, t.i))
                    and self._fills(last, t.i)
                ):
                    pieces[-1].extend(range(last + 1, t.i + 1))
                    continue
            pieces.append([t.i])
        spans = []
        for piece in pieces:
            while piece and (edge(doc[piece[0]]) or doc[piece[0]].lower_ in LOOSE_ADVERBS):
                piece = piece[1:]  # "and [currently] leads": an adverb that opens the piece stays in the text
            while piece and (edge(doc[piece[-1]]) or doc[piece[-1]].dep_ == "det"):
                piece = piece[:-1]
            if piece and any(bearing(doc[i]) for i in piece) and not self._measure(piece):
                spans.append((piece[0] - self._comma_before(piece[0], a), piece[-1]))
        low, high = self.s.mentions[a][1], self.s.mentions[b][0]
        extra = tuple(
            span for span in spans if span[0] >= high and all(i in self.after for i in range(span[0], span[1] + 1))
        )
        spans = [span for span in spans if span not in extra]
        between = tuple(span for span in spans if low <= span[0] and span[1] < high)
        if not between:
            outside = tuple(span for span in spans if self._role(span) or (span[0] >= high and self._verbal(span)))
            return outside, ("",) * len(outside)  # "Bob Jones, an Acme Corp [employee]", "the first [minister of] Siam"
        if len(between) == 1:
            return between + extra, ("", *("removed",) * len(extra))
        interior = [i for (_, end), (start, _) in pairwise(between) for i in range(end + 1, start)]
        solid = not any(self.ment_of[i] >= 0 or self._kept_out(doc[i]) for i in interior)
        if any(doc[i].dep_ in _COMPLEMENTS for i in interior):
            if len(interior) > MAX_GAP + 1 or not solid:
                return (), ()  # "sold his large stake in the company to": no one slot says it
            return ((between[0][0], between[-1][1]),), ("",)  # "sold his stake to": one slot, object included
        if not any(doc[i].pos_ in ("VERB", "AUX") for i in range(between[0][0], between[0][1] + 1)):
            if len(interior) > 2 * MAX_GAP or not solid:
                return (), ()  # "is the last of the leeward towns on": no verb to carry the words between
            return ((between[0][0], between[-1][1]),), ("",)
        roles = ["", *("removed",) * (len(between) - 1)]
        if _leads_to_the_name([doc[i] for i in range(between[-1][1] + 1, high)]):
            roles[-1] = "tail"  # right before the second name, its article ("as the Detroit Spirits") or its noun
        return between + extra, (*roles, *("removed",) * len(extra))

    def _measure(self, piece: list[int]) -> bool:
        """A lone preposition after a number or measure ("about 16 km from"): a distance, not a relation."""
        words = [self.doc[i] for i in piece]
        if not all(t.pos_ == "ADP" for t in words):
            return False
        head = words[0].head
        return head.like_num or head.ent_type_ in _VALUE_ENTITIES or any(c.dep_ == "nummod" for c in head.children)

    def _verbal(self, span: tuple[int, int]) -> bool:
        """A piece with a verb: after both names it is still slotted ("In Madrid, Sofia Jansen [played]"), and no
        fill states the relation there, so its sentence goes (fail closed; :data:`relguard.rewrite.frames.END`)."""
        return any(self.doc[i].pos_ in ("VERB", "AUX") for i in range(span[0], span[1] + 1))

    def _role(self, span: tuple[int, int]) -> bool:
        """A piece outside the two names that is a role noun phrase: a noun and no verb. A verb outside both
        names is its own clause's ("In Madrid, Sofia Jansen played"), a lone preposition relates nothing."""
        words = [self.doc[i] for i in range(span[0], span[1] + 1)]
        return any(t.pos_ in _NOUNS for t in words) and not any(t.pos_ in ("VERB", "AUX") for t in words)

    def _kept_out(self, tok: Token) -> bool:
        """Words that are never part of a relation span, whatever the parse says: numbers, dates and "%", words of
        a name the NER cut short (capitalized inside the sentence, "Staring at the Sun"), and quoted titles."""
        if tok.like_num or tok.pos_ == "NUM" or tok.text == "%" or tok.ent_type_ in _VALUE_ENTITIES:
            return True
        if self._title_word(tok) and tok.lower_ not in lex.ROLE_NOUNS and not self._title_modifier(tok):
            return True  # a name the NER missed ("Moderate Party", "Per Westerberg"); titles as roles stay in
        before = self.doc[tok.i - 1] if tok.i > 0 else tok
        if tok.lower_ == "the" and before.lower_ == "of" and tok.i > 1 and self.ment_of[tok.i - 2] < 0:
            before = self.doc[tok.i - 2]  # "The Lord of [the] Rings"
        if tok.lower_ in _NAME_JOINERS and 0 < tok.i < len(self.doc) - 1 and self._title_word(before):
            if before.lower_ in lex.ROLE_NOUNS:
                return False  # "the 58th Governor [of] Mississippi": a role and its preposition, not one name
            after = self.doc[tok.i + 1]
            if (
                after.lower_ == "the"
                and tok.lower_ == "of"
                and tok.i + 2 < len(self.doc)
                and self.ment_of[before.i] < 0
            ):
                after = self.doc[tok.i + 2]  # not after a name: "Danny White [of the] Dallas Cowboys" relates them
            if self._title_word(after) or (self.ment_of[after.i] >= 0 and after.text[:1].isupper()):
                return True  # "the Order of Friars Minor", "The Lord of the Rings": a name the NER cut short
        return tok.i in self._quoted

    def _title_modifier(self, tok: Token) -> bool:
        """A capitalized role modifier right before a role noun: "Managing Director", "Vice President", and a
        rank's ("Hereditary Prince", "Holy Roman Emperor")."""
        nxt = self.doc[tok.i + 1].lower_ if tok.i + 1 < len(self.doc) else ""
        return rank_modifier(tok.lower_, nxt) or (tok.lower_ in lex.ROLE_MODIFIERS and nxt in lex.ROLE_NOUNS)

    def _title_word(self, tok: Token) -> bool:
        """A capitalized word inside the sentence (not its first word, not an acronym)."""
        return tok.i > self.sent.start and tok.is_alpha and tok.text[:1].isupper() and not tok.text.isupper()

    @property
    def _quoted(self) -> frozenset[int]:
        """Token indices inside a pair of double quotes of this sentence (a title, a name, a quotation)."""
        if self._quoted_tokens is None:
            inside, opened = set(), None
            for tok in self.sent:
                if tok.text in ('"', "“", "”"):
                    if opened is None and tok.text != "”":
                        opened = tok.i
                    elif opened is not None:
                        inside.update(range(opened + 1, tok.i))
                        opened = None
            self._quoted_tokens = frozenset(inside)
        return self._quoted_tokens

    def _comma_before(self, start: int, a: int) -> int:
        """1 when the piece is a relative clause on the first name set off by a comma alone ("Dublin, which lies
        in Ohio", "Dublin, located in Ohio"): the comma joins the span, so the slot is the one the comma of
        "Dublin, Ohio" gets and another wording of the relation leaves the same masked text; else 0."""
        first = self.doc[start]
        if start - 1 != self.s.mentions[a][1] or self.doc[start - 1].text != ",":
            return 0
        clause = first.head if first.tag_ in ("WDT", "WP") else first
        return int(clause.dep_ in ("relcl", "acl") and self.s.ment_of[clause.head.i] == a)

    def _fills(self, last: int, nxt: int) -> bool:
        """Whether the words between two expression words may join the span: modifiers and function words, or a
        short object between a verb and its preposition ("studied computer science at", "sold his stake to"),
        never a number. Left out, the object would sit between two pieces of one slot, each filled alone."""
        gap = [self.doc[i] for i in range(last + 1, nxt)]
        if all(gap_word(t) for t in gap):
            return True  # function words, superlatives, time phrases ("the largest city in", "every summer in")
        verb = self.doc[last]
        return (
            verb.pos_ == "VERB"
            and all(object_word(t) and t.head.i in {verb.i, *(u.i for u in gap)} for t in gap)
            and len(gap) <= 2
        )


def _leads_to_the_name(words: list[Token]) -> bool:
    """Whether only the second name's article, possessive, quote or the common noun it names stand between a tail
    and the name ("from [his album] "America Town"", "in [the rock band] Counting Crows")."""
    nouns = [t for t in words if not _leads_a_name(t)]
    return len(nouns) <= 3 and all(t.pos_ in ("NOUN", "ADJ") and t.is_lower for t in nouns)


def _leads_a_name(tok: Token) -> bool:
    """An article, possessive or opening quote between a tail and its name ("as the", 'for "Ivan')."""
    return tok.dep_ == "det" or tok.tag_ in ("PRP$", "``") or tok.text in ('"', "“", "'")
