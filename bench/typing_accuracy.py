"""How often the entities of drawn relations are typed right, against Re-DocRED's gold entity types (dev).

A relation is drawn from the pool of its entities' type pair, so an entity typed wrong puts an impossible
statement into the release ("Riedel [a person] was founded in Sweden"). This scores every entity that ends up in
some relation group — the subject or object of a triple after the corpus-wide alignment — and that overlaps a
gold entity (the gold vertex whose mentions its own mentions overlap most; ties go to the first vertex).

Re-DocRED types its entities PER, ORG, LOC, MISC (and TIME, NUM, left out); RelGuard types them with OntoNotes
labels. A type counts as right when it is one the gold type allows:

* PER  ← PERSON
* ORG  ← ORG, and NORP (OntoNotes puts religious and political groups there: "Catholics", "Democrats",
  which Re-DocRED types ORG)
* LOC  ← GPE, LOC, FAC, and NORP (a nationality word stands for its country: "American" is gold LOC as often
  as MISC)
* MISC ← NORP, EVENT, WORK_OF_ART, PRODUCT, LAW, LANGUAGE

An entity typed ENTITY (:data:`relguard.types.UNSURE`: only the NER labelled it, nothing public settled its
kind) is given no kind, so it is neither right nor wrong for a pool: its pools hold what any kind can be. It counts
against "typed right" (the share of all entities given their right kind) and is printed apart: "wrong" is the share
of all entities given a kind they do not have, and "right of those given a kind" leaves the unsure out.

Also printed: the confusion table (gold type × our type), the accuracy per gold type and the share of gold
places typed PERSON or ORG. Only dev documents 0–399 may be scored: 400–499 is a reserved slice that no rule is
written from. ``--baseline-path`` runs the same scoring on another checkout of the library (e.g. the branch's
base commit, unpacked with ``git archive``), so before and after are read in one run::

    PYTHONPATH=$PWD .venv/bin/python bench/typing_accuracy.py --limit 100
    PYTHONPATH=$PWD .venv/bin/python bench/typing_accuracy.py --limit 400 --baseline-path /tmp/base
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from redocred_recall import DATA, rebuild

#: :data:`relguard.types.UNSURE`, spelled out so that a checkout from before it (``--baseline-path``) runs too.
UNSURE = "ENTITY"

#: :data:`relguard.types.FINER_KINDS`, spelled out for the same reason: a city, a region or a country is a GPE,
#: an award a WORK_OF_ART.
FINER_KINDS = {"CITY": "GPE", "REGION": "GPE", "COUNTRY": "GPE", "AWARD": "WORK_OF_ART"}

#: The first dev document of the reserved slice: nothing from it on may be scored here.
RESERVED = 400
ALLOWED: dict[str, frozenset[str]] = {
    "PER": frozenset({"PERSON"}),
    "ORG": frozenset({"ORG", "NORP"}),
    "LOC": frozenset({"GPE", "LOC", "FAC", "NORP"}),
    "MISC": frozenset({"NORP", "EVENT", "WORK_OF_ART", "PRODUCT", "LAW", "LANGUAGE"}),
}
COLUMNS = ("PERSON", "ORG", "GPE", "LOC", "FAC", "NORP", "EVENT", "WORK_OF_ART", "PRODUCT", "LAW", "LANGUAGE", UNSURE)


def gold_vertices(doc: dict) -> list[tuple[str, list[tuple[int, int]]]]:
    """Per gold vertex its type and the character spans of its mentions in the rebuilt text."""
    _, spans = rebuild(doc)
    vertices = []
    for vertex in doc["vertexSet"]:
        row = []
        for m in vertex:
            a, b = m["pos"]
            row.append((spans[m["sent_id"]][a][0], spans[m["sent_id"]][b - 1][1]))
        vertices.append((vertex[0]["type"], row))
    return vertices


def scored_entities(doc: dict, extraction) -> list[tuple[str, str, str]]:
    """(name, our type, gold type) of every entity in a triple of ``extraction`` that overlaps a gold vertex."""
    vertices = gold_vertices(doc)
    drawn = {(t.subject, t.subject_type) for t in extraction.triples}
    drawn |= {(t.object, t.object_type) for t in extraction.triples}
    rows = []
    for entity in extraction.entities:
        if (entity.name, entity.type) not in drawn:
            continue
        overlaps = Counter()
        for mention in entity.mentions:
            for index, (_, spans) in enumerate(vertices):
                if any(a < mention.end and mention.start < b for a, b in spans):
                    overlaps[index] += 1
        if overlaps:
            best = max(overlaps.values())
            index = min(i for i, n in overlaps.items() if n == best)
            rows.append((entity.name, entity.type, vertices[index][0]))
    return rows


def measure(start: int, limit: int, data: str = str(DATA)) -> dict:
    from relguard.extract.slots import align_corpus
    from relguard.extract.spacy import SpacyExtractor
    from relguard.types import Document

    docs = json.loads(Path(data).read_text())[start : start + limit]
    documents = [Document(f"{start + i:03d}.txt", rebuild(d)[0]) for i, d in enumerate(docs)]
    extractor = SpacyExtractor()
    began = time.perf_counter()
    extractions = align_corpus(list(extractor.extract_many(documents)))
    seconds = time.perf_counter() - began
    rows = [row for doc, ex in zip(docs, extractions, strict=True) for row in scored_entities(doc, ex)]
    return {"documents": len(docs), "seconds": round(seconds, 1), "rows": rows}


def report(result: dict, *, title: str, show: int = 0) -> dict:
    kinds = Counter(ours for _, ours, _ in result["rows"] if ours in FINER_KINDS)
    rows = [(name, FINER_KINDS.get(ours, ours), gold) for name, ours, gold in result["rows"] if gold in ALLOWED]
    confusion = Counter((gold, ours) for _, ours, gold in rows)
    right = sum(ours in ALLOWED[gold] for _, ours, gold in rows)
    unsure = sum(ours == UNSURE for _, ours, _ in rows)
    wrong = len(rows) - right - unsure
    places = [ours for _, ours, gold in rows if gold == "LOC"]
    wrong_places = sum(ours in ("PERSON", "ORG") for ours in places)
    summary = {
        "documents": result["documents"],
        "entities": len(rows),
        "right": right,
        "accuracy": right / max(len(rows), 1),
        "unsure": unsure / max(len(rows), 1),
        "wrong": wrong / max(len(rows), 1),
        "right_of_typed": right / max(len(rows) - unsure, 1),
        "places_typed_person_or_org": wrong_places / max(len(places), 1),
        "seconds": result["seconds"],
    }
    print(f"== {title}: {result['documents']} dev documents, extraction {result['seconds']} s")
    print(f"entities in drawn relations matched to gold: {len(rows)}; typed right {right} ({summary['accuracy']:.1%})")
    print(
        f"left unsure (ENTITY) {unsure} ({summary['unsure']:.1%}); "
        f"given a wrong kind {wrong} ({summary['wrong']:.1%}); "
        f"right of those given a kind {summary['right_of_typed']:.1%}"
    )
    print(f"places typed PERSON or ORG: {wrong_places} of {len(places)} ({summary['places_typed_person_or_org']:.1%})")
    if kinds:
        print(
            "finer kinds given (gazetteer places, awards by name): "
            + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items()))
        )
    print("gold  right/n   " + " ".join(f"{c[:6]:>6}" for c in COLUMNS))
    for gold in ALLOWED:
        n = sum(v for (g, _), v in confusion.items() if g == gold)
        ok = sum(v for (g, o), v in confusion.items() if g == gold and o in ALLOWED[gold])
        cells = " ".join(f"{confusion[(gold, c)]:>6}" for c in COLUMNS)
        print(f"{gold:<5} {ok:>4}/{n:<4} {cells}   {ok / max(n, 1):.1%}")
    if show:
        wrong = Counter((name, ours, gold) for name, ours, gold in rows if ours not in ALLOWED[gold])
        for (name, ours, gold), n in wrong.most_common(show):
            print(f"   {gold:<5} typed {ours:<12} {name} ×{n}")
    return summary


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=str(DATA), help="Re-DocRED dev_revised.json (default: %(default)s)")
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--limit", type=int, default=100, help="documents from --start (default 100)")
    parser.add_argument("--baseline-path", default=None, help="also score the library at this path (before)")
    parser.add_argument("--show", type=int, default=0, help="print the N commonest wrong types")
    parser.add_argument("--rows", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.start < 0 or args.start + args.limit > RESERVED:
        parser.error(f"dev documents {RESERVED}-499 are reserved: score documents 0-{RESERVED - 1} only")
    if args.rows:
        print(json.dumps(measure(args.start, args.limit, args.data)))
        return {}
    summaries = {}
    if args.baseline_path:
        env = {**os.environ, "PYTHONPATH": str(Path(args.baseline_path).resolve())}
        command = [sys.executable, __file__, "--rows", "--data", args.data]
        command += ["--start", str(args.start), "--limit", str(args.limit)]
        out = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        summaries["before"] = report(json.loads(out.stdout), title=f"before ({args.baseline_path})", show=args.show)
    summaries["after"] = report(measure(args.start, args.limit, args.data), title="this checkout", show=args.show)
    return summaries


if __name__ == "__main__":
    main()
