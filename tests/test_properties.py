"""Hypothesis property tests: the mechanism's exact laws and reconstruction's byte-level promises.

Every property here is a theorem about the code under test (derived in the docstrings), so a
single counterexample is a bug. Tolerances are floating-point only (1e-9 relative to log-domain
values of order ε, or 1e-12 for probabilities).
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from relguard.embed import pairwise_distances
from relguard.privacy.mechanism import log_probabilities, outcome_probabilities
from relguard.rewrite import Sampled, fill, mask
from relguard.rewrite.shape import MOST_FILLS
from relguard.types import Document, DocumentExtraction, Occurrence, Sentence, Triple
from relguard.verify.bound import audit_pool

SETTINGS = settings(deadline=None, max_examples=150)

epsilons = st.floats(min_value=0.0, max_value=50.0, allow_nan=False)
lams = st.floats(min_value=0.0, max_value=3.0, allow_nan=False)
unit = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)


def rows(min_k: int = 1, max_k: int = 12):
    return st.integers(min_k, max_k).flatmap(lambda k: st.lists(st.lists(unit, min_size=k, max_size=k), min_size=1))


@SETTINGS
@given(d=rows(), epsilon=epsilons, lam=lams)
def test_rows_sum_to_one_and_are_probabilities(d, epsilon, lam):
    p = outcome_probabilities(np.array(d), epsilon=epsilon, lam=lam)
    assert p.shape == (len(d), len(d[0]) + 1)
    assert np.all(p >= 0) and np.all(p <= 1)
    np.testing.assert_allclose(p.sum(axis=1), 1.0, rtol=0, atol=1e-12)


@SETTINGS
@given(d=rows(max_k=1).map(lambda r: r[0]) | st.lists(unit, min_size=1, max_size=12), lam=lams)
def test_epsilon_zero_is_uniform_over_candidates_and_null(d, lam):
    p = outcome_probabilities(np.array(d), epsilon=0.0, lam=lam)
    np.testing.assert_allclose(p, 1.0 / (len(d) + 1), rtol=0, atol=1e-12)


@SETTINGS
@given(d=st.lists(unit, min_size=1, max_size=12), epsilon=epsilons, lam=lams, data=st.data())
def test_probability_of_a_candidate_is_non_increasing_in_its_distance(d, epsilon, lam, data):
    """d/dd_j log P(c_j) = −(ε/2)(1 − P(c_j)) ≤ 0, so moving c_j away can only lower its probability,
    and (the same algebra) raises or keeps every other outcome's probability."""
    j = data.draw(st.integers(0, len(d) - 1))
    farther = list(d)
    farther[j] = data.draw(st.floats(min_value=d[j], max_value=1.0))
    before = outcome_probabilities(np.array(d), epsilon=epsilon, lam=lam)[0]
    after = outcome_probabilities(np.array(farther), epsilon=epsilon, lam=lam)[0]
    assert after[j] <= before[j] * (1 + 1e-12)
    others = [i for i in range(len(d) + 1) if i != j]
    assert np.all(after[others] >= before[others] * (1 - 1e-12))


@SETTINGS
@given(d=st.lists(unit, min_size=1, max_size=12), epsilon=epsilons, lam=lams, more=st.floats(0.0, 3.0))
def test_null_probability_is_non_increasing_in_lambda(d, epsilon, lam, more):
    low = outcome_probabilities(np.array(d), epsilon=epsilon, lam=lam)[0, -1]
    high = outcome_probabilities(np.array(d), epsilon=epsilon, lam=lam + more)[0, -1]
    assert high <= low * (1 + 1e-12)


