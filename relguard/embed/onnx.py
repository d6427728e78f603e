"""The ONNX Runtime encoder: the same sentence-transformers function, exported once from the verified weights.

d_R is a function, not a runtime (DESIGN "Offline default stack"): the whole sentence-transformers pipeline —
transformer, mean pooling, normalization — is traced once from the torch model into an ONNX file, and ONNX
Runtime runs that file with the model's own tokenizer (``tokenizer.json``, truncated at the model's
``max_seq_length``, as sentence-transformers does). Every text is batched exactly as on torch (one token length
per pass, filled to one shape), so a row depends only on its own text here too.

The export is cached under ``<cache>/onnx``, keyed by the SHA-256 of the weights (and of the small config files
that shape pooling and tokenization), written atomically with a sidecar that records the file's own SHA-256. A
file that does not match its sidecar is exported again. An export is kept only when it reproduces torch within
:data:`TOLERANCE` of d_R on :data:`PROBES`; the int8 variant is another function and has its own model id.
"""

from __future__ import annotations

import json
import os
import tempfile
import warnings
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from relguard.embed.base import CachedEncoder, filled, same_length_batches
from relguard.embed.text import max_distance_change, normalize
from relguard.embed.weights import DEFAULT_MODEL, INT8_MODEL, ModelSource, cache_dir, resolve_model
from relguard.errors import ModelError
from relguard.io.digest import sha256_bytes, sha256_file

FP32, INT8 = "onnxruntime-fp32", "onnxruntime-int8"
#: Bumped when the export changes what the file computes, so old cache entries are not reused.
EXPORT_VERSION = 1
#: The largest change of d_R against torch a runtime may make and still be the same function (DESIGN).
TOLERANCE = 1e-5
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
#: Texts every fresh fp32 export must embed as torch does: short and long typed sentences, one past truncation.
PROBES = (
    "A person works for an organization.",
    "A person is employed by an organization.",
    "A person founded an organization.",
    "A person spouse of a person.",
    "A country or city was the capital of a country or city before the war.",
    "An organization was acquired in part by the board of directors of an organization.",
    "A person played for nine seasons with the first team before joining an organization.",
    " ".join(["A person worked for an organization"] * 60) + ".",
)
_CONFIG_FILES = ("modules.json", "sentence_bert_config.json", "1_Pooling/config.json", "tokenizer.json", "config.json")


def config_digest(folder: Path) -> str:
    """SHA-256 over the small files that decide tokenization and pooling (the weights are hashed apart)."""
    parts = [f"{name}:{sha256_file(folder / name) if (folder / name).exists() else '-'}" for name in _CONFIG_FILES]
    return sha256_bytes("\n".join(parts).encode())


def export_paths(source: ModelSource, variant: str, folder: Path | None = None) -> tuple[Path, Path]:
    """(the .onnx file, its sidecar) for ``source`` under ``folder`` (default ``<cache>/onnx``)."""
    folder = Path(folder) if folder is not None else cache_dir() / "onnx"
    stem = f"{source.weights_sha256}-{config_digest(source.path)[:12]}-{variant.rsplit('-', 1)[-1]}-v{EXPORT_VERSION}"
    return folder / f"{stem}.onnx", folder / f"{stem}.json"


def cached_export(path: Path, sidecar: Path) -> dict | None:
    """The sidecar's record when ``path`` is intact (its SHA-256 matches), else None: export again."""
    try:
        record = json.loads(sidecar.read_text(encoding="utf-8"))
        if isinstance(record, dict) and path.exists() and sha256_file(path) == record.get("onnx_sha256"):
            return record
    except (OSError, ValueError):
        pass
    return None


def _write_atomic(path: Path, data: bytes | None = None, *, staged: Path | None = None) -> None:
    """``data`` (or the finished file ``staged``) to ``path`` by a rename in its folder: never a half-written file."""
    try:
        if staged is None:
            handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
            with os.fdopen(handle, "wb") as stream:
                stream.write(data or b"")
            staged = Path(name)
        os.replace(staged, path)
    except OSError as exc:
        raise ModelError(
            f"cannot write the encoder cache {path} ({exc}); set RELGUARD_CACHE to a writable folder"
        ) from exc


