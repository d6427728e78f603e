"""The seed-paper comparison sanitizers: each one's defining behaviour on small hand-made documents.

Real spaCy pipeline and real MiniLM encoder throughout; the pure decision functions are also checked
against closed forms and brute force.
"""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest
from scipy import stats

from relguard import registry
from relguard.evaluation.comparators import COMPARATORS, create
from relguard.evaluation.comparators import pa_hdp as pa
from relguard.evaluation.comparators import promptgraph as pg
from relguard.evaluation.comparators import trip_rag as tr
from relguard.types import Document

HIGH_RISK = "John Smith's phone number is 555-867-5309 and he lives in Boston."
LOW_RISK = "The museum opened in 1998."
PHONE_QUERY = "What is John Smith's phone number?"
HOSPITAL = Document(
    "hospital",
    "Mercy Hospital is a teaching hospital in Springfield that specialises in cardiac surgery. "
    "Mercy Hospital opened its new cardiac unit in 1998 and now treats heart patients from across the region. "
    "Last spring a patient named Jonathan Whitaker was treated there after a heart attack.",
)
PROMPT = Document(
    "prompt",
    "Alice Johnson asks whether her fasting log and insulin dosage adjustment should be included in the "
    "treatment plan. She can be reached at alice.j@example.com or 617-555-0199.",
)


@pytest.fixture(scope="module")
def models():
    nlp = registry.create("extractor", "spacy").nlp
    encoder = registry.create("encoder", "sentence-transformers", model="all-MiniLM-L6-v2")
    return {"nlp": nlp, "encoder": encoder}


def chi_square(counts: np.ndarray, probabilities: np.ndarray) -> tuple[float, int]:
    """Pearson χ² with cells of expected count < 5 pooled (the usual validity condition); (statistic, df)."""
    expected = probabilities * counts.sum()
    small = expected < 5
    observed_cells = [*counts[~small], counts[small].sum()] if small.any() else list(counts)
    expected_cells = [*expected[~small], expected[small].sum()] if small.any() else list(expected)
    observed_cells, expected_cells = np.array(observed_cells, float), np.array(expected_cells, float)
    return float(((observed_cells - expected_cells) ** 2 / expected_cells).sum()), len(expected_cells) - 1


# --- PA-HDP ----------------------------------------------------------------------------------------


def test_pa_hdp_risk_levels_and_budgets_follow_the_paper():
    assert pa.risk_score(0.5, 0.9, lam=0.6) == pytest.approx(0.6 * 0.5 + 0.4 * 0.9)  # Eq. 1
    levels = [pa.risk_level(x, tau_low=0.3, tau_high=0.7) for x in (-0.2, 0.2999, 0.3, 0.6999, 0.7, 1.4)]
    assert levels == [pa.LOW, pa.LOW, pa.MEDIUM, pa.MEDIUM, pa.HIGH, pa.HIGH]  # τ1 ≤ medium < τ2 ≤ high
    budgets = pa.level_budgets([pa.HIGH, pa.HIGH, pa.MEDIUM, pa.MEDIUM, pa.MEDIUM, pa.LOW], epsilon=5, gamma=2)
    assert budgets[pa.HIGH] == pytest.approx(5 / (2 * (2 + 2 * 3)))  # ε_H = ε / (2(N_H + γ N_M))
    assert budgets[pa.MEDIUM] == pytest.approx(2 * budgets[pa.HIGH]) and budgets[pa.LOW] == 0
    assert 2 * budgets[pa.HIGH] + 3 * budgets[pa.MEDIUM] == pytest.approx(5 / 2)  # the selections share ε/2


def test_pa_hdp_selection_probabilities_are_the_exponential_mechanism():
    utilities = np.array([-0.1, -0.4, -0.25, -1.3])
    expected = np.exp(3.0 * utilities / 2) / np.exp(3.0 * utilities / 2).sum()  # Lemma 3 at ε = 3
    assert pa.selection_probabilities(utilities, epsilon=3.0) == pytest.approx(expected, rel=1e-12)
    [u] = pa.candidate_utilities(np.array([1.0, 0.0]), np.array([[0.0, 1.0]]), np.array([0.4]), alpha=0.5)
    assert u == pytest.approx(-0.5 * np.sqrt(2) - 0.5 * 0.4)  # u = -α‖φ(s) - φ(s^v)‖₂ - (1-α) r


