"""Re-deriving a release's guarantee from the release itself: ``relguard audit``.

A privacy officer should not have to trust that the code that drew a release is
the code the paper proves private. For the pools, ε and λ actually used this
module checks three things and returns a pass/fail table:

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
   that needs the confidential mapping and no LLM usage in any public file.

What an audit *records in a public report* is computed from public inputs only
(:func:`public_audit`): the numbers of an audit over the corpus's original
relations are themselves functions of those relations, so they go to the
confidential file and the terminal.

The mechanism and sampler under audit are parameters, so a test can hand in a
broken variant (the exponent without its ``/2``) and see the audit fail.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from relguard import registry
from relguard.candidates.pools import pool_hash
from relguard.errors import InputError
from relguard.io.write import atomic_write
from relguard.privacy.mechanism import log_probabilities
from relguard.privacy.sampling import sample_outcomes
from relguard.release.bundle import public_files
from relguard.release.markdown import render_markdown
from relguard.settings import DEFAULT_ENCODER, check_epsilon, check_lam
from relguard.types import CandidatePool, TypePair
from relguard.verify.bound import TOLERANCE, GroupDistances, LogProbabilities, audit_groups, audit_pools
from relguard.verify.pools import pool_checks
from relguard.verify.public import grouping_is_public, public_file_problems
from relguard.verify.result import Check, SelfAudit
from relguard.verify.sampler import CHI2_ALPHA, Sampler, family_power, sampler_conformance


def run_audit(
    pools: Mapping[TypePair, CandidatePool],
    *,
    epsilon: float,
    lam: float,
    k: int,
    encoder: Any,
    generator: Any,
    originals: Mapping[TypePair, Sequence[str]] | None = None,
    rows: Mapping[TypePair, np.ndarray] | None = None,
    expected_pool_hash: str | None = None,
    extraction: Any = None,
    extractor: Any = None,
    probabilities: LogProbabilities = log_probabilities,
    sampler: Sampler = sample_outcomes,
    draws: int | None = None,
    alpha: float = CHI2_ALPHA,
    pools_check: bool = True,
    combine: GroupDistances | None = None,
    public_files: Mapping[str, bytes] | None = None,
    input_digests: Sequence[str] = (),
) -> SelfAudit:
    """Every check for one release setting. ``rows`` default to each pool's first candidate as input.

    With ``extraction`` the groups of the corpus are audited (check 4); with ``public_files`` (name → bytes of
    a written or built release) the public-file check runs (check 5), looking also for ``input_digests``.
    """
    epsilon, lam = check_epsilon(epsilon), check_lam(lam)
    ordered = [pools[p] for p in sorted(pools)]
    originals = originals or {}
    per_pool = audit_pools(ordered, originals, encoder, epsilon=epsilon, lam=lam, probabilities=probabilities)
    worst = max(per_pool, key=lambda p: p.worst_excess) if per_pool else None
    n_orig = sum(p.originals for p in per_pool)
    checks = [
        Check(
            "exact bound: max|log P(y|r) - log P(y|r')| <= ε·d_R",
            all(p.passed for p in per_pool),
            f"{len(per_pool)} pools, {sum(p.pairs for p in per_pool):,} ordered pairs ({n_orig} original relations); "
            + (
                f"worst excess {worst.worst_excess:+.3g} at {'->'.join(worst.type_pair)} "
                f"(ratio {worst.worst_log_ratio:.4g} vs bound {worst.bound_at_worst:.4g}); "
                f"max ratio/bound {max(p.tightness for p in per_pool):.4f}"
                if worst
                else "no pools"
            ),
        )
    ]
    if rows is None:
        rows = {
            pair: encoder.distances(pool.predicates[:1], list(pool.predicates), pair)[0] for pair, pool in pools.items()
        }
    results = sampler_conformance(rows, epsilon=epsilon, lam=lam, draws=draws, alpha=alpha, sampler=sampler)
    low = min(results, key=lambda r: r.p_value) if results else None
    checks.append(
        Check(
            f"sampler: χ² vs exact probabilities (family α={alpha:g})",
            all(r.passed for r in results),
            (
                f"{len(results)} of {len(rows)} pools (those that best tell ε from 2ε) × {results[0].draws} OpenDP "
                f"draws, each at α={alpha / len(results):.2g}; "
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
    )
    groups = extraction.groups if extraction is not None else ()
    checked, replaced, excess = audit_groups(
        groups, pools, encoder, epsilon=epsilon, lam=lam, combine=combine, probabilities=probabilities
    )
    checks.append(
        Check(
            "groups: one changed relation moves a group by <= ε·d_R",
            excess <= TOLERANCE if checked else None,
            f"{checked} groups ({len(groups)} from the corpus), {replaced:,} single-relation replacements; "
            f"worst excess {excess:+.3g}",
        )
    )
    if extraction is not None:
        public, detail = grouping_is_public(extraction, pools)
        checks.append(Check("groups: keyed by the entity pair, never the predicate", public, detail))
    if public_files is not None:
        problems = public_file_problems(public_files, input_digests=input_digests)
        checks.append(
            Check(
                "public files: outcomes and public information only",
                not problems,
                f"{len(public_files)} files; "
                + ("; ".join(problems[:3]) if problems else "no input digest, no confidential count, no LLM usage"),
            )
        )
    if pools_check:
        checks += pool_checks(
            pools,
            generator=generator,
            k=k,
            expected_hash=expected_pool_hash,
            extraction=extraction,
            extractor=extractor,
        )
    notes = (
        ()
        if originals
        else ("original relations not available: audited candidates, other public relations and near-duplicates only",)
    )
    return SelfAudit(epsilon, lam, k, tuple(checks), per_pool, results, notes)


def audit_prepared(prepared: Any, *, epsilon: float, lam: float, **options: Any) -> SelfAudit:
    """Audit a :class:`~relguard.pipeline.Prepared` corpus: its originals, pools and real distance rows."""
    return audit_extraction(
        prepared.extraction,
        prepared.pools,
        epsilon=epsilon,
        lam=lam,
        k=prepared.k,
        generator=prepared.generator,
        extractor=prepared.extractor_backend,
        encoder_id=prepared.encoder_id,
        distances=prepared.distances,
        **options,
    )


def audit_release(release: Any, *, generator: Any, extractor: Any = None, **options: Any) -> SelfAudit:
    """Audit a drawn :class:`~relguard.types.Release` with the backends that produced it."""
    g = release.guarantee
    return audit_extraction(
        release.extraction,
        {p.type_pair: p for p in release.pools},
        epsilon=g.epsilon,
        lam=g.lam,
        k=g.k,
        generator=generator,
        extractor=extractor,
        encoder_id=release.provenance.get("encoder", ""),
        expected_pool_hash=release.provenance.get("pool_hash"),
        **options,
    )


def audit_extraction(
    extraction: Any,
    pools: Mapping[TypePair, CandidatePool],
    *,
    epsilon: float,
    lam: float,
    k: int,
    generator: Any,
    extractor: Any = None,
    encoder_id: str = "",
    distances: np.ndarray | None = None,
    expected_pool_hash: str | None = None,
    **options: Any,
) -> SelfAudit:
    """The audit with the corpus's original relations as inputs and one real distance row per pool for χ²."""

    encoder = options.pop("encoder", None) or registry.create(
        "encoder", "sentence-transformers", model=_encoder_name(encoder_id)
    )
    originals: dict[TypePair, list[str]] = {}
    rows: dict[TypePair, np.ndarray] = {}
    for index, group in enumerate(extraction.groups):
        originals.setdefault(group.type_pair, []).extend(group.predicates)
        if group.type_pair not in rows:
            pool = list(pools[group.type_pair].predicates)
            row = (
                distances[index]
                if distances is not None
                else encoder.distances(list(group.predicates), pool, group.type_pair).min(axis=0)
            )
            rows[group.type_pair] = row
    return run_audit(
        pools,
        epsilon=epsilon,
        lam=lam,
        k=k,
        encoder=encoder,
        generator=generator,
        originals=originals,
        rows=rows or None,
        expected_pool_hash=expected_pool_hash or pool_hash(pools),
        extraction=extraction,
        extractor=extractor,
        **options,
    )


