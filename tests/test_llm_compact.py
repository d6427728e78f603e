"""The compact prompt set, the union extractor and local-server discovery, over real HTTP (tests/llm_server.py).

The compact set is what small local models follow: the spaCy NER's entity list in the prompt, flat triples, the
schema sent for the server to enforce, replies read item by item. Every case asserts what was sent and what the
backend kept, dropped and counted; every kept span is checked against its sentence.
"""

from __future__ import annotations

import json
import socket

import pytest

from relguard import registry
from relguard.candidates.llm import LLMCandidates
from relguard.errors import ConfigError
from relguard.extract.llm import LLMExtractor
from relguard.llm import LLMConfig, compact, find_local_server, find_local_servers
from relguard.llm.formats import resolve_mode, safe_name
from relguard.types import Document, DocumentExtraction
from tests.llm_replies import last_user, types_reply, typing_names
from tests.llm_server import ScriptedLLM, fenced_data, system_prompt

pytest.importorskip("openai")

CURIE = Document(
    "curie.txt", "Marie Curie was born in Warsaw. She married Pierre Curie in Paris. Curie later moved to London."
)
ACME = Document("acme.txt", "Alice Smith founded Acme Corporation in 1990. Acme Corporation is based in Berlin.")
TYPES = {"Marie Curie": "PERSON", "Pierre Curie": "PERSON", "Warsaw": "GPE", "Paris": "GPE", "London": "GPE",
         "Alice Smith": "PERSON", "Acme Corporation": "ORG", "Berlin": "GPE"}  # fmt: skip


def config(server: ScriptedLLM, **options) -> LLMConfig:
    defaults = {"backoff": 0.01, "max_concurrency": 1, "timeout": 5.0}
    return LLMConfig(model="test-model", base_url=server.base_url, **(defaults | options))


def triples(*items) -> str:
    return json.dumps({"triples": [list(t) for t in items]})


def typed(body: dict) -> str:
    return types_reply(typing_names(body), TYPES)


def spans_are_exact(result: DocumentExtraction) -> None:
    text = result.document.text
    for triple in result.triples:
        for occ in triple.occurrences:
            sentence = result.sentences[occ.sentence]
            assert text[occ.start : occ.end] == occ.text and sentence.start <= occ.start < occ.end <= sentence.end


@pytest.fixture
def server():
    with ScriptedLLM() as llm:
        yield llm


def test_compact_prompt_sends_the_entity_list_and_schema_and_locates_each_phrase(server, tmp_path):
    server.add(
        triples(("Marie Curie", "was born in", "Warsaw"), ("Marie Curie", "married", "Pierre Curie"),
                ("Marie Curie", "moved to", "London")),
    )  # fmt: skip
    server.responder = typed
    extractor = LLMExtractor(config(server), cache_root=tmp_path)
    result = extractor.extract(CURIE)
    spans_are_exact(result)
    found = {(t.subject, t.predicate, t.object): [(o.sentence, o.text) for o in t.occurrences] for t in result.triples}
    assert found == {
        ("Marie Curie", "born_in", "Warsaw"): [(0, "was born in")],
        ("Marie Curie", "married", "Pierre Curie"): [(1, "married")],  # "She" resolved by the model, found by NER
        ("Marie Curie", "moved_to", "London"): [(2, "moved to")],  # one endpoint named in the sentence suffices
    }
    request = server.requests[0]
    assert system_prompt(request) == compact.EXTRACT_SYSTEM
    assert [m["role"] for m in request["messages"]] == ["system", "user", "assistant", "user"]  # one-shot first
    prompt, listed = fenced_data(last_user(request)).split("\n\nNamed entities: ")
    names = json.loads(listed)  # the NER's canonical names in order of first mention (an unresolved "Curie" may join)
    ner = registry.create("extractor", "spacy").extract(CURIE)
    assert prompt == f"Passage:\n{CURIE.text}" and set(names) == {e.name for e in ner.entities}
    assert [n for n in names if n != "Curie"] == ["Marie Curie", "Warsaw", "Pierre Curie", "Paris", "London"]
    schema = request["response_format"]["schema"]["properties"]["triples"]
    assert schema["items"]["prefixItems"][0] == {"enum": names} and schema["maxItems"] == 16
    assert request["max_tokens"] == 100 + 16 * 16 and request["temperature"] == 0
    typing = json.dumps(server.requests[1]["messages"])  # names only (paper §5.2)
    assert "Marie Curie" in typing and "married" not in typing and "Warsaw." not in typing
    assert len(server.requests) == 2 and not extractor.dropped
    assert extractor.provenance()["prompt_versions"] == {"extraction": "compact-extract-v3", "typing": "typing-v3"}


