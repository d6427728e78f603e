"""LLM backends with the real openai client over real HTTP against a scripted local server (tests/llm_server.py).

Every case asserts what the backend did with the reply: what it kept, what it dropped and counted, how
many calls and retries it made, and what it sent (pools and typing never see a document).
"""

from __future__ import annotations

import json
import time

import pytest

from relguard.candidates.llm import LLMCandidates
from relguard.candidates.pool_file import PoolFileCandidates, read_pool_file
from relguard.errors import ConfigError, PoolError
from relguard.extract.llm import LLMExtractor, split_sentences
from relguard.llm import LLMConfig, LLMError, status
from relguard.llm.estimate import estimate
from relguard.types import Document
from tests.llm_server import ScriptedLLM, fenced_data, system_prompt, user_text

pytest.importorskip("openai")

TEXT = "Alice Smith founded Acme Corporation in 1990. Acme Corporation is based in Berlin."
DOC = Document("acme.txt", TEXT)


def extraction(*triples: tuple, entities=("Alice Smith", "Acme Corporation", "Berlin")) -> str:
    return json.dumps(
        {
            "entities": [{"name": n} for n in entities],
            "triples": [
                {
                    "subject": s,
                    "relation": r,
                    "object": o,
                    "occurrences": [{"sentence": n, "predicate": p} for n, p in occ],
                }
                for s, r, o, occ in triples
            ],
        }
    )


FOUNDED = ("Alice Smith", "founded", "Acme Corporation", [(1, "founded")])
BASED = ("Acme Corporation", "based in", "Berlin", [(2, "is based in")])
TYPES = json.dumps({"types": {"Acme Corporation": "ORG", "Alice Smith": "Person", "Berlin": "GPE"}})


def config(server: ScriptedLLM, **options) -> LLMConfig:
    """The Fig. 4 / Fig. 5 prompt set unless a test asks for another (the compact set: test_llm_compact.py)."""
    defaults = {"backoff": 0.01, "max_concurrency": 1, "timeout": 5.0, "prompt_set": "paper"}
    return LLMConfig(model="test-model", base_url=server.base_url, **(defaults | options))


@pytest.fixture
def server():
    with ScriptedLLM() as llm:
        yield llm


def test_well_formed_reply_gives_checked_triples_and_counts_usage(server, tmp_path):
    server.add(extraction(FOUNDED, BASED), TYPES)
    extractor = LLMExtractor(config(server), cache_root=tmp_path)
    result = extractor.extract(DOC)
    keys = {t.key for t in result.triples}
    assert keys == {
        ("Alice Smith", "PERSON", "founded", "Acme Corporation", "ORG"),
        ("Acme Corporation", "ORG", "based_in", "Berlin", "GPE"),
    }
    for triple in result.triples:
        for occ in triple.occurrences:
            assert TEXT[occ.start : occ.end] == occ.text
            sentence = result.sentences[occ.sentence]
            assert sentence.start <= occ.start < occ.end <= sentence.end
    based = next(t for t in result.triples if t.predicate == "based_in")
    assert based.occurrences[0].text == "is based in" and based.occurrences[0].sentence == 1
    assert {e.name: len(e.mentions) for e in result.entities}["Acme Corporation"] == 2
    # The extraction prompt numbers the sentences; the typing call holds names only (paper §5.2).
    assert "1. Alice Smith founded Acme Corporation in 1990.\n2. Acme Corporation is based in Berlin." in user_text(
        server.requests[0]
    )
    typing = json.dumps(server.requests[1]["messages"])
    assert "Alice Smith" in typing and "founded" not in typing and "based in" not in typing
    # A server on this machine is asked to enforce the reply's schema while decoding (llama.cpp's dialect).
    assert server.requests[0]["response_format"]["type"] == "json_object"
    assert (
        "occurrences" in server.requests[0]["response_format"]["schema"]["properties"]["triples"]["items"]["required"]
    )
    assert server.requests[0]["max_tokens"] <= 2048 and server.requests[0]["temperature"] == 0
    info = extractor.provenance()
    assert info["calls"] == 2 and info["usage"]["extract"]["calls"] == 1 and info["usage"]["typing"]["calls"] == 1
    assert info["prompt_tokens"] > 100 and info["completion_tokens"] > 10
    assert not extractor.dropped


