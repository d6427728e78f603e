"""The optional LLM verbalizer (the paper's step 4): a model words the sampled predicates into the masked sentence.

The model is given what is public and nothing else — the masked sentence (fenced as data it must never obey, like
every document text a prompt holds, :mod:`relguard.llm.fence`), its placeholders numbered, and for each
the sampled predicate with its public type pair and which name comes first — never the original relation, so
its words, like the offline forms', are a function of the masked text and the outcomes (DESIGN invariant 7); two
documents that differ only in relation wording send the same request and, from the cache at temperature 0, get the
same reply. What comes back is checked before it is used: one short phrase per placeholder, words only (no digits,
brackets or line breaks), the rest of the sentence untouched because only the phrases are taken. A sentence the
model cannot word, or words badly, keeps the offline fill; a sentence the offline forms cannot fill but the model
can is kept. The release's leak scan reads the result like any other fill.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

from relguard.llm.cache import JsonCache, key_of
from relguard.llm.client import LLMClient, LLMConfig, LLMError, Usage
from relguard.llm.fence import DATA_RULE, fenced
from relguard.llm.schemas import InvalidReply
from relguard.rewrite import frames as fr
from relguard.rewrite.placing import place_of
from relguard.rewrite.verbalize import IRREGULAR_PARTICIPLES, PREPOSITIONS, Ask, Forms, FormVerbalizer
from relguard.wordlist import words

PROMPT_VERSION = "verbalize-4"
PURPOSE = "verbalize"
#: Longest phrase accepted for one placeholder, in words; a longer one is a model rewriting the sentence.
MAX_WORDS = 8
_PHRASE = re.compile(r"^[A-Za-z][A-Za-z ,'’-]*$")
SYSTEM = (
    "You fill placeholders in one sentence. Each placeholder [1], [2], ... stands between names and must be "
    "replaced by a short phrase that states the relation given for it, in the direction given, so that the whole "
    "sentence reads as fluent, grammatical English. Use only the relation given; do not add facts, names, dates or "
    "numbers. Reply with JSON only: an object mapping each placeholder number to its phrase.\n" + DATA_RULE
)


def messages(sentence: str, asks: Sequence[Ask]) -> list[dict[str, str]]:
    """The request: the masked sentence with its placeholders numbered, as fenced data (it is a document's words,
    :mod:`relguard.llm.fence`), and each relation in words (public: the sampled predicate and its type pair)."""
    text, cursor, lines = "", 0, []
    for number, ask in enumerate(asks, 1):
        text += sentence[cursor : ask.start] + f"[{number}]"
        cursor = ask.end
        subject, obj = ask.type_pair
        order = "the object is named before it" if ask.place.inverted else "the subject is named before it"
        lines.append(f"[{number}]: {ask.predicate.replace('_', ' ')} ({subject} -> {obj}; {order})")
    text += sentence[cursor:]
    user = "Sentence:\n" + fenced(text, what="sentence") + "\n\nRelations:\n" + "\n".join(lines) + "\n\nJSON:"
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def parse(reply: str, count: int) -> list[str]:
    """The phrases of a reply, in placeholder order, or :class:`InvalidReply` naming what is wrong."""
    found = re.search(r"\{.*\}", reply, re.DOTALL)
    try:
        data = json.loads(found.group(0) if found else reply)
    except ValueError as exc:
        raise InvalidReply("the reply is not a JSON object") from exc
    if not isinstance(data, dict):
        raise InvalidReply("the reply is not a JSON object")
    phrases = []
    for number in range(1, count + 1):
        phrase = data.get(str(number), data.get(f"[{number}]"))
        if not isinstance(phrase, str) or not _PHRASE.match(phrase.strip()) or len(phrase.split()) > MAX_WORDS:
            raise InvalidReply(f"placeholder {number} needs a short phrase of words only")
        phrases.append(phrase.strip())
    return phrases


_AUXILIARIES = words("is are was were has have had will would can could may might must does do did")
_OPENS_MODIFIER = words("that who which whose where") | PREPOSITIONS | words("the a an")


def checked(sentence: str, asks: Sequence[Ask], phrases: list[str]) -> list[str]:
    """``phrases`` when each reads as relation words in its place: no capitalized word after its first (a name the
    model copied in: "seceded from Sri Lanka Sri Lanka"), not ending on the word the sentence goes on with ("born
    in London London"), and opening as its frame wants (the frame read from the masked sentence, as the offline
    fill's): a clause's verb needs a finite verb, not "composed by"; a modifier a relative pronoun, a participle or
    a preposition, not "is a member of"; else :class:`InvalidReply`."""
    for number, (ask, phrase) in enumerate(zip(asks, phrases, strict=True), 1):
        found = phrase.lower().split()
        if any(w[:1].isupper() for w in phrase.split()[1:]):
            raise InvalidReply(f"placeholder {number}: the phrase holds a name; give relation words only")
        following = re.match(r"\W*(\w+)", sentence[ask.end :])
        if found and following and found[-1] == following.group(1).lower():
            raise InvalidReply(f"placeholder {number}: the phrase repeats the word after it")
        if found and not _opens_as_frame_wants(found, ask.place.frame):
            raise InvalidReply(f"placeholder {number}: the phrase does not fit its place in the sentence")
    return phrases


def _opens_as_frame_wants(found: list[str], frame: str) -> bool:
    first, second = found[0], found[1] if len(found) > 1 else ""
    participle = first.endswith(("ed", "en")) or first in IRREGULAR_PARTICIPLES
    if frame == fr.FINITE:
        return (
            first in _AUXILIARIES
            or (first.endswith("s") and first not in PREPOSITIONS)
            or (participle and second not in ("by", "in", "as"))
        )
    if frame in (fr.MODIFIER, fr.COMMA):
        return first in _OPENS_MODIFIER or participle
    if frame == fr.NOUN:
        return first not in _AUXILIARIES and first not in _OPENS_MODIFIER - words("the a an") and not participle
    return True


class LLMVerbalizer(FormVerbalizer):
    """The offline forms, with whole sentences worded by a model where it words them well."""

    name = "llm"

    def __init__(
        self, forms: Forms, config: LLMConfig, *, cache: bool = True, cache_root: str | Path | None = None
    ) -> None:
        super().__init__(forms)
        self.config = config
        self.client = LLMClient(config)
        self.usage = Usage()
        self.declined = 0
        self._cache = JsonCache(cache_root, PURPOSE, enabled=cache)

    def rewrite_sentence(self, sentence: str, asks: Sequence[Ask]) -> list[str] | None:
        """One phrase per ask for ``sentence`` (placeholder offsets are into it), or None to keep the offline fill."""
        chat = messages(sentence, asks)
        cfg = self.config
        key = key_of(PURPOSE, PROMPT_VERSION, cfg.model, cfg.temperature, cfg.seed, chat)
        cached = self._cache.get(key)
        if cached is not None:
            return cached or None
        try:
            phrases = self.client.ask_json(
                chat,
                lambda reply: checked(sentence, asks, parse(reply, len(asks))),
                purpose=PURPOSE,
                usage=self.usage,
                max_tokens=200,
            )
        except LLMError:
            self.declined += 1
            phrases = []
        self._cache.put(key, phrases)
        return phrases or None

    def provenance(self) -> dict:
        """Public: the model and the prompt version; confidential: what the run spent (calls, tokens)."""
        spent = self.usage.snapshot().get(PURPOSE, {})
        return {
            "backend": self.name,
            "model": self.config.model,
            "prompt_versions": {PURPOSE: PROMPT_VERSION},
            **spent,
            "declined": self.declined,
        }


def worded_by_model(masked, outcomes, verbalize, frames, kept, texts: dict[int, str]) -> set[int]:
    """Sentences an LLM verbalizer words whole (``rewrite_sentence``): its phrases replace the offline fills.
    Sentences with an expression in parts keep the offline fill. Returns the sentences the model made fillable."""
    rescued: set[int] = set()
    by_sentence: dict[int, list[int]] = {}
    for number in kept:
        by_sentence.setdefault(masked.slots[number].sentence, []).append(number)
    for sentence, numbers in by_sentence.items():
        if any(masked.slots[n].role or masked.slots[n].head >= 0 for n in numbers) or any(
            s.head in numbers for s in masked.slots
        ):
            continue
        base, end = masked.sentences[sentence]
        asks = [
            Ask(
                masked.slots[n].start - base,
                masked.slots[n].end - base,
                outcomes[masked.slots[n].groups[0]].predicate,
                outcomes[masked.slots[n].groups[0]].type_pair,
                place_of(masked, n, frames[n], {}, set()),
            )
            for n in numbers
        ]
        phrases = verbalize.rewrite_sentence(masked.text[base:end], asks)
        if phrases is None:
            continue
        for n, phrase in zip(numbers, phrases, strict=True):
            texts[n] = phrase
        rescued.add(sentence)
    return rescued