@SETTINGS
@given(d=st.lists(unit, min_size=1, max_size=12), epsilon=st.floats(0.0, 30.0), lam=lams)
def test_null_probability_in_epsilon_follows_the_derivative(d, epsilon, lam):
    """How P(null) moves with ε, derived exactly.

    Write a_c = d_R(r, c) for the K candidates and a_null = λ, so P(y) = exp(−ε a_y / 2) / Z(ε) with
    Z(ε) = Σ_y exp(−ε a_y / 2) over all K+1 outcomes. Then log P(null) = −ελ/2 − log Z and

        d/dε log P(null) = −λ/2 + ½ Σ_y P(y) a_y = ½ (E_p[a] − λ) = ½ Σ_c P(c) (d_R(r, c) − λ),

    the expectation taken over the full outcome distribution including null (whose term a_null − λ
    is 0). So P(null) rises with ε exactly when the probability-weighted candidates lie beyond λ,
    falls when they lie within λ, and (d²/dε² log P(null) = −¼ Var_p(a) ≤ 0) log P(null) is concave.
    Checked: the sign of a forward difference matches the sign of the derivative wherever the
    derivative is not within rounding of 0, the central difference matches its value, and the
    second difference is ≤ 0.
    """
    a = np.array(d)
    h = 1e-4

    def log_null(e: float) -> float:
        return float(log_probabilities(a, epsilon=e, lam=lam)[0, -1])

    p = outcome_probabilities(a, epsilon=epsilon, lam=lam)[0]
    derivative = 0.5 * float(np.sum(p[:-1] * (a - lam)))
    if abs(derivative) > 1e-3:
        assert np.sign(log_null(epsilon + h) - log_null(epsilon)) == np.sign(derivative)
    if epsilon >= h:
        central = (log_null(epsilon + h) - log_null(epsilon - h)) / (2 * h)
        assert abs(central - derivative) <= 1e-6  # error ≤ h²·max|f‴|/6, |f‴| = |κ₃(a)|/8 ≲ 4
        second = log_null(epsilon + h) - 2 * log_null(epsilon) + log_null(epsilon - h)
        assert second <= 1e-11


@SETTINGS
@given(d=st.lists(st.floats(0.0, 0.499), min_size=1, max_size=12), lam=st.floats(0.5, 3.0), epsilon=epsilons)
def test_all_candidates_nearer_than_lambda_make_null_fall_with_epsilon(d, lam, epsilon):
    """The sign law in its plainest case: every d_R < λ gives E_p[a] < λ, so P(null) strictly falls."""
    before = outcome_probabilities(np.array(d), epsilon=epsilon, lam=lam)[0, -1]
    after = outcome_probabilities(np.array(d), epsilon=epsilon + 0.5, lam=lam)[0, -1]
    assert after < before


def _unit_vectors(seed: int, n: int, dim: int) -> np.ndarray:
    z = np.random.default_rng(seed).standard_normal((n, dim))
    return z / np.linalg.norm(z, axis=1, keepdims=True)


@SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    k=st.integers(1, 10),
    n=st.integers(2, 8),
    dim=st.integers(2, 16),
    epsilon=epsilons,
    lam=lams,
)
def test_exact_audit_inequality_on_random_unit_vectors(seed, k, n, dim, epsilon, lam):
    """For r, r′ under one pool, log P(y|r) − log P(y|r′) = −(ε/2)(a_y − a′_y) + log Z(r′) − log Z(r), and
    |log Z(r′) − log Z(r)| ≤ (ε/2)‖a − a′‖_∞ (a log-sum-exp is 1-Lipschitz in ℓ∞). Null has a_y = a′_y = λ. So

        max_y |log P(y|r) − log P(y|r′)| ≤ ε·‖d(r) − d(r′)‖_∞ ≤ ε·d_R(r, r′),

    the last step being the triangle inequality of the metric d_R = ½‖z − z′‖."""
    candidates = _unit_vectors(seed, k, dim)
    inputs = _unit_vectors(seed + 1, n, dim)
    d = pairwise_distances(inputs, candidates)
    log_p = log_probabilities(d, epsilon=epsilon, lam=lam)
    ratio = np.max(np.abs(log_p[:, None, :] - log_p[None, :, :]), axis=2)
    sup = np.max(np.abs(d[:, None, :] - d[None, :, :]), axis=2)
    d_r = pairwise_distances(inputs, inputs)
    slack = 1e-9 * (1 + epsilon)
    assert np.all(ratio <= epsilon * sup + slack)
    assert np.all(sup <= d_r + 1e-12)
    result = audit_pool(candidates, inputs, epsilon=epsilon, lam=lam)
    assert result.passed and result.pairs == n * (n - 1)
    assert result.worst_log_ratio <= epsilon * float(d_r.max()) + slack