def with_audit(release: Any, audit: SelfAudit, *, public: SelfAudit | None = None) -> Any:
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


def public_audit(release: Any, *, generator: Any, **options: Any) -> SelfAudit:
    """The audit a public report may carry: the release's pools, ε, λ and K with public inputs only.

    Candidates, other public relations and near-duplicates of them are the inputs of the exact bound;
    χ² rows use each pool's first candidate; groups are synthetic groups of public relations. Nothing of it
    depends on an original relation, so its table can be published.
    """
    g = release.guarantee

    encoder = options.pop("encoder", None) or registry.create(
        "encoder", "sentence-transformers", model=_encoder_name(release.provenance.get("encoder", ""))
    )
    return run_audit(
        {p.type_pair: p for p in release.pools},
        epsilon=g.epsilon,
        lam=g.lam,
        k=g.k,
        encoder=encoder,
        generator=generator,
        expected_pool_hash=release.provenance.get("pool_hash"),
        **options,
    )


def _encoder_name(encoder_id: str) -> str:
    """``sentence-transformers:NAME@sha256:...`` -> ``NAME``."""
    name = encoder_id.split(":", 1)[1] if encoder_id.startswith("sentence-transformers:") else encoder_id
    return name.split("@sha256:", 1)[0] or DEFAULT_ENCODER


