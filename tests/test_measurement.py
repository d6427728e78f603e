"""The draw is an OpenDP measurement whose privacy map is the guarantee the report prints and the audit checks."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy import stats

from relguard.privacy.measurement import relation_measurement
from relguard.privacy.mechanism import log_probabilities, utilities
from relguard.release.report import ReleaseSummary, build_report
from relguard.types import Guarantee
from relguard.verify.public import public_file_problems


def test_the_opendp_object_states_pure_dp_with_the_map_epsilon_times_d():
    m = relation_measurement(epsilon=5.0)
    assert str(m.opendp.output_measure) == "MaxDivergence"
    assert "L-inf" in str(m.opendp.input_metric)
    for d in (0.0, 0.01, 0.37, 1.0, 3.0):
        assert m.opendp.map(d) == pytest.approx(5.0 * d, rel=1e-15)
        assert m.opendp.check(d, 5.0 * d + 1e-12)
    assert not m.opendp.check(0.37, 5.0 * 0.37 - 1e-6)
    # the array form the audit reads is the same function
    grid = np.linspace(0, 1, 11)
    np.testing.assert_array_equal(m.privacy_map(grid), [m.opendp.map(float(d)) for d in grid])


def test_the_map_bounds_the_exact_law_and_is_tight():
    """For utility rows Δ apart in L∞, every log-ratio of the law is within map(Δ); a map of ε·d/2 would fail the
    tight pair (candidate y nearer by Δ, every other one farther by Δ, null negligible: ratio → ε·Δ)."""
    epsilon, lam, k = 4.0, 1.0, 40
    m = relation_measurement(epsilon=epsilon)
    rng = np.random.default_rng(3)
    worst = 0.0
    for _ in range(200):
        d = rng.uniform(0.2, 0.8, size=(1, k))
        delta = rng.uniform(0.0, 0.2)
        moved = np.clip(d + rng.uniform(-delta, delta, size=d.shape), 0, 1)
        shift = float(np.max(np.abs(utilities(moved, lam=lam) - utilities(d, lam=lam))))
        ratio = np.max(
            np.abs(log_probabilities(moved, epsilon=epsilon, lam=lam) - log_probabilities(d, epsilon=epsilon, lam=lam))
        )
        assert ratio <= m.privacy_map(shift) + 1e-9
        worst = max(worst, ratio / max(m.privacy_map(shift), 1e-12))
    d = np.full((1, k), 0.5)
    tight = d + 0.1
    tight[0, 0] = 0.4
    ratio = abs(log_probabilities(tight, epsilon=epsilon, lam=lam) - log_probabilities(d, epsilon=epsilon, lam=lam))[
        0, 0
    ]
    assert ratio > 0.9 * m.privacy_map(0.1), ratio


def test_the_measurement_draws_the_law_on_its_domain_of_utility_rows():
    m = relation_measurement(epsilon=3.0)
    d = np.array([[0.05, 0.3, 0.6, 0.9]])
    rows = np.repeat(utilities(d, lam=0.7), 6000, axis=0)
    counts = np.bincount(m(rows), minlength=5)
    expected = 6000 * np.exp(log_probabilities(d, epsilon=3.0, lam=0.7)[0])
    # a correct sampler fails this with probability 1e-6
    assert stats.chisquare(counts, expected).pvalue > 1e-6
    assert m.opendp.input_domain.member(rows)
    assert not m.opendp.input_domain.member(np.array([0.1, 0.2]))
    assert not m.opendp.input_domain.member(np.array([[0.1, np.nan]]))


def _report(*, epsilon: float, m: int) -> dict:
    """The public report of a release at ``epsilon`` with ``m`` groups in its most crowded document."""
    empty: dict = {}
    g = Guarantee(epsilon=epsilon, lam=1.0, k=10)
    return build_report(ReleaseSummary(g, empty, (), empty, empty, m, empty))


def test_the_report_reads_its_bounds_and_measurement_from_the_object():
    block = _report(epsilon=2.5, m=4)["guarantee"]
    m = relation_measurement(epsilon=2.5)
    assert block["measurement"]["output_measure"] == str(m.opendp.output_measure)
    assert block["measurement"]["loss_at_d_R_1"] == m.opendp.map(1.0) == 2.5
    assert block["worst_case_per_relation_bound"] == math.exp(m.opendp.map(1.0))
    assert block["worst_case_per_document_bound"] == pytest.approx(math.exp(m.opendp.map(4.0)))


def test_the_audit_finds_a_report_whose_stated_guarantee_is_not_the_draws():
    """Check 5 compares the report's bounds and measurement with the measurement object: a report that promises
    more than the draw's map (edited, or written by code that drifted from its draw) is a problem, named."""
    report = _report(epsilon=3.0, m=2)
    assert public_file_problems({"report.json": json.dumps(report).encode()}) == []
    report["guarantee"]["worst_case_per_relation_bound"] = math.exp(1.5)
    report["guarantee"]["measurement"]["loss_at_d_R_1"] = 1.5
    problems = public_file_problems({"report.json": json.dumps(report).encode()})
    assert len(problems) == 2, problems
    assert "guarantee.worst_case_per_relation_bound" in problems[1] and "privacy map gives" in problems[1]
    assert "guarantee.measurement" in problems[0]
