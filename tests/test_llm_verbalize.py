"""The LLM verbalizer over real HTTP: what it sends (the masked sentence and the sampled predicates only), what it
takes back (checked phrases), and that a bad or failing model leaves the offline fill in place."""

from __future__ import annotations

import json

import pytest
from llm_server import ScriptedLLM

from relguard.candidates.inventory import InventoryCandidates
from relguard.llm.client import LLMConfig
from relguard.rewrite import Sampled, fill, mask
from relguard.types import Document

pytest.importorskip("openai")

from relguard.rewrite.llm_verbalize import LLMVerbalizer

TEXT = "Alice Smith secretly founded Acme Corp. The sky is blue."


def _masked(extractor):
    extraction = extractor.extract(Document("d.txt", TEXT))
    keys = sorted({t.pair_key for t in extraction.triples})
    return mask(extraction, {key: n for n, key in enumerate(keys)}), keys


def _verbalizer(server, tmp_path) -> LLMVerbalizer:
    config = LLMConfig(model="verbalizer-test", base_url=server.base_url, max_concurrency=1, backoff=0.01, timeout=5.0)
    return LLMVerbalizer(InventoryCandidates().forms, config, cache_root=tmp_path)


def test_the_model_sees_the_masked_sentence_and_the_sample_and_its_phrase_is_used(extractor, tmp_path):
    masked, keys = _masked(extractor)
    outcomes = {n: Sampled((key[1], key[3]), "employs") for n, key in enumerate(keys)}
    with ScriptedLLM(responder=lambda body: json.dumps({"1": "hired"})) as server:
        out = fill(masked, outcomes, _verbalizer(server, tmp_path))
        sent = json.dumps(server.requests)
    assert out.text == "Alice Smith hired Acme Corp. The sky is blue."
    assert "secretly" not in sent and "founded" not in sent  # the original relation never leaves the machine
    assert "Alice Smith [1] Acme Corp." in sent and "employs" in sent


@pytest.mark.parametrize(
    "reply",
    [
        "not json",
        json.dumps({"1": "hired 20 people at"}),
        json.dumps({"2": "x"}),
        json.dumps({"1": "hired Acme"}),  # a name copied into the phrase: "hired Acme Acme Corp"
        json.dumps({"1": "works at acme"}),  # the phrase ends on the word the sentence goes on with
        json.dumps({"1": "owned by"}),  # the clause's verb slot given a participle: "Alice Smith owned by Acme"
    ],
)
def test_a_reply_that_is_not_one_short_phrase_per_placeholder_keeps_the_offline_fill(extractor, tmp_path, reply):
    masked, keys = _masked(extractor)
    outcomes = {n: Sampled((key[1], key[3]), "employs") for n, key in enumerate(keys)}
    with ScriptedLLM(responder=lambda body: reply) as server:
        verbalize = _verbalizer(server, tmp_path)
        out = fill(masked, outcomes, verbalize)
    assert out.text == "Alice Smith employs Acme Corp. The sky is blue."
    assert verbalize.declined == 1


def test_the_same_request_is_answered_from_the_cache(extractor, tmp_path):
    """Two documents that differ only in relation wording send the same request: the second costs nothing."""
    masked, keys = _masked(extractor)
    outcomes = {n: Sampled((key[1], key[3]), "employs") for n, key in enumerate(keys)}
    with ScriptedLLM(responder=lambda body: json.dumps({"1": "hired"})) as server:
        first = fill(masked, outcomes, _verbalizer(server, tmp_path))
        again = fill(masked, outcomes, _verbalizer(server, tmp_path))
        calls = len(server.requests)
    assert first == again and calls == 1


def test_the_cli_words_a_release_with_the_model_and_names_it_in_the_report(tmp_path, capsys):
    """``--verbalizer llm`` through the CLI: the phrase lands in the release, the report names the model and the
    prompt version, the calls it cost go to the confidential mapping only."""
    from relguard import cli

    source = tmp_path / "in"
    source.mkdir()
    (source / "a.txt").write_text("Alice Smith founded Acme Corp.\n", encoding="utf-8")
    out, mapping = tmp_path / "out", tmp_path / "mapping.json"
    with ScriptedLLM(responder=lambda body: json.dumps({"1": "runs"})) as server:
        code = cli.main(
            [
                "sanitize",
                str(source),
                "--out",
                str(out),
                "--seed",
                "3",
                "--quiet",
                "--no-notice",
                "--verbalizer",
                "llm",
                "--base-url",
                server.base_url,
                "--llm-model",
                "verbalizer-test",
                "--mapping",
                str(mapping),
            ]
        )
    capsys.readouterr()
    assert code == 0
    assert (out / "documents" / "a.txt").read_text(encoding="utf-8") == "Alice Smith runs Acme Corp.\n"
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["backends"]["verbalizer"]["model"] == "verbalizer-test"
    assert "calls" not in json.dumps(report["backends"])
    assert "verbalizer" in json.loads(mapping.read_text(encoding="utf-8"))["backend_usage"]