def test_direction_comes_from_mention_order_and_the_span_covers_the_verb_group(server, tmp_path):
    """The spaCy extractor's public-structure rule (relguard.extract.slots): whatever direction the model chose,
    the entity named first is the subject, and the predicate keeps the text's voice."""
    doc = Document("voice.txt", "Acme Corporation was founded by Alice Smith in 1990.")
    server.add(triples(("Alice Smith", "founded", "Acme Corporation")))
    server.responder = typed
    extractor = LLMExtractor(config(server), cache_root=tmp_path)
    result = extractor.extract(doc)
    spans_are_exact(result)
    assert [(t.subject, t.predicate, t.object, [o.text for o in t.occurrences]) for t in result.triples] == [
        ("Acme Corporation", "founded_by", "Alice Smith", ["was founded by"])
    ]
    assert extractor.usage.snapshot()["extract"]["direction_from_order"] == 1


def test_reply_cut_off_at_max_tokens_keeps_its_complete_items(server, tmp_path):
    cut = '{"triples": [["Alice Smith", "founded", "Acme Corporation"], ["Acme Corporation", "is based in", "Ber'
    server.add({"content": cut, "finish_reason": "length"})
    server.responder = typed
    extractor = LLMExtractor(config(server), cache_root=tmp_path)
    result = extractor.extract(ACME)
    assert [t.predicate for t in result.triples] == ["founded"]
    assert extractor.usage.snapshot()["extract"]["truncated_replies"] == 1
    assert len(server.requests) == 2  # kept, not sent back for repair


def test_items_that_do_not_validate_are_dropped_and_counted_not_the_reply(server, tmp_path):
    """The failure of the first real run ("triples.2.object: Field required") costs one item, not the document."""
    server.add(json.dumps({"triples": [["Alice Smith", "founded"], ["Alice Smith", "founded", "Acme Corporation"],
                                       {"subject": "Acme Corporation", "relation": "is based in"}, 7]}))  # fmt: skip
    server.responder = typed
    extractor = LLMExtractor(config(server), cache_root=tmp_path)
    assert [t.predicate for t in extractor.extract(ACME).triples] == ["founded"]
    assert extractor.dropped["malformed_item"] == 3 and len(server.requests) == 2


def test_phrases_not_in_the_text_covering_a_name_or_bare_are_dropped(server, tmp_path):
    server.add(
        triples(("Alice Smith", "founded Acme Corporation", "Berlin"), ("Alice Smith", "acquired", "Acme Corporation"),
                ("Acme Corporation", "in", "Berlin"), ("Alice Smith", "founded", "Alice Smith"),
                ("Bob Jones", "founded", "Acme Corporation"), ("Alice Smith", "founded", "Acme Corporation")),
    )  # fmt: skip
    server.responder = typed
    extractor = LLMExtractor(config(server), cache_root=tmp_path)
    assert [t.predicate for t in extractor.extract(ACME).triples] == ["founded"]
    expected = ("span_covers_entity", "span_not_in_sentence", "span_bare_function_word", "self_relation",
                "endpoint_not_listed")  # fmt: skip
    assert dict(extractor.dropped) == dict.fromkeys(expected, 1)


