"""Wall time of a full sanitize run over the HotpotQA paragraphs, as a ratio to spaCy's own nlp.pipe.

Both run in this process on the same texts with models already loaded; the
encoder's embedding cache is cleared before every sanitize run so each run
embeds its predicates from scratch. Prints the median of 3 runs of each.

    .venv/bin/python bench/sanitize_speed.py
"""

from __future__ import annotations

import statistics
import time

from common import hotpotqa_paragraphs

from relguard import registry
from relguard.embed import load_encoder
from relguard.pipeline import sanitize


def main(runs: int = 3) -> None:
    documents = hotpotqa_paragraphs()
    texts = [d.text for d in documents]
    extractor = registry.create("extractor", "spacy")
    encoder = load_encoder()
    spacy_times, relguard_times = [], []
    for _ in range(runs):
        start = time.perf_counter()
        list(extractor.nlp.pipe(texts, batch_size=64))
        spacy_times.append(time.perf_counter() - start)
        encoder._cache.clear()
        start = time.perf_counter()
        release = sanitize(documents, epsilon=5.0, lam=1.0, k=10, extractor=extractor, encoder=encoder)
        relguard_times.append(time.perf_counter() - start)
    spacy_median, relguard_median = statistics.median(spacy_times), statistics.median(relguard_times)
    print(f"documents: {len(documents)}, canonical triples: {len(release.outcomes)}")
    print(f"spaCy nlp.pipe  : median {spacy_median:.2f} s  runs {[round(t, 2) for t in spacy_times]}")
    print(f"relguard sanitize: median {relguard_median:.2f} s  runs {[round(t, 2) for t in relguard_times]}")
    print(f"ratio sanitize / nlp.pipe = {relguard_median / spacy_median:.2f}  (target <= 1.5)")


if __name__ == "__main__":
    main()
