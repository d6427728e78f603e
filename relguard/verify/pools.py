"""Pools are public (DESIGN invariant 1): checks that a pool generator could not have read the corpus.

The generator's signature receives only a type pair and K; pools regenerated from the type pairs alone hash to the
release's pool hash; and the same corpus with every relation rewritten to another predicate, re-extracted, gets
the same pool for every type pair it shares.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence

from relguard.candidates.pools import build_pools, pool_hash
from relguard.engine.outcomes import OutcomeTable, guarantee_of
from relguard.engine.rewrite import rewrite_document
from relguard.extract.corpus import extract_corpus
from relguard.protocols import Extractor, PoolGenerator
from relguard.settings import PrivacySettings
from relguard.types import CandidatePool, Document, Extraction, TypePair
from relguard.verify.result import Check


def generator_takes_only_type_pair_and_k(generator: object) -> bool:
    """The generator's ``generate`` can receive a type pair and K and nothing else."""
    try:
        parameters = list(inspect.signature(generator.generate).parameters.values())
    except (TypeError, ValueError, AttributeError):
        return False
    names = [p.name for p in parameters if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    variadic = any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in parameters)
    return len(names) == 2 and not variadic


def regenerated_pool_hash(type_pairs: Sequence[TypePair], *, generator: PoolGenerator, k: int) -> str:
    """The hash of pools built from the type pairs alone, to compare with a release's pool hash."""

    return pool_hash(build_pools(type_pairs, generator=generator, k=k))


def rewritten_corpus_pools(
    extraction: Extraction,
    pools: Mapping[TypePair, CandidatePool],
    *,
    generator: PoolGenerator,
    extractor: Extractor,
    k: int,
) -> tuple[int, int, int, bool]:
    """Rewrite every relation of the corpus to another pool predicate, re-extract and rebuild the pools.

    Returns (relations rewritten, type pairs shared, type pairs found again, pools equal on every shared pair).
    """

    outcomes = tuple(
        next(p for p in reversed(pools[group.type_pair].predicates) if p not in group.predicates)
        for group in extraction.groups
    )
    keys = tuple(group.key for group in extraction.groups)
    table = OutcomeTable(keys, outcomes, pools, guarantee_of(PrivacySettings(k=k)))
    rewritten = [rewrite_document(d, table, forms=generator.forms).sanitized for d in extraction.documents]
    documents = [Document(name=d.name, text=d.text or " ", source=d.name) for d in rewritten]
    again_extraction = extract_corpus(documents, extractor=extractor)
    shared = sorted(set(again_extraction.type_pairs) & set(pools))
    again = build_pools(again_extraction.type_pairs, generator=generator, k=k)
    equal = all(again[p] == pools[p] for p in shared)
    return len(outcomes), len(shared), len(again_extraction.type_pairs), equal


def pool_checks(
    pools: Mapping[TypePair, CandidatePool],
    *,
    generator: PoolGenerator,
    k: int,
    expected_hash: str | None,
    extraction: Extraction | None,
    extractor: Extractor | None,
) -> list[Check]:

    checks = [
        Check(
            "pools: generator sees only (type pair, K)",
            generator_takes_only_type_pair_and_k(generator),
            f"{type(generator).__name__}.generate{inspect.signature(generator.generate)}",
        )
    ]
    regenerated = regenerated_pool_hash(sorted(pools), generator=generator, k=k)
    used = expected_hash or pool_hash(pools)
    checks.append(
        Check(
            "pools: regenerated from type pairs alone",
            regenerated == used,
            f"{len(pools)} pools, sha256 {regenerated[:16]}… vs release {used[:16]}…",
        )
    )
    if extraction is not None and extractor is not None and extraction.triples:
        changed, shared, found, equal = rewritten_corpus_pools(
            extraction, pools, generator=generator, extractor=extractor, k=k
        )
        checks.append(
            Check(
                "pools: same corpus, every relation rewritten",
                equal if shared else None,
                f"{changed} groups rewritten, re-extracted: {found} type pairs, {shared} shared, "
                + ("identical pools" if equal else "DIFFERENT pools"),
            )
        )
    else:
        checks.append(
            Check("pools: same corpus, every relation rewritten", None, "needs the input documents (pass INPUT)")
        )
    return checks
