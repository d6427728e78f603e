"""Export on a real run of the sample corpus: zip contents, the config that replays a release, the mapping apart."""

import io
import json
import shlex
import tomllib
import zipfile
from pathlib import Path

import numpy as np
import pytest

from relguard.cli import main
from relguard.engine import public_files, release_zip, write_release
from relguard.engine.memory import run_of
from relguard.pipeline import prepare_extracted
from relguard.privacy.bounds import composed_epsilon
from relguard.release.confidential import MAPPING_FILE
from relguard.settings import PrivacySettings, Settings, command_line
from relguard.studio.export import export_release
from relguard.studio.tables import pool_heatmap, probability_rows, triple_rows
from relguard.studio.teaching import compare, pool_pairs

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "assets" / "sample_corpus"


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_zip_holds_public_files_and_config_only(sample):
    release = sample.draw(epsilon=2.0, lam=1.0)
    exported = export_release(release, inputs=[str(SAMPLE)])
    archive = zipfile.ZipFile(io.BytesIO(exported.zip))
    expected_docs = {f"documents/{p.name}" for p in SAMPLE.glob("*.txt")}
    assert set(archive.namelist()) == expected_docs | {"report.json", "report.md", "config.toml", "slots.jsonl"}
    for line in archive.read("slots.jsonl").decode().splitlines():
        record = json.loads(line)
        text = archive.read(record["file"]).decode()
        assert all(0 <= start < end <= len(text) for start, end in record["relguard_slots"]), record
    assert json.loads(archive.read("report.json"))["private_release"] is True
    assert "CONFIDENTIAL" not in exported.zip.decode("latin-1")
    audit = json.loads(exported.mapping)
    assert len(audit["outcomes"]) == len(sample.groups)
    originals = {r["original"] for o in audit["outcomes"] for r in o["relations"]}
    assert originals == {t.predicate for t in sample.triples}
    assert audit["input_sha256"] == dict(sample.input_hashes)
    for digest in sample.input_hashes.values():  # invariant 12: no input digest in any public file
        assert digest.encode() not in exported.zip
    assert release_zip(exported.files) == exported.zip  # one release, one zip


def test_the_app_config_replays_its_teaching_release_byte_for_byte(sample, tmp_path):
    """The app's zip holds config.toml; `relguard sanitize --config` writes the zip's files again, to the byte."""
    release = sample.draw(epsilon=3.0, lam=0.5, seed=11)
    exported = export_release(release, inputs=[str(SAMPLE)])
    config = tomllib.loads(exported.config)
    assert config["privacy"] == {"epsilon": 3.0, "lam": 0.5, "k": 10, "seed": 11}
    assert config["private_release"] is False and config["release"]["rng"] == "fixed teaching seed 11"
    assert config["inputs"]["paths"] == [str(SAMPLE)] and config["inputs"]["files"] == sorted(sample.input_hashes)
    unzipped = tmp_path / "zip"
    zipfile.ZipFile(io.BytesIO(exported.zip)).extractall(unzipped)
    assert main(["sanitize", "--config", str(unzipped / "config.toml"), "--out", str(tmp_path / "cli"), "--quiet"]) == 0
    assert files_of(tmp_path / "cli") == files_of(unzipped)
    argv = shlex.split(config["command"])[1:]  # the flag-by-flag command gives the same documents
    argv[argv.index("--out") + 1] = str(tmp_path / "flags")
    assert main([*argv, "--quiet"]) == 0
    assert files_of(tmp_path / "flags") == files_of(unzipped)


def test_a_cli_config_replays_from_beside_it_and_a_private_draw_keeps_settings_and_pools(tmp_path, monkeypatch):
    """Relative inputs are found beside config.toml; with OS entropy the replay is a new draw of the same release
    settings: parameters, pools, encoder, extractor and counts that do not depend on the outcomes."""
    corpus = tmp_path / "work" / "corpus"
    corpus.mkdir(parents=True)
    for name in ("atlas_shipping.txt", "quantix_merger.txt"):
        (corpus / name).write_bytes((SAMPLE / name).read_bytes())
    monkeypatch.chdir(tmp_path / "work")
    assert main(["sanitize", "corpus", "--out", "corpus/../release", "--epsilon", "1", "--k", "6", "--quiet"]) == 0
    moved = tmp_path / "moved"
    (tmp_path / "work" / "release").rename(moved)
    (moved / "corpus").symlink_to(corpus)  # the inputs beside the config, under the name it gives
    monkeypatch.chdir(tmp_path)
    assert main(["sanitize", "--config", str(moved / "config.toml"), "--out", "again", "--quiet"]) == 0
    first, second = (json.loads((folder / "report.json").read_text()) for folder in (moved, tmp_path / "again"))
    assert first["private_release"] is second["private_release"] is True
    for field in ("parameters", "candidates", "encoder", "extractor", "unit_of_privacy", "guarantee", "rng"):
        assert first[field] == second[field], field
    for count in ("documents", "sentences", "slots", "groups"):
        assert first["counts"][count] == second["counts"][count], count
    assert (moved / "config.toml").read_bytes() == (tmp_path / "again" / "config.toml").read_bytes()


