"""The comparison table and the sweeps (paper Tables 2-3, Fig. 3), with CSV/markdown tables and PNG plots.

One :func:`~relguard.pipeline.prepare` per dataset: other K reuse its extraction (only pools and distances change),
every draw is milliseconds, and the attacker caches its extraction per distinct sanitized text.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from relguard import registry
from relguard.candidates.pools import build_pools
from relguard.embed import triple_distances
from relguard.evaluation import baselines
from relguard.evaluation.attack import TargetedAttacker
from relguard.evaluation.comparators import compare as seed_compare
from relguard.evaluation.comparators import report as seed_report
from relguard.evaluation.cooccurrence import CooccurrenceAttacker
from relguard.evaluation.core import Evaluation, Measure, truth_from_extraction, truth_from_gold
from relguard.evaluation.datasets import EvalDataset
from relguard.evaluation.matching import default_matcher
from relguard.evaluation.metrics import mean_and_std
from relguard.evaluation.progress import Progress, measurement_count
from relguard.pipeline import Prepared, prepare
from relguard.privacy.expected import expected_leakage
from relguard.privacy.mechanism import group_distances
from relguard.settings import DEFAULT_ENCODER
from relguard.textable import markdown_table as pipe_table

METRICS = (
    "conn_f1",
    "rel_f1",
    "conn_p",
    "conn_r",
    "rel_p",
    "rel_r",
    "cooc_conn_f1",
    "cooc_rel_f1",
    "cooc_conn_p",
    "cooc_conn_r",
    "cooc_rel_p",
    "cooc_rel_r",
    "coverage",
    "slots_off_gold",
    "verbatim_evidence",
    "deleted_share",
    "answer_survival",
    "support_kept",
    "recall@2",
    "recall@5",
    "expected_connection",
    "expected_relation",
)

#: The method name of RelGuard with a per-entity budget E (each group at E / max(n(s), n(o))).
ENTITY_METHOD = "RelGuard per entity"


def with_k(prepared: Prepared, *, k: int, encoder: Any) -> Prepared:
    """The same extraction under pools of another size K (no re-extraction)."""
    if k == prepared.k:
        return prepared
    pools = build_pools(prepared.extraction.type_pairs, generator=prepared.generator, k=k)
    per_triple = triple_distances(prepared.triples, pools, encoder)
    distances = group_distances(per_triple, prepared.group_of_triple, len(prepared.groups))
    return dataclasses.replace(prepared, pools=pools, distances=distances, k=k, triple_distances=per_triple)


@dataclass
class SweepResult:
    """Every trial row, the mean ± std summary, and what the run cost."""

    dataset: str
    note: str
    rows: list[dict[str, Any]] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
    info: dict[str, Any] = field(default_factory=dict)

    def summary(self) -> list[dict[str, Any]]:
        groups: dict[tuple, list[dict[str, Any]]] = {}
        for row in self.rows:
            key = (row["table"], row["method"], row.get("epsilon"), row.get("lam"), row.get("k"))
            groups.setdefault(key, []).append(row)
        out = []
        for (table, method, epsilon, lam, k), rows in groups.items():
            item: dict[str, Any] = {"table": table, "method": method, "epsilon": epsilon, "lam": lam, "k": k}
            item["trials"] = len(rows)
            for metric in METRICS:
                values = [r[metric] for r in rows if r.get(metric) is not None]
                if values:
                    item.update(mean_and_std(metric, values))
            out.append(item)
        return out


def run_evaluation(
    dataset: EvalDataset,
    *,
    epsilons: Sequence[float] = (10.0, 5.0, 1.0, 0.1),
    lam: float = 1.0,
    k: int = 10,
    trials: int = 3,
    no_null_epsilons: Sequence[float] = (5.0, 1.0),
    entity_epsilons: Sequence[float] = (),
    lams: Sequence[float] = (),
    ks: Sequence[int] = (),
    sweep_epsilon: float = 5.0,
    presidio: bool = True,
    seed_sanitizers: Sequence[str] = (),
    extractor: str | Any = "spacy",
    candidates: str | Any = "inventory",
    encoder: str = DEFAULT_ENCODER,
    log: Callable[[str], None] = lambda message: None,
) -> SweepResult:
    """Every method of the comparison on ``dataset``; λ and K sweeps at ``sweep_epsilon`` when given.

    ``seed_sanitizers`` (names of :data:`~relguard.evaluation.comparators.COMPARATORS`) adds the seed papers'
    sanitizers at their defaults and matched to RelGuard's utility at ε = 5 (table ``seed``).
    ``entity_epsilons`` adds RelGuard with a per-entity budget E (method "RelGuard per entity", ``epsilon`` = E).
    """
    result = SweepResult(dataset.name, dataset.note)
    extractor_obj = registry.create("extractor", extractor) if isinstance(extractor, str) else extractor
    encoder_obj = registry.create("encoder", "sentence-transformers", model=encoder)
    start = time.perf_counter()
    prepared = prepare(dataset.documents, k=k, extractor=extractor_obj, candidates=candidates, encoder=encoder_obj)
    result.seconds["prepare"] = time.perf_counter() - start
    log(f"{dataset.name}: prepared {len(dataset.documents)} documents, {len(prepared.triples)} triples")
    attacker = TargetedAttacker(extractor_obj)
    attacker.seed([d.text for d in dataset.documents], prepared.extraction)
    matcher = default_matcher(encoder)
    truth = truth_from_gold(dataset, prepared) if dataset.gold else truth_from_extraction(prepared)
    independent = CooccurrenceAttacker(truth.names)
    result.info.update(
        documents=len(dataset.documents),
        triples=len(prepared.triples),
        slots=sum(len(g.occurrences) for g in prepared.groups),
        groups=len(prepared.groups),
        truth=truth.mode,
        truth_facts=len(truth.facts),
        coverage=truth.coverage,
        threshold=matcher.threshold,
        attacker=attacker.name,
        independent_attacker=independent.name,
        questions=len(dataset.questions),
    )
    if truth.slots_off_gold is not None:
        result.info.update(slots_off_gold=truth.slots_off_gold, evidence_sentences=len(dataset.evidence))
    started = time.perf_counter()
    counts = {"trials": trials, "presidio": presidio, "epsilons": epsilons, "no_null_epsilons": no_null_epsilons}
    counts |= {"entity_epsilons": entity_epsilons, "lams": lams, "ks": ks, "lam": lam, "k": k}
    then = "the seed papers' sanitizers (minutes per 100 documents each)" if seed_sanitizers else ""
    progress = Progress(measurement_count(**counts, sweep_epsilon=sweep_epsilon), log, then=then)

    def record(table: str, evaluation: Evaluation, extra: dict[str, Any]) -> None:
        result.rows.append({"table": table, **evaluation.as_dict(), **extra})

    measured = Measure(truth, attacker, matcher, independent, questions=dataset.questions, dataset=dataset)

    def measure(documents, method: str, settings: dict[str, Any], deleted: float, source: Prepared) -> Evaluation:
        progress.tick()
        return measured(documents, method, settings, deleted, source)

    def relguard(
        table: str, source: Prepared, *, epsilon: float, lam_: float, allow_null: bool = True, entity: bool = False
    ) -> None:
        method = ENTITY_METHOD if entity else "RelGuard" if allow_null else "RelGuard w/o null"
        settings = {"epsilon": epsilon, "lam": lam_, "k": source.k}
        budget = {"entity_epsilon": epsilon} if entity else {"epsilon": epsilon}
        expected = expected_leakage(
            source, lam=lam_, threshold=matcher.threshold, allow_null=allow_null, **{"epsilon": epsilon, **budget}
        )
        expectations = {"expected_connection": expected.connection, "expected_relation": expected.relation}
        for trial in range(trials):
            release = source.draw(lam=lam_, allow_null=allow_null, **budget)
            deleted = sum(o.deleted for o in release.outcomes) / max(1, len(release.outcomes))
            evaluation = measure(release.documents, method, settings, deleted, source)
            record(table, evaluation, {"trial": trial, **expectations})
        log(f"  {method} ε={epsilon:g} λ={lam_:g} K={source.k}: done ({attacker.extracted} texts extracted so far)")

    empty = {"epsilon": None, "lam": None, "k": None}
    record("main", measure(baselines.no_defence(prepared), "no defence", empty, 0.0, prepared), {"trial": 0})
    record("main", measure(baselines.delete_relations(prepared), "delete relation sentences", empty, 1.0, prepared), {})
    if presidio:
        begin = time.perf_counter()
        masked = baselines.presidio_mask(prepared)
        result.seconds["presidio_mask"] = time.perf_counter() - begin
        record("main", measure(masked, "Presidio masking", empty, 0.0, prepared), {})
    for epsilon in epsilons:
        relguard("main", prepared, epsilon=epsilon, lam_=lam)
    for epsilon in no_null_epsilons:
        relguard("main", prepared, epsilon=epsilon, lam_=lam, allow_null=False)
    for budget in entity_epsilons:
        relguard("main", prepared, epsilon=budget, lam_=lam, entity=True)
    shared = [r for r in result.rows if r["method"] == "RelGuard" and r.get("epsilon") == sweep_epsilon]
    for value in lams:
        if value == lam and shared:
            result.rows += [{**r, "table": "lambda"} for r in shared]
        else:
            relguard("lambda", prepared, epsilon=sweep_epsilon, lam_=value)
    for size in ks:
        if size == k and shared:
            result.rows += [{**r, "table": "k"} for r in shared]
        else:
            relguard("k", with_k(prepared, k=size, encoder=encoder_obj), epsilon=sweep_epsilon, lam_=lam)
    if seed_sanitizers:
        rows, seconds = seed_compare.run_seed_sanitizers(
            seed_sanitizers,
            dataset=dataset,
            prepared=prepared,
            measure=measure,
            encoder=encoder_obj,
            lam=lam,
            trials=trials,
            epsilons=epsilons,
            log=log,
        )
        result.rows += rows
        result.seconds.update(seconds)
    result.seconds["evaluate"] = time.perf_counter() - started
    result.info["texts_extracted_by_attacker"] = attacker.extracted
    return result


# ---------------------------------------------------------------- outputs


def _fmt(item: dict[str, Any], metric: str, *, percent: bool = True) -> str:
    if metric not in item or item[metric] is None or (isinstance(item[metric], float) and math.isnan(item[metric])):
        return "–"
    scale = 100.0 if percent else 1.0
    value = f"{item[metric] * scale:.1f}"
    std = item.get(f"{metric}_std")
    if item.get("trials", 1) > 1 and std is not None:
        value += f" ± {std * scale:.1f}"
    return value


def _setting(item: dict[str, Any]) -> str:
    if item.get("epsilon") is None:
        return "–"
    budget = f"E={item['epsilon']:g} per entity" if item["method"] == ENTITY_METHOD else f"ε={item['epsilon']:g}"
    return f"{budget}, λ={item['lam']:g}, K={item['k']}"


def summary_table(summary: Sequence[dict[str, Any]], table: str, *, utility: bool) -> str:
    """A markdown table of one part of the summary (percentages, mean ± std over trials).

    Columns a run did not measure (the verbatim-evidence share without gold, the co-occurrence reader in an old
    summary) are left out rather than shown empty.
    """
    rows_here = [item for item in summary if item["table"] == table]
    columns = ["conn_f1", "rel_f1", "cooc_conn_f1", "cooc_rel_f1", "coverage", "verbatim_evidence"]
    columns += ["deleted_share", "expected_connection", "expected_relation"]
    columns = [
        c
        for c in columns
        if c not in ("cooc_conn_f1", "cooc_rel_f1", "verbatim_evidence") or any(c in item for item in rows_here)
    ]
    if utility:
        columns += ["answer_survival", "recall@2", "recall@5"]
    heads = {
        "conn_f1": "Conn. F1 ↓",
        "rel_f1": "Rel. F1 ↓",
        "cooc_conn_f1": "co-occ. Conn. F1 ↓",
        "cooc_rel_f1": "co-occ. Rel. F1 ↓",
        "verbatim_evidence": "evidence verbatim ↓",
        "coverage": "coverage",
        "deleted_share": "deleted",
        "expected_connection": "E[conn. kept]",
        "expected_relation": "E[rel. kept]",
        "answer_survival": "answer survival ↑",
        "recall@2": "BM25 R@2 ↑",
        "recall@5": "BM25 R@5 ↑",
    }
    rows = [(item["method"], _setting(item), *(_fmt(item, c) for c in columns)) for item in rows_here]
    return "\n".join(pipe_table(("method", "setting", *(heads[c] for c in columns)), rows))


def write_outputs(result: SweepResult, out: str | Path) -> list[Path]:
    """Write results.csv (every trial), summary.csv, tables.md and the plots into ``out``."""
    import pandas as pd

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    summary = result.summary()
    written = []
    for name, data in (("results.csv", result.rows), ("summary.csv", summary)):
        path = folder / name
        pd.DataFrame(data).to_csv(path, index=False)
        written.append(path)
    utility = bool(result.info.get("questions"))
    parts = [f"# {result.dataset}: {result.note}", ""]
    parts += [f"- {key}: {value}" for key, value in result.info.items()]
    parts += [f"- seconds {key}: {value:.1f}" for key, value in result.seconds.items()]
    for table, title in (("main", "Comparison"), ("lambda", "λ sweep"), ("k", "K sweep")):
        if any(item["table"] == table for item in summary):
            parts += ["", f"## {title}", "", summary_table(summary, table, utility=utility)]
    parts += seed_report.seed_tables(result, summary)
    path = folder / "tables.md"
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")
    written.append(path)
    written += plot(summary, folder, title=result.dataset, utility=utility)
    written += seed_report.plot_frontier(result, summary, folder)
    return written


def plot(summary: Sequence[dict[str, Any]], folder: Path, *, title: str, utility: bool) -> list[Path]:
    """Leakage vs ε, utility vs ε, the privacy–utility frontier, and the λ/K sweeps (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths: list[Path] = []
    main = [s for s in summary if s["table"] == "main"]
    ours = sorted((s for s in main if s["method"] == "RelGuard"), key=lambda s: s["epsilon"])
    baseline = {s["method"]: s for s in main if s["epsilon"] is None}

    def save(fig, name: str) -> None:
        path = folder / name
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        paths.append(path)

    def curve(ax, rows, x: str, metric: str, label: str, style: str = "o-") -> None:
        xs = [r[x] for r in rows if metric in r]
        ys = [100 * r[metric] for r in rows if metric in r]
        es = [100 * r.get(f"{metric}_std", 0.0) for r in rows if metric in r]
        if xs:
            ax.errorbar(xs, ys, yerr=es, fmt=style, capsize=3, label=label)

    if ours:
        fig, ax = plt.subplots(figsize=(5.5, 3.8))
        curve(ax, ours, "epsilon", "conn_f1", "Conn. F1 (attack)")
        curve(ax, ours, "epsilon", "rel_f1", "Rel. F1 (attack)")
        curve(ax, ours, "epsilon", "expected_connection", "E[connection kept]", "s--")
        curve(ax, ours, "epsilon", "expected_relation", "E[relation kept]", "s--")
        if "no defence" in baseline:
            ax.axhline(100 * baseline["no defence"]["conn_f1"], color="grey", ls=":", label="no defence Conn.")
            ax.axhline(100 * baseline["no defence"]["rel_f1"], color="black", ls=":", label="no defence Rel.")
        ax.set(xscale="log", xlabel="ε", ylabel="%", title=f"{title}: leakage vs ε (λ=1, K=10)")
        ax.legend(fontsize=7)
        save(fig, "leakage_vs_epsilon.png")
    if ours and utility:
        fig, ax = plt.subplots(figsize=(5.5, 3.8))
        curve(ax, ours, "epsilon", "answer_survival", "answer survival")
        curve(ax, ours, "epsilon", "recall@2", "BM25 recall@2")
        curve(ax, ours, "epsilon", "recall@5", "BM25 recall@5")
        if "no defence" in baseline:
            ax.axhline(100 * baseline["no defence"]["recall@5"], color="grey", ls=":", label="no defence R@5")
        ax.set(xscale="log", xlabel="ε", ylabel="%", title=f"{title}: utility vs ε (λ=1, K=10)")
        ax.legend(fontsize=7)
        save(fig, "utility_vs_epsilon.png")
    if main:
        fig, ax = plt.subplots(figsize=(5.5, 3.8))
        y_metric = "answer_survival" if utility else "deleted_share"
        for item in main:
            if y_metric not in item:
                continue
            y = 100 * (item[y_metric] if utility else 1 - item[y_metric])
            label = item["method"] + (f" ε={item['epsilon']:g}" if item["epsilon"] is not None else "")
            marker = "o" if item["method"] == "RelGuard" else ("^" if "null" in item["method"] else "s")
            ax.scatter(100 * item["rel_f1"], y, marker=marker, label=label)
        ax.legend(fontsize=6, loc="best")
        ylabel = "answer survival %" if utility else "relations kept (not deleted) %"
        ax.set(xlabel="Rel. F1 of the attack % (lower is more private)", ylabel=ylabel, title=f"{title}: frontier")
        save(fig, "frontier.png")
    for table, x, name, log in (("lambda", "lam", "sweep_lambda.png", True), ("k", "k", "sweep_k.png", False)):
        rows = sorted((s for s in summary if s["table"] == table), key=lambda s: s[x])
        if not rows:
            continue
        fig, ax = plt.subplots(figsize=(5.5, 3.8))
        curve(ax, rows, x, "conn_f1", "Conn. F1")
        curve(ax, rows, x, "rel_f1", "Rel. F1")
        if utility:
            curve(ax, rows, x, "answer_survival", "answer survival")
            curve(ax, rows, x, "recall@5", "BM25 recall@5")
        ax.set(xscale="log" if log else "linear", xlabel="λ" if x == "lam" else "K", ylabel="%")
        ax.set_title(f"{title}: {'λ' if x == 'lam' else 'K'} sweep at ε=5")
        ax.legend(fontsize=7)
        save(fig, name)
    return paths
