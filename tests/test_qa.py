"""Downstream QA (``relguard evaluate --qa``): the real openai client over real HTTP to a scripted local server.

The server stands in for the external reader model; what is under test is ours: which passages are retrieved and
sent (from the original corpus, and from a release), how the reply is scored (HotpotQA normalization, best alias),
the loss and its spread over releases, the cache that makes a rerun free, and the error without an endpoint.
"""

from __future__ import annotations

import json
import math
import re
import statistics
from pathlib import Path

import pandas as pd
import pytest

from relguard.cli import main
from relguard.evaluation.datasets import Question, load_hotpotqa
from relguard.evaluation.qa import CorpusScore, QAResult, read_corpus
from relguard.evaluation.reader import Reader, clean_answer
from relguard.llm import LLMConfig
from relguard.pipeline import prepare
from tests.llm_server import ScriptedLLM, system_prompt, user_text

pytest.importorskip("openai")
pytest.importorskip("bm25s")

ORIGINAL = {
    "Acme Corporation": "Acme Corporation was founded by Alice Smith in Berlin.",
    "Alice Smith": "Alice Smith is a German engineer.",
    "Berlin": "Berlin is the capital of Germany.",
    "Beta Books": "Beta Books publishes novels in Paris.",
    "Lake Tana": "Lake Tana is a lake in Ethiopia.",
}
FOUNDER = Question("q1", "Which city hosts Acme Corporation, founded by Alice Smith?", ("Berlin",), ())


def blocks(body: dict) -> list[tuple[str, str]]:
    """The (title, text) passages of a request, in the order they were numbered."""
    text = user_text(body).split("Passages:\n\n", 1)[1].split("\n\nQuestion: ", 1)[0]
    found = []
    for number, block in enumerate(text.split("\n\n"), 1):
        head, _, body_text = block.partition("\n")
        assert head.startswith(f"[{number}] ")
        found.append((head[len(f"[{number}] ") :], body_text))
    return found


def question_of(body: dict) -> str:
    return re.search(r"\nQuestion: (.*)\nAnswer:$", user_text(body)).group(1)


def reader_for(server: ScriptedLLM, tmp_path: Path) -> Reader:
    config = LLMConfig(model="reader-test", base_url=server.base_url, max_concurrency=1, backoff=0.01, timeout=5.0)
    return Reader(config, cache_root=tmp_path / "cache")


def test_the_passages_sent_are_the_top_bm25_documents_of_the_corpus_read(tmp_path):
    """Only "Acme Corporation" and "Alice Smith" share words with the question in the original, so they are the
    top two; in the "release" Lake Tana's text takes most of the question's words, so it displaces Alice Smith
    (which matches two), and the two passages sent are Acme Corporation and Lake Tana as released."""
    release = {
        **ORIGINAL,
        "Acme Corporation": "Acme Corporation was led by Alice Smith in Berlin.",
        "Lake Tana": "Lake Tana hosts Acme Corporation, founded by Alice Smith and Alice Smith.",
    }
    with ScriptedLLM(responder=lambda body: "Berlin") as server:
        reader = reader_for(server, tmp_path)
        original = read_corpus([FOUNDER], ORIGINAL, reader, passages=2)
        released = read_corpus([FOUNDER], release, reader, passages=2)
        sent = [blocks(body) for body in server.requests]
    assert len(sent) == 2
    assert {title for title, _ in sent[0]} == {"Acme Corporation", "Alice Smith"}
    assert {title for title, _ in sent[1]} == {"Acme Corporation", "Lake Tana"}
    for request, texts, answers in ((sent[0], ORIGINAL, original), (sent[1], release, released)):
        assert [title for title, _ in request] == list(answers[0].passages)
        assert all(text == texts[title] for title, text in request)
    assert "short span" in system_prompt(server.requests[0])
    assert question_of(server.requests[0]) == FOUNDER.question
    assert server.requests[0]["max_tokens"] <= 32 and "response_format" not in server.requests[0]


