"""Tags of masked sentences, for the frame reader: placeholders blanked, so a tag never depends on a group number.

The frames of :mod:`relguard.rewrite.frames` and the read-back of :mod:`relguard.rewrite.guard` tag with the same
cached spaCy pipeline, through its tok2vec and tagger only: parser and NER are not needed for a tag, and the
attribute ruler sets a tag on whitespace tokens alone, which are left out here (it would double the time).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.language import Language

PLACEHOLDER = re.compile(r"\[REL_\d+\]")
#: The components a tag needs.
TAGGING = ("tok2vec", "tagger")


@dataclass(frozen=True)
class Tagged:
    """The tags of one masked sentence with its placeholders taken out: (start, end, text, tag) per token, with
    offsets into the masked sentence."""

    tokens: tuple[tuple[int, int, str, str], ...]


@functools.cache
def tagger(model: str = "en_core_web_sm") -> Language:
    """The spaCy pipeline that tags masked sentences (parser and NER are not needed for a tag)."""
    from relguard.extract.spacy.model import load_pipeline

    return load_pipeline(model)


_TAG_CACHE: dict[str, tuple[tuple[int, int, str, str], ...]] = {}
_TAG_CACHE_SIZE = 100_000


def tag_sentences(texts: Sequence[str], nlp: Language | None = None) -> list[Tagged]:
    """Tags of each masked sentence, its placeholders replaced by one space before tagging (so the tags never
    depend on which group a placeholder names), cached by that text; offsets point into each given text."""
    nlp = nlp or tagger()
    stripped = [_strip(t) for t in texts]
    missing = list(dict.fromkeys(body for body, _ in stripped if body not in _TAG_CACHE))
    if missing:
        if len(_TAG_CACHE) + len(missing) > _TAG_CACHE_SIZE:
            _TAG_CACHE.clear()
        disabled = [p for p in nlp.pipe_names if p not in TAGGING]
        for body, doc in zip(missing, nlp.pipe(missing, disable=disabled, batch_size=256), strict=True):
            _TAG_CACHE[body] = tuple((t.idx, t.idx + len(t.text), t.text, t.tag_) for t in doc if not t.is_space)
    return [
        Tagged(tuple((offsets[a], offsets[b], word, tag) for a, b, word, tag in _TAG_CACHE[body]))
        for body, offsets in stripped
    ]


def _strip(text: str) -> tuple[str, list[int]]:
    """``text`` with every placeholder replaced by one space, and the map from its offsets back into ``text``."""
    body, offsets, cursor = [], [], 0
    for found in PLACEHOLDER.finditer(text):
        for i in range(cursor, found.start()):
            body.append(text[i])
            offsets.append(i)
        body.append(" ")
        offsets.append(found.start())
        cursor = found.end()
    for i in range(cursor, len(text)):
        body.append(text[i])
        offsets.append(i)
    offsets.append(len(text))
    return "".join(body), offsets


def hidden_tokens(tagged: Tagged) -> frozenset[int]:
    """Starts of tokens inside parentheses or double quotes: a title's or an aside's verbs are not the clause's."""
    hidden, depth, quoted = set(), 0, False
    for start, _, word, _ in tagged.tokens:
        if word == "(":
            depth += 1
        elif word == ")":
            depth = max(0, depth - 1)
        elif word in ('"', "“", "”"):
            quoted = not quoted if word == '"' else word == "“"
        elif depth or quoted:
            hidden.add(start)
    return frozenset(hidden)