def test_the_flag_by_flag_command_quotes_paths_and_omits_defaults():
    settings = Settings(privacy=PrivacySettings(epsilon=0.5, lam=1.0, k=8))
    assert command_line(["my docs/a.txt"], settings) == (
        "relguard sanitize 'my docs/a.txt' --out release --epsilon 0.5 --lam 1 --k 8"
    )
    assert composed_epsilon([1.0, 0.5, 2.0]) == 3.5


def test_the_mapping_is_never_written_inside_the_release_folder(sample, tmp_path):
    release = sample.draw(epsilon=2.0, lam=1.0)
    assert MAPPING_FILE not in public_files(release)
    with pytest.raises(Exception, match="lies inside the release folder"):
        write_release(release, tmp_path / "out", mapping=tmp_path / "out" / "secret.json")
    assert not (tmp_path / "out").exists()
    written = write_release(release, tmp_path / "out", mapping=tmp_path / "apart" / MAPPING_FILE)
    assert tmp_path / "apart" / MAPPING_FILE in written
    assert not [p for p in (tmp_path / "out").rglob("*") if "CONFIDENTIAL" in p.name]
    assert ((tmp_path / "apart" / MAPPING_FILE).stat().st_mode & 0o777) == 0o600
    (tmp_path / "out" / MAPPING_FILE).write_bytes((tmp_path / "apart" / MAPPING_FILE).read_bytes())
    with pytest.raises(Exception, match="a confidential file sits in the release folder"):
        write_release(release, tmp_path / "out")  # a stale mapping must not travel with a new release
    assert run_of(release).settings.privacy.seed is None


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


def test_the_apps_exclusion_policy_travels_in_the_zip_and_its_config_replays_the_same_pools(tmp_path, monkeypatch):
    """The policy an analyst writes in the app is a public file of the release: the zip carries it under the name
    the report and config.toml give, and `relguard sanitize --config` run beside it builds the same pools and
    writes the same files."""
    from relguard.candidates.exclusion import POLICY_FILE, policy_text, with_exclusions
    from relguard.io import read_documents
    from relguard.pipeline import Backends, prepare

    text = policy_text(["killed"], {("PERSON", "ORG"): ["founded"]})
    base = Backends.from_settings(Settings().backends)
    backends = Backends(base.extractor, with_exclusions(base.candidates, _policy(text)), base.encoder)
    documents, hashes = read_documents([SAMPLE])
    release = prepare(documents, k=10, backends=backends, input_hashes=hashes).draw(epsilon=2.0, lam=1.0, seed=5)
    exported = export_release(release, inputs=[str(SAMPLE)], policy=text)
    archive = zipfile.ZipFile(io.BytesIO(exported.zip))
    assert archive.read(POLICY_FILE).decode() == text
    report = json.loads(archive.read("report.json"))
    assert report["candidates"]["exclusion_policy"]["file"] == POLICY_FILE
    pools = report["candidates"]["pools"]
    assert "founded" not in pools["PERSON|ORG"] and len(pools["PERSON|ORG"]) == 10
    assert not [pair for pair, pool in pools.items() if "killed" in pool]
    assert tomllib.loads(exported.config)["backends"]["exclude_predicates"] == POLICY_FILE
    archive.extractall(tmp_path / "zip")
    monkeypatch.chdir(tmp_path / "zip")
    assert main(["sanitize", "--config", "config.toml", "--out", str(tmp_path / "cli"), "--quiet"]) == 0
    replayed = files_of(tmp_path / "cli")
    assert {name: data for name, data in files_of(tmp_path / "zip").items() if name != POLICY_FILE} == replayed
    with pytest.raises(Exception, match="not the one the release was drawn under"):
        export_release(release, inputs=[str(SAMPLE)], policy="killed\n")


def _policy(text: str):
    from relguard.candidates.exclusion import POLICY_FILE, parse_policy

    return parse_policy(text, name=POLICY_FILE)
