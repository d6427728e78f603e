"""The public release report (DESIGN "The public release report"): what report.json holds.

The report says what was promised and how it was computed, so a privacy
officer can check a release without rerunning it: the guarantee and its unit,
ε/λ/K, the encoder and its weights hash, the pools and their hash, the RNG,
counts that follow from the output, and SHA-256 of every output file.

Everything in it is a function of the sampled outcomes and of public
information only (DESIGN invariant 12): no digest or size of an input (the
sanitized text is public except the relation spans, so hashing guesses of a
span would recover the original), no count that needs the original relations
(unchanged / substituted), no LLM usage. Those, and the mapping from original
to sampled relations, go to the confidential mapping
(:mod:`relguard.release.confidential`), written only on request.
``docs/reliability.md`` lists every public field and why it is safe.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from relguard.privacy.measurement import relation_measurement
from relguard.release.draws import COUNTED, DrawHistory, draw_entry, draws_block
from relguard.textable import plural
from relguard.types import CandidatePool, Guarantee

REPORT_VERSION = 4
#: What ``record_fields`` means, in the report itself.
RECORD_FIELDS = (
    "only a record's text field is sanitized: its other fields that hold words are left out of the release, "
    "unless the run named them with --keep-fields, which releases them as written (numbers, booleans and nulls "
    "are kept)"
)
LIMITS = (
    "Only relations the extractor found are protected: a relation it missed is left in the text as written.",
    "Entity identities are not hidden: names stay in the text; what is protected is which relation links them.",
    "The guarantee bounds how well any reader can tell two alternative relations on the same entity pair apart; "
    "relations far apart in meaning (d_R near 1) are protected less than close ones.",
    "Releases compose: publishing two releases of the same corpus adds up their epsilon * d_R.",
    "A sentence no wording of its drawn relation reads well in is restated (counts.sentences_restated): it keeps "
    "its first clause where that reads alone and states its other relations plainly ('<subject> <drawn relation> "
    "<object>.'); what else it said (dates, descriptions after that clause) is not in the release.",
    "Where one fill of a sentence does not read, its slot says only that the two names are associated (the same "
    "words for every such slot, whatever was drawn) and the drawn relation is stated in a plain sentence right "
    "after it (counts.sentences_connected): the sentence keeps everything else it said.",
    "Every count here follows from the released text itself; how many relations kept their original wording "
    "is known only to the confidential file.",
)
#: What each slot mode covers, in plain words. Every report prints one of them, so they say what holds for every
#: corpus; how often a rewording leaves the masked document unchanged is measured per corpus by
#: ``bench/neighbour_share.py`` and recorded in docs/evaluation.md, not asserted here.
SLOT_MODES = {
    "spans": "Slot mode 'spans' (the default, the paper's): a slot is the relation expression the parser finds, so "
    "where the slots are is read from the wording: where a rewording of one relation changes which sentences were "
    "rewritten and how, that can tell one wording from another. Use --slots stretches where that matters.",
    "stretches": "Slot mode 'stretches' (strict): every stretch between two adjacent names of a sentence is a slot "
    "whatever its words, so where the slots are does not depend on the wording (only a rewording that moves a name "
    "changes them). What a stretch held besides the relation (a date, a description) is not in the release, and "
    "words before a sentence's first name or after its last are not slotted. "
    "A capitalized word counts as a name unless a public list of title words knows it (Vice President, Sr., CEO, "
    "Head of Risk), it is a sentence's first word that a public lexicon reads as an adverb, a participle or a "
    "preposition (Originally, Born, According), or it is a month or era mark with numbers only (a date, masked "
    "with its stretch): a title-case relation word that list does not know, or a sentence written in title case, is "
    "printed as written; coverage.sentences_that_may_keep_a_title_case_relation_word counts the sentences where that "
    "can have happened.",
}
#: The public counts, each computable from the sanitized output and the public structure of the slots.
PUBLIC_COUNTS = (
    "documents",
    "documents_changed",
    "sentences",
    "sentences_removed",
    "sentences_withheld",
    "sentences_unfillable",
    "sentences_restated",
    "sentences_connected",
    "slots",
    "groups",
    "groups_deleted",
)
#: How output files are named, said in every report so a reader can find each input's sanitized version.
NAMING = (
    "documents/<input name>: .txt/.md and .jsonl inputs keep their name; text read from x.pdf, x.docx or x.html is "
    "written as x.pdf.txt (etc.); the rows of x.csv are written as JSON lines to x.csv.jsonl, other columns kept"
)
COUNT_LABELS = {
    "documents": "documents",
    "documents_changed": "documents changed",
    "sentences": "sentences",
    "sentences_removed": "sentences removed (a deleted relation)",
    "sentences_withheld": "sentences withheld by the leak scan",
    "sentences_unfillable": "sentences deleted: no wording of the drawn relation fits, or reads as English, there",
    "sentences_restated": "sentences restated: their first clause kept where it reads, their other relations stated",
    "sentences_connected": "sentences kept with a neutral connector where a fill did not read, the drawn relation "
    "stated after them",
    "slots": "relation slots (spans rewritten or removed)",
    "groups": "relation groups (aligned entity pairs, one draw each)",
    "groups_deleted": "groups deleted (null outcome)",
}


@dataclass(frozen=True)
class ReleaseSummary:
    """Everything the public report reads of a release: the guarantee, provenance, pools and public tallies.

    Every face builds it the same way, from the tallies its documents added up (:mod:`relguard.engine.tally`).
    """

    guarantee: Guarantee
    provenance: Mapping
    pools: tuple[CandidatePool, ...]
    counts: Mapping[str, int]
    slots_per_document: Mapping[str, int]
    max_groups_in_one_document: int
    coverage: Mapping[str, int]
    entity_level: Mapping = field(default_factory=dict)
    slot_mode: str = "spans"
    marks: Mapping = field(default_factory=dict)
    sign_off: Mapping[str, str] = field(default_factory=dict)
    draws: DrawHistory = field(default_factory=DrawHistory)
    record_fields: Mapping[str, list[str]] = field(default_factory=dict)
    losses: Mapping[str, Mapping[str, int | bool]] = field(default_factory=dict)
    notice: str | None = None


def losing_text(losses: Mapping[str, Mapping[str, int | bool]]) -> list[dict]:
    """The documents that came out empty or lost more than half their sentences, by name, with the counts of why:
    a null outcome, no wording fits (unfillable), or the leak scan held the sentence back."""
    return [{"document": name, **losses[name]} for name in sorted(losses)]


#: Why a document lost sentences, in the words every face uses (a key of a ``documents_losing_text`` entry).
LOSS_REASONS = {
    "null_outcome": "deleted by a null outcome (a drawn deletion)",
    "unfillable": "deleted as unfillable (no wording of the drawn relation fits)",
    "leak_scan": "withheld by the leak scan",
}


def counts_words(counts: Mapping[str, int]) -> str:
    """The release's counts as every face says them: "3 relation slots in 1 group, 1 group deleted, …"."""
    return (
        f"{plural(counts['slots'], 'relation slot')} in {plural(counts['groups'], 'group')}, "
        f"{plural(counts['groups_deleted'], 'group')} deleted, "
        f"{counts['sentences_removed']} of {plural(counts['sentences'], 'sentence')} removed"
    )


