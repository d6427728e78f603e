"""Is a rewritten sentence English? Eight detectors of the ways a filled slot breaks a sentence.

Each detector reads one :class:`Rewritten` sentence — the original, where its relation slots were, the released
sentence and where the fills landed — with a spaCy parse of the released sentence, and says whether the
sentence shows its pattern. They are deliberately narrow and independent of how RelGuard builds its fills
(they read only the text), so they can judge any rewriting, a baseline's or an LLM verbalizer's:

1. ``noun_slot_verb`` — a verb phrase where the frame wants a noun (after an article, adjective, number);
2. ``repeated_predicate`` — one wording printed twice, or a three-word run the original did not repeat;
3. ``wrong_frame`` — a finite fill right after a finite verb or a preposition, or the sentence lost its verb;
4. ``slot_inside_name`` — the slot cut into a quoted title or a run of capitalized name words;
5. ``after_possessive`` — a fill after "'s"/"his"/"its" that does not start with a noun or adjective;
6. ``sentence_start`` — the released sentence starts in lower case;
7. ``address_comma`` — the comma of "Dublin, Ohio" turned into a clause that is never closed;
8. ``list_or_glued`` — a fill glued to a neighbouring word or number, or a list separator rewritten.

A sentence is *broken* when any detector fires. The detectors are a floor, not a judge: a sentence can be
wrong in ways none of them sees, which is why ``bench/fluency.py`` also writes sentences out for reading.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from relguard.extract.spacy import lexicon as lex
from relguard.rewrite.sentences import Rewritten

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc, Token

Span = tuple[int, int]

_FINITE_TAGS = frozenset({"VBD", "VBZ", "VBP", "MD"})
_COPULAS = frozenset({"is", "was", "are", "were", "has", "had", "have", "does", "did"})
_NOUN_SLOT_BEFORE = frozenset({"DT", "JJ", "JJR", "JJS", "PRP$", "POS", "CD"})
_POSSESSIVES = frozenset({"his", "her", "its", "their", "my", "our", "your"})
_RELATIVES = frozenset({"that", "who", "which", "whom", "whose"})
_LIST_SEPARATORS = frozenset({",", "and", ", and", "or", ", or", "&", ";"})
_TITLE_WORD = re.compile(r"\b[A-Z][a-z]+\b")


def _tokens_in(doc: Doc, span: Span) -> list[Token]:
    return [t for t in doc if span[0] <= t.idx < span[1]]


def _before(doc: Doc, span: Span) -> Token | None:
    found = [t for t in doc if t.idx + len(t.text) <= span[0] and not t.is_space]
    return found[-1] if found else None


def _finite(token: Token) -> bool:
    return token.tag_ in _FINITE_TAGS or token.lower_ in _COPULAS


def _verbal_start(doc: Doc, span: Span) -> bool:
    words = _tokens_in(doc, span)
    return bool(words) and (_finite(words[0]) or words[0].tag_ == "VBN") and words[0].lower_ not in _RELATIVES


def noun_slot_verb(r: Rewritten, doc: Doc) -> bool:
    for fill in r.fills:
        before = _before(doc, fill)
        if fill[1] > fill[0] and before is not None and before.tag_ in _NOUN_SLOT_BEFORE:
            if before.lower_ in _POSSESSIVES or before.tag_ == "POS":
                continue  # the possessive detector's case
            if _verbal_start(doc, fill):
                return True
    return False


def repeated_predicate(r: Rewritten, doc: Doc) -> bool:
    texts = [r.released[a:b].strip(" ,").lower() for a, b in r.fills if b > a]
    texts = [t for t in texts if t]
    if len(texts) != len(set(texts)):
        return True
    in_fills = {run for text in texts for run in _runs(text)}
    return bool((_repeated_runs(r.released) - _repeated_runs(r.original)) & in_fills)


def _runs(text: str) -> list[tuple[str, ...]]:
    words = re.findall(r"[a-z]+", text.lower())
    return [tuple(words[i : i + 3]) for i in range(len(words) - 2)]


def _repeated_runs(text: str) -> set[tuple[str, ...]]:
    """Three-word runs that occur twice; only those a fill printed count (a name twice after two "of" fills,
    "member of New South Wales ... expansion of New South Wales", repeats no predicate)."""
    seen, twice = set(), set()
    for run in _runs(text):
        (twice if run in seen else seen).add(run)
    return twice


def _filled(r: Rewritten, doc: Doc) -> Iterator[tuple[Span, Token, list[Token]]]:
    """Each non-empty fill with the token before it and its own tokens (fills at a sentence's start left out)."""
    for fill in r.fills:
        if fill[1] == fill[0]:
            continue
        before = _before(doc, fill)
        words = _tokens_in(doc, fill)
        if before is not None and words:
            yield fill, before, words


def wrong_frame(r: Rewritten, doc: Doc) -> bool:
    for fill, before, words in _filled(r, doc):
        if _finite(words[0]) and words[0].lower_ not in _RELATIVES:
            if _finite(before) and before.idx + len(before.text) <= fill[0]:
                return True  # "was is located in"
            if before.pos_ == "ADP" and before.lower_ not in ("that",):
                return True  # "by is the founder of"
    return False


def lost_main_verb(original: Doc, released: Doc) -> bool:
    """The original sentence has a finite verb and the released one none (a separate check: it needs the
    original's parse)."""
    return any(_finite(t) and t.pos_ in ("VERB", "AUX") for t in original) and not any(
        _finite(t) and t.pos_ in ("VERB", "AUX") for t in released
    )


def slot_inside_name(r: Rewritten, doc: Doc) -> bool:
    for start, end in r.slots:
        text = r.original[start:end]
        if _quoted(r.original, start, end):
            return True
        words = [m for m in _TITLE_WORD.finditer(text) if m.group().lower() not in lex.ROLE_NOUNS]
        if any(start + m.start() > 0 for m in words):  # "Chairman of": a role, which spans take in
            return True
    return False


def _quoted(text: str, start: int, end: int) -> bool:
    """Whether ``start:end`` lies between an opening and a closing double quote of ``text``."""
    for quote_open, quote_close in (('"', '"'), ("“", "”")):
        if quote_open == quote_close:
            opened = text[:start].count(quote_open) % 2 == 1
            closes = quote_close in text[end:]
        else:
            opened = text[:start].rfind(quote_open) > text[:start].rfind(quote_close)
            closes = quote_close in text[end:]
        if opened and closes:
            return True
    return False


def after_possessive(r: Rewritten, doc: Doc) -> bool:
    for _fill, before, words in _filled(r, doc):
        possessive = before.tag_ == "POS" or (before.lower_ in _POSSESSIVES and before.tag_ == "PRP$")
        if possessive and words[0].pos_ not in ("NOUN", "PROPN", "ADJ", "NUM") and not words[0].text[:1].isupper():
            return True
    return False


def sentence_start(r: Rewritten, doc: Doc) -> bool:
    first = re.search(r"[^\W\d_]", r.released)
    return bool(first) and r.released[first.start()].islower() and not r.original.lstrip()[:1].islower()


_NAME_AFTER = re.compile(r"\s*(?:the\s+)?(?:[A-Z][\w.'’-]*)(?:\s+(?:of\s+|de\s+)?[A-Z][\w.'’-]*)*")


def address_comma(r: Rewritten, doc: Doc) -> bool:
    for (start, end), fill in zip(r.slots, r.fills, strict=False):
        if r.original[start:end].strip() != "," or fill[1] == fill[0]:
            continue
        written = r.released[fill[0] : fill[1]].strip().lower()
        if written in (",", ""):
            continue
        name = _NAME_AFTER.match(r.released, fill[1])
        after = r.released[name.end() :].lstrip() if name else ""
        opens = written.lstrip(", ").split(" ", 1)[0] in _RELATIVES or written.startswith(",")
        if opens and after and after[0] not in ",.;:)!?\"'”’":
            return True  # "Columbus, which borders Ohio is a city": the clause is never closed
    return False


def list_or_glued(r: Rewritten, doc: Doc) -> bool:
    text = r.released
    for start, end in r.fills:
        if end == start:
            continue
        if start > 0 and text[start - 1].isalnum() and text[start].isalnum():
            return True
        if end < len(text) and text[end - 1].isalnum() and text[end].isalnum():
            return True
    for (start, end), fill in zip(r.slots, r.fills, strict=False):
        original = " ".join(r.original[start:end].split())
        if original in _LIST_SEPARATORS and original != ",":
            written = " ".join(text[fill[0] : fill[1]].split())
            if written != original:
                return True
    return False


Detector = Callable[["Rewritten", "Doc"], bool]
DETECTORS: dict[str, Detector] = {
    "noun_slot_verb": noun_slot_verb,
    "repeated_predicate": repeated_predicate,
    "wrong_frame": wrong_frame,
    "slot_inside_name": slot_inside_name,
    "after_possessive": after_possessive,
    "sentence_start": sentence_start,
    "address_comma": address_comma,
    "list_or_glued": list_or_glued,
}


@dataclass(frozen=True)
class Verdict:
    """What the detectors found in one rewritten sentence (``patterns`` by name; empty when it reads fine)."""

    sentence: Rewritten
    patterns: tuple[str, ...]

    @property
    def broken(self) -> bool:
        return bool(self.patterns)


def judge(sentences: Sequence[Rewritten], nlp: Language) -> list[Verdict]:
    """Run every detector on every sentence, parsing originals and releases in one batch each."""
    released = list(nlp.pipe((s.released for s in sentences), batch_size=256))
    originals = list(nlp.pipe((s.original for s in sentences), batch_size=256))
    verdicts = []
    for sentence, doc, original in zip(sentences, released, originals, strict=True):
        found = [name for name, detector in DETECTORS.items() if detector(sentence, doc)]
        if "wrong_frame" not in found and lost_main_verb(original, doc):
            found.append("wrong_frame")
        verdicts.append(Verdict(sentence, tuple(found)))
    return verdicts


def tally(verdicts: Iterable[Verdict]) -> dict[str, int]:
    """Sentences per pattern, and ``broken`` / ``sentences`` in all."""
    counts = {name: 0 for name in DETECTORS}
    total = broken = 0
    for verdict in verdicts:
        total += 1
        broken += verdict.broken
        for name in verdict.patterns:
            counts[name] += 1
    return {**counts, "broken": broken, "sentences": total}
