"""The app with the LLM backends: without an endpoint it says how to enable them; with one (the local
scripted server, real HTTP through the real ``openai`` client) it extracts and builds pools with them, shows
the calls and tokens, and the release it exports names the model, prompt versions, calls and tokens."""

from __future__ import annotations

import itertools
import json
import shlex
import tomllib

import pytest

pytest.importorskip("streamlit")
pytest.importorskip("openai")
from streamlit.testing.v1 import AppTest

from relguard.engine import public_files
from tests.llm_replies import DOCS, respond
from tests.llm_server import ScriptedLLM
from tests.test_app import APP, TIMEOUT, goto, table

ENV = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "RELGUARD_LLM_MODEL")


@pytest.fixture
def no_endpoint(monkeypatch, tmp_path):
    for name in ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("RELGUARD_LLM_CACHE", str(tmp_path / "llm-cache"))


def start() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    assert not at.exception
    return at


def test_without_an_endpoint_the_app_says_how_to_enable_the_llm(no_endpoint):
    at = start()
    hints = [i.value for i in at.info if "LLM backends off" in i.value]
    assert hints and "OPENAI_BASE_URL" in hints[0] and "RELGUARD_LLM_MODEL" in hints[0]
    assert at.radio(key="w_extractor").disabled and at.radio(key="w_candidates").disabled
    assert any("Extractor: spacy · pools: inventory" in c.value for c in at.sidebar.caption)


def test_llm_backends_from_the_app_reach_the_report(no_endpoint):
    with ScriptedLLM(responder=respond) as server:
        at = start()
        at.session_state.k = 5  # the scripted model knows fewer than 10 distinct predicates per pair
        at.text_input(key="w_llm_base_url").input(server.base_url).run()
        at.text_input(key="w_llm_model").input("test-model").run()
        assert not at.exception
        assert any("LLM backends available: model 'test-model'" in c.value for c in at.caption)
        at.radio(key="w_extractor").set_value("llm").run()
        at.radio(key="w_candidates").set_value("llm").run()
        uploads = [(name, text.encode(), "text/plain") for name, text in DOCS.items()]
        at.file_uploader(key="uploads").set_value(uploads).run()
        assert not at.exception, [e.value for e in at.exception]
        assert not at.error, [e.value for e in at.error]
        assert set(table(at)["document"]) == set(DOCS)
        corpus = at.session_state.prepared
        assert corpus.extraction.extractor.startswith("union:spacy:") and corpus.generator.name == "llm"
        assert "+llm:test-model@" in corpus.extraction.extractor  # the model adds to the offline slots
        calls = len(server.requests)
        assert calls >= 4 + 2  # an extraction and a typing call per document, one pool call per type pair
        usage = at.session_state.usage
        assert usage["calls"] == calls and usage["prompt_tokens"] > 0 and usage["completion_tokens"] > 0
        assert any(f"LLM this run: **{calls}** calls" in c.value for c in at.caption)

        goto(at, "tune")
        next(b for b in at.button if b.label == "Draw a release").click().run()
        assert not at.exception
        release = at.session_state.release
        goto(at, "export")
        shown = [c.value for c in at.caption]
        assert any(line.startswith("Extractor LLM: model `test-model`") for line in shown)
        pools = "Candidates LLM: model `test-model`, prompts candidates compact-pool-v2"
        assert any(line.startswith(pools) for line in shown)

    files = public_files(release)
    report = json.loads(files["report.json"])
    extractor, candidates = report["backends"]["extractor"], report["backends"]["candidates"]
    assert extractor["model"] == candidates["model"] == "test-model"
    assert extractor["prompt_versions"] == {"extraction": "compact-extract-v3", "typing": "typing-v3"}
    assert "calls" not in extractor and "prompt_tokens" not in candidates  # invariant 12: confidential
    usage = release.confidential["backend_usage"]
    assert usage["extractor"]["calls"] == 4 and usage["extractor"]["calls"] + usage["candidates"]["calls"] == calls
    assert set(report["candidates"]["pools"]) == {"PERSON|ORG", "ORG|CITY"}  # the city reads the ORG|GPE pool
    config = files["config.toml"].decode()
    command = shlex.split(tomllib.loads(config)["command"])
    flags = dict(itertools.pairwise(command))
    assert flags["--extractor"] == "llm" and flags["--llm-model"] == "test-model"
    assert flags["--candidates"] == "pool-file" and flags["--pool-file"] == "report.json"  # replays without the LLM


