"""ε, its bounds and the app's nouns in plain words: what a reader of a release can and cannot tell.

Every page and the help texts say the same thing the same way, so the wording lives here, not in the pages.
A bound e^x is read out as odds: a reader who held two possibilities equally likely before reading the release
(50 : 50) can hold them at most e^x : 1 after it. The slider grids stop at round values, so a page never shows
ε = 5.01 for a value the analyst meant as 5.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping

#: The mantissas of a round grid: the stops every decade has (1, 1.5, 2, 3, 4, 5, 7 times a power of ten).
ROUND_STEPS = (1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 7.0)
#: d_R of two close relations (a synonym pair under the typed template) and of unrelated ones.
CLOSE_D, FAR_D = 0.2, 1.0

#: One vocabulary for every page and the report.
GLOSSARY = {
    "slot": "one place in a document where RelGuard found the words of a relation; the release replaces those "
    "words with a drawn relation, or deletes the sentence. One relation written twice is two slots.",
    "relation": "one fact 'subject — how — object' that RelGuard found between two named entities (a canonical "
    "triple: 'Alice Meyer — works for — Acme'). The guarantee is stated per relation.",
    "relation group": "every relation on one entity pair in one direction. The mechanism draws once per group, and "
    "all slots of the group get that one outcome.",
    "entity pair": "the two named entities (people, organisations, places …) a relation links.",
    "pool": "the K public candidate relations for one pair of entity types (PERSON → ORG …), the same for every "
    "group of that type pair; it is built without reading any document.",
    "null": "the outcome 'delete the sentence': the link between the two entities disappears from the release.",
    "d_R": "how far apart two relations are in meaning, from 0 (the same) to 1 (unrelated).",
    "ε (epsilon)": "the privacy budget: two relations at distance d_R can be told apart by at most e^(ε·d_R). "
    "Smaller ε, more privacy, more changed text.",
    "λ (lambda)": "the distance the mechanism gives to deleting: a smaller λ deletes more sentences.",
    "K": "how many candidates each pool holds (plus null).",
    "draw": "one random run of the mechanism over the whole corpus. Every draw is a release: draws of one corpus add "
    "up their ε.",
    "teaching seed": "a fixed random seed that makes a draw repeatable for teaching; such a draw is NOT a private "
    "release and cannot be signed off.",
}

#: What each expected-outcome share counts, the same words on Tune and Risk ("" is kept + close).
OUTCOME_HELP = {
    "kept": "Expected share of relations whose drawn relation is the original one, word for word.",
    "substituted (close)": "Expected share of relations replaced by another relation close in meaning (d_R within "
    "the calibrated cut-off).",
    "substituted (distant)": "Expected share of relations replaced by a relation of another meaning.",
    "deleted": "Expected share of relations whose sentence is deleted (the null outcome).",
    "": "kept + substituted (close): expected share of relations whose released relation means the original one "
    "(Risk & utility shows the same number as 'meaning kept').",
}


def round_grid(low: float, high: float) -> tuple[float, ...]:
    """Every round value (:data:`ROUND_STEPS` times a power of ten) from ``low`` to ``high``, both included."""
    if not 0 < low < high:
        raise ValueError(f"a round grid needs 0 < low < high, got {low!r}, {high!r}")
    values = []
    for power in range(math.floor(math.log10(low)) - 1, math.ceil(math.log10(high)) + 1):
        for step in ROUND_STEPS:
            value = float(f"{step * 10.0**power:.3g}")
            if low * (1 - 1e-9) <= value <= high * (1 + 1e-9):
                values.append(value)
    return tuple(sorted(set(values)))


def odds(factor: float) -> str:
    """``factor`` : 1 as a reader says it ("148 to 1", "about 160 thousand to 1")."""
    if not math.isfinite(factor) or factor >= 1e12:
        return "more than a trillion to 1"
    return f"{_in_words(factor)} to 1"


def times(factor: float) -> str:
    """A multiplicative bound as a reader reads it: "7.39×", "148×", "about 2.2 million×", "about 1.5·10^16×",
    never a 17-digit number or "inf×"."""
    if not math.isfinite(factor) or factor >= 1e300:
        return "more than 10^300×"
    if factor < 1e12:
        return f"{_in_words(factor)}×"
    mantissa, exponent = f"{factor:.1e}".split("e")
    return f"about {mantissa}·10^{int(exponent)}×"


def _in_words(factor: float) -> str:
    """A factor below 10^12 as a reader says it: "7.39", "148", "about 2.2 million"."""
    if factor < 10:
        return f"{factor:.2f}"
    if factor < 1000:
        return f"{factor:.0f}"
    size, word = next((s, w) for s, w in ((1e9, "billion"), (1e6, "million"), (1e3, "thousand")) if factor >= s)
    return f"about {factor / size:.3g} {word}"


def after_reading(prior: float, factor: float) -> float:
    """The most a reader's belief ``prior`` in one of two possibilities can become when the odds move by ``factor``."""
    if not 0 < prior < 1:
        raise ValueError(f"a prior belief is a probability between 0 and 1, got {prior!r}")
    if not math.isfinite(factor):
        return 1.0
    return prior * factor / (prior * factor + 1 - prior)