def test_pa_hdp_keeps_low_risk_sentence_and_replaces_high_risk_one(models):
    # ε = 200 makes the risk noise Lap(2/ε = 0.01): the noiseless scores (0.875 = 0.6·0.859 + 0.4·0.9 and
    # 0.134 = 0.6·0.090 + 0.4·0.2) sit ≥ 0.16 from the thresholds, so a wrong level has probability
    # < e^-16 per sentence on the OpenDP path as well as the seeded one.
    sanitizer = pa.PaHdp(pa.Settings(epsilon=200.0), **models)
    document = Document("d", f"{HIGH_RISK} {LOW_RISK}")
    for seed in (7, None):
        [(out, decisions)] = sanitizer.sanitize_with_decisions([document], queries=[PHONE_QUERY], seed=seed)
        assert [d.level for d in decisions] == [pa.HIGH, pa.LOW]
        assert decisions[1].sensitivity == 0.2 and decisions[1].output == LOW_RISK  # holds a DATE, yet untouched
        assert decisions[0].budget == pytest.approx(200 / 2)  # the only protected sentence gets ε/2
        assert "John Smith" not in out.text and "555-867-5309" not in out.text and "Boston" not in out.text
        assert out.text.endswith(LOW_RISK) and out.filled_spans == 3


def test_pa_hdp_relevance_gate_and_query_free_stand_in(models):
    sanitizer = pa.PaHdp(**models)
    sentences = [HIGH_RISK, LOW_RISK]
    document = " ".join(sentences)
    closed_gate = sanitizer.gated_queries(["What is the weather like today?"])  # names no sensitive entity
    assert len(closed_gate) == 0
    assert sanitizer.sentence_relevance(document, sentences, closed_gate).tolist() == [0.0, 0.0]
    vectors = models["encoder"].embed_texts([*sentences, document])
    query_free = sanitizer.sentence_relevance(document, sentences, None)
    assert query_free == pytest.approx(np.clip(vectors[:2] @ vectors[2], 0, 1))
    queries = [PHONE_QUERY, "Which museum in Boston opened in 1998?", "What happened in 1998?"]
    gated = sanitizer.gated_queries(queries)
    assert len(gated) == 2  # the last query names only a DATE, which does not open the gate
    query_vectors = models["encoder"].embed_texts(queries[:2])
    with_query = sanitizer.sentence_relevance(document, sentences, gated)
    assert with_query == pytest.approx(np.clip((vectors[:2] @ query_vectors.T).max(axis=1), 0, 1))  # worst case


