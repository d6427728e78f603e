"""One evaluation of one sanitized corpus: leakage under the targeted attack, coverage and utility."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from relguard import registry
from relguard.embed import predicate_text
from relguard.evaluation.attack import TargetedAttacker
from relguard.evaluation.baselines import no_defence
from relguard.evaluation.cooccurrence import CooccurrenceAttacker, names_from_extraction
from relguard.evaluation.datasets import EvalDataset, Question
from relguard.evaluation.gold import gold_coverage, gold_resolver, verbatim_evidence
from relguard.evaluation.matching import EntityResolver, default_matcher, resolver_from_extraction
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
    a relation for — the rest it never saw and left untouched; ``slots_off_gold`` is the share of slots on pairs
    with no gold relation). ``names`` is the entity set the attackers know.
    """

    facts: tuple[Fact, ...]
    resolver: EntityResolver
    mode: str
    coverage: float = 1.0
    directed: bool = True
    names: tuple[str, ...] = ()
    slots_off_gold: float | None = None


def truth_from_extraction(prepared) -> Truth:
    """The original extraction as truth, its names put through the resolver that the attacker's are.

    Both sides must live in one name space: two canonical names that normalize alike ("an Academy Award",
    "Academy Award") resolve to one entity for the attacker, so they must for the truth too.
    """
    resolver = resolver_from_extraction(prepared.extraction)
    facts = resolver.resolve(Fact(t.subject, t.predicate, t.object, t.type_pair) for t in prepared.triples)
    return Truth(tuple(facts), resolver, "extraction", names=tuple(names_from_extraction(prepared.extraction)))


def truth_from_gold(dataset: EvalDataset, prepared) -> Truth:
    """Gold triples as truth; pairs compared undirected (Wikidata's direction often differs from the text's)."""
    resolver = gold_resolver(dataset)
    covered = gold_coverage(dataset, prepared.extraction, resolver)
    facts = tuple(resolver.resolve(f for _, f in dataset.gold))
    names = tuple(dict.fromkeys([*dataset.aliases, *(n for _, f in dataset.gold for n in f.pair)]))
    return Truth(
        facts,
        resolver,
        "gold",
        coverage=covered.coverage,
        directed=False,
        names=names,
        slots_off_gold=covered.slots_off_gold,
    )


@dataclass(frozen=True)
class Evaluation:
    """Leakage (App. E) under both attackers, coverage and utility of one sanitized corpus.

    ``independent`` is the co-occurrence reader's score (:mod:`relguard.evaluation.cooccurrence`);
    ``verbatim_evidence`` the share of gold evidence sentences released byte for byte (gold datasets only).
    """

    method: str
    leakage: LeakageScore
    coverage: float
    truth: str
    utility: Utility | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)
    deleted_share: float = 0.0
    independent: LeakageScore | None = None
    verbatim_evidence: float | None = None
    slots_off_gold: float | None = None

    def as_dict(self) -> dict[str, Any]:
        row: dict[str, Any] = {"method": self.method, **self.settings}
        row.update(self.leakage.as_dict())
        if self.independent is not None:
            row.update({f"cooc_{key}": value for key, value in self.independent.as_dict().items()})
        row["coverage"] = self.coverage
        row["deleted_share"] = self.deleted_share
        if self.verbatim_evidence is not None:
            row["verbatim_evidence"] = self.verbatim_evidence
        if self.slots_off_gold is not None:
            row["slots_off_gold"] = self.slots_off_gold
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
    independent: CooccurrenceAttacker | None = None,
    dataset: EvalDataset | None = None,
) -> Evaluation:
    """Attack ``documents`` (a sanitized version of ``prepared.documents``) and measure what survives.

    ``independent`` adds the co-occurrence reader's score; ``dataset`` with evidence sentences adds the share
    released verbatim.
    """
    truth = truth or truth_from_extraction(prepared)
    attacker = attacker or TargetedAttacker(_extractor_of(prepared))
    matcher = matcher or default_matcher()
    texts = [d.text for d in documents]
    predicted = truth.resolver.resolve(attacker.facts(texts))
    leakage = score_leakage(truth.facts, predicted, same_relation=matcher, directed=truth.directed)
    cooc = None
    if independent is not None:
        read = truth.resolver.resolve(independent.facts(texts))
        _prefetch(matcher, truth, read)
        cooc = score_leakage(truth.facts, read, same_relation=matcher, directed=truth.directed)
    verbatim = verbatim_evidence(dataset, {d.name: d.text for d in documents}) if dataset is not None else None
    utility = None
    if questions:
        originals = {d.name: d for d in prepared.documents}
        sanitized = {d.name: d for d in documents}
        extractions = {e.document.name: e for e in prepared.extraction.documents}
        survival, kept, answerable = answer_survival(questions, originals, sanitized, extractions)
        recall = retrieval_recall(questions, {d.name: d.text for d in documents}, ks=ks)
        utility = Utility(survival, kept, answerable, recall)
    return Evaluation(
        method,
        leakage,
        truth.coverage,
        truth.mode,
        utility,
        dict(settings or {}),
        deleted_share,
        independent=cooc,
        verbatim_evidence=verbatim,
        slots_off_gold=truth.slots_off_gold,
    )


@dataclass(frozen=True)
class Measure:
    """The truth, attackers, matcher, questions and dataset every corpus of one comparison is measured with, so
    its rows differ only in the documents and how they are labelled."""

    truth: Truth
    attacker: TargetedAttacker
    matcher: SameRelation | None
    independent: CooccurrenceAttacker | None = None
    questions: Sequence[Question] = ()
    dataset: EvalDataset | None = None

    def __call__(
        self, documents: Sequence[SanitizedDocument], method: str, settings: Mapping[str, Any], deleted: float, source
    ) -> Evaluation:
        """:func:`evaluate_documents` of ``documents``, a sanitized version of ``source.documents``."""
        return evaluate_documents(
            source,
            documents,
            method=method,
            truth=self.truth,
            attacker=self.attacker,
            matcher=self.matcher,
            questions=self.questions,
            settings=settings,
            deleted_share=deleted,
            independent=self.independent,
            dataset=self.dataset,
        )


def _prefetch(matcher: SameRelation, truth: Truth, predicted: Sequence[Fact]) -> None:
    """Embed, in one batch, every predicted relation the matcher will compare with a true one on the same pair.

    The co-occurrence reader's relations are free text, thousands of distinct phrases per release; embedding
    them one comparison at a time would dominate the evaluation's run time.
    """
    embed = getattr(getattr(matcher, "encoder", None), "embed_texts", None)
    if embed is None:
        return
    by_pair: dict[frozenset[str], list[Fact]] = {}
    for fact in truth.facts:
        by_pair.setdefault(frozenset(fact.pair), []).append(fact)
    texts = {
        predicate_text(p.predicate, t.type_pair)
        for p in predicted
        if p.predicate is not None
        for t in by_pair.get(frozenset(p.pair), ())
        if t.predicate is not None
    }
    texts |= {predicate_text(t.predicate, t.type_pair) for t in truth.facts if t.predicate is not None}
    embed(sorted(texts))


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