def loss_words(entry: Mapping) -> str:
    """One ``documents_losing_text`` entry as the CLI, report.md and the app say it."""
    gone, total = entry["sentences_gone"], entry["sentences"]
    what = "came out EMPTY" if entry["empty"] else "lost more than half its sentences"
    why = ", ".join(f"{entry[key]} {words}" for key, words in LOSS_REASONS.items() if entry.get(key))
    return f"{entry['document']} {what}: {gone} of {plural(total, 'sentence')} gone" + (f"; {why}" if why else "")


def build_report(summary: ReleaseSummary, *, output_hashes: Mapping[str, str] | None = None) -> dict:
    """The public report as a JSON-ready dict: outcomes and public information only (DESIGN invariant 12).

    The bounds are the draw's privacy map read at d_R = 1 (the farthest two relations are) and, for a document,
    at its m groups' sum of moves (at most m): the object that drew states the promise.
    """
    g = summary.guarantee
    p = summary.provenance
    worst_m = summary.max_groups_in_one_document
    measurement = relation_measurement(epsilon=g.epsilon)
    per_document = measurement.privacy_map(float(worst_m))
    this_draw = draw_entry(
        epsilon=g.epsilon,
        lam=g.lam,
        k=g.k,
        entity_epsilon=g.entity_epsilon,
        private=g.private_release,
        max_groups=worst_m,
    )
    documents = [name for name in output_hashes or {} if name.startswith("documents/")]
    return {
        "relguard_report_version": REPORT_VERSION,
        "private_release": g.private_release,
        "notice": None
        if g.private_release
        else "NOT A PRIVATE RELEASE: drawn with a fixed teaching seed, so the output is reproducible "
        "and the guarantee does not hold. Do not publish it.",
        "unit_of_privacy": g.unit,
        "guarantee": {
            "definition": "epsilon-relation-DP (paper Def. 3): Pr[M(r) in S] <= exp(epsilon * d_R(r, r')) "
            "* Pr[M(r') in S] for every pair of relations r, r' on the same entity pair",
            "distance": "d_R(r, r') = 0.5 * || z(r) - z(r') ||_2 with z the unit-normalized encoder embedding",
            "document_level": g.document_level,
            "grouping": "every occurrence on one aligned entity pair (canonical subject and object, their types, "
            "direction), in every document, shares one outcome; a group's utility is -min_i d_R(r_i, c), which "
            "moves by at most d_R(r, r') when one of its relations changes",
            "measurement": measurement.describe(),
            "worst_case_per_relation_bound": math.exp(measurement.privacy_map(1.0)),
            "max_groups_in_one_document": worst_m,
            "worst_case_per_document_bound": math.exp(per_document) if per_document < 700 else "inf",
        },
        "parameters": {
            "epsilon": g.epsilon,
            "lambda": g.lam,
            "k": g.k,
            **({"entity_epsilon": g.entity_epsilon} if g.entity_epsilon is not None else {}),
        },
        "mechanism": "exponential mechanism over K public candidates plus null: P(c) ~ exp(-epsilon*d_R(r,c)/2), "
        "P(null) ~ exp(-epsilon*lambda/2); one outcome per relation group, reused for every occurrence",
        "rng": g.rng,
        "encoder": p.get("encoder"),
        "encoder_runtime": p.get("encoder_runtime"),
        "extractor": p.get("extractor"),
        "candidates": {
            "backend": p.get("candidates"),
            "source": p.get("pool_source"),
            "sha256": p.get("pool_hash"),
            "inventory_sha256": p.get("inventory_hash"),
            "pools": {f"{a}|{b}": list(pool.predicates) for pool in summary.pools for a, b in [pool.type_pair]},
            **({"exclusion_policy": p["exclusion_policy"]} if p.get("exclusion_policy") else {}),
            "sensitive_policy": p.get("sensitive_policy"),
        },
        "backends": p.get("backends", {}),
        "versions": {"relguard": p.get("relguard_version"), "python": p.get("python")},
        "created": p.get("created"),
        "counts": dict(summary.counts),
        "coverage": dict(summary.coverage),
        **({"entity_level": dict(summary.entity_level)} if summary.entity_level else {}),
        "slots_per_document": dict(summary.slots_per_document),
        **({"record_fields": {**summary.record_fields, "rule": RECORD_FIELDS}} if summary.record_fields else {}),
        "documents_losing_text": losing_text(summary.losses),
        "files": {"outputs": dict(output_hashes or {}), "naming": NAMING},
        "slot_mode": summary.slot_mode,
        "release_notice": summary.notice,
        **({"slot_marks": dict(summary.marks)} if summary.marks else {}),
        "draws": draws_block(summary.draws, this_draw, documents=documents),
        "limits": [SLOT_MODES[summary.slot_mode], *LIMITS, COUNTED],
        **({"review_edits": p["review_edits"]} if p.get("review_edits") else {}),
        **({"attack": p["attack"]} if p.get("attack") else {}),
        **({"sign_off": dict(summary.sign_off)} if summary.sign_off else {}),
        **({"self_audit": p["self_audit"]} if p.get("self_audit") else {}),
    }
