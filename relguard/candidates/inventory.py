"""The offline, public candidate inventory: K predicates per ordered entity-type pair.

The data lives in ``pools/<SUBJECT_TYPE>.json`` beside this module, one file
per subject type, curated by hand under the rules of paper §5.2: compatible
with the types in that direction, no synonyms, no predicate implying another,
no vague predicates. A type holds many kinds (LOC: rivers, mountains, regions;
ORG: companies, bands, clubs, schools; a work: films, songs, books), and one
pool serves every pair of its types, so a pool's first K hold predicates that
can be true of most kinds of its two types, commonest first: one only a river,
a government, a film or a song can hold ("flows through", "sanctioned",
"directed by", "sang") comes after them. At the ε a release uses the draw is
close to uniform over the K (a predicate's weight grows by at most e^(ε/2) with
its closeness to the original), so each of the K is printed about as often as
the original's own predicate: one that cannot be true of the pair's kinds is a
broken sentence about one draw in K, whatever the original said. Nothing in it
comes from any document, so the pools are public by construction (DESIGN
invariant 1).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from importlib import resources
from pathlib import Path

from relguard.candidates.forms import default_forms
from relguard.errors import PoolError
from relguard.io.digest import canonical_sha256
from relguard.kinds import coarse_type, pool_pair
from relguard.types import ENTITY_TYPES, CandidatePool, TypePair

VERSION = "2026.12-7"
BANNED = frozenset(
    {
        "related_to",
        "associated_with",
        "connected_to",
        "involves",
        "part_of",
        "is_a",
        "linked_to",
        "relates_to",
        "connected_with",
        "has",
        "about",
    }
)
SNAKE_CASE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")


def pair_key(pair: TypePair) -> str:
    return f"{pair[0]}|{pair[1]}"


def _load_folder(folder) -> tuple[dict[str, list[str]], dict[str, dict]]:
    """Pairs from every ``<SUBJECT>.json``; forms keyed by (subject type, predicate) and by predicate alone."""
    pairs: dict[str, list[str]] = {}
    forms: dict[str, dict] = {}
    for entry in sorted(folder.iterdir(), key=lambda p: p.name):
        if not entry.name.endswith(".json"):
            continue
        try:
            data = json.loads(entry.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise PoolError(f"candidate inventory file {entry.name} cannot be read: {exc}") from exc
        pairs.update(data.get("pairs", {}))
        subject = entry.name[: -len(".json")]
        for predicate, form in data.get("forms", {}).items():
            forms[f"{subject}|{predicate}"] = form
            forms.setdefault(predicate, form)
    return pairs, forms


def with_place_kinds(pairs: Mapping[str, list[str]]) -> dict[str, list[str]]:
    """Every pair the inventory lists, and for a pair with a kind of GPE (a city, a region, a country) that it does
    not list, the pool it reads (:func:`~relguard.kinds.pool_pair`: "CITY|PERSON" reads "GPE|PERSON"). A function
    of the type pairs alone, like every pool."""
    filled = dict(pairs)
    for subject in ENTITY_TYPES:
        for obj in ENTITY_TYPES:
            key, read = pair_key((subject, obj)), pair_key(pool_pair((subject, obj)))
            if key not in filled and read in pairs:
                filled[key] = list(pairs[read])
    return filled


def validate(pairs: Mapping[str, list[str]], *, where: str) -> None:
    """Refuse an inventory that breaks the pool rules a machine can check."""
    for subject in ENTITY_TYPES:
        for obj in ENTITY_TYPES:
            key = pair_key((subject, obj))
            predicates = pairs.get(key)
            if not isinstance(predicates, list) or not predicates:
                raise PoolError(f"{where}: no predicates for the type pair {subject}->{obj}")
            if len(set(predicates)) != len(predicates):
                raise PoolError(f"{where}: {subject}->{obj} lists a predicate twice")
            for predicate in predicates:
                if not isinstance(predicate, str) or not SNAKE_CASE.match(predicate):
                    raise PoolError(f"{where}: {subject}->{obj} has {predicate!r}, not lower-case snake_case")
                if predicate in BANNED:
                    raise PoolError(f"{where}: {subject}->{obj} has the vague predicate {predicate!r}")


class InventoryCandidates:
    """Pools from the bundled inventory (or another folder/file of the same format)."""

    name = "inventory"

    def __init__(self, path: str | Path | None = None) -> None:
        if path is None:
            folder = resources.files("relguard.candidates") / "pools"
            where = "bundled inventory"
            self._pairs, self._forms = _load_folder(folder)
        else:
            path = Path(path)
            where = str(path)
            if path.is_dir():
                self._pairs, self._forms = _load_folder(path)
            else:
                try:
                    data = json.loads(path.read_text(encoding="utf-8"))
                except (OSError, ValueError) as exc:
                    raise PoolError(f"{path}: not a readable JSON pool file ({exc})") from exc
                self._pairs, self._forms = dict(data.get("pairs", {})), dict(data.get("forms", {}))
        self._pairs = with_place_kinds(self._pairs)
        validate(self._pairs, where=where)
        self._inverse_nouns: dict[tuple[str, str | None, TypePair], str | None] = {}

    @property
    def version(self) -> str:
        return VERSION

    def available(self, type_pair: TypePair) -> int:
        return len(self._pairs[pair_key(checked_type_pair(type_pair))])

    def generate(self, type_pair: TypePair, k: int) -> CandidatePool:
        """The first ``k`` predicates for ``type_pair``: the only inputs are the type pair and K."""
        type_pair = checked_type_pair(type_pair)
        predicates = self._pairs[pair_key(type_pair)]
        k = checked_k(k)
        if k > len(predicates):
            raise PoolError(
                f"the inventory has {len(predicates)} candidates for {type_pair[0]}->{type_pair[1]}, "
                f"fewer than K={k}; choose K <= {len(predicates)} or use another candidate backend"
            )
        return CandidatePool(type_pair, tuple(predicates[:k]), source=f"inventory:{VERSION}")

    def content_hash(self) -> str:
        """The hash of the whole inventory (every pair), for the report: it names exactly which pools were public."""
        return canonical_sha256(self._pairs)

    def provenance(self) -> dict:
        return {"backend": self.name}

    def forms(self, predicate: str, type_pair: TypePair | None = None) -> dict:
        """How a predicate reads: ``clause`` ("is the capital of"), ``inverse`` ("has as its capital"), ``noun``,
        and ``inverse_noun``, the object's role: the form's own ("predecessor" for "succeeded"), else the noun of
        the reverse pool's predicate that reads the same relation the other way.

        The wording may depend on the public subject type ("was claimed by" for an event, "is claimed by"
        for a place); without a type pair the first wording found is used.
        """
        subjects = (type_pair[0], coarse_type(type_pair[0])) if type_pair else ()
        form = next((f for s in subjects if (f := self._forms.get(f"{s}|{predicate}"))), None) or self._forms.get(
            predicate
        )
        if form:
            clause = form.get("clause") or predicate.replace("_", " ")
            found = {"clause": clause, "noun": form.get("noun"), "inverse": form.get("inverse")}
            if type_pair:
                found["inverse_noun"] = form.get("inverse_noun") or self._inverse_noun(
                    clause, form.get("inverse"), type_pair
                )
            return found
        return default_forms(predicate, type_pair)

    def _inverse_noun(self, clause: str, inverse: str | None, type_pair: TypePair) -> str | None:
        """The object's role noun, from the predicate of the reverse pool that reads the same relation the other
        way ("founded_by" under ORG→PERSON ↔ "founded" under PERSON→ORG, whose noun is "founder").

        Every fill and every leak-scan excuse asks for forms, and this searches a whole pool, so each answer is
        kept: the inventory does not change once loaded.
        """
        key = (clause, inverse, type_pair)
        if key not in self._inverse_nouns:
            self._inverse_nouns[key] = self._search_inverse_noun(clause, inverse, type_pair)
        return self._inverse_nouns[key]

    def _search_inverse_noun(self, clause: str, inverse: str | None, type_pair: TypePair) -> str | None:
        reverse = (type_pair[1], type_pair[0])
        for other in self._pairs.get(pair_key(reverse), ()):
            form = (
                self._forms.get(f"{reverse[0]}|{other}")
                or self._forms.get(f"{coarse_type(reverse[0])}|{other}")
                or self._forms.get(other)
                or {}
            )
            if not form.get("noun"):
                continue
            if (inverse and _same(form.get("clause"), inverse)) or _same(form.get("inverse"), clause):
                return form["noun"]
        return None

    def pairs(self) -> dict[str, tuple[str, ...]]:
        return {key: tuple(value) for key, value in self._pairs.items()}


_COPULA = re.compile(r"^(is|was|are|were)\s+")


def _same(a: str | None, b: str | None) -> bool:
    """Two wordings of one relation, copulas aside ("is led by" = "was led by")."""
    return bool(a and b) and _COPULA.sub("", a.strip().lower()) == _COPULA.sub("", b.strip().lower())


def checked_type_pair(type_pair: TypePair) -> TypePair:
    """The pair as a tuple of two known entity types, or a :class:`PoolError` naming what is wrong."""
    if not isinstance(type_pair, tuple | list) or len(type_pair) != 2:
        raise PoolError(f"a type pair is (subject_type, object_type), got {type_pair!r}")
    for entity_type in type_pair:
        if entity_type not in ENTITY_TYPES:
            raise PoolError(f"unknown entity type {entity_type!r}; valid types: {', '.join(ENTITY_TYPES)}")
    return (type_pair[0], type_pair[1])


def checked_k(k: int) -> int:
    """K as every candidate backend accepts it: an integer >= 1, else a :class:`PoolError`."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise PoolError(f"K must be an integer >= 1, got {k!r}")
    return k
