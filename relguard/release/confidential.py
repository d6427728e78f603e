"""The confidential mapping: what a release must never publish, in one clearly labelled file.

It maps every original relation to its sampled outcome and holds everything else that depends on the original
text: the counts that need the originals, the digests of the input files, the LLM backends' usage, the withheld
sentences and the self-audit over the original relations. It is written only on request, never into the zip.
"""

from __future__ import annotations

import json

from relguard.types import Release

MAPPING_FILE = "CONFIDENTIAL-mapping.json"
#: Words that open the file and that the leak scan looks for in every public file.
MARKER = "This file maps original relations to sampled ones"


def confidential_counts(release: Release) -> dict[str, int]:
    """Counts that need the original relations: kept with their original predicate, substituted, deleted."""
    relations = [(o, t) for o in release.outcomes for t in o.group.triples]
    return {
        "relations": len(relations),
        "unchanged": sum(1 for o, t in relations if o.kept(t)),
        "substituted": sum(1 for o, t in relations if not o.deleted and not o.kept(t)),
        "deleted": sum(1 for o, _ in relations if o.deleted),
    }


def build_confidential(release: Release) -> dict:
    """The CONFIDENTIAL file: original → sampled per relation, input digests, LLM usage, withheld sentences.

    Everything here depends on the original text; it is never part of a public export.
    """
    return {
        "CONFIDENTIAL": f"{MARKER} and undoes the protection. Do not publish it or store it with the release.",
        "counts": confidential_counts(release),
        "input_sha256": dict(release.confidential.get("input_sha256", {})),
        "backend_usage": release.confidential.get("backend_usage", {}),
        "withheld": list(release.confidential.get("withheld", [])),
        "outcomes": [
            {
                "subject": o.group.subject,
                "subject_type": o.group.subject_type,
                "object": o.group.object,
                "object_type": o.group.object_type,
                "sampled": o.predicate,
                "relations": [
                    {
                        "original": t.predicate,
                        "kept": o.kept(t),
                        "occurrences": [
                            {"document": occ.document, "sentence": occ.sentence, "span": occ.text}
                            for occ in t.occurrences
                        ],
                    }
                    for t in o.group.triples
                ],
            }
            for o in release.outcomes
        ],
        **({"self_audit": release.confidential["self_audit"]} if release.confidential.get("self_audit") else {}),
    }


def confidential_bytes(release: Release) -> bytes:
    """The confidential mapping as the bytes of :data:`MAPPING_FILE`."""
    return (json.dumps(build_confidential(release), indent=2, ensure_ascii=False) + "\n").encode("utf-8")
