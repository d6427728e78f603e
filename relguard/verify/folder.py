"""The leak scan of a release folder as it lies on disk: what a privacy officer runs on the files they will publish.

Every release is scanned before it is written (:mod:`relguard.engine.check`); this scans it again afterwards, from
the folder itself, so a file changed by hand or by another tool after the release was made is caught too. It needs
what only the owner of the corpus has: the inputs (re-extracted with the release's settings, read from its
config.toml) and the confidential mapping (the sampled outcome of every group, and the withheld sentences).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from relguard.engine import OutcomeTable
from relguard.engine.backends import Backends
from relguard.engine.check import leaks_in_files
from relguard.errors import InputError
from relguard.extract.review import Review
from relguard.io import read_documents
from relguard.pipeline import Prepared, prepare
from relguard.release.config import CONFIG_FILE, read_config, resolve_inputs
from relguard.release.leakscan import Leak
from relguard.types import Guarantee
from relguard.verify.public import read_release_files
from relguard.verify.report_file import pools_from_report, read_report
from relguard.verify.result import Check


def corpus_of(folder: str | Path) -> Prepared:
    """The corpus behind a release folder, prepared as its config.toml says (inputs, backends, K, review)."""
    config = Path(folder) / CONFIG_FILE
    run, _ = read_config(config)
    settings = run.settings
    reading = settings.inputs.reading
    documents, hashes = read_documents(resolve_inputs(run.inputs, config), **reading)
    review = Review.read(settings.inputs.review) if settings.inputs.review else None
    backends = Backends.from_settings(settings.backends)
    return prepare(documents, k=settings.privacy.k, backends=backends, input_hashes=hashes, review=review)


def outcomes_of(mapping: Mapping, report: Mapping) -> OutcomeTable:
    """The outcome table a confidential mapping records, with the pools and parameters of the report."""
    params = report["parameters"]
    keys = tuple((o["subject"], o["subject_type"], o["object"], o["object_type"]) for o in mapping["outcomes"])
    sampled = tuple(o["sampled"] for o in mapping["outcomes"])
    guarantee = Guarantee(params["epsilon"], params["lambda"], params["k"], entity_epsilon=params.get("entity_epsilon"))
    return OutcomeTable(keys, sampled, pools_from_report(report), guarantee)


def folder_leaks(folder: str | Path, *, mapping: str | Path, corpus: Prepared) -> list[Leak]:
    """Every leak in the files of ``folder`` given the corpus's originals and the outcomes ``mapping`` records."""
    try:
        recorded = json.loads(Path(mapping).read_text(encoding="utf-8"))
        table = outcomes_of(recorded, read_report(folder))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise InputError(f"{mapping}: not the confidential mapping of a RelGuard release ({exc})") from exc
    if list(table.keys) != [g.key for g in corpus.groups]:
        raise InputError(
            f"{mapping}: its relation groups are not those of this corpus; audit the release with its own inputs "
            "and settings (its config.toml)"
        )
    withheld: dict[str, list[int]] = {}
    for entry in recorded.get("withheld", []):
        withheld.setdefault(entry["document"], []).append(entry["sentence"])
    files = read_release_files(folder)
    forms = corpus.generator.forms
    notice = read_report(folder).get("release_notice")
    return leaks_in_files(corpus.extraction.documents, files, table, forms=forms, withheld=withheld, notice=notice)


def folder_check(folder: str | Path, *, mapping: str | Path, corpus: Prepared) -> Check:
    """:func:`folder_leaks` as a line of the audit table."""
    leaks = folder_leaks(folder, mapping=mapping, corpus=corpus)
    shown = "; ".join(leak.describe() for leak in leaks[:3]) + (
        f" (and {len(leaks) - 3} more)" if len(leaks) > 3 else ""
    )
    detail = shown or "no original relation, deleted sentence or mapping in any file of the folder"
    return Check("public files: the leak scan of the folder as written", not leaks, detail)
