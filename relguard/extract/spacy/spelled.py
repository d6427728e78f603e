"""Names found by their spelling, for the strict slot mode: the words around a name never decide that it is one.

The NER reads the words around a name, so "Bob Jones sued Corvid Media" and "Bob Jones acquired Corvid Media"
can give other names, and a rewording moves the stretches between them. Here a mention is a run of capitalized
words (with "of", "de", "&" inside and a number after, as in "Bank of America", "Route 750"), without the
function words a sentence opens with; its type is voted later from the sentence with every stretch masked and
from the name alone (:mod:`.retype`), and a run that nothing types is no mention. All of it reads the run and
the masked text only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from relguard.extract.spacy import lexicon as lex

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

#: Lower-case words a name may hold between two of its capitalized words.
JOINERS = frozenset({"of", "de", "del", "della", "da", "du", "des", "van", "von", "der", "den", "the", "&", "la", "le"})
#: Longest name taken; longer runs are headlines or lists of titles.
MAX_WORDS = 8


def capitalized(tok: Token) -> bool:
    return tok.text[:1].isupper() and any(ch.isalpha() for ch in tok.text) and not tok.is_punct


def name_runs(sent: Span, common: set[str]) -> list[tuple[int, int]]:
    """Token ranges ``(start, end)`` of the capitalized runs of ``sent``."""
    runs, i, end = [], sent.start, sent.end
    doc = sent.doc
    while i < end:
        if not capitalized(doc[i]):
            i += 1
            continue
        j = i + 1
        while j < end:
            if capitalized(doc[j]) or (doc[j].like_num and capitalized(doc[j - 1])):
                j += 1
            elif doc[j].lower_ in JOINERS and j + 1 < end and capitalized(doc[j + 1]):
                j += 2
            else:
                break
        start = i
        while start < j and (doc[start].lower_ in lex.NAME_STOP_WORDS or doc[start].lower_ in JOINERS):
            start += 1
        opener = j - start == 1 and doc[start].i == sent.start and doc[start].lower_ in common
        if start < j and not opener and j - start <= MAX_WORDS:
            runs.append((start, j))
        i = j
    return runs


def spelled_labels(
    doc, runs: list[tuple[int, int]], label_names: Callable[[list[str]], dict[str, str | None]], shape
) -> list[str]:
    """A first label for each run from the name alone (the NER on the name by itself, else its shape), or ""."""
    names = label_names(sorted({doc[a:b].text for a, b in runs}))
    return [names.get(doc[a:b].text) or shape(doc[a:b]) or "" for a, b in runs]
