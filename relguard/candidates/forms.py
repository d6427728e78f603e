"""How a predicate reads when its backend has no wording for it: its own words, no role noun."""

from __future__ import annotations

from relguard.types import TypePair


def default_forms(predicate: str, type_pair: TypePair | None = None) -> dict[str, str | None]:
    """A predicate read as its own words ("works_for" -> "works for"), with no role noun."""
    return {"clause": predicate.replace("_", " "), "noun": None}
