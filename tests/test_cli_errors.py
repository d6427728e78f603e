"""Bad input through the real ``relguard`` command: one readable line on stderr, non-zero exit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import tomli_w

from relguard.cli import main

GOOD = "Alice Smith founded Acme Corporation in Boston.\n"


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "relguard.cli", *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )


def _make(tmp: Path, case: str) -> list[str]:
    """Build the input for ``case`` under ``tmp`` and return the CLI arguments."""
    out = ["--out", str(tmp / "out")]
    if case == "empty":
        (tmp / "empty.txt").write_bytes(b"")
        return ["sanitize", str(tmp / "empty.txt"), *out]
    if case == "whitespace":
        (tmp / "blank.txt").write_text("  \n\t\n")
        return ["sanitize", str(tmp / "blank.txt"), *out]
    if case == "binary":
        (tmp / "image.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
        return ["sanitize", str(tmp / "image.txt"), *out]
    if case == "latin1":
        (tmp / "latin1.txt").write_bytes("Müller founded Acme in Köln.".encode("latin-1"))
        return ["sanitize", str(tmp / "latin1.txt"), *out]
    if case == "no_documents":
        (tmp / "folder").mkdir()
        (tmp / "folder" / "notes.rtf").write_bytes(b"{\\rtf1 text}")
        return ["sanitize", str(tmp / "folder"), *out]
    if case == "broken_jsonl":
        (tmp / "c.jsonl").write_text('{"text": "Alice founded Acme."}\n{"text": "Bob \n{"text": "Carol left."}\n')
        return ["sanitize", str(tmp / "c.jsonl"), *out]
    if case == "jsonl_no_text":
        (tmp / "c.jsonl").write_text('{"body": "Alice founded Acme."}\n')
        return ["sanitize", str(tmp / "c.jsonl"), *out]
    if case == "missing":
        return ["sanitize", str(tmp / "nope.txt"), *out]
    if case == "too_big":
        (tmp / "big.txt").write_text(GOOD * 100)
        return ["sanitize", str(tmp / "big.txt"), "--max-bytes", "1000", *out]
    (tmp / "ok.txt").write_text(GOOD)
    if case == "negative_epsilon":
        return ["sanitize", str(tmp / "ok.txt"), "--epsilon", "-1", *out]
    if case == "k_zero":
        return ["sanitize", str(tmp / "ok.txt"), "--k", "0", *out]
    if case == "negative_lambda":
        return ["sanitize", str(tmp / "ok.txt"), "--lam", "-0.1", *out]
    if case == "nan_epsilon":
        return ["sanitize", str(tmp / "ok.txt"), "--epsilon", "nan", *out]
    raise AssertionError(case)


@pytest.mark.parametrize(
    ("case", "fragment"),
    [
        ("empty", "empty.txt: the file is empty"),  # zero bytes
        ("whitespace", "blank.txt: holds only whitespace"),  # nothing to sanitize
        ("binary", "image.txt: looks like a binary file"),  # NUL bytes
        ("latin1", "latin1.txt: not valid UTF-8 (byte 1"),  # wrong encoding, names the byte
        ("no_documents", "folder holds no documents"),  # only unsupported files
        ("broken_jsonl", "c.jsonl: line 2 is not valid JSON ("),  # names the line; whole file refused, and says so
        ("jsonl_no_text", "line 1 has no string field 'text'"),  # wrong field
        ("missing", "nope.txt: no such file or folder"),
        ("too_big", "over the limit of 1,000"),  # size limit is configurable
        ("negative_epsilon", "epsilon must be a finite number >= 0 (got -1.0)"),
        ("k_zero", "k must be at least 1"),
        ("negative_lambda", "lam (lambda) must be a finite number >= 0"),
        ("nan_epsilon", "epsilon must be a finite number >= 0"),
    ],
)
def test_bad_input_gives_one_clear_line_and_nonzero_exit(tmp_path, case, fragment):
    result = run(*_make(tmp_path, case), cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("relguard: error: ")
    assert fragment in lines[0]
    if "jsonl" in case:
        assert "nothing from this file was loaded" in lines[0]
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_usage_error_exits_2(tmp_path):
    result = run("sanitize", cwd=tmp_path)
    assert result.returncode == 2
    assert "--out" in result.stderr or "INPUT" in result.stderr


def test_help_explains_the_privacy_parameters(tmp_path):
    result = run("sanitize", "--help", cwd=tmp_path)
    assert result.returncode == 0
    for word in ("--epsilon", "--lam", "--k", "--seed", "NOT a private release", "CONFIDENTIAL"):
        assert word in " ".join(result.stdout.split())


def _config(tmp: Path, change) -> Path:
    """A config.toml for ``ok.txt``, changed by ``change`` (a function of its tables, or the raw text to write)."""
    (tmp / "ok.txt").write_text(GOOD)
    path = tmp / "config.toml"
    if isinstance(change, str):
        path.write_text(change)
        return path
    document = {"relguard_config": 1, "privacy": {"epsilon": 1.0, "k": 10}, "inputs": {"paths": ["ok.txt"]}}
    change(document)
    path.write_text(tomli_w.dumps(document))
    return path


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda d: d["privacy"].update(epsilon=-1.0), "[privacy] epsilon must be a finite number >= 0"),  # value
        (
            lambda d: d["privacy"].update(epsilonn=1.0),
            "[privacy] epsilonn is not a field; known: budget, entity_epsilon, epsilon, k, lam",
        ),
        (lambda d: d["privacy"].update(k="ten"), "[privacy] k must be a whole number, got str 'ten'"),  # type
        (lambda d: d["privacy"].update(k=True), "[privacy] k must be a whole number, got bool True"),
        (lambda d: d.update(backends={"extractor": 3}), "[backends] extractor must be a string, got int 3"),
        (lambda d: d["inputs"].update(paths=[]), "[inputs] paths must be a non-empty list"),
        (lambda d: d["inputs"].update(paths=["gone.txt"]), "[inputs] paths names 'gone.txt', found neither beside"),
        (lambda d: d.update(relguard_config=2), "relguard_config = 2; this RelGuard reads version 1"),
        (lambda d: d.update(surprise={"x": 1}), "unknown field 'surprise'"),
        ("[privacy\nepsilon = 1", "not valid TOML"),
    ],
)
def test_a_bad_config_is_one_line_naming_the_field(tmp_path, capsys, change, fragment):
    config = _config(tmp_path, change)
    assert main(["sanitize", "--config", str(config), "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"relguard: error: {config}") and fragment in err[0], err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        (
            ["--config", "CONFIG", "--epsilon", "2"],
            "--config gives every setting of the release it replays; drop --epsilon",
        ),
        (["--config", "CONFIG", "--seed", "3"], "drop --seed"),
        (["--mapping", "OUT/secret.json", "ok.txt"], "lies inside the release folder"),
        ([], "relguard sanitize needs INPUT files or folders, or --config CONFIG"),
    ],
)
def test_a_release_refuses_flags_that_contradict_its_config_or_keep_the_mapping_inside(
    tmp_path, capsys, extra, fragment
):
    config = _config(tmp_path, lambda d: None)
    out = tmp_path / "out"
    argv = [a.replace("CONFIG", str(config)).replace("OUT", str(out)) for a in extra]
    argv = [str(tmp_path / a) if a == "ok.txt" else a for a in argv]
    assert main(["sanitize", *argv, "--out", str(out), "--quiet"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and fragment in err[0], err
    assert not out.exists()


def test_a_stale_confidential_file_in_the_release_folder_is_an_error(tmp_path, capsys):
    (tmp_path / "ok.txt").write_text(GOOD)
    out = tmp_path / "out"
    (out / "old").mkdir(parents=True)
    (out / "old" / "CONFIDENTIAL-mapping.json").write_text("{}")
    assert main(["sanitize", str(tmp_path / "ok.txt"), "--out", str(out), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "CONFIDENTIAL-mapping.json: a confidential file sits in the release folder" in err
    assert sorted(p.name for p in out.rglob("*")) == ["CONFIDENTIAL-mapping.json", "old"]


def test_a_mapping_under_any_name_in_the_release_folder_is_an_error(tmp_path, capsys):
    """Issue 38: ``--mapping private/map.json`` and then ``--out private``: the mapping is known by its content."""
    (tmp_path / "ok.txt").write_text(GOOD)
    private = tmp_path / "private"
    argv = ["sanitize", str(tmp_path / "ok.txt"), "--quiet", "--seed", "1"]
    assert main([*argv, "--out", str(tmp_path / "first"), "--mapping", str(private / "map.json")]) == 0
    capsys.readouterr()
    assert main([*argv, "--out", str(private)]) == 1
    err = capsys.readouterr().err
    assert "map.json: a confidential file sits in the release folder" in err and len(err.strip().splitlines()) == 1
    assert sorted(p.name for p in private.rglob("*")) == ["map.json"]
