"""``relguard audit``: the exact bound, the χ² sampler check and the public-pool checks, on real parts.

The χ² check runs at a family-wise α = 1e-6 (Bonferroni over the pools): a correct sampler fails one of these
tests with probability at most 1e-6 per run. Its draws are chosen so that the sampler without the ``/2`` passes
with probability at most 1e-6, so the test that expects it to fail is no coin either.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from relguard import cli
from relguard.candidates.inventory import InventoryCandidates
from relguard.embed import load_encoder
from relguard.engine import public_files, write_release
from relguard.pipeline import prepare
from relguard.privacy.mechanism import log_probabilities
from relguard.privacy.sampling import sample_outcomes
from relguard.types import Document
from relguard.verify import (
    AuditBackends,
    AuditInputs,
    AuditOptions,
    AuditSettings,
    audit_groups,
    audit_prepared,
    chi2_test,
    draws_for_power,
    family_power,
    generator_takes_only_type_pair_and_k,
    grouping_is_public,
    most_separating,
    power_against_missing_halving,
    public_audit,
    public_file_problems,
    read_report,
    run_audit,
    sampler_conformance,
    separation,
    with_audit,
)

TEXTS = {
    "a.txt": "Alice Smith founded Acme Corporation in 1990. Acme Corporation is based in Berlin. "
    "Alice Smith was born in Paris.",
    "b.txt": "Bob Jones works for Globex. Bob Jones married Carol White in 2001. Globex acquired Initech in 2010.",
}


def _without_halving(distances, *, epsilon, lam, allow_null=True):
    """Test-only broken mechanism: exp(-ε·d) instead of exp(-ε·d/2), private only at 2ε."""
    return log_probabilities(distances, epsilon=2 * epsilon, lam=lam, allow_null=allow_null)


def _sampler_without_halving(distances, *, epsilon, lam, seed=None):
    """Test-only broken sampler: draws the no-/2 distribution through the real OpenDP sampler."""
    return sample_outcomes(distances, epsilon=2 * epsilon, lam=lam, seed=seed)


@pytest.fixture(scope="module")
def prepared():
    return prepare([Document(name, text) for name, text in TEXTS.items()], k=10)


def test_correct_mechanism_passes_every_check(prepared):
    assert len(prepared.pools) >= 3
    audit = audit_prepared(prepared, epsilon=5.0, lam=1.0)
    assert audit.passed, audit.table()
    assert [c.passed for c in audit.checks] == [True] * 8, audit.table()  # the entity check is the 8th
    for pool in audit.pools:
        assert pool.worst_excess <= 1e-9
        # the /2 leaves slack: with it the log-ratio never reaches ε·d_R
        assert 0 < pool.tightness <= 1.0
        assert pool.originals >= 1
    assert len(audit.chi2) == len(prepared.pools)
    assert all(r.alpha == pytest.approx(1e-6 / len(prepared.pools)) for r in audit.chi2)
    assert family_power(audit.chi2) >= 1 - 1e-6


def test_missing_halving_is_flagged_by_the_exact_bound(prepared):
    options = AuditOptions(probabilities=_without_halving, pools_check=False, draws=200)
    audit = audit_prepared(prepared, epsilon=1.0, lam=1.0, options=options)
    exact = audit.checks[0]
    assert exact.passed is False and not audit.passed
    assert all(not p.passed for p in audit.pools)
    assert max(p.tightness for p in audit.pools) > 1.0
    assert "FAIL" in audit.table()


def test_sampler_of_another_distribution_fails_chi2(prepared):
    """The no-/2 sampler against the exact ε probabilities: the χ² test rejects it."""
    options = AuditOptions(sampler=_sampler_without_halving, pools_check=False)
    audit = audit_prepared(prepared, epsilon=5.0, lam=1.0, options=options)
    assert audit.checks[0].passed is True
    assert audit.checks[1].passed is False, audit.table()
    assert min(r.p_value for r in audit.chi2) < min(r.alpha for r in audit.chi2)


def test_chi2_test_pools_small_cells_and_passes_the_real_sampler():
    row = np.array([0.01, 0.02, 0.9, 0.95, 1.0])
    result = chi2_test(row, epsilon=10.0, lam=1.0, draws=1000)
    expected = np.exp(log_probabilities(row[None, :], epsilon=10.0, lam=1.0))[0] * 1000
    assert result.cells == int(np.sum(expected >= 5)) + int(np.any(expected < 5))
    assert result.passed and math.isfinite(result.statistic)


def test_power_is_what_the_test_achieves_against_the_law_without_halving():
    """The stated power against the no-/2 sampler is the rejection rate a simulation of that sampler sees.

    1,000 χ² tests of 150 seeded no-/2 draws each, at a level where the computed power is moderate (0.54): the
    observed rejection rate is binomial, so it lies within 5 standard deviations (5·√(0.25/1000) = 0.079) of
    the truth with probability 1 − 6e-7. The noncentral-χ² approximation itself was within 0.005 of 3,000
    simulated tests at 300 and 2,000 draws, so a wrong power formula (or a test of the wrong cells) fails here.
    """
    row = np.array([0.1, 0.3, 0.5, 0.7, 0.9])
    epsilon, lam, draws, alpha = 2.0, 0.8, 150, 1e-2
    stated = power_against_missing_halving(row, epsilon=epsilon, lam=lam, draws=draws, alpha=alpha)
    assert 0.2 < stated < 0.9
    rng = np.random.default_rng(20261202)

    def no_halving(rows, *, epsilon, lam):
        return sample_outcomes(rows, epsilon=2 * epsilon, lam=lam, seed=int(rng.integers(2**32)))

    rejected = [
        not chi2_test(row, epsilon=epsilon, lam=lam, draws=draws, alpha=alpha, sampler=no_halving).passed
        for _ in range(1000)
    ]
    assert np.mean(rejected) == pytest.approx(stated, abs=0.079)


def test_draws_grow_until_the_law_without_halving_cannot_pass():
    rows = {("PERSON", "ORG"): np.array([0.05, 0.2, 0.35, 0.5, 0.8, 0.9])}
    at_five, at_one = draws_for_power(rows, epsilon=5.0, lam=1.0), draws_for_power(rows, epsilon=1.0, lam=1.0)
    assert at_one > at_five  # closer laws need more draws
    for epsilon, draws in ((5.0, at_five), (1.0, at_one)):
        power = power_against_missing_halving(
            rows[("PERSON", "ORG")], epsilon=epsilon, lam=1.0, draws=draws, alpha=1e-6
        )
        assert power >= 1 - 1e-6 or draws == 20000
        if draws > 2000:  # the count before it was not enough
            assert (
                power_against_missing_halving(
                    rows[("PERSON", "ORG")], epsilon=epsilon, lam=1.0, draws=draws // 2, alpha=1e-6
                )
                < 1 - 1e-6
            )
    # at ε = 0 both laws are uniform: no count separates them, so the audit spends the least
    assert draws_for_power(rows, epsilon=0.0, lam=1.0) == 2000
    assert power_against_missing_halving(rows[("PERSON", "ORG")], epsilon=0.0, lam=1.0, draws=2000, alpha=1e-6) == 1e-6


def test_the_sampler_is_tested_on_the_rows_that_best_tell_epsilon_from_twice_epsilon():
    """At most eight pools are tested; a row at distance λ from every candidate has the uniform law at every ε,
    so it cannot tell a broken sampler from a correct one and is never among them."""
    rng = np.random.default_rng(3)
    rows = {("PERSON", f"T{i}"): rng.uniform(0.0, 1.0, 10) for i in range(9)}
    rows |= {("ORG", "FLAT1"): np.ones(10), ("ORG", "FLAT2"): np.ones(10)}
    assert separation(rows[("ORG", "FLAT1")], epsilon=5.0, lam=1.0) == pytest.approx(0.0, abs=1e-15)
    chosen = most_separating(rows, epsilon=5.0, lam=1.0)
    assert len(chosen) == 8 and not any(pair[0] == "ORG" for pair in chosen)
    [left_out] = set(rows) - set(chosen) - {("ORG", "FLAT1"), ("ORG", "FLAT2")}
    assert all(
        separation(rows[pair], epsilon=5.0, lam=1.0) >= separation(rows[left_out], epsilon=5.0, lam=1.0)
        for pair in chosen
    )
    results = sampler_conformance(rows, epsilon=5.0, lam=1.0, draws=300)
    assert [r.type_pair for r in results] == sorted(chosen)
    assert all(r.alpha == pytest.approx(1e-6 / 8) for r in results)


class _LeakyGenerator:
    """Test-only: a generator whose signature could receive a document."""

    name = "leaky"

    def generate(self, type_pair, k, document=None):
        return InventoryCandidates().generate(type_pair, k)


class _DriftingGenerator:
    """Test-only: a generator whose pools change between calls (not a function of the type pair alone)."""

    name = "drifting"

    def __init__(self):
        self.calls = 0
        self.inner = InventoryCandidates()

    def generate(self, type_pair, k):
        self.calls += 1
        pool = self.inner.generate(type_pair, k + 1)
        return type(pool)(type_pair, pool.predicates[self.calls % 2 : self.calls % 2 + k], pool.source)


def test_pool_checks_catch_generators_that_are_not_public(prepared):
    assert generator_takes_only_type_pair_and_k(InventoryCandidates())
    assert not generator_takes_only_type_pair_and_k(_LeakyGenerator())
    encoder = load_encoder()
    for generator, failing in ((_LeakyGenerator(), 0), (_DriftingGenerator(), 1)):
        audit = run_audit(
            AuditInputs(prepared.pools),
            settings=AuditSettings(1.0, 1.0, 10, AuditOptions(draws=200)),
            backends=AuditBackends(encoder, generator),
        )
        pool_checks = [c for c in audit.checks if c.name.startswith("pools:")]
        assert pool_checks[failing].passed is False, audit.table()
        assert not audit.passed


def test_report_records_the_audit_and_cli_audits_a_written_release(prepared, tmp_path, capsys):
    release = prepared.draw(epsilon=5.0, lam=1.0)
    full = audit_prepared(prepared, epsilon=5.0, lam=1.0, options=AuditOptions(pools_check=False))
    with pytest.raises(ValueError, match="cannot go into a public report"):
        with_audit(release, full)  # its numbers come from the original relations (invariant 12)
    public = public_audit(release, generator=InventoryCandidates(), options=AuditOptions(pools_check=False))
    assert all(p.originals == 0 for p in public.pools)
    audited = with_audit(release, full, public=public)
    files = public_files(audited)
    report = json.loads(files["report.json"])
    assert report["self_audit"]["passed"] is True
    assert report["self_audit"] == public.to_dict() and audited.confidential["self_audit"] == full.to_dict()
    assert "## Self-audit of the guarantee: PASS" in files["report.md"].decode()
    assert "self_audit" not in json.loads(public_files(release)["report.json"])

    write_release(release, tmp_path)
    code = cli.main(["audit", "--release", str(tmp_path), "--record", "--json", str(tmp_path.parent / "a.json")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "overall: PASS (ε=5, λ=1)" in out and "skipped" in out
    recorded = read_report(tmp_path)["self_audit"]
    assert recorded["passed"] and recorded["epsilon"] == 5.0
    assert "Self-audit" in (tmp_path / "report.md").read_text()
    assert json.loads((tmp_path.parent / "a.json").read_text())["k"] == 10


def _twice_the_minimum(per_triple, owners, groups):
    """Test-only broken group utility: −2·min d_R, which moves by up to 2·d_R when one relation changes."""
    from relguard.privacy.mechanism import group_distances

    return np.clip(2 * group_distances(per_triple, owners, groups), 0.0, 1.0)


def _keyed_by_predicate(documents):
    """Test-only broken grouping: one group per (pair, predicate), the key the release issue found."""
    from relguard.extract.corpus import group_relations
    from relguard.types import RelationGroup

    return tuple(RelationGroup(*t.pair_key, triples=(t,)) for g in group_relations(documents) for t in g.triples)


def test_group_checks_pass_for_the_minimum_and_catch_broken_groupings(prepared):
    """Invariant 6: the exact audit checks the group utility and that groups never key on the predicate."""
    encoder = load_encoder()
    checked, replaced, excess = audit_groups(prepared.groups, prepared.pools, encoder, epsilon=2.0, lam=1.0)
    assert checked >= len(prepared.groups) and replaced > 0 and excess <= 1e-9
    _, _, broken = audit_groups(
        prepared.groups, prepared.pools, encoder, epsilon=2.0, lam=1.0, combine=_twice_the_minimum
    )
    assert broken > 1e-3
    ok, _ = grouping_is_public(prepared.extraction, prepared.pools)
    assert ok
    # a corpus where one pair holds two different predicates: a predicate key splits it, and rewriting the
    # predicates (both to the same pool predicate) merges it again, so the grouping check fails
    two = prepare(
        [
            Document("x.txt", "Alice Smith works for Acme Corporation."),
            Document("y.txt", "Alice Smith founded Acme Corporation."),
        ],
        k=10,
    )
    assert len(two.groups) == 1 and len(two.groups[0].triples) == 2
    bad, detail = grouping_is_public(two.extraction, two.pools, grouper=_keyed_by_predicate)
    assert not bad, detail


def test_public_file_check_finds_input_digests_and_confidential_counts(prepared):
    release = prepared.draw(epsilon=1.0, lam=1.0)
    files = dict(public_files(release))
    assert public_file_problems(files) == []
    digest = "ab" * 32
    leaked = dict(files, **{"config.toml": f'[inputs]\n"a.txt" = "{digest}"\n'.encode()})
    assert any("SHA-256 of an input" in p for p in public_file_problems(leaked, input_digests=[digest]))
    report = json.loads(files["report.json"])
    report["counts"]["unchanged"] = 3
    report["backends"] = {"extractor": {"model": "m", "prompt_tokens": 12}}
    bad = dict(files, **{"report.json": json.dumps(report).encode()})
    problems = public_file_problems(bad)
    assert any("unchanged" in p for p in problems) and any("prompt_tokens" in p for p in problems)
