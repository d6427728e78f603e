"""The entity level in a release (DESIGN invariant 13): report fields, the CLI's flag and summary, replay, audit.

One tiny corpus: Alice Smith takes part in three relation groups (Acme Corp, Paris, Bob Jones), Carol White in
one (Berlin). So n(Alice) = 3, every other entity has n = 1, and with a per-entity budget E Alice's groups are
drawn at E/3 and Carol's at E.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from relguard import cli
from relguard.errors import ConfigError
from relguard.privacy.entity import group_loss, max_move
from relguard.settings import PrivacySettings
from relguard.types import Document
from relguard.verify import audit_report, read_report
from relguard.verify.settings import AuditOptions

TEXT = (
    "Alice Smith founded Acme Corp in 2001. Alice Smith lives in Paris. Alice Smith married Bob Jones. "
    "Carol White was born in Berlin."
)


def _release(tmp_path: Path, *options: str, name: str = "out") -> tuple[dict, str, Path]:
    source = tmp_path / "in"
    source.mkdir(exist_ok=True)
    (source / "people.txt").write_text(TEXT + "\n", encoding="utf-8")
    out = tmp_path / name
    assert cli.main(["sanitize", str(source), "--out", str(out), "--seed", "7", "--quiet", *options]) == 0
    return json.loads((out / "report.json").read_text()), (out / "report.md").read_text(), out


def test_the_report_states_the_weakest_entity_and_the_spread_of_n(tmp_path, capsys):
    report, markdown, _ = _release(tmp_path, "--epsilon", "1")
    summary = capsys.readouterr().out
    block = report["entity_level"]
    assert block["groups_per_entity"] == {"1": 5, "3": 1}
    assert block["entities"] == 6 and block["max_groups_of_one_entity"] == 3
    worst = block["worst_entity"]
    assert worst["groups"] == 3
    assert worst["log_bound"] == pytest.approx(3 * group_loss(epsilon=1.0, lam=1.0, k=10))
    assert worst["bound"] == pytest.approx(math.exp(worst["log_bound"]))
    assert worst["plain_bound"] == pytest.approx(math.exp(3.0))
    assert block["d_max"] == pytest.approx(max_move(epsilon=1.0, lam=1.0, k=10))
    assert block["entity_epsilon"] is None and "entity_epsilon" not in report["parameters"]
    assert "## Entity level" in markdown and "3 relation groups" in markdown
    assert "weakest entity in 3 groups: ≤ e^2.61" in summary


def test_a_per_entity_budget_draws_each_group_at_its_share_and_states_both_guarantees(tmp_path, capsys):
    report, markdown, out = _release(tmp_path, "--entity-epsilon", "3")
    summary = capsys.readouterr().out
    assert report["parameters"]["entity_epsilon"] == 3.0 and report["parameters"]["epsilon"] == 3.0
    block = report["entity_level"]
    assert block["epsilon_per_group"] == {"min": 1.0, "median": 1.0, "max": 3.0}
    assert block["groups_by_larger_n"] == {"1": 1, "3": 3}
    assert block["per_entity_bound"] == pytest.approx(math.exp(3.0))
    assert block["worst_entity"]["log_bound"] <= 3.0
    assert sorted(v for values in block["epsilons_by_pool"].values() for v in values) == [1.0, 1.0, 1.0, 3.0]
    assert "Per-entity budget E = 3" in markdown and "min 1, median 1, max 3" in markdown
    assert "E=3 per entity, ε_g 1–3" in summary
    config = (out / "config.toml").read_text()
    assert "entity_epsilon = 3.0" in config and "--entity-epsilon 3 " in config


def test_a_replay_of_a_per_entity_release_carries_its_budget(tmp_path, capsys):
    _, _, out = _release(tmp_path, "--entity-epsilon", "3")
    again = tmp_path / "again"
    assert cli.main(["sanitize", "--config", str(out / "config.toml"), "--out", str(again), "--quiet"]) == 0
    capsys.readouterr()
    assert (again / "report.json").read_bytes() == (out / "report.json").read_bytes()
    assert (
        cli.main(["sanitize", "--config", str(out / "config.toml"), "--out", str(again), "--entity-epsilon", "2"]) == 1
    )
    assert "drop --entity-epsilon" in capsys.readouterr().err


@pytest.mark.parametrize(
    "flags, status, fragment",
    [
        (["--entity-epsilon", "-1"], 1, "entity epsilon must be a finite number >= 0 (got -1.0)"),
        (["--entity-epsilon", "nan"], 1, "entity epsilon must be a finite number >= 0"),
        (["--entity-epsilon", "2", "--epsilon", "5"], 1, "give --epsilon (per relation) or --entity-epsilon"),
        (["--entity-epsilon", "two"], 2, "argument --entity-epsilon: invalid float value"),
    ],
)
def test_bad_entity_budgets_are_one_line(tmp_path, capsys, flags, status, fragment):
    (tmp_path / "a.txt").write_text(TEXT, encoding="utf-8")
    try:
        ended = cli.main(["sanitize", str(tmp_path / "a.txt"), "--out", str(tmp_path / "o"), *flags])
    except SystemExit as exc:  # argparse's own usage errors
        ended = exc.code
    err = capsys.readouterr().err.strip().splitlines()
    assert ended == status and len(err) == 1 and fragment in err[0], err
    assert not (tmp_path / "o").exists()


def test_evaluate_refuses_a_negative_entity_budget_before_loading_anything(capsys):
    assert cli.main(["evaluate", "--dataset", "nowhere", "--out", "x", "--entity-epsilons", "1,-2"]) == 1
    assert "entity epsilon must be a finite number >= 0 (got -2.0)" in capsys.readouterr().err


def test_a_teaching_seed_with_a_budget_is_allowed_and_said_not_private(tmp_path, capsys):
    report, _, _ = _release(tmp_path, "--entity-epsilon", "3")
    assert report["private_release"] is False and "NOT A PRIVATE RELEASE" in report["notice"]
    assert "NOT a private release" in capsys.readouterr().err


def test_the_library_takes_one_budget(sample):
    with pytest.raises(ConfigError, match="not both"):
        sample.draw(epsilon=1.0, entity_epsilon=2.0, lam=1.0, seed=1)
    with pytest.raises(ConfigError, match="needs epsilon"):
        sample.draw(lam=1.0, seed=1)
    with pytest.raises(ConfigError, match="epsilon is E too"):
        PrivacySettings(epsilon=1.0, entity_epsilon=2.0)
    release = sample.draw(entity_epsilon=2.0, lam=1.0, seed=1)
    assert release.guarantee.entity_epsilon == 2.0 and release.guarantee.epsilon == 2.0
    per_group = sample.group_epsilons(entity_epsilon=2.0)
    assert per_group.max() <= 2.0 and per_group.min() < 2.0
    table = sample.probabilities(epsilon=per_group, lam=1.0)
    for row, epsilon in ((0, per_group[0]), (len(per_group) - 1, per_group[-1])):
        assert table[row] == pytest.approx(sample.probabilities(epsilon=float(epsilon), lam=1.0)[row])


def test_the_audit_of_a_per_entity_release_checks_every_pool_at_its_groups_own_epsilon(tmp_path, capsys):
    _, _, out = _release(tmp_path, "--entity-epsilon", "3")
    capsys.readouterr()
    audit = audit_report(read_report(out), options=AuditOptions(pools_check=False))
    checks = {c.name.split(":")[0]: c for c in audit.checks}
    assert audit.passed, audit.table()
    assert "at their groups' own ε_g (2 values)" in audit.checks[0].detail
    assert {p.epsilon for p in audit.pools} == {1.0, 3.0}
    assert "each row at its own ε_g" in audit.checks[1].detail
    assert checks["entity budget"].passed is True and checks["entity"].passed is True


def test_a_document_of_the_release_is_what_the_library_draws(tmp_path, capsys):
    """The CLI and the library draw the same release for one seed with a per-entity budget (one sampler)."""
    from relguard.pipeline import sanitize

    _, _, out = _release(tmp_path, "--entity-epsilon", "3")
    capsys.readouterr()
    release = sanitize([Document("people.txt", TEXT + "\n")], entity_epsilon=3.0, lam=1.0, k=10, seed=7)
    notice = json.loads((out / "report.json").read_text())["release_notice"] + "\n\n"  # the CLI's, above the text
    assert (out / "documents" / "people.txt").read_text() == notice + release.documents[0].text


def test_inspect_shows_each_group_at_its_own_epsilon(tmp_path, capsys):
    (tmp_path / "a.txt").write_text(TEXT, encoding="utf-8")
    assert cli.main(["inspect", str(tmp_path / "a.txt"), "--entity-epsilon", "3"]) == 0
    out = capsys.readouterr().out
    assert "E=3 per entity λ=1 K=10" in out
    assert out.count("drawn at ε_g=1:") == 3 and out.count("drawn at ε_g=3:") == 1
