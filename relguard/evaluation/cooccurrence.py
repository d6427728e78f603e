"""An attacker that is not the extractor: every co-occurrence of two known entities in a sentence is a connection.

The targeted attacker (:mod:`relguard.evaluation.attack`) re-reads a release with the extractor that made the
truth, so it is blind exactly where the extractor is: a relation the extractor never slotted is invisible to
both, and a rewritten slot the extractor cannot parse back looks protected. This reader shares nothing with
the extractor. It knows the entity names (App. E: the attacker knows the entity set), finds them in each
sentence of the released text by exact token match, and takes every pair found in one sentence as a
connection, first-named first, with the words between the two names as the relation. An LLM reading the
release sees at least these connections, so its Conn. recall is a floor for what survives.

Sentences are cut at ``.!?`` before an upper-case letter, a digit or a quote, and at line breaks: a rule that
needs no parse, so it reads rewritten text exactly as it reads original text.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence

from relguard.evaluation.metrics import Fact

#: Words between two names kept as the relation; a longer gap still counts as a connection, with no relation.
MAX_RELATION_WORDS = 12
_TOKEN = re.compile(r"\w+(?:[-'’.&]\w+)*\.?|[^\w\s]", re.UNICODE)
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'”’)\]]*\s+(?=[\"'“‘(\[]?[A-Z0-9])|\n+")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)


def _tokens(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]


def _key(token: str) -> str:
    return token.rstrip(".") or token


class CooccurrenceAttacker:
    """Connections from sentence co-occurrence of known names; the words between them as the relation."""

    name = "co-occurrence reader"

    def __init__(self, names: Iterable[str]) -> None:
        self._names: dict[tuple[str, ...], str] = {}
        self._longest = 1
        for name in names:
            words = tuple(_key(t) for t, _, _ in _tokens(name))
            capitalized = name[:1].isupper() or name[:1].isdigit()
            if not words or not capitalized or not any(c.isalnum() for c in name):
                continue
            self._names.setdefault(words, name)
            self._longest = max(self._longest, len(words))
        self._cache: dict[str, tuple[Fact, ...]] = {}

    def facts(self, texts: Sequence[str]) -> list[Fact]:
        """Every co-occurrence fact of every text (duplicates included), cached per distinct text."""
        found: list[Fact] = []
        for text in texts:
            key = hashlib.sha256(text.encode("utf-8")).hexdigest()
            if key not in self._cache:
                self._cache[key] = tuple(self._read(text))
            found.extend(self._cache[key])
        return found

    def _read(self, text: str) -> Iterable[Fact]:
        start = 0
        for cut in [*(m.start() for m in _SENTENCE_END.finditer(text)), len(text)]:
            yield from self._sentence(text, start, cut)
            start = cut

    def _sentence(self, text: str, start: int, end: int) -> Iterable[Fact]:
        tokens = _tokens(text[start:end])
        keys = [_key(t) for t, _, _ in tokens]
        spans: list[tuple[str, int, int]] = []
        i = 0
        while i < len(tokens):
            for size in range(min(self._longest, len(tokens) - i), 0, -1):
                name = self._names.get(tuple(keys[i : i + size]))
                if name is not None:
                    spans.append((name, tokens[i][1] + start, tokens[i + size - 1][2] + start))
                    i += size
                    break
            else:
                i += 1
        for a in range(len(spans)):
            for b in range(a + 1, len(spans)):
                (first, _, gap_start), (second, gap_end, _) = spans[a], spans[b]
                if first == second:
                    continue
                words = _WORD.findall(text[gap_start:gap_end])
                relation = "_".join(w.lower() for w in words) if 0 < len(words) <= MAX_RELATION_WORDS else None
                yield Fact(first, relation, second)


_PRONOUNS = frozenset(
    {"he", "him", "his", "himself", "she", "her", "hers", "herself", "it", "its", "itself"}
    | {"they", "them", "their", "theirs", "themselves"}
)


def names_from_extraction(extraction) -> list[str]:
    """The entity set an attacker of a corpus is assumed to know: canonical names and the mentions that name.

    Pronouns and "the company"-style mentions are left out: they name nobody outside their own context.
    """
    names: list[str] = []
    for document in extraction.documents:
        for entity in document.entities:
            names.append(entity.name)
            names.extend(m.text for m in entity.mentions if _names_someone(m.text))
    return names


def _names_someone(text: str) -> bool:
    words = text.split()
    if words and words[0].lower() == "the":
        words = words[1:]
    return bool(words) and text.lower() not in _PRONOUNS and all(w[:1].isupper() or w[:1].isdigit() for w in words)