def read_report(path: str | Path) -> dict:
    """A release's report.json (or the folder holding it), with a clear error when it is not one."""
    path = Path(path)
    if path.is_dir():
        path = path / "report.json"
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: not a readable RelGuard report.json ({exc}); pass a release folder") from exc
    if not isinstance(report, dict) or "candidates" not in report or "parameters" not in report:
        raise InputError(f"{path}: not a RelGuard report.json (no 'parameters'/'candidates'); pass a release folder")
    return report


def pools_from_report(report: Mapping[str, Any]) -> dict[TypePair, CandidatePool]:
    source = report["candidates"].get("source") or "report"
    pools = {}
    for key, predicates in report["candidates"]["pools"].items():
        a, b = key.split("|")
        pools[(a, b)] = CandidatePool((a, b), tuple(predicates), source)
    return pools


def audit_report(report: Mapping[str, Any], *, prepared: Any = None, **options: Any) -> SelfAudit:
    """Audit a written release from its public report (and the corpus's originals when ``prepared`` is given)."""

    params = report["parameters"]
    pools = pools_from_report(report)
    backend = report["candidates"].get("backend") or "inventory"
    generator = registry.create("candidates", backend) if backend == "inventory" else None
    encoder = options.pop("encoder", None) or registry.create(
        "encoder", "sentence-transformers", model=_encoder_name(report.get("encoder") or "")
    )
    originals: dict[TypePair, list[str]] = {}
    if prepared is not None:
        for triple in prepared.triples:
            originals.setdefault(triple.type_pair, []).append(triple.predicate)
    audit = run_audit(
        pools,
        epsilon=params["epsilon"],
        lam=params["lambda"],
        k=params["k"],
        encoder=encoder,
        generator=generator,
        originals=originals,
        expected_pool_hash=report["candidates"].get("sha256"),
        extraction=prepared.extraction if prepared is not None else None,
        extractor=prepared.extractor_backend if prepared is not None else None,
        pools_check=generator is not None,
        **options,
    )
    if generator is None:
        skipped = Check("pools: regenerated from type pairs alone", None, f"backend {backend!r} is not regenerable")
        audit = SelfAudit(
            audit.epsilon, audit.lam, audit.k, (*audit.checks, skipped), audit.pools, audit.chi2, audit.notes
        )
    return audit


def record_in_release(folder: str | Path, audit: SelfAudit) -> list[Path]:
    """Add the audit to a written release's report.json and re-render its report.md (atomically)."""

    folder = Path(folder)
    if folder.name == "report.json":
        folder = folder.parent
    report = read_report(folder)
    report["self_audit"] = audit.to_dict()
    atomic_write(folder / "report.json", (json.dumps(report, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    atomic_write(folder / "report.md", render_markdown(report).encode("utf-8"))
    return [folder / "report.json", folder / "report.md"]


def audit_with_backends(release: Any, *, extractor: Any, candidates: Any) -> tuple[SelfAudit, Any]:
    """Audit a release made with these backends (names or objects) and return it with the audit recorded.

    The full audit (original relations, the corpus's groups, the release's public files) is returned and kept
    in the confidential file; the public report gets :func:`public_audit`.
    """

    extractor = registry.create("extractor", extractor) if isinstance(extractor, str) else extractor
    generator = registry.create("candidates", candidates) if isinstance(candidates, str) else candidates
    files = public_files(release)
    digests = list(release.confidential.get("input_sha256", {}).values())
    audit = audit_release(release, generator=generator, extractor=extractor, public_files=files, input_digests=digests)
    public = public_audit(release, generator=generator, pools_check=False)
    return audit, with_audit(release, audit, public=public)
