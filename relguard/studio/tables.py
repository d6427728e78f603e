"""Tables and views over a prepared corpus, for interactive use (the app, notebooks).

The row builders return plain dicts, ready for a table widget; a front end gets
its :class:`~relguard.pipeline.Prepared` from :func:`relguard.pipeline.prepare_extracted`
(extraction cached by content, pools and distances rebuilt when K changes).
"""

from __future__ import annotations

import numpy as np

from relguard.extract.unprotected import unprotected_in
from relguard.pipeline import Prepared
from relguard.settings import check_lam
from relguard.textable import plural
from relguard.types import Extraction, Release, TypePair


def document_rows(extraction: Extraction) -> list[dict]:
    """One row per document: name, size, sentences, entities, slots, and what was left unprotected."""
    rows = []
    for d in extraction.documents:
        unprotected = len(unprotected_in(d))
        if not d.triples:
            status = "⚠ no relation slot: released word for word"
        elif unprotected:
            status = f"⚠ {plural(unprotected, 'sentence')} with two entities and no slot"
        else:
            status = "every sentence with two entities has a slot"
        rows.append(
            {
                "document": d.document.name,
                "characters": len(d.document.text),
                "sentences": len(d.sentences),
                "entities": len(d.entities),
                "relation slots": sum(len(t.occurrences) for t in d.triples),
                "unprotected sentences": unprotected,
                "status": status,
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
            "sentence": _sentence_of(prepared, t.occurrences[0]) if t.occurrences else "",
            "documents": ", ".join(sorted({o.document for o in t.occurrences})),
        }
        for t in prepared.triples
    ]


def _sentence_of(prepared: Prepared, occurrence) -> str:
    doc = next(d for d in prepared.extraction.documents if d.document.name == occurrence.document)
    return doc.sentence_text(occurrence.sentence)


def group_label(prepared: Prepared, index: int) -> str:
    """A relation group as the analyst reads it: the entity pair and its original relations (confidential)."""
    g = prepared.groups[index]
    return f"{g.subject} —{' / '.join(g.predicates)}→ {g.object}"


def probability_rows(prepared: Prepared, index: int, probabilities: np.ndarray, *, lam: float) -> list[dict]:
    """The probability table of relation group ``index``: each candidate's d_R, utility and probability, then null.

    A group's d_R to a candidate is the smallest over its relations (its utility, see
    :func:`relguard.pipeline.group_distances`).
    """
    lam = check_lam(lam)
    group = prepared.groups[index]
    pool = prepared.pool_for(group)
    row = probabilities[index]
    rows = [
        {
            "outcome": predicate + (" (original)" if predicate in group.predicates else ""),
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
    matrix = prepared.triple_distances[[rows[p] for p in originals]] if originals else np.zeros((0, pool.k))
    return originals, list(pool.predicates), matrix


def groups_per_document(prepared: Prepared) -> dict[str, int]:
    """How many relation groups occur in each document: the m of the per-document bound e^{ε·m}."""
    counts: dict[str, int] = {d.name: 0 for d in prepared.documents}
    for group in prepared.groups:
        for name in group.documents:
            counts[name] = counts.get(name, 0) + 1
    return counts


def relation_review_rows(prepared: Prepared, release: Release, *, close_threshold: float) -> list[dict]:
    """The confidential per-relation view: each original relation, what was drawn for it, where it stands.

    The outcome class uses the one calibrated "close" cut-off (:mod:`relguard.privacy.closeness`), the same the
    expected outcomes on Tune and the evaluation use.
    """
    rows = []
    by_name = {d.document.name: d for d in release.extraction.documents}
    for group_index, outcome in enumerate(release.outcomes):
        pool = prepared.pools[outcome.group.type_pair].predicates
        for triple in outcome.group.triples:
            row_index = prepared.triples.index(triple)
            if outcome.deleted:
                kind, distance = "deleted", None
            else:
                distance = float(prepared.triple_distances[row_index, pool.index(outcome.predicate)])
                kind = "kept" if outcome.kept(triple) else "close" if distance <= close_threshold else "distant"
            for occ in triple.occurrences:
                rows.append(
                    {
                        "document": occ.document,
                        "sentence": by_name[occ.document].sentence_text(occ.sentence),
                        "subject": triple.subject,
                        "original": triple.predicate,
                        "object": triple.object,
                        "drawn": outcome.predicate or "(deleted)",
                        "outcome": kind,
                        "d_R": distance,
                        "group": group_index,
                    }
                )
    return rows


def close_summary(probabilities: np.ndarray, *, epsilon: float) -> str | None:
    """A plain sentence when the draw among candidates is close to uniform, else None.

    At small ε every candidate is about as likely as every other: the table would suggest a choice that the
    mechanism barely makes, so the page says it in words.
    """
    candidates = probabilities[:-1]
    if not len(candidates) or candidates.min() <= 0:
        return None
    ratio = float(candidates.max() / candidates.min())
    if ratio >= 1.5:
        return None
    return (
        f"At ε = {epsilon:g} the choice among the candidates is close to uniform: the likeliest is only "
        f"{ratio:.2f}× as likely as the least likely, so the drawn relation says little about the original."
    )