#: Three questions; the reply depends on whether the passage that states the answer is still there.
QUESTIONS = (
    Question("q1", "Who founded Acme Corporation?", ("Alice Smith",), ()),
    Question("q2", "What is Berlin?", ("the capital of Germany",), ()),
    Question("q3", "Where does Beta Books publish?", ("Rome", "Roma"), ()),
)
REPLIES = {
    # (reply when the stating passage is present, reply when it is gone)
    "Who founded Acme Corporation?": ("founded by Alice Smith", "Alice Smith", "Smith"),
    "What is Berlin?": ("capital of Germany", "Answer: Capital of Germany.", "a city"),
    "Where does Beta Books publish?": ("in Roma", '"Roma"', "Milan"),
}
TEXTS = {
    "Acme Corporation": "Acme Corporation was founded by Alice Smith.",
    "Berlin": "Berlin is the capital of Germany.",
    "Beta Books": "Beta Books publishes novels in Roma, Italy.",
}


def scripted_reader(body: dict) -> str:
    clue, present, gone = REPLIES[question_of(body)]
    return present if any(clue in text for _, text in blocks(body)) else gone


def test_em_f1_and_the_loss_over_releases_on_a_hand_made_case(tmp_path):
    """Original: all three right (EM 100, F1 100; "Answer: Capital of Germany." normalizes to the gold, "Roma" is
    an alias). Release A loses q1's clue: "Smith" against "Alice Smith" is EM 0, F1 2·1·½/(1 + ½) = 2/3, so EM
    200/3 and F1 (2/3 + 2)/3·100 = 800/9. Release B changes nothing. Losses: EM 100/3 and 0, F1 100/9 and 0; their
    mean and sample std over the two releases are the summary."""
    release_a = {**TEXTS, "Acme Corporation": "Acme Corporation was led by a chairman."}
    with ScriptedLLM(responder=scripted_reader) as server:
        reader = reader_for(server, tmp_path)
        scores = [read_corpus(QUESTIONS, texts, reader, passages=3) for texts in (TEXTS, release_a, TEXTS)]
        assert len(server.requests) == 6
    original = CorpusScore(scores[0])
    releases = [CorpusScore(s, epsilon=5.0, lam=1.0, k=10, release=n) for n, s in enumerate(scores[1:])]
    assert [(a.em, a.f1) for a in scores[0]] == [(1.0, 1.0)] * 3
    assert [(a.em, round(a.f1, 9)) for a in scores[1]] == [(0.0, round(2 / 3, 9)), (1.0, 1.0), (1.0, 1.0)]
    result = QAResult("tiny", "3 questions", "reader-test", "local", 3, original, 3, releases)
    rows = result.rows()
    assert rows[1]["em"] == pytest.approx(200 / 3) and rows[1]["f1"] == pytest.approx(800 / 9)
    assert rows[1]["em_loss"] == pytest.approx(100 / 3) and rows[1]["f1_loss"] == pytest.approx(100 / 9)
    assert rows[2]["em_loss"] == 0 and rows[2]["f1_loss"] == 0
    # the paired standard error over questions: per-question F1 losses 100/3, 0, 0 in release A, none in B
    assert rows[1]["f1_loss_se"] == pytest.approx(statistics.stdev([100 / 3, 0, 0]) / math.sqrt(3))
    assert rows[2]["f1_loss_se"] == 0
    summary = result.summary()
    assert summary[0]["corpus"] == "original" and summary[0]["f1"] == 100
    item = summary[1]
    assert item["releases"] == 2 and item["questions"] == 3
    assert item["f1_loss"] == pytest.approx(50 / 9)
    assert item["f1_loss_std"] == pytest.approx(statistics.stdev([100 / 9, 0]))
    assert item["em_loss"] == pytest.approx(50 / 3)
    assert item["em_loss_std"] == pytest.approx(statistics.stdev([100 / 3, 0]))


@pytest.mark.parametrize(
    ("reply", "span"),
    [
        ("Alice Smith", "Alice Smith"),  # already a span
        ("Answer: Alice Smith", "Alice Smith"),  # a label the prompt ends with, repeated
        ("\n  'Alice Smith'\nBecause the passage says so.", "Alice Smith"),  # quotes and an explanation line
        ("", ""),  # an empty reply stays empty (scores 0)
    ],
)
def test_clean_answer_keeps_the_span_only(reply, span):
    assert clean_answer(reply) == span


