"""The budget accountant: a private draw that would take a corpus past the ε budget its user set is refused before
any work, in words that name the budget, what was spent and what to do; within the budget it is drawn.

The ledger is the release folder's (CLI) or the session's (app), as for the count (tests/test_draws.py). Teaching
draws carry no guarantee and spend nothing, so no budget refuses them.
"""

from __future__ import annotations

import contextlib
import json
import tomllib

import pytest

from relguard import cli
from relguard.engine import public_files
from relguard.errors import BudgetError, ConfigError
from relguard.release.config import read_config
from relguard.release.draws import Accountant, DrawHistory, draw_entry
from relguard.settings import PrivacySettings
from relguard.studio.session import Studio
from relguard.types import Document

MEMO = "Alice Smith founded Acme Corp in 2001. Bob Jones lives in Paris.\n"


def _sanitize(root, *flags: str, name: str = "memo.txt") -> int:
    (root / "in").mkdir(parents=True, exist_ok=True)
    (root / "in" / name).write_text(MEMO, encoding="utf-8")
    with contextlib.chdir(root):
        return cli.main(["sanitize", f"in/{name}", "--out", "out", "--quiet", *flags])


def _report(root) -> dict:
    return json.loads((root / "out" / "report.json").read_text())


def _entry(epsilon: float, *, private: bool = True) -> dict:
    return draw_entry(epsilon=epsilon, lam=1.0, k=10, entity_epsilon=None, private=private, max_groups=2)


def test_the_accountant_allows_up_to_the_budget_and_refuses_past_it_in_words():
    accountant = Accountant(5.0)
    ledger = [_entry(2.0), _entry(9.0, private=False), _entry(1.0)]
    assert accountant.spent(ledger) == 3.0 and accountant.remaining(ledger) == 2.0
    accountant.charge(ledger, epsilon=2.0, private=True, where="here")  # 3 + 2 = 5: within
    accountant.charge(ledger, epsilon=50.0, private=False, where="here")  # a teaching draw spends nothing
    with pytest.raises(BudgetError) as refused:
        accountant.charge(ledger, epsilon=2.5, private=True, where="out/report.json")
    message = str(refused.value)
    assert message.startswith("out/report.json: ")
    for said in ("budget of 5", "2 earlier private draws already spent 3", "2 is left", "--budget", "Publish one"):
        assert said in message, message
    Accountant(None).charge(ledger, epsilon=1e6, private=True, where="here")  # no budget: no cap
    assert Accountant(None).remaining(ledger) is None


def test_a_folder_ledger_is_charged_only_for_a_corpus_that_shares_a_document_name():
    history = DrawHistory((_entry(4.0),), documents=frozenset({"documents/memo.txt", "documents/scan.pdf.txt"}))
    assert history.applies_to_inputs(["memo.txt"]) == history.earlier
    assert history.applies_to_inputs(["scan.pdf"]) == history.earlier  # written as scan.pdf.txt
    assert history.applies_to_inputs(["memo.md", "other.txt"]) == ()


def test_the_cli_refuses_a_private_draw_past_the_budget_before_any_work(tmp_path, capsys):
    assert _sanitize(tmp_path, "--epsilon", "1", "--budget", "3") == 0
    assert _sanitize(tmp_path, "--epsilon", "2", "--budget", "3") == 0  # 1 + 2 = 3: within
    before = (tmp_path / "out" / "report.json").read_bytes()
    draws = _report(tmp_path)["draws"]
    assert draws["this_draw"] == 2 and draws["budget"] == 3.0 and draws["budget_left"] == 0.0
    assert "The budget set for this corpus is ε = 3; it leaves ε = 0." in (tmp_path / "out" / "report.md").read_text()
    capsys.readouterr()
    assert _sanitize(tmp_path, "--epsilon", "0.5", "--budget", "3") == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "out/report.json" in err and "budget of 3" in err and "already spent 3" in err and "--budget" in err
    assert (tmp_path / "out" / "report.json").read_bytes() == before  # nothing drawn, nothing written
    assert _sanitize(tmp_path, "--epsilon", "0.5", "--budget", "3", "--seed", "4") == 0  # teaching: not refused
    assert _sanitize(tmp_path, "--epsilon", "0.5", "--budget", "3", name="other.txt") == 0  # another corpus


def test_the_budget_round_trips_through_config_toml_and_its_replay_is_refused_past_it(tmp_path, capsys):
    assert _sanitize(tmp_path, "--epsilon", "2", "--budget", "3") == 0
    config = tmp_path / "out" / "config.toml"
    document = tomllib.loads(config.read_text())
    assert document["privacy"]["budget"] == 3.0 and "--budget 3" in document["command"]
    run, _ = read_config(config)
    assert run.settings.privacy.budget == 3.0
    capsys.readouterr()
    with contextlib.chdir(tmp_path):
        assert cli.main(["sanitize", "--config", "out/config.toml", "--out", "out", "--quiet"]) == 1
    assert "budget of 3" in capsys.readouterr().err


def test_a_budget_must_be_a_finite_number_at_least_zero():
    assert PrivacySettings(budget=4).budget == 4.0
    with pytest.raises(ConfigError, match="budget must be a finite number >= 0"):
        PrivacySettings(budget=-1.0)


def test_the_app_refuses_a_draw_past_the_sessions_budget_and_its_export_keeps_the_budget(resources):
    state: dict = {}
    studio = Studio(state, environ={})
    studio.init()
    studio.add([Document("memo.txt", MEMO)], {"memo.txt": "x"})
    state.update(epsilon=2.0, draw_budget=3.0)
    assert studio.budget_left() == 3.0
    studio.draw(studio.prepared(resources))
    assert studio.budget_left() == 1.0
    exported = public_files(studio.public_release())
    assert tomllib.loads(exported["config.toml"].decode())["privacy"]["budget"] == 3.0
    draws = json.loads(exported["report.json"])["draws"]
    assert (draws["budget"], draws["budget_left"]) == (3.0, 1.0)
    with pytest.raises(BudgetError, match=r"this session's draws: .*budget of 3"):
        studio.draw(studio.prepared(resources))
    assert state["draws"] == 1
    state.update(epsilon=1.0)
    studio.draw(studio.prepared(resources))
    assert studio.budget_left() == 0.0
