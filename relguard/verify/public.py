"""Public files reveal only outcomes (DESIGN invariants 6 and 12): checks on the files and on the grouping.

:func:`public_file_problems` looks at a release's public files themselves; :func:`grouping_is_public` checks that
the relation groups do not depend on the predicates.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from relguard.errors import RelGuardError
from relguard.extract.corpus import group_relations
from relguard.io.parquet import parquet_rows
from relguard.io.write import CONFIDENTIAL_PREFIX
from relguard.privacy.measurement import relation_measurement
from relguard.release.confidential import MARKER
from relguard.release.report import PUBLIC_COUNTS
from relguard.types import CandidatePool, DocumentExtraction, Extraction, RelationGroup, Triple, TypePair

#: What check 5 says of files in which it found no problem.
NO_PROBLEM = "no input digest, no confidential count, no LLM usage; the stated bounds are the draw's privacy map"
#: Keys that must never appear in a public report: each needs the originals or the confidential mapping.
FORBIDDEN_KEYS = frozenset(
    {
        "inputs",
        "input_sha256",
        "unchanged",
        "substituted",
        "same_words",
        "prompt_tokens",
        "completion_tokens",
        "calls",
        "usage",
        "dropped",
        "backend_usage",
        "withheld",
        "original",
        "pool_origin",
    }
)


_DIGEST = re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")


def public_file_problems(files: Mapping[str, bytes], *, input_digests: Sequence[str] = ()) -> list[str]:
    """Check 5 on a set of public files: what in them could depend on an original except through outcomes.

    * every 64-hex digest must be one the report explains: an output file's, the pool hash, the encoder
      weights' (an input's digest would let a reader confirm a guess of the original text, unless it is also the
      digest of a file the release holds: a document with no slot is written as it was read);
    * no key of :data:`FORBIDDEN_KEYS` anywhere in report.json, and only public counts under ``counts``;
    * no confidential file among them: none named ``CONFIDENTIAL-…``, none holding the mapping's marker;
    * a Parquet copy of the documents (``--parquet``) holds exactly the texts of ``documents/``, nothing else;
    * the guarantee report.json states is the one the draw's measurement carries (:func:`stated_guarantee_problems`).
    """

    problems: list[str] = []
    names = sorted(files)
    for name in names:
        if name.rsplit("/", 1)[-1].startswith(CONFIDENTIAL_PREFIX):
            problems.append(f"the confidential file {name} is in the release folder; move it out and keep it apart")
        elif MARKER.encode() in files[name]:
            problems.append(f"{name} holds the confidential mapping (its marker); it must never be in a release")
    report = {}
    if "report.json" in files:
        try:
            report = json.loads(files["report.json"])
        except ValueError:
            problems.append("report.json is not valid JSON")
    allowed = set(report.get("files", {}).get("outputs", {}).values())
    allowed.add(str(report.get("candidates", {}).get("sha256", "")))
    allowed.add(str(report.get("candidates", {}).get("inventory_sha256", "")))
    allowed.add(str((report.get("candidates", {}).get("exclusion_policy") or {}).get("sha256", "")))
    allowed.add(str((report.get("candidates", {}).get("sensitive_policy") or {}).get("sha256", "")))
    allowed |= set(_DIGEST.findall(str(report.get("encoder", ""))))
    # A digest of a file the release holds is a digest of public bytes: an untouched document's output equals its
    # input, so its listed hash is the input's too and tells nothing the document itself does not.
    published = {hashlib.sha256(data).hexdigest() for data in files.values()}
    leaked = set(input_digests) - published
    for name in names:
        if name.startswith("documents/"):
            continue
        if name.endswith(".parquet"):
            problems += parquet_copy_problems(name, files[name], files)
            continue
        text = files[name].decode("utf-8", errors="replace")
        for digest in set(_DIGEST.findall(text)):
            if digest in leaked:
                problems.append(f"{name} holds the SHA-256 of an input file")
            elif digest not in allowed:
                problems.append(f"{name} holds an unexplained digest {digest[:12]}…")
    for path, key in _keys(report):
        if key in FORBIDDEN_KEYS:
            problems.append(f"report.json has the confidential field {path}")
    extra = set(report.get("counts", {})) - set(PUBLIC_COUNTS)
    if extra:
        problems.append(f"report.json counts {', '.join(sorted(extra))} need the confidential mapping")
    return problems + stated_guarantee_problems(report)


def stated_guarantee_problems(report: Mapping) -> list[str]:
    """Where the report's bounds and measurement differ from what the draw's OpenDP measurement states: its privacy
    map at d_R = 1 per relation and at m per document, and the measurement read from the object. A report edited to
    promise more, or written by code whose promise drifted from its draw, fails here."""
    guarantee, params = report.get("guarantee"), report.get("parameters")
    if not isinstance(guarantee, Mapping) or not isinstance(params, Mapping) or "measurement" not in guarantee:
        return []  # a report from before the measurement was stated: nothing to compare
    epsilon = params.get("epsilon")
    if isinstance(epsilon, bool) or not isinstance(epsilon, int | float) or not 0 <= epsilon < math.inf:
        return [f"report.json parameters.epsilon is {epsilon!r}, not the epsilon of a draw"]
    measurement = relation_measurement(epsilon=epsilon)
    per_document = measurement.privacy_map(float(guarantee.get("max_groups_in_one_document", 0)))
    expected = {
        "measurement": measurement.describe(),
        "worst_case_per_relation_bound": math.exp(measurement.privacy_map(1.0)),
        "worst_case_per_document_bound": math.exp(per_document) if per_document < 700 else "inf",
    }
    return [
        f"report.json guarantee.{key} is {guarantee.get(key)!r}, but the draw's privacy map gives {value!r}"
        for key, value in expected.items()
        if guarantee.get(key) != value
    ]


def parquet_copy_problems(name: str, data: bytes, files: Mapping[str, bytes]) -> list[str]:
    """The Parquet copy must repeat ``documents/`` file by file, row by row: then the leak scan of those files
    covers it (the copy's compressed bytes could not be scanned themselves)."""
    try:
        rows = parquet_rows(data)
    except RelGuardError as exc:
        return [f"{name}: {exc}"]
    copied: dict[str, list[str]] = {}
    for row in rows:
        copied.setdefault(str(row.get("file")), []).append(str(row.get("text")))
    expected = _document_texts(files)
    if copied != expected:
        differ = sorted(set(copied) ^ set(expected)) or sorted(f for f in copied if copied[f] != expected[f])
        return [f"{name} does not repeat documents/ exactly (first difference: {differ[0]})"]
    return []


def _document_texts(files: Mapping[str, bytes]) -> dict[str, list[str]]:
    """Per file of ``documents/``, the text of each document in it (a ``.jsonl`` file line by line)."""
    texts: dict[str, list[str]] = {}
    for name in sorted(n for n in files if n.startswith("documents/")):
        file = name.removeprefix("documents/")
        text = files[name].decode("utf-8", errors="replace")
        if not file.endswith(".jsonl"):
            texts[file] = [text]
            continue
        for line in text.splitlines():
            try:
                value = json.loads(line).get("text", "")
            except (ValueError, AttributeError):
                value = line
            texts.setdefault(file, []).append(str(value))
    return texts


def _keys(value: object, path: str = "") -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    if isinstance(value, dict):
        for key, inner in value.items():
            if path.endswith("candidates.pools") or path.endswith("slots_per_document"):
                continue
            found.append((f"{path}.{key}".lstrip("."), str(key)))
            found += _keys(inner, f"{path}.{key}")
    elif isinstance(value, list):
        for inner in value:
            found += _keys(inner, path)
    return found


def grouping_is_public(
    extraction: Extraction,
    pools: Mapping[TypePair, CandidatePool],
    *,
    grouper: Callable[[Sequence[DocumentExtraction]], tuple[RelationGroup, ...]] | None = None,
) -> tuple[bool, str]:
    """Check 4b: groups, their order and their slots do not depend on the predicates.

    Every triple's predicate is replaced by a pool predicate it does not have and the corpus is regrouped;
    the group keys, their order and each group's occurrence positions must come out identical. A key that
    held the predicate would split or merge groups here.
    """

    grouper = grouper or group_relations
    documents = []
    for doc in extraction.documents:
        triples = []
        for triple in doc.triples:
            pool = pools[triple.type_pair].predicates
            other = next(p for p in pool if p != triple.predicate)
            triples.append(
                Triple(
                    triple.subject, triple.subject_type, other, triple.object, triple.object_type, triple.occurrences
                )
            )
        documents.append(DocumentExtraction(doc.document, doc.sentences, doc.entities, tuple(triples)))
    groups = grouper(extraction.documents)
    again = grouper(documents)
    before = [(g.key, tuple((o.document, o.start, o.end) for o in g.occurrences)) for g in groups]
    after = [(g.key, tuple((o.document, o.start, o.end) for o in g.occurrences)) for g in again]
    keys = [g.key for g in groups]
    unique = len(set(keys)) == len(keys)
    same = before == after
    detail = f"{len(keys)} groups, {'unique' if unique else 'DUPLICATE'} pair keys; every predicate rewritten: " + (
        "same groups, order and slots" if same else "groups CHANGED"
    )
    return unique and same, detail


def read_release_files(path: str | Path) -> dict[str, bytes]:
    """Every file of a written release folder (or of the folder holding a given report.json), by relative name.

    Nothing is left out: a confidential file found there is one of them, so the public-file check reports it.
    """
    folder = Path(path)
    if folder.name == "report.json":
        folder = folder.parent
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
