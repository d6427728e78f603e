"""Exact expected HotpotQA answer survival (no sampling), and what each fail-closed slot rule costs in it.

``relguard evaluate`` samples releases, and on 30 questions one answer is 3.7 points, so two trials move by ±5.
This computes the expectation instead, on the same questions: a question survives when none of the groups in its
supporting sentences draws null (DESIGN invariant 7 deletes the sentence) and its answer is still there once every
slot is masked, so the expected survival is the mean over answerable questions of

    [answer outside every slot] · Π_{g in the supporting sentences} (1 − P(null | g))

with P(null | g) the mechanism's exact probability (``Prepared.probabilities``). Fills never remove other words,
so masking is the worst case for the answer string (a comma slot drawn as located_in gives the comma back; that is
not counted here). ``--without`` switches rules off for an ablation (module attributes of the spaCy extractor, set
in this process only)::

    .venv/bin/python bench/answer_survival_exact.py
    .venv/bin/python bench/answer_survival_exact.py --without comma --without comma,paths
    .venv/bin/python bench/answer_survival_exact.py --lam 1,1.5,2
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import numpy as np

from relguard.evaluation.datasets import load_dataset
from relguard.evaluation.metrics import contains_answer
from relguard.extract.spacy import SpacyExtractor, patterns
from relguard.pipeline import prepare

EPSILONS = (10.0, 5.0, 1.0)
#: Rule switches: the comma rule off, and the dependency-path limits as they were before issue 12's second pass.
ABLATIONS = {
    "comma": ("juxtaposed", lambda *args: ()),
    "paths": ("MAX_PATH_EDGES", 8),
    "inner": ("MAX_INNER_TOKENS", 6),
}


def expected_survival(limit: int, lams: tuple[float, ...] = (1.0,)) -> tuple[dict, int, int, float]:
    """({(λ, ε): expected survival}, slots, groups, mean groups per question) for the first ``limit`` HotpotQA
    questions at K = 10; the last is how many groups a question's supporting sentences hold on average, each of
    which deletes them when it draws null."""
    dataset = load_dataset("hotpotqa", limit=limit)
    documents = {d.name: d for d in dataset.documents}
    prepared = prepare(dataset.documents, k=10, extractor=SpacyExtractor())
    sentences = {d.document.name: d.sentences for d in prepared.extraction.documents}
    groups_of: dict[tuple[str, int], set[int]] = defaultdict(set)
    spans: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for number, group in enumerate(prepared.groups):
        for triple in group.triples:
            for o in triple.occurrences:
                groups_of[(o.document, o.sentence)].add(number)
                spans[o.document].append((o.start, o.end))
    masked = {name: _masked(d.text, spans[name]) for name, d in documents.items()}
    answerable = []
    for q in dataset.questions:
        if not any(contains_answer(" ".join(documents[p].text for p in q.passages), a) for a in q.answers):
            continue
        groups: set[int] = set()
        for support in q.supports:
            for sentence in sentences.get(support.document, ()):
                if min(sentence.end, support.end) > max(sentence.start, support.start):
                    groups |= groups_of.get((support.document, sentence.index), set())
        present = any(contains_answer(" ".join(masked[p] for p in q.passages), a) for a in q.answers)
        answerable.append((groups, present))
    result = {}
    for lam in lams:
        for epsilon in EPSILONS:
            null = prepared.probabilities(epsilon=epsilon, lam=lam)[:, -1]
            kept = [present * float(np.prod([1.0 - null[g] for g in groups])) for groups, present in answerable]
            result[(lam, epsilon)] = sum(kept) / max(1, len(kept))
    per_question = sum(len(groups) for groups, _ in answerable) / max(1, len(answerable))
    return result, sum(len(v) for v in spans.values()), len(prepared.groups), per_question


def _masked(text: str, spans: list[tuple[int, int]]) -> str:
    chars = list(text)
    for start, end in spans:
        chars[start:end] = "\x00" * (end - start)
    return "".join(chars)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, default=30, help="first N HotpotQA questions (default 30)")
    parser.add_argument("--without", action="append", default=[], help="comma-separated rules: comma, paths, inner")
    parser.add_argument("--lam", default="1", help="comma-separated λ values (default 1)")
    args = parser.parse_args()
    lams = tuple(float(value) for value in args.lam.split(","))
    for label in ["every rule", *args.without]:
        off = [] if label == "every rule" else label.split(",")
        saved = {name: getattr(patterns, ABLATIONS[name][0]) for name in off}
        for name in off:
            setattr(patterns, ABLATIONS[name][0], ABLATIONS[name][1])
        try:
            survival, slots, groups, per_question = expected_survival(args.limit, lams)
        finally:
            for name, value in saved.items():
                setattr(patterns, ABLATIONS[name][0], value)
        name = ("without " + label) if off else label
        print(f"{name:24} {slots:5} slots {groups:5} groups, {per_question:.1f} per question's supporting sentences")
        for lam in lams:
            shown = "  ".join(f"ε={e:g}: {100 * survival[(lam, e)]:.1f} %" for e in EPSILONS)
            print(f"    λ={lam:g}  {shown}", flush=True)


if __name__ == "__main__":
    main()
