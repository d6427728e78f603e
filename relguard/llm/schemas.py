"""Whole-reply validation with pydantic, and :class:`InvalidReply`, the reason a reply is sent back to the model.

A reply that is not JSON, or not of the shape below, raises :class:`InvalidReply` with a short reason that
is sent back to the model once (``prompts.JSON_REMINDER``) and counted. Replies made of many items (triples,
types, pools) are read item by item instead (:mod:`relguard.llm.replies`), so one bad item costs only itself.
Content checks that need the document (does the span occur in its sentence?) happen in the backends, not here.
"""

from __future__ import annotations

import json
import re
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

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
