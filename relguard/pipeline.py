"""Orchestration of the four steps: extract → pools → distances → sample + reconstruct.

:func:`prepare` does everything that does not depend on ε and λ (the expensive,
cacheable part); :meth:`Prepared.probabilities` and :meth:`Prepared.draw` do
the rest in milliseconds, which is what lets the app redraw while a slider
moves. :func:`sanitize` is the one-call version the CLI uses.
"""

from __future__ import annotations

import hashlib
import json
import platform
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np

from relguard import __version__, registry
from relguard.embed import predicate_text
from relguard.errors import PoolError
from relguard.mechanism import (
    check_epsilon,
    check_k,
    check_lam,
    outcome_probabilities,
    sample_outcomes,
)
from relguard.reconstruct import FormVerbalizer, Sampled, fill, mask
from relguard.types import (
    CandidatePool,
    Document,
    DocumentExtraction,
    Extraction,
    Guarantee,
    Outcome,
    Release,
    SanitizedDocument,
    Triple,
    TypePair,
)

Progress = Callable[[int, int], None]


def merge_triples(documents: Iterable[DocumentExtraction]) -> tuple[Triple, ...]:
    """Merge equal canonical triples across documents, keeping every occurrence (DESIGN invariant 6)."""
    merged: dict[tuple, list] = {}
    for extraction in documents:
        for triple in extraction.triples:
            entry = merged.setdefault(triple.key, [triple, []])
            entry[1].extend(triple.occurrences)
    return tuple(Triple(*key, occurrences=tuple(occurrences)) for key, (_, occurrences) in sorted(merged.items()))


def extract_corpus(documents: Sequence[Document], *, extractor: Any, progress: Progress | None = None) -> Extraction:
    """Run ``extractor`` over the corpus (batched through its ``extract_many``) and merge triples."""
    results: list[DocumentExtraction] = []
    for number, result in enumerate(extractor.extract_many(documents), start=1):
        results.append(result)
        if progress:
            progress(number, len(documents))
    return Extraction(tuple(results), merge_triples(results), extractor=getattr(extractor, "model_id", ""))


def build_pools(type_pairs: Iterable[TypePair], *, generator: Any, k: int) -> dict[TypePair, CandidatePool]:
    """One public pool of exactly K predicates per ordered type pair (DESIGN invariants 1-2)."""
    k = check_k(k)
    pools: dict[TypePair, CandidatePool] = {}
    for pair in sorted(set(type_pairs)):
        pool = generator.generate(pair, k)
        if pool.k != k or len(set(pool.predicates)) != k:
            raise PoolError(
                f"candidate generator {getattr(generator, 'name', generator)!r} returned {pool.k} "
                f"distinct predicates for {pair[0]}->{pair[1]}, expected exactly K={k}"
            )
        pools[pair] = pool
    return pools


def pool_hash(pools: Mapping[TypePair, CandidatePool]) -> str:
    """SHA-256 of the pools actually used, so a reader can check the release used public pools."""
    canonical = {f"{a}|{b}": list(p.predicates) for (a, b), p in sorted(pools.items())}
    return hashlib.sha256(json.dumps(canonical, sort_keys=True).encode()).hexdigest()


def distance_matrix(triples: Sequence[Triple], pools: Mapping[TypePair, CandidatePool], encoder: Any) -> np.ndarray:
    """(m, K) d_R from each canonical triple's predicate to its pool's candidates.

    Every text the encoder must read (originals and candidates of all type pairs) goes
    through one batched call first; the per-pair distances then come from its cache.
    """
    k = next(iter(pools.values())).k if pools else 0
    distances = np.zeros((len(triples), k))
    by_pair: dict[TypePair, list[int]] = {}
    for index, triple in enumerate(triples):
        by_pair.setdefault(triple.type_pair, []).append(index)
    warm = getattr(encoder, "embed_texts", None)
    if warm is not None:
        texts = [predicate_text(triples[i].predicate, pair) for pair, rows in by_pair.items() for i in rows]
        texts += [predicate_text(c, pair) for pair in by_pair for c in pools[pair].predicates]
        warm(list(dict.fromkeys(texts)))
    for pair, rows in by_pair.items():
        originals = [triples[i].predicate for i in rows]
        distances[rows] = encoder.distances(originals, list(pools[pair].predicates), pair)
    return distances