# --- reconstruction -------------------------------------------------------------------------------------------

WORDS = ["alpha", "beta", "gamma", "delta", "[REL_0]", "[REL_7]", "é", "שלום", "a\u0301", "x<y>", "**b**"]


def marked(predicate, _type_pair, _place):
    """A verbalizer whose output is recognizable, placeholder-free and starts and ends with no letter (so the
    seams need no mending); FormVerbalizer's choices are tested in test_reconstruct.py."""
    return f"<{predicate}>"


@st.composite
def documents(draw):
    """A document of sentences "w w w." joined by separators, with relation spans on whole words.

    Each relation span is a run of words inside one sentence; spans never overlap (merging overlapping spans
    is covered in test_reconstruct.py). Words may themselves be literal "[REL_i]" text from the source.
    """
    count = draw(st.integers(1, 5))
    text, sentences, candidate_spans = "", [], []
    for number in range(count):
        if number:
            text += draw(st.sampled_from([" ", "\n", "  ", "\n\n"]))
        start = len(text)
        words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6))
        positions = []
        for i, word in enumerate(words):
            if i:
                text += " "
            positions.append((len(text), len(text) + len(word)))
            text += word
        text += "."
        sentences.append(Sentence(number, start, len(text)))
        i = 0
        while i < len(positions):
            if draw(st.booleans()):
                j = draw(st.integers(i, min(i + 1, len(positions) - 1)))
                candidate_spans.append((number, positions[i][0], positions[j][1]))
                i = j + 2
            else:
                i += 1
    if draw(st.booleans()):
        text += "\n"
    triples = []
    for index, (number, start, end) in enumerate(candidate_spans):
        occ = Occurrence("d", number, start, end, text[start:end])
        triples.append(Triple(f"S{index}", "PERSON", f"p{index}", f"O{index}", "ORG", (occ,)))
    extraction = DocumentExtraction(Document("d", text), tuple(sentences), (), tuple(triples))
    outcomes = {
        i: Sampled(("PERSON", "ORG"), draw(st.sampled_from([None, "founded", "sued", "works_for"])))
        for i in range(len(triples))
    }
    return extraction, outcomes


#: What a slot of a connected sentence may hold besides its fill: a neutral connector (relguard.rewrite.neutral).
_CONNECTOR = r"(?:(?:is|was|are|were) )?(?:associated with|mentioned)|Associated with|Mentioned|, associated with|,"


