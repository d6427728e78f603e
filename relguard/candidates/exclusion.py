"""A publishable exclusion policy: predicates an organisation will never publish, taken out of the pools.

The mechanism may fill a slot with any predicate of its public pool, so a release can state "X killed Y" about
named people. An organisation that will never publish some predicates writes them in a policy file and names it
with ``relguard sanitize --exclude-predicates FILE``. The policy is applied where pools are made
(:class:`ExcludingCandidates` wraps the pool generator), so every pool of the release — and the exact audit, which
reads the same pools — holds K predicates none of which is excluded. The policy depends on nothing but its own
text: like the pools it is public (DESIGN invariant 1), and the report names it with the SHA-256 of its bytes.

The file is plain text, one entry a line; ``#`` starts a comment::

    # never published, whatever the entity types
    killed
    # only between two people
    PERSON->PERSON spouse_of

A predicate is written as in the pools (``spouse_of``) or in words (``spouse of``); a type pair is
``SUBJECT->OBJECT`` with OntoNotes types. With a fixed inventory every entry must name a predicate of the pools
it applies to, so a misspelling cannot leave a predicate in that the policy meant to take out.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from relguard.candidates.inventory import InventoryCandidates, pair_key
from relguard.errors import ConfigError, PoolError
from relguard.kinds import coarse_pair, pool_pair
from relguard.protocols import PoolGenerator
from relguard.types import ENTITY_TYPES, CandidatePool, TypePair

_PREDICATE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
EVERY_PAIR = "*"
#: What an editor (the app's Candidate pools page) calls the policy file it writes; the zip carries it by this name.
POLICY_FILE = "exclusion-policy.txt"


@dataclass(frozen=True)
class ExclusionPolicy:
    """Predicates never published: ``everywhere`` for every type pair, ``per_pair`` for one ordered pair.

    ``name`` is the file as given and ``sha256`` the digest of its bytes, both said in the report.
    """

    name: str
    sha256: str
    everywhere: frozenset[str] = frozenset()
    per_pair: Mapping[TypePair, frozenset[str]] = field(default_factory=dict)

    def excluded(self, type_pair: TypePair) -> frozenset[str]:
        """Every predicate the pool of ``type_pair`` may not hold; an entry for a GPE holds for a city, a region and
        a country too."""
        pair, found = tuple(type_pair), self.per_pair.get
        return self.everywhere | found(pair, frozenset()) | found(coarse_pair(pair), frozenset())

    def public(self) -> dict:
        """What the report says of the policy: the file, its digest and every entry (all public)."""
        entries = {EVERY_PAIR: sorted(self.everywhere)} if self.everywhere else {}
        entries |= {pair_key(pair): sorted(found) for pair, found in sorted(self.per_pair.items())}
        return {"file": self.name, "sha256": self.sha256, "excluded": entries}


def read_policy(path: str | Path) -> ExclusionPolicy:
    """The policy in the file at ``path`` (see the module docstring); every problem names the file and line."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(
            f"{path}: the exclusion policy cannot be read ({exc.strerror}); check the --exclude-predicates path"
        ) from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: the exclusion policy is not UTF-8 text; save it as plain UTF-8") from exc
    return parse_policy(text, name=str(path))


def parse_policy(text: str, *, name: str) -> ExclusionPolicy:
    """The policy written in ``text`` (an editor's contents or a file's); ``name`` is how errors and the report
    call it."""
    everywhere: set[str] = set()
    per_pair: dict[TypePair, set[str]] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        first, _, rest = line.partition(" ")
        if "->" in first:
            pair = _type_pair(first, where=f"{name}, line {number}")
            per_pair.setdefault(pair, set()).add(_predicate(rest, where=f"{name}, line {number}"))
        else:
            everywhere.add(_predicate(line, where=f"{name}, line {number}"))
    if not everywhere and not per_pair:
        raise ConfigError(
            f"{name}: the exclusion policy names no predicate; write one predicate a line (e.g. killed, or "
            "PERSON->PERSON spouse_of for one type pair), or drop --exclude-predicates"
        )
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    frozen = {pair: frozenset(found) for pair, found in per_pair.items()}
    return ExclusionPolicy(name, digest, frozenset(everywhere), frozen)