def test_pa_hdp_samples_high_risk_replacement_with_the_stated_probabilities(models):
    sanitizer = pa.PaHdp(**models)
    parsed = models["nlp"](HIGH_RISK)
    spans = pa.sensitive_spans(parsed, dict(pa.TYPE_WEIGHTS))
    assert [s.label for s in spans] == ["PERSON", "PHONE", "GPE"]
    pools = pa.replacement_pools(spans)
    candidates = pa.generate_candidates(HIGH_RISK, spans, pools, count=8, draws=pa.Draws(3))
    assert all("John Smith" not in c and "555-867-5309" not in c for c in candidates)
    only_other = pa.generate_candidates(
        HIGH_RISK, spans[:1], {"PERSON": ("John Smith", "Ann Lee")}, count=5, draws=pa.Draws(0)
    )
    assert set(only_other) == {HIGH_RISK.replace("John Smith", "Ann Lee")}  # a replacement is never the original
    utilities = sanitizer.score_candidates(HIGH_RISK, candidates)
    # u for two known candidates: the original itself (d_sem = 0, r = its most similar entity) and one with
    # no sensitive entity left (r = 0).
    u_same, u_plain = sanitizer.score_candidates(HIGH_RISK, [HIGH_RISK, "It rained."])
    v = models["encoder"].embed_texts([HIGH_RISK, "It rained.", "John Smith", "555-867-5309", "Boston"])
    assert u_same == pytest.approx(-0.5 * max(v[2:] @ v[0]))
    assert u_plain == pytest.approx(-0.5 * np.linalg.norm(v[0] - v[1]))
    # Seeded path, N = 20000 draws per budget: ε_H = 5/2 (one high-risk sentence at the paper's ε = 5)
    # and ε = 40 (spread-out probabilities). Pearson χ² against Lemma 3 at α = 1e-3: under a correct
    # sampler a fresh seed fails with probability 1e-3 (the seed is fixed, so the test is reproducible).
    for epsilon in (2.5, 40.0):
        draws = pa.Draws(11)
        picks = [pa.select_candidate(utilities, epsilon=epsilon, draws=draws) for _ in range(20000)]
        counts = np.bincount(picks, minlength=len(candidates))
        statistic, df = chi_square(counts, pa.selection_probabilities(utilities, epsilon=epsilon))
        assert statistic < stats.chi2.ppf(1 - 1e-3, df)
    # ...and the ε = 40 counts reject the distribution of a sampler whose budget is off by a factor of 2
    # (exp(ε·u) instead of exp(ε·u/2)), so the check has the power to catch a wrong scale.
    wrong, df = chi_square(counts, pa.selection_probabilities(utilities, epsilon=80.0))
    assert wrong > stats.chi2.ppf(1 - 1e-3, df)
    # OpenDP path (OS entropy, not reproducible): N = 3000 at α = 1e-6, so a correct sampler fails one run in 10^6.
    opendp = pa.Draws(None)
    picks = [pa.select_candidate(utilities, epsilon=40.0, draws=opendp) for _ in range(3000)]
    statistic, df = chi_square(
        np.bincount(picks, minlength=len(candidates)), pa.selection_probabilities(utilities, epsilon=40.0)
    )
    assert statistic < stats.chi2.ppf(1 - 1e-6, df)


# --- TRIP-RAG --------------------------------------------------------------------------------------


def test_trip_rag_marginal_risk_is_context_aware():
    person, city = (
        tr.RubricEntity("Ann Lee", "PERSON", 3, frozenset({0})),
        tr.RubricEntity("Oslo", "GPE", 2, frozenset({0})),
    )
    entities = (person, city)
    assert tr.marginal_risk(entities, 1, frozenset()) == pytest.approx(1 - (1 / 3) ** 2)  # linked to Ann Lee
    assert tr.marginal_risk(entities, 1, frozenset({0})) == pytest.approx(2 / 3)  # once she is generalized
    assert tr.marginal_risk(entities, 0, frozenset()) == pytest.approx(1 + (8 / 9 - 2 / 3))
    plain = tr.Settings()
    # No utility penalties: the identifier goes first and its linked attribute then falls to θ = 2/3 and stays.
    assert tr.select_for_anonymization(entities, [0.0, 0.0], [0.0, 0.0], plain) == (0,)
    # If the person is the topic (TR = 1 at γ = 0.6: Ψ = 11/9 - 0.6 ≈ 0.62 ≤ θ) the person stays, and the
    # attribute linked to them (Ψ = 8/9 > θ) is generalized instead; then the person's Ψ is 1 - 0.6 = 0.4.
    topical = dataclasses.replace(plain, gamma=0.6)
    assert tr.select_for_anonymization(entities, [0.0, 0.0], [1.0, 0.0], topical) == (1,)


def test_trip_rag_generalizes_private_person_and_keeps_topical_hospital(models):
    sanitizer = tr.TripRag(**models)
    [(out, decisions)] = sanitizer.sanitize_with_decisions([HOSPITAL])
    by_text = {d.text: d for d in decisions}
    person, hospital = by_text["Jonathan Whitaker"], by_text["Mercy Hospital"]
    assert person.anonymized and not hospital.anonymized
    assert person.initial_priority > sanitizer.settings.threshold >= hospital.initial_priority
    assert hospital.relevance > 0.5 > person.relevance  # the hospital is the topic; the patient is not
    assert "Jonathan Whitaker" not in out.text and "[PERSON]" in out.text
    assert out.text.count("Mercy Hospital") == 2 and "1998" in out.text


