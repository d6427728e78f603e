"""Interactivity of RelGuard Studio's Tune page: rerun latency and the library part of a rerun.

1. With the sample corpus loaded, the median wall time of 20 ε-slider changes on
   the Tune page, each a full AppTest rerun (app.py + pages/tune.py), against a
   reference in the same process: the rerun of a one-slider script (Streamlit's
   own fixed cost). Target: <= 300 ms.
2. The library part of that rerun (probability table, exact expectations, the
   ε curves, the selected triple's rows) for a 1,000-triple corpus taken from
   the HotpotQA paragraphs in ../shared/data, median of 20, against a reference
   of one ``outcome_probabilities`` call on the same distances. Target: <= 50 ms.

    .venv/bin/python bench/app_rerun.py
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from common import hotpotqa_paragraphs

from relguard import registry
from relguard.extract.corpus import group_relations
from relguard.pipeline import prepare_extracted
from relguard.privacy.closeness import default_threshold
from relguard.privacy.expected import OutcomeModel, epsilon_grid
from relguard.privacy.mechanism import outcome_probabilities
from relguard.studio.tables import probability_rows
from relguard.types import Extraction

ROOT = Path(__file__).resolve().parents[1]
EPSILONS = epsilon_grid(0.01, 100.0, per_decade=10)
RUNS = 20


def median_ms(times: list[float]) -> float:
    return 1000 * statistics.median(times)


def rerun_latency() -> tuple[float, float]:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    at.run()
    next(b for b in at.button if b.label == "Load the sample corpus").click().run()
    at.switch_page("pages/tune.py").run()
    assert not at.exception, at.exception
    values = [0.5, 2.0, 5.0, 1.0]
    times = []
    for i in range(RUNS):
        start = time.perf_counter()
        at.select_slider(key="w_epsilon").set_value(values[i % len(values)]).run()
        times.append(time.perf_counter() - start)
        assert not at.exception, at.exception
    reference = AppTest.from_string(
        "import streamlit as st\nst.select_slider('e', options=[0.5, 1.0, 2.0, 5.0], key='e')\n"
    )
    reference.run()
    ref_times = []
    for i in range(RUNS):
        start = time.perf_counter()
        reference.select_slider(key="e").set_value(values[i % len(values)]).run()
        ref_times.append(time.perf_counter() - start)
    return median_ms(times), median_ms(ref_times)


def library_part(target: int = 1000) -> tuple[float, float, int]:
    extractor = registry.create("extractor", "spacy")
    documents, results = [], []
    for batch_start in range(0, 10_000, 100):
        batch = hotpotqa_paragraphs()[batch_start : batch_start + 100]
        if not batch:
            break
        documents += batch
        results += list(extractor.extract_many(batch))
        if len(group_relations(results)) >= target:
            break
    groups = group_relations(results)[:target]
    extraction = Extraction(tuple(results), groups, extractor=extractor.model_id)
    prepared = prepare_extracted(documents, extraction, k=10)
    model = OutcomeModel.from_prepared(prepared, close_threshold=default_threshold())
    values = [0.5, 2.0, 5.0, 1.0]
    times, ref_times = [], []
    for i in range(RUNS):
        epsilon = values[i % len(values)]
        start = time.perf_counter()
        table = prepared.probabilities(epsilon=epsilon, lam=1.0)
        model.expected(epsilon=epsilon, lam=1.0, probabilities=table)
        model.curve(EPSILONS[::2], lam=1.0)
        probability_rows(prepared, i % len(groups), table, lam=1.0)
        times.append(time.perf_counter() - start)
        start = time.perf_counter()
        outcome_probabilities(prepared.distances, epsilon=epsilon, lam=1.0)
        ref_times.append(time.perf_counter() - start)
    return median_ms(times), median_ms(ref_times), len(prepared.triples)


def main() -> None:
    rerun, reference = rerun_latency()
    print(f"Tune page rerun on an ε change (sample corpus): median {rerun:.0f} ms over {RUNS} reruns (target <= 300)")
    print(f"  reference, one-slider script rerun: median {reference:.1f} ms; ratio {rerun / reference:.1f}")
    library, lib_reference, m = library_part()
    print(f"library part of a rerun, {m}-triple corpus: median {library:.1f} ms over {RUNS} (target <= 50)")
    print(
        f"  reference, one outcome_probabilities call: median {lib_reference:.2f} ms; "
        f"ratio {library / lib_reference:.1f}"
    )


if __name__ == "__main__":
    main()
