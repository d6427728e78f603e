"""Where a paired QA run's F1 loss comes from: what happened to each question's supporting sentences.

Reads the ``qa_answers.csv`` of ``relguard evaluate --qa ... --seed S`` (teaching seeds, so the releases can be
drawn again), prepares the same corpus, redraws each release with its seed and sorts every question by the fates
of its supporting sentences in that release: verbatim (no slot), filled, restated, deleted as unfillable,
deleted by a null outcome, withheld. The F1 loss of each question is summed per combination of fates, so the
table says how much of the loss goes with the mechanism itself (a null, a fill with another relation) and how
much with the text rules that fail closed (restated, unfillable)::

    .venv/bin/python bench/qa_loss_sources.py --answers OUT/qa_answers.csv --seed 900 [--dataset hotpotqa --limit 50]

The loss per combination is the points it contributes to the mean loss over all questions and releases.
"""

from __future__ import annotations

import argparse
import collections
import csv

from relguard.evaluation.datasets import load_dataset
from relguard.pipeline import prepare

FATES = ("null-deleted", "withheld", "restated", "unfillable", "filled", "verbatim")


def fate(document, extraction, sentence: int) -> str:
    """What the release did to one original sentence."""
    if sentence in document.removed_sentences:
        return "null-deleted"
    if sentence in document.withheld_sentences:
        return "withheld"
    if sentence in document.restated_sentences:
        return "restated"
    if sentence in document.unfillable_sentences:
        return "unfillable"
    slotted = any(o.sentence == sentence for t in extraction.triples for o in t.occurrences)
    return "filled" if slotted else "verbatim"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--answers", required=True, help="qa_answers.csv of a run with --seed")
    parser.add_argument("--seed", type=int, required=True, help="the run's --seed (release i has seed + i)")
    parser.add_argument("--dataset", default="hotpotqa")
    parser.add_argument("--limit", type=int, default=50)
    parser.add_argument("--epsilon", type=float, default=5.0)
    parser.add_argument("--k", type=int, default=10)
    args = parser.parse_args()
    dataset = load_dataset(args.dataset, limit=args.limit)
    with open(args.answers, encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    original = {r["question"]: float(r["f1"]) for r in rows if r["corpus"] == "original"}
    numbers = sorted({int(float(r["release"])) for r in rows if r["corpus"] != "original"})
    prepared = prepare(dataset.documents, k=args.k)
    count: collections.Counter = collections.Counter()
    loss: collections.Counter = collections.Counter()
    for number in numbers:
        release = prepared.draw(epsilon=args.epsilon, lam=1.0, seed=args.seed + number)
        documents = {d.name: d for d in release.documents}
        extractions = {d.document.name: d for d in release.extraction.documents}
        scores = {
            r["question"]: float(r["f1"])
            for r in rows
            if r["corpus"] != "original" and int(float(r["release"])) == number
        }
        for question in dataset.questions:
            fates = set()
            for support in question.supports:
                extraction = extractions[support.document]
                sentence = next(s.index for s in extraction.sentences if s.start <= support.start < s.end)
                fates.add(fate(documents[support.document], extraction, sentence))
            key = " + ".join(f for f in FATES if f in fates)
            count[key] += 1
            loss[key] += 100 * (original[question.id] - scores[question.id])
    total = sum(count.values())
    print(f"{args.dataset}: {len(dataset.questions)} questions x {len(numbers)} releases at eps={args.epsilon:g}")
    print("| supporting sentences | questions | F1 loss (points of the mean) |\n|---|---:|---:|")
    for key in sorted(count, key=lambda k: -loss[k]):
        print(f"| {key} | {count[key]} | {loss[key] / total:+.1f} |")
    print(f"| all | {total} | {sum(loss.values()) / total:+.1f} |")
    for label, members in (
        ("with a restated or unfillable sentence", lambda k: "restated" in k or "unfillable" in k),
        ("with a null, none rewritten", lambda k: "null" in k and not ("restated" in k or "unfillable" in k)),
        ("filled and verbatim only", lambda k: set(k.split(" + ")) <= {"filled", "verbatim"}),
    ):  # fmt: skip
        keys = [k for k in count if members(k)]
        print(f"{label}: {sum(count[k] for k in keys)} questions, {sum(loss[k] for k in keys) / total:+.1f} points")


if __name__ == "__main__":
    main()
