"""A whole corpus through one extractor, and its relations grouped by aligned entity pair (invariant 6)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, MutableMapping, Sequence

from relguard.extract.slots import align_corpus
from relguard.protocols import Extractor
from relguard.types import Document, DocumentExtraction, Extraction, Occurrence, RelationGroup, Triple

Progress = Callable[[int, int], None]


def group_relations(documents: Iterable[DocumentExtraction]) -> tuple[RelationGroup, ...]:
    """Merge every document's triples into relation groups keyed by the aligned entity pair (invariant 6).

    Equal canonical triples (same predicate too) in several documents become one triple with all its
    occurrences; triples on the same pair with different predicates stay apart inside the group, so the
    confidential mapping can still say what each original was. Groups come sorted by their public key.
    """
    merged: dict[tuple, list[Occurrence]] = {}
    for extraction in documents:
        for triple in extraction.triples:
            merged.setdefault(triple.key, []).extend(triple.occurrences)
    by_pair: dict[tuple, list[Triple]] = {}
    for key in sorted(merged):
        triple = Triple(*key, occurrences=tuple(merged[key]))
        by_pair.setdefault(triple.pair_key, []).append(triple)
    return tuple(RelationGroup(*pair, triples=tuple(triples)) for pair, triples in sorted(by_pair.items()))


def extract_corpus(
    documents: Sequence[Document],
    *,
    extractor: Extractor,
    progress: Progress | None = None,
    cache: MutableMapping[str, DocumentExtraction] | None = None,
    key: Callable[[Document], str] | None = None,
) -> Extraction:
    """Run ``extractor`` over the corpus (batched through its ``extract_many``) and group the relations.

    With ``cache`` (and ``key``, a function of a document's content), documents already extracted are taken
    from it and new results are put in it: the app keeps one cache per process, keyed by content, so a page
    rerun or a second session with the same files extracts nothing again. The cache holds each document as its
    extractor left it; names and types are then aligned across the corpus
    (:func:`~relguard.extract.slots.align_corpus`), so one entity keys its relation groups alike everywhere.
    """
    results: dict[int, DocumentExtraction] = {}
    missing = list(range(len(documents)))
    if cache is not None and key is not None:
        for index in list(missing):
            found = cache.get(key(documents[index]))
            if found is not None:
                results[index] = found
        missing = [i for i in missing if i not in results]
    done = len(results)
    for index, result in zip(missing, extractor.extract_many([documents[i] for i in missing]), strict=True):
        results[index] = result
        if cache is not None and key is not None:
            cache[key(documents[index])] = result
        done += 1
        if progress:
            progress(done, len(documents))
    ordered = align_corpus(tuple(results[i] for i in range(len(documents))))
    return Extraction(ordered, group_relations(ordered), extractor=extractor.model_id)
