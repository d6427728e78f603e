"""End to end on the sample corpus with the real spaCy pipeline, encoder, inventory and OpenDP."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from relguard.cli import main
from relguard.engine import public_files, write_release
from relguard.errors import PoolError
from relguard.pipeline import prepare
from relguard.release.confidential import MAPPING_FILE
from relguard.release.report import PUBLIC_COUNTS
from relguard.types import Document

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "assets" / "sample_corpus"


def test_sample_corpus_yields_triples_in_every_document(sample):
    assert len(sample.documents) == 6
    assert len(sample.triples) >= 20
    for extraction in sample.extraction.documents:
        assert extraction.triples, extraction.document.name


def test_every_pool_has_exactly_k_public_candidates(sample):
    assert sample.distances.shape == (len(sample.groups), 10)
    assert sample.triple_distances.shape == (len(sample.triples), 10)
    for triple in sample.triples:
        pool = sample.pool_for(triple)
        assert pool.k == 10 and len(set(pool.predicates)) == 10
        assert pool.type_pair == triple.type_pair


def test_pools_depend_only_on_type_pairs():
    """Invariant 1: changing every relation expression leaves the pools of the same type pairs unchanged."""
    a = prepare([Document("a.txt", "Alice Smith founded Acme Corporation in 1990.")], k=10)
    b = prepare([Document("a.txt", "Alice Smith left Acme Corporation in 1990.")], k=10)
    assert a.triples and b.triples
    assert a.triples[0].predicate != b.triples[0].predicate
    assert a.pools == b.pools


def test_k_larger_than_the_inventory_is_a_clear_error():
    with pytest.raises(PoolError, match=r"fewer than K=500"):
        prepare([Document("a.txt", "Alice Smith founded Acme Corporation in 1990.")], k=500)


def test_one_outcome_per_canonical_triple_across_documents():
    """Invariant 6: the same triple in two documents is sampled once and rewritten the same way."""
    text = "Alice Smith founded Acme Corporation in 1990. The weather was fine."
    prepared = prepare([Document("one.txt", text), Document("two.txt", text)], k=10)
    founded = [t for t in prepared.triples if t.subject == "Alice Smith"]
    assert len(founded) == 1 and {o.document for o in founded[0].occurrences} == {"one.txt", "two.txt"}
    for seed in range(5):
        release = prepared.draw(epsilon=1.0, lam=1.0, seed=seed)
        assert len(release.outcomes) == len(prepared.groups)
        first, second = release.documents
        assert first.text == second.text


def test_one_outcome_per_entity_pair_whatever_the_predicates():
    """Invariant 6: the group key is the aligned entity pair, never the predicate.

    "works for" in one document and "founded" in another are one group with one outcome, so whether the two
    documents show the same words cannot reveal whether their originals were equal; the group's distance row
    is the minimum over its two relations."""
    one = Document("one.txt", "Alice Smith works for Acme Corporation. The weather was fine.")
    two = Document("two.txt", "Alice Smith founded Acme Corporation. The weather was fine.")
    prepared = prepare([one, two], k=10)
    pair = [g for g in prepared.groups if g.subject == "Alice Smith"]
    assert len(pair) == 1 and len(pair[0].triples) == 2
    assert set(pair[0].predicates) == {"worked_for", "founded"}
    rows = prepared.triple_distances[[i for i, t in enumerate(prepared.triples) if t.subject == "Alice Smith"]]
    assert np.array_equal(prepared.distances[prepared.groups.index(pair[0])], rows.min(axis=0))
    for seed in range(5):
        first, second = prepared.draw(epsilon=0.0, lam=1.0, seed=seed).documents
        assert first.text == second.text


def test_unseeded_draws_use_fresh_randomness(sample):
    """Invariant 8: without a seed two releases differ; (1/11)^m chance of a false failure at ε = 0."""
    a = sample.draw(epsilon=0.0, lam=1.0)
    b = sample.draw(epsilon=0.0, lam=1.0)
    assert [o.predicate for o in a.outcomes] != [o.predicate for o in b.outcomes]
    assert a.guarantee.private_release and "OS entropy" in a.guarantee.rng


def test_teaching_seed_is_reproducible_and_marked_not_private(sample):
    a = sample.draw(epsilon=5.0, lam=1.0, seed=3)
    b = sample.draw(epsilon=5.0, lam=1.0, seed=3)
    assert a.documents == b.documents
    files = public_files(a)
    report = json.loads(files["report.json"])
    assert report["private_release"] is False
    assert "NOT A PRIVATE RELEASE" in files["report.md"].decode()


def test_written_release_has_report_fields_hashes_and_no_audit_by_default(sample, tmp_path):
    release = sample.draw(epsilon=5.0, lam=1.0)
    write_release(release, tmp_path)
    assert not (tmp_path / MAPPING_FILE).exists()
    report = json.loads((tmp_path / "report.json").read_text())
    for field in ("unit_of_privacy", "guarantee", "parameters", "encoder", "candidates", "rng", "counts", "files"):
        assert field in report
    assert report["parameters"] == {"epsilon": 5.0, "lambda": 1.0, "k": 10}
    assert "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db" in report["encoder"]
    assert set(report["files"]) == {"outputs", "naming"}  # invariant 12: no digest of an input in a public file
    for name, digest in report["files"]["outputs"].items():
        assert hashlib.sha256((tmp_path / name).read_bytes()).hexdigest() == digest
    published = b"".join(p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())
    for digest in sample.input_hashes.values():
        assert digest.encode() not in published
    counts = report["counts"]
    assert set(counts) == set(PUBLIC_COUNTS) and "unchanged" not in counts and "substituted" not in counts
    assert counts["groups"] == len(sample.groups) and counts["groups_deleted"] <= counts["groups"]
    assert counts["slots"] == sum(len(g.occurrences) for g in sample.groups)
    assert sorted(p.name for p in (tmp_path / "documents").iterdir()) == sorted(p.name for p in SAMPLE.glob("*.txt"))


def test_report_summary_counts_in_grammatical_english():
    """One document with one relation reads "1 document", "1 relation span", never "1 documents"."""
    release = prepare([Document("one.txt", "Alice Smith founded Acme Corporation.")], k=10).draw(epsilon=5.0, lam=1.0)
    summary = public_files(release)["report.md"].decode().split("## Sign-off")[0]
    assert "rewrote **1 document**." in summary and "**1 relation span**" in summary
    assert "**1 entity pair**" in summary and "of 1 sentence**" in summary
    assert "**0 documents** had no relation at all and are released" in summary
    assert "1 documents" not in summary and "1 sentences" not in summary


def test_cli_sanitize_writes_the_mapping_only_on_request_apart_and_counts_it_only_when_verbose(tmp_path, capsys):
    command = ["sanitize", str(SAMPLE), "--epsilon", "1", "--quiet"]
    assert main([*command, "--out", str(tmp_path / "a")]) == 0
    assert "relation slots" in capsys.readouterr().out and not list(tmp_path.rglob("CONFIDENTIAL*"))
    apart = tmp_path / "private" / MAPPING_FILE
    for out, verbose in (("b", []), ("c", ["--verbose"])):
        assert main([*command, "--out", str(tmp_path / out), "--mapping", str(apart), *verbose]) == 0
        printed = capsys.readouterr()
        assert f"CONFIDENTIAL mapping written to {apart}" in printed.err
        assert ("relations kept their original predicate" in printed.err) == bool(verbose), printed.err
        assert "kept their original" not in printed.out
        assert not list((tmp_path / out).rglob("CONFIDENTIAL*"))
    audit = json.loads(apart.read_text())
    assert audit["outcomes"] and "CONFIDENTIAL" in audit
    assert set(audit["counts"]) == {"relations", "unchanged", "substituted", "same_words", "deleted"}
    assert len(audit["input_sha256"]) == 6


def test_invariant_7_with_the_real_extractor():
    """Two documents differing only in one relation expression give identical output for the same outcomes."""
    from relguard.engine import OutcomeTable
    from relguard.engine.rewrite import rewrite_document
    from relguard.types import Guarantee

    texts = (
        "Alice Smith works for Acme Corporation. Bob Jones lives in Paris.",
        "Alice Smith founded Acme Corporation. Bob Jones lives in Paris.",
    )
    prepared = [prepare([Document("doc.txt", text)], k=10) for text in texts]
    first, second = (p.extraction for p in prepared)
    assert len(first.triples) == len(second.triples) >= 2
    assert first.triples[0].predicate != second.triples[0].predicate
    forms = prepared[0].generator.forms
    for sampled in (["sued", "born_in"], ["advised", None], [None, "visited"]):
        outputs = []
        for source, extraction in zip(prepared, (first, second), strict=True):
            keys = tuple(g.key for g in extraction.groups)
            table = OutcomeTable(keys, tuple(sampled), source.pools, Guarantee(1.0, 1.0, 10))
            outputs.append([rewrite_document(d, table, forms=forms).data for d in extraction.documents])
        assert outputs[0] == outputs[1]