def test_malformed_json_is_sent_back_once_then_accepted(server, tmp_path):
    server.add('{"entities": [ {"name": "Alice Smith"', "```json\n" + extraction(FOUNDED) + "\n```", TYPES)
    extractor = LLMExtractor(config(server), cache_root=tmp_path)
    result = extractor.extract(DOC)
    assert [t.predicate for t in result.triples] == ["founded"]
    assert extractor.usage.snapshot()["extract"]["invalid_replies"] == 1
    assert extractor.usage.snapshot()["extract"]["calls"] == 2
    repair = server.requests[1]["messages"]
    assert repair[-2]["role"] == "assistant" and "not valid JSON" in repair[-1]["content"]


def test_malformed_json_twice_fails_clearly(server, tmp_path):
    server.add("no json here", '{"facts": []}')
    extractor = LLMExtractor(config(server), cache_root=tmp_path)
    with pytest.raises(LLMError, match=r"no usable extract reply after 2 tries .*no 'triples' array"):
        extractor.extract(DOC)
    assert len(server.requests) == 2


def test_hallucinated_span_is_dropped_and_counted(server, tmp_path):
    acquired = ("Alice Smith", "acquired", "Acme Corporation", [(1, "acquired")])
    covers = ("Acme Corporation", "based in", "Berlin", [(2, "based in Berlin")])
    server.add(extraction(FOUNDED, acquired, covers), TYPES)
    extractor = LLMExtractor(config(server), cache_root=tmp_path)
    result = extractor.extract(DOC)
    assert [t.predicate for t in result.triples] == ["founded"]
    assert extractor.dropped["span_not_in_sentence"] == 1
    assert extractor.dropped["span_covers_entity"] == 1
    assert extractor.dropped["triple_without_occurrence"] == 2


def test_out_of_range_sentence_number_is_dropped(server, tmp_path):
    wrong = ("Acme Corporation", "based in", "Berlin", [(7, "is based in"), (0, "is based in")])
    server.add(extraction(FOUNDED, wrong), TYPES)
    extractor = LLMExtractor(config(server), cache_root=tmp_path)
    result = extractor.extract(DOC)
    assert [t.predicate for t in result.triples] == ["founded"]
    assert extractor.dropped["sentence_out_of_range"] == 2


def test_span_in_another_sentence_than_claimed_is_dropped(server, tmp_path):
    wrong = ("Acme Corporation", "based in", "Berlin", [(1, "is based in")])
    server.add(extraction(FOUNDED, wrong), TYPES)
    extractor = LLMExtractor(config(server), cache_root=tmp_path)
    assert [t.predicate for t in extractor.extract(DOC).triples] == ["founded"]
    assert extractor.dropped["span_not_in_sentence"] == 1


def test_entity_outside_inventory_and_unlisted_endpoint_are_dropped(server, tmp_path):
    year = ("Acme Corporation", "founded in", "1990", [(1, "founded")])
    ghost = ("Bob Jones", "works for", "Acme Corporation", [(1, "founded")])
    server.add(
        extraction(FOUNDED, year, ghost, entities=("Alice Smith", "Acme Corporation", "1990")),
        json.dumps({"types": {"1990": "DATE", "Acme Corporation": "ORG", "Alice Smith": "PERSON"}}),
    )
    extractor = LLMExtractor(config(server), cache_root=tmp_path)
    result = extractor.extract(DOC)
    assert [t.key for t in result.triples] == [("Alice Smith", "PERSON", "founded", "Acme Corporation", "ORG")]
    assert extractor.dropped["entity_not_in_inventory"] == 1
    assert extractor.dropped["endpoint_not_listed"] == 1
    assert "1990" not in {e.name for e in result.entities}


