"""Orchestration of the four steps: extract → pools → distances → sample + reconstruct.

:func:`prepare` does everything that does not depend on ε and λ (the expensive,
cacheable part); :meth:`Prepared.probabilities` and :meth:`Prepared.draw` do
the rest in milliseconds, which is what lets the app redraw while a slider
moves. :func:`sanitize` is the one-call version the CLI uses.

The unit of sampling is the :class:`~relguard.types.RelationGroup`: every
occurrence on one aligned entity pair, in every document, shares one outcome,
and the group is keyed by public information only (DESIGN invariant 6). Its
utility is ``u(c) = −min_i d_R(r_i, c)`` over the group's relations — see
:func:`group_distances` for why that keeps the per-relation guarantee.
"""

from __future__ import annotations

import hashlib
import json
import platform
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
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
    Occurrence,
    Outcome,
    RelationGroup,
    Release,
    SanitizedDocument,
    Triple,
    TypePair,
)

Progress = Callable[[int, int], None]

#: Provenance fields of a backend that are public: they name it and its settings, nothing computed from text.
PUBLIC_BACKEND_FIELDS = ("backend", "model", "prompt_versions", "window_sentences", "synonym_threshold")


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


def extract_corpus(documents: Sequence[Document], *, extractor: Any, progress: Progress | None = None) -> Extraction:
    """Run ``extractor`` over the corpus (batched through its ``extract_many``) and group the relations."""
    results: list[DocumentExtraction] = []
    for number, result in enumerate(extractor.extract_many(documents), start=1):
        results.append(result)
        if progress:
            progress(number, len(documents))
    return Extraction(tuple(results), group_relations(results), extractor=getattr(extractor, "model_id", ""))


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


def triple_distances(triples: Sequence[Triple], pools: Mapping[TypePair, CandidatePool], encoder: Any) -> np.ndarray:
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


def group_distances(per_triple: np.ndarray, group_of_triple: Sequence[int], groups: int) -> np.ndarray:
    """(g, K) distance of each relation group to each candidate: the minimum over the group's relations.

    Why the minimum keeps the guarantee: the group's utility is u(c) = −min_i d_R(r_i, c). If one relation
    r_j of the group is changed to r′_j, each term d_R(r_j, c) moves by at most d_R(r_j, r′_j) (triangle
    inequality of the metric d_R), and a minimum moves by at most the largest move of its terms, so
    |u(c) − u′(c)| ≤ d_R(r_j, r′_j) for every c; the null utility −λ does not move. The exponential
    mechanism with exp(ε·u/2) therefore bounds every log-ratio by ε·d_R(r_j, r′_j), exactly the guarantee of
    a lone relation (Definition 3, App. A). A group of one relation is the paper's mechanism unchanged.
    ``relguard audit`` checks this bound exactly on the release's own groups.
    """
    per_triple = np.asarray(per_triple, dtype=np.float64)
    out = np.full((groups, per_triple.shape[1] if per_triple.ndim == 2 else 0), np.inf)
    if len(per_triple):
        np.minimum.at(out, np.asarray(group_of_triple, dtype=np.int64), per_triple)
    return out