def policy_text(everywhere: Iterable[str] = (), per_pair: Mapping[TypePair, Iterable[str]] | None = None) -> str:
    """A policy file's text, in the format :func:`parse_policy` and ``--exclude-predicates`` read, for the
    predicates an editor picked ("" when it picked none): sorted, so one choice is one file and one digest."""
    lines = sorted(set(everywhere))
    if lines:
        lines.insert(0, "# never published, whatever the entity types")
    for (subject, obj), found in sorted((per_pair or {}).items()):
        if chosen := sorted(set(found)):
            lines += [f"# only from {subject} to {obj}", *(f"{subject}->{obj} {predicate}" for predicate in chosen)]
    if not lines:
        return ""
    header = "# RelGuard exclusion policy: predicates never published (relguard sanitize --exclude-predicates FILE)"
    return "\n".join([header, *lines]) + "\n"


def offered(generator: PoolGenerator, type_pair: TypePair, k: int) -> tuple[str, ...]:
    """The predicates a policy may take out of ``type_pair``'s pool: all the inventory holds for it, or the pool
    another generator makes (it sees only the type pair and K, so the list is public)."""
    inner = unwrapped(generator)
    if isinstance(inner, InventoryCandidates):
        return tuple(inner.pairs()[pair_key(type_pair)])
    return inner.generate(type_pair, k).predicates


def _type_pair(token: str, *, where: str) -> TypePair:
    parts = token.split("->")
    if len(parts) != 2 or not all(parts):
        raise ConfigError(f"{where}: {token!r} is not a type pair; write SUBJECT->OBJECT, e.g. PERSON->ORG")
    for entity_type in parts:
        if entity_type not in ENTITY_TYPES:
            raise ConfigError(
                f"{where}: unknown entity type {entity_type!r} in {token!r}; use one of {', '.join(ENTITY_TYPES)}"
            )
    pair = (parts[0], parts[1])
    if pool_pair(pair) != pair:
        read = "->".join(pool_pair(pair))
        raise ConfigError(f"{where}: {token} draws from the pool of {read}; write the entry for {read}")
    return pair


def _predicate(words: str, *, where: str) -> str:
    predicate = "_".join(words.lower().split())
    if not _PREDICATE.match(predicate):
        raise ConfigError(
            f"{where}: {words.strip()!r} is not a predicate; write it as in the pools (spouse_of) or in words "
            "(spouse of), letters and digits only"
        )
    return predicate


class ExcludingCandidates:
    """A pool generator whose pools never hold an excluded predicate: the first K the wrapped one offers that the
    policy allows. It still sees only the type pair and K (and the public policy), so its pools stay public."""

    def __init__(
        self, inner: PoolGenerator, policy: ExclusionPolicy | None, *, sensitive: ExclusionPolicy | None = None
    ) -> None:
        self.inner, self.policy, self.sensitive = inner, policy, sensitive
        self.name = inner.name
        if policy is not None:
            _check_known(inner, policy)

    def excluded(self, type_pair: TypePair) -> frozenset[str]:
        """What the pool of ``type_pair`` may not hold: the policy's entries and the sensitive list's."""
        return frozenset().union(*(p.excluded(type_pair) for p in (self.policy, self.sensitive) if p is not None))

    def generate(self, type_pair: TypePair, k: int) -> CandidatePool:
        excluded = self.excluded(type_pair)
        if not excluded:
            return self.inner.generate(type_pair, k)
        if isinstance(self.inner, InventoryCandidates):
            offered = self.inner.pairs()[pair_key(type_pair)]
            source = self.inner.generate(type_pair, 1).source
        else:
            offered, source = self._wider(type_pair, k, excluded)
        allowed = [p for p in offered if p not in excluded]
        if len(allowed) < k:
            names = " and ".join(p.name for p in (self.policy, self.sensitive) if p is not None)
            off = " (or switch the sensitive-predicate policy off: --no-sensitive-policy)" if self.sensitive else ""
            raise PoolError(
                f"after the exclusion policy {names} takes out {len(excluded)} predicates, "
                f"{len(allowed)} candidates are left for {type_pair[0]}->{type_pair[1]}, fewer than K={k}; choose "
                f"K <= {len(allowed)} or exclude fewer predicates for that pair{off}"
            )
        return CandidatePool(tuple(type_pair), tuple(allowed[:k]), source=source)

    def _wider(self, type_pair: TypePair, k: int, excluded: frozenset[str]) -> tuple[tuple[str, ...], str]:
        """A generator with no fixed list (an LLM) asked for K plus the policy file's entries, then for as many
        more as the sensitive list took out: the sensitive list is long and names predicates a pool seldom holds,
        so asking for all of them at once would ask more than a model can give."""
        extra = len(self.policy.excluded(type_pair)) if self.policy is not None else 0
        for _ in range(3):
            wider = self.inner.generate(type_pair, k + extra)
            missing = k - sum(p not in excluded for p in wider.predicates)
            if missing <= 0:
                break
            extra += missing
        return wider.predicates, wider.source

    def forms(self, predicate: str, type_pair: TypePair | None = None) -> Mapping[str, str | None]:
        return self.inner.forms(predicate, type_pair)

    def content_hash(self) -> str | None:
        """The wrapped inventory's hash: the report names the whole inventory and, apart, the policy."""
        return self.inner.content_hash()

    def provenance(self) -> dict:
        return self.inner.provenance()


