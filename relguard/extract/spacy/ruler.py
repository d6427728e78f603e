"""The attribute ruler's matching by lookup: the same matches as spaCy's Matcher, in a fraction of the time.

en_core_web_sm's attribute ruler (tag map, morph rules, lemma exceptions) runs 180 token patterns through a
spaCy Matcher on every document, a noticeable share of the pipeline's time and of what tagging a sentence costs
the rewrite's guard (docs/scaling.md has the timings). Every one of those patterns is a fixed sequence
of tokens, each a test of a word's lower case, tag, dependency or whitespace against a value, a set or a regular
expression, so they are looked up here by the first token's value instead. The ruler itself still sets the
attributes, in its own order (:meth:`AttributeRuler.set_annotations`): only how the matches are found changes. A
ruler holding a pattern of any other shape (an operator, another attribute) is left as it is.

The ruler instance's ``match`` is shadowed (:func:`fast_attribute_ruler`) rather than the component replaced by a
registered one, so the loaded package, its config and its patterns stay spaCy's own. That relies on
``AttributeRuler.__call__`` finding its matches through ``self.match`` and on the (pattern index, match id, start,
end) rows ``set_annotations`` reads; ``tests/test_spacy_internals.py`` fails when either changes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

#: The token attributes a pattern may test, in the order of the rows :meth:`LookupMatcher.match` reads.
COLUMNS = ("LOWER", "ORTH", "TAG", "DEP", "IS_SPACE")
#: Ids whose regular-expression result one test remembers (then it starts over: memory stays bounded).
REGEX_MEMORY = 100_000
#: The attributes a pattern is filed under, by its first token's value, in this order of preference.
INDEXED = ("LOWER", "TAG", "DEP", "IS_SPACE")
Test = Callable[[list], bool]
#: (attribute index, match id, one test per token; none: the lookup that found it is the whole test).
Pattern = tuple[int, int, tuple[Test, ...]]


class UnsupportedPattern(ValueError):
    """A pattern this lookup does not read: the ruler keeps spaCy's Matcher."""


def fast_attribute_ruler(nlp: Language, name: str = "attribute_ruler") -> bool:
    """Give ``nlp``'s attribute ruler the lookup matcher; False (nothing changed) if it has none or an odd pattern."""
    if name not in nlp.pipe_names:
        return False
    ruler = nlp.get_pipe(name)
    try:
        lookup = LookupMatcher(ruler)
    except UnsupportedPattern:
        return False
    ruler.match = lookup.match
    return True


class LookupMatcher:
    """The matches of an :class:`~spacy.pipeline.AttributeRuler`'s patterns, in the order its ``match`` gives.

    A token is read as one row of :data:`COLUMNS` (``Doc.to_array``: string ids, as the Matcher compares them;
    an unset dependency is 0, which no label equals, as in the Matcher with ``allow_missing``).
    """

    def __init__(self, ruler) -> None:
        from spacy.attrs import IDS

        self.strings = ruler.vocab.strings
        self.columns = [IDS[name] for name in COLUMNS]
        self.tables: dict[str, dict[int, list[Pattern]]] = {name: {} for name in INDEXED}
        self.anywhere: list[Pattern] = []
        for index, entry in enumerate(ruler.patterns):
            key = self.strings[str(index)]
            for tokens in entry["patterns"]:
                compiled = (index, key, tuple(self._token_test(spec) for spec in tokens))
                self._file(compiled, tokens[0])

    def _file(self, compiled: Pattern, first: dict) -> None:
        """File a pattern under its first token's lower case, tag, dependency or whitespace flag; one that tests
        nothing else is ``certain``: the lookup alone proves it matches."""
        for attribute, table in self.tables.items():
            value = first.get(attribute)
            if isinstance(value, (str, bool)):
                values = [value]
            elif isinstance(value, dict) and set(value) == {"IN"}:
                values = list(value["IN"])
            else:
                continue
            index, key, tests = compiled
            certain = len(tests) == 1 and set(first) == {attribute}
            for item in values:
                table.setdefault(self._id(item), []).append((index, key, () if certain else tests))
            return
        self.anywhere.append(compiled)

    def match(self, doc: Doc) -> list[tuple[int, int, int, int]]:
        """(attribute index, match id, start, end) of every match, sorted as AttributeRuler.match sorts them."""
        rows = doc.to_array(self.columns).tolist() if len(doc) else []
        found = set()
        lookups = [(COLUMNS.index(name), table.get) for name, table in self.tables.items()]
        anywhere = self.anywhere
        for start, row in enumerate(rows):
            for group in (*(get(row[column]) for column, get in lookups), anywhere):
                for index, key, tests in group or ():
                    if not tests:
                        found.add((index, key, start, start + 1))
                        continue
                    end = start + len(tests)
                    if end <= len(rows) and all(test(rows[start + i]) for i, test in enumerate(tests)):
                        found.add((index, key, start, end))
        return sorted(found)

    def _id(self, value: str | bool) -> int:
        return int(value) if isinstance(value, bool) else self.strings.add(value)

    def _token_test(self, spec: dict) -> Test:
        """One token's test: every attribute the spec names has a value the spec allows."""
        if not spec or set(spec) - set(COLUMNS):
            raise UnsupportedPattern(f"token pattern {spec!r}")
        tests = tuple((COLUMNS.index(attribute), self._value_test(value)) for attribute, value in spec.items())
        if len(tests) == 1:
            ((column, test),) = tests
            return lambda row: test(row[column])
        return lambda row: all(test(row[column]) for column, test in tests)

    def _value_test(self, value: Any) -> Callable[[int], bool]:
        if isinstance(value, (str, bool)):
            wanted = self._id(value)
            return lambda got: got == wanted
        if isinstance(value, dict) and len(value) == 1:
            ((operator, argument),) = value.items()
            if operator in ("IN", "NOT_IN"):
                members = frozenset(self._id(item) for item in argument)
                return (lambda got: got in members) if operator == "IN" else (lambda got: got not in members)
            if operator == "REGEX":
                return self._regex_test(re.compile(argument))
        raise UnsupportedPattern(f"token value {value!r}")

    def _regex_test(self, pattern: re.Pattern) -> Callable[[int], bool]:
        """A regular expression on the string an id stands for, remembered per id (words recur)."""
        seen: dict[int, bool] = {}
        strings = self.strings

        def test(got: int) -> bool:
            if got not in seen:
                if len(seen) >= REGEX_MEMORY:
                    seen.clear()
                seen[got] = bool(pattern.search(strings[got] if got and got in strings else ""))
            return seen[got]

        return test


__all__ = ["COLUMNS", "INDEXED", "LookupMatcher", "UnsupportedPattern", "fast_attribute_ruler"]
