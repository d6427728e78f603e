"""Recall of gold entity pairs on Re-DocRED dev by an extractor: the offline spaCy one, or the LLM one.

Usage::

    .venv/bin/python bench/redocred_recall.py --limit 100                      # spaCy (offline)
    .venv/bin/python bench/redocred_recall.py --limit 100 --base-url http://localhost:11434/v1 \\
        --llm-model qwen2.5:7b-instruct                                        # LLM extractor, same scoring

Documents are rebuilt from Re-DocRED's tokens (spaces between tokens except before closing punctuation
and after opening brackets), so every gold mention has exact character offsets. An extracted entity is
aligned to a gold entity (vertex) when one of its mentions overlaps a gold mention, or its canonical name
equals a gold mention's name (case-insensitive). A gold pair (h, t) is recalled when some extracted triple
has a subject aligned to h and an object aligned to t (``directed``), or either way round (``unordered``).
RelGuard protects only relations between named entities (OntoNotes inventory), so recall is also given on
the in-scope pairs, whose endpoints are both PER/ORG/LOC/MISC (not TIME or NUM). Pair precision is the
share of extracted (aligned) entity pairs that are gold pairs.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from relguard.types import Document

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "redocred_dev_revised.json"
NO_SPACE_BEFORE = {".", ",", ":", ";", "!", "?", ")", "]", "}", "'s", "'", "n't", "%", "''"}
NO_SPACE_AFTER = {"(", "[", "{", "``", "$"}
IN_SCOPE = {"PER", "ORG", "LOC", "MISC"}


def rebuild(doc: dict) -> tuple[str, list[list[tuple[int, int]]]]:
    """Text of a Re-DocRED document and, per sentence, the (start, end) character span of every token."""
    pieces: list[str] = []
    spans: list[list[tuple[int, int]]] = []
    length, previous = 0, None
    for sentence in doc["sents"]:
        row = []
        for token in sentence:
            if previous is not None and token not in NO_SPACE_BEFORE and previous not in NO_SPACE_AFTER:
                pieces.append(" ")
                length += 1
            row.append((length, length + len(token)))
            pieces.append(token)
            length += len(token)
            previous = token
        spans.append(row)
    return "".join(pieces), spans


def gold(doc: dict, spans) -> tuple[list[list[tuple[int, int, str]]], set[tuple[int, int]]]:
    """Per vertex its mention spans and names; the set of gold (head, tail) vertex pairs."""
    vertices = []
    for vertex in doc["vertexSet"]:
        mentions = []
        for m in vertex:
            a, b = m["pos"]
            row = spans[m["sent_id"]]
            mentions.append((row[a][0], row[b - 1][1], m["name"]))
        vertices.append(mentions)
    pairs = {(label["h"], label["t"]) for label in doc.get("labels", []) if label["h"] != label["t"]}
    return vertices, pairs


def align(extraction, vertices) -> dict[str, set[int]]:
    """Canonical entity name -> gold vertices it stands for (mention overlap or equal names)."""
    names = {}
    for index, mentions in enumerate(vertices):
        for _, _, name in mentions:
            names.setdefault(name.casefold(), set()).add(index)
    aligned: dict[str, set[int]] = {}
    for entity in extraction.entities:
        found = set(names.get(entity.name.casefold(), set()))
        for mention in entity.mentions:
            for index, mentions in enumerate(vertices):
                if any(a < mention.end and mention.start < b for a, b, _ in mentions):
                    found.add(index)
        aligned[entity.name] = found
    return aligned


def score(docs: list[dict], extractions) -> dict:
    totals = dict.fromkeys(
        ("gold", "gold_in_scope", "directed", "unordered", "in_scope_directed", "in_scope_unordered"), 0
    )
    extracted_pairs = correct_pairs = triples = 0
    for doc, extraction in zip(docs, extractions, strict=True):
        _, spans = rebuild(doc)
        vertices, pairs = gold(doc, spans)
        aligned = align(extraction, vertices)
        found: set[tuple[int, int]] = set()
        for triple in extraction.triples:
            triples += 1
            for h in aligned.get(triple.subject, ()):
                for t in aligned.get(triple.object, ()):
                    if h != t:
                        found.add((h, t))
        extracted_pairs += len(found)
        correct_pairs += len(found & pairs)
        for h, t in pairs:
            in_scope = doc["vertexSet"][h][0]["type"] in IN_SCOPE and doc["vertexSet"][t][0]["type"] in IN_SCOPE
            directed = (h, t) in found
            unordered = directed or (t, h) in found
            totals["gold"] += 1
            totals["directed"] += directed
            totals["unordered"] += unordered
            if in_scope:
                totals["gold_in_scope"] += 1
                totals["in_scope_directed"] += directed
                totals["in_scope_unordered"] += unordered
    return {
        "documents": len(docs),
        "triples_extracted": triples,
        "gold_pairs": totals["gold"],
        "gold_pairs_in_scope": totals["gold_in_scope"],
        "recall_directed": totals["directed"] / max(totals["gold"], 1),
        "recall_unordered": totals["unordered"] / max(totals["gold"], 1),
        "recall_in_scope_directed": totals["in_scope_directed"] / max(totals["gold_in_scope"], 1),
        "recall_in_scope_unordered": totals["in_scope_unordered"] / max(totals["gold_in_scope"], 1),
        "pair_precision": correct_pairs / max(extracted_pairs, 1),
    }


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--limit", type=int, default=500, help="first N dev documents (default all 500)")
    parser.add_argument("--base-url", default=None, help="score the LLM extractor at this OpenAI-compatible URL")
    parser.add_argument("--llm-model", default=None, help="model name (default $RELGUARD_LLM_MODEL)")
    parser.add_argument("--api-key-env", default=None)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--json", action="store_true", help="print the result as JSON only")
    args = parser.parse_args(argv)
    docs = json.loads(Path(args.data).read_text())[: args.limit]
    documents = [Document(f"{i:03d}.txt", rebuild(d)[0]) for i, d in enumerate(docs)]
    if args.base_url or args.llm_model:
        from relguard.extract.llm import LLMExtractor
        from relguard.llm import LLMConfig

        config = LLMConfig.from_env(
            model=args.llm_model, base_url=args.base_url, api_key_env=args.api_key_env,
            max_concurrency=args.concurrency,
        )  # fmt: skip
        extractor = LLMExtractor(config)
    else:
        from relguard.extract.spacy import SpacyExtractor

        extractor = SpacyExtractor()
    started = time.perf_counter()
    extractions = list(extractor.extract_many(documents))
    result = {"extractor": extractor.model_id, **score(docs, extractions)}
    result["seconds"] = round(time.perf_counter() - started, 1)
    if hasattr(extractor, "provenance"):
        result["llm"] = extractor.provenance()
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        for key, value in result.items():
            print(f"{key:28} {value:.3f}" if isinstance(value, float) else f"{key:28} {value}")
    return result


if __name__ == "__main__":
    main()
