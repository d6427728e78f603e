"""A written release's report.json, read back for an audit, and the audit recorded into it."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from relguard.errors import InputError
from relguard.io.write import atomic_write
from relguard.release.markdown import render_markdown
from relguard.types import CandidatePool, TypePair
from relguard.verify.result import SelfAudit


def read_report(path: str | Path) -> dict:
    """A release's report.json (or the folder holding it), with a clear error when it is not one."""
    path = Path(path)
    if path.is_dir():
        path = path / "report.json"
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: not a readable RelGuard report.json ({exc}); pass a release folder") from exc
    if not isinstance(report, dict) or "candidates" not in report or "parameters" not in report:
        raise InputError(f"{path}: not a RelGuard report.json (no 'parameters'/'candidates'); pass a release folder")
    return report


def pools_from_report(report: Mapping[str, object]) -> dict[TypePair, CandidatePool]:
    """The public pools a report lists, as the pools the release was drawn from."""
    candidates = report["candidates"]
    assert isinstance(candidates, Mapping)
    source = candidates.get("source") or "report"
    pools = {}
    for key, predicates in candidates["pools"].items():
        a, b = key.split("|")
        pools[(a, b)] = CandidatePool((a, b), tuple(predicates), source)
    return pools


def record_in_release(folder: str | Path, audit: SelfAudit) -> list[Path]:
    """Add the audit to a written release's report.json and re-render its report.md (atomically)."""
    folder = Path(folder)
    if folder.name == "report.json":
        folder = folder.parent
    report = read_report(folder)
    report["self_audit"] = audit.to_dict()
    atomic_write(folder / "report.json", (json.dumps(report, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    atomic_write(folder / "report.md", render_markdown(report).encode("utf-8"))
    return [folder / "report.json", folder / "report.md"]