@dataclass(frozen=True)
class Prepared:
    """Everything about a corpus that does not depend on ε or λ: extraction, pools and d_R.

    ``distances`` has one row per relation group (the rows of every probability table);
    ``triple_distances`` one row per canonical triple, for the confidential per-relation views.
    """

    documents: tuple[Document, ...]
    extraction: Extraction
    pools: Mapping[TypePair, CandidatePool]
    distances: np.ndarray = field(compare=False)
    k: int
    generator: Any = field(compare=False, repr=False)
    encoder_id: str = ""
    input_hashes: Mapping[str, str] = field(default_factory=dict, compare=False)
    extractor_backend: Any = field(default=None, compare=False, repr=False)
    triple_distances: np.ndarray = field(default=None, compare=False, repr=False)

    @property
    def groups(self) -> tuple[RelationGroup, ...]:
        return self.extraction.groups

    @property
    def triples(self) -> tuple[Triple, ...]:
        return self.extraction.triples

    @property
    def group_of_triple(self) -> np.ndarray:
        """For each canonical triple (in ``triples`` order), the index of its relation group."""
        return np.array([g for g, group in enumerate(self.groups) for _ in group.triples], dtype=np.int64)

    def pool_for(self, item: Triple | RelationGroup) -> CandidatePool:
        return self.pools[item.type_pair]

    def probabilities(self, *, epsilon: float, lam: float, allow_null: bool = True) -> np.ndarray:
        """(g, K+1) outcome probabilities per relation group, last column null; cheap, recomputed on demand.

        ``allow_null=False`` is the no-deletion ablation (paper Table 3): the null column is 0.
        """
        if not self.groups:
            return np.zeros((0, self.k + 1))
        return outcome_probabilities(self.distances, epsilon=epsilon, lam=lam, allow_null=allow_null)

    def draw(self, *, epsilon: float, lam: float, seed: int | None = None, allow_null: bool = True) -> Release:
        """Sample one outcome per relation group and rewrite every document.

        ``allow_null=False`` never deletes (the paper's Table 3 ablation, for evaluation only).
        """
        epsilon, lam = check_epsilon(epsilon), check_lam(lam)
        if self.groups:
            chosen = sample_outcomes(self.distances, epsilon=epsilon, lam=lam, seed=seed, allow_null=allow_null)
        else:
            chosen = np.zeros(0, dtype=np.int64)
        outcomes = tuple(
            Outcome(g, None if c == self.k else self.pools[g.type_pair].predicates[c])
            for g, c in zip(self.groups, chosen, strict=True)
        )
        verbalize = FormVerbalizer(self._forms)
        documents = reconstruct(self.extraction, outcomes, verbalize)
        guarantee = Guarantee(
            epsilon=epsilon,
            lam=lam,
            k=self.k,
            private_release=seed is None,
            rng="OS entropy (OpenDP make_noisy_max)" if seed is None else f"fixed teaching seed {seed}",
        )
        public, confidential = self.provenance()
        release = Release(
            guarantee=guarantee,
            documents=documents,
            outcomes=outcomes,
            pools=tuple(self.pools[p] for p in sorted(self.pools)),
            extraction=self.extraction,
            provenance=public,
            confidential=confidential,
        )
        return withhold_leaks(release, verbalize=verbalize, forms=self._forms)

    def _forms(self, predicate: str, type_pair: TypePair) -> Mapping[str, str | None]:
        forms = getattr(self.generator, "forms", None)
        return forms(predicate, type_pair) if forms else {"clause": predicate.replace("_", " "), "noun": None}

    def provenance(self) -> tuple[dict, dict]:
        """(public provenance for the report, confidential details for the mapping file).

        Public: versions, backends by name and model, the pools and their hash. Confidential: the digests of
        the input files and what the LLM backends spent (calls, tokens, dropped replies) — each a function of
        the original text, so publishing it would undo the protection (DESIGN invariant 12).
        """
        sources = sorted({p.source for p in self.pools.values()})
        public_backends, usage = self.backend_provenance()
        public = {
            "relguard_version": __version__,
            "python": platform.python_version(),
            "extractor": self.extraction.extractor,
            "encoder": self.encoder_id,
            "candidates": getattr(self.generator, "name", str(self.generator)),
            "pool_source": ", ".join(sources),
            "pool_hash": pool_hash(self.pools),
            **({"inventory_hash": self.generator.content_hash()} if hasattr(self.generator, "content_hash") else {}),
            "created": datetime.now(UTC).isoformat(timespec="seconds"),
            **({"backends": public_backends} if public_backends else {}),
        }
        confidential = {"input_sha256": dict(self.input_hashes), **({"backend_usage": usage} if usage else {})}
        return public, confidential

    def backend_provenance(self) -> tuple[dict, dict]:
        """Per role, the public description of backends that expose ``provenance()`` and their confidential usage.

        Read at draw time, so calls made while drawing (LLM verbalization) are counted too.
        """
        public, usage = {}, {}
        for role, backend in (("extractor", self.extractor_backend), ("candidates", self.generator)):
            hook = getattr(backend, "provenance", None)
            if callable(hook):
                details = hook()
                public[role] = {k: details[k] for k in PUBLIC_BACKEND_FIELDS if k in details}
                usage[role] = {k: v for k, v in details.items() if k not in PUBLIC_BACKEND_FIELDS}
        return public, usage