def test_rate_limit_then_success_is_retried_with_backoff(server, tmp_path):
    server.add({"status": 429, "headers": {"retry-after-ms": "20"}}, extraction(FOUNDED), TYPES)
    extractor = LLMExtractor(config(server), cache_root=tmp_path)
    started = time.monotonic()
    result = extractor.extract(DOC)
    assert time.monotonic() - started >= 0.02  # honoured Retry-After
    assert [t.predicate for t in result.triples] == ["founded"]
    usage = extractor.usage.snapshot()["extract"]
    assert usage["retries"] == 1 and usage["calls"] == 1
    assert len(server.requests) == 3


def test_timeout_is_retried_and_persistent_failure_names_the_endpoint(server, tmp_path):
    server.add({"delay": 1.5, "content": extraction(FOUNDED)}, extraction(FOUNDED), TYPES)
    extractor = LLMExtractor(config(server, timeout=0.4), cache_root=tmp_path)
    assert [t.predicate for t in extractor.extract(DOC).triples] == ["founded"]
    assert extractor.usage.snapshot()["extract"]["retries"] == 1

    server.add(*[{"status": 503}] * 3)
    other = LLMExtractor(config(server, max_retries=2), cache=False)
    with pytest.raises(LLMError, match=r"127\.0\.0\.1.*answered 503 after 3 tries"):
        other.extract(Document("b.txt", "Bob Jones works for Acme Corporation."))


def test_unreachable_endpoint_fails_with_a_hint():
    extractor = LLMExtractor(
        LLMConfig(model="m", base_url="http://127.0.0.1:9/v1", max_retries=1, backoff=0.01, timeout=1), cache=False
    )
    with pytest.raises(LLMError, match=r"cannot be reached after 2 tries.*is the server running"):
        extractor.extract(DOC)


def test_windows_keep_numbering_and_canonical_names(server, tmp_path):
    text = (
        "Alice Smith founded Acme Corporation. Alice Smith lives in Berlin. "
        "Acme Corporation hired Bob Jones. Smith praised Bob Jones."
    )
    server.add(
        extraction(("Alice Smith", "founded", "Acme Corporation", [(1, "founded")]),
                   ("Alice Smith", "lives in", "Berlin", [(2, "lives in")])),
        extraction(("acme  corporation", "hired", "Bob Jones", [(3, "hired")]),
                   ("ALICE SMITH", "praised", "Bob Jones", [(4, "praised")]),
                   entities=("Acme Corporation", "Bob Jones", "alice smith")),
        json.dumps({"types": {"Acme Corporation": "ORG", "Alice Smith": "PERSON", "Berlin": "GPE",
                              "Bob Jones": "PERSON"}}),
    )  # fmt: skip
    extractor = LLMExtractor(config(server), window_sentences=2, cache_root=tmp_path)
    result = extractor.extract(Document("w.txt", text))
    second = user_text(server.requests[1])
    assert "3. Acme Corporation hired Bob Jones.\n4. Smith praised Bob Jones." in second
    assert '"Alice Smith"' in second and "1. Alice" not in second
    subjects = {t.predicate: t.subject for t in result.triples}
    assert subjects == {"founded": "Alice Smith", "lives_in": "Alice Smith", "hired": "Acme Corporation",
                        "praised": "Alice Smith"}  # fmt: skip
    assert len({e.name for e in result.entities}) == 4
    assert extractor.provenance()["usage"]["extract"]["calls"] == 2