class OnnxModel:
    """An ONNX file and the model's tokenizer: token counts and one forward pass, as sentence-transformers does."""

    def __init__(self, path: Path, model_dir: Path, *, threads: int | None = None) -> None:
        try:
            import onnxruntime
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise ModelError("the onnxruntime encoder runtime needs onnxruntime (pip install relguard)") from exc
        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")  # engines fork worker processes
        options = onnxruntime.SessionOptions()
        options.log_severity_level = 3
        options.inter_op_num_threads = 1
        if threads:
            options.intra_op_num_threads = threads
        self.session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        settings = _read_json(model_dir / "sentence_bert_config.json")
        self.lower = bool(settings.get("do_lower_case", False))
        self.tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(int(settings.get("max_seq_length") or 512), strategy="longest_first")
        special = _read_json(model_dir / "special_tokens_map.json").get("pad_token", "[PAD]")
        pad_token = special.get("content", "[PAD]") if isinstance(special, dict) else str(special)
        self.pad = (self.tokenizer.token_to_id(pad_token) or 0, pad_token)

    def encode(self, texts: Sequence[str]) -> list:
        return self.tokenizer.encode_batch([t.lower() if self.lower else t for t in texts])

    def token_count(self, texts: Sequence[str]) -> list[int]:
        return [len(e.ids) for e in self.encode(texts)]

    def run(self, encodings: list) -> np.ndarray:
        """Pooled embeddings of encodings of one length (or padded to one length, attention mask set)."""
        feed = {
            "input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64),
            "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64),
        }
        return self.session.run(None, feed)[0]

    def forward(self, texts: Sequence[str]) -> np.ndarray:
        """One pass over texts of one token length, filled to the batch size: the shape torch's pass has."""
        return self.run(self.encode(filled(texts)))[: len(texts)]

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-normalized embeddings of distinct ``texts``, batched as :class:`OnnxEncoder` batches them."""
        rows: dict[str, np.ndarray] = {}
        for group in same_length_batches(texts, self.token_count):
            rows.update(zip(group, self.forward(group), strict=True))
        return normalize(np.stack([rows[t] for t in texts]))


def _read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def export_fp32(source: ModelSource, path: Path, sidecar: Path) -> dict:
    """Trace the torch pipeline into ``path``, check it against torch on :data:`PROBES`, then publish it."""
    try:
        import torch
    except ImportError as exc:
        raise ModelError("exporting the encoder to ONNX needs torch (pip install relguard)") from exc
    from relguard.embed.sbert import SentenceTransformerEncoder

    reference = SentenceTransformerEncoder(source.name)
    model = reference._model

    class Pipeline(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            features = {"input_ids": input_ids, "attention_mask": attention_mask, "token_type_ids": token_type_ids}
            if hasattr(model, "preprocess"):
                features["modality"] = "text"
            return self.model(features)["sentence_embedding"]

    prepare = getattr(model, "preprocess", None) or model.tokenize
    sample = prepare([PROBES[0], PROBES[4]])
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, staged = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    os.close(handle)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                Pipeline().eval(),
                tuple(sample[name] for name in INPUTS),
                staged,
                input_names=list(INPUTS),
                output_names=["sentence_embedding"],
                dynamic_axes={**{n: {0: "batch", 1: "tokens"} for n in INPUTS}, "sentence_embedding": {0: "batch"}},
                opset_version=17,
                dynamo=False,
            )
        change = max_distance_change(reference.embed_texts(PROBES), OnnxModel(Path(staged), source.path).embed(PROBES))
        if change > TOLERANCE:
            raise ModelError(
                f"the ONNX export of encoder {source.name!r} changes d_R by {change:.2g} (> {TOLERANCE:g}) against "
                "torch; use --encoder-runtime torch"
            )
        return _publish(Path(staged), path, sidecar, source, variant=FP32, change=change)
    finally:
        Path(staged).unlink(missing_ok=True)


def export_int8(source: ModelSource, fp32: Path, path: Path, sidecar: Path) -> dict:
    """The fp32 export with its linear layers quantized to int8 (weights only, per tensor): another function."""
    try:
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as exc:
        raise ModelError("the int8 encoder needs onnxruntime and onnx (pip install relguard)") from exc
    handle, staged = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    os.close(handle)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            quantize_dynamic(str(fp32), staged, weight_type=QuantType.QInt8)
        return _publish(Path(staged), path, sidecar, source, variant=INT8, change=None)
    finally:
        Path(staged).unlink(missing_ok=True)


def _publish(staged: Path, path: Path, sidecar: Path, source: ModelSource, *, variant: str, change) -> dict:
    record = {
        "model": source.name,
        "weights_sha256": source.weights_sha256,
        "variant": variant,
        "export_version": EXPORT_VERSION,
        "onnx_sha256": sha256_file(staged),
        "probe_max_change_of_d_R": change,
    }
    _write_atomic(path, staged=staged)
    _write_atomic(sidecar, (json.dumps(record, indent=2) + "\n").encode())
    return record


def ensure_export(source: ModelSource, variant: str, folder: Path | None = None) -> tuple[Path, dict, bool]:
    """(the intact cached export of ``variant``, its record, whether it was exported now)."""
    path, sidecar = export_paths(source, variant, folder)
    record = cached_export(path, sidecar)
    if record is not None:
        return path, record, False
    if variant == INT8:
        fp32, _, _ = ensure_export(source, FP32, folder)
        return path, export_int8(source, fp32, path, sidecar), True
    return path, export_fp32(source, path, sidecar), True


class OnnxEncoder(CachedEncoder):
    """A sentence-transformers model run by ONNX Runtime from its cached export; ``model_id`` as on torch.

    ``all-MiniLM-L6-v2-int8`` is the bundled weights quantized to int8, a different d_R: its ``model_id`` carries
    the int8 file's SHA-256, so no release or audit can mistake it for the fp32 function.
    """

    def __init__(self, model: str = DEFAULT_MODEL, *, threads: int | None = None, folder: Path | None = None) -> None:
        variant = INT8 if model == INT8_MODEL else FP32
        source = resolve_model(DEFAULT_MODEL if variant == INT8 else model)
        if source.weights_sha256 == "unverified" or not source.path.is_dir():
            raise ModelError(
                f"the onnxruntime encoder runtime needs a model folder with weights to hash; {model!r} is not one "
                "(use --encoder-runtime torch)"
            )
        path, record, self.exported = ensure_export(source, variant, folder)
        try:
            self._model = OnnxModel(path, source.path, threads=threads)
        except ModelError:
            raise
        except Exception as exc:  # a file that passed its hash but does not load: export it again, once
            path.unlink(missing_ok=True)
            path, record, self.exported = ensure_export(source, variant, folder)
            try:
                self._model = OnnxModel(path, source.path, threads=threads)
            except Exception as again:
                raise ModelError(f"cannot load the ONNX export {path}: {again}; delete it to export again") from exc
        self.onnx_path = path
        digest = record["onnx_sha256"] if variant == INT8 else source.weights_sha256
        super().__init__(name=model, weights_sha256=digest, runtime=variant)
        self._dimension = int(self._model.forward([PROBES[0]]).shape[-1])

    @property
    def dimension(self) -> int:
        return self._dimension

    def _token_count(self, texts: Sequence[str]) -> list[int]:
        return self._model.token_count(texts)

    def _forward(self, texts: Sequence[str]) -> np.ndarray:
        return self._model.forward(texts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Sentences and documents for evaluation metrics, never for d_R: sorted by length, padded in batches of 64."""

        def encode(missing: list[str]):
            encodings = self._model.encode(missing)
            order = sorted(range(len(missing)), key=lambda i: len(encodings[i].ids))
            rows: dict[int, np.ndarray] = {}
            for start in range(0, len(order), 64):
                chunk = order[start : start + 64]
                width = max(len(encodings[i].ids) for i in chunk)
                batch = [encodings[i] for i in chunk]
                for e in batch:
                    e.pad(width, pad_id=self._model.pad[0], pad_token=self._model.pad[1])
                rows.update(zip(chunk, normalize(self._model.run(batch)), strict=True))
            return ((missing[i], rows[i]) for i in range(len(missing)))

        return self._cached(texts, self._passages, encode)