def test_trip_rag_query_topic_decides_whether_the_hospital_is_kept(models):
    sanitizer = tr.TripRag(**models)
    about = ["Which hospital in Springfield specialises in cardiac surgery?", "Who wrote the Hythrun Chronicles?"]
    [kept] = sanitizer.sanitize([HOSPITAL], queries=about)
    [generalized] = sanitizer.sanitize([HOSPITAL], queries=["Who wrote the Hythrun Chronicles?"])
    assert "Mercy Hospital" in kept.text and "Jonathan Whitaker" not in kept.text
    assert "Mercy Hospital" not in generalized.text and "[ORGANIZATION]" in generalized.text


# --- PromptGraph -----------------------------------------------------------------------------------


def brute_force(privacy, edges, lam) -> float:
    n = len(privacy)
    return max(pg.objective(s, privacy, edges, lam) for r in range(n + 1) for s in itertools.combinations(range(n), r))


def random_graph(rng, n, bipartite):
    privacy = [float(rng.uniform(0.05, 1)) if (i % 2 == 0 or not bipartite) else 0.0 for i in range(n)]
    pairs = [(i, j) for i, j in itertools.combinations(range(n), 2) if not bipartite or (i + j) % 2 == 1]
    return privacy, {p: float(rng.uniform(0.05, 1)) for p in pairs if rng.uniform() < 0.5}


def test_promptgraph_greedy_matches_brute_force_where_it_is_provably_optimal():
    # Where every edge joins a span with P > 0 to one with P = 0, a P = 0 span never raises F and each edge
    # touches one candidate only, so F(S) = Σ_{i∈S} (P_i - λ Σ_{e∋i} I_e) is modular; the greedy gains are
    # those constants, and it takes exactly the positive ones: the optimum. λ = 0 is optimal on any graph.
    rng = np.random.default_rng(5)
    for _ in range(40):
        n, lam = int(rng.integers(2, 10)), float(rng.uniform(0, 1.5))
        privacy, edges = random_graph(rng, n, bipartite=True)
        greedy = pg.greedy_protected_set(privacy, edges, lam=lam)
        assert pg.objective(greedy, privacy, edges, lam) == pytest.approx(brute_force(privacy, edges, lam), abs=1e-12)
        gains = [p - lam * sum(w for e, w in edges.items() if i in e) for i, p in enumerate(privacy)]
        assert set(greedy) == {i for i, g in enumerate(gains) if g > 0}
        privacy, edges = random_graph(rng, n, bipartite=False)
        assert set(pg.greedy_protected_set(privacy, edges, lam=0.0)) == set(range(n))
        assert pg.objective(range(n), privacy, edges, 0.0) == pytest.approx(brute_force(privacy, edges, 0.0))


def test_promptgraph_greedy_is_the_papers_heuristic_a_local_optimum():
    # The paper claims no approximation ratio. On two spans sharing a strong edge neither single step pays
    # (0.5 - 0.8 < 0), so the greedy stops at ∅ although protecting both gives F = 1.0 - 0.8 = 0.2.
    assert pg.greedy_protected_set([0.5, 0.5], {(0, 1): 1.0}, lam=0.8) == ()
    assert brute_force([0.5, 0.5], {(0, 1): 1.0}, 0.8) == pytest.approx(0.2)
    rng = np.random.default_rng(9)
    for _ in range(40):
        n, lam = int(rng.integers(2, 9)), float(rng.uniform(0, 1.5))
        privacy, edges = random_graph(rng, n, bipartite=False)
        greedy = pg.greedy_protected_set(privacy, edges, lam=lam)
        steps = [pg.objective(greedy[:t], privacy, edges, lam) for t in range(len(greedy) + 1)]
        assert all(b > a for a, b in itertools.pairwise(steps))  # every step had a positive gain
        final = steps[-1]
        assert all(pg.objective((*greedy, v), privacy, edges, lam) <= final + 1e-12 for v in range(n))
        assert 0 <= final <= brute_force(privacy, edges, lam) + 1e-12


def test_promptgraph_protects_identifiers_and_restores_only_checked_placeholders(models):
    sanitizer = pg.PromptGraph(**models)
    [(out, table)] = sanitizer.sanitize_with_tables([PROMPT])
    originals = {entry.original: pid for pid, entry in table.items()}
    for secret in ("Alice Johnson", "alice.j@example.com", "617-555-0199"):
        assert secret not in out.text and originals[secret] in out.text
    email, person = originals["alice.j@example.com"], originals["Alice Johnson"]
    response = f"Write to {email} for {person}; [P99] and [P 1] are not ours."
    restored, unresolved = pg.restore_placeholders(response, table, document="prompt")
    assert restored == "Write to alice.j@example.com for Alice Johnson; [P99] and [P 1] are not ours."
    assert unresolved == ("[P99]",)  # "[P 1]" is not a placeholder at all
    assert pg.restore_placeholders(response, table, document="another")[0] == response  # metadata check


