"""The Risk & utility page under AppTest: live expected leakage, and the attack on a drawn release."""

import re

import pytest

pytest.importorskip("streamlit")

from tests.test_app import goto, start, with_sample


def metric(at, label: str) -> float:
    """A percentage metric's value as a fraction."""
    value = next(m.value for m in at.metric if m.label == label)
    return float(value.rstrip("%")) / 100


def test_empty_session_points_to_documents():
    at = goto(start(), "risk")
    assert any("No documents yet" in i.value for i in at.info)


def test_expected_leakage_is_shown_and_follows_epsilon():
    at = goto(with_sample(), "risk")
    assert at.title[0].value == "Risk & utility"
    assert any("No release yet" in i.value for i in at.info)
    assert len(at.get("plotly_chart")) == 1
    kept, meaning, deleted = (metric(at, m) for m in ("connections kept", "meaning kept", "relations deleted"))
    assert kept + deleted == pytest.approx(1.0, abs=0.002)  # shown to 0.1 %: 1 − P(null) and P(null)
    assert 0 < meaning < kept
    at.select_slider(key="risk_epsilon").set_value(10.0).run()
    assert not at.exception
    assert at.session_state.epsilon == 10.0  # the page moves the same ε as Tune
    # a larger ε concentrates the distribution on the original relation (d_R = 0): more meaning survives
    assert metric(at, "meaning kept") > meaning
    assert metric(at, "connections kept") > kept


def test_attack_on_the_drawn_release_sits_beside_no_defence():
    at = goto(with_sample(), "tune")
    at.toggle(key="w_teaching").set_value(True).run()
    next(b for b in at.button if b.label == "Draw a release").click().run()
    assert at.session_state.release is not None
    goto(at, "risk")
    assert not at.dataframe  # the attack runs only on request
    at.button(key="risk_run").click().run()
    assert not at.exception, [e.value for e in at.exception]
    rows = at.dataframe[0].value
    assert list(rows["method"]) == ["no defence (original text)", "RelGuard (ε = 1, λ = 1, K = 10)"]
    none, relguard = rows.iloc[0], rows.iloc[1]
    # the attacker reads the originals with the extractor that defined the truth: everything is recovered
    assert none["Conn. F1"] == pytest.approx(100.0)
    assert none["Rel. F1"] == pytest.approx(100.0)
    # at ε = 1 only ~23 % of the 61 relations keep their meaning in expectation, so Rel. must fall
    assert relguard["Rel. F1"] < none["Rel. F1"]
    # no gold for these documents: no coverage column (it would read 100 % by definition), and the page says so
    assert "coverage" not in rows.columns
    assert not [m.value for m in at.markdown if re.search(r"coverage (is )?100", m.value, re.IGNORECASE)]
    assert any("Coverage cannot be measured here" in m.value for m in at.markdown)
    assert any("vs no defence" in str(m.delta) for m in at.metric)
    goto(at, "risk")  # the measurement stays with its release across page visits
    assert len(at.dataframe) == 1
