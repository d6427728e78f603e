"""The seed-sanitizer table, the seconds per 100 documents and the frontier figure with every method.

Reads a :class:`~relguard.evaluation.sweep.SweepResult`'s rows: ``seed`` (one per variant and setting),
``seed-reference`` (RelGuard's utility per ε) and the main table's summary (RelGuard's and the
baselines' attack scores), so the figure puts every method on the same two axes.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from relguard.textable import markdown_table

COLUMNS = (
    ("conn_f1", "Conn. F1 ↓"),
    ("rel_f1", "Rel. F1 ↓"),
    ("cooc_conn_f1", "co-occ. Conn. F1 ↓"),
    ("cooc_rel_f1", "co-occ. Rel. F1 ↓"),
    ("verbatim_evidence", "evidence verbatim ↓"),
    ("answer_survival", "answer survival ↑"),
    ("recall@5", "BM25 R@5 ↑"),
    ("doc_similarity", "doc. similarity ↑"),
)
SANITIZER_SECONDS = (("promptgraph", "PromptGraph"), ("trip-rag", "TRIP-RAG"), ("pa-hdp", "PA-HDP (m=50)"))


def _pct(value: Any) -> str:
    return "–" if value is None else f"{100 * value:.1f}"


def _reference(result, epsilon: float) -> dict[str, float]:
    rows = [r for r in result.rows if r["table"] == "seed-reference" and r["epsilon"] == epsilon]
    keys = {k for r in rows for k in r if k in ("answer_survival", "doc_similarity")}
    return {k: statistics.fmean(r[k] for r in rows) for k in keys}


def seed_tables(result, summary: Sequence[dict[str, Any]]) -> list[str]:
    """Markdown lines: the seed-sanitizer table (RelGuard ε=5 and no defence first) and the timings."""
    seed = [r for r in result.rows if r["table"] == "seed"]
    if not seed:
        return []
    present = [(c, h) for c, h in COLUMNS if any(r.get(c) is not None for r in seed)]
    lines = ["", "## Seed sanitizers", ""]
    lines.append(f"Matched on {seed[0]['matched_on']} to RelGuard ε=5 ({_pct(seed[0]['target'])}).")
    rows = []
    for item in summary:
        if item["table"] == "main" and (
            item["method"] == "no defence" or (item["method"] == "RelGuard" and item.get("epsilon") == 5.0)
        ):
            extra = _reference(result, 5.0) if item["method"] == "RelGuard" else {"doc_similarity": 1.0}
            row = {**item, **{k: v for k, v in extra.items() if k not in item}}
            setting = "–" if item["epsilon"] is None else f"ε=5, λ={item['lam']:g}, K={int(item['k'])}"
            rows.append((item["method"], "", setting, *(_pct(row.get(c)) for c, _ in present), "–"))
    for r in seed:
        rows.append(
            (r["variant"], r["kind"], r["setting"], *(_pct(r.get(c)) for c, _ in present), int(r["spans_changed"]))
        )
    heads = ("method", "", "setting", *(h for _, h in present), "spans changed")
    lines += ["", *markdown_table(heads, rows), ""]
    documents = max(1, result.info.get("documents", 1))
    per100 = 100.0 / documents
    timing = [
        ("RelGuard (prepare + one draw)", result.seconds.get("prepare", 0.0) + result.seconds.get("relguard_draw", 0.0))
    ]
    timing += [(label, result.seconds[name]) for name, label in SANITIZER_SECONDS if name in result.seconds]
    lines += markdown_table(
        ("sanitizer", f"seconds ({documents} docs)", "seconds per 100 docs"),
        [(label, f"{s:.1f}", f"{s * per100:.1f}") for label, s in timing],
    )
    return lines


def plot_frontier(result, summary: Sequence[dict[str, Any]], folder: Path) -> list[Path]:
    """frontier_seed.png: attack Rel. F1 (targeted, co-occurrence) against utility for every method."""
    seed = [r for r in result.rows if r["table"] == "seed"]
    if not seed:
        return []
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    key = seed[0]["matched_on"]
    main = [
        s
        for s in summary
        if s["table"] == "main"
        and s["method"] in ("RelGuard", "no defence", "delete relation sentences", "Presidio masking")
    ]
    points: list[tuple[str, str, dict[str, Any]]] = []
    ours = sorted((s for s in main if s["method"] == "RelGuard"), key=lambda s: s["epsilon"])
    for item in ours:
        points.append(("RelGuard", f"ε={item['epsilon']:g}", {**item, **_reference(result, item["epsilon"])}))
    for item in main:
        if item["method"] != "RelGuard" and (key in item or item["method"] == "no defence"):
            points.append((item["method"], "", {"doc_similarity": 1.0, **item}))
    for r in seed:
        points.append((r["variant"], "default" if r["kind"] == "paper default" else "matched", r))
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.4), sharey=True)
    markers = {"default": "o", "matched": "D", "": "s"}
    colours: dict[str, Any] = {}
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for ax, metric, name in zip(
        axes, ("rel_f1", "cooc_rel_f1"), ("targeted attacker", "co-occurrence reader"), strict=True
    ):
        relguard = [p for m, _, p in points if m == "RelGuard" and metric in p and key in p]
        if relguard:
            ax.plot([100 * p[metric] for p in relguard], [100 * p[key] for p in relguard], "k-", lw=1, zorder=1)
        for method, tag, p in points:
            if metric not in p or key not in p or p[metric] is None:
                continue
            colour = colours.setdefault(method, "black" if method == "RelGuard" else cycle[len(colours) % len(cycle)])
            marker = "*" if method == "RelGuard" else markers.get(tag, "s")
            ax.scatter(
                100 * p[metric],
                100 * p[key],
                color=colour,
                marker=marker,
                s=60,
                zorder=2,
                label="RelGuard (ε along the line)" if method == "RelGuard" else f"{method} {tag}".strip(),
            )
            if method == "RelGuard":
                ax.annotate(tag, (100 * p[metric], 100 * p[key]), fontsize=7, xytext=(3, 3), textcoords="offset points")
        ax.set(xlabel="Rel. F1 % (lower is more private)", title=f"{result.dataset}: {name}")
    axes[0].set_ylabel(("answer survival" if key == "answer_survival" else "document similarity") + " % ↑")
    handles, labels = axes[0].get_legend_handles_labels()
    unique = dict(zip(labels, handles, strict=True))
    fig.legend(unique.values(), unique.keys(), fontsize=7, loc="center right")
    fig.tight_layout(rect=(0, 0, 0.78, 1))
    path = folder / "frontier_seed.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return [path]
