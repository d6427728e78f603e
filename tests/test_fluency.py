"""The eight broken-English detectors of bench/fluency.py, each on a sentence it must flag and one it must not.

The broken cases are the issue's own examples (HotpotQA and Re-DocRED releases read by hand), the clean ones
their fluent counterparts. Every detector reads a real spaCy parse of the released sentence.
"""

from __future__ import annotations

import pytest

from relguard.evaluation.fluency import DETECTORS, judge, tally
from relguard.rewrite.sentences import Rewritten


def rewritten(original: str, released: str, slots: list[str], fills: list[str]) -> Rewritten:
    """A record with the slot and fill ranges found by their text (each slot/fill given in order)."""
    slot_spans, fill_spans, at, to = [], [], 0, 0
    for slot in slots:
        start = original.index(slot, at)
        slot_spans.append((start, start + len(slot)))
        at = start + len(slot)
    for words in fills:
        start = released.index(words, to) if words else to
        fill_spans.append((start, start + len(words)))
        to = start + len(words)
    return Rewritten("d", 0, original, released, tuple(slot_spans), tuple(fill_spans))


# (pattern, broken sentence, fluent sentence); each as (original, released, slots, fills)
CASES = [
    (
        "noun_slot_verb",
        (
            "He is a retired British colonel of Northern Ireland.",
            "He is a retired British colonized Northern Ireland.",
            ["colonel of"],
            ["colonized"],
        ),
        (
            "He is a retired British colonel of Northern Ireland.",
            "He is a retired British native of Northern Ireland.",
            ["colonel of"],
            ["native of"],
        ),
    ),
    (
        "repeated_predicate",
        (
            "It was released as the single in 2010 through Columbia.",
            "It has its copyright held by as the single in 2010 has its copyright held by Columbia.",
            ["was released", "through"],
            ["has its copyright held by", "has its copyright held by"],
        ),
        (
            "It was released as the single in 2010 through Columbia.",
            "It is owned as the single in 2010 by Columbia.",
            ["was released", "through"],
            ["is owned", "by"],
        ),
    ),
    (
        "wrong_frame",
        (
            "The song was written by Alice Smith.",
            "The song was is owned by Alice Smith.",
            ["written by"],
            ["is owned by"],
        ),
        ("The song was written by Alice Smith.", "The song was owned by Alice Smith.", ["written by"], ["owned by"]),
    ),
    (
        "slot_inside_name",
        (
            'It was on the album "Staring at the Sun".',
            'It was on the album "is in the collection of the Sun".',
            ["Staring at"],
            ["is in the collection of"],
        ),
        (
            'It was on the album "Staring at the Sun".',
            'It parodies the album "Staring at the Sun".',
            ["was on"],
            ["parodies"],
        ),
    ),
    (
        "after_possessive",
        (
            "Acme's founder Alice Smith retired.",
            "Acme's is dominated by Alice Smith retired.",
            ["founder"],
            ["is dominated by"],
        ),
        ("Acme's founder Alice Smith retired.", "Acme's owner Alice Smith retired.", ["founder"], ["owner"]),
    ),
    (
        "sentence_start",
        (
            "According to the 2011 Census, Kahuku had 2,614 people.",
            "is a national treasure of the 2011 Census, Kahuku had 2,614 people.",
            ["According to"],
            ["is a national treasure of"],
        ),
        (
            "Born in Paris, Alice Smith studied law.",
            "Raised in Paris, Alice Smith studied law.",
            ["Born in"],
            ["Raised in"],
        ),
    ),
    (
        "address_comma",
        ("Columbus, Ohio is a city.", "Columbus, which colonized Ohio is a city.", [","], [", which colonized"]),
        ("Columbus, Ohio is a city.", "Columbus, which borders Ohio, is a city.", [","], [", which borders"]),
    ),
    (
        "list_or_glued",
        ("The county has 67 towns in Ohio.", "The county has 67emigrated from Ohio.", ["towns in"], ["emigrated from"]),
        ("The county has 67 towns in Ohio.", "The county has 67 towns bordering Ohio.", ["in"], ["bordering"]),
    ),
    (  # HotpotQA "member of New South Wales ... expansion of New South Wales": a name twice repeats no predicate
        "repeated_predicate",
        (
            "She was born in Young, NSW and grew up in Ballina, NSW.",
            "She was born in Young that is part of NSW and grew up in Ballina that is part of NSW.",
            [", ", ", "],
            [" that is part of ", " that is part of "],
        ),
        (
            "Ana Ruiz, who runs Acme Corp, and Bo Chan, who owns Acme Corp, met.",
            "Ana Ruiz, the founder of Acme Corp, and Bo Chan, a director of Acme Corp, met.",
            ["who runs", "who owns"],
            ["the founder of", "a director of"],
        ),
    ),
    (  # HotpotQA "Sanford was President of Duke University": a capitalized role is relation words
        "slot_inside_name",
        (
            'It was on the album "Staring at the Sun".',
            'It was on the album "is in the collection of the Sun".',
            ["Staring at"],
            ["is in the collection of"],
        ),
        (
            "From 1969 to 1985, Sanford was President of Duke University.",
            "From 1969 to 1985, Sanford was the founder of Duke University.",
            ["President of"],
            ["the founder of"],
        ),
    ),
]


@pytest.fixture(scope="module")
def nlp(extractor):
    return extractor.nlp


@pytest.mark.parametrize(("pattern", "broken", "fluent"), CASES, ids=[case[0] for case in CASES])
def test_each_detector_flags_its_pattern_and_passes_the_fluent_version(nlp, pattern, broken, fluent):
    bad, good = rewritten(*broken), rewritten(*fluent)
    bad_doc, good_doc = nlp(bad.released), nlp(good.released)
    assert DETECTORS[pattern](bad, bad_doc), bad.released
    assert not DETECTORS[pattern](good, good_doc), good.released


def test_judge_counts_a_sentence_once_whatever_it_shows(nlp):
    sentences = [rewritten(*case[1]) for case in CASES] + [rewritten(*case[2]) for case in CASES]
    counts = tally(judge(sentences, nlp))
    assert counts["sentences"] == 2 * len(CASES)
    broken_fluent = [v for v in judge([rewritten(*case[2]) for case in CASES], nlp) if v.broken]
    assert broken_fluent == [], [(v.sentence.released, v.patterns) for v in broken_fluent]
    assert counts["broken"] == len(CASES)
    assert all(counts[pattern] >= 1 for pattern, _, _ in CASES)
