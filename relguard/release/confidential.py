"""The confidential mapping: what a release must never publish, in one clearly labelled file.

It maps every original relation to its sampled outcome and holds everything else that depends on the original
text: the counts that need the originals, the digests of the input files, the LLM backends' usage, the withheld
sentences and the self-audit over the original relations. It is written only on request, never into the zip.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from relguard.release.wordings import worded_as
from relguard.types import Release

MAPPING_FILE = "CONFIDENTIAL-mapping.json"
#: Words that open the file and that the leak scan looks for in every public file.
MARKER = "This file maps original relations to sampled ones"


#: One group of the mapping: its public key, the sampled predicate, and per original predicate its occurrences.
MappingRow = tuple[tuple[str, str, str, str], str | None, Sequence[tuple[str, Sequence[dict]]]]


def mapping_rows(release: Release) -> list[MappingRow]:
    return [
        (
            o.group.key,
            o.predicate,
            [
                (t.predicate, [{"document": c.document, "sentence": c.sentence, "span": c.text} for c in t.occurrences])
                for t in o.group.triples
            ],
        )
        for o in release.outcomes
    ]


def confidential_counts(release: Release | Sequence[MappingRow]) -> dict[str, int]:
    """Counts that need the original relations: kept with their original predicate, substituted, deleted.

    ``same_words`` counts the substituted relations whose every span reads, in the inventory's wordings, as the
    sampled predicate ("works for" drawn as ``works_for`` for an extracted ``worked_for``, whose tense the
    extractor merged): the output shows the original words there, which ``unchanged`` alone would hide from a
    reviewer.
    """
    rows = mapping_rows(release) if isinstance(release, Release) else release
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


def build_confidential(release: Release) -> dict:
    """The CONFIDENTIAL file of an in-memory release (see :func:`confidential_document`)."""
    return confidential_document(mapping_rows(release), release.confidential)


def confidential_document(rows: Sequence[MappingRow], confidential: Mapping) -> dict:
    """The CONFIDENTIAL file: original → sampled per relation, input digests, LLM usage, withheld sentences.

    Everything here depends on the original text; it is never part of a public export. The batch engines build
    the rows while documents stream past and call this with them, so both write the same file.
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
    }


def confidential_bytes(release: Release | dict) -> bytes:
    """The confidential mapping as the bytes of :data:`MAPPING_FILE` (of a release, or of a built document)."""
    document = build_confidential(release) if isinstance(release, Release) else release
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