def test_qa_without_an_endpoint_fails_in_one_line_naming_the_local_model(tmp_path, monkeypatch, capsys):
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY", "RELGUARD_LLM_MODEL"):
        monkeypatch.delenv(name, raising=False)
    out = tmp_path / "out"
    assert main(["evaluate", "--qa", "--dataset", "hotpotqa", "--data-dir", str(tmp_path), "--out", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "scripts/local-llm.sh --background" in err and "--llm-model" in err
    assert not out.exists()


HOTPOT = [
    {
        "_id": "h1",
        "question": "Who founded Acme Corporation?",
        "answer": "Alice Smith",
        "supporting_facts": [["Acme Corporation", 0]],
        "context": [
            ["Acme Corporation", ["Acme Corporation was founded by Alice Smith in 1990.", " It is based in Berlin."]],
            ["Alice Smith", ["Alice Smith is a German engineer.", " She married Bob Jones in 1995."]],
        ],
    },
    {
        "_id": "h2",
        "question": "Where is Beta Books based?",
        "answer": "Paris",
        "supporting_facts": [["Beta Books", 0]],
        "context": [
            ["Beta Books", ["Beta Books is a publisher based in Paris.", " Carol Jones works for Beta Books."]],
            ["Carol Jones", ["Carol Jones was born in London.", " She wrote novels for Beta Books."]],
        ],
    },
]


def gold_if_present(body: dict) -> str:
    """The gold answer when a passage sent states it, else a wrong one: the score then tells which text was read."""
    gold = {record["question"]: record["answer"] for record in HOTPOT}[question_of(body)]
    return gold if any(gold in text for _, text in blocks(body)) else "unknown"


def test_cli_qa_reads_the_original_and_each_seeded_release_and_a_rerun_costs_nothing(tmp_path, monkeypatch, capsys):
    """Two questions, ε ∈ {5, 1}, two releases each (teaching seeds 7..10): 2 × (1 + 4) requests, the release
    requests carrying exactly the released texts of the passages the table lists; every loss is original −
    release; the second run is answered from the cache."""
    (tmp_path / "hotpotqa_train_hipporag.json").write_text(json.dumps(HOTPOT))
    monkeypatch.setenv("RELGUARD_LLM_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("RELGUARD_LLM_CONCURRENCY", "1")
    out = tmp_path / "out"
    with ScriptedLLM(responder=gold_if_present) as server:
        args = ["evaluate", "--qa", "--dataset", "hotpotqa", "--data-dir", str(tmp_path), "--out", str(out)]
        args += ["--base-url", server.base_url, "--llm-model", "reader-test", "--epsilons", "5,1", "--trials", "2"]
        args += ["--seed", "7", "--qa-passages", "2", "--workers", "1", "--quiet"]
        assert main(args) == 0
        first = list(server.requests)
        assert main(args) == 0
        assert len(server.requests) == len(first) == 2 * (1 + 2 * 2)
    assert "reader reader-test" in capsys.readouterr().out
    answers = pd.read_csv(out / "qa_answers.csv")
    assert list(answers.gold[:2]) == ["Alice Smith", "Paris"]
    dataset = load_hotpotqa(tmp_path)
    prepared = prepare(dataset.documents, k=10)
    corpora = [{d.name: d.text for d in dataset.documents}]
    corpora += [{d.name: d.text for d in prepared.draw(epsilon=e, lam=1, seed=7 + i).documents}
                for i, e in enumerate((5, 5, 1, 1))]  # fmt: skip
    for number, (body, row) in enumerate(zip(first, answers.itertuples(), strict=True)):
        texts = corpora[number // 2]
        sent = blocks(body)
        assert [title for title, _ in sent] == row.passages.split(" | ")
        assert all(text == texts[title] for title, text in sent)
        assert row.em == float(row.prediction != "unknown")
    results = pd.read_csv(out / "qa_results.csv")
    original = results.iloc[0]
    assert original.corpus == "original" and original.f1 == 100.0
    releases = results.iloc[1:]
    assert list(releases.epsilon) == [5, 5, 1, 1]
    assert (releases.f1_loss == original.f1 - releases.f1).all()
    assert (releases.em_loss == original.em - releases.em).all()
    table = (out / "qa.md").read_text()
    assert "reader-test" in table and "teaching seeds 7..10: NOT private" in table
    assert "| original | – | – | 2 | 100.0 | 100.0 | – | – | – |" in table
    assert "| RelGuard | ε=5, λ=1, K=10 | 2 | 2 |" in table
