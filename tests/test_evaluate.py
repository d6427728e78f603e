"""Evaluation: the App. E metric, exact expected leakage, the attack's extremes, utility, loaders, CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from relguard.cli import main
from relguard.evaluation import baselines, evaluate_release, expected_leakage, expected_leakage_curve
from relguard.evaluation.attack import TargetedAttacker
from relguard.evaluation.core import evaluate_documents
from relguard.evaluation.datasets import Question, Support, load_2wiki, load_hotpotqa, load_redocred
from relguard.evaluation.matching import EntityResolver, default_matcher
from relguard.evaluation.metrics import Fact, contains_answer, score_leakage, token_f1
from relguard.evaluation.utility import answer_survival, retrieval_recall
from relguard.pipeline import prepare, privacy_of
from relguard.privacy.closeness import CALIBRATION_PAIRS, calibrate_threshold
from relguard.privacy.expected import equivalent_candidates
from relguard.privacy.mechanism import outcome_probabilities
from relguard.privacy.sampling import sample_outcomes
from relguard.types import Document, SanitizedDocument

A_B = Fact("A", "works_for", "B")
A_C = Fact("A", "founded", "C")
TRUTH = [A_B, A_C]


# ------------------------------------------------------------- App. E metric, hand-computed


@pytest.mark.parametrize(
    ("predicted", "expected"),
    [
        # exact copy of the truth: every target scores 1
        (TRUTH, (1, 1, 1, 1)),
        # nothing predicted: precision uses max(1, 0) so it is 0, not undefined
        ([], (0, 0, 0, 0)),
        # A: conn p=1/2 r=1/2, rel p=1/2 r=1/2; B: all 1; C: all 0 -> averages 1/2
        ([A_B, Fact("A", "sued", "D")], (0.5, 0.5, 0.5, 0.5)),
        # a duplicated prediction counts once (same as the row above)
        ([A_B, A_B, Fact("A", "sued", "D"), Fact("A", "sued", "D")], (0.5, 0.5, 0.5, 0.5)),
        # right pairs, wrong predicates: Conn. perfect, Rel. zero
        ([Fact("A", "sued", "B"), Fact("A", "sued", "C")], (1, 1, 0, 0)),
        # no predicate: Conn. only. A: conn 1/1 hit of 1 pred -> p=1, r=1/2; B: 1, 1; C: p=0, r=0
        ([Fact("A", None, "B")], (2 / 3, 1 / 2, 0, 0)),
        # wrong direction is not a directed hit
        ([Fact("B", "works_for", "A")], (0, 0, 0, 0)),
    ],
)
def test_app_e_scores_on_hand_computed_cases(predicted, expected):
    score = score_leakage(TRUTH, predicted)
    got = (score.conn_precision, score.conn_recall, score.rel_precision, score.rel_recall)
    assert got == pytest.approx(expected)
    assert score.targets == 3
    assert score.conn_f1 == pytest.approx(
        0 if sum(expected[:2]) == 0 else 2 * expected[0] * expected[1] / (expected[0] + expected[1])
    )


def test_undirected_mode_accepts_reversed_pairs_and_relation_rule_is_pluggable():
    reversed_pair = [Fact("B", "employs", "A")]
    assert score_leakage(TRUTH, reversed_pair, directed=False).conn_recall == pytest.approx((1 / 2 + 1 + 0) / 3)
    synonyms = {("works_for", "employs")}
    rule = lambda t, p: (t.predicate, p.predicate) in synonyms  # noqa: E731
    assert score_leakage(TRUTH, reversed_pair, directed=False, same_relation=rule).rel_recall == pytest.approx(0.5)


def test_empty_truth_gives_zero_targets_not_a_division_error():
    score = score_leakage([], [A_B])
    assert score.targets == 0 and score.conn_f1 == 0 and score.rel_f1 == 0


def test_hotpotqa_normalisation_and_token_f1():
    assert token_f1("The Beatles!", "beatles") == 1.0
    assert token_f1("yes", "no") == 0.0
    assert token_f1("Paris France", "Paris") == pytest.approx(2 * 0.5 * 1 / 1.5)
    assert contains_answer("He moved to the U.S. in 1990.", "U.S.")
    assert not contains_answer("Parisian cafes", "Paris")


def test_entity_resolver_maps_aliases_and_keeps_unknown_names():
    resolver = EntityResolver({"Acme Corp.": "Acme Corporation", "the Beatles": "The Beatles"})
    assert resolver("acme corp") == "Acme Corporation"
    assert resolver("Beatles") == "The Beatles"
    assert resolver("Globex") == "Globex"


# ------------------------------------------------------------- relation matcher calibration


def test_calibrated_threshold_separates_the_labelled_pairs():
    from relguard.embed import load_encoder

    calibration = calibrate_threshold(load_encoder())
    assert calibration.accuracy >= 0.85
    assert np.mean(calibration.synonym_distances) < np.mean(calibration.distinct_distances)
    assert len(calibration.synonym_distances) + len(calibration.distinct_distances) == len(CALIBRATION_PAIRS)


# ------------------------------------------------------------- the no-null ablation keyword


def test_allow_null_false_renormalizes_over_candidates_and_never_deletes():
    d = np.array([[0.1, 0.4, 0.9], [0.3, 0.3, 0.6]])
    with_null = outcome_probabilities(d, epsilon=2.0, lam=0.05)
    without = outcome_probabilities(d, epsilon=2.0, lam=0.05, allow_null=False)
    assert np.all(without[:, -1] == 0)
    np.testing.assert_allclose(without[:, :-1], with_null[:, :-1] / (1 - with_null[:, -1:]), rtol=1e-12)
    draws = sample_outcomes(np.repeat(d, 300, axis=0), epsilon=2.0, lam=0.0, allow_null=False)
    assert draws.max() < 3
    assert (sample_outcomes(np.repeat(d, 300, axis=0), epsilon=2.0, lam=0.0) == 3).any()


# ------------------------------------------------------------- corpus-level checks (real spaCy, encoder, inventory)

CORPUS = (
    Document("a.txt", "Alice Smith works for Acme Corporation. Alice Smith was born in Paris."),
    Document("b.txt", "Bob Jones founded Globex Corporation in 1990. The weather was mild that year."),
    Document("c.txt", "Carol White married Dan Brown. Dan Brown studied at Harvard University."),
)


@pytest.fixture(scope="module")
def prepared():
    result = prepare(CORPUS, k=10)
    assert len(result.triples) >= 3, "the test corpus must yield relations"
    return result


@pytest.fixture(scope="module")
def attacker():
    return TargetedAttacker("spacy")


def test_no_defence_leaks_everything_and_deleting_every_relation_leaks_nothing(prepared, attacker):
    original = evaluate_release(prepared, None, attacker=attacker)
    assert original.leakage.conn_f1 == pytest.approx(1.0)
    assert original.leakage.rel_f1 == pytest.approx(1.0)
    assert original.coverage == 1.0
    deleted = evaluate_documents(prepared, baselines.delete_relations(prepared), method="delete", attacker=attacker)
    assert deleted.leakage.conn_f1 == 0.0 and deleted.leakage.rel_f1 == 0.0
    assert deleted.leakage.targets == original.leakage.targets > 0


def test_names_that_normalize_alike_are_one_entity_for_truth_and_attacker(attacker):
    """ "an Academy Award" (one paragraph's mention) and "Academy Award" (another's) are one entity: extraction
    normalizes the name, and the truth and the attacker's resolver must agree, or no defence scores below full
    leakage."""
    corpus = (
        Document("d.txt", "Kathleen Turner was nominated for an Academy Award for her role."),
        Document("e.txt", "Meryl Streep won the Academy Award. Meryl Streep works for Acme Corporation."),
    )
    prepared = prepare(corpus, k=10)
    objects = {t.object for t in prepared.triples}
    assert "Academy Award" in objects and "an Academy Award" not in objects  # the determiner goes at extraction
    original = evaluate_release(prepared, None, attacker=attacker)
    assert original.leakage.conn_f1 == pytest.approx(1.0) and original.leakage.rel_f1 == pytest.approx(1.0)
    assert original.leakage.targets == 4  # Turner, Streep, Academy Award (both spellings), Acme Corporation


def test_a_release_leaks_between_the_extremes_and_reports_its_settings(prepared, attacker):
    release = prepared.draw(epsilon=0.1, lam=0.01)
    evaluation = evaluate_release(prepared, release, attacker=attacker)
    assert 0.0 <= evaluation.leakage.conn_f1 <= 1.0
    assert evaluation.settings == {"epsilon": 0.1, "lam": 0.01, "k": 10}
    assert evaluation.deleted_share == pytest.approx(sum(o.deleted for o in release.outcomes) / len(release.outcomes))


def test_expected_leakage_equals_the_mean_of_2000_sampled_releases(prepared):
    """A release's leakage is a function of its outcomes, so each of the 2000 is drawn as the release draws it
    (:meth:`Prepared.outcomes`, the draw of :meth:`Prepared.draw`) without wording its documents."""
    epsilon, lam, threshold, n = 2.0, 0.4, 0.35, 2000
    exact = expected_leakage(prepared, epsilon=epsilon, lam=lam, threshold=threshold)
    same = equivalent_candidates(prepared, threshold=threshold)
    m = len(prepared.triples)
    owner = prepared.group_of_triple
    connection = relation = 0.0
    privacy = privacy_of(epsilon=epsilon, entity_epsilon=None, lam=lam, k=prepared.k, seed=None)
    for _ in range(n):
        outcomes = prepared.outcomes(privacy).outcomes.outcomes(prepared.groups)
        for row, group in enumerate(owner):
            outcome = outcomes[group]
            if outcome.deleted:
                continue
            connection += 1
            relation += same[row, prepared.pool_for(outcome.group).predicates.index(outcome.predicate)]
    # The n·g group draws are independent; group g adds a value in [0, n_g / m] to one release's average (n_g
    # triples share its draw). Hoeffding: P(|mean − E| ≥ t) ≤ 2 exp(−2 n t² / Σ_g (n_g / m)²); t = 5 σ_max
    # with σ_max² = Σ_g (n_g / m)² / (4 n) makes that 2 e^(−12.5) < 1e-5.
    sizes = np.bincount(owner)
    tolerance = 5 * math.sqrt(float(np.sum((sizes / m) ** 2)) / (4 * n))
    assert connection / (n * m) == pytest.approx(exact.connection, abs=tolerance)
    assert relation / (n * m) == pytest.approx(exact.relation, abs=tolerance)
    assert 0.05 < exact.deleted < 0.95, "the setting must exercise deletion"


def test_expected_leakage_curve_falls_towards_uniform_as_epsilon_shrinks(prepared):
    curve = expected_leakage_curve(prepared, epsilons=(0.0, 1.0, 10.0, 100.0), lam=1.0, threshold=0.35)
    k = prepared.k
    assert curve[0].deleted == pytest.approx(1 / (k + 1))
    assert curve[-1].relation >= curve[0].relation
    no_null = expected_leakage(prepared, epsilon=1.0, lam=1.0, threshold=0.35, allow_null=False)
    assert no_null.connection == pytest.approx(1.0) and no_null.deleted == 0.0


def test_presidio_masks_the_names_the_attacker_needs(prepared, attacker):
    masked = baselines.presidio_mask(prepared)
    text = " ".join(d.text for d in masked)
    assert "Alice Smith" not in text and "<PERSON>" in text
    evaluation = evaluate_documents(prepared, masked, method="presidio", attacker=attacker)
    assert evaluation.leakage.conn_recall < 0.5


# ------------------------------------------------------------- utility


def test_answer_survival_counts_deleted_supports_and_missing_answers():
    docs = {
        "d1": Document("d1", "Alice founded Acme. Acme is in Paris."),
        "d2": Document("d2", "Nothing relevant here."),
    }
    questions = [
        Question("q1", "Who founded Acme?", ("Alice",), (Support("d1", 0, 19),)),
        Question("q2", "Where is Acme?", ("Paris",), (Support("d1", 20, 37),)),
        Question("q3", "What is the answer?", ("zebra",), (Support("d2", 0, 22),)),
    ]
    sanitized = {
        "d1": SanitizedDocument("d1", "Alice founded Acme. Acme is in Paris."),
        "d2": SanitizedDocument("d2", ""),
    }
    assert answer_survival(questions, docs, sanitized, {}) == (1.0, 1.0, 2)
    changed = {"d1": SanitizedDocument("d1", "Acme is in Paris."), "d2": SanitizedDocument("d2", "")}
    assert answer_survival(questions, docs, changed, {})[0] == 0.5


def test_bm25_recall_finds_the_matching_passage():
    texts = {"Acme": "Acme is a company in Paris", "Zoo": "Lions and zebras", "Rome": "Rome is in Italy"}
    questions = [Question("q", "Which company is in Paris?", ("Acme",), (Support("Acme", 0, 5),))]
    assert retrieval_recall(questions, texts, ks=(1, 2)) == {1: 1.0, 2: 1.0}
    assert retrieval_recall(questions, {**texts, "Acme": ""}, ks=(1,))[1] == 0.0


# ------------------------------------------------------------- loaders (original formats) and CLI


def test_loaders_read_the_original_formats(tmp_path: Path):
    hotpot = [
        {
            "_id": "h1",
            "question": "Who?",
            "answer": "Bob",
            "supporting_facts": [["T1", 1]],
            "context": [["T1", ["First one.", " Second one."]], ["T2", ["Other."]]],
        }
    ]
    wiki = [{"id": 7, "Question": "Where?", "answer": ["Rome", "Roma"], "golden_context": ["T3\n Rome text."]}]
    docred = [
        {
            "title": "X",
            "sents": [["Alice", "works", "for", "Acme", "."]],
            "vertexSet": [
                [{"name": "Alice", "type": "PER", "pos": [0, 1], "sent_id": 0}],
                [{"name": "Acme", "type": "ORG", "pos": [3, 4], "sent_id": 0}],
                [{"name": "1990", "type": "TIME", "pos": [0, 1], "sent_id": 0}],
            ],
            "labels": [{"h": 0, "t": 1, "r": "P108", "evidence": [0]}, {"h": 0, "t": 2, "r": "P569", "evidence": [0]}],
        }
    ]
    for name, data in (
        ("hotpotqa_train_hipporag.json", hotpot),
        ("2wiki_prunerag.json", wiki),
        ("redocred_dev_revised.json", docred),
        ("docred_rel_info.json", {"P108": "employer", "P569": "date of birth"}),
    ):
        (tmp_path / name).write_text(json.dumps(data))
    h = load_hotpotqa(tmp_path)
    support = h.questions[0].supports[0]
    assert h.documents[0].text[support.start : support.end] == "Second one."
    w = load_2wiki(tmp_path)
    assert (
        w.documents[0].name == "T3"
        and w.documents[0].text == "Rome text."
        and w.questions[0].answers == ("Rome", "Roma")
    )
    r = load_redocred(tmp_path)
    assert r.documents[0].text == "Alice works for Acme."
    assert [f for _, f in r.gold] == [Fact("Alice", "has_employer", "Acme", ("PERSON", "ORG"))]


def test_cli_evaluate_writes_tables_and_plots(tmp_path: Path, capsys):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for document in CORPUS:
        (corpus / document.name).write_text(document.text)
    out = tmp_path / "out"
    args = ["evaluate", "--dataset", str(corpus), "--out", str(out), "--epsilons", "1", "--no-null-epsilons", "1"]
    code = main([*args, "--trials", "2", "--no-presidio", "--baselines", "none", "--quiet"])
    assert code == 0
    assert {"results.csv", "summary.csv", "tables.md", "leakage_vs_epsilon.png", "frontier.png"} <= {
        p.name for p in out.iterdir()
    }
    table = (out / "tables.md").read_text()
    assert "| no defence | – | 100.0 | 100.0 |" in table
    assert "RelGuard w/o null" in table
    assert "wrote" in capsys.readouterr().out


def test_cli_evaluate_rejects_bad_settings_in_one_line(capsys):
    assert main(["evaluate", "--dataset", "hotpotqa", "--out", "x", "--epsilons", "-1"]) == 1
    assert "epsilon must be a finite number" in capsys.readouterr().err


def test_default_matcher_accepts_synonyms_and_rejects_distinct_relations():
    matcher = default_matcher()
    pair = ("PERSON", "ORG")
    assert matcher(Fact("A", "works_for", "B", pair), Fact("A", "employed_by", "B", pair))
    assert not matcher(Fact("A", "works_for", "B", pair), Fact("A", "sued", "B", pair))


def _docred_document(title: str, sentences: list[list[str]], entities: list[tuple[str, str, int, int, int]], labels):
    vertices = [[{"name": n, "type": t, "pos": [a, b], "sent_id": s}] for n, t, s, a, b in entities]
    return {"title": title, "sents": sentences, "vertexSet": vertices, "labels": labels}


def test_cli_evaluate_redocred_reports_coverage_and_both_attackers(tmp_path: Path):
    """Gold with one relation the extractor slots ("works for") and one it cannot ("Bob Jones and Paris": a list,
    no word relates them): coverage is 1/2; with no defence the spaCy attacker finds only the slotted pair (Conn. recall
    1/2), while the co-occurrence reader, which takes every pair named in one sentence, finds both (recall 1)."""
    record = _docred_document(
        "X",
        [["Alice", "Smith", "works", "for", "Acme", "Corp", "."], ["Bob", "Jones", "and", "Paris", "."]],
        [("Alice Smith", "PER", 0, 0, 2), ("Acme Corp", "ORG", 0, 4, 6), ("Bob Jones", "PER", 1, 0, 2),
         ("Paris", "LOC", 1, 3, 4)],
        [{"h": 0, "t": 1, "r": "P108", "evidence": [0]}, {"h": 2, "t": 3, "r": "P551", "evidence": [1]}],
    )  # fmt: skip
    (tmp_path / "redocred_dev_revised.json").write_text(json.dumps([record]))
    (tmp_path / "docred_rel_info.json").write_text(json.dumps({"P108": "employer", "P551": "residence"}))
    out = tmp_path / "out"
    args = ["evaluate", "--dataset", "redocred", "--data-dir", str(tmp_path), "--out", str(out)]
    args += ["--epsilons", "1", "--no-null-epsilons", "1", "--trials", "1", "--no-presidio", "--quiet"]
    assert main([*args, "--baselines", "none"]) == 0
    import pandas as pd

    summary = pd.read_csv(out / "summary.csv")
    assert {"coverage", "conn_f1", "cooc_conn_f1", "cooc_rel_f1", "verbatim_evidence"} <= set(summary.columns)
    none = summary[summary["method"] == "no defence"].iloc[0]
    assert none["coverage"] == pytest.approx(0.5)
    assert none["conn_r"] == pytest.approx(0.5)
    assert none["cooc_conn_r"] == pytest.approx(1.0)
