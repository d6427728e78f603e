"""Re-deriving a release's guarantee from the release itself: ``relguard audit``.

A privacy officer should not have to trust that the code that drew a release is
the code the paper proves private. For the pools, ε and λ actually used this
module checks five things and returns a pass/fail table:

1. **Exact bound.** For every pool, the exact log-probabilities of every input
   compared under it — the corpus's original relations, all public candidates,
   other public relations, and near-duplicates made by small perturbations of
   their embeddings — satisfy max_y |log P(y|r) − log P(y|r′)| ≤ ε·d_R(r, r′) + 1e-9
   for every ordered pair (DESIGN invariant 10).
2. **Sampler conformance.** The OpenDP sampler's draws for one real row per
   pool match the exact probabilities under a χ² goodness-of-fit test at a
   stated family-wise α = 1e-6 (Bonferroni over the tests), so a correct
   sampler fails with probability at most α. The sampler is one function for
   every pool, so at most eight pools are tested, those whose rows best tell ε
   from 2ε, with enough draws that a sampler of the law without the ``/2``
   passes with probability at most 1e-6 as well.
3. **Pools are public.** The generator's signature receives only a type pair
   and K; pools regenerated from the type pairs alone hash to the release's
   pool hash; and the same corpus with every relation rewritten to another
   predicate, re-extracted, gets the same pool for every type pair it shares.
4. **Groups keep the bound.** Every relation group of the corpus, with each of
   its relations replaced in turn by every other input, still satisfies the
   exact bound ε·d_R of the one relation that changed (the group utility
   −min_i d_R(r_i, c) is 1-Lipschitz in each r_i); and the grouping itself is
   keyed by public information only: rewriting every predicate leaves the
   groups, their order and their slots unchanged.
5. **Public files reveal only outcomes.** No digest of an input file, no count
   that needs the confidential mapping, no LLM usage and no confidential file
   among a release's files; the bounds the report states are the draw's privacy map.

What an audit *records in a public report* is computed from public inputs only
(:func:`public_audit`): the numbers of an audit over the corpus's original
relations are themselves functions of those relations, so they go to the
confidential file and the terminal.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import numpy as np

from relguard import registry
from relguard.candidates.exclusion import with_report_policies
from relguard.candidates.pools import pool_hash
from relguard.engine.memory import public_files
from relguard.pipeline import Prepared
from relguard.protocols import Encoder, Extractor, PoolGenerator
from relguard.settings import DEFAULT_ENCODER
from relguard.types import CandidatePool, Extraction, Release, TypePair
from relguard.verify.bound import TOLERANCE, audit_groups, audit_pools
from relguard.verify.entity import entity_checks
from relguard.verify.epsilons import at_each, by_epsilon, epsilons_by_pool, keys_of
from relguard.verify.pools import pool_checks
from relguard.verify.public import NO_PROBLEM, grouping_is_public, public_file_problems
from relguard.verify.report_file import pools_from_report
from relguard.verify.result import Check, SelfAudit
from relguard.verify.sampler import Chi2Result, family_power, per_group_conformance, sampler_conformance
from relguard.verify.settings import AuditBackends, AuditInputs, AuditOptions, AuditSettings


def run_audit(inputs: AuditInputs, *, settings: AuditSettings, backends: AuditBackends) -> SelfAudit:
    """Every check for one release setting (see the module docstring).

    With ``inputs.extraction`` the groups of the corpus are audited (check 4); with ``inputs.public_files`` the
    public-file check runs (check 5); with ``settings.options.pools_check`` and a generator, the pool checks.
    """
    epsilon, lam, options = settings.epsilon, settings.lam, settings.options
    pools, encoder = inputs.pools, backends.encoder
    keys = keys_of(inputs)
    drawn = epsilons_by_pool(inputs, settings, keys)
    per_pool = tuple(
        dataclasses.replace(result, epsilon=value)
        for value, chosen in by_epsilon(pools, drawn)
        for result in audit_pools(
            chosen, inputs.originals, encoder, epsilon=value, lam=lam, probabilities=options.probabilities
        )
    )
    worst = max(per_pool, key=lambda p: p.worst_excess) if per_pool else None
    n_orig = sum(p.originals for p in per_pool)
    checks = [
        Check(
            "exact bound: max|log P(y|r) - log P(y|r')| <= ε·d_R",
            all(p.passed for p in per_pool),
            f"{len({p.type_pair for p in per_pool})} pools{at_each(drawn)}, "
            f"{sum(p.pairs for p in per_pool):,} ordered pairs "
            f"({n_orig} original relations); "
            + (
                f"worst excess {worst.worst_excess:+.3g} at {'->'.join(worst.type_pair)} "
                f"(ratio {worst.worst_log_ratio:.4g} vs bound {worst.bound_at_worst:.4g}); "
                f"max ratio/bound {max(p.tightness for p in per_pool):.4f}"
                if worst
                else "no pools"
            ),
        ),
    ]
    chi2, sampler = _sampler_check(inputs, settings, encoder, drawn)
    checks.append(sampler)
    groups = inputs.extraction.groups if inputs.extraction is not None else ()
    checked = replaced = 0
    excess = 0.0
    for value, chosen in by_epsilon(pools, drawn):
        counted = audit_groups(
            groups,
            {pool.type_pair: pool for pool in chosen},
            encoder,
            epsilon=value,
            lam=lam,
            combine=options.combine,
            probabilities=options.probabilities,
        )
        excess = counted[2] if not checked else max(excess, counted[2])
        checked, replaced = checked + counted[0], replaced + counted[1]
    checks.append(
        Check(
            "groups: one changed relation moves a group by <= ε·d_R",
            excess <= TOLERANCE if checked else None,
            f"{checked} groups ({len(groups)} from the corpus), {replaced:,} single-relation replacements; "
            f"worst excess {excess:+.3g}",
        )
    )
    checks += entity_checks(
        pools,
        encoder,
        epsilon=epsilon,
        lam=lam,
        k=settings.k,
        entity_epsilon=settings.entity_epsilon,
        probabilities=options.probabilities,
        allocate=options.allocate,
        bound=options.entity_bound,
        corpus_keys=keys,
    )
    if inputs.extraction is not None:
        public, detail = grouping_is_public(inputs.extraction, pools)
        checks.append(Check("groups: keyed by the entity pair, never the predicate", public, detail))
    if inputs.public_files is not None:
        problems = public_file_problems(inputs.public_files, input_digests=inputs.input_digests)
        checks.append(
            Check(
                "public files: outcomes and public information only",
                not problems,
                f"{len(inputs.public_files)} files; " + ("; ".join(problems[:3]) if problems else NO_PROBLEM),
            )
        )
    if options.pools_check and backends.generator is not None:
        checks += pool_checks(
            pools,
            generator=backends.generator,
            k=settings.k,
            expected_hash=inputs.expected_pool_hash,
            extraction=inputs.extraction,
            extractor=backends.extractor,
        )
    elif options.pools_check:
        checks.append(Check("pools: regenerated from type pairs alone", None, "the pool backend is not regenerable"))
    notes = (
        ()
        if inputs.originals
        else ("original relations not available: audited candidates, other public relations and near-duplicates only",)
    )
    return SelfAudit(epsilon, lam, settings.k, tuple(checks), per_pool, chi2, notes)


def _sampler_check(
    inputs: AuditInputs, settings: AuditSettings, encoder: Encoder, drawn: Mapping[TypePair, tuple[float, ...]]
) -> tuple[tuple[Chi2Result, ...], Check]:
    epsilon, lam, options = settings.epsilon, settings.lam, settings.options
    rows = inputs.rows
    if rows is None:
        rows = {
            pair: encoder.distances(pool.predicates[:1], list(pool.predicates), pair)[0]
            for pair, pool in inputs.pools.items()
        }
    if settings.entity_epsilon is None:
        results = sampler_conformance(
            rows, epsilon=epsilon, lam=lam, draws=options.draws, alpha=options.alpha, sampler=options.sampler
        )
    else:  # each row at the largest ε_g of its pool, all rows in one call with one ε each
        own = {pair: max(drawn[pair]) for pair in rows}
        results = per_group_conformance(
            rows, own, lam=lam, draws=options.draws, alpha=options.alpha, sampler=options.sampler
        )
        epsilon = max(own.values(), default=0.0)
    low = min(results, key=lambda r: r.p_value) if results else None
    check = Check(
        f"sampler: χ² vs exact probabilities (family α={options.alpha:g})",
        all(r.passed for r in results),
        (
            f"{len(results)} of {len(rows)} pools (those that best tell ε from 2ε) × {results[0].draws} OpenDP "
            f"draws{' in one call, each row at its own ε_g' if settings.entity_epsilon is not None else ''}, "
            f"each at α={options.alpha / len(results):.2g}; "
            f"lowest p = {low.p_value:.3g} ({'->'.join(low.type_pair)}); "
            + (
                "at ε = 0 the law without the /2 is the same uniform law"
                if epsilon == 0.0
                else f"a sampler without the /2 would pass with probability {1.0 - family_power(results):.2g}"
            )
        )
        if low
        else "no pools",
    )
    return results, check


def audit_extraction(
    extraction: Extraction,
    pools: Mapping[TypePair, CandidatePool],
    *,
    settings: AuditSettings,
    backends: AuditBackends,
    distances: np.ndarray | None = None,
    expected_pool_hash: str | None = None,
    public: Mapping[str, bytes] | None = None,
    input_digests: tuple[str, ...] = (),
) -> SelfAudit:
    """The audit with the corpus's original relations as inputs and one real distance row per pool for χ².

    ``distances`` are the corpus's group rows when they are at hand (a prepared corpus); otherwise each pool's
    row is its first group's, computed here.
    """
    originals: dict[TypePair, list[str]] = {}
    rows: dict[TypePair, np.ndarray] = {}
    for index, group in enumerate(extraction.groups):
        originals.setdefault(group.type_pair, []).extend(group.predicates)
        if group.type_pair not in rows:
            pool = list(pools[group.type_pair].predicates)
            rows[group.type_pair] = (
                distances[index]
                if distances is not None
                else backends.encoder.distances(list(group.predicates), pool, group.type_pair).min(axis=0)
            )
    inputs = AuditInputs(
        pools,
        originals=originals,
        rows=rows or None,
        expected_pool_hash=expected_pool_hash or pool_hash(pools),
        extraction=extraction,
        public_files=public,
        input_digests=input_digests,
    )
    return run_audit(inputs, settings=settings, backends=backends)


def audit_prepared(
    prepared: Prepared,
    *,
    epsilon: float,
    lam: float,
    options: AuditOptions | None = None,
    encoder: Encoder | None = None,
    entity_epsilon: float | None = None,
) -> SelfAudit:
    """Audit a prepared corpus: its originals, pools and real distance rows, with the backends that made it;
    ``entity_epsilon`` audits a draw with that per-entity budget (each group at its own ε_g)."""
    backends = AuditBackends(
        encoder or encoder_for(prepared.encoder_id), prepared.generator, prepared.extractor_backend
    )
    settings = AuditSettings(epsilon, lam, prepared.k, options or AuditOptions(), entity_epsilon)
    return audit_extraction(
        prepared.extraction, prepared.pools, settings=settings, backends=backends, distances=prepared.distances
    )


def audit_release(
    release: Release,
    *,
    generator: PoolGenerator,
    extractor: Extractor | None = None,
    options: AuditOptions | None = None,
    public: Mapping[str, bytes] | None = None,
    input_digests: tuple[str, ...] = (),
) -> SelfAudit:
    """Audit a drawn release with the backends that produced it (and its public files, when given)."""
    g = release.guarantee
    backends = AuditBackends(encoder_for(release.provenance.get("encoder", "")), generator, extractor)
    return audit_extraction(
        release.extraction,
        {p.type_pair: p for p in release.pools},
        settings=AuditSettings(g.epsilon, g.lam, g.k, options or AuditOptions(), g.entity_epsilon),
        backends=backends,
        expected_pool_hash=release.provenance.get("pool_hash"),
        public=public,
        input_digests=input_digests,
    )


def public_audit(
    release: Release, *, generator: PoolGenerator, options: AuditOptions | None = None, encoder: Encoder | None = None
) -> SelfAudit:
    """The audit a public report may carry: the release's pools, ε, λ and K with public inputs only.

    Candidates, other public relations and near-duplicates of them are the inputs of the exact bound;
    χ² rows use each pool's first candidate; groups are synthetic groups of public relations. Nothing of it
    depends on an original relation, so its table can be published.
    """
    g = release.guarantee
    inputs = AuditInputs(
        {p.type_pair: p for p in release.pools},
        expected_pool_hash=release.provenance.get("pool_hash"),
        keys=[o.group.key for o in release.outcomes],
    )
    backends = AuditBackends(encoder or encoder_for(release.provenance.get("encoder", "")), generator)
    settings = AuditSettings(g.epsilon, g.lam, g.k, options or AuditOptions(), g.entity_epsilon)
    return run_audit(inputs, settings=settings, backends=backends)


def audit_report(
    report: Mapping[str, object],
    *,
    prepared: Prepared | None = None,
    public: Mapping[str, bytes] | None = None,
    input_digests: tuple[str, ...] = (),
    options: AuditOptions | None = None,
) -> SelfAudit:
    """Audit a written release from its public report (and the corpus's originals when ``prepared`` is given).

    The pools are read back from the report; they are regenerated and checked only when their backend is the
    offline inventory (an LLM's pools cannot be asked for again).
    """
    params = report["parameters"]
    candidates = report["candidates"]
    assert isinstance(params, Mapping) and isinstance(candidates, Mapping)
    pools = pools_from_report(report)
    backend = candidates.get("backend") or "inventory"
    inventory = registry.create("candidates", backend) if backend == "inventory" else None
    generator = with_report_policies(inventory, candidates) if inventory else None  # its policies
    originals: dict[TypePair, list[str]] = {}
    if prepared is not None:
        for triple in prepared.triples:
            originals.setdefault(triple.type_pair, []).append(triple.predicate)
    inputs = AuditInputs(
        pools,
        originals=originals,
        expected_pool_hash=candidates.get("sha256"),
        extraction=prepared.extraction if prepared is not None else None,
        public_files=public,
        input_digests=input_digests,
        pool_epsilons=_report_epsilons(report),
    )
    backends = AuditBackends(
        encoder_for(str(report.get("encoder") or "")),
        generator,
        prepared.extractor_backend if prepared is not None else None,
    )
    settings = AuditSettings(
        params["epsilon"], params["lambda"], params["k"], options or AuditOptions(), params.get("entity_epsilon")
    )
    return run_audit(inputs, settings=settings, backends=backends)


def _report_epsilons(report: Mapping[str, object]) -> dict[TypePair, list[float]] | None:
    """The ε_g each pool's groups were drawn at, as a report with a per-entity budget lists them."""
    block = report.get("entity_level")
    found = block.get("epsilons_by_pool") if isinstance(block, Mapping) else None
    if not isinstance(found, Mapping):
        return None
    return {tuple(pair.split("|", 1)): list(values) for pair, values in found.items()}


def with_audit(release: Release, audit: SelfAudit, *, public: SelfAudit | None = None) -> Release:
    """The same release with the audit recorded: ``public`` (no originals) in the report, ``audit`` confidential.

    An audit over the corpus's original relations reports numbers computed from them (worst excess, the
    χ² row, counts of originals), so only an audit of public inputs may go into the public report.
    """
    shown = public if public is not None else audit
    if shown.pools and any(p.originals for p in shown.pools):
        raise ValueError("an audit over original relations cannot go into a public report; pass public=")
    return dataclasses.replace(
        release,
        provenance={**release.provenance, "self_audit": shown.to_dict()},
        confidential={**release.confidential, "self_audit": audit.to_dict()},
    )


def audit_with_backends(
    release: Release, *, extractor: Extractor, candidates: PoolGenerator
) -> tuple[SelfAudit, Release]:
    """Audit a release made with these backends and return it with the audit recorded.

    The full audit (original relations, the corpus's groups, the release's public files) is returned and kept
    in the confidential file; the public report gets :func:`public_audit`.
    """
    digests = tuple(release.confidential.get("input_sha256", {}).values())
    audit = audit_release(
        release, generator=candidates, extractor=extractor, public=public_files(release), input_digests=digests
    )
    public = public_audit(release, generator=candidates, options=AuditOptions(pools_check=False))
    return audit, with_audit(release, audit, public=public)


def encoder_for(encoder_id: str) -> Encoder:
    """The encoder a release names (``sentence-transformers:NAME@sha256:...``), built through the registry."""
    name = encoder_id.split(":", 1)[1] if encoder_id.startswith("sentence-transformers:") else encoder_id
    return registry.create("encoder", "sentence-transformers", model=name.split("@sha256:", 1)[0] or DEFAULT_ENCODER)
