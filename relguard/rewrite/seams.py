"""Where a fill meets the text around it: the masked text with its slots replaced, and the seams mended.

Around a fill the text outside slots is copied byte for byte except for what English needs at the seam: a space
between a fill and a word or number, "a"/"an" before it, a capital letter when it opens the sentence, one space
where a removed part of an expression leaves two, a stray "of" a verb cannot take, an adverb before a fill that
opens with an auxiliary moved after it ("also is" → "is also").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from relguard.rewrite.mask import MaskedDocument, mention_at
from relguard.rewrite.morphology import indefinite_article
from relguard.rewrite.phrases import takes_the
from relguard.rewrite.shape import CLOSE, CONNECTOR
from relguard.wordlist import LOOSE_ADVERB_PATTERN

CLOSING = frozenset(",.;:)!?\"'”’]—–")
_ARTICLE = re.compile(r"(?:^|(?<=[\s(\"“]))([Aa]n?)(\s+)$")
_OPENERS = " \t\n\"'“‘([{*-–—•"
_POSSESSIVE_END = re.compile(r"['’]s\s*$")
#: A fill that starts with a verb, and an "of" right after the slot that only a noun could take.
_VERB_START = re.compile(r"(?:that |who |which )?(?:is|was|are|were|has|had|\w+ed|\w+s)\b")
_STRAY_OF = re.compile(r" of(?= )")
_STRAY_FOR = re.compile(r" for(?= )")
_BLANKS = re.compile(r" *")
#: Adverbs right before a slot (:data:`relguard.wordlist.LOOSE_ADVERBS`), and a fill that opens with an auxiliary:
#: the adverbs go after it.
_ADVERBS_BEFORE = re.compile(rf"(?<=\s)(?:(?:{LOOSE_ADVERB_PATTERN})\s+)+$")
_AUXILIARY = re.compile(r"(?:is|was|are|were)(?= )")  # not "has": "He also has its copyright held by"


def assemble(masked: MaskedDocument, start: int, end: int, texts: Mapping[int, str]) -> tuple[str, list[tuple]]:
    """The masked text ``start:end`` with every slot inside it replaced by its words, seams mended; and where
    each fill landed (offsets into the returned string)."""
    out = ""
    ranges: list[tuple[int, int]] = []
    cursor = start
    comma_fills = {
        slot.start for n, slot in enumerate(masked.slots) if start <= slot.start < end and texts.get(n, "")[:1] == ","
    }
    bounds = {s: e for s, e in masked.sentences}
    sentence_starts = sorted(bounds)
    for number, slot in enumerate(masked.slots):
        if slot.start < start or slot.end > end or number not in texts:
            continue
        out += masked.text[cursor : slot.start]
        words = texts[number]
        closing = words.endswith(CLOSE)
        words = words.removesuffix(CLOSE)
        after = masked.text[slot.end : min(end, slot.end + 2)]
        opening = _opens_sentence(masked.text, sentence_starts, slot.start)
        out, words = mend(out, words, after, opening)
        cursor_skip = stray_of(words, masked.text, slot.end) or stray_after_connector(words, masked.text, slot.end)
        if words[-1:].isalpha() and _bare_the_name(masked, slot.end):
            words += " the"  # "Maryland[, which borders] the United States"
        ranges.append((len(out), len(out) + len(words)))
        out += words
        cursor = slot.end + cursor_skip
        if out.rstrip().endswith(",") and masked.text[cursor : cursor + 1] == ",":
            cursor += 1  # a fill or an empty slot between two commas leaves one: "outlasted, and", not ",,"
        if not words and out.endswith(" ") and masked.text[cursor : cursor + 1] in (" ", ",", ".", ";", ":"):
            out = out[:-1]
        if not words and out.endswith("(") and masked.text[cursor : cursor + 1] == " ":
            cursor += 1  # "([REL] 18 September 1950)" with nothing in the slot: "(18 September 1950)"
        if closing:
            name = next((b for a, b, _ in masked.mentions if a >= cursor), None)
            if name is not None and name <= end and not _closed_at(masked, name, comma_fills):
                out += masked.text[cursor:name] + ","
                cursor = name
    out += masked.text[cursor:end]
    return out, ranges


def _closed_at(masked: MaskedDocument, position: int, comma_fills: set[int]) -> bool:
    """Whether the text after ``position`` closes a clause already: a closing mark, a slot glued there, or a slot
    whose words open with a comma of their own (``comma_fills``, slot starts: "Library[, which overlooked]")."""
    if masked.text[position : position + 1] in CLOSING | {"["}:
        return True
    return _BLANKS.match(masked.text, position).end() in comma_fills


def _bare_the_name(masked: MaskedDocument, end: int) -> bool:
    """Whether a name that takes "the" ("United States", "UK") starts right after ``end`` with none before it."""
    found = mention_at(masked, _BLANKS.match(masked.text, end).end())
    return found is not None and takes_the(masked.text[found[0] : found[1]])


def stray_of(words: str, text: str, end: int) -> int:
    """How many characters of " of" after a slot ending at ``end`` the seam drops: a fill that starts with a verb
    takes no "of" after it, which only the noun it replaced could ("fired [of] Ibsen's works"); else 0."""
    found = _STRAY_OF.match(text, end)
    return found.end() - end if words and found and _VERB_START.match(words.lstrip(", ")) else 0


def stray_after_connector(words: str, text: str, end: int) -> int:
    """How many characters of " for" after a slot the seam drops after the connector "associated with" ("He was
    [associated with] [for] many other series"), which :func:`relguard.rewrite.neutral.connected_words` leaves
    there for a verb "mentioned" does not read after; else 0."""
    found = _STRAY_FOR.match(text, end)
    return found.end() - end if found and words.endswith(CONNECTOR) else 0


def mend(before: str, words: str, after: str, opening: bool) -> tuple[str, str]:
    """The seam between the text before a slot, its words and the text after (module docstring)."""
    if not words:
        return before, words
    if words.startswith("-"):
        before = _POSSESSIVE_END.sub("", before).rstrip(" ")  # "Acme's [-owned] Beats" → "Acme-owned Beats"
        return before, words[1:] if before.endswith(("-", "–")) else words
    adverbs, auxiliary = _ADVERBS_BEFORE.search(before), _AUXILIARY.match(words)
    if adverbs and auxiliary:  # "Alice [also] [is named after]" reads "Alice is also named after"
        before = before[: adverbs.start()]
        words = f"{auxiliary.group()} {adverbs.group().strip()}{words[auxiliary.end() :]}"
    if words.startswith(","):
        before = before.rstrip(" ")
        if before.endswith(","):  # "(21 April 1978, [REL] Brescia)" takes no second comma
            words = words[1:].lstrip(" ")
            if not words:
                return before, words
            words = " " + words
    elif before and (before[-1].isalnum() or _closes(before)) and words[0].isalnum():
        words = " " + words  # "(born in 1950) [founded]": a strict-mode stretch starts right after a bracket
    if after and words[-1].isalnum() and (after[0].isalnum() or after[0] in '(["“'):
        words += " "
    if opening and words[0].isalpha():
        words = words[0].upper() + words[1:]
    found = _ARTICLE.search(before)
    if found and words.strip()[:1].isalpha():
        article = indefinite_article(words.strip().split(" ", 1)[0].strip(",-"))
        article = article if found.group(1).islower() else article.capitalize()
        before = before[: found.start(1)] + article + found.group(2)
    return before, words


def _closes(before: str) -> bool:
    """Whether ``before`` ends with a closing bracket or quote glued to the word before it ("BC)", 'Vaadanam"')."""
    last = before[-1]
    return last in ")]}”" or (last == '"' and len(before) > 1 and not before[-2].isspace())


def _opens_sentence(text: str, sentence_starts: Sequence[int], position: int) -> bool:
    start = max((s for s in sentence_starts if s <= position), default=0)
    return not text[start:position].strip(_OPENERS)


def trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """A fill's range without the blanks and commas the seam put around its words (a later seam may take a
    blank the range still counts, so the range is read against the finished piece)."""
    end = min(end, len(text))
    while start < end and text[start] in " ,\t":
        start += 1
    while end > start and text[end - 1] in " ,\t":
        end -= 1
    return start, end
