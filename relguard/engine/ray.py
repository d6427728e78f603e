"""The Ray engine: the same release as the local engine, with extraction and rewriting spread over a cluster.

On Ray Data: the input files are read by tasks (the same parser as every other face) and materialized, so a bad file
fails before any extraction, and cut into blocks of one batch, each actor taking one batch at a time: a corpus in one
large file is spread over every actor (a block per file, and Ray's default of four batches in flight per actor, gave a
one-file corpus to the first actor that started). Extraction runs as ``map_batches`` over actors that load spaCy once
each, and its results stay in Ray's object store (spilled to disk as it fills) — the cluster's version of the local
spill file. Each actor also returns its part of the entity-alignment table; the driver merges them. The grouping of
slots by their public key is a ``groupby``, after which actors compute each group's distance row (a row depends on its
own group alone, so it is the local engine's to the bit); the draw runs on the driver through the same sampler as every
engine, from K floats per group.
Rewriting runs on actors, each document through the one per-document rewrite
(:func:`~relguard.engine.rewrite.rewrite_document`), its bytes staged in a folder inside ``--out``; the driver
adds the pieces in input order to the same assembly and folder sink as every release, whose finish reads the
extractions back from the object store for the public-file check. With the same teaching seed the public files
equal the local engine's byte for byte (``tests/test_engines.py``).

On a cluster ``--out`` and the inputs must be on a filesystem every node sees (NFS, a FUSE-mounted bucket), and
every node needs RelGuard installed (docs/scaling.md).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import pickle
import re
import shutil
import uuid
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from relguard import errors, registry
from relguard.candidates.embeddings import warm_public_embeddings
from relguard.candidates.pools import build_pools
from relguard.engine.assemble import Assembly, Finished
from relguard.engine.backends import DrawLoader, candidates_from
from relguard.engine.draw import draw_step
from relguard.engine.local import Progress, check_review
from relguard.engine.outcomes import distance_matrix
from relguard.engine.rewrite import rewrite_document
from relguard.engine.sink import FolderSink
from relguard.engine.tally import GroupTable
from relguard.errors import ConfigError, RelGuardError
from relguard.extract.parallel import BATCH, default_workers
from relguard.extract.review import Review, review_document
from relguard.extract.slots import EntityAlignment
from relguard.io.read import input_files, read_file
from relguard.release.config import RunConfig
from relguard.settings import BackendSettings

STAGING = ".relguard-staging-"


def run_ray(
    run: RunConfig,
    *,
    out: str | Path,
    workers: int | None = None,
    address: str | None = None,
    mapping: str | Path | None = None,
    progress: Progress | None = None,
) -> Finished:
    """Sanitize ``run.inputs`` into ``out`` on Ray (a local instance of ``workers`` CPUs, or the cluster at
    ``address``); see the module docstring. An instance this call starts is shut down when it ends."""
    settings = run.settings
    if settings.backends.uses_llm:
        raise ConfigError(
            "--engine ray runs the offline backends (spaCy, the inventory); an LLM backend counts its calls in "
            "one process: use --engine local with --extractor llm / --candidates llm"
        )
    ray, data = _import_ray()
    tell = progress or (lambda stage, done, total: None)
    sink = FolderSink(out, mapping=mapping)  # refuses a mapping inside ``out`` before Ray starts
    files = input_files(run.paths)
    review = Review.read(settings.inputs.review) if settings.inputs.review else Review()
    started = _connect(ray, address, workers)
    staging = Path(out) / f"{STAGING}{uuid.uuid4().hex}"
    try:
        with _unwrapped(ray), _sort_shuffle(data), warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=UserWarning, module=r"ray(\.|$)")
            return _run(ray, data, files, run, review, sink, staging, mapping is not None, tell)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        if started:
            ray.shutdown()


def _run(ray, data, files, run: RunConfig, review, sink: FolderSink, staging, mapping: bool, tell) -> Finished:
    from ray.data.expressions import col

    settings = run.settings
    loader = DrawLoader(settings.backends)
    actors = max(1, int(ray.cluster_resources().get("CPU", 1)))
    pool = data.ActorPoolStrategy(size=actors, max_tasks_in_flight_per_actor=1)
    reading = settings.inputs.reading
    items = [{"file": i, "path": str(path), "name": name} for i, (path, name) in enumerate(files)]
    documents = (
        data.from_items(items, override_num_blocks=min(len(items), 4 * actors))
        .flat_map(_read_file, fn_kwargs=reading)
        .repartition(target_num_rows_per_block=BATCH)
        .materialize()
    )
    total = documents.count()
    hashes = {r["name"]: r["digest"] for r in documents.filter(expr=col("digest") != "").take_all()}
    tell("extracting", 0, total)
    extracted = documents.map_batches(
        _Extract,
        fn_constructor_kwargs={"name": settings.backends.extractor_backend},
        batch_size=BATCH,
        compute=pool,
        batch_format="pandas",
    ).materialize()
    alignment = EntityAlignment()
    for row in extracted.filter(expr=col("partial") == 1).select_columns(["alignment"]).iter_rows():
        alignment.merge(pickle.loads(row["alignment"]))
    tell("extracting", total, total)
    context = ray.put({"alignment": alignment, "review": review})
    measuring = {"backends": _for_actors(settings.backends), "k": settings.privacy.k}
    grouped = (
        extracted.flat_map(_slot_rows, fn_kwargs={"context": context})
        .groupby("key")
        .map_groups(_group_predicates, batch_format="pandas")
        .materialize()  # the shuffle must finish before the distance actors take every CPU
    )
    groups = grouped.map_batches(
        _Distances,
        fn_constructor_kwargs=measuring,
        batch_size=DISTANCE_BATCH,
        concurrency=max(1, min(actors, -(-grouped.count() // DISTANCE_BATCH))),  # no actor without a batch to embed
        batch_format="pandas",
    ).take_all()
    table = GroupTable({tuple(json.loads(g["key"])): set(json.loads(g["predicates"])) for g in groups})
    tell("drawing", 0, 0)
    chosen = loader.get()
    rows = _distances_in_key_order(groups, table, encoder_id=chosen.encoder.model_id, k=settings.privacy.k)
    drawn = draw_step(
        table,
        privacy=settings.privacy,
        generator=chosen.candidates,
        encoder=chosen.encoder,
        distances=rows,
        encoder_id=chosen.encoder.model_id,
        encoder_runtime=chosen.encoder.runtime,
        extractor_id=extracted.take(1)[0]["model"],
        extractor_backend=None,
        review=review,
        input_hashes=hashes,
    )
    outcomes, public, confidential = drawn.outcomes, drawn.public, drawn.confidential
    staging.mkdir(parents=True)
    rewriting = {
        "context": context,
        "outcomes": ray.put(outcomes),
        "generator": ray.put(chosen.candidates),
        "staging": str(staging),
        "mapping": mapping,
        "inline_marks": run.options.mark_slots,
    }
    written = extracted.map_batches(
        _Rewrite, fn_constructor_kwargs=rewriting, batch_size=BATCH, compute=pool, batch_format="pandas"
    )
    seen: set[str] = set()
    with sink:
        forms = chosen.candidates.forms
        notice = not run.options.no_notice
        assembly = Assembly(sink, outcomes, forms=forms, mapping=mapping, parquet=run.options.parquet, notice=notice)
        for number, row in enumerate(written.iter_rows(), start=1):
            staged = staging / row["piece"]
            piece = dataclasses.replace(pickle.loads(row["meta"]), data=staged.read_bytes())
            staged.unlink()
            assembly.add(piece)
            seen.add(piece.document)
            tell("rewriting", number, total)
        check_review(review, seen)
        shared = ray.get(context)
        again = (_aligned(row["extraction"], shared) for row in extracted.iter_rows())
        return assembly.finish(again, run=run, files=sorted(hashes), provenance=public, confidential=confidential)


def _read_file(item: dict, *, max_bytes: int, text_field: str, keep_fields: frozenset[str]) -> list[dict]:
    """One input file → one row per document (the first row carries the file's digest, for the mapping)."""
    digest, found = read_file(
        Path(item["path"]), item["name"], max_bytes=max_bytes, text_field=text_field, keep_fields=keep_fields
    )
    return [
        {
            "file": item["file"],
            "number": n,
            "name": item["name"],
            "digest": digest if n == 0 else "",
            "document": pickle.dumps(doc, protocol=pickle.HIGHEST_PROTOCOL),
        }
        for n, doc in enumerate(found)
    ]


class _Extract:
    """An actor holding one extractor; each batch returns its extractions and its part of the alignment table."""

    def __init__(self, name: str) -> None:
        self.extractor = registry.create("extractor", name)

    def __call__(self, batch):
        documents = [pickle.loads(raw) for raw in batch["document"]]
        extractions = list(self.extractor.extract_many(documents))
        partial = EntityAlignment()
        for doc in extractions:
            partial.add(doc)
        batch = batch.drop(columns=["document", "digest"])
        batch["extraction"] = [pickle.dumps(d, protocol=pickle.HIGHEST_PROTOCOL) for d in extractions]
        batch["alignment"] = [pickle.dumps(partial)] + [b""] * (len(extractions) - 1)
        batch["partial"] = [1] + [0] * (len(extractions) - 1)
        batch["model"] = self.extractor.model_id
        return batch


#: Groups per batch on a distance actor: enough distinct texts that few forward passes are part-filled.
DISTANCE_BATCH = 1024


class _Distances:
    """An actor holding the encoder and the pools; each batch of groups returns their distance rows.

    The distinct predicates grow with the corpus (most long paths are worded once), so embedding them on the
    driver would be a cluster run's serial bottleneck, and their vectors would have to fit in its memory. A
    row depends on its own group only (:func:`relguard.engine.outcomes.distance_matrix`), so the rows are the ones
    the local engine computes, and only K floats per group travel to the driver.
    """

    def __init__(self, *, backends: BackendSettings, k: int) -> None:
        self.encoder = registry.create("encoder", backends.encoder_backend, model=backends.encoder)
        self.generator = candidates_from(backends, encoder=self.encoder)
        warm_public_embeddings(self.generator, self.encoder)
        self.k, self.pools = k, {}

    def __call__(self, batch):
        groups = [(tuple(json.loads(k)), json.loads(p)) for k, p in zip(batch["key"], batch["predicates"], strict=True)]
        missing = {(key[1], key[3]) for key, _ in groups} - set(self.pools)
        self.pools.update(build_pools(missing, generator=self.generator, k=self.k))
        rows = distance_matrix(groups, self.pools, self.encoder)
        batch["distances"] = [row.tobytes() for row in rows]
        batch["encoder"] = self.encoder.model_id
        return batch


def _for_actors(backends: BackendSettings) -> BackendSettings:
    """The backends as the distance actors read them: a relative policy or pool file resolved against this
    process's working directory, which an actor does not share (it read "exclusion-policy.txt" from its own)."""
    files = {f: str(Path(v).resolve()) for f in ("exclude_predicates", "pool_file") if (v := getattr(backends, f))}
    return dataclasses.replace(backends, **files)


def _distances_in_key_order(groups: list[dict], table: GroupTable, *, encoder_id: str, k: int):
    """The actors' rows as one (g, K) matrix in the table's key order, checked to come from the driver's encoder."""
    import numpy as np

    if other := {g["encoder"] for g in groups} - {encoder_id}:
        raise errors.ModelError(f"a Ray worker loaded encoder {other.pop()}, the driver {encoder_id}")
    rows = {tuple(json.loads(g["key"])): np.frombuffer(g["distances"], dtype=np.float64) for g in groups}
    return np.stack([rows[key] for key in table.keys]) if rows else np.zeros((0, k))


def _context(reference) -> dict:
    """The driver's alignment table and review, fetched once per worker process."""
    import ray

    key = reference.hex()
    if key not in _CONTEXT:
        _CONTEXT.clear()
        _CONTEXT[key] = ray.get(reference)
    return _CONTEXT[key]


_CONTEXT: dict[str, dict] = {}


def _aligned(raw: bytes, context: dict):
    doc = context["alignment"].apply(pickle.loads(raw))
    return review_document(doc, context["review"]) if context["review"] else doc


def _slot_rows(row: dict, *, context) -> list[dict]:
    doc = _aligned(row["extraction"], _context(context))
    return [{"key": json.dumps(t.pair_key), "predicate": t.predicate} for t in doc.triples]


def _group_predicates(group):
    import pandas

    return pandas.DataFrame(
        {"key": [group["key"].iloc[0]], "predicates": [json.dumps(sorted(set(group["predicate"])))]}
    )


class _Rewrite:
    """An actor holding the candidate forms; each document is rewritten, scanned and its bytes staged.

    The forms come from the driver's own pool generator, so the words a fill may use are the ones the draw used.
    The piece travels to the driver without its bytes, which wait in the staging folder.
    """

    def __init__(self, *, context, outcomes, generator, staging, mapping, inline_marks=False) -> None:
        import ray

        self.context = _context(context)
        self.outcomes = ray.get(outcomes)
        self.forms = ray.get(generator).forms
        self.staging, self.mapping, self.inline_marks = Path(staging), mapping, inline_marks

    def __call__(self, batch):
        import pandas

        rows: dict[str, list] = {"piece": [], "meta": []}
        for file, number, raw in zip(batch["file"], batch["number"], batch["extraction"], strict=True):
            doc = _aligned(raw, self.context)
            piece = rewrite_document(
                doc, self.outcomes, forms=self.forms, mapping=self.mapping, inline_marks=self.inline_marks
            )
            name = f"{int(file):09d}-{int(number):09d}.part"
            (self.staging / name).write_bytes(piece.data)
            rows["piece"].append(name)
            rows["meta"].append(pickle.dumps(dataclasses.replace(piece, data=b"")))
        return pandas.DataFrame(rows)


def _import_ray():
    try:
        import ray
        import ray.data
    except ImportError as exc:
        raise ConfigError("--engine ray needs the ray package: pip install 'relguard[ray]'") from exc
    for name in ("ray", "ray.data", "ray.train", "ray.tune"):
        logging.getLogger(name).setLevel(logging.CRITICAL)  # a failed task is reported by RelGuard, in one line
    return ray, ray.data


def _connect(ray, address: str | None, workers: int | None) -> bool:
    """Join the cluster at ``address``, or start a local instance; True when this call started it."""
    started = not ray.is_initialized()
    if started:
        options = {"include_dashboard": False, "log_to_driver": False, "logging_level": logging.ERROR}
        try:
            if address:
                ray.init(address=address, **options)
            else:
                ray.init(num_cpus=workers or default_workers(), **options)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            where = f"the Ray cluster at {address}" if address else "a local Ray instance"
            raise ConfigError(f"could not start or join {where} ({exc}); check --ray-address and `ray status`") from exc
    context = ray.data.DataContext.get_current()
    context.execution_options.preserve_order = True  # the draw is order-free; the output files are not
    context.enable_progress_bars = False
    return started


@contextmanager
def _unwrapped(ray) -> Iterator[None]:
    """A RelGuard error raised inside a Ray task reaches the CLI as itself: one readable line, not a trace.

    Ray Data wraps a task's exception in its own and keeps the original only as text, so it is read back from
    there (``relguard.errors.InputError: <message>``) and raised again with its class and message."""
    try:
        yield
    except ray.exceptions.RayError as exc:
        found = _RAISED.search(str(exc))
        kind = getattr(errors, found.group(1), None) if found else None
        if isinstance(kind, type) and issubclass(kind, RelGuardError):
            raise kind(found.group(2).strip()) from None
        raise


@contextmanager
def _sort_shuffle(data) -> Iterator[None]:
    """Group the slots by key with Ray Data's sort shuffle for this run, and leave the caller's choice as it was.

    The default hash shuffle starts aggregator actors of its own, each a fresh process, before the distance actors
    may start, which on a small instance is a large share of a small run. The grouped rows are small (a key and a
    predicate per slot), which the sort shuffle's tasks move on the workers Ray already holds."""
    context = data.DataContext.get_current()
    before = context.shuffle_strategy
    context.shuffle_strategy = type(before).SORT_SHUFFLE_PULL_BASED
    try:
        yield
    finally:
        context.shuffle_strategy = before


_RAISED = re.compile(r"relguard\.errors\.(\w+): ([^\n\x1b]+)")
