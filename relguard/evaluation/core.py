"""One evaluation of one sanitized corpus: leakage under the targeted attack, coverage and utility."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from relguard import registry
from relguard.evaluation.attack import TargetedAttacker
from relguard.evaluation.baselines import no_defence
from relguard.evaluation.datasets import EvalDataset, Question
from relguard.evaluation.matching import EntityResolver, default_matcher, normalize_name, resolver_from_extraction
from relguard.evaluation.metrics import Fact, LeakageScore, SameRelation, score_leakage
from relguard.evaluation.utility import Utility, answer_survival, retrieval_recall
from relguard.protocols import Extractor
from relguard.types import Release, SanitizedDocument


@dataclass(frozen=True)
class Truth:
    """What the attacker tries to rebuild, and how much of it RelGuard saw (coverage).

    ``mode`` is ``"extraction"`` (the original documents' extraction, as in the
    paper; coverage is 1 by construction) or ``"gold"`` (annotated triples;
    coverage is the share of gold relations whose entity pair RelGuard extracted
    a relation for — the rest it never saw and left untouched).
    """

    facts: tuple[Fact, ...]
    resolver: EntityResolver
    mode: str
    coverage: float = 1.0
    directed: bool = True


def truth_from_extraction(prepared) -> Truth:
    """The original extraction as truth, its names put through the resolver that the attacker's are.

    Both sides must live in one name space: two canonical names that normalize alike ("an Academy Award",
    "Academy Award") resolve to one entity for the attacker, so they must for the truth too.
    """
    resolver = resolver_from_extraction(prepared.extraction)
    facts = resolver.resolve(Fact(t.subject, t.predicate, t.object, t.type_pair) for t in prepared.triples)
    return Truth(tuple(facts), resolver, "extraction")


def truth_from_gold(dataset: EvalDataset, prepared) -> Truth:
    """Gold triples as truth; pairs compared undirected (Wikidata's direction often differs from the text's)."""
    resolver = EntityResolver(dataset.aliases)
    for name in {n for _, f in dataset.gold for n in f.pair}:
        resolver.add(name, name)
    seen: set[tuple[str, frozenset[str]]] = set()
    for document in prepared.extraction.documents:
        for triple in document.triples:
            pair = frozenset((normalize_name(resolver(triple.subject)), normalize_name(resolver(triple.object))))
            seen.add((document.document.name, pair))
    covered = sum(
        (doc, frozenset((normalize_name(f.subject), normalize_name(f.object)))) in seen for doc, f in dataset.gold
    )
    coverage = covered / len(dataset.gold) if dataset.gold else 0.0
    facts = tuple(resolver.resolve(f for _, f in dataset.gold))
    return Truth(facts, resolver, "gold", coverage=coverage, directed=False)


@dataclass(frozen=True)
class Evaluation:
    """Leakage (App. E), coverage and utility of one sanitized corpus."""

    method: str
    leakage: LeakageScore
    coverage: float
    truth: str
    utility: Utility | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)
    deleted_share: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        row: dict[str, Any] = {"method": self.method, **self.settings}
        row.update(self.leakage.as_dict())
        row["coverage"] = self.coverage
        row["deleted_share"] = self.deleted_share
        if self.utility is not None:
            row.update(self.utility.as_dict())
        return row


def evaluate_documents(
    prepared,
    documents: Sequence[SanitizedDocument],
    *,
    method: str,
    truth: Truth | None = None,
    attacker: TargetedAttacker | None = None,
    matcher: SameRelation | None = None,
    questions: Sequence[Question] = (),
    ks: Sequence[int] = (2, 5),
    settings: Mapping[str, Any] | None = None,
    deleted_share: float = 0.0,
) -> Evaluation:
    """Attack ``documents`` (a sanitized version of ``prepared.documents``) and measure what survives."""
    truth = truth or truth_from_extraction(prepared)
    attacker = attacker or TargetedAttacker(_extractor_of(prepared))
    matcher = matcher or default_matcher()
    predicted = truth.resolver.resolve(attacker.facts([d.text for d in documents]))
    leakage = score_leakage(truth.facts, predicted, same_relation=matcher, directed=truth.directed)
    utility = None
    if questions:
        originals = {d.name: d for d in prepared.documents}
        sanitized = {d.name: d for d in documents}
        extractions = {e.document.name: e for e in prepared.extraction.documents}
        survival, kept, answerable = answer_survival(questions, originals, sanitized, extractions)
        recall = retrieval_recall(questions, {d.name: d.text for d in documents}, ks=ks)
        utility = Utility(survival, kept, answerable, recall)
    return Evaluation(method, leakage, truth.coverage, truth.mode, utility, dict(settings or {}), deleted_share)


def _extractor_of(prepared) -> Extractor:
    """The extractor that prepared the corpus (the strongest one the user configured), else spaCy."""
    if prepared.extractor_backend is not None:
        return prepared.extractor_backend
    return registry.create("extractor", "spacy")


def evaluate_release(
    prepared,
    release: Release | None,
    *,
    questions: Sequence[Question] = (),
    truth: Truth | None = None,
    attacker: TargetedAttacker | None = None,
    matcher=None,
) -> Evaluation:
    """Leakage, coverage and (with ``questions``) utility of ``release``; ``None`` means no defence.

    Pass the same ``attacker`` to repeated calls: it caches its extraction per text,
    so evaluating the original corpus and then a release re-extracts only what changed.
    """
    if release is None:
        documents, method, settings, deleted = no_defence(prepared), "no defence", {}, 0.0
    else:
        g = release.guarantee
        documents, method = release.documents, "RelGuard"
        settings = {"epsilon": g.epsilon, "lam": g.lam, "k": g.k}
        deleted = sum(o.deleted for o in release.outcomes) / max(1, len(release.outcomes))
    return evaluate_documents(
        prepared,
        documents,
        method=method,
        truth=truth,
        attacker=attacker,
        matcher=matcher,
        questions=questions,
        settings=settings,
        deleted_share=deleted,
    )