def test_promptgraph_dependency_penalty_withholds_protection(models):
    spans, privacy, edges = pg.PromptGraph(**models).graph(models["nlp"](PROMPT.text))
    assert privacy[[s.text for s in spans].index("alice.j@example.com")] == 1.0  # direct detector evidence
    assert any(s.label == "CHUNK" and p > 0 for s, p in zip(spans, privacy, strict=True))  # counterfactual C_i
    span_only = set(pg.greedy_protected_set(privacy, edges, lam=0.0))
    assert span_only == {i for i, p in enumerate(privacy) if p > 0}
    assert set(pg.greedy_protected_set(privacy, edges, lam=10.0)) < span_only
    assert max(edges.values()) == 1.0  # Eq. 8 normalization


# --- the façade ------------------------------------------------------------------------------------


def test_comparators_share_one_interface_and_the_paper_defaults(models):
    assert set(COMPARATORS) == {"trip-rag", "pa-hdp", "promptgraph"}
    documents = [Document("one", f"{HIGH_RISK} {LOW_RISK}"), PROMPT]
    for name, cls in COMPARATORS.items():
        assert cls.name == name and len(cls.describe()) > 200
        assert dataclasses.is_dataclass(cls.Settings) and all(f.kw_only for f in dataclasses.fields(cls.Settings))
        with pytest.raises(dataclasses.FrozenInstanceError):
            cls.Settings().__setattr__(dataclasses.fields(cls.Settings)[0].name, 0)
        sanitizer = cls(cls.Settings(candidates=4) if name == "pa-hdp" else cls.Settings(), **models)
        for queries in (None, [PHONE_QUERY]):
            out = sanitizer.sanitize(documents, queries=queries, seed=1)
            assert [d.name for d in out] == ["one", "prompt"]
            assert out == sanitizer.sanitize(documents, queries=queries, seed=1)  # seeded runs repeat
    assert dataclasses.astuple(pa.Settings())[:7] == (5.0, 0.6, 0.3, 0.7, 0.5, 2.0, 50)
    assert (pg.Settings().lam, pg.Settings().k) == (0.2, 4)
    assert tr.Settings().alpha == 1 and tr.Settings().gamma / tr.Settings().beta == pytest.approx(0.8)
    assert isinstance(create("promptgraph", lam=0.5), pg.PromptGraph)
    with pytest.raises(ValueError, match="unknown comparator"):
        create("nope")


def test_registry_names_the_three_sanitizers_with_their_paper_defaults(models):
    from relguard.errors import BackendError

    assert registry.available("sanitizer") == ("pa-hdp", "promptgraph", "trip-rag")
    for name, cls in COMPARATORS.items():
        built = registry.create("sanitizer", name, **models)
        assert type(built) is cls and built.settings == cls.Settings()
    with pytest.raises(BackendError, match="available: pa-hdp, promptgraph, trip-rag"):
        registry.create("sanitizer", "presidio")


def test_pa_hdp_memo_reuses_each_sentences_candidates_across_settings(models):
    """At ε = 200 the level noise has scale 0.01, so the high-risk sentence (S_total ≈ 0.8) is protected both
    under the paper's τ (high) and under τ1 = 0.5, τ2 = 0.9 (medium); the second setting draws from the cache."""
    memo: dict = {}
    document = Document("one", f"{HIGH_RISK} {LOW_RISK}")
    first = pa.PaHdp(pa.Settings(epsilon=200.0, candidates=4), memo=memo, **models)
    first.sanitize([document], queries=[PHONE_QUERY], seed=3)
    [(candidates, utilities)] = [v for k, v in memo.items() if k[0] == HIGH_RISK]
    assert len(candidates) == 4 and utilities.shape == (4,)
    moved = pa.PaHdp(pa.Settings(epsilon=200.0, candidates=4, tau_low=0.5, tau_high=0.9), memo=memo, **models)
    for seed in range(5):
        [(_, decisions)] = moved.sanitize_with_decisions([document], queries=[PHONE_QUERY], seed=seed)
        high = next(d for d in decisions if d.text == HIGH_RISK)
        assert high.level == pa.MEDIUM and high.output in candidates
    assert len([k for k in memo if k[0] == HIGH_RISK]) == 1