def test_failed_run_resumes_from_cache(tmp_path):
    docs = [Document(f"d{i}.txt", f"Person{i} Smith founded Acme{i} Corporation.") for i in range(3)]

    def healthy(body):
        if "knowledge graph" in system_prompt(body):
            i = user_text(body).split("Person")[1][0]
            return extraction((f"Person{i} Smith", "founded", f"Acme{i} Corporation", [(1, "founded")]),
                              entities=(f"Person{i} Smith", f"Acme{i} Corporation"))  # fmt: skip
        names = json.loads(fenced_data(user_text(body)))
        return json.dumps({"types": {n: "ORG" if "Acme" in n else "PERSON" for n in names}})

    def broken(body):
        return {"status": 500} if "Person2" in user_text(body) else healthy(body)

    with ScriptedLLM(responder=broken) as server:
        first = LLMExtractor(config(server, max_retries=0), cache_root=tmp_path)
        done = []
        with pytest.raises(LLMError, match=r"2 of 3 documents were finished.*run the same command again"):
            done.extend(first.extract_many(docs))
        assert len(done) == 2
    with ScriptedLLM(responder=healthy) as server:
        again = LLMExtractor(config(server), cache_root=tmp_path)
        results = list(again.extract_many(docs))
        assert [r.triples[0].subject for r in results] == ["Person0 Smith", "Person1 Smith", "Person2 Smith"]
        assert len(server.requests) == 2  # only the missing document: one extraction and one typing call
        assert again.usage.snapshot()["extract"]["cache_hits"] == 2


def test_concurrency_limit_bounds_requests_in_flight(tmp_path):
    docs = [Document(f"d{i}.txt", f"Person{i} Smith founded Acme{i} Corporation.") for i in range(6)]

    def slow(body):
        return {"delay": 0.2, "content": json.dumps({"entities": [], "triples": []})}

    with ScriptedLLM(responder=slow) as server:
        extractor = LLMExtractor(config(server, max_concurrency=2), cache_root=tmp_path)
        assert [r.document.name for r in extractor.extract_many(docs)] == [d.name for d in docs]
        assert server.max_in_flight == 2 and len(server.requests) == 6


def test_dry_run_counts_windows_without_calling(server, tmp_path):
    extractor = LLMExtractor(config(server), window_sentences=2, cache_root=tmp_path)
    candidates = LLMCandidates(config(server), cache_root=tmp_path)
    docs = [DOC, Document("long.txt", " ".join(f"Sentence number {i} is here." for i in range(5)))]
    result = estimate(docs, extractor=extractor, candidates=candidates, k=5)
    assert len(split_sentences(docs[1].text)) == 5
    assert result.extraction_calls == 1 + 3 and result.max_typing_calls == 2
    # one call per pool read: the paper's 144 pairs, nine of two place kinds and four with an award (157 of 256)
    assert result.max_candidate_calls == 157 and result.approx_prompt_tokens > 0
    assert server.requests == [] and "Nothing was sent" in result.describe()


# ---------------------------------------------------------------- candidate pools


def pool(*predicates: str) -> str:
    return json.dumps({"relation_pool": list(predicates)})


def test_pool_with_synonyms_is_asked_again_and_ends_with_exactly_k(server, tmp_path):
    server.add(
        pool("works_for", "employed_by", "founded", "related_to", "Invests In", "sued"),
        pool("works_for", "founded", "sued", "invests_in", "advises"),
    )
    generator = LLMCandidates(config(server), cache_root=tmp_path)
    result = generator.generate(("PERSON", "ORG"), 5)
    assert result.predicates == ("works_for", "founded", "sued", "invests_in", "advises")
    assert result.k == 5 and "employed_by" not in result.predicates
    retry = user_text(server.requests[1])
    assert "employed_by (near-synonym of works_for)" in retry
    assert "related_to (too vague)" in retry and "Invests In (not lower-case snake_case)" in retry
    assert len(server.requests) == 2
    for body in server.requests:  # only the type pair and K (invariant 1)
        sent = json.dumps(body["messages"])
        assert "Subject Type: PERSON" in sent and "Candidate Count: 5" in sent and "Alice" not in sent
    assert generator.provenance()["usage"]["candidates"]["rejected_candidates"] == 3


