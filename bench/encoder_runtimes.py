"""What a faster runtime for the d_R encoder would buy: torch against ONNX Runtime (fp32 and int8), 1 thread each.

Issue 14's ratio is bounded below by the embedding of every distinct typed sentence (``bench/stage_costs.py``).
This asks whether the same all-MiniLM-L6-v2 weights run faster elsewhere, and how far d_R moves if they do. It
embeds the draw's texts of the first HotpotQA paragraphs with RelGuard's encoder (torch), then with the model
exported to ONNX and run by ONNX Runtime as it is (fp32) and with its linear layers quantized to int8; every
runtime sees the same texts in batches of one token length, on one thread. For each it prints the seconds, the
speed-up over torch and the largest change of d_R over all pairs of the first 1,000 texts. ONNX Runtime is not a
RelGuard dependency; the script says how to install it when it is missing::

    .venv/bin/pip install onnxruntime==1.32.0 onnx==1.23.2
    .venv/bin/python bench/encoder_runtimes.py --documents 200
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
import torch
from common import hotpotqa_paragraphs

from relguard import registry
from relguard.embed import SentenceTransformerEncoder, pairwise_distances, predicate_text
from relguard.engine.draw import table_pools
from relguard.engine.tally import GroupTable
from relguard.extract.slots import EntityAlignment

INPUTS = ("input_ids", "attention_mask", "token_type_ids")


def draw_texts(count: int) -> list[str]:
    """Every distinct typed sentence a release of the first ``count`` paragraphs embeds (predicates and pools)."""
    extractor = registry.create("extractor", "spacy")
    extractions = list(extractor.extract_many(hotpotqa_paragraphs()[:count]))
    alignment, table = EntityAlignment(), GroupTable()
    for doc in extractions:
        alignment.add(doc)
    for doc in extractions:
        table.add(alignment.apply(doc))
    pools = table_pools(table, generator=registry.create("candidates", "inventory"), k=10)
    texts = {predicate_text(p, (key[1], key[3])) for key in table.keys for p in table.predicates[key]}
    texts |= {predicate_text(c, pair) for pair, pool in pools.items() for c in pool.predicates}
    return sorted(texts)


class _Hidden(torch.nn.Module):
    def __init__(self, model: torch.nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask, token_type_ids):
        return self.model(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids)[0]


def onnx_sessions(encoder: SentenceTransformerEncoder, folder: Path) -> dict:
    """ONNX Runtime sessions on one thread for the encoder's transformer: as exported (fp32) and int8-quantized."""
    import onnxruntime
    from onnxruntime.quantization import QuantType, quantize_dynamic

    model = encoder._model
    sample = model.tokenizer(["A person works for an organization."], return_tensors="pt")
    exported = folder / "model.onnx"
    axes = {name: {0: "batch", 1: "tokens"} for name in (*INPUTS, "hidden")}
    torch.onnx.export(
        _Hidden(model[0].auto_model.eval()),
        tuple(sample[name] for name in INPUTS),
        str(exported),
        input_names=list(INPUTS),
        output_names=["hidden"],
        dynamic_axes=axes,
        opset_version=17,
        dynamo=False,
    )
    quantized = folder / "model.int8.onnx"
    quantize_dynamic(str(exported), str(quantized), weight_type=QuantType.QInt8)
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    return {
        name: onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        for name, path in (("onnxruntime fp32", exported), ("onnxruntime int8", quantized))
    }


def run_session(session, tokenizer, texts: list[str], batch: int = 16) -> np.ndarray:
    """Mean-pooled, unit-normalized embeddings, texts batched by token length so nothing is padded."""
    by_length: dict[int, list[int]] = defaultdict(list)
    for index, ids in enumerate(tokenizer(texts)["input_ids"]):
        by_length[len(ids)].append(index)
    out = np.empty((len(texts), 384))
    for indices in by_length.values():
        for start in range(0, len(indices), batch):
            rows = indices[start : start + batch]
            features = tokenizer([texts[i] for i in rows], return_tensors="np")
            hidden = session.run(None, {name: features[name].astype(np.int64) for name in INPUTS})[0]
            pooled = hidden.mean(axis=1)
            out[rows] = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=200, help="first N HotpotQA paragraphs (default 200)")
    args = parser.parse_args()
    texts = draw_texts(args.documents)
    torch.set_num_threads(1)
    encoder = SentenceTransformerEncoder()
    start = time.perf_counter()
    reference = encoder.embed_texts(texts)
    seconds = time.perf_counter() - start
    sample = reference[:1000]
    distances = pairwise_distances(sample, sample)
    print(f"{len(texts)} distinct texts from {args.documents} paragraphs, 1 thread each")
    print(f"torch (RelGuard's encoder)   {seconds:6.1f} s   1.00x   max |change of d_R|  0")
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        print("onnxruntime is not installed: .venv/bin/pip install onnxruntime==1.32.0 onnx==1.23.2")
        return
    with tempfile.TemporaryDirectory() as folder:
        for name, session in onnx_sessions(encoder, Path(folder)).items():
            start = time.perf_counter()
            vectors = run_session(session, encoder._model.tokenizer, texts)
            took = time.perf_counter() - start
            change = float(np.abs(pairwise_distances(vectors[:1000], vectors[:1000]) - distances).max())
            print(f"{name:<28} {took:6.1f} s   {seconds / took:.2f}x   max |change of d_R|  {change:.2g}")


if __name__ == "__main__":
    main()
