"""Within-document coreference: pronouns and "the company"-style nominals resolved to one entity, or left alone."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from relguard.extract.spacy import lexicon as lex

if TYPE_CHECKING:
    from spacy.tokens import Token

#: Recent mentions searched for an antecedent per sentence; bounds the work on run-on sentences.
MAX_CANDIDATES = 32
_Cand = tuple[int, bool, bool, int]  # antecedent candidate: entity, main-clause subject?, core argument?, sentence


class Coreference:
    """Anaphora resolution; mixed into :class:`~relguard.extract.spacy.document.DocumentState`."""

    # -- pronouns and "the company": the most salient compatible entity in reach, refusing ties

    def _coreference(self, types: list[str]) -> None:
        """Resolve pronouns and "the company"-style nominals to an entity of a compatible type.

        Reach is the current sentence before the anaphor and the three sentences
        before it. A pronoun looks in the nearest of those that names a
        compatible entity as a subject, object or agent (not inside an adjunct
        like "based in Rotterdam"); a definite nominal, whose noun already says
        what it is, looks at all of them. Never the subject of the pronoun's own
        verb ("Blue Note released it"). With several candidates the most salient
        wins: most mentions so far, then a main-clause subject, then the latest
        sentence; a tie on all three is left unresolved. He/she resolve to a
        single person in the nearest window, or to the one named more often so
        far than any other there (the subject of a biography); since the parse
        does not know gender, two persons named equally often are left alone.
        """
        if self.strict:
            self._spelled_coreference(types)
            return
        recent: deque[list[_Cand]] = deque(maxlen=3)
        count: dict[int, int] = {}
        named = iter(sorted(range(len(self.mentions)), key=lambda m: self.mentions[m][0]))
        next_named = next(named, None)
        for index, sent in enumerate(self.sent_spans):
            current: list[_Cand] = []
            for tok in sent:
                while next_named is not None and self.mentions[next_named][0] <= tok.i:
                    start, end, _, entity = self.mentions[next_named]
                    current.append(self._candidate(entity, start, end, index))
                    count[entity] = count.get(entity, 0) + 1
                    next_named = next(named, None)
                if self.ment_of[tok.i] >= 0:
                    continue
                span, allowed = self._anaphor(tok)
                if span is None:
                    continue
                windows = [current[-MAX_CANDIDATES:], *reversed(recent)]
                entity = self._antecedent(tok, span, allowed, windows, types, count)
                if entity is not None:
                    self._add_mention(span[0], span[1], entity)
                    current.append(self._candidate(entity, span[0], span[1], index))
                    count[entity] = count.get(entity, 0) + 1
            recent.append(current[-MAX_CANDIDATES:])

    def _spelled_coreference(self, types: list[str]) -> None:
        """The strict mode's coreference, read from words and mention order only (never from the parse, which the
        relation's words change): a pronoun or "the company" is the entity of a compatible type named most often in
        its sentence before it and the three sentences before, the latest on a tie. One that stands between two
        names of its sentence is no mention: it lies in their stretch, which is masked whatever its words ("Maria
        Lopez left [her] job at Redfern Bank" masks as "Maria Lopez joined Redfern Bank" does)."""
        named = sorted((m[0], m[2], m[3]) for m in self.mentions)
        rows: dict[int, list[int]] = {}
        for start, sentence, _ in named:
            rows.setdefault(sentence, []).append(start)
        doc = self.doc
        for tok in doc:
            if self.ment_of[tok.i] >= 0 or self.sent_of[tok.i] < 0:
                continue
            lower, span = tok.lower_, None
            if lower in lex.PRONOUNS:
                span, allowed = (tok.i, tok.i + 1), lex.PRONOUNS[lower]
            elif lower in lex.NOMINALS and tok.i > 0 and doc[tok.i - 1].lower_ == "the":
                span, allowed = (
                    (tok.i - 1, tok.i + 1),
                    frozenset({lex.NOMINALS[lower], *lex.NOMINAL_ALSO.get(lower, ())}),
                )
            if span is None or self.ment_of[span[0]] >= 0:
                continue
            here = self.sent_of[tok.i]
            row = rows.get(here, [])
            if any(start < span[0] for start in row) and any(start >= span[1] for start in row):
                continue
            seen: dict[int, tuple[int, int]] = {}
            for start, sentence, entity in named:
                if start >= span[0]:
                    break
                if here - 3 <= sentence <= here and types[entity] in allowed:
                    if span[1] - span[0] > 1 and self.names[entity].lower().rsplit(" ", 1)[-1] != lower:
                        continue
                    seen[entity] = (seen.get(entity, (0, 0))[0] + 1, start)
            if seen:
                self._add_mention(span[0], span[1], max(seen, key=lambda e: seen[e]))

    def _candidate(self, entity: int, start: int, end: int, sentence: int) -> _Cand:
        head = self.doc[start:end].root
        core = head.dep_ != "pobj" or head.head.dep_ == "agent"
        return (entity, self._main_subject(start, end), core, sentence)

    def _antecedent(
        self,
        tok: Token,
        span: tuple[int, int],
        allowed: frozenset[str],
        windows: list[list[_Cand]],
        types: list[str],
        count: dict[int, int],
    ) -> int | None:
        """The entity an anaphor refers to, or None when no single most salient one is in reach."""
        nominal = span[1] - span[0] > 1
        if nominal:  # "the clinic" -> the one entity so far whose name ends in "clinic", however far back
            noun = tok.lower_
            named = {e for e in count if types[e] in allowed and self.names[e].lower().rsplit(" ", 1)[-1] == noun}
            if len(named) == 1:
                return named.pop()
        bound: set[int] = set()
        if tok.dep_ in ("dobj", "dative") and not tok.lower_.endswith("self"):
            for child in tok.head.children:
                if child.dep_ in ("nsubj", "nsubjpass") and self.ment_of[child.i] >= 0:
                    bound.add(self.mentions[self.ment_of[child.i]][3])
        pool: list[_Cand] = []
        for window in windows:
            found = [c for c in window if types[c[0]] in allowed and (nominal or c[2])]
            if found:
                pool.extend(found)
                if not nominal:
                    break
        if allowed == lex.PERSON_ONLY:
            candidates = {c[0] for c in pool}
            entities = candidates - bound
            if len(entities) <= 1:
                return next(iter(entities)) if entities and entities == candidates else None
            leader, *rest = sorted(entities, key=lambda e: count.get(e, 0), reverse=True)
            return leader if count.get(leader, 0) > count.get(rest[0], 0) else None
        rank: dict[int, tuple[int, bool, int]] = {}
        for entity, main, _, sentence in pool:
            if entity in bound:
                continue
            old = rank.get(entity, (0, False, -1))
            rank[entity] = (count.get(entity, 0), old[1] or main, max(old[2], sentence))
        if not rank:
            return None
        order = sorted(rank, key=lambda e: rank[e], reverse=True)
        if len(order) > 1 and rank[order[0]] == rank[order[1]]:
            return None
        return order[0]

    def _main_subject(self, start: int, end: int) -> bool:
        """Whether the mention ``start:end`` is the subject of its sentence's main clause."""
        for i in range(start, end):
            tok = self.doc[i]
            if tok.dep_ in ("nsubj", "nsubjpass") and tok.head.dep_ == "ROOT":
                return True
        return False

    def _anaphor(self, tok: Token) -> tuple[tuple[int, int] | None, frozenset[str]]:
        lower = tok.lower_
        if lower in lex.PRONOUNS and tok.pos_ == "PRON" and tok.dep_ != "expl":
            if lower in _PLURAL and self._plural_noun_before(tok):
                return None, frozenset()  # "follows a group of friends who find their lifestyle": the friends'
            return (tok.i, tok.i + 1), lex.PRONOUNS[lower]
        if lower in lex.NOMINALS and tok.pos_ == "NOUN" and tok.i > 0:
            det = self.doc[tok.i - 1]
            alone = all(c.i == tok.i - 1 or c.dep_ in ("case", "punct") for c in tok.children)
            if det.lower_ == "the" and det.head.i == tok.i and self.ment_of[tok.i - 1] < 0 and alone:
                return (tok.i - 1, tok.i + 1), frozenset({lex.NOMINALS[lower], *lex.NOMINAL_ALSO.get(lower, ())})
        return None, frozenset()

    def _plural_noun_before(self, tok: Token) -> bool:
        """Whether a plural common noun outside every name stands before ``tok`` in its sentence, after its last
        name: the nearer antecedent of "they", "them" or "their", which no entity stands for."""
        for t in reversed(self.doc[tok.sent.start : tok.i]):
            if self.ment_of[t.i] >= 0:
                return False
            if t.tag_ == "NNS":
                return True
        return False


#: The plural pronouns, whose antecedent may be a plural common noun rather than a body.
_PLURAL = frozenset({"they", "them", "their", "themselves"})