def test_pool_that_never_completes_fails_after_bounded_attempts(server, tmp_path):
    server.add(*[pool("works_for", "employed_by")] * 3)
    generator = LLMCandidates(config(server), cache_root=tmp_path, max_attempts=3)
    with pytest.raises(PoolError, match=r"gave 1 acceptable candidates for PERSON->ORG, not K=4, after 3 tries"):
        generator.generate(("PERSON", "ORG"), 4)
    assert len(server.requests) == 3


def test_pool_cache_export_and_import_reproduce_without_the_llm(server, tmp_path):
    server.add(pool("works_for", "founded", "sued"))
    first = LLMCandidates(config(server), cache_root=tmp_path)
    made = first.generate(("PERSON", "ORG"), 3)
    assert made.source == "llm:test-model@fig5-v2"
    second = LLMCandidates(config(server), cache_root=tmp_path)
    assert second.generate(("PERSON", "ORG"), 3) == made
    assert len(server.requests) == 1 and second.usage.snapshot()["candidates"]["cache_hits"] == 1
    other_model = LLMCandidates(config(server, max_retries=0), cache_root=tmp_path)
    assert other_model.is_cached(("PERSON", "ORG"), 3) and not other_model.is_cached(("PERSON", "ORG"), 4)

    path = first.export(tmp_path / "pools.json")
    data = json.loads(path.read_text())
    assert data["pairs"] == {"PERSON|ORG": ["works_for", "founded", "sued"]} and data["model"] == "test-model"
    replay = PoolFileCandidates(path)
    assert replay.generate(("PERSON", "ORG"), 3).predicates == made.predicates
    with pytest.raises(PoolError, match="fewer than K=3"):
        replay.generate(("ORG", "PERSON"), 3)
    assert read_pool_file(path) == {"PERSON|ORG": ["works_for", "founded", "sued"]}


def test_verbalization_sees_only_the_sampled_predicate(server, tmp_path):
    server.add(pool("works_for", "founded", "sued"), json.dumps({"clause": "took to court", "noun": None}))
    generator = LLMCandidates(config(server), cache_root=tmp_path, verbalize=True)
    generator.generate(("PERSON", "ORG"), 3)
    assert generator.forms("sued") == {"clause": "took to court", "noun": None}
    sent = user_text(server.requests[1])
    assert sent == "Predicate: sued\nSubject type: PERSON\nObject type: ORG"
    assert generator.forms("sued") == {"clause": "took to court", "noun": None}
    assert len(server.requests) == 2
    assert generator.provenance()["prompt_versions"] == {"candidates": "fig5-v2", "verbalization": "forms-v1"}


# ---------------------------------------------------------------- configuration


def test_status_says_how_to_enable_and_never_shows_the_key():
    off = status({})
    assert "LLM backends off" in off and "RELGUARD_LLM_MODEL" in off and "--extractor llm" in off
    on = status(
        {"OPENAI_BASE_URL": "http://localhost:11434/v1", "RELGUARD_LLM_MODEL": "qwen", "OPENAI_API_KEY": "sk-x"}
    )
    assert "qwen" in on and "localhost:11434" in on and "sk-x" not in on


def test_missing_model_and_missing_endpoint_are_config_errors(monkeypatch):
    monkeypatch.delenv("RELGUARD_LLM_MODEL", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="RELGUARD_LLM_MODEL"):
        LLMExtractor()
    # no base URL: never a silent fall-back to OpenAI's hosted API
    with pytest.raises(ConfigError, match=r"no LLM base URL is set.*--base-url or OPENAI_BASE_URL.*--allow-remote-llm"):
        LLMExtractor(model="gpt-x")
    with pytest.raises(ConfigError, match=r"OPENAI_API_KEY.*--base-url"):  # allowed, but no key for it
        LLMExtractor(model="gpt-x", allow_remote=True)
