"""The composition ledger (DESIGN invariant 14): every draw of a corpus is counted, and the report adds their ε.

On the command line the count is kept in the release folder's own history (its report.json); in the app, in the
session. Both decide "the same corpus" by the documents' names alone, so the count never reads a relation's words
(the neighbour test for the folder history is in tests/test_neighbours.py).
"""

from __future__ import annotations

import contextlib
import json
import math

import pytest

from relguard import cli
from relguard.engine import public_files
from relguard.release.draws import COUNTED
from relguard.studio.session import Studio
from relguard.types import Document

MEMO = "Alice Smith founded Acme Corp in 2001. Bob Jones lives in Paris.\n"


def _run(root, *flags: str, out: str = "out", name: str = "memo.txt", text: str = MEMO) -> dict:
    (root / "in").mkdir(parents=True, exist_ok=True)
    (root / "in" / name).write_text(text, encoding="utf-8")
    with contextlib.chdir(root):
        assert cli.main(["sanitize", f"in/{name}", "--out", out, "--quiet", *flags]) == 0
    return json.loads((root / out / "report.json").read_text())


def test_each_release_into_the_same_folder_is_the_next_draw_and_the_ledger_adds_its_epsilon(tmp_path, capsys):
    first = _run(tmp_path, "--epsilon", "1")
    assert first["draws"]["this_draw"] == 1 and first["draws"]["total_epsilon"] == 1.0
    m = first["guarantee"]["max_groups_in_one_document"]
    assert m == 2  # two pairs in the one document: the per-document exponent is ε·m
    _run(tmp_path, "--epsilon", "2")
    _run(tmp_path, "--epsilon", "2", "--seed", "5")  # a teaching draw: counted, spends no private ε
    last = _run(tmp_path, "--epsilon", "2")
    draws = last["draws"]
    assert (draws["this_draw"], draws["at_these_settings"], draws["private"]) == (4, 3, 3)
    assert [e["epsilon"] for e in draws["ledger"]] == [1.0, 2.0, 2.0, 2.0]
    assert [e["private"] for e in draws["ledger"]] == [True, True, False, True]
    assert [e["draw"] for e in draws["ledger"]] == [1, 2, 3, 4]
    assert draws["total_epsilon"] == pytest.approx(5.0)  # 1 + 2 + 2: k draws of ε give k·ε
    assert draws["total_per_document_epsilon"] == pytest.approx(5.0 * m)
    assert draws["worst_case_per_relation_bound"] == pytest.approx(math.exp(5.0))
    assert COUNTED in last["limits"] and last["draws"]["counted"] == COUNTED
    markdown = (tmp_path / "out" / "report.md").read_text()
    section = markdown.split("## Draws of this corpus", 1)[1].split("\n## ", 1)[0]
    assert "draw **4**" in section and "**ε = 5**" in section and "breaks the promise" in section
    assert "| 3 | 2 | 1 | 10 | no (teaching seed) | 2 |" in section
    capsys.readouterr()


def test_a_folder_reused_for_another_corpus_starts_a_new_ledger(tmp_path, capsys):
    _run(tmp_path, "--epsilon", "1")
    other = _run(tmp_path, "--epsilon", "1", name="board.txt", text="Carla Diaz chairs Vexel Labs.\n")
    assert other["draws"]["this_draw"] == 1 and len(other["draws"]["ledger"]) == 1
    capsys.readouterr()


def test_a_release_from_before_the_ledger_counts_as_one_draw_at_its_own_settings(tmp_path, capsys):
    old = _run(tmp_path, "--epsilon", "3", "--k", "6")
    del old["draws"]
    (tmp_path / "out" / "report.json").write_text(json.dumps(old))
    again = _run(tmp_path, "--epsilon", "1")
    assert [(e["epsilon"], e["k"]) for e in again["draws"]["ledger"]] == [(3.0, 6), (1.0, 10)]
    assert again["draws"]["total_epsilon"] == pytest.approx(4.0)
    capsys.readouterr()


@pytest.mark.parametrize(
    "report",
    [b"{not json", json.dumps({"files": {"outputs": {}}, "draws": {"ledger": [{"epsilon": -1}]}}).encode()],
)
def test_a_release_folder_whose_draws_cannot_be_read_is_one_line_and_nothing_is_written(tmp_path, capsys, report):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "report.json").write_bytes(report)
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "memo.txt").write_text(MEMO)
    with contextlib.chdir(tmp_path):
        assert cli.main(["sanitize", "in", "--out", "out", "--quiet"]) == 1
    err = capsys.readouterr().err.strip()
    assert "out/report.json: the release already in --out cannot be read" in err and len(err.splitlines()) == 1
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["report.json"]


def _session_report(resources, texts: list[str], state_folder) -> dict:
    """The exported report of the last of several draws in one session, at ε = 0 with a teaching seed, the
    memo's text replaced by each of ``texts`` in turn before its draw; ``state_folder``: the app's state on disk
    (a session with its own folder starts a ledger, as on another machine)."""
    state: dict = {}
    studio = Studio(state, environ={"RELGUARD_STATE": str(state_folder)})
    studio.init()
    state.update(epsilon=0.0, teaching_seed=True, seed=7)
    for text in texts:
        studio.add([Document("memo.txt", text)], {"memo.txt": "x"})
        studio.draw(studio.prepared(resources))
    return json.loads(public_files(studio.public_release())["report.json"])


def test_the_apps_report_carries_the_sessions_draws_and_a_reworded_relation_is_the_same_corpus(resources, tmp_path):
    """Drawing, rewording one relation and drawing again is two draws of one corpus (its documents' names): a
    content key would reset the count exactly when a relation's words changed."""
    same = _session_report(resources, [MEMO, MEMO], tmp_path / "a")
    reworded = _session_report(resources, [MEMO.replace("founded", "left"), MEMO], tmp_path / "b")
    assert same["draws"]["this_draw"] == 2 and [e["epsilon"] for e in same["draws"]["ledger"]] == [0.0, 0.0]
    assert same == reworded
    assert _session_report(resources, [MEMO], tmp_path / "c")["draws"]["this_draw"] == 1
    assert _session_report(resources, [MEMO], tmp_path / "a")["draws"]["this_draw"] == 3  # a reload goes on
