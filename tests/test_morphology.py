"""Fills take their morphology from maintained libraries (lemminflect for verbs, inflect for "a"/"an")."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from relguard.rewrite.morphology import indefinite_article, past_tense, perfect_tense, plural_verb


@pytest.mark.parametrize(
    ("finite", "plural"),
    [
        ("goes to", "go to"),  # the suffix rule made "goe to"
        ("focuses on", "focus on"),  # inflect's plural_verb makes "focuse on"
        ("is located in", "are located in"),
        ("was born in", "were born in"),
        ("has as its capital", "have as its capital"),
        ("studies at", "study at"),
        ("founded", "founded"),  # a past tense has no number
        ("the capital of", "the capital of"),  # no verb
    ],
)
def test_a_verb_for_a_plural_subject(finite: str, plural: str) -> None:
    assert plural_verb(finite) == plural


@pytest.mark.parametrize(
    ("finite", "past"),
    [
        ("leads", "led"),  # "He leads the Fascist National Party only in 1926" (issue 39)
        ("is located in", "was located in"),
        ("are located in", "were located in"),
        ("plays for", "played for"),
        ("teaches at", "taught at"),
        ("was born in", "was born in"),
        ("founded", "founded"),
    ],
)
def test_a_verb_told_in_the_past(finite: str, past: str) -> None:
    assert past_tense(finite) == past


@pytest.mark.parametrize(
    ("finite", "plural", "perfect"),
    [
        ("writes", False, "has written"),  # "Since July 2013, Naomi [has written]" (issue 39)
        ("is a member of", False, "has been a member of"),
        ("are located in", True, "have been located in"),
        ("founded", False, "has founded"),
        ("was born in", False, "has been born in"),
        ("has as a member", False, "has had as a member"),
        ("the capital of", False, "the capital of"),
    ],
)
def test_a_verb_in_the_present_perfect(finite: str, plural: bool, perfect: str) -> None:
    assert perfect_tense(finite, plural=plural) == perfect


@pytest.mark.parametrize(
    ("word", "article"),
    [("university", "a"), ("hour", "an"), ("MBA", "an"), ("European", "a"), ("honest", "an"), ("apple", "an")],
)
def test_a_or_an_by_sound(word: str, article: str) -> None:
    """ "an university" came from a first-letter rule."""
    assert indefinite_article(word) == article


def test_inflect_is_imported_without_its_type_checks_and_typeguard_is_left_as_it_was() -> None:
    """In a fresh process (this one may have imported inflect already): the article comes from inflect's own
    ``a()``, uninstrumented, and typeguard's decorator is restored. Fails if inflect stops taking ``typechecked``
    by name from typeguard at import (the shim would then no longer reach it) or if the shim leaks."""
    probe = (
        "import typeguard; checked = typeguard.typechecked\n"
        "from relguard.rewrite import morphology\n"
        "assert morphology.indefinite_article('hour') == 'an'\n"
        "import inflect\n"
        "print(typeguard.typechecked is checked, 'TypeCheckMemo' in inflect.engine.a.__code__.co_names,"
        " getattr(inflect, 'typechecked', None) is morphology._unchecked)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    restored, instrumented, shimmed = done.stdout.split()
    assert (restored, instrumented, shimmed) == ("True", "False", "True")


def test_a_verb_lemminflect_has_no_form_for_is_kept_and_every_pool_predicate_is_worded() -> None:
    """lemminflect guesses a lemma for words outside its lexicon ("mythologizes", "basis" as a verb "basi") but has
    no present plural for it; the form was indexed anyway and raised IndexError. A pool predicate a release can
    draw ("basis_of_standard", 9th of LOC|LANGUAGE) then crashed the leak scan's wordings. The form is kept."""
    import json

    from relguard.candidates.forms import default_forms
    from relguard.release.wordings import wordings

    assert plural_verb("mythologizes") == "mythologizes"
    assert plural_verb("basis of standard for") == "basis of standard for"
    assert plural_verb("governs") == "govern"
    for path in (Path(__file__).resolve().parents[1] / "relguard" / "candidates" / "pools").glob("*.json"):
        for pair, predicates in json.loads(path.read_text())["pairs"].items():
            for predicate in predicates:
                assert wordings(predicate, tuple(pair.split("|")), default_forms), (pair, predicate)