def test_names_with_quotes_are_made_grammar_safe_and_mapped_back(server, tmp_path):
    """A ``"`` in an enum value crashed llama-cpp-python's grammar converter and with it the server."""
    doc = Document("bob.txt", 'Robert "Bob" Smith works for Acme Corporation in Berlin.')
    server.add(triples(("Robert 'Bob' Smith", "works for", "Acme Corporation")))
    server.responder = lambda body: json.dumps(
        {"types": {n: "ORG" if "Acme" in n else "PERSON" for n in typing_names(body)}}
    )
    result = LLMExtractor(config(server), cache_root=tmp_path).extract(doc)
    assert [(t.subject, t.subject_type, t.predicate) for t in result.triples] == [
        ('Robert "Bob" Smith', "PERSON", "works_for")
    ]
    sent = json.dumps([r["response_format"] for r in server.requests])
    assert "Robert 'Bob' Smith" in sent and '\\"Bob\\"' not in sent
    assert safe_name('A "B" C\\D\x00') == "A 'B' CD"


def test_gleaning_rounds_come_from_config(server, tmp_path):
    server.add(
        triples(("Alice Smith", "founded", "Acme Corporation")), triples(("Acme Corporation", "is based in", "Berlin"))
    )
    server.responder = typed
    extractor = LLMExtractor(config(server, gleaning=1), cache_root=tmp_path)
    assert sorted(t.predicate for t in extractor.extract(ACME).triples) == ["based_in", "founded"]
    second = server.requests[1]["messages"]
    assert second[-2] == {"role": "assistant", "content": triples(("Alice Smith", "founded", "Acme Corporation"))}
    assert second[-1]["content"] == compact.GLEAN and extractor.usage.snapshot()["extract"]["calls"] == 2


def test_a_window_without_two_listed_entities_is_not_sent(server, tmp_path):
    extractor = LLMExtractor(config(server), cache_root=tmp_path)
    assert extractor.extract(Document("w.txt", "The weather was fine. It rained all day.")).triples == ()
    assert server.requests == [] and extractor.usage.snapshot()["extract"]["skipped_windows"] == 1


def test_sampling_settings_and_schema_dialect_come_from_config(server, tmp_path, monkeypatch):
    server.responder = lambda body: triples() if "Passage" in json.dumps(body) else typed(body)
    cfg = config(server, top_k=20, seed=0, max_tokens=200, temperature=0.2, structured="json_schema")
    LLMExtractor(cfg, cache=False).extract(ACME)
    body = server.requests[0]
    assert (body["top_k"], body["seed"], body["max_tokens"], body["temperature"]) == (20, 0, 200, 0.2)
    assert body["response_format"]["type"] == "json_schema" and body["response_format"]["json_schema"]["schema"]
    LLMExtractor(config(server, structured="none"), cache=False).extract(ACME)
    assert "response_format" not in server.requests[-1] and "top_k" not in server.requests[-1]
    assert resolve_mode("auto", "https://api.openai.com/v1") == "json_object" == resolve_mode("auto", None)
    assert resolve_mode("auto", "http://localhost:11434/v1") == "schema"

    monkeypatch.setenv("RELGUARD_LLM_PROMPT_SET", "paper")
    monkeypatch.setenv("RELGUARD_LLM_TOP_K", "20")
    monkeypatch.setenv("RELGUARD_LLM_MAX_TOKENS", "640")
    from_env = LLMConfig.from_env(model="m", base_url=server.base_url)
    assert (from_env.prompt_set, from_env.top_k, from_env.max_tokens) == ("paper", 20, 640)
    monkeypatch.setenv("RELGUARD_LLM_TOP_K", "many")
    with pytest.raises(ConfigError, match="RELGUARD_LLM_TOP_K must be a int"):
        LLMConfig.from_env(model="m")
    with pytest.raises(ConfigError, match="prompt_set must be one of compact, paper"):
        LLMConfig(model="m", prompt_set="fig4")


