"""Fills take their morphology from maintained libraries (lemminflect for verbs, inflect for "a"/"an")."""

from __future__ import annotations

import pytest

from relguard.rewrite.morphology import indefinite_article, past_tense, plural_verb


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
    ("word", "article"),
    [("university", "a"), ("hour", "an"), ("MBA", "an"), ("European", "a"), ("honest", "an"), ("apple", "an")],
)
def test_a_or_an_by_sound(word: str, article: str) -> None:
    """ "an university" came from a first-letter rule."""
    assert indefinite_article(word) == article
