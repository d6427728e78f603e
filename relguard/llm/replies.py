"""Reading model replies item by item, so one bad item or a reply cut off at ``max_tokens`` costs only itself.

Validating a whole reply as one object threw away everything a small model said when a single triple lacked a
key (Qwen2.5-Coder-1.5B on the first Re-DocRED document: "triples.2.object: Field required", twice, and the run
stopped). Here every item is checked on its own: the items that validate are kept, the others are counted in
``malformed`` and dropped, and a reply truncated mid-array keeps every item that was complete. Only a reply with
nothing to read (not JSON, no array where one belongs) raises :class:`InvalidReply`, which the client shows to the
model once (``prompts.JSON_REMINDER``).

Nothing here knows the document: whether a span occurs in its sentence is the extractor's check.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from relguard.llm.schemas import InvalidReply

_FENCE_OPEN = re.compile(r"^\s*```[A-Za-z]*\s*\n?")
_FENCE_CLOSE = re.compile(r"\n?\s*```\s*$")
_DECODER = json.JSONDecoder()


@dataclass(frozen=True)
class RawOccurrence:
    """A sentence number (1-based, as printed) and the substring the model says expresses the relation."""

    sentence: int
    predicate: str


@dataclass(frozen=True)
class RawTriple:
    """One triple as the model wrote it; ``occurrences`` is None when the prompt set has the backend find them."""

    subject: str
    relation: str
    object: str
    occurrences: tuple[RawOccurrence, ...] | None = None


@dataclass(frozen=True)
class TriplesReply:
    """The usable part of an extraction reply, and how much of it was not usable."""

    entities: tuple[str, ...] = ()
    triples: tuple[RawTriple, ...] = ()
    malformed: int = 0
    truncated: bool = False


def _body(text: str | None) -> str:
    if not text or not text.strip():
        raise InvalidReply("the reply was empty")
    return _FENCE_CLOSE.sub("", _FENCE_OPEN.sub("", text.strip()))


def _load(body: str) -> tuple[Any, bool]:
    """(data, True) for complete JSON, (None, False) otherwise."""
    try:
        return json.loads(body), True
    except json.JSONDecodeError:
        return None, False


def _salvage(body: str, key: str | None) -> list[Any] | None:
    """The complete items of the array under ``key`` (or the top-level array) in a cut-off JSON text."""
    if key is None:
        start = body.find("[")
        if start < 0 or body[:start].strip():
            return None
        position = start + 1
    else:
        match = re.search(r'"' + re.escape(key) + r'"\s*:\s*\[', body)
        if match is None:
            return None
        position = match.end()
    items: list[Any] = []
    while True:
        while position < len(body) and body[position] in " \t\r\n,":
            position += 1
        if position >= len(body) or body[position] == "]":
            return items
        try:
            item, position = _DECODER.raw_decode(body, position)
        except json.JSONDecodeError:
            return items
        items.append(item)


def _array(body: str, key: str, *, bare: bool) -> tuple[list[Any], bool]:
    """The list under ``key`` (or a bare top-level list when ``bare``) and whether the JSON was cut off."""
    data, complete = _load(body)
    if complete:
        if isinstance(data, dict) and isinstance(data.get(key), list):
            return data[key], False
        if bare and isinstance(data, list):
            return data, False
        if isinstance(data, dict):
            found = f"keys {sorted(data)[:5]}" if data else "an empty object"
            raise InvalidReply(f"no {key!r} array in the reply (got {found})")
        raise InvalidReply(f"expected a JSON object with {key!r}, got {type(data).__name__}")
    items = _salvage(body, key)
    if items is None and bare:
        items = _salvage(body, None)
    if items is None:
        try:
            json.loads(body)
        except json.JSONDecodeError as exc:
            raise InvalidReply(f"not JSON: {exc.msg} at character {exc.pos}") from exc
    return items or [], True


def _text(value: Any) -> str | None:
    return " ".join(value.split()) if isinstance(value, str) and value.strip() else None


def _triple(item: Any) -> RawTriple | None:
    if isinstance(item, list) and len(item) == 3:
        parts = [_text(v) for v in item]
    elif isinstance(item, dict):
        parts = [_text(item.get(k)) for k in ("subject", "relation", "object")]
    else:
        return None
    if any(p is None for p in parts):
        return None
    return RawTriple(parts[0], parts[1], parts[2])


def read_compact(text: str | None) -> TriplesReply:
    """``{"triples": [[subject, relation, object], …]}`` (a bare array, or objects with those keys, also read)."""
    items, truncated = _array(_body(text), "triples", bare=True)
    triples = [_triple(item) for item in items]
    kept = tuple(t for t in triples if t is not None)
    return TriplesReply((), kept, malformed=len(triples) - len(kept), truncated=truncated)


def _occurrence(item: Any) -> RawOccurrence | None:
    if not isinstance(item, dict) or not isinstance(item.get("predicate"), str):
        return None
    number = item.get("sentence")
    if isinstance(number, str) and number.strip().isdigit():
        number = int(number)
    if isinstance(number, bool) or not isinstance(number, int):
        return None
    return RawOccurrence(number, item["predicate"])


def read_paper(text: str | None) -> TriplesReply:
    """Fig. 4's ``{"entities": [{"name"}], "triples": [{subject, relation, object, occurrences}]}``."""
    body = _body(text)
    items, truncated = _array(body, "triples", bare=False)
    data, complete = _load(body)
    raw_entities = data.get("entities") if complete and isinstance(data, dict) else _salvage(body, "entities")
    entities = []
    malformed = 0
    for entity in raw_entities if isinstance(raw_entities, list) else ():
        name = _text(entity.get("name") if isinstance(entity, dict) else entity)
        if name is None:
            malformed += 1
        else:
            entities.append(name)
    triples = []
    for item in items:
        triple = _triple(item)
        if triple is None:
            malformed += 1
            continue
        listed = item.get("occurrences") if isinstance(item, dict) else None
        occurrences = [_occurrence(o) for o in listed] if isinstance(listed, list) else []
        malformed += sum(o is None for o in occurrences)
        kept = tuple(o for o in occurrences if o is not None)
        triples.append(RawTriple(triple.subject, triple.relation, triple.object, kept))
    return TriplesReply(tuple(entities), tuple(triples), malformed=malformed, truncated=truncated)


