"""What the Export page publishes and keeps apart, built through the release core like every other release.

The app's release is the one-batch case: :func:`relguard.engine.export` writes it into memory with the same
assembly, reports, config.toml and public-file check as ``relguard sanitize``; the zip holds exactly those public
files, and the confidential mapping comes back apart, for its own labelled download.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from relguard.engine import MemorySink, export, release_zip
from relguard.engine.memory import release_tally, run_of
from relguard.errors import ConfigError
from relguard.release.confidential import confidential_counts
from relguard.release.report import losing_text, loss_words
from relguard.types import Release


@dataclass(frozen=True)
class Exported:
    """The public files (and their zip, report and config) and, apart, the confidential mapping and its counts."""

    files: dict[str, bytes]
    report: dict
    zip: bytes
    mapping: bytes
    confidential_counts: dict[str, int]

    @property
    def report_md(self) -> str:
        return self.files["report.md"].decode("utf-8")

    @property
    def config(self) -> str:
        return self.files["config.toml"].decode("utf-8")


def export_release(
    release: Release,
    *,
    inputs: Sequence[str],
    review: str | None = None,
    mark_slots: bool = False,
    policy: str = "",
) -> Exported:
    """The export of ``release``; ``inputs`` are the paths its config names, ``review`` the review file it replays.

    Every filled slot's range is always in the release (:mod:`relguard.engine.marks`); ``mark_slots`` also writes
    the marks into the text itself, as ``relguard sanitize --mark-slots`` does. ``policy`` is the text of the
    exclusion policy the pools were built under: public, it travels in the zip under the name the report and the
    config give it, so ``relguard sanitize --config`` replays the same pools.
    """
    sink = MemorySink()
    run = run_of(release, inputs=list(inputs), review=review)
    run = dataclasses.replace(run, options=dataclasses.replace(run.options, mark_slots=mark_slots))
    finished = export(release, sink, run=run, mapping=True)
    assert sink.confidential is not None
    named = release.provenance.get("exclusion_policy")
    if named:
        if hashlib.sha256(policy.encode("utf-8")).hexdigest() != named["sha256"]:
            raise ConfigError("the exclusion policy given is not the one the release was drawn under; draw it again")
        sink.files[named["file"]] = policy.encode("utf-8")
    counts = confidential_counts(finished.mapping_rows)
    return Exported(sink.files, finished.report, release_zip(sink.files), sink.confidential, counts)


def lost_text(release: Release) -> list[str]:
    """Each document that came out empty or lost more than half its sentences, said as the report says it."""
    return [loss_words(entry) for entry in losing_text(release_tally(release).losses)]
