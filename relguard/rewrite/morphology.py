"""English morphology for fills: a verb's form for a plural subject, and "a"/"an", from maintained libraries.

Suffix rules get English wrong ("goes" cut to "goe", "an university" from a first-letter rule). Verbs come from
``lemminflect``, whose lexicon lemmatizes and inflects by Penn tag ("focuses" → "focus"; ``inflect`` gives
"focuse"); the article comes from ``inflect``, which decides "a"/"an" by sound ("an hour", "a university",
"an MBA") and which lemminflect does not do.
"""

from __future__ import annotations

import functools
import sys
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import inflect

DETERMINERS = frozenset({"the", "a", "an", "its", "his", "her", "their"})
_AUXILIARIES = {"is": "are", "was": "were", "has": "have", "does": "do"}
_PAST_AUXILIARIES = {"is": "was", "are": "were", "has": "had", "have": "had", "does": "did", "do": "did"}


_IMPORTING = threading.Lock()


@functools.cache
def _english() -> inflect.engine:
    """inflect's engine, imported on first use and without its run-time type checks.

    inflect wraps its public methods in typeguard's ``@typechecked``, which re-parses and recompiles each of them
    when inflect is imported: seconds of CPU in every process that rewrites (every CLI run, local worker and Ray
    actor), and a slower ``a()``. typeguard documents the decorator as a no-op under ``python -O``; this import
    gives inflect that no-op and restores typeguard at once, under a lock, so that only inflect's import sees it
    (two first calls at once, as two Streamlit sessions may make, would otherwise restore each other's swap). Our
    one call passes a non-empty ``str`` (see :func:`indefinite_article`), the type the checks would have asserted.
    ``tests/test_morphology.py`` fails if inflect stops taking the decorator by name from typeguard."""
    with _IMPORTING:
        if "inflect" not in sys.modules:
            import typeguard

            checked = typeguard.typechecked
            typeguard.typechecked = _unchecked
            try:
                import inflect  # noqa: F401
            finally:
                typeguard.typechecked = checked
    return sys.modules["inflect"].engine()


def _unchecked(target=None, **_options):
    """typeguard's ``typechecked`` as it is under ``python -O``: the target itself, with or without options."""
    return target if target is not None else (lambda function: function)


def _verbs():
    """lemminflect's (lemmatize, inflect) pair, imported on first use: it loads spaCy, which the CLI must not
    import before a command needs it."""
    from lemminflect import getInflection, getLemma

    return getLemma, getInflection


def plural_verb(finite: str) -> str:
    """The form for a plural subject: "is located in" → "are located in", "goes" → "go", "focuses on" →
    "focus on"; a past tense ("founded") or a form that does not open with a verb is kept."""
    first, _, rest = finite.partition(" ")
    if first in _AUXILIARIES:
        return f"{_AUXILIARIES[first]} {rest}".strip()
    if first in DETERMINERS or not first.isalpha() or not first.endswith("s"):
        return finite
    plural = _inflected(first, ("VBZ",), "VBP")
    return f"{plural} {rest}".strip() if plural else finite


def past_tense(finite: str) -> str:
    """The same form told in the past: "is located in" → "was located in", "leads" → "led", "are" → "were";
    a form that is past already ("founded", "was born in") or opens with no verb is kept."""
    first, _, rest = finite.partition(" ")
    if first in _PAST_AUXILIARIES:
        return f"{_PAST_AUXILIARIES[first]} {rest}".strip()
    if first in DETERMINERS or not first.isalpha():
        return finite
    past = _inflected(first, ("VBZ", "VBP"), "VBD")
    return f"{past} {rest}".strip() if past else finite


def perfect_tense(finite: str, *, plural: bool = False) -> str:
    """The same form in the present perfect, for a clause that a "since" date governs ("Since 2015, Jung [has
    worked at] the band"): "is a member of" → "has been a member of", "writes" → "has written", "founded" →
    "has founded"; a form that opens with no verb is kept."""
    first, _, rest = finite.partition(" ")
    have = "have" if plural else "has"
    if first in ("is", "was", "are", "were"):
        return f"{have} been {rest}".strip()
    if first in ("has", "have", "had"):
        return f"{have} had {rest}".strip()
    if first in DETERMINERS or not first.isalpha():
        return finite
    participle = _inflected(first, ("VBZ", "VBP", "VBD"), "VBN")
    return f"{have} {participle} {rest}".strip() if participle else finite


@functools.cache
def _inflected(word: str, tags: tuple[str, ...], to: str) -> str | None:
    """``word`` as a present verb of one of ``tags``, told as ``to``; None when it is no such verb or lemminflect
    has no ``to`` form for it (a lemma it guessed: "mythologizes" has no VBP, "basis" reads as a verb "basi"). Kept
    per word: lemminflect deep-copies its tables on every call, and the leak scan words every drawn predicate in
    every frame (a quarter of a release's time before this cache)."""
    getLemma, getInflection = _verbs()
    for tag in tags:
        for lemma in getLemma(word, upos="VERB"):
            told = getInflection(lemma, tag=to) if word in getInflection(lemma, tag=tag) else ()
            if told:
                return told[0]
    return None


@functools.lru_cache(maxsize=1 << 14)
def indefinite_article(word: str) -> str:
    """ "a" or "an" before ``word``, by its sound ("an hour", "a university", "an MBA")."""
    return _english().a(word).split(" ", 1)[0] if word.strip() else "a"


@functools.lru_cache(maxsize=1 << 12)
def singular_head(noun: str) -> str:
    """A role noun phrase with its first word in the singular ("supporters of" → "supporter of"; "headquarters
    of" stays): after "a Turkish" a people's plural noun does not read ("a Turkish supporters of")."""
    first, _, rest = noun.partition(" ")
    singular = _english().singular_noun(first) if first.isalpha() and first.islower() else False
    return f"{singular} {rest}".strip() if singular else noun
