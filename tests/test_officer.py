"""What a privacy officer needs before signing (issue 42): nothing emptied in silence."""

import json
from pathlib import Path

from relguard.cli import main


def test_a_document_emptied_by_the_draw_is_named_in_the_summary_and_both_reports(tmp_path, capsys):
    """Seed 6 at ε = 0.1, λ = 0 draws the null outcome for the one relation of a one-sentence note (a teaching
    draw, so the outcome is fixed): the file comes out empty, and every face says which file and why."""
    (tmp_path / "note.txt").write_text("Maria Lopez works for Acme Corp.\n")
    out = tmp_path / "out"
    argv = ["sanitize", str(tmp_path / "note.txt"), "--out", str(out), "--seed", "6", "--epsilon", "0.1"]
    assert main([*argv, "--lam", "0", "--quiet"]) == 0
    assert not (out / "documents" / "note.txt").read_text().strip()
    said = capsys.readouterr().out
    assert "note.txt came out EMPTY: 1 of 1 sentence gone; 1 deleted by a null outcome" in said, said
    report = json.loads((out / "report.json").read_text())
    assert report["documents_losing_text"] == [
        {
            "document": "note.txt",
            "sentences": 1,
            "sentences_gone": 1,
            "empty": True,
            "null_outcome": 1,
            "unfillable": 0,
            "leak_scan": 0,
        }
    ]
    assert "- note.txt came out EMPTY: 1 of 1 sentence gone" in (out / "report.md").read_text()


def test_a_document_that_keeps_its_sentences_is_not_named(tmp_path, capsys):
    (tmp_path / "note.txt").write_text("Maria Lopez works for Acme Corp.\n")
    out = tmp_path / "out"
    argv = ["sanitize", str(tmp_path / "note.txt"), "--out", str(out), "--seed", "1", "--epsilon", "0.1"]
    assert main([*argv, "--lam", "0", "--quiet"]) == 0
    assert "came out" not in capsys.readouterr().out
    assert json.loads(Path(out / "report.json").read_text())["documents_losing_text"] == []