def percent(share: float) -> str:
    """A share as a reader reads it: 73.1 %, 99.33 %, 99.99938 % (enough digits to tell it from 100 %)."""
    if share >= 1 - 1e-9:
        return "more than 99.9999999 %"
    digits = max(1, min(8, math.ceil(-math.log10(1 - share)) - 1))
    return f"{100 * share:.{digits}f} %"


def _factor(exponent: float) -> float:
    return math.exp(exponent) if exponent < 700 else math.inf


def epsilon_words(epsilon: float) -> str:
    """What a reader of a release drawn at ``epsilon`` can and cannot tell about one relation, at any ε ≥ 0."""
    if not epsilon >= 0 or not math.isfinite(epsilon):
        raise ValueError(f"ε must be a finite number ≥ 0, got {epsilon!r}")
    far, close = _factor(epsilon * FAR_D), _factor(epsilon * CLOSE_D)
    if epsilon == 0:
        level = "The draw ignores the original completely: a reader learns nothing about any relation."
    elif far < 1.5:  # bands by the belief a 50 : 50 reader can reach about two unrelated relations (d_R = 1)
        level = "Very strong privacy: the release says almost nothing about which relation was there (≤ 60 %)."
    elif far < 3:
        level = "Strong privacy: the release hints at the original but never comes close to showing it (≤ 75 %)."
    elif far < 10:
        level = (
            "Moderate privacy: a reader can lean clearly towards the original of two unrelated relations (up to 90 %), "
            "never be sure of it; close ones stay hard to tell."
        )
    elif far < 100:
        level = "Limited privacy: unrelated relations become easy to tell apart (up to 99 %); close ones stay hidden."
    else:
        level = (
            "Weak privacy: the release can all but show which of two unrelated relations was there; only close "
            "relations stay hidden."
        )
    return (
        f"**ε = {epsilon:g} in words.** {level} A reader who held two relations equally likely before reading "
        f"(50 : 50) can end, at most, at {percent(after_reading(0.5, far))} for one of two unrelated relations "
        f"(d_R = 1, odds {odds(far)}) and at {percent(after_reading(0.5, close))} for one of two close ones "
        f"(d_R = {CLOSE_D:g}, odds {odds(close)}). What no ε hides: which entities are named, that two of them "
        "appear in one sentence (unless it was deleted), and relations RelGuard did not find."
    )


def bound_words(factor: float, *, what: str) -> str:
    """A multiplicative bound (a document's, an entity's) read out: what it lets a reader conclude about ``what``."""
    belief = percent(after_reading(0.5, factor))
    if factor < 10:
        verdict = "a reader stays far from sure"
    elif factor < 1000:
        verdict = "a reader who compares these two versions could become fairly sure"
    else:
        verdict = (
            "at this level the bound promises practically nothing: the protection that holds is the per-relation "
            "one, relation by relation"
        )
    return (
        f"Read out: a reader who held two versions of {what} equally likely (50 : 50) could end at up to {belief} "
        f"for one (odds {odds(factor)}), so {verdict}."
    )


def choosing_epsilon() -> str:
    """Advice on choosing ε, in the terms the pages use."""
    return (
        "**Choosing ε.** Start from what a reader may learn about one relation: at ε = 1 a reader moves from "
        f"50 : 50 to at most {percent(after_reading(0.5, math.e))} between two unrelated relations; at ε = 5 to "
        f"{percent(after_reading(0.5, math.exp(5)))}. The paper evaluates ε = 1 to 5 and loses 3–9 points of QA F1 "
        "at ε = 5. Pick the smallest ε whose release still answers the questions you need (Risk & utility shows "
        "both), decide it before you look at any draw, and draw once: every extra draw adds its ε."
    )


def edit_words(edit, texts: Mapping[str, str]) -> str:
    """A review edit as the Review log shows it: what it does, in words, with the span's own words quoted.

    ``texts`` maps document names to their text (confidential: the log is on the confidential side).
    """
    fields = {f.name: getattr(edit, f.name) for f in dataclasses.fields(edit) if f.name != "kind"}
    kind = str(getattr(edit, "kind", type(edit).__name__)).replace("_", " ")
    words = ""
    if {"document", "start", "end"} <= fields.keys():
        text = texts.get(fields["document"], "")
        words = f" '{text[fields.pop('start') : fields.pop('end')]}'" if text else ""
    document = fields.pop("document", None)
    if {"first", "second"} <= fields.keys():
        words += f" between {fields.pop('first')} and {fields.pop('second')}"
    said = ", ".join(f"{name.replace('_', ' ')} {value}" for name, value in fields.items())
    where = f" in {document}" if document else ""
    return f"{kind[:1].upper()}{kind[1:]}{words}{where}" + (f": {said}" if said else "")


def count_words(count: int, noun: str, plural: str | None = None) -> str:
    """ "1 edit", "2 edits": a count with its noun in the right number."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def sentence_label(number: int, text: str, *, width: int = 90) -> str:
    """A sentence as a picker lists it: numbered from 1, each line break shown as ⏎ (a picker would glue
    "C-2025-017" and "Parties:" together), spaces collapsed, cut at ``width`` characters with an ellipsis."""
    shown = " ⏎ ".join(" ".join(line.split()) for line in text.strip().splitlines() if line.strip())
    return f"{number + 1}: {shown if len(shown) <= width else shown[: width - 1].rstrip() + '…'}"
