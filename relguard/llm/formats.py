"""JSON schemas for the replies, and how each kind of server is asked to enforce them while decoding.

A small local model follows a shape far better when the server constrains decoding to it: a reply cannot be
malformed, nor name an endpoint outside the entity list (docs/local-llm.md has the runs). Servers spell that
request differently, so :func:`response_format` maps one schema to the server's dialect:

* ``schema`` — ``{"type": "json_object", "schema": …}``: llama-cpp-python and llama.cpp's own server (a
  ``json_schema`` request answers HTTP 500 on llama-cpp-python 0.3.36); Ollama and vLLM accept it too (Ollama
  falls back to plain JSON mode, vLLM ignores the extra key);
* ``json_schema`` — ``{"type": "json_schema", "json_schema": {"name": …, "schema": …}}``: vLLM, Ollama ≥ 0.5 and
  other servers with structured outputs;
* ``json_object`` — plain JSON mode (OpenAI and most hosted APIs, which reject an unknown ``schema`` key);
* ``none`` — no ``response_format`` at all (servers without JSON mode).

``auto`` picks ``schema`` for a server on this machine and ``json_object`` for everything else.

Names that go into an ``enum`` are made grammar-safe first (:func:`safe_name`): llama-cpp-python's schema-to-grammar
converter escapes a ``"`` inside an enum value wrongly, and the server process dies on that request.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import Any

from relguard.llm import endpoint
from relguard.types import NER_TYPES

STRUCTURED_MODES = ("auto", "schema", "json_schema", "json_object", "none")
#: Pool predicates as the compact schema lets a model write them: one to four lower-case words.
POOL_PATTERN = "^[a-z]+(_[a-z]+){0,3}$"


def safe_name(name: str) -> str:
    """A name that survives every server's schema-to-grammar step: no ``"``, ``\\`` or control characters.

    The prompt shows the same safe spelling, so the model copies it; the backend maps it back to the original.
    """
    cleaned = "".join(" " if unicodedata.category(c).startswith("C") else c for c in name)
    return " ".join(cleaned.replace('"', "'").replace("\\", "").split())


def resolve_mode(structured: str, base_url: str | None) -> str:
    """The concrete mode for ``structured`` (``auto`` decided by where the server runs)."""
    if structured != "auto":
        return structured
    return "schema" if endpoint.is_local(base_url) else "json_object"


def response_format(mode: str, schema: dict[str, Any] | None, *, name: str = "reply") -> dict[str, Any] | None:
    """The ``response_format`` field for a concrete ``mode``; without a schema JSON mode is asked for."""
    if mode == "none":
        return None
    if schema is None or mode == "json_object":
        return {"type": "json_object"}
    if mode == "json_schema":
        return {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}
    return {"type": "json_object", "schema": schema}


def _names_or_string(names: Sequence[str]) -> dict[str, Any]:
    return {"enum": list(dict.fromkeys(names))} if names else {"type": "string"}


def max_triples(lines: Sequence[str]) -> int:
    """How many triples a window may return: about one per 40 characters, 16 to 80 (a second stop after tokens)."""
    return max(16, min(80, sum(map(len, lines)) // 40))


def triples_schema(names: Sequence[str], *, max_items: int) -> dict[str, Any]:
    """Compact triples ``{"triples": [[subject, relation, object], …]}``, endpoints from the entity list."""
    endpoint = _names_or_string(names)
    triple = {"type": "array", "prefixItems": [endpoint, {"type": "string"}, endpoint]}
    return {
        "type": "object",
        "properties": {"triples": {"type": "array", "items": triple, "maxItems": max_items}},
        "required": ["triples"],
    }


def paper_schema(*, max_items: int) -> dict[str, Any]:
    """Fig. 4's JSON shape with every key required (occurrences included, which small models leave out)."""
    occurrence = {
        "type": "object",
        "properties": {"sentence": {"type": "integer"}, "predicate": {"type": "string"}},
        "required": ["sentence", "predicate"],
    }
    triple = {
        "type": "object",
        "properties": {
            "subject": {"type": "string"},
            "relation": {"type": "string"},
            "object": {"type": "string"},
            "occurrences": {"type": "array", "items": occurrence, "minItems": 1, "maxItems": 8},
        },
        "required": ["subject", "relation", "object", "occurrences"],
    }
    entity = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    return {
        "type": "object",
        "properties": {
            "entities": {"type": "array", "items": entity, "maxItems": 2 * max_items},
            "triples": {"type": "array", "items": triple, "maxItems": max_items},
        },
        "required": ["entities", "triples"],
    }


def typing_schema(names: Sequence[str]) -> dict[str, Any]:
    """``{"types": {name: TYPE}}`` with every given name once, in order, the type from the inventory or ``NONE``."""
    kinds = {"enum": [*NER_TYPES, "NONE"]}
    unique = list(dict.fromkeys(names))
    types = {"type": "object", "properties": dict.fromkeys(unique, kinds), "required": unique}
    return {"type": "object", "properties": {"types": types}, "required": ["types"]}


def pool_schema(k: int) -> dict[str, Any]:
    """Exactly K short snake_case strings (a grammar cannot say "distinct": the backend checks that)."""
    pool = {"type": "array", "items": {"type": "string", "pattern": POOL_PATTERN}, "minItems": k, "maxItems": k}
    return {"type": "object", "properties": {"relation_pool": pool}, "required": ["relation_pool"]}
