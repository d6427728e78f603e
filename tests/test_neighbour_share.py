"""The neighbour share of DESIGN invariant 11 and why neighbours differ, on real parses (spaCy, the inventory)."""

from __future__ import annotations

import pytest

from relguard.candidates.inventory import InventoryCandidates
from relguard.evaluation.neighbours import CAUSES, difference, neighbour_share, same_regions
from relguard.extract.spacy import SpacyExtractor
from relguard.types import Document

pytest.importorskip("spacy")


def extract(extractor: SpacyExtractor, text: str):
    return extractor.extract(Document("doc.txt", text))


def test_the_same_text_is_no_difference(extractor):
    a = extract(extractor, "Alice Smith founded Acme Corp in 2001.")
    b = extract(extractor, "Alice Smith founded Acme Corp in 2001.")
    assert difference(a, b) is None and same_regions(a, b)


def test_a_pair_whose_link_is_gone_is_a_lost_pair(extractor):
    a = extract(extractor, "Alice Smith founded Acme Corp in 2001.")
    b = extract(extractor, "Alice Smith. Acme Corp in 2001.")
    assert a.triples and not b.triples
    assert difference(a, b) == "pair lost" and not same_regions(a, b)


def test_a_pair_that_appears_is_an_added_pair(extractor):
    a = extract(extractor, "Alice Smith. Acme Corp in 2001.")
    b = extract(extractor, "Alice Smith founded Acme Corp in 2001.")
    assert difference(a, b) == "pair added"


def test_the_same_pair_with_other_words_outside_the_span_is_a_span_boundary(extractor):
    a = extract(extractor, "Alice Smith founded Acme Corp in 2001.")
    b = extract(extractor, "Alice Smith founded Acme Corp in late 2001.")
    assert {t.pair_key for t in a.triples} == {t.pair_key for t in b.triples}
    assert difference(a, b) == "span boundary" and not same_regions(a, b)


def test_an_adverb_of_the_relation_is_inside_the_span_so_no_difference(extractor):
    a = extract(extractor, "Alice Smith founded Acme Corp in 2001.")
    b = extract(extractor, "Alice Smith quickly founded Acme Corp in 2001.")
    assert [o.text for t in b.triples for o in t.occurrences] == ["quickly founded"]
    assert difference(a, b) is None and same_regions(a, b)


def test_every_neighbour_is_identical_or_has_one_cause(extractor):
    documents = [
        Document("a.txt", "Alice Smith founded Acme Corp in 2001. Bob Jones lives in Paris."),
        Document("b.txt", "Acme Corp's founder Alice Smith was born in Paris, France."),
    ]
    result = neighbour_share(documents, extractor, InventoryCandidates(), examples=50)
    assert result.tried >= 4
    assert result.identical + sum(result.causes.values()) == result.tried
    assert set(result.causes) == set(CAUSES)
    assert result.identical <= result.same_regions <= result.tried
    assert len(result.differing) == result.tried - result.identical
    assert all(cause in CAUSES for *_, cause in result.differing)
