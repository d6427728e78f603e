"""The local batch engine: every core for extraction, documents streamed, memory flat as the corpus grows.

Read files one at a time and extract on worker processes, keeping in memory only the entity-alignment table
(names and types, :class:`~relguard.extract.slots.EntityAlignment`) and the extractions in a spill file; then,
reading the spill back, align and review each document and add it to the group table; embed the draw's typed
sentences on the workers (:mod:`~relguard.engine.embed_pool`) and draw one outcome per group on this process (its
encoder loads meanwhile, on a thread); rewrite each document from the outcome table
(:func:`~relguard.engine.rewrite.rewrite_document`) on every core, on the extraction's worker processes
(:mod:`~relguard.engine.rewrite_pool`; in this process for a small input or the LLM verbalizer, whose calls are
counted here) into the folder sink, in input order; and finish — reports, config, the
public-file check over the spill once more, the mapping — through the same assembly as every release. Nothing
carries a final name until every file is complete.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import nullcontext
from pathlib import Path

from relguard.engine.assemble import Assembly, Finished
from relguard.engine.backends import Backends, DrawLoader, verbalizer_from
from relguard.engine.draw import draw_step
from relguard.engine.embed_pool import embed_on_workers, warm_task
from relguard.engine.outcomes import draw_texts, table_pools
from relguard.engine.provenance import backend_provenance
from relguard.engine.rewrite import rewrite_document
from relguard.engine.rewrite_pool import RewritePool
from relguard.engine.sink import FolderSink
from relguard.engine.spill import Spill
from relguard.engine.tally import GroupTable
from relguard.errors import InputError
from relguard.extract.parallel import PARALLEL_FROM_CHARS, ExtractorId, WorkerPool, default_workers, extract_stream
from relguard.extract.review import Review, review_document, slot_documents
from relguard.extract.slots import EntityAlignment
from relguard.io.read import count_documents, input_bytes, iter_files
from relguard.release.config import RunConfig
from relguard.types import Document, DocumentExtraction

Progress = Callable[[str, int, int], None]


def run_local(
    run: RunConfig,
    *,
    out: str | Path,
    workers: int | None = None,
    mapping: str | Path | None = None,
    progress: Progress | None = None,
    backends: Backends | None = None,
) -> Finished:
    """Sanitize ``run.inputs`` into ``out`` with ``workers`` extraction processes (see the module docstring).

    ``workers=None`` uses every core for an input large enough to repay the workers' start-up, else this
    process; ``mapping`` is where the confidential mapping goes (outside ``out``), if anywhere.
    """
    settings, inputs = run.settings, run.paths
    tell = progress or (lambda stage, done, total: None)
    sink = FolderSink(out, mapping=mapping)  # refuses a mapping inside ``out`` before any work is done
    review = Review.read(settings.inputs.review) if settings.inputs.review else Review()
    reading = settings.inputs.reading
    expected = count_documents(inputs, **reading)
    workers = auto_workers(inputs) if workers is None else workers
    if backends is None and settings.backends.uses_llm:
        backends = Backends.from_settings(settings.backends)  # LLM backends count calls: one object, this process
    if backends is not None and settings.backends.extractor != "spacy":
        workers = 1
    loader = DrawLoader(settings.backends, backends.draw if backends is not None else None)
    table, hashes, model, alignment = GroupTable(), {}, ExtractorId(), EntityAlignment()
    extractor, encoder_backend = settings.backends.extractor_backend, settings.backends.encoder_backend
    then = warm_task(backend=encoder_backend, model=settings.backends.encoder)
    pool = WorkerPool(extractor=extractor, workers=workers, then=then) if workers > 1 else None
    with Spill() as spill, pool or nullcontext():
        stream = extract_stream(
            _documents(iter_files(inputs, **reading), hashes),
            extractor=extractor,
            workers=workers,
            in_process=backends.extractor if backends is not None else None,
            model=model,
            pool=pool,
        )
        tell("extracting", 0, expected)
        for number, doc in enumerate(stream, start=1):
            alignment.add(doc)
            spill.add(doc)
            tell("extracting", number, expected)
        seen: set[str] = set()
        for doc in aligned(spill, alignment, review):
            seen.add(doc.document.name)
            table.add(doc)
        check_review(review, seen)
        verbalize_here = settings.backends.verbalizer == "llm"
        rewriters = RewritePool(pool) if pool is not None and not verbalize_here else None
        tell("drawing", 0, 0)
        chosen = loader.get()
        if pool is not None:
            pools = table_pools(table, generator=chosen.candidates, k=settings.privacy.k)
            groups = [(key, table.predicates[key]) for key in table.keys]
            texts = draw_texts(groups, pools)
            embed_on_workers(pool, chosen.encoder, texts, backend=encoder_backend, model=settings.backends.encoder)
        drawn = draw_step(
            table,
            privacy=settings.privacy,
            generator=chosen.candidates,
            encoder=chosen.encoder,
            encoder_id=chosen.encoder.model_id,
            encoder_runtime=chosen.encoder.runtime,
            extractor_id=model.value,
            extractor_backend=backends.extractor if backends else None,
            review=review,
            input_hashes=hashes,
        )
        outcomes, public, confidential = drawn.outcomes, drawn.public, drawn.confidential
        forms = chosen.candidates.forms
        verbalize = verbalizer_from(settings.backends, forms)
        if verbalize is not None:
            public.setdefault("backends", {})["verbalizer"] = backend_provenance((("verbalizer", verbalize),))[0][
                "verbalizer"
            ]
        with sink:
            assembly = Assembly(
                sink,
                outcomes,
                forms=forms,
                mapping=mapping is not None,
                parquet=run.options.parquet,
                notice=not run.options.no_notice,
            )
            documents = aligned(spill, alignment, review)
            options = {"forms": forms, "mapping": mapping is not None, "inline_marks": run.options.mark_slots}
            pieces = (
                rewriters.rewrite(documents, outcomes, **options)
                if rewriters is not None
                else (rewrite_document(doc, outcomes, verbalize=verbalize, **options) for doc in documents)
            )
            for number, piece in enumerate(pieces, start=1):
                assembly.add(piece)
                tell("rewriting", number, spill.count)
            if verbalize is not None:  # what the model spent: a function of the text, confidential
                confidential.setdefault("backend_usage", {})["verbalizer"] = backend_provenance(
                    (("verbalizer", verbalize),)
                )[1]["verbalizer"]
            return assembly.finish(
                aligned(spill, alignment, review),
                run=run,
                files=sorted(hashes),
                provenance=public,
                confidential=confidential,
            )


def check_review(review: Review, seen: set[str]) -> None:
    """Every document a review's slot edits name must be in the corpus (a typo would drop the edit silently)."""
    if missing := slot_documents(review) - seen:
        raise InputError(f"review file names documents not in this corpus: {', '.join(sorted(missing))}")


def _documents(files, hashes: dict[str, str]) -> Iterator[Document]:
    for name, digest, found in files:
        hashes[name] = digest
        yield from found


def aligned(
    documents: Iterable[DocumentExtraction], alignment: EntityAlignment, review: Review
) -> Iterator[DocumentExtraction]:
    """Documents as the in-memory pipeline sees them: aligned across the corpus, then reviewed."""
    for doc in documents:
        doc = alignment.apply(doc)
        yield review_document(doc, review) if review else doc


def auto_workers(inputs: Sequence[str]) -> int:
    """Every core when the input files add up to enough text to repay the workers' start-up, else one."""
    return default_workers() if input_bytes(inputs) >= PARALLEL_FROM_CHARS else 1


def print_progress(stage: str, done: int, total: int) -> None:
    """A one-line progress report on stderr (the CLI draws a tqdm bar instead)."""
    print(f"\r{stage}: {done}" + (f"/{total}" if total else ""), end="", file=sys.stderr)


__all__ = ["PARALLEL_FROM_CHARS", "auto_workers", "check_review", "print_progress", "run_local"]