def _check_known(inner: PoolGenerator, policy: ExclusionPolicy) -> None:
    """With a fixed inventory, every entry must name a predicate of a pool it applies to (a typo would otherwise
    leave in what the policy meant to take out)."""
    if not isinstance(inner, InventoryCandidates):
        return
    pairs = inner.pairs()
    anywhere = {p for predicates in pairs.values() for p in predicates}
    for predicate in sorted(policy.everywhere - anywhere):
        raise ConfigError(
            f"{policy.name}: {predicate!r} is in no pool of the inventory; check its spelling against the pools "
            "(report.json, candidates.pools) or remove the line"
        )
    for pair, found in sorted(policy.per_pair.items()):
        for predicate in sorted(found - set(pairs[pair_key(pair)])):
            raise ConfigError(
                f"{policy.name}: {predicate!r} is not in the {pair[0]}->{pair[1]} pool of the inventory; check its "
                "spelling against that pool or remove the line"
            )


def with_exclusions(
    generator: PoolGenerator,
    policy: ExclusionPolicy | str | Path | Mapping | None,
    *,
    sensitive: ExclusionPolicy | Mapping | None = None,
) -> PoolGenerator:
    """``generator`` with ``policy`` applied: a policy, a policy file's path, or the public account of one in a
    report (:meth:`ExclusionPolicy.public`, which the audit rebuilds the pools from); ``sensitive`` is the
    sensitive-predicate list (:mod:`relguard.candidates.sensitive`) or its public account; unchanged when both
    are None. A generator already under policies keeps those the call does not give: one wrapper holds both, so
    the report names every list its pools were built under."""
    if isinstance(sensitive, Mapping):
        sensitive = policy_from_public(sensitive) if sensitive else None
    if isinstance(generator, ExcludingCandidates):
        policy = policy or generator.policy
        sensitive = sensitive if sensitive is not None else generator.sensitive
        generator = generator.inner
    if not policy and sensitive is None:
        return generator
    if isinstance(policy, Mapping):
        policy = policy_from_public(policy)
    elif policy and not isinstance(policy, ExclusionPolicy):
        policy = read_policy(policy)
    return ExcludingCandidates(generator, policy or None, sensitive=sensitive)


def with_report_policies(generator: PoolGenerator, candidates: Mapping) -> PoolGenerator:
    """``generator`` under the policies a report's ``candidates`` block names (the audit rebuilds pools so)."""
    return with_exclusions(
        generator, candidates.get("exclusion_policy"), sensitive=candidates.get("sensitive_policy") or None
    )


def policy_from_public(public: Mapping) -> ExclusionPolicy:
    """The policy a report describes (:meth:`ExclusionPolicy.public`)."""
    entries = dict(public.get("excluded") or {})
    everywhere = frozenset(entries.pop(EVERY_PAIR, ()))
    per_pair = {_type_pair(key.replace("|", "->"), where="report"): frozenset(v) for key, v in entries.items()}
    return ExclusionPolicy(str(public.get("file", "")), str(public.get("sha256", "")), everywhere, per_pair)


def policy_of(generator: PoolGenerator) -> ExclusionPolicy | None:
    """The exclusion policy a generator applies, if any (for the report)."""
    return generator.policy if isinstance(generator, ExcludingCandidates) else None


def sensitive_of(generator: PoolGenerator) -> ExclusionPolicy | None:
    """The sensitive-predicate list a generator applies, if any (for the report)."""
    return generator.sensitive if isinstance(generator, ExcludingCandidates) else None


def unwrapped(generator: PoolGenerator) -> PoolGenerator:
    """The generator under an exclusion policy: the one whose inventory (and its cached embeddings) it draws on."""
    return generator.inner if isinstance(generator, ExcludingCandidates) else generator
