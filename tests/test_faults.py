"""Faults around a real ``relguard sanitize`` run: unwritable or full disk, interrupts, an LLM turning bad mid-run.

The promise under test (relguard/engine/sink.py): a release is written to ``.part`` names and renamed into place only
when every file is complete, so a failed or interrupted run never leaves a file under its final name, and
leaves no temporary file behind either.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from relguard import cli

SAMPLE = Path(__file__).resolve().parents[1] / "assets" / "sample_corpus"
FAST = ["--k", "5", "--seed", "1", "--quiet"]
# Run the CLI with a per-file size limit and SIGXFSZ ignored, so an oversized write fails with EFBIG (as a full
# disk fails with ENOSPC) instead of killing the process.
LIMITED = (
    "import resource, signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
    "resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv.pop(1)),) * 2); "
    "from relguard.cli import main; sys.exit(main(sys.argv[1:]))"
)


def leftovers(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def test_read_only_output_folder_gives_one_line_and_no_file(tmp_path, capsys):
    """As a normal user a 0o555 folder; as root (who ignores permissions) a folder on read-only sysfs."""
    if os.geteuid() == 0:
        out, refusal = Path("/sys/relguard-read-only-test"), "Operation not permitted"
        code = cli.main(["sanitize", str(SAMPLE), "--out", str(out), *FAST])
        assert not out.exists()
    else:
        out, refusal = tmp_path / "out", "Permission denied"
        out.mkdir()
        out.chmod(0o555)
        try:
            code = cli.main(["sanitize", str(SAMPLE), "--out", str(out), *FAST])
        finally:
            out.chmod(0o755)
        assert leftovers(out) == []
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1
    assert len(err) == 1 and err[0].startswith("relguard: error: ") and "cannot be written" in err[0], err
    assert refusal in err[0] and "Traceback" not in err[0]


def test_full_disk_leaves_no_file_under_a_final_name(tmp_path):
    """Documents (< 2 kB each) fit under a 4 kB per-file limit, report.json does not: the write fails mid-batch."""
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-c", LIMITED, "4096", "sanitize", str(SAMPLE), "--out", str(out), *FAST],
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1, done.stderr
    assert lines[-1].startswith("relguard: error: ") and "cannot be written (File too large)" in lines[-1]
    assert "Traceback" not in done.stderr
    assert leftovers(out) == []  # neither the documents written before the failure nor any .part file

    assert cli.main(["sanitize", str(SAMPLE), "--out", str(out), *FAST]) == 0  # the rerun, in this process
    names = leftovers(out)
    assert "report.json" in names and len([n for n in names if n.startswith("documents/")]) == 6
    assert not [n for n in names if n.endswith(".part")]


def _default_sigint() -> None:
    """A suite started in the background of a shell without job control (``cmd &``) has SIGINT ignored, and the
    run under test would inherit that; a user's Ctrl-C reaches a foreground run, which has the default handler."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_interrupted_run_leaves_nothing_and_a_rerun_completes(tmp_path, signum):
    """Forty documents keep extraction busy for seconds; the signal lands after the progress bar appears. On a
    loaded machine this test's process can be descheduled until the run has finished (exit 0, a whole release):
    then the signal came too late to test anything, and the run is tried again, three times at most; a run that
    ignored the signal would exit 0 every time and fail."""
    corpus = tmp_path / "in"
    corpus.mkdir()
    texts = sorted(SAMPLE.glob("*.txt"))
    for i in range(40):
        source = texts[i % len(texts)]
        (corpus / f"{i:02d}_{source.name}").write_text(source.read_text())
    out = tmp_path / "out"
    args = [sys.executable, "-m", "relguard.cli", "sanitize", str(corpus), "--out", str(out), "--k", "5"]
    for _attempt in range(3):
        shutil.rmtree(out, ignore_errors=True)
        process = subprocess.Popen(args, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, preexec_fn=_default_sigint)
        seen = b""
        deadline = time.monotonic() + 240
        while b"extracting" not in seen and time.monotonic() < deadline:
            chunk = os.read(process.stderr.fileno(), 256)
            if not chunk:
                break
            seen += chunk
        assert b"extracting" in seen, seen
        process.send_signal(signum)
        rest = process.communicate(timeout=120)[1]
        message = (seen + rest).decode(errors="replace")
        if process.returncode != 0:
            break
    assert process.returncode == 130, message
    assert "interrupted; no partial file was left as complete" in message and "Traceback" not in message
    assert leftovers(out) == []

    assert cli.main([*args[3:], "--quiet"]) == 0  # the rerun, in this process
    assert len([n for n in leftovers(out) if n.startswith("documents/")]) == 40


def test_llm_garbage_on_the_second_document_stops_cleanly_and_resumes(tmp_path):
    """The first document is extracted and cached; the second gets non-JSON twice (one repair try): the run
    stops with one error line and writes nothing; a rerun against a healthy server asks only for the rest."""
    pytest.importorskip("openai")
    from tests.llm_replies import is_extraction
    from tests.llm_server import ScriptedLLM, user_text
    from tests.test_llm_cli import DOCS, respond

    corpus = tmp_path / "in"
    corpus.mkdir()
    for name, text in DOCS.items():
        (corpus / name).write_text(text)

    def garbage_for_bob(body: dict) -> str:
        if is_extraction(body) and "Bob Jones" in user_text(body):
            return "<html>502 Bad Gateway</html>"
        return respond(body)

    env = {**os.environ, "RELGUARD_LLM_CACHE": str(tmp_path / "cache")}
    env.pop("OPENAI_API_KEY", None)
    out = tmp_path / "out"
    common = ["--extractor", "llm", "--candidates", "llm", "--llm-model", "test-model", "--k", "5", "--quiet"]
    command = [sys.executable, "-m", "relguard.cli", "sanitize", str(corpus), "--out", str(out), *common]
    with ScriptedLLM(responder=garbage_for_bob) as server:
        failed = subprocess.run([*command, "--base-url", server.base_url], capture_output=True, text=True, env=env)
    lines = failed.stderr.strip().splitlines()
    assert failed.returncode == 1, failed.stderr
    assert len(lines) == 1 and lines[0].startswith("relguard: error: ") and "Traceback" not in failed.stderr
    assert leftovers(out) == []

    with ScriptedLLM(responder=respond) as healthy:
        done = subprocess.run([*command, "--base-url", healthy.base_url], capture_output=True, text=True, env=env)
        extraction_calls = [b for b in healthy.requests if is_extraction(b)]
    assert done.returncode == 0, done.stderr
    assert [("Bob Jones" in user_text(b)) for b in extraction_calls] == [True]  # Alice's document came from cache
    report = json.loads((out / "report.json").read_text())
    assert report["counts"]["documents"] == 2 and report["counts"]["groups"] == 3
