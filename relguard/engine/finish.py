"""What every batch engine does once its documents are rewritten: the reports, the mapping, the backends it needs.

The local and the Ray engine differ in where extraction and rewriting run; the draw's backends, the public report
and the confidential mapping are made here, once, so both write the same bytes.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping

from relguard import registry
from relguard.candidates.embeddings import warm_public_embeddings
from relguard.engine.draw import OutcomeTable
from relguard.engine.tally import Tally
from relguard.engine.writer import ReleaseWriter
from relguard.pipeline import Backends, candidates_from, guarantee_of
from relguard.release.confidential import MAPPING_FILE, MappingRow, confidential_bytes, confidential_document
from relguard.release.markdown import render_markdown
from relguard.release.report import ReleaseSummary, build_report
from relguard.settings import Settings
from relguard.types import DocumentExtraction, PairKey


class BackendLoader:
    """Builds the pool generator and the encoder, with the inventory's embeddings, on a thread while extraction runs."""

    def __init__(self, settings: Settings, given: Backends | None = None) -> None:
        self._settings = settings
        self._given = given
        self._result: Backends | None = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._load, daemon=True)
        self._thread.start()

    def _load(self) -> None:
        try:
            if self._given is not None:
                self._result = self._given
            else:
                settings = self._settings.backends
                encoder = registry.create("encoder", settings.encoder_backend, model=settings.encoder)
                candidates = candidates_from(settings, encoder=encoder)
                self._result = Backends(None, candidates, encoder)  # type: ignore[arg-type]  # extraction ran elsewhere
            warm_public_embeddings(self._result.candidates, self._result.encoder)
        except BaseException as exc:  # re-raised on the main thread, where the CLI turns it into one line
            self._error = exc

    def get(self) -> Backends:
        self._thread.join()
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result


class Relations:
    """The confidential mapping's rows, collected document by document (only when ``--mapping`` asks for it)."""

    def __init__(self) -> None:
        self._by_group: dict[int, dict[str, list[dict]]] = {}

    def add(self, doc: DocumentExtraction, index: Mapping[PairKey, int]) -> None:
        for triple in doc.triples:
            found = self._by_group.setdefault(index[triple.pair_key], {}).setdefault(triple.predicate, [])
            found += [{"document": o.document, "sentence": o.sentence, "span": o.text} for o in triple.occurrences]

    def merge(self, other: Relations) -> None:
        for group, predicates in other._by_group.items():
            mine = self._by_group.setdefault(group, {})
            for predicate, occurrences in predicates.items():
                mine.setdefault(predicate, []).extend(occurrences)

    def rows(self, outcomes: OutcomeTable) -> list[MappingRow]:
        return [
            (key, outcomes.predicates[i], sorted(self._by_group.get(i, {}).items()))
            for i, key in enumerate(outcomes.keys)
        ]


def write_reports(
    writer: ReleaseWriter,
    *,
    settings: Settings,
    public: dict,
    confidential: dict,
    outcomes: OutcomeTable,
    tally: Tally,
    rows: list[MappingRow] | None,
) -> dict:
    """Close the document files, then write report.json, report.md and (with ``rows``) the mapping."""
    p = settings.privacy
    summary = ReleaseSummary(
        guarantee=guarantee_of(epsilon=p.epsilon, lam=p.lam, k=p.k, seed=p.seed),
        provenance=public,
        pools=tuple(outcomes.pools[pair] for pair in sorted(outcomes.pools)),
        counts=tally.counts(groups=len(outcomes.keys), groups_deleted=outcomes.deleted),
        slots_per_document=dict(sorted(tally.slots_per_document.items())),
        max_groups_in_one_document=tally.max_groups_in_one_document,
        coverage=tally.coverage(),
    )
    report = build_report(summary, output_hashes=_ordered(writer.close_files()))
    writer.write("report.json", (json.dumps(report, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    writer.write("report.md", render_markdown(report).encode("utf-8"))
    if rows is not None:
        writer.write(MAPPING_FILE, confidential_bytes(confidential_document(rows, confidential)))
    return report


def _ordered(hashes: dict[str, str]) -> dict[str, str]:
    """Output digests in the order the in-memory bundle lists them: text documents, .jsonl files, the rest."""
    names = list(hashes)
    groups = (
        [n for n in names if n.startswith("documents/") and not n.endswith(".jsonl")],
        [n for n in names if n.startswith("documents/") and n.endswith(".jsonl")],
        [n for n in names if not n.startswith("documents/")],
    )
    return {n: hashes[n] for group in groups for n in group}
