"""Export bundles on a real run of the sample corpus: zip contents, config round trip, audit kept apart."""

import io
import json
import shlex
import tomllib
import zipfile
from pathlib import Path

import numpy as np
import pytest

from relguard.cli import main
from relguard.pipeline import prepare_extracted
from relguard.release.bundle import cli_command, composed_epsilon, config_toml, release_zip
from relguard.release.confidential import confidential_bytes
from relguard.studio.tables import pool_heatmap, probability_rows, triple_rows
from relguard.studio.teaching import compare, pool_pairs

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "assets" / "sample_corpus"


def test_zip_holds_public_files_and_config_only(sample):
    release = sample.draw(epsilon=2.0, lam=1.0)
    data = release_zip(release, config=config_toml(release, inputs=sample.input_hashes))
    names = set(zipfile.ZipFile(io.BytesIO(data)).namelist())
    expected_docs = {f"documents/{p.name}" for p in SAMPLE.glob("*.txt")}
    assert names == expected_docs | {"report.json", "report.md", "config.toml"}
    report = json.loads(zipfile.ZipFile(io.BytesIO(data)).read("report.json"))
    assert report["private_release"] is True
    assert "CONFIDENTIAL" not in data.decode("latin-1")
    audit = json.loads(confidential_bytes(release))
    assert len(audit["outcomes"]) == len(sample.groups)
    originals = {r["original"] for o in audit["outcomes"] for r in o["relations"]}
    assert originals == {t.predicate for t in sample.triples}
    assert audit["input_sha256"] == dict(sample.input_hashes)
    for digest in sample.input_hashes.values():  # invariant 12: no input digest in any public file
        assert digest.encode() not in data


def test_config_command_reproduces_a_seeded_release(sample, tmp_path):
    release = sample.draw(epsilon=3.0, lam=0.5, seed=11)
    config = tomllib.loads(config_toml(release, inputs=sample.input_hashes, seed=11, command_inputs=[str(SAMPLE)]))
    assert config["privacy"] == {"epsilon": 3.0, "lambda": 0.5, "k": 10, "seed": 11, "rng": "fixed teaching seed 11"}
    assert config["private_release"] is False
    assert config["inputs"] == {"files": sorted(sample.input_hashes)}
    argv = shlex.split(config["command"])[1:]
    out = tmp_path / "cli"
    argv[argv.index("--out") + 1] = str(out)
    assert main([*argv, "--quiet"]) == 0
    for document in release.documents:
        assert (out / "documents" / document.name).read_text(encoding="utf-8") == document.text


def test_cli_command_quotes_paths_and_omits_defaults():
    command = cli_command(["my docs/a.txt"], epsilon=0.5, lam=1.0, k=8)
    assert command == "relguard sanitize 'my docs/a.txt' --out release --epsilon 0.5 --lam 1 --k 8"
    assert composed_epsilon([1.0, 0.5, 2.0]) == 3.5


def test_corpus_tables_line_up_with_triples(sample):
    rows = triple_rows(sample)
    assert [r["relation"] for r in rows] == [t.predicate for t in sample.triples]
    table = sample.probabilities(epsilon=1.0, lam=1.0)
    prob = probability_rows(sample, 0, table, lam=1.0)
    assert len(prob) == sample.k + 1 and prob[-1]["outcome"].startswith("null")
    assert sum(r["probability"] for r in prob) == pytest.approx(1.0, abs=1e-12)
    pair = sample.triples[0].type_pair
    originals, columns, matrix = pool_heatmap(sample, pair)
    assert columns == list(sample.pools[pair].predicates)
    assert matrix.shape == (len(originals), sample.k)
    assert sample.triples[0].predicate in originals


def test_prepare_extracted_matches_prepare(sample):
    again = prepare_extracted(sample.documents, sample.extraction, k=10)
    assert np.array_equal(again.distances, sample.distances)
    assert again.pools == sample.pools


def test_teaching_comparison_respects_definition_3(sample):
    from relguard import registry

    encoder = registry.create("encoder", "sentence-transformers", model="all-MiniLM-L6-v2")
    pair = ("PERSON", "ORG")
    pool = registry.create("candidates", "inventory").generate(pair, 8).predicates
    d = encoder.distances(["worked_for", "founded"], list(pool), pair)
    between = float(encoder.distances(["worked_for"], ["founded"], pair)[0, 0])
    for epsilon, lam in [(0.1, 1.0), (1.0, 0.2), (10.0, 1.0), (50.0, 5.0)]:
        result = compare(pool, d[0], d[1], between, epsilon=epsilon, lam=lam)
        assert result.holds, (epsilon, lam, result.worst, result.bound)
        assert result.p_r.sum() == pytest.approx(1.0) and result.p_r2.sum() == pytest.approx(1.0)
    pairs = pool_pairs(pool, encoder.distances(list(pool), list(pool), pair), count=3)
    assert pairs[0][2] <= pairs[1][2] <= pairs[2][2]
