"""What a release says about how it was made: public provenance for the report, the rest for the mapping.

Public: versions, backends by name and model, the pools and their hash, how many review edits, and when it was
drawn. Confidential: the digests of the input files, what the LLM backends spent (calls, tokens, dropped replies)
and the edits themselves — each a function of the original text, so publishing it would undo the protection
(DESIGN invariant 12).
"""

from __future__ import annotations

import platform
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from datetime import UTC, datetime

from relguard.candidates.exclusion import policy_of, sensitive_of
from relguard.candidates.pools import pool_hash
from relguard.extract.review import Review, edits_summary
from relguard.protocols import Extractor, PoolGenerator
from relguard.types import CandidatePool, TypePair
from relguard.version import __version__

#: Provenance fields of a backend that are public: they name it and its settings, nothing computed from text.
PUBLIC_BACKEND_FIELDS = ("backend", "model", "prompt_versions", "window_sentences", "synonym_threshold")


def provenance(
    *,
    extractor_id: str,
    encoder_id: str,
    encoder_runtime: str = "",
    generator: PoolGenerator,
    pools: Mapping[TypePair, CandidatePool],
    backends: Sequence[tuple[str, Extractor | PoolGenerator | None]],
    review: Review,
    input_hashes: Mapping[str, str],
    teaching: bool,
) -> tuple[dict, dict]:
    """(public provenance for the report, confidential details for the mapping file).

    A teaching draw (``teaching``) records no creation time: it is reproducible by design, and without a clock in
    it a replay of its config writes the same bytes.
    """
    sources = sorted({p.source for p in pools.values()})
    public_backends, usage = backend_provenance(backends)
    inventory = generator.content_hash()
    public = {
        "relguard_version": __version__,
        "python": platform.python_version(),
        "extractor": extractor_id,
        "encoder": encoder_id,
        **({"encoder_runtime": encoder_runtime} if encoder_runtime else {}),
        "candidates": generator.name,
        "pool_source": ", ".join(sources),
        "pool_hash": pool_hash(pools),
        **({"inventory_hash": inventory} if inventory else {}),
        "created": None if teaching else datetime.now(UTC).isoformat(timespec="seconds"),
        **({"backends": public_backends} if public_backends else {}),
        **({"review_edits": edits_summary(review)} if review else {}),
        **({"exclusion_policy": policy.public()} if (policy := policy_of(generator)) else {}),
        "sensitive_policy": sensitive.public() if (sensitive := sensitive_of(generator)) else None,
    }
    confidential = {
        "input_sha256": dict(input_hashes),
        **({"backend_usage": usage} if usage else {}),
        **({"review": [asdict(e) for e in review.edits]} if review else {}),
    }
    return public, confidential


def backend_provenance(backends: Sequence[tuple[str, Extractor | PoolGenerator | None]]) -> tuple[dict, dict]:
    """Per role, the public description of each LLM backend and its confidential usage.

    Read at draw time, so calls made while drawing (LLM verbalization) are counted too. Only a backend that names
    a model (an LLM) is described: an offline one adds nothing here, so a release reads the same whether its
    extractor ran in this process or in another (a worker, a Ray actor) that the report never sees.
    """
    public, usage = {}, {}
    for role, backend in backends:
        details = backend.provenance() if backend is not None else {}
        if "model" in details:
            public[role] = {k: details[k] for k in PUBLIC_BACKEND_FIELDS if k in details}
            usage[role] = {k: v for k, v in details.items() if k not in PUBLIC_BACKEND_FIELDS}
    return public, usage
