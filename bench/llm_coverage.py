"""Coverage and cost of the spacy, llm and union extractors with a real model, and LLM pools (issue 15).

    eval "$(bash scripts/local-llm.sh --background)"        # Qwen2.5-Coder-1.5B on 127.0.0.1:8765
    B=".venv/bin/python bench/llm_coverage.py"
    $B redocred --budget 3600                  # as many Re-DocRED dev documents as fit in an hour of LLM time
    $B sample                                  # the six documents of assets/sample_corpus
    $B pools --k 10                            # LLM pools for the sample corpus's type pairs
    $B redocred --docs 5 --prompt-set paper    # the paper's Fig. 4 prompt on the same documents, for comparison

**Coverage** (Re-DocRED): the share of gold relations between named entities whose entity pair got a slot in
that document (undirected, aliases resolved: ``relguard.evaluation.core.truth_from_gold``, the measure of
``relguard evaluate --dataset redocred``). The sample corpus has no gold; it reports slots, groups and the
sentences that name two or more entities and hold no slot (``relguard.extract.unprotected``).

**Cost** per document: seconds, calls and tokens. The union extractor runs one document at a time until the budget
is spent; each document's cost is kept in ``ledger-<prompt set>.jsonl`` under ``--cache`` next to the extractors'
disk cache, so an interrupted run resumes and a rerun prints the same table. The LLM extractor alone then reads the
same replies from that cache: the llm and union rows show the cost of that one run (the LLM alone makes the same
calls; its typing call lists fewer names, and it skips spaCy's fraction of a second).

**Pools**: each type pair is asked with the disk cache off; "first try" means one call gave K acceptable
predicates, "after re-asks" that the backend's retry turn completed it, "failed" that ``max_attempts`` calls did
not (the error says what was rejected).

Model usage is confidential in a release (invariant 12); this script is a measurement on public data.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

from relguard import registry
from relguard.candidates.llm import LLMCandidates
from relguard.errors import PoolError
from relguard.evaluation.core import truth_from_gold
from relguard.evaluation.datasets import load_dataset
from relguard.extract.corpus import group_relations
from relguard.extract.llm import LLMExtractor
from relguard.extract.union import UnionExtractor
from relguard.extract.unprotected import unprotected_in
from relguard.io import read_documents
from relguard.llm import LLMConfig, LLMError
from relguard.textable import text_table
from relguard.types import Extraction

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "assets" / "sample_corpus"
COST = ("seconds", "calls", "prompt_tokens", "completion_tokens")


def _config(args) -> LLMConfig:
    return LLMConfig.from_env(
        model=args.llm_model, base_url=args.base_url, max_concurrency=1, prompt_set=args.prompt_set
    )


def _usage(backend) -> dict[str, int]:
    info = backend.provenance()
    return {key: int(info.get(key) or 0) for key in COST[1:]}


def _ledger(path: Path) -> dict[str, dict]:
    if not path.exists():
        return {}
    return {row["document"]: row for row in map(json.loads, path.read_text().splitlines()) if row}


def run_models(documents, args, cache: Path) -> tuple[list, list, dict]:
    """Union (spaCy + the LLM) document by document until ``--budget`` seconds are spent; then the LLM's own slots.

    Every call is made once, by the union (its typing call also lists spaCy's endpoints); the LLM extractor then
    reads the same replies from the cache and makes no call, so both rows report the cost of that one run.
    """
    union = UnionExtractor(_config(args), cache_root=cache)
    ledger_path = cache / f"ledger-{args.prompt_set}.jsonl"
    ledger = _ledger(ledger_path)
    merged, spent = [], 0.0
    for document in documents:
        if spent >= args.budget:
            break
        before = _usage(union)
        started = time.perf_counter()
        try:
            merged.append(union.extract(document))
        except LLMError as exc:
            print(f"{document.name}: {exc}", file=sys.stderr)
            break
        row = ledger.get(document.name)
        if row is None:
            after = _usage(union)
            row = {"document": document.name, "seconds": round(time.perf_counter() - started, 2)}
            row |= {key: after[key] - before[key] for key in COST[1:]}
            with ledger_path.open("a") as out:
                out.write(json.dumps(row) + "\n")
            print(f"  {len(merged):3d} {document.name[:40]:40} {row['seconds']:6.1f} s", file=sys.stderr)
        ledger[document.name] = row
        spent += row["seconds"]
    done = [r.document for r in merged]
    cost = {key: sum(ledger[d.name][key] for d in done) for key in COST}
    llm = LLMExtractor(_config(args), cache_root=cache)
    alone = list(llm.extract_many(done))
    assert llm.usage.total("calls") == 0, "the LLM's replies should all come from the union's run"
    return alone, merged, cost | {"dropped": union.provenance()["dropped"]}


def run_spacy(documents) -> tuple[list, dict]:
    spacy = registry.create("extractor", "spacy")
    started = time.perf_counter()
    results = list(spacy.extract_many(documents))
    return results, {"seconds": time.perf_counter() - started, "calls": 0, "prompt_tokens": 0, "completion_tokens": 0}


def _extraction(results) -> Extraction:
    return Extraction(tuple(results), group_relations(results))


def _row(name: str, results, cost: dict, quality: list) -> list:
    n = max(1, len(results))
    slots = sum(len(t.occurrences) for r in results for t in r.triples)
    per = [f"{cost['seconds'] / n:.1f}", f"{cost['calls'] / n:.1f}", f"{cost['prompt_tokens'] / n:.0f}"]
    return [name, len(results), *quality, slots, *per, f"{cost['completion_tokens'] / n:.0f}"]


def coverage_table(args) -> None:
    cache = Path(args.cache)
    cache.mkdir(parents=True, exist_ok=True)
    if args.dataset == "redocred":
        dataset = load_dataset("redocred", limit=args.docs)
        documents = list(dataset.documents)
    else:
        documents = list(read_documents([str(SAMPLE)])[0])
        dataset = None
    llm, union, cost = run_models(documents, args, cache)
    documents = [r.document for r in llm]
    runs = {"spacy": run_spacy(documents), f"llm ({args.prompt_set})": (llm, cost), "union": (union, cost)}
    rows = []
    for name, (results, cost) in runs.items():
        if dataset is not None:
            names = {r.document.name for r in results}
            subset = replace(dataset, gold=tuple(g for g in dataset.gold if g[0] in names))
            truth = truth_from_gold(subset, SimpleNamespace(extraction=_extraction(results)))
            off = getattr(truth, "slots_off_gold", None)
            quality = [len(subset.gold), f"{truth.coverage:.1%}", "-" if off is None else f"{off:.0%}"]
        else:
            unprotected = sum(len(unprotected_in(r)) for r in results)
            quality = [len(_extraction(results).groups), unprotected]
        rows.append(_row(name, results, cost, quality))
        if cost.get("dropped"):
            print(f"{name} dropped: {json.dumps(cost['dropped'])}", file=sys.stderr)
    if dataset is not None:
        headers = ["extractor", "documents", "gold relations", "coverage", "slots off gold", "slots"]
    else:
        headers = ["extractor", "documents", "groups", "sentences with 2+ entities, no slot", "slots"]
    headers += ["s/doc", "calls/doc", "prompt tok/doc", "completion tok/doc"]
    print(text_table(headers, rows))


def pool_table(args) -> None:
    """LLM pools of the sample corpus's type pairs (from the spaCy and union extractions of it)."""
    documents = list(read_documents([str(SAMPLE)])[0])
    cache = Path(args.cache)
    pairs = {g.type_pair for g in _extraction(run_spacy(documents)[0]).groups}
    if args.union_pairs:
        pairs |= {g.type_pair for g in _extraction(run_models(documents, args, cache)[1]).groups}
    generator = LLMCandidates(_config(args), cache=False, max_attempts=args.max_attempts)
    rows, outcome = [], {"first try": 0, "after re-asks": 0, "failed": 0}
    for pair in sorted(pairs):
        before = generator.usage.total("calls")
        started = time.perf_counter()
        try:
            pool = generator.generate(pair, args.k)
            calls = generator.usage.total("calls") - before
            result = "first try" if calls == 1 else "after re-asks"
            detail = ", ".join(pool.predicates)
        except (PoolError, LLMError) as exc:
            calls, result, detail = generator.usage.total("calls") - before, "failed", str(exc)
        outcome[result] += 1
        rows.append([f"{pair[0]}->{pair[1]}", result, calls, f"{time.perf_counter() - started:.1f}", detail])
    print(text_table(["type pair", "result", "calls", "seconds", "pool (or why it failed)"], rows))
    rejected = generator.usage.snapshot().get("candidates", {}).get("rejected_candidates", 0)
    print(f"\n{len(pairs)} type pairs, K={args.k}, prompt set {args.prompt_set}: {outcome}; {rejected} rejected")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dataset", choices=("redocred", "sample", "pools"))
    parser.add_argument("--docs", type=int, default=500, help="first N Re-DocRED dev documents at most")
    parser.add_argument("--budget", type=float, default=float("inf"), help="stop the LLM after this many seconds")
    parser.add_argument("--cache", default="/tmp/relguard-llm-bench", help="LLM cache and cost ledger")
    parser.add_argument("--prompt-set", default="compact", choices=("compact", "paper"))
    parser.add_argument("--base-url", default=None, help="default $OPENAI_BASE_URL")
    parser.add_argument("--llm-model", default=None, help="default $RELGUARD_LLM_MODEL")
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--max-attempts", type=int, default=4)
    parser.add_argument("--union-pairs", action="store_true", help="pools: add the union extraction's type pairs")
    args = parser.parse_args(argv)
    if args.dataset == "pools":
        pool_table(args)
    else:
        coverage_table(args)


if __name__ == "__main__":
    main()
