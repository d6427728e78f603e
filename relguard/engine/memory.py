"""A release held in memory: the one-batch case of the streaming core (the app and the library).

:func:`draw_release` rewrites every document of an extraction through the same per-document rewrite as a batch
run; :func:`export` then writes the release through any sink with the same assembly, reports, config and
public-file check. :func:`public_files`, :func:`write_release` and :func:`release_zip` are that export into memory,
a folder and a zip.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Mapping
from pathlib import Path

from relguard.candidates.forms import default_forms
from relguard.engine.assemble import Assembly, Finished
from relguard.engine.check import leaks_in_files
from relguard.engine.notice import notice_of
from relguard.engine.outcomes import OutcomeTable
from relguard.engine.rewrite import piece_of, rewrite_document
from relguard.engine.sink import FolderSink, MemorySink, Sink
from relguard.engine.tally import Tally
from relguard.release.config import RunConfig
from relguard.release.draws import DrawHistory
from relguard.release.leakscan import Leak
from relguard.settings import BackendSettings, InputSettings, PrivacySettings, Settings
from relguard.types import Extraction, Forms, Release

_ZIP_TIME = (2020, 1, 1, 0, 0, 0)


def draw_release(
    extraction: Extraction, *, table: OutcomeTable, forms: Forms, provenance: dict, confidential: dict
) -> Release:
    """Every document rewritten from ``table`` (:func:`~relguard.engine.rewrite.rewrite_document`), as a release."""
    pieces = [rewrite_document(doc, table, forms=forms) for doc in extraction.documents]
    reasons = [reason for piece in pieces for reason in piece.withheld]
    return Release(
        guarantee=table.guarantee,
        documents=tuple(piece.sanitized for piece in pieces),
        outcomes=table.outcomes(extraction.groups),
        pools=table.pool_list,
        extraction=extraction,
        provenance=provenance,
        confidential={**confidential, **({"withheld": reasons} if reasons else {})},
        forms=forms,
    )


def export(release: Release, sink: Sink, *, run: RunConfig | None = None, mapping: bool = False) -> Finished:
    """Write ``release`` through ``sink``: the one-batch case of a batch run's rewrite and finish.

    ``run`` is the config the release replays from (default: what the release itself says, :func:`run_of`);
    ``mapping`` keeps the confidential mapping apart in the sink.
    """
    table = OutcomeTable.of_release(release)
    reasons: dict[str, list[dict]] = {}
    for reason in release.confidential.get("withheld", []):
        reasons.setdefault(reason["document"], []).append(reason)
    run = run or run_of(release)
    forms = release.forms or default_forms
    confidential = {key: value for key, value in release.confidential.items() if key != "withheld"}
    try:
        notice = not run.options.no_notice
        assembly = Assembly(sink, table, forms=forms, mapping=mapping, parquet=run.options.parquet, notice=notice)
        for doc, out in zip(release.extraction.documents, release.documents, strict=True):
            withheld = reasons.get(doc.document.name, ())
            index = table.index if mapping else None
            marked = run.options.mark_slots
            assembly.add(piece_of(doc, out, withheld=withheld, index=index, inline_marks=marked))
        return assembly.finish(
            release.extraction.documents,
            run=run,
            files=input_names(release),
            provenance=release.provenance,
            confidential=confidential,
        )
    except BaseException:
        sink.abort()  # nothing of an unfinished release carries a final name
        raise


def public_files(release: Release, *, run: RunConfig | None = None) -> dict[str, bytes]:
    """Every public file of ``release`` (documents, report.json, report.md, config.toml), checked."""
    sink = MemorySink()
    export(release, sink, run=run)
    return sink.files


def write_release(
    release: Release, out: str | Path, *, mapping: str | Path | None = None, run: RunConfig | None = None
) -> list[Path]:
    """Write the public files under ``out``, all or nothing, and the confidential mapping at ``mapping`` (outside
    ``out``) when given; the paths written."""
    finished = export(release, FolderSink(out, mapping=mapping), run=run, mapping=mapping is not None)
    return [Path(out) / name if not Path(name).is_absolute() else Path(name) for name in finished.names]


def release_zip(files: dict[str, bytes]) -> bytes:
    """Public files as zip bytes: members sorted by name with a fixed timestamp, so one release is one zip."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name])
    return buffer.getvalue()


