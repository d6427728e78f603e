"""The entity level on the shared datasets: the weakest entity today, and what a per-entity budget E costs.

Three parts, run from the repository root (each prints Markdown tables):

    .venv/bin/python bench/entity_budget.py worst            # the three datasets, whole: n and bound at ε = 1, 5
    .venv/bin/python bench/entity_budget.py budget           # HotpotQA, Re-DocRED dev, first 100 docs: ε_g, E[...]
    .venv/bin/python bench/entity_budget.py attack [--limit-hotpotqa 3 --limit-redocred 20]

``worst`` extracts each dataset once (spaCy, one process) and computes the report's own ``entity_level`` block
(:func:`relguard.release.entity.entity_block`) from the group keys at each ε: the block depends on the keys and
the settings only, so it is the number ``relguard sanitize`` would print. ``budget`` prepares the first 100
documents (HotpotQA: its first 10 questions' 100 paragraphs) and gives the exact expectations
(:func:`relguard.privacy.expected.expected_leakage`, no sampling) at today's ε and at E matched to it two ways:
E = ε (each entity gets what one relation gets today) and E = ε·n_max (today's plain worst case e^(ε·n_max) for
the busiest entity, and no group below ε). ``attack`` runs ``relguard evaluate`` on small limits at ε and at the
matched E (one trial, no baselines): the attack re-extracts every release, so it is slow on two cores.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from relguard import registry
from relguard.evaluation.datasets import load_dataset
from relguard.extract.corpus import extract_corpus
from relguard.pipeline import prepare
from relguard.privacy.closeness import default_threshold
from relguard.privacy.entity import entity_bounds, groups_per_entity
from relguard.privacy.expected import expected_leakage
from relguard.release.entity import entity_block
from relguard.types import Guarantee

EPSILONS = (1.0, 5.0)
LAM, K = 1.0, 10
DATASETS = ("hotpotqa", "2wiki", "redocred")
BUDGET_LIMITS = {"hotpotqa": 10, "redocred": 100}  # HotpotQA's limit counts questions: 10 give 100 paragraphs


def _keys(documents) -> list:
    extraction = extract_corpus(documents, extractor=registry.create("extractor", "spacy"))
    return [g.key for g in extraction.groups]


def worst() -> None:
    print(
        "| dataset | documents | groups | entities | share n = 1 | median n | ε | weakest n "
        "| bound e^(Σ ε·d_max) | e^(ε·n) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in DATASETS:
        dataset = load_dataset(name)
        start = time.perf_counter()
        keys = _keys(dataset.documents)
        n = np.array(list(groups_per_entity(keys).values()))
        for epsilon in EPSILONS:
            block = entity_block(keys, Guarantee(epsilon=epsilon, lam=LAM, k=K))
            w = block["worst_entity"]
            print(
                f"| {name} | {len(dataset.documents)} | {len(keys)} | {block['entities']} | {np.mean(n == 1):.0%} | "
                f"{np.median(n):g} | {epsilon:g} | {w['groups']} | e^{w['log_bound']:.1f} = {_big(w['bound'])} | "
                f"{_big(w['plain_bound'])} |"
            )
        print(f"<!-- {name}: extracted in {time.perf_counter() - start:.0f} s -->", file=sys.stderr)


def _big(value) -> str:
    return "∞" if isinstance(value, str) else f"{value:.3g}"


def _quantiles(values: np.ndarray) -> str:
    q = np.quantile(values, [0.0, 0.1, 0.5, 0.9, 1.0])
    return " / ".join(f"{v:.3g}" for v in q)


def budget() -> None:
    threshold = default_threshold()
    print(
        "| dataset | docs | groups | n_max | setting | ε_g min / p10 / median / p90 / max | weakest entity Σ ε_g·d_max "
        "| E[relation kept with its meaning] | E[connection kept] | E[deleted] |"
    )
    print("|---|---:|---:|---:|---|---|---:|---:|---:|---:|")
    for name, limit in BUDGET_LIMITS.items():
        dataset = load_dataset(name, limit=limit)
        prepared = prepare(dataset.documents, k=K)
        keys = [g.key for g in prepared.groups]
        n_max = max(groups_per_entity(keys).values())
        for epsilon in EPSILONS:
            settings = [
                (f"ε = {epsilon:g} per relation", epsilon, None),
                (f"E = ε = {epsilon:g}", epsilon, epsilon),
                (f"E = ε·n_max = {epsilon * n_max:g}", epsilon * n_max, epsilon * n_max),
            ]
            for label, value, entity_epsilon in settings:
                per_group = prepared.group_epsilons(epsilon=value, entity_epsilon=entity_epsilon)
                leak = expected_leakage(
                    prepared, epsilon=value, lam=LAM, threshold=threshold, entity_epsilon=entity_epsilon
                )
                weakest = entity_bounds(keys, per_group, lam=LAM, k=K)[0]
                print(
                    f"| {name} | {len(dataset.documents)} | {len(keys)} | {n_max} | {label} | "
                    f"{_quantiles(per_group)} | "
                    f"{weakest.log_bound:.3g} (n = {weakest.groups}) | {leak.relation:.1%} | {leak.connection:.1%} | "
                    f"{leak.deleted:.1%} |"
                )


def attack(limits: dict[str, int], out: str) -> int:
    """``relguard evaluate`` at ε = 5, 1 and the matched E on each dataset's small corpus; prints its tables."""
    failed = 0
    for name, limit in limits.items():
        dataset = load_dataset(name, limit=limit)
        n_max = max(groups_per_entity(_keys(dataset.documents)).values())
        budgets = sorted({*EPSILONS, *(e * n_max for e in EPSILONS)})
        command = [
            sys.executable,
            "-m",
            "relguard.cli",
            "evaluate",
            "--dataset",
            name,
            "--limit",
            str(limit),
            "--epsilons",
            "5,1",
            "--entity-epsilons",
            ",".join(f"{b:g}" for b in budgets),
            "--no-null-epsilons",
            "",
            "--trials",
            "1",
            "--baselines",
            "none",
            "--no-presidio",
            "--workers",
            "1",
            "--out",
            f"{out}/{name}",
        ]
        print(f"$ {' '.join(command[1:])}  # n_max = {n_max}", flush=True)
        run = subprocess.run(command, capture_output=True, text=True)
        failed |= run.returncode
        tables = Path(out) / name / "tables.md"
        print(tables.read_text(encoding="utf-8") if run.returncode == 0 else run.stderr[-2000:])
    return failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("part", choices=("worst", "budget", "attack"))
    parser.add_argument("--limit-hotpotqa", type=int, default=3, help="attack: HotpotQA questions (10 paragraphs each)")
    parser.add_argument("--limit-redocred", type=int, default=20, help="attack: Re-DocRED documents")
    parser.add_argument("--out", default="out/entity", help="attack: evaluate's output folder")
    args = parser.parse_args()
    if args.part == "worst":
        worst()
    elif args.part == "budget":
        budget()
    else:
        return attack({"hotpotqa": args.limit_hotpotqa, "redocred": args.limit_redocred}, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
