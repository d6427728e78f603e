"""JSON shapes the LLM must return, validated with pydantic before anything in them is used.

A reply that is not JSON, or not of the shape below, raises :class:`InvalidReply` with a short reason that
is sent back to the model once (``prompts.JSON_REMINDER``) and counted. Content checks that need the
document (does the span occur in its sentence?) happen in the backends, not here.
"""

from __future__ import annotations

import json
import re
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError, field_validator

T = TypeVar("T", bound=BaseModel)

_FENCE = re.compile(r"^\s*```(?:json|JSON)?\s*\n?(.*?)\n?\s*```\s*$", re.DOTALL)


class InvalidReply(ValueError):
    """The reply cannot be used as it is; ``problem`` says why in a few words."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


class _Lenient(BaseModel):
    """Extra keys are ignored (models add them); missing or mistyped required keys are errors."""

    model_config = ConfigDict(extra="ignore")


class EntityItem(_Lenient):
    name: str = Field(min_length=1)


class OccurrenceItem(_Lenient):
    sentence: StrictInt
    predicate: str


class TripleItem(_Lenient):
    subject: str
    relation: str
    object: str
    occurrences: list[OccurrenceItem] = Field(default_factory=list)


class ExtractionReply(_Lenient):
    entities: list[EntityItem] = Field(default_factory=list)
    triples: list[TripleItem] = Field(default_factory=list)


class TypedName(_Lenient):
    name: str
    type: str


class TypingReply(_Lenient):
    types: list[TypedName]


class PoolReply(_Lenient):
    relation_pool: list[str]

    @field_validator("relation_pool")
    @classmethod
    def _not_empty(cls, value: list[str]) -> list[str]:
        if not value:
            raise ValueError("relation_pool is empty")
        return value


class FormsReply(_Lenient):
    clause: str = Field(min_length=1, max_length=80)
    noun: str | None = Field(default=None, max_length=40)


def parse(text: str | None, model: type[T]) -> T:
    """Parse ``text`` (optionally inside a Markdown code fence) as JSON of ``model``'s shape."""
    if not text or not text.strip():
        raise InvalidReply("the reply was empty")
    match = _FENCE.match(text)
    body = match.group(1) if match else text.strip()
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        raise InvalidReply(f"not JSON: {exc.msg} at character {exc.pos}") from exc
    if not isinstance(data, dict):
        raise InvalidReply(f"expected a JSON object, got {type(data).__name__}")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "reply"
        raise InvalidReply(f"{where}: {first['msg']}") from exc
