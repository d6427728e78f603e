"""`relguard sanitize --extractor llm --candidates llm` end to end against the local scripted server.

The server answers like a well-behaved model (tests/llm_replies.py): compact extraction over the spaCy entity
list for two known documents, typing from names, and compact pools drawn from a public list (honouring
rejections on a retry). The release report must name the model and the prompt versions; calls and tokens go
to the confidential file only.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from relguard import cli
from relguard.release.confidential import MAPPING_FILE
from tests.llm_replies import DOCS, respond
from tests.llm_server import ScriptedLLM

pytest.importorskip("openai")


def run_cli(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "relguard.cli", *args], capture_output=True, text=True, env=env, timeout=300
    )


@pytest.fixture
def corpus(tmp_path) -> Path:
    folder = tmp_path / "in"
    folder.mkdir()
    for name, text in DOCS.items():
        (folder / name).write_text(text)
    return folder


def test_cli_llm_run_reports_model_prompts_calls_and_tokens(corpus, tmp_path, capsys):
    env = {**os.environ, "RELGUARD_LLM_CACHE": str(tmp_path / "cache")}
    env.pop("OPENAI_API_KEY", None)
    out, pools = tmp_path / "out", tmp_path / "pools.json"
    common = ["--extractor", "llm", "--candidates", "llm", "--llm-model", "test-model", "--k", "5"]
    with ScriptedLLM(responder=respond) as server:
        assert cli.main(["sanitize", str(corpus), "--out", str(out), *common, "--base-url", server.base_url,
                         "--dry-run"]) == 0  # fmt: skip
        printed = capsys.readouterr().out
        assert "2 extraction" in printed and "Nothing was sent" in printed and not server.requests
        assert not out.exists()

        done = run_cli("sanitize", str(corpus), "--out", str(out), *common, "--base-url", server.base_url,
                       "--seed", "3", "--pool-file", str(pools), "--quiet", "--mapping", str(tmp_path / MAPPING_FILE),
                       env=env)  # fmt: skip
        assert done.returncode == 0, done.stderr
        calls = len(server.requests)
    report = json.loads((out / "report.json").read_text())
    extractor, candidates = report["backends"]["extractor"], report["backends"]["candidates"]
    assert extractor["model"] == candidates["model"] == "test-model"
    assert extractor["prompt_versions"] == {"extraction": "compact-extract-v3", "typing": "typing-v3"}
    assert extractor["backend"] == "union"  # --extractor llm keeps every offline slot and adds the model's
    assert candidates["prompt_versions"] == {"candidates": "compact-pool-v2"}
    # calls and tokens are functions of the original text (invariant 12): confidential, never in the report
    assert not {"calls", "prompt_tokens", "completion_tokens", "usage"} & (set(extractor) | set(candidates))
    usage = json.loads((tmp_path / MAPPING_FILE).read_text())["backend_usage"]
    assert usage["extractor"]["calls"] == 4  # two documents: one extraction and one typing call each
    assert usage["candidates"]["calls"] >= 3  # pools of PERSON|ORG and ORG|GPE (the city reads it)
    assert usage["extractor"]["calls"] + usage["candidates"]["calls"] == calls
    assert usage["extractor"]["prompt_tokens"] > 0 and usage["candidates"]["completion_tokens"] > 0
    assert report["extractor"].startswith("union:spacy:")
    assert report["extractor"].endswith("+llm:test-model@compact-extract-v3+typing-v3")
    assert report["counts"]["groups"] == 3
    assert set(report["candidates"]["pools"]) == {"PERSON|ORG", "ORG|CITY"}  # the city reads the ORG|GPE pool
    markdown = (out / "report.md").read_text()
    assert (
        "Extractor LLM: model `test-model`, prompts extraction compact-extract-v3, typing typing-v3; every slot of "
        "the offline extractor kept, the model's added\n"
    ) in markdown
    assert "calls" not in markdown and "tokens" not in markdown
    assert "Candidates LLM: model `test-model`, prompts candidates compact-pool-v2" in markdown

    # The exported public pool file reproduces the pools with no LLM at all: the model's pools, from which the
    # sensitive-predicate list (on by default) takes its entries before the first K are the release's.
    from relguard.candidates.sensitive import sensitive_policy
    from relguard.kinds import pool_pair

    exported = json.loads(pools.read_text())
    excluded = {key: sensitive_policy().excluded(tuple(key.split("|"))) for key in exported["pairs"]}
    kept = {key: [p for p in found if p not in excluded[key]][:5] for key, found in exported["pairs"].items()}
    read = {"|".join(pool_pair(tuple(key.split("|")))): found for key, found in report["candidates"]["pools"].items()}
    assert kept == read  # the report lists the city's pair, which reads the ORG|GPE pool
    # Rerunning resumes extraction from the cache and reads pools from the file: not one request is made.
    again = tmp_path / "again"
    with ScriptedLLM() as silent:
        env_before = dict(os.environ)
        os.environ["RELGUARD_LLM_CACHE"] = env["RELGUARD_LLM_CACHE"]
        try:
            code = cli.main(["sanitize", str(corpus), "--out", str(again), "--candidates", "pool-file",
                             "--pool-file", str(pools), "--k", "5", "--quiet", "--extractor", "llm",
                             "--llm-model", "test-model", "--base-url", silent.base_url])  # fmt: skip
        finally:
            os.environ.clear()
            os.environ.update(env_before)
        assert code == 0 and silent.requests == []
    replay = json.loads((again / "report.json").read_text())
    for pair, predicates in replay["candidates"]["pools"].items():
        assert predicates == report["candidates"]["pools"][pair]


def test_cli_says_what_is_missing_without_an_endpoint(corpus, tmp_path, monkeypatch, capsys):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "RELGUARD_LLM_MODEL"):
        monkeypatch.delenv(name, raising=False)
    code = cli.main(["sanitize", str(corpus), "--out", str(tmp_path / "o"), "--extractor", "llm"])
    assert code == 1
    assert "RELGUARD_LLM_MODEL" in capsys.readouterr().err
    code = cli.main(["sanitize", str(corpus), "--out", str(tmp_path / "o"), "--candidates", "pool-file"])
    assert code == 1 and "--pool-file" in capsys.readouterr().err