def _expected(
    extraction: DocumentExtraction,
    outcomes: dict[int, Sampled],
    unfillable: tuple[int, ...] = (),
    *,
    connected: tuple[int, ...] | None = None,
) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    """The output spelled out independently: deleted sentences (and their whitespace) gone, spans replaced.

    A sentence with a null is deleted; one that holds more than ``MOST_FILLS`` fills (each ``marked`` fill brings
    words) is filled all the same, the last try of :func:`relguard.rewrite.fill.fill_slots`, unless the guard reads
    a fill there as misplaced (``unfillable``, which the caller checks holds only such sentences). With
    ``connected`` the result is a regular expression: every other character as written, and a slot of a connected
    sentence its fill or a neutral connector."""
    text = extraction.document.text
    bounds = [(s.start, s.end) for s in extraction.sentences]
    nulls = {t.occurrences[0].sentence for i, t in enumerate(extraction.triples) if outcomes[i].predicate is None}
    crowded = set(unfillable)
    deleted = sorted(nulls | crowded)
    drop = []
    for number in deleted:  # a sentence goes with the spaces that join it to a neighbour on its own line
        start, end = bounds[number]
        following = bounds[number + 1][0] if number + 1 < len(bounds) else None
        kept_before = [bounds[n][1] for n in range(number) if n not in deleted]
        preceding = kept_before[-1] if kept_before else None
        same_line_after = following is not None and "\n" not in text[end:following]
        same_line_before = preceding is not None and "\n" not in text[preceding:start]
        if same_line_after or (following is not None and not same_line_before):
            drop.append((start, following))
        else:
            drop.append((preceding if preceding is not None else start, end))

    def words(i: int, occurrence) -> str:
        fill = f"<{outcomes[i].predicate}>"
        if connected is None:
            return fill
        return f"(?:{re.escape(fill)}|{_CONNECTOR})" if occurrence.sentence in connected else re.escape(fill)

    replace = {
        t.occurrences[0].start: (t.occurrences[0].end, words(i, t.occurrences[0]))
        for i, t in enumerate(extraction.triples)
    }
    out, cursor = [], 0
    while cursor < len(text):
        removed = next((end for start, end in drop if start <= cursor < end), None)
        if removed is not None:
            cursor = removed
        elif cursor in replace:
            end, written = replace[cursor]
            out.append(written)
            cursor = end
        else:
            out.append(text[cursor] if connected is None else re.escape(text[cursor]))
            cursor += 1
    return "".join(out), tuple(sorted(nulls)), tuple(sorted(crowded))


@settings(deadline=None, max_examples=200)
@given(case=documents())
def test_reconstruction_changes_only_relation_spans_and_deleted_sentences(case):
    extraction, outcomes = case
    text = extraction.document.text
    masked = mask(extraction, {t.pair_key: i for i, t in enumerate(extraction.triples)})
    result = fill(masked, outcomes, marked)
    fills = Counter(t.occurrences[0].sentence for t in extraction.triples)
    assert all(fills[n] > MOST_FILLS for n in result.unfillable_sentences), result.unfillable_sentences
    expected, nulls, crowded = _expected(extraction, outcomes, result.unfillable_sentences)
    assert result.removed_sentences == nulls
    assert result.unfillable_sentences == crowded
    assert not set(result.connected_sentences) & set(nulls)
    pattern = _expected(extraction, outcomes, result.unfillable_sentences, connected=result.connected_sentences)[0]
    assert re.fullmatch(pattern, result.text, flags=re.DOTALL), (expected, result.text)
    deleted = (*nulls, *crowded)

    kept = [s for s in extraction.sentences if s.index not in deleted]
    position = 0
    for sentence in kept:  # every kept sentence's non-slot text appears unchanged, in order
        spans = sorted(
            (o.start, o.end) for t in extraction.triples for o in t.occurrences if o.sentence == sentence.index
        )
        cursor = sentence.start
        for start, end in [*spans, (sentence.end, sentence.end)]:
            piece = text[cursor:start]
            found = result.text.find(piece, position)
            assert found >= 0, piece
            position = found + len(piece)
            cursor = end

    assert result.text.count("[REL_") == sum(
        text[s.start : s.end].count("[REL_")
        - sum(o.text.count("[REL_") for t in extraction.triples for o in t.occurrences if o.sentence == s.index)
        for s in kept
    )


@SETTINGS
@given(case=documents())
def test_masked_text_holds_no_relation_span_and_one_placeholder_per_slot(case):
    extraction, _ = case
    text = extraction.document.text
    masked = mask(extraction, {t.pair_key: i for i, t in enumerate(extraction.triples)})
    assert len(masked.slots) == len(extraction.triples)
    for slot in masked.slots:
        assert masked.text[slot.start : slot.end] == f"[REL_{slot.groups[0]}]"
    outside = [s for s in extraction.sentences]
    assert masked.text.count("[REL_") == text.count("[REL_") - sum(
        o.text.count("[REL_") for t in extraction.triples for o in t.occurrences
    ) + len(masked.slots)
    assert len(outside) == len(masked.sentences)