@dataclass(frozen=True)
class Prepared:
    """Everything about a corpus that does not depend on ε or λ: extraction, pools and d_R."""

    documents: tuple[Document, ...]
    extraction: Extraction
    pools: Mapping[TypePair, CandidatePool]
    distances: np.ndarray = field(compare=False)
    k: int
    generator: Any = field(compare=False, repr=False)
    encoder_id: str = ""
    input_hashes: Mapping[str, str] = field(default_factory=dict, compare=False)
    extractor_backend: Any = field(default=None, compare=False, repr=False)

    @property
    def triples(self) -> tuple[Triple, ...]:
        return self.extraction.triples

    def pool_for(self, triple: Triple) -> CandidatePool:
        return self.pools[triple.type_pair]

    def probabilities(self, *, epsilon: float, lam: float, allow_null: bool = True) -> np.ndarray:
        """(m, K+1) outcome probabilities, last column null; cheap, recomputed on demand.

        ``allow_null=False`` is the no-deletion ablation (paper Table 3): the null column is 0.
        """
        if not self.triples:
            return np.zeros((0, self.k + 1))
        return outcome_probabilities(self.distances, epsilon=epsilon, lam=lam, allow_null=allow_null)

    def draw(self, *, epsilon: float, lam: float, seed: int | None = None, allow_null: bool = True) -> Release:
        """Sample one outcome per canonical triple and rewrite every document.

        ``allow_null=False`` never deletes (the paper's Table 3 ablation, for evaluation only).
        """
        epsilon, lam = check_epsilon(epsilon), check_lam(lam)
        if self.triples:
            chosen = sample_outcomes(self.distances, epsilon=epsilon, lam=lam, seed=seed, allow_null=allow_null)
        else:
            chosen = np.zeros(0, dtype=np.int64)
        outcomes = tuple(
            Outcome(t, None if c == self.k else self.pools[t.type_pair].predicates[c])
            for t, c in zip(self.triples, chosen, strict=True)
        )
        documents = reconstruct(self.extraction, outcomes, FormVerbalizer(self._forms))
        guarantee = Guarantee(
            epsilon=epsilon,
            lam=lam,
            k=self.k,
            private_release=seed is None,
            rng="OS entropy (OpenDP make_noisy_max)" if seed is None else f"fixed teaching seed {seed}",
        )
        return Release(
            guarantee=guarantee,
            documents=documents,
            outcomes=outcomes,
            pools=tuple(self.pools[p] for p in sorted(self.pools)),
            extraction=self.extraction,
            provenance=self.provenance(),
        )

    def _forms(self, predicate: str, type_pair: TypePair) -> Mapping[str, str | None]:
        forms = getattr(self.generator, "forms", None)
        return forms(predicate, type_pair) if forms else {"clause": predicate.replace("_", " "), "noun": None}

    def provenance(self) -> dict:
        sources = sorted({p.source for p in self.pools.values()})
        return {
            "relguard_version": __version__,
            "python": platform.python_version(),
            "extractor": self.extraction.extractor,
            "encoder": self.encoder_id,
            "candidates": getattr(self.generator, "name", str(self.generator)),
            "pool_source": ", ".join(sources),
            "pool_hash": pool_hash(self.pools),
            "input_sha256": dict(self.input_hashes),
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
            **self.backend_provenance(),
        }

    def backend_provenance(self) -> dict:
        """``{"backends": {role: details}}`` from backends that expose ``provenance()`` (LLM model, calls, tokens).

        Read at draw time, so calls made while drawing (LLM verbalization) are counted too.
        """
        details = {}
        for role, backend in (("extractor", self.extractor_backend), ("candidates", self.generator)):
            hook = getattr(backend, "provenance", None)
            if callable(hook):
                details[role] = hook()
        return {"backends": details} if details else {}


def reconstruct(
    extraction: Extraction, outcomes: Sequence[Outcome], verbalize: FormVerbalizer
) -> tuple[SanitizedDocument, ...]:
    """Mask each document and fill it from the outcomes alone (DESIGN invariant 7)."""
    index = {o.triple.key: i for i, o in enumerate(outcomes)}
    sampled = {i: Sampled(o.triple.type_pair, o.predicate) for i, o in enumerate(outcomes)}
    return tuple(fill(mask(doc, index), sampled, verbalize) for doc in extraction.documents)


def prepare(
    documents: Sequence[Document],
    *,
    k: int,
    extractor: str | Any = "spacy",
    candidates: str | Any = "inventory",
    encoder: str | Any = "all-MiniLM-L6-v2",
    input_hashes: Mapping[str, str] | None = None,
    progress: Progress | None = None,
) -> Prepared:
    """Extract, build pools and compute distances: the ε/λ-independent part of a run."""
    k = check_k(k)
    extractor_obj = registry.create("extractor", extractor) if isinstance(extractor, str) else extractor
    extraction = extract_corpus(documents, extractor=extractor_obj, progress=progress)
    return prepare_extracted(
        documents,
        extraction,
        k=k,
        candidates=candidates,
        encoder=encoder,
        input_hashes=input_hashes,
        extractor_backend=extractor_obj,
    )


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
    """Pools and d_R for an existing extraction: the K-dependent part of :func:`prepare`.

    A front end caches extraction by content and calls this alone when K changes. ``extractor_backend`` is the
    object that made ``extraction``; pass it so the report can name its model and count its calls (LLM backends).
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


def sanitize(
    documents: Sequence[Document],
    *,
    epsilon: float,
    lam: float,
    k: int,
    seed: int | None = None,
    extractor: str | Any = "spacy",
    candidates: str | Any = "inventory",
    encoder: str | Any = "all-MiniLM-L6-v2",
    input_hashes: Mapping[str, str] | None = None,
    progress: Progress | None = None,
) -> Release:
    """Sanitize a corpus in one call: returns a :class:`Release` that carries its guarantee."""
    check_epsilon(epsilon), check_lam(lam), check_k(k)
    prepared = prepare(
        documents,
        k=k,
        extractor=extractor,
        candidates=candidates,
        encoder=encoder,
        input_hashes=input_hashes,
        progress=progress,
    )
    return prepared.draw(epsilon=epsilon, lam=lam, seed=seed)


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
