"""The CLI over the three shared public datasets, end to end, as a new user would run it.

A green suite once hid that ``relguard sanitize`` aborted on every shared dataset; this test is the guard. Each
corpus (994 HotpotQA paragraphs, 1,174 2Wiki passages, 500 Re-DocRED documents) goes through ``relguard
sanitize`` into a release; the run must complete, block nothing and withhold nothing, and its report must
count every document.
"""

from __future__ import annotations

import json

import pytest

from relguard import cli
from relguard.evaluation.datasets import default_data_dir, load_dataset, write_jsonl

DATASETS = {"hotpotqa": 994, "2wiki": 1174, "redocred": 500}


@pytest.fixture(scope="module")
def data_dir():
    folder = default_data_dir()
    if folder is None or not folder.is_dir():
        pytest.fail("the shared datasets were not found: set RELGUARD_DATA_DIR or check out ../shared/data")
    return folder


@pytest.mark.slow
@pytest.mark.parametrize("name", DATASETS)
def test_sanitize_completes_on_a_shared_dataset(name, data_dir, tmp_path, capsys):
    corpus = write_jsonl(load_dataset(name, data_dir=data_dir), tmp_path / f"{name}.jsonl")
    out = tmp_path / "release"
    code = cli.main(["sanitize", str(corpus), "--out", str(out), "--epsilon", "5", "--quiet"])
    printed = capsys.readouterr()
    assert code == 0, printed.err
    assert "relguard: error" not in printed.err and "withheld:" not in printed.err
    report = json.loads((out / "report.json").read_text())
    counts = report["counts"]
    assert counts["documents"] == DATASETS[name] and counts["sentences_withheld"] == 0
    assert counts["groups"] > 300 and 0 < counts["sentences_removed"] < counts["sentences"]
    lines = (out / "documents" / f"{name}.jsonl").read_text().splitlines()
    assert len(lines) == DATASETS[name] and all(json.loads(line)["text"] is not None for line in lines)