def test_compact_pool_prompt_holds_only_the_type_pair_and_k(server, tmp_path):
    server.add(
        json.dumps({"relation_pool": ["works_for", "is_part_of", "employed_by", "founded"]}),
        json.dumps({"relation_pool": ["works_for", "founded", "sued", "advises"]}),
    )
    generator = LLMCandidates(config(server), cache_root=tmp_path)
    pool = generator.generate(("PERSON", "ORG"), 4)
    assert (
        pool.predicates == ("works_for", "founded", "sued", "advises")
        and pool.source == "llm:test-model@compact-pool-v2"
    )
    first = server.requests[0]
    assert last_user(first) == "Type pair: (PERSON, ORG)\nK: 4"
    schema = first["response_format"]["schema"]["properties"]["relation_pool"]
    assert (schema["minItems"], schema["maxItems"]) == (4, 4)
    retry = last_user(server.requests[1])
    assert "is_part_of (too vague)" in retry and "employed_by (near-synonym of works_for)" in retry
    for body in server.requests:  # the type pair, K and the model's own predicates: nothing from a document
        assert "Alice" not in json.dumps(body["messages"])


# ---------------------------------------------------------------- union


def test_union_holds_every_spacy_and_llm_slot_with_overlaps_merged(server, tmp_path):
    doc = Document("u.txt", "Alice Smith co-founded Acme Corporation in 1990. Acme Corporation is based in Berlin.")
    server.add(
        triples(("Alice Smith", "co-founded", "Acme Corporation"), ("Acme Corporation", "based in", "Berlin"),
                ("Berlin", "is based in", "Acme Corporation")),
    )  # fmt: skip
    server.responder = typed
    union = registry.create("extractor", "union", model="test-model", base_url=server.base_url, max_concurrency=1,
                            timeout=5.0, cache_root=tmp_path)  # fmt: skip
    spacy = registry.create("extractor", "spacy").extract(doc)
    result = union.extract(doc)
    spans_are_exact(result)
    assert result.sentences == spacy.sentences
    slots = [(frozenset((t.subject, t.object)), o) for t in result.triples for o in t.occurrences]
    # every spaCy slot is in the union, inside one union occurrence on the same pair
    for triple in spacy.triples:
        for occ in triple.occurrences:
            pair = frozenset((triple.subject, triple.object))
            assert any(p == pair and o.start <= occ.start and occ.end <= o.end for p, o in slots)
    # the LLM's three spans become two slots: "co-founded" and one "is based in" (both directions merged)
    texts = sorted((sorted(p), o.text) for p, o in slots)
    assert texts == [
        (["Acme Corporation", "Alice Smith"], "co-founded"),
        (["Acme Corporation", "Berlin"], "is based in"),
    ]
    assert {e.name: e.type for e in result.entities}.items() >= {
        "Alice Smith": "PERSON",
        "Acme Corporation": "ORG",
        "Berlin": "GPE",
    }.items()
    typing_calls = [r for r in server.requests if "typing" in system_prompt(r)]
    assert len(typing_calls) == 1  # spaCy's endpoints are typed in the LLM's one call, from names only
    info = union.provenance()
    assert info["backend"] == "union" and info["model"] == "test-model" and info["dropped"]["overlap_merged"] >= 1
    assert union.model_id.startswith("union:spacy:") and "compact-extract-v3" in union.model_id


# ---------------------------------------------------------------- discovery


def test_a_running_local_server_is_found_with_its_models():
    with ScriptedLLM(models=("qwen2.5-coder-1.5b-instruct", "other")) as llm:
        port = llm.server.server_address[1]
        with ScriptedLLM() as closed:
            dead = closed.server.server_address[1]
        found = find_local_servers(ports=(dead, port), timeout=1.0)
        assert [(s.base_url, s.models) for s in found] == [(llm.base_url, ("qwen2.5-coder-1.5b-instruct", "other"))]
        assert found[0].environment() == {
            "OPENAI_BASE_URL": llm.base_url,
            "RELGUARD_LLM_MODEL": "qwen2.5-coder-1.5b-instruct",
        }
        assert "(2 models)" in found[0].label
        assert find_local_server(ports=(dead,), timeout=0.5) is None
    with socket.socket() as silent:  # accepts connections, never answers: a llama.cpp server busy generating
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        (busy,) = find_local_servers(ports=(silent.getsockname()[1],), timeout=0.3)
        assert busy.busy and busy.models == () and "busy" in busy.label