def reconstruct(
    extraction: Extraction,
    outcomes: Sequence[Outcome],
    verbalize: FormVerbalizer,
    *,
    withheld: Mapping[str, Iterable[int]] | None = None,
) -> tuple[SanitizedDocument, ...]:
    """Mask each document and fill it from the outcomes alone (DESIGN invariant 7).

    ``withheld`` names sentences (per document) that the leak scan took out; they are removed like deleted ones.
    """
    index = {o.group.key: i for i, o in enumerate(outcomes)}
    sampled = {i: Sampled(o.group.type_pair, o.predicate) for i, o in enumerate(outcomes)}
    withheld = withheld or {}
    return tuple(
        fill(mask(doc, index), sampled, verbalize, withheld=withheld.get(doc.document.name, ()))
        for doc in extraction.documents
    )


#: Rounds of the leak scan before a release is blocked: withholding a sentence cannot create a new leak, so
#: one round settles every case seen; the others guard against a bug in that reasoning.
WITHHOLD_ROUNDS = 3


def withhold_leaks(release: Release, *, verbalize: FormVerbalizer, forms: Callable | None = None) -> Release:
    """The last safety net: withhold every sentence in which the leak scan still finds an original relation.

    Reconstruction is built never to copy an original relation, but an extractor's span can miss part of the
    expression (a relation word left beside the slot). Rather than block a corpus of thousands for one
    sentence, that sentence is taken out of the output, listed in the confidential file and counted in the
    public report; the CLI then exits non-zero unless withheld sentences are allowed (docs/reliability.md).
    A leak that no sentence accounts for still blocks the export (:func:`relguard.leakscan.check_public_files`).
    """
    from relguard.io import serialize_documents
    from relguard.leakscan import scan

    withheld: dict[str, set[int]] = {}
    reasons: list[dict] = []
    originals = {d.document.name: d for d in release.extraction.documents}
    for _ in range(WITHHOLD_ROUNDS):
        pairs = [(originals[d.name].document, d.text) for d in release.documents]
        files = {f"documents/{name}": data for name, data in serialize_documents(pairs).items()}
        leaks = [leak for leak in scan(release, files, forms=forms) if leak.document in originals]
        fresh = [leak for leak in leaks if leak.sentence not in withheld.get(leak.document, set())]
        if not fresh:
            break
        for leak in fresh:
            withheld.setdefault(leak.document, set()).add(leak.sentence)
            sentence = originals[leak.document].sentence_text(leak.sentence)
            reasons.append(
                {"document": leak.document, "sentence": leak.sentence, "kind": leak.kind, "span": leak.text,
                 "text": sentence}
            )  # fmt: skip
        documents = reconstruct(release.extraction, release.outcomes, verbalize, withheld=withheld)
        release = replace(release, documents=documents)
    if not reasons:
        return release
    return replace(release, confidential={**release.confidential, "withheld": reasons})


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
    object that made ``extraction``; pass it so the report can name its model (LLM backends).
    """
    k = check_k(k)
    generator = registry.create("candidates", candidates) if isinstance(candidates, str) else candidates
    encoder_obj = (
        registry.create("encoder", "sentence-transformers", model=encoder) if isinstance(encoder, str) else encoder
    )
    pools = build_pools(extraction.type_pairs, generator=generator, k=k)
    per_triple = triple_distances(extraction.triples, pools, encoder_obj)
    owners = [g for g, group in enumerate(extraction.groups) for _ in group.triples]
    return Prepared(
        documents=tuple(documents),
        extraction=extraction,
        pools=pools,
        distances=group_distances(per_triple.reshape(len(owners), k), owners, len(extraction.groups)),
        k=k,
        generator=generator,
        encoder_id=getattr(encoder_obj, "model_id", str(encoder_obj)),
        input_hashes=dict(input_hashes or {}),
        extractor_backend=extractor_backend,
        triple_distances=per_triple.reshape(len(owners), k),
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
