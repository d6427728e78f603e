"""Deciding when a prediction names the same entity and the same relation as the truth.

Entities: the attacker knows the entity set (App. E maps aliases to canonical
names), so every name goes through :class:`EntityResolver`, which folds case,
leading articles and punctuation and maps known mentions to their canonical name.

Relations: offline, :class:`EncoderRelationMatcher` accepts a predicted predicate
when it equals the true one or lies within d_R ≤ ``threshold`` of it under the
same typed template RelGuard uses for its pools. The threshold is calibrated on
:data:`CALIBRATION_PAIRS`, a small hand-labelled set of synonym and distinct
predicate pairs (:func:`calibrate_threshold`). A symmetric distance cannot tell
"broader and entailed" from "narrower" (App. E accepts spouse → family member but
not the reverse); this matcher treats both alike, which the docs say.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from relguard.embed import load_encoder
from relguard.evaluation.metrics import Fact
from relguard.privacy.closeness import (
    default_threshold,
)
from relguard.settings import DEFAULT_ENCODER
from relguard.types import TypePair

_ARTICLE = re.compile(r"^(the|a|an)\s+")
_EDGE_PUNCT = re.compile(r"^[\W_]+|[\W_]+$")


def normalize_name(name: str) -> str:
    """Case- and punctuation-insensitive form of an entity name ("The Beatles," → "beatles"; "Løv - Ham" →
    "løv-ham", as tokenised text spaces hyphens and apostrophes that names write closed up)."""
    text = unicodedata.normalize("NFKC", name).casefold().strip()
    text = re.sub(r"\s*([-–/’'])\s*", r"\1", text)  # "Three - Self", "People 's": tokenised spacing
    text = re.sub(r"['’]s$", "", text)
    text = _ARTICLE.sub("", text)
    text = _EDGE_PUNCT.sub("", text)
    return " ".join(text.split())


class EntityResolver:
    """Maps any mention of a known entity to its canonical name; unknown names stay themselves."""

    def __init__(self, aliases: Mapping[str, str] | None = None) -> None:
        self._table: dict[str, str] = {}
        for alias, canonical in (aliases or {}).items():
            self.add(alias, canonical)

    def add(self, alias: str, canonical: str) -> None:
        key = normalize_name(alias)
        if key:
            self._table.setdefault(key, canonical)

    def __call__(self, name: str) -> str:
        return self._table.get(normalize_name(name), name)

    def knows(self, name: str) -> bool:
        return normalize_name(name) in self._table

    def resolve(self, facts: Iterable[Fact]) -> list[Fact]:
        return [Fact(self(f.subject), f.predicate, self(f.object), f.type_pair) for f in facts]


def resolver_from_extraction(extraction: Any) -> EntityResolver:
    """Aliases the attacker is assumed to know: every canonical entity name and its mentions."""
    resolver = EntityResolver()
    for document in extraction.documents:
        for entity in document.entities:
            resolver.add(entity.name, entity.name)
    for document in extraction.documents:
        for entity in document.entities:
            for mention in entity.mentions:
                resolver.add(mention.text, entity.name)
    return resolver


class EncoderRelationMatcher:
    """Same relation when the predicates are equal or within d_R ≤ threshold under the true type pair."""

    def __init__(self, encoder: Any, *, threshold: float) -> None:
        self.encoder = encoder
        self.threshold = float(threshold)
        self._memo: dict[tuple[str, str, TypePair], bool] = {}

    def __call__(self, true: Fact, predicted: Fact) -> bool:
        if predicted.predicate is None or true.predicate is None:
            return False
        if predicted.predicate == true.predicate:
            return True
        key = (true.predicate, predicted.predicate, true.type_pair)
        if key not in self._memo:
            d = float(self.encoder.distances([true.predicate], [predicted.predicate], true.type_pair)[0, 0])
            self._memo[key] = d <= self.threshold
        return self._memo[key]


def default_matcher(model: str = DEFAULT_ENCODER) -> EncoderRelationMatcher:

    return EncoderRelationMatcher(load_encoder(model), threshold=default_threshold(model))
