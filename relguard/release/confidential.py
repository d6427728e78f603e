"""The confidential mapping: what a release must never publish, in one clearly labelled file.

It maps every original relation to its sampled outcome and holds everything else that depends on the original
text: the counts that need the originals, the digests of the input files, the LLM backends' usage, the withheld
sentences and the self-audit over the original relations. It is written only on request, never into a release
folder or its zip.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from relguard.release.wordings import worded_as
from relguard.types import PairKey

MAPPING_FILE = "CONFIDENTIAL-mapping.json"
#: Words that open the file and that the leak scan looks for in every public file.
MARKER = "This file maps original relations to sampled ones"


#: One group of the mapping: its public key, the sampled predicate, and per original predicate its occurrences.
MappingRow = tuple[PairKey, str | None, Sequence[tuple[str, Sequence[dict]]]]


def confidential_counts(rows: Sequence[MappingRow]) -> dict[str, int]:
    """Counts that need the original relations: kept with their original predicate, substituted, deleted.

    ``same_words`` counts the substituted relations whose every span reads, in the inventory's wordings, as the
    sampled predicate ("works for" drawn as ``works_for`` for an extracted ``worked_for``, whose tense the
    extractor merged): the output shows the original words there, which ``unchanged`` alone would hide from a
    reviewer.
    """
    relations = [
        (sampled, original, (key[1], key[3]), occurrences)
        for key, sampled, triples in rows
        for original, occurrences in triples
    ]
    substituted = [r for r in relations if r[0] is not None and r[0] != r[1]]
    return {
        "relations": len(relations),
        "unchanged": sum(1 for sampled, original, _, _ in relations if sampled == original),
        "substituted": len(substituted),
        "same_words": sum(
            1
            for sampled, _, pair, occurrences in substituted
            if occurrences and all(worded_as(o["span"], sampled, pair) for o in occurrences)
        ),
        "deleted": sum(1 for sampled, *_ in relations if sampled is None),
    }


def confidential_document(rows: Sequence[MappingRow], confidential: Mapping) -> dict:
    """The CONFIDENTIAL file: original → sampled per relation, input digests, LLM usage, withheld sentences.

    Everything here depends on the original text; it is never part of a public export. Every face builds the
    rows document by document (:class:`relguard.engine.tally.Relations`) and calls this with them.
    """
    return {
        "CONFIDENTIAL": f"{MARKER} and undoes the protection. Do not publish it or store it with the release.",
        "counts": confidential_counts(rows),
        "input_sha256": dict(confidential.get("input_sha256", {})),
        "backend_usage": confidential.get("backend_usage", {}),
        "withheld": list(confidential.get("withheld", [])),
        "outcomes": [
            {
                "subject": key[0],
                "subject_type": key[1],
                "object": key[2],
                "object_type": key[3],
                "sampled": sampled,
                "relations": [
                    {"original": original, "kept": sampled == original, "occurrences": list(occurrences)}
                    for original, occurrences in triples
                ],
            }
            for key, sampled, triples in rows
        ],
        **({"self_audit": confidential["self_audit"]} if confidential.get("self_audit") else {}),
        "unprotected_sentences": list(confidential.get("unprotected_sentences", [])),
    }


def confidential_bytes(document: Mapping) -> bytes:
    """The confidential mapping document (:func:`confidential_document`) as the bytes of its file."""
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
