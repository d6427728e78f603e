"""Encoder and d_R (DESIGN invariant 3): verified weights, exact distance, the typed template."""

from __future__ import annotations

import numpy as np
import pytest

from relguard.embed import (
    DEFAULT_WEIGHTS_SHA256,
    bundled_model_dir,
    load_encoder,
    pairwise_distances,
    predicate_phrase,
    predicate_text,
    sha256_file,
)
from relguard.errors import ModelError

# (type pair, synonym pair, distinct pair): the synonym pair must be closer under the template
TEMPLATE_CASES = [
    (("PERSON", "ORG"), ("works_for", "employed_by"), ("works_for", "founded")),
    (("PERSON", "ORG"), ("founded", "established"), ("founded", "sued")),
    (("PERSON", "PERSON"), ("spouse_of", "married_to"), ("spouse_of", "sibling_of")),
    (("ORG", "GPE"), ("located_in", "situated_in"), ("located_in", "banned_in")),
    (("PERSON", "ORG"), ("member_of", "belongs_to"), ("member_of", "sued")),
]


@pytest.fixture(scope="module")
def encoder():
    return load_encoder()


def test_bundled_weights_match_the_official_hash(encoder):
    assert sha256_file(bundled_model_dir() / "model.safetensors") == DEFAULT_WEIGHTS_SHA256
    assert encoder.model_id.endswith(DEFAULT_WEIGHTS_SHA256)


def test_tampered_weights_are_refused():
    with pytest.raises(ModelError, match="expected 00000"):
        bundled_model_dir(expected_sha256="0" * 64)


def test_predicates_are_read_as_phrases_in_a_typed_sentence():
    assert predicate_phrase("works_for") == "works for"
    assert predicate_text("works_for", ("PERSON", "ORG")) == "A person works for an organization."


def test_distance_is_half_the_euclidean_distance_of_unit_vectors(encoder):
    z = encoder.embed_predicates(["works_for", "founded", "sued"], ("PERSON", "ORG"))
    np.testing.assert_allclose(np.linalg.norm(z, axis=1), 1.0, atol=1e-12)
    d = pairwise_distances(z, z)
    np.testing.assert_allclose(d[0, 1], 0.5 * np.linalg.norm(z[0] - z[1]), rtol=1e-12)
    assert np.all(np.diag(d) == 0) and np.all((d >= 0) & (d <= 1))
    np.testing.assert_allclose(d, d.T)


def test_opposite_vectors_are_at_distance_one():
    z = np.array([[1.0, 0.0], [-1.0, 0.0]])
    assert pairwise_distances(z, z)[0, 1] == pytest.approx(1.0)


@pytest.mark.parametrize(("pair", "synonyms", "distinct"), TEMPLATE_CASES)
def test_template_puts_synonyms_closer_than_distinct_relations(encoder, pair, synonyms, distinct):
    close = encoder.distances([synonyms[0]], [synonyms[1]], pair)[0, 0]
    far = encoder.distances([distinct[0]], [distinct[1]], pair)[0, 0]
    assert close < far


def test_each_text_is_embedded_once(encoder):
    encoder.embed_predicates(["acquired"], ("ORG", "ORG"))
    cached = len(encoder._cache)
    encoder.embed_predicates(["acquired", "acquired"], ("ORG", "ORG"))
    assert len(encoder._cache) == cached


def test_unknown_model_path_is_a_clear_error(tmp_path):
    from relguard.embed import SentenceTransformerEncoder

    with pytest.raises(ModelError, match="cannot load encoder"):
        SentenceTransformerEncoder(str(tmp_path / "no-such-model"))


def test_a_texts_embedding_does_not_depend_on_its_batch_or_the_thread_count(mixed_lengths):
    """d_R must be one fixed function of two predicates: the same bits alone, in any batch, on any thread count.

    With padded batches a short text embedded beside longer ones differed from itself alone by ~1e-7, so the
    sampled outcome of one group could depend on which other relations the corpus held and the engine would
    decide the last bits. Equality here is exact.
    """
    import torch

    from relguard.embed import SentenceTransformerEncoder

    texts = mixed_lengths
    together = SentenceTransformerEncoder().embed_texts(texts)
    alone_encoder = SentenceTransformerEncoder()
    alone = np.stack([alone_encoder.embed_texts([t])[0] for t in reversed(texts)])[::-1]
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        mixed = SentenceTransformerEncoder().embed_texts(["A person ran an organization.", *texts[5:30]])[1:]
    finally:
        torch.set_num_threads(threads)
    assert np.array_equal(together, alone)
    assert np.array_equal(together[5:30], mixed)


def test_pairwise_distances_in_row_blocks_are_the_floats_of_one_block():
    """Blocks keep the differences in cache; every entry must still be exactly d_R of its own two rows, across a
    block boundary and for a last block shorter than the others."""
    from relguard.embed.text import PAIRWISE_ROWS, normalize, relation_distance

    rng = np.random.default_rng(5)
    a = normalize(rng.normal(size=(2 * PAIRWISE_ROWS + 7, 24)))
    b = normalize(rng.normal(size=(10, 24)))
    d = pairwise_distances(a, b)
    assert d.shape == (len(a), 10)
    assert np.array_equal(d, relation_distance(a[:, None, :], b[None, :, :]))
