"""What a release must spend, stage by stage, as multiples of spaCy's own ``nlp.pipe`` on the same texts.

In one process, with every model loaded first and one thing running at a time, on the 994 HotpotQA paragraphs:

* ``nlp.pipe`` over the texts (the floor of ``bench/engine_ratio.py``, without its start-up);
* RelGuard's extraction of the same documents on one process (parse, slots, the masked second NER pass,
  the name templates), then the corpus-wide alignment and the group table, as the local engine builds them;
  within it, typing from public information (:func:`relguard.extract.spacy.retype.final_types`: the votes, the
  gazetteers, the evidence read from the masked text), and apart from it the gazetteers' one load per process;
* the draw's embeddings: every distinct typed sentence of the table's predicates and pools, from an empty
  cache, on the default runtime (ONNX Runtime fp32; ``--runtime torch`` for the reference) on 1 thread (what a
  worker process would use) and on every core. A real run reads the pools' sentences from the inventory's
  embedding cache (``relguard/candidates/embeddings.py``); here they are computed, as on a machine's first run.

Both stages are CPU-bound, so on ``c`` cores no engine can finish them in less than (extraction + embedding on
1 thread) / c. Divided by the floor, that is a lower bound on the whole-process ratio ``bench/engine_ratio.py``
measures (it leaves out model loading, the rewrite and the leak scan, so the true ratio is higher)::

    .venv/bin/python bench/stage_costs.py [--runtime torch]
"""

from __future__ import annotations

import argparse
import os
import time

from common import hotpotqa_paragraphs

import relguard.extract.spacy as spacy_backend
from relguard import registry
from relguard.embed import FP32, TORCH, OnnxEncoder, SentenceTransformerEncoder, predicate_text
from relguard.engine.outcomes import table_pools
from relguard.engine.tally import GroupTable
from relguard.extract import gazetteer
from relguard.extract.slots import EntityAlignment


def timed(function, spent: list[float]):
    """``function``, adding the seconds each call takes to ``spent[0]``."""

    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[0] += time.perf_counter() - start

    return wrapper


def encoder_on(runtime: str, threads: int):
    """A fresh encoder (empty cache) of ``runtime`` on ``threads`` threads."""
    if runtime == TORCH:
        import torch

        torch.set_num_threads(threads)
        return SentenceTransformerEncoder()
    return OnnxEncoder(threads=threads)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runtime", choices=(FP32, TORCH), default=FP32, help="encoder runtime (default: %(default)s)")
    runtime = parser.parse_args().runtime
    documents = hotpotqa_paragraphs()
    texts = [d.text for d in documents]
    start = time.perf_counter()
    gazetteer.lookup("Paris")
    gazetteer_load = time.perf_counter() - start
    extractor = registry.create("extractor", "spacy")
    list(extractor.extract_many(documents[:20]))
    typing = [0.0]
    spacy_backend.final_types = timed(spacy_backend.final_types, typing)

    start = time.perf_counter()
    for _ in extractor.nlp.pipe(texts, batch_size=64):
        pass
    floor = time.perf_counter() - start

    start = time.perf_counter()
    extractions = list(extractor.extract_many(documents))
    alignment, table = EntityAlignment(), GroupTable()
    for doc in extractions:
        alignment.add(doc)
    for doc in extractions:
        table.add(alignment.apply(doc))
    extraction = time.perf_counter() - start

    pools = table_pools(table, generator=registry.create("candidates", "inventory"), k=10)
    draw = {predicate_text(p, (key[1], key[3])) for key in table.keys for p in table.predicates[key]}
    draw |= {predicate_text(c, pair) for pair, pool in pools.items() for c in pool.predicates}
    embedding = {}
    cores = len(os.sched_getaffinity(0))
    for threads in sorted({1, cores}):
        encoder = encoder_on(runtime, threads)
        start = time.perf_counter()
        encoder.embed_texts(sorted(draw))
        embedding[threads] = time.perf_counter() - start

    print(
        f"documents: {len(documents)}, groups: {len(table)}, distinct texts embedded: {len(draw)}, cores: {cores}, "
        f"encoder runtime: {runtime}"
    )
    print(f"spaCy nlp.pipe (floor)         {floor:6.1f} s   1.00x")
    print(f"extraction + alignment         {extraction:6.1f} s   {extraction / floor:.2f}x")
    print(f"  of which public typing        {typing[0]:6.1f} s   {typing[0] / floor:.2f}x")
    print(f"gazetteers' load (per process) {gazetteer_load:6.1f} s   {gazetteer_load / floor:.2f}x")
    for threads, seconds in embedding.items():
        rate = len(draw) / seconds
        label = f"embedding, {threads} thread(s)"
        print(f"{label:<30} {seconds:6.1f} s   {seconds / floor:.2f}x   ({rate:.0f} texts/s)")
    bound = (extraction + embedding[1]) / (cores * floor)
    print(f"lower bound on the whole-process ratio on {cores} cores: ({extraction:.1f} + {embedding[1]:.1f}) / "
          f"({cores} x {floor:.1f}) = {bound:.2f}x")  # fmt: skip


if __name__ == "__main__":
    main()