def input_names(release: Release) -> list[str]:
    """The input file names a release was read from (public: its output files carry them)."""
    names = release.confidential.get("input_sha256") or {}
    if names:
        return sorted(names)
    return sorted({d.document.source or d.document.name for d in release.extraction.documents})


def run_of(release: Release, *, inputs: list[str] | None = None, review: str | None = None) -> RunConfig:
    """The config that replays ``release`` from what it says about itself.

    The extractor and encoder by name; pools an LLM made are replayed from the release's own report.json (a pool
    file), so the replay needs no LLM for them. ``inputs`` default to the input names. The sign-off and the draw
    history the app added to the release's provenance are this release's own (recorded, not replayed).
    """
    g, p = release.guarantee, release.provenance
    backends = p.get("backends") or {}
    extractor = str(p.get("extractor") or "spacy").split(":", 1)[0]
    options: dict[str, str | None] = {"extractor": extractor if extractor in ("spacy", "llm", "union") else "spacy"}
    if "model" in (backends.get("extractor") or {}):
        options |= {"extractor": "llm", "llm_model": backends["extractor"]["model"]}
    if "model" in (backends.get("candidates") or {}):
        options |= {"candidates": "pool-file", "pool_file": "report.json"}
    else:
        options["candidates"] = str(p.get("candidates") or "inventory")
    if policy := p.get("exclusion_policy"):  # the policy file, beside config.toml in the app's zip
        options["exclude_predicates"] = str(policy["file"])
    sensitive_off = not p.get("sensitive_policy")  # built-in: a config replays it by saying whether it was on
    encoder = str(p.get("encoder") or "")
    encoder = encoder.split(":", 1)[1] if encoder.startswith("sentence-transformers:") else encoder
    history = p.get("draw_history")
    history = history if isinstance(history, DrawHistory) else DrawHistory()
    own = {"seed": g.seed, "entity_epsilon": g.entity_epsilon, "budget": history.budget}
    settings = Settings(
        privacy=PrivacySettings(epsilon=g.epsilon, lam=g.lam, k=g.k, **own),
        backends=BackendSettings(
            **options,
            no_sensitive_policy=sensitive_off,
            **({"encoder": encoder.split("@sha256:", 1)[0]} if encoder else {}),
        ),
        inputs=InputSettings(review=review),
    )
    return RunConfig(
        settings, tuple(inputs or input_names(release)), sign_off=dict(p.get("sign_off") or {}), history=history
    )


def release_tally(release: Release) -> Tally:
    """The public tallies of an in-memory release, counted the way every release counts them."""
    tally = Tally()
    for doc, out in zip(release.extraction.documents, release.documents, strict=True):
        tally.merge(Tally.of(doc, out))
    return tally


def release_counts(release: Release) -> dict[str, int]:
    """The report's public counts of an in-memory release (:data:`relguard.release.report.PUBLIC_COUNTS`)."""
    deleted = sum(1 for o in release.outcomes if o.deleted)
    return release_tally(release).counts(groups=len(release.outcomes), groups_deleted=deleted)


def scan_release(release: Release, files: Mapping[str, bytes]) -> list[Leak]:
    """Every leak the public-file check finds in ``files`` (name → bytes) for an in-memory ``release``."""
    withheld = {d.name: d.withheld_sentences for d in release.documents if d.withheld_sentences}
    table = OutcomeTable.of_release(release)
    forms = release.forms or default_forms
    notice = notice_of(release.guarantee)  # read without it when the files carry it
    return leaks_in_files(release.extraction.documents, files, table, forms=forms, withheld=withheld, notice=notice)
