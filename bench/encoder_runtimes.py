"""The same d_R on two runtimes: torch (the reference) against ONNX Runtime fp32, in one process, one thread each.

DESIGN lets a runtime be the default only if it reproduces torch within max |Δd_R| ≤ 1e-5 over the whole inventory
and the relation spans of the three shared datasets. This embeds exactly those texts — every typed sentence of the
inventory, and for every triple the spaCy extractor finds in HotpotQA, 2Wiki and Re-DocRED its typed sentence
(what d_R reads) and its bare span — with fresh encoders (no cache) on each runtime, and prints

* the seconds each runtime took for the same texts and their ratio (torch / ONNX Runtime);
* the largest change of d_R over every pair of all the texts, and the largest change of one embedding.

``--int8`` adds the int8 model (another d_R, its own model id) for comparison. Timings mean something only on a
quiet machine; the change of d_R does not depend on load. Run from the repository root::

    .venv/bin/python bench/encoder_runtimes.py                 # all documents of the three datasets
    .venv/bin/python bench/encoder_runtimes.py --documents 50  # the first 50 of each, for a quick look
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from relguard import registry
from relguard.candidates.embeddings import inventory_texts
from relguard.candidates.inventory import InventoryCandidates
from relguard.embed import INT8_MODEL, OnnxEncoder, SentenceTransformerEncoder, predicate_text
from relguard.embed.onnx import TOLERANCE
from relguard.embed.text import max_distance_change
from relguard.evaluation.datasets import load_dataset

DATASETS = ("hotpotqa", "2wiki", "redocred")


def relation_texts(documents: int | None) -> tuple[list[str], dict[str, int]]:
    """The typed sentence and the bare span of every triple the extractor finds, and how many per dataset."""
    extractor = registry.create("extractor", "spacy")
    texts: set[str] = set()
    counts = {}
    for name in DATASETS:
        corpus = load_dataset(name).documents[:documents]
        before = len(texts)
        for doc in extractor.extract_many(corpus):
            for triple in doc.triples:
                texts.add(predicate_text(triple.predicate, triple.type_pair))
                texts.update(o.text for o in triple.occurrences)
        counts[name] = len(texts) - before
    return sorted(texts), counts


def timed(encoder, texts: list[str]) -> tuple[np.ndarray, float]:
    start = time.perf_counter()
    vectors = encoder.embed_texts(texts)
    return vectors, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=None, help="first N documents of each dataset (default all)")
    parser.add_argument("--threads", type=int, default=1, help="threads per runtime (default 1)")
    parser.add_argument("--int8", action="store_true", help=f"also time {INT8_MODEL} (another d_R)")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    inventory = sorted(set(inventory_texts(InventoryCandidates())))
    spans, per_dataset = relation_texts(args.documents)
    texts = sorted(set(inventory) | set(spans))
    print(
        f"{len(texts)} distinct texts: {len(inventory)} inventory sentences, {len(spans)} relation texts "
        f"(new from each: {', '.join(f'{name} {n}' for name, n in per_dataset.items())}); "
        f"{args.threads} thread(s) per runtime"
    )
    reference, seconds = timed(SentenceTransformerEncoder(), texts)
    print(f"{'torch (reference)':<40} {seconds:8.1f} s   1.00x")
    runtimes = [("onnxruntime-fp32", OnnxEncoder(threads=args.threads))]
    if args.int8:
        runtimes.append((f"onnxruntime-int8 ({INT8_MODEL})", OnnxEncoder(INT8_MODEL, threads=args.threads)))
    for name, encoder in runtimes:
        vectors, took = timed(encoder, texts)
        change = max_distance_change(reference, vectors)
        worst_vector = float(np.linalg.norm(vectors - reference, axis=1).max())
        verdict = "same d_R" if change <= TOLERANCE else "another d_R"
        print(
            f"{name:<40} {took:8.1f} s   {seconds / took:.2f}x   max |Δd_R| over all pairs {change:.3g} "
            f"(max ‖Δz‖ {worst_vector:.3g}): {verdict} (tolerance {TOLERANCE:g})"
        )


if __name__ == "__main__":
    main()