def test_a_failing_endpoint_shows_a_message_not_a_traceback(no_endpoint):
    with ScriptedLLM(script=[{"status": 401, "content": "bad key"}] * 20) as server:
        at = start()
        at.text_input(key="w_llm_base_url").input(server.base_url).run()
        at.text_input(key="w_llm_model").input("test-model").run()
        at.radio(key="w_extractor").set_value("llm").run()
        at.file_uploader(key="uploads").set_value([("a.txt", DOCS["acme.txt"].encode(), "text/plain")]).run()
        assert not at.exception
        assert any("refused the API key" in e.value for e in at.error), [e.value for e in at.error]
        assert "a.txt" in at.session_state.documents  # the upload is kept for a retry with another endpoint


def test_the_backend_panel_finds_a_local_server_and_fills_it_in(no_endpoint, monkeypatch):
    with ScriptedLLM(models=("local-model", "other")) as server:
        port = int(server.base_url.rsplit(":", 1)[1].split("/")[0])
        monkeypatch.setenv("RELGUARD_LLM_PORTS", str(port))
        at = start()
        assert at.radio(key="w_extractor").disabled
        at.button(key="find_local_llm").click().run()
        assert not at.exception
        assert at.text_input(key="w_llm_base_url").value == server.base_url
        assert at.text_input(key="w_llm_model").value == "local-model"  # the first model it lists
        assert any(f"Using OpenAI-compatible server at {server.base_url} (2 models)" in c.value for c in at.caption)
        assert any("LLM backends available: model 'local-model'" in c.value for c in at.caption)
        assert not at.radio(key="w_extractor").disabled
        assert server.requests == []  # only GET /v1/models: no completion, no document


def test_the_backend_panel_says_when_no_local_server_answers(no_endpoint, monkeypatch):
    with ScriptedLLM() as closed:
        dead = int(closed.base_url.rsplit(":", 1)[1].split("/")[0])
    monkeypatch.setenv("RELGUARD_LLM_PORTS", str(dead))
    at = start()
    at.button(key="find_local_llm").click().run()
    assert not at.exception
    assert any("No model server answers on 127.0.0.1" in c.value for c in at.caption)
    assert at.text_input(key="w_llm_base_url").value == "" and at.radio(key="w_extractor").disabled
    monkeypatch.setenv("RELGUARD_LLM_PORTS", "eighty")
    at.button(key="find_local_llm").click().run()
    assert not at.exception
    assert any("RELGUARD_LLM_PORTS='eighty'" in c.value for c in at.caption)


def _says_nothing_leaves(at: AppTest) -> bool:
    return any("Nothing leaves this machine" in m.value for m in at.markdown)


def test_a_remote_endpoint_needs_an_explicit_confirmation_and_the_page_stops_promising(no_endpoint):
    remote, other = "http://10.1.2.3:8000/v1", "https://llm.example.com/v1"
    at = start()
    assert _says_nothing_leaves(at)
    at.text_input(key="w_llm_base_url").input(remote).run()
    at.text_input(key="w_llm_model").input("big-model").run()
    assert not at.exception
    assert any(f"{remote} (NOT on this machine" in c.value for c in at.caption)
    confirm = at.checkbox(key="w_llm_remote_ok")
    assert not confirm.value and remote in confirm.label
    assert at.radio(key="w_extractor").disabled and at.radio(key="w_candidates").disabled
    assert _says_nothing_leaves(at)  # the offline backends are in use: the promise holds

    confirm.check().run()
    assert not at.exception and not at.radio(key="w_extractor").disabled
    at.radio(key="w_extractor").set_value("llm").run()
    assert not _says_nothing_leaves(at)  # documents would go to the remote endpoint now
    assert any(remote in w.value and "not on this machine" in w.value for w in at.warning)

    at.text_input(key="w_llm_base_url").input(other).run()  # another URL asks again
    assert not at.checkbox(key="w_llm_remote_ok").value and at.radio(key="w_extractor").disabled
    assert _says_nothing_leaves(at) and not at.warning

    # unconfirmed, a loaded document is extracted offline, whatever extractor was chosen before
    at.file_uploader(key="uploads").set_value([("a.txt", DOCS["acme.txt"].encode(), "text/plain")]).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.session_state.prepared.extraction.extractor.startswith("spacy:")


def test_a_local_endpoint_needs_no_confirmation_and_keeps_the_promise(no_endpoint):
    with ScriptedLLM(responder=respond) as server:
        at = start()
        at.text_input(key="w_llm_base_url").input(server.base_url).run()
        at.text_input(key="w_llm_model").input("test-model").run()
        at.radio(key="w_extractor").set_value("llm").run()
        assert not at.exception
        assert not [c for c in at.checkbox if c.key == "w_llm_remote_ok"]
        assert any(f"{server.base_url} (on this machine)" in c.value for c in at.caption)
        assert _says_nothing_leaves(at) and not at.warning
