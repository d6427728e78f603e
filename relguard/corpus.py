"""Tables and views over a prepared corpus, for interactive use (the app, notebooks).

:func:`prepare_extracted` is :func:`relguard.pipeline.prepare` from an
extraction that is already done, so a front end can cache extraction by
content and rebuild only pools and distances when K changes. The row builders
return plain dicts, ready for a table widget.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from relguard import registry
from relguard.mechanism import check_k, check_lam
from relguard.pipeline import Prepared, build_pools, distance_matrix
from relguard.types import Document, Extraction, TypePair


def prepare_extracted(
    documents: Sequence[Document],
    extraction: Extraction,
    *,
    k: int,
    candidates: str | Any = "inventory",
    encoder: str | Any = "all-MiniLM-L6-v2",
    input_hashes: Mapping[str, str] | None = None,
    extractor_backend: Any = None,
) -> Prepared:
    """Pools and d_R for an existing extraction: the K-dependent part of :func:`relguard.prepare`.

    ``extractor_backend`` is the object that made ``extraction``; pass it so the report can name its model
    and count its calls (LLM backends).
    """
    k = check_k(k)
    generator = registry.create("candidates", candidates) if isinstance(candidates, str) else candidates
    encoder_obj = (
        registry.create("encoder", "sentence-transformers", model=encoder) if isinstance(encoder, str) else encoder
    )
    pools = build_pools(extraction.type_pairs, generator=generator, k=k)
    return Prepared(
        documents=tuple(documents),
        extraction=extraction,
        pools=pools,
        distances=distance_matrix(extraction.triples, pools, encoder_obj),
        k=k,
        generator=generator,
        encoder_id=getattr(encoder_obj, "model_id", str(encoder_obj)),
        input_hashes=dict(input_hashes or {}),
        extractor_backend=extractor_backend,
    )


def document_rows(extraction: Extraction) -> list[dict]:
    """One row per document: name, size, sentences, entities, relations found."""
    rows = []
    for d in extraction.documents:
        rows.append(
            {
                "document": d.document.name,
                "characters": len(d.document.text),
                "sentences": len(d.sentences),
                "entities": len(d.entities),
                "relations": sum(len(t.occurrences) for t in d.triples),
                "status": "extracted" if d.triples else "no relations found",
            }
        )
    return rows


def triple_rows(prepared: Prepared) -> list[dict]:
    """One row per canonical triple, in ``prepared.triples`` order (so row i is triple i)."""
    return [
        {
            "subject": t.subject,
            "subject type": t.subject_type,
            "relation": t.predicate,
            "object": t.object,
            "object type": t.object_type,
            "occurrences": len(t.occurrences),
            "documents": ", ".join(sorted({o.document for o in t.occurrences})),
        }
        for t in prepared.triples
    ]


def triple_label(prepared: Prepared, index: int) -> str:
    t = prepared.triples[index]
    return f"{t.subject} —{t.predicate}→ {t.object}"


def probability_rows(prepared: Prepared, index: int, probabilities: np.ndarray, *, lam: float) -> list[dict]:
    """The probability table of triple ``index``: each candidate's d_R, utility and probability, then null."""
    lam = check_lam(lam)
    triple = prepared.triples[index]
    pool = prepared.pool_for(triple)
    row = probabilities[index]
    rows = [
        {
            "outcome": predicate + (" (original)" if predicate == triple.predicate else ""),
            "d_R": float(prepared.distances[index, j]),
            "utility": -float(prepared.distances[index, j]),
            "probability": float(row[j]),
        }
        for j, predicate in enumerate(pool.predicates)
    ]
    rows.append({"outcome": "null (delete sentence)", "d_R": lam, "utility": -lam, "probability": float(row[-1])})
    return rows


def pool_heatmap(prepared: Prepared, type_pair: TypePair) -> tuple[list[str], list[str], np.ndarray]:
    """(original relations of the corpus under ``type_pair``, the pool, their d_R matrix)."""
    pool = prepared.pools[type_pair]
    rows: dict[str, int] = {}
    for index, triple in enumerate(prepared.triples):
        if triple.type_pair == type_pair:
            rows.setdefault(triple.predicate, index)
    originals = sorted(rows)
    matrix = prepared.distances[[rows[p] for p in originals]] if originals else np.zeros((0, pool.k))
    return originals, list(pool.predicates), matrix


def triples_per_document(prepared: Prepared) -> dict[str, int]:
    """How many canonical triples occur in each document: the m of the per-document bound e^{ε·m}."""
    counts: dict[str, int] = {d.name: 0 for d in prepared.documents}
    for triple in prepared.triples:
        for name in {o.document for o in triple.occurrences}:
            counts[name] = counts.get(name, 0) + 1
    return counts