# --- in the evaluation and on the Risk page ---------------------------------------------------------------


def test_parse_baselines_defaults_to_all_and_names_the_choices():
    from relguard.errors import ConfigError
    from relguard.evaluation.comparators.compare import parse_baselines

    assert parse_baselines(None) == parse_baselines("all") == ("trip-rag", "pa-hdp", "promptgraph")
    assert parse_baselines("none") == ()
    assert parse_baselines("promptgraph, trip-rag,promptgraph") == ("promptgraph", "trip-rag")
    with pytest.raises(ConfigError, match="unknown seed sanitizer presidio; use a comma-separated subset"):
        parse_baselines("presidio,pa-hdp")


def test_cli_rejects_an_unknown_baseline_in_one_line(capsys):
    from relguard.cli import main

    assert main(["evaluate", "--dataset", "hotpotqa", "--out", "x", "--baselines", "tripe-rag"]) == 1
    err = capsys.readouterr().err.strip()
    assert "--baselines" in err and "tripe-rag" in err and len(err.splitlines()) == 1


def test_cli_evaluate_adds_the_seed_table_and_the_frontier(tmp_path):
    """PromptGraph on three documents: its paper row, a matched row at least as close to RelGuard's utility
    at ε = 5 (the grid includes the paper's λ), and the frontier figure."""
    import pandas as pd

    from relguard.cli import main

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for document in (Document("a.txt", HIGH_RISK + " " + LOW_RISK), HOSPITAL, PROMPT):
        (corpus / f"{document.name}.txt").write_text(document.text)
    out = tmp_path / "out"
    args = ["evaluate", "--dataset", str(corpus), "--out", str(out), "--epsilons", "5", "--no-null-epsilons", ""]
    assert main([*args, "--trials", "1", "--no-presidio", "--quiet", "--baselines", "promptgraph"]) == 0
    assert (out / "frontier_seed.png").stat().st_size > 0
    rows = pd.read_csv(out / "results.csv")
    seed = rows[rows["table"] == "seed"].set_index("kind")
    assert list(seed["variant"]) == ["PromptGraph", "PromptGraph"]
    assert seed.loc["paper default", "setting"] == "λ=0.2 (paper)"
    target = seed.loc["matched", "target"]
    gap = (seed["doc_similarity"] - target).abs()
    assert gap["matched"] <= gap["paper default"]
    table = (out / "tables.md").read_text()
    assert "## Seed sanitizers" in table and "| PromptGraph | paper default | λ=0.2 (paper) |" in table
    assert "seconds per 100 docs" in table


def test_risk_page_compares_the_release_with_a_seed_sanitizer():
    pytest.importorskip("streamlit")
    from test_app import goto, with_sample

    at = goto(with_sample(), "tune")
    at.toggle(key="w_teaching").set_value(True).run()
    next(b for b in at.button if b.label == "Draw a release").click().run()
    goto(at, "risk")
    assert any("Slow" in c.value for c in at.caption)  # says it is slow before anything runs
    at.multiselect(key="seed_names").set_value(["PromptGraph (spans)"]).run()
    at.button(key="seed_run").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    rows = next(d.value for d in at.dataframe if "protects" in d.value.columns)
    assert list(rows["method"]) == [
        "no defence (original text)",
        "RelGuard (your release)",
        "PromptGraph (paper default)",
    ]
    assert rows.iloc[0]["Conn. F1"] == pytest.approx(100.0)  # the attacker's own truth on the originals
    assert rows.iloc[0]["doc. similarity"] == pytest.approx(100.0, abs=1e-3)
    assert int(rows.iloc[2]["spans changed"].replace(",", "")) > 0 and rows.iloc[2]["protects"] == "spans"
    assert list(rows["spans changed"])[:2] == ["—", "—"] and rows.iloc[2]["seconds"].endswith(" s")
    assert rows.iloc[2]["doc. similarity"] < 100.0
