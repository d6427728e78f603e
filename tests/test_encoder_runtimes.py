"""d_R is a function, not a runtime (DESIGN "Offline default stack"): ONNX Runtime fp32 against the torch reference.

The ONNX encoder is the default only because it reproduces torch within max |Δd_R| ≤ 1e-5 — the tolerance DESIGN
sets — on real inputs: a sample of the inventory's typed sentences and of the relation spans the spaCy extractor
finds in the three shared datasets (``bench/encoder_runtimes.py`` checks all of them). The int8 encoder is another
function and must say so in its model id.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import numpy as np
import pytest

from relguard import cli, registry
from relguard.candidates.embeddings import inventory_texts
from relguard.candidates.inventory import InventoryCandidates
from relguard.embed import (
    DEFAULT_WEIGHTS_SHA256,
    FP32,
    INT8,
    INT8_MODEL,
    TORCH,
    OnnxEncoder,
    SentenceTransformerEncoder,
    load_encoder,
    predicate_text,
)
from relguard.embed.onnx import TOLERANCE, cached_export
from relguard.embed.text import max_distance_change
from relguard.errors import ModelError
from relguard.evaluation.datasets import load_dataset
from tests.test_embed import TEMPLATE_CASES

ROOT = Path(__file__).resolve().parents[1]
#: One text far past the 256-token truncation, so the tokenizers must truncate alike.
LONG = "A person " + "worked for many years at " * 80 + "an organization."


@pytest.fixture(scope="module")
def onnx():
    return load_encoder()


@pytest.fixture(scope="module")
def torch_reference():
    return load_encoder(runtime=TORCH)


@pytest.fixture(scope="module")
def real_texts(shared_data) -> list[str]:
    """Every 12th typed sentence of the inventory, and the relation spans of a few documents of each dataset:
    each span as the typed sentence d_R reads and as the bare phrase (skipped on a clone without the datasets,
    a failure under CI: :func:`tests.conftest.shared_data_dir`)."""
    texts = inventory_texts(InventoryCandidates())[::12]
    folder = shared_data
    extractor = registry.create("extractor", "spacy")
    for name in ("hotpotqa", "2wiki", "redocred"):
        documents = load_dataset(name, data_dir=folder).documents[:9]
        for doc in extractor.extract_many(documents):
            for triple in doc.triples:
                texts.append(predicate_text(triple.predicate, triple.type_pair))
                texts += [o.text for o in triple.occurrences]
    return [*sorted(set(texts)), LONG]


def test_the_default_is_onnx_runtime_computing_the_torch_function(onnx, torch_reference):
    assert (onnx.runtime, torch_reference.runtime) == (FP32, TORCH)
    assert isinstance(onnx, OnnxEncoder) and isinstance(torch_reference, SentenceTransformerEncoder)
    assert onnx.model_id == torch_reference.model_id
    assert onnx.model_id.endswith(DEFAULT_WEIGHTS_SHA256)
    assert registry.create("encoder", "torch") is torch_reference
    assert registry.create("encoder", "onnxruntime-fp32") is onnx
    assert registry.create("encoder", "sentence-transformers") is onnx


def test_onnx_reproduces_torch_within_the_tolerance_on_real_inputs(onnx, torch_reference, real_texts):
    """A wrong pooling (CLS instead of mean), a missing normalization or another tokenizer moves d_R by ~1e-1."""
    assert len(real_texts) > 400
    change = max_distance_change(torch_reference.embed_texts(real_texts), onnx.embed_texts(real_texts))
    assert change <= TOLERANCE == 1e-5


def test_onnx_reads_the_tokens_sentence_transformers_reads(onnx, torch_reference, real_texts):
    model = torch_reference._model
    features = model.preprocess([*real_texts[:40], LONG])
    ours = onnx._model.encode([*real_texts[:40], LONG])
    for row, encoding in zip(features["input_ids"], ours, strict=True):
        assert row[row != 0].tolist() == encoding.ids
    assert len(ours[-1].ids) == model.max_seq_length


def test_an_onnx_row_does_not_depend_on_its_batch_or_the_thread_count(mixed_lengths):
    """The same bits alone, in any batch, on one thread or all: as on torch (``tests/test_embed.py``)."""
    texts = mixed_lengths
    together = OnnxEncoder().embed_texts(texts)
    alone_encoder = OnnxEncoder()
    alone = np.stack([alone_encoder.embed_texts([t])[0] for t in reversed(texts)])[::-1]
    mixed = OnnxEncoder(threads=1).embed_texts(["A person ran an organization.", *texts[5:30]])[1:]
    assert np.array_equal(together, alone)
    assert np.array_equal(together[5:30], mixed)


def test_passages_match_sentence_transformers_encode(onnx, torch_reference, real_texts):
    """Metrics' fast path (padded batches) computes the same vectors as sentence-transformers' own encode."""
    passages = [*real_texts[:30], LONG, "Short.", "  spaced words  "]
    np.testing.assert_allclose(onnx.embed_passages(passages), torch_reference.embed_passages(passages), atol=1e-6)


def test_the_export_is_cached_by_the_weights_hash_and_made_again_when_corrupt(tmp_path, torch_reference):
    texts = [predicate_text(p, ("PERSON", "ORG")) for p in ("works_for", "founded", "sued", "employed_by")]
    first = OnnxEncoder(folder=tmp_path)
    assert first.exported and first.onnx_path.name.startswith(DEFAULT_WEIGHTS_SHA256)
    assert sorted(p.suffix for p in tmp_path.iterdir()) == [".json", ".onnx"]  # no partial file left behind
    assert not OnnxEncoder(folder=tmp_path).exported
    with open(first.onnx_path, "r+b") as handle:  # a flipped byte in the middle of the weights
        handle.seek(first.onnx_path.stat().st_size // 2)
        byte = handle.read(1)
        handle.seek(-1, 1)
        handle.write(bytes([byte[0] ^ 0xFF]))
    again = OnnxEncoder(folder=tmp_path)
    assert again.exported
    change = max_distance_change(torch_reference.embed_texts(texts), again.embed_texts(texts))
    assert change <= TOLERANCE


def test_an_unreadable_or_mismatched_sidecar_means_export_again(tmp_path):
    model, sidecar = tmp_path / "m.onnx", tmp_path / "m.json"
    model.write_bytes(b"onnx bytes")
    sidecar.write_text("{not json", encoding="utf-8")
    assert cached_export(model, sidecar) is None
    sidecar.write_text(json.dumps({"onnx_sha256": "0" * 64}), encoding="utf-8")
    assert cached_export(model, sidecar) is None
    sidecar.write_text(json.dumps({"onnx_sha256": hashlib.sha256(b"onnx bytes").hexdigest()}), encoding="utf-8")
    assert cached_export(model, sidecar) is not None


def test_int8_is_another_function_with_its_own_model_id(onnx, torch_reference, real_texts):
    int8 = load_encoder(INT8_MODEL)
    assert int8.runtime == INT8 and int8.model_id != onnx.model_id
    assert INT8_MODEL in int8.model_id and DEFAULT_WEIGHTS_SHA256 not in int8.model_id
    sample = real_texts[:200]
    assert max_distance_change(torch_reference.embed_texts(sample), int8.embed_texts(sample)) > TOLERANCE
    with pytest.raises(ModelError, match="onnxruntime-int8 only"):
        load_encoder(INT8_MODEL, runtime=TORCH)


@pytest.mark.parametrize(("pair", "synonyms", "distinct"), TEMPLATE_CASES)
def test_int8_still_puts_synonyms_closer_than_distinct_relations(pair, synonyms, distinct):
    """DESIGN: a different d_R is allowed only with the synonym test rerun on it."""
    int8 = load_encoder(INT8_MODEL)
    assert (
        int8.distances([synonyms[0]], [synonyms[1]], pair)[0, 0]
        < int8.distances([distinct[0]], [distinct[1]], pair)[0, 0]
    )


def test_an_unknown_runtime_is_one_clear_line(tmp_path, capsys):
    corpus = str(ROOT / "assets" / "sample_corpus")
    code = cli.main(["sanitize", corpus, "--out", str(tmp_path), "--encoder-runtime", "tensorflow"])
    err = capsys.readouterr().err
    assert code != 0 and err.count("\n") == 1
    assert "encoder runtime 'tensorflow'" in err and "onnxruntime-fp32" in err and "torch" in err


def _public_files(out: Path) -> tuple[dict[str, bytes], str]:
    """Every file of a release with its creation time and its runtime blanked, and the runtime it named."""
    files, runtime = {}, ""
    for path in sorted(p for p in out.rglob("*") if p.is_file()):
        data = path.read_bytes()
        if path.name == "report.json":
            report = json.loads(data)
            report.pop("created")
            runtime = report.pop("encoder_runtime")
            data = json.dumps(report, sort_keys=True).encode()
        elif path.name == "report.md":
            data = re.sub(rb"created [0-9T:+-]+", b"created (time)", data)
            data = data.replace(f", run by `{runtime}`".encode(), b"")
        elif path.name == "config.toml":  # the runtime is a setting the config replays
            data = re.sub(rb'encoder_runtime = "[^"]*"\n| --encoder-runtime [\w-]+', b"", data)
        files[path.relative_to(out).as_posix()] = data
    return files, runtime


def test_a_seeded_release_is_the_same_on_either_runtime_but_for_the_runtime_it_names(tmp_path, capsys):
    """At ε = 5 the draw reads every d_R, so a runtime that changed one enough to move an outcome would show."""
    releases = {}
    for runtime in ("onnxruntime-fp32", "torch"):
        out = tmp_path / runtime
        args = ["sanitize", str(ROOT / "assets" / "sample_corpus"), "--out", str(out), "--seed", "7", "--quiet"]
        assert cli.main([*args, "--encoder-runtime", runtime]) == 0, capsys.readouterr().err
        assert f"run by `{runtime}`" in (out / "report.md").read_text(encoding="utf-8")
        releases[runtime] = _public_files(out)
    (onnx_files, onnx_named), (torch_files, torch_named) = releases["onnxruntime-fp32"], releases["torch"]
    assert (onnx_named, torch_named) == ("onnxruntime-fp32", "torch")
    assert onnx_files == torch_files
    assert any(name.startswith("documents/") for name in onnx_files)