def read_types(text: str | None) -> tuple[dict[str, str], int]:
    """``{"types": {name: type}}`` (or a list of ``{"name", "type"}``) as name → type, and the unusable items."""
    body = _body(text)
    data, complete = _load(body)
    mapping = data.get("types") if complete and isinstance(data, dict) else None
    if isinstance(mapping, dict):
        items: list[Any] = [{"name": k, "type": v} for k, v in mapping.items()]
    elif not complete and re.search(r'"types"\s*:\s*\{', body):
        items = [{"name": k, "type": v} for k, v in re.findall(r'"([^"\\]+)"\s*:\s*"([A-Za-z_ -]+)"', body)]
    else:
        items, _ = _array(body, "types", bare=True)
    types: dict[str, str] = {}
    for item in items:
        if isinstance(item, dict) and _text(item.get("name")) and _text(item.get("type")):
            types.setdefault(_text(item["name"]), _text(item["type"]))
    if not types:
        raise InvalidReply("types is empty")
    return types, len(items) - len(types)


def read_pool(text: str | None) -> list[Any]:
    """``{"relation_pool": […]}`` (or a bare array): the items as written, checked one by one by the backend."""
    items, _ = _array(_body(text), "relation_pool", bare=True)
    if not items:
        raise InvalidReply("relation_pool is empty")
    return items


def count(replies: Iterable[TriplesReply]) -> dict[str, int]:
    """Malformed items and truncated replies over several replies (gleaning rounds)."""
    replies = list(replies)
    return {"malformed_item": sum(r.malformed for r in replies), "truncated_reply": sum(r.truncated for r in replies)}
