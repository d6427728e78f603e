"""Hostile and broken inputs (tests/hostile/corpus.py) through the library, the upload parser and the CLI.

Every file ends in its expected outcome: processed, or one clear error line naming it. No traceback reaches a
user and nothing is written outside the output folder.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from relguard.engine import write_release
from relguard.errors import InputError
from relguard.io import documents_from_bytes, read_documents
from relguard.io.formats import documents_from_upload, load_uploads
from relguard.io.text import PLAIN_SUFFIXES
from relguard.pipeline import prepare
from tests.hostile.corpus import make_corpus

CLI = [sys.executable, "-m", "relguard.cli"]
ENV = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile") / "in"
    return folder, make_corpus(folder)


def _library(case):
    suffix = Path(case.name).suffix
    if suffix in PLAIN_SUFFIXES:
        return documents_from_bytes(case.name, case.data)
    return documents_from_upload(case.name, case.data)


def test_library_outcomes_match_the_table(corpus):
    _, cases = corpus
    for case in cases:
        if case.expected == "ok":
            documents = _library(case)
            assert documents and all(d.text.strip() for d in documents), case.name
        else:
            with pytest.raises(InputError, match=case.expected):
                _library(case)


def test_upload_parser_reports_each_bad_file_and_keeps_the_good_ones(corpus):
    _, cases = corpus
    result = load_uploads([(c.name, c.data) for c in cases])
    errors = dict(result.errors)
    for case in cases:
        if case.expected == "ok":
            assert case.name not in errors, errors.get(case.name)
        else:
            assert re.search(case.expected, errors[case.name]), (case.name, errors.get(case.name))
    assert len(result.documents) == sum(len(_library(c)) for c in cases if c.expected == "ok")


def test_processed_inputs_are_written_only_inside_the_output_folder(corpus, tmp_path):
    folder, cases = corpus
    # the 100,000-character sentence goes through the CLI run below; once is enough for CI time
    ok = [folder / c.name for c in cases if c.expected == "ok" and c.name != "long_sentence.txt"]
    documents, hashes = read_documents(ok)
    prepared = prepare(documents, k=10, input_hashes=hashes)
    release = prepared.draw(epsilon=5.0, lam=1.0)
    before = set(tmp_path.parent.rglob("*"))
    written = write_release(release, tmp_path / "out")
    after = set(tmp_path.parent.rglob("*"))
    out = (tmp_path / "out").resolve()
    assert all(out in p.resolve().parents for p in written)
    assert all(out in p.resolve().parents or p == out for p in after - before)
    assert not list(tmp_path.parent.rglob("evil.txt"))
    markdown = (tmp_path / "out" / "report.md").read_text()
    line = next(line for line in markdown.splitlines() if "onerror" in line and line.startswith("|"))
    assert line.startswith("| `` documents/a`<img src=x onerror=alert(1)>`\\|b.md `` | `"), line
    for line in (line for line in markdown.splitlines() if "onerror" in line and line.startswith("- ")):
        assert line.startswith("- `` a`<img src=x onerror=alert(1)>`\\|b.md `` "), line  # a document that lost text


def test_upload_names_with_dot_dot_are_refused_before_writing(tmp_path):
    from relguard.errors import OutputError

    documents = documents_from_upload("../../evil.txt", b"Alice Smith founded Acme Corporation in 1990.")
    release = prepare(documents, k=10).draw(epsilon=5.0, lam=1.0)
    with pytest.raises(OutputError, match="would leave the release folder"):
        write_release(release, tmp_path / "out")
    assert not any(tmp_path.rglob("*evil*")) and not (tmp_path / "out").exists()


def test_cli_refuses_bad_files_with_one_line_and_no_traceback(corpus, tmp_path):
    folder, cases = corpus
    for case in cases:
        if case.cli == "ok":
            continue
        run = subprocess.run(
            [*CLI, "sanitize", str(folder / case.name), "--out", str(tmp_path / "out")],
            capture_output=True, text=True, timeout=120, env=ENV,
        )  # fmt: skip
        assert run.returncode == 1, (case.name, run.stderr)
        assert "Traceback" not in run.stderr
        lines = [line for line in run.stderr.splitlines() if line.strip()]
        assert len(lines) == 1 and lines[0].startswith("relguard: error: "), run.stderr
        assert re.search(case.cli, lines[0]), (case.name, lines[0])
    assert not (tmp_path / "out").exists()


def test_cli_size_limit_is_configurable(corpus, tmp_path):
    folder, _ = corpus
    run = subprocess.run(
        [*CLI, "sanitize", str(folder / "utf16_bom.txt"), "--out", str(tmp_path / "o"), "--max-bytes", "100"],
        capture_output=True, text=True, timeout=120, env=ENV,
    )  # fmt: skip
    assert run.returncode == 1 and "over the limit of 100;" in run.stderr and "--max-bytes" in run.stderr


def test_cli_processes_every_good_hostile_file_in_one_run(corpus, tmp_path):
    _folder, cases = corpus
    good = tmp_path / "good"
    good.mkdir()
    for case in cases:
        if case.cli == "ok":
            (good / case.name).write_bytes(case.data)
    run = subprocess.run(
        [*CLI, "sanitize", str(good), "--out", str(tmp_path / "out"), "--quiet"],
        capture_output=True, text=True, timeout=600, env=ENV,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    written = sorted(p.name for p in (tmp_path / "out" / "documents").iterdir())
    assert written == sorted(c.name for c in cases if c.cli == "ok")
    report = (tmp_path / "out" / "report.json").read_text()
    assert '"long_sentence.txt"' in report
    assert not list(tmp_path.rglob("evil.txt"))
