"""The local batch engine: every core for extraction, documents streamed, memory flat as the corpus grows.

Three passes: (1) read files one at a time and extract on worker processes, keeping in memory only the
entity-alignment table (names and types, :class:`~relguard.extract.slots.EntityAlignment`) and the extractions
in a spill file; then, reading the spill back, align and review each document and add it to the group table and
the public tallies; (2) draw one outcome per group on this process (the encoder loads meanwhile, on a thread);
(3) rewrite each document from the outcome table, leak-scan it, and append it to its output file. Nothing
carries a final name until every file is complete. The public files are the same bytes as the in-memory
pipeline writes for the same seed (``tests/test_engines.py``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from relguard.engine.draw import OutcomeTable, draw_outcomes
from relguard.engine.finish import BackendLoader, Relations, write_reports
from relguard.engine.rewrite import rewrite_document
from relguard.engine.spill import Spill
from relguard.engine.tally import GroupTable, Tally
from relguard.engine.writer import ParquetCopy, ReleaseWriter
from relguard.errors import InputError
from relguard.extract.parallel import PARALLEL_FROM_CHARS, ExtractorId, default_workers, extract_stream
from relguard.extract.review import Review, review_document, slot_documents
from relguard.extract.slots import EntityAlignment
from relguard.io.read import count_documents, input_bytes, iter_files
from relguard.pipeline import Backends, provenance
from relguard.release.confidential import MappingRow
from relguard.settings import Settings
from relguard.types import Document, DocumentExtraction

Progress = Callable[[str, int, int], None]


@dataclass
class RunResult:
    """What a batch run wrote and said: the public report, the files, and the confidential tallies."""

    report: dict
    paths: list[Path]
    confidential: dict = field(default_factory=dict)
    mapping_rows: list[MappingRow] = field(default_factory=list)


def run_local(
    inputs: Sequence[str],
    settings: Settings,
    *,
    out: str | Path,
    workers: int | None = None,
    mapping: bool = False,
    parquet: bool = False,
    progress: Progress | None = None,
    backends: Backends | None = None,
) -> RunResult:
    """Sanitize ``inputs`` into ``out`` with ``workers`` extraction processes (see the module docstring).

    ``workers=None`` uses every core for an input large enough to repay the workers' start-up, else this
    process; ``parquet`` also writes the documents as one Parquet table (``documents.parquet``).
    """
    tell = progress or (lambda stage, done, total: None)
    review = Review.read(settings.inputs.review) if settings.inputs.review else Review()
    reading = {"max_bytes": settings.inputs.max_bytes, "text_field": settings.inputs.text_field}
    expected = count_documents(inputs, **reading)
    workers = auto_workers(inputs) if workers is None else workers
    if backends is None and settings.backends.uses_llm:
        backends = Backends.from_settings(settings.backends)  # LLM backends count calls: one object, this process
    if backends is not None and settings.backends.extractor != "spacy":
        workers = 1
    loader = BackendLoader(settings, backends)
    table, tally, hashes, model, alignment = GroupTable(), Tally(), {}, ExtractorId(), EntityAlignment()
    with Spill() as spill:
        stream = extract_stream(
            _documents(iter_files(inputs, **reading), hashes), extractor=settings.backends.extractor_backend,
            workers=workers, in_process=backends.extractor if backends is not None else None, model=model,
        )  # fmt: skip
        tell("extracting", 0, expected)
        for number, doc in enumerate(stream, start=1):
            alignment.add(doc)
            spill.add(doc)
            tell("extracting", number, expected)
        seen: set[str] = set()
        for doc in _aligned(spill, alignment, review):
            seen.add(doc.document.name)
            tally.extracted(doc)
            table.add(doc)
        check_review(review, seen)
        tell("drawing", 0, 0)
        chosen = loader.get()
        outcomes = draw_outcomes(table, privacy=settings.privacy, generator=chosen.candidates, encoder=chosen.encoder)
        public, confidential = provenance(
            extractor_id=model.value, encoder_id=chosen.encoder.model_id, generator=chosen.candidates,
            encoder_runtime=chosen.encoder.runtime,
            pools=outcomes.pools, backends=(("extractor", chosen.extractor), ("candidates", chosen.candidates)),
            review=review, input_hashes=hashes,
        )  # fmt: skip
        relations = Relations() if mapping else None
        with ReleaseWriter(out) as writer:
            copy = ParquetCopy(writer) if parquet else None
            withheld = _rewrite(
                _aligned(spill, alignment, review), outcomes, chosen, writer, tally,
                relations=relations, copy=copy, tell=lambda done: tell("rewriting", done, spill.count),
            )  # fmt: skip
            if withheld:
                confidential["withheld"] = withheld
            rows = relations.rows(outcomes) if relations is not None else None
            report = write_reports(
                writer, settings=settings, public=public, confidential=confidential, outcomes=outcomes,
                tally=tally, rows=rows,
            )  # fmt: skip
            paths = writer.commit()
    return RunResult(report, paths, confidential, rows or [])


def check_review(review: Review, seen: set[str]) -> None:
    """Every document a review's slot edits name must be in the corpus (a typo would drop the edit silently)."""
    if missing := slot_documents(review) - seen:
        raise InputError(f"review file names documents not in this corpus: {', '.join(sorted(missing))}")


def _documents(files, hashes: dict[str, str]) -> Iterator[Document]:
    for name, digest, found in files:
        hashes[name] = digest
        yield from found


def _aligned(
    documents: Iterable[DocumentExtraction], alignment: EntityAlignment, review: Review
) -> Iterator[DocumentExtraction]:
    """Documents as the in-memory pipeline sees them: aligned across the corpus, then reviewed."""
    for doc in documents:
        doc = alignment.apply(doc)
        yield review_document(doc, review) if review else doc


def _rewrite(documents, outcomes: OutcomeTable, chosen: Backends, writer, tally, *, relations, copy, tell):
    """Pass 3: each document rewritten, scanned and appended to its file; the withheld sentences listed."""
    index, sampled, drawn = outcomes.index, outcomes.sampled, outcomes.drawn
    withheld: list[dict] = []
    for number, doc in enumerate(documents, start=1):
        piece = rewrite_document(doc, index=index, sampled=sampled, drawn=drawn, forms=chosen.candidates.forms)
        writer.append(f"documents/{piece.file}", piece.data)
        if copy is not None:
            copy.add(doc.document.name, piece.file, piece.sanitized.text)
        tally.rewritten(piece.sanitized)
        withheld += piece.withheld
        if relations is not None:
            relations.add(doc, index)
        tell(number)
    if copy is not None:
        copy.close()
    return withheld


def auto_workers(inputs: Sequence[str]) -> int:
    """Every core when the input files add up to enough text to repay the workers' start-up, else one."""
    return default_workers() if input_bytes(inputs) >= PARALLEL_FROM_CHARS else 1


def print_progress(stage: str, done: int, total: int) -> None:
    """A one-line progress report on stderr (the CLI draws a tqdm bar instead)."""
    print(f"\r{stage}: {done}" + (f"/{total}" if total else ""), end="", file=sys.stderr)


__all__ = ["PARALLEL_FROM_CHARS", "RunResult", "auto_workers", "check_review", "print_progress", "run_local"]
