"""A release being written: rewritten documents in, then its reports, its config, the check, the mapping.

Every face ends a release here. :meth:`Assembly.add` takes each document's :class:`~relguard.engine.rewrite.Piece`
in corpus order — from this process, a worker or a Ray actor — appends its bytes to its public file and adds up
its tallies. :meth:`Assembly.finish` then closes the documents, builds report.json, report.md and config.toml from
the tallies and the outcome table alone, runs the public-file check on every public file as the sink holds it
(:func:`relguard.engine.check.check_public_files`), keeps the confidential mapping apart, and commits.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from relguard.engine.check import check_public_files, refuse_unsafe
from relguard.engine.marks import SLOTS_FILE, sidecar_line
from relguard.engine.marks import summary as marks_summary
from relguard.engine.notice import notice_of, with_notice
from relguard.engine.outcomes import OutcomeTable
from relguard.engine.rewrite import Piece
from relguard.engine.sink import Sink
from relguard.engine.tally import Relations, Tally
from relguard.errors import OutputError
from relguard.io.parquet import ParquetWriter
from relguard.release.confidential import MappingRow, confidential_bytes, confidential_document
from relguard.release.config import CONFIG_FILE, RunConfig, config_toml, recorded_of
from relguard.release.entity import entity_block
from relguard.release.markdown import render_markdown
from relguard.release.report import ReleaseSummary, build_report
from relguard.types import DocumentExtraction, Forms

PARQUET_FILE = "documents.parquet"


@dataclass
class Finished:
    """What a release wrote: its public report, the public files' names, and what stays confidential.

    ``confidential`` holds the input digests, LLM usage and the withheld sentences; ``mapping_rows`` the mapping's
    rows when one was asked for (the CLI counts them only with ``--verbose``).
    """

    report: dict
    names: list[str]
    confidential: dict = field(default_factory=dict)
    mapping_rows: list[MappingRow] = field(default_factory=list)


class Assembly:
    """Pieces in, a committed release out (see the module docstring); ``mapping`` collects the mapping's rows."""

    def __init__(
        self,
        sink: Sink,
        table: OutcomeTable,
        *,
        forms: Forms,
        mapping: bool = False,
        parquet: bool = False,
        notice: bool = True,
    ) -> None:
        self.sink, self.table, self.forms = sink, table, forms
        self.notice = notice_of(table.guarantee) if notice else None
        self.tally = Tally()
        self.relations = Relations() if mapping else None
        self.withheld: dict[str, tuple[int, ...]] = {}
        self.reasons: list[dict] = []
        self.documents: list[str] = []
        self._files: dict[str, bool] = {}
        self._sidecar = False
        self._parquet_path = sink.staged(PARQUET_FILE) if parquet else None
        self._parquet = ParquetWriter(self._parquet_path) if self._parquet_path is not None else None

    def add(self, piece: Piece) -> None:
        """Append one document's bytes to its public file and add up what it did."""
        name = f"documents/{piece.file}"
        refuse_unsafe([name])
        earlier = self._files.get(name)
        if earlier is not None and not (earlier and piece.record):  # only .jsonl records share a file
            raise OutputError(
                f"export blocked, nothing was written: two documents would both be written as {piece.file!r}; "
                "give every document its own name"
            )
        self._files[name] = piece.record
        data, text, marks = piece.data, piece.text, piece.marks
        if self.notice:
            data, text, marks = with_notice(
                data, text, marks, record=piece.record, notice=self.notice, where=piece.document
            )
        self.sink.append(name, data)
        if not piece.record:  # a record carries its marks; a text file's are in the sidecar, one line each
            self.sink.append(SLOTS_FILE, sidecar_line(piece.file, marks))
            self._sidecar = True
        if self._parquet is not None:
            self._parquet.add(piece.document, piece.file, text, marks)
        self.tally.merge(piece.tally)
        self.reasons += piece.withheld
        if piece.sanitized.withheld_sentences:
            self.withheld[piece.document] = piece.sanitized.withheld_sentences
        if self.relations is not None and piece.relations is not None:
            self.relations.merge(piece.relations)
        self.documents.append(piece.document)

    def finish(
        self,
        documents: Iterable[DocumentExtraction],
        *,
        run: RunConfig,
        files: Sequence[str],
        provenance: Mapping,
        confidential: Mapping,
    ) -> Finished:
        """Reports, config, the public-file check over ``documents`` (the corpus again, in order), the mapping,
        commit. ``files`` are the input names the config lists; ``provenance`` the report's public provenance."""
        if self._parquet is not None and self._parquet_path is not None:
            self._parquet.close()
            self.sink.seal(PARQUET_FILE, self._parquet_path)
        hashes = self.sink.close_files()
        table = self.table
        summary = ReleaseSummary(
            guarantee=table.guarantee,
            provenance=provenance,
            pools=table.pool_list,
            counts=self.tally.counts(groups=len(table.keys), groups_deleted=table.deleted),
            slots_per_document=dict(sorted(self.tally.slots_per_document.items())),
            max_groups_in_one_document=self.tally.max_groups_in_one_document,
            coverage=self.tally.coverage(),
            slot_mode=self.tally.slot_mode,
            entity_level=entity_block(table.keys, table.guarantee),
            marks=marks_summary(inline_marks=run.options.mark_slots, sidecar=self._sidecar),
            sign_off=run.sign_off,
            draws=run.history,
            record_fields=self.tally.record_fields(kept=run.settings.inputs.kept_fields),
            losses=self.tally.losses,
            notice=self.notice,
        )
        report = build_report(summary, output_hashes=dict(sorted(hashes.items())))
        config = config_toml(run, files=files, recorded=recorded_of(report))
        others = {
            "report.json": (json.dumps(report, indent=2, ensure_ascii=False) + "\n").encode("utf-8"),
            "report.md": render_markdown(report).encode("utf-8"),
            CONFIG_FILE: config.encode("utf-8"),
        }
        check_public_files(
            self.sink,
            documents,
            table,
            forms=self.forms,
            names=list(hashes),
            document_names=self.documents,
            others=others,
            withheld=self.withheld,
            marked=run.options.mark_slots,
            notice=self.notice,
        )
        for name, data in others.items():
            self.sink.write(name, data)
        private = {**confidential, **({"withheld": self.reasons} if self.reasons else {})}
        if self.relations is not None and self.relations.unprotected:  # by document; the report only counts them
            private["unprotected_sentences"] = self.relations.unprotected
        rows = self.relations.rows(table.keys, table.predicates) if self.relations is not None else []
        if self.relations is not None:
            self.sink.keep_apart(confidential_bytes(confidential_document(rows, private)))
        return Finished(report, self.sink.commit(), private, rows)
