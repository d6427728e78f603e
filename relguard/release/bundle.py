"""What leaves the building: the public files, written to a folder or zipped, and the reproducing config.

The public files are exactly the sanitized documents under ``documents/`` with their input names,
``report.json`` and ``report.md`` (DESIGN invariant 9); the app's zip adds ``config.toml``, the settings and the
CLI command that reproduce the run. Every set of public files passes the leak scan before a byte is written.
The confidential mapping is only ever written on request, as its own labelled file.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import tomli_w

from relguard.io.digest import sha256_bytes
from relguard.io.write import atomic_write_all, safe_output_path, serialize_documents
from relguard.release.confidential import MAPPING_FILE, confidential_bytes
from relguard.release.leakscan import check_public_files, forms_for
from relguard.release.markdown import render_markdown
from relguard.release.report import build_report
from relguard.settings import (
    DEFAULT_CANDIDATES,
    DEFAULT_ENCODER,
    DEFAULT_EXTRACTOR,
    BackendSettings,
    InputSettings,
    PrivacySettings,
    Settings,
    command_line,
)
from relguard.types import Release

CONFIG_FILE = "config.toml"
_ZIP_TIME = (2020, 1, 1, 0, 0, 0)


def public_files(release: Release) -> dict[str, bytes]:
    """Everything a public export holds: sanitized documents under ``documents/`` plus the report.

    Scanned by :mod:`relguard.release.leakscan` before it is returned: a leak raises ``LeakError``.
    """
    originals = {d.document.name: d for d in release.extraction.documents}
    pairs = [(originals[s.name].document, s.text) for s in release.documents]
    files = {f"documents/{name}": data for name, data in serialize_documents(pairs).items()}
    hashes = {name: sha256_bytes(data) for name, data in files.items()}
    report = build_report(release, output_hashes=hashes)
    files["report.json"] = (json.dumps(report, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    files["report.md"] = render_markdown(report).encode("utf-8")
    check_public_files(release, files, forms=forms_for(release))
    return files


def write_release(release: Release, out_dir: str | Path, *, mapping: bool = False) -> list[Path]:
    """Write the public files (and the confidential mapping only if ``mapping``) atomically under ``out_dir``."""
    out = Path(out_dir)
    staged = [(safe_output_path(out, name), data) for name, data in public_files(release).items()]
    if mapping:
        staged.append((safe_output_path(out, MAPPING_FILE), confidential_bytes(release)))
    return atomic_write_all(staged)


def cli_command(
    inputs: Sequence[str],
    *,
    epsilon: float,
    lam: float,
    k: int,
    seed: int | None = None,
    out: str = "release",
    extractor: str = DEFAULT_EXTRACTOR,
    candidates: str = DEFAULT_CANDIDATES,
    encoder: str = DEFAULT_ENCODER,
    llm_model: str | None = None,
    pool_file: str | None = None,
    review: str | None = None,
) -> str:
    """The ``relguard sanitize`` command line that reproduces a run with these settings (the CLI's own flags)."""
    backends = BackendSettings(
        extractor=extractor, candidates=candidates, encoder=encoder, llm_model=llm_model, pool_file=pool_file
    )
    settings = Settings(
        privacy=PrivacySettings(epsilon=epsilon, lam=lam, k=k, seed=seed),
        backends=backends,
        inputs=InputSettings(review=review),
    )
    return command_line(inputs, settings, out=out)


def _command_backends(provenance: Mapping) -> dict[str, str]:
    """CLI backend flags for a release: LLM pools replay from its own report.json, so no LLM is needed for them."""
    backends = provenance.get("backends") or {}
    flags: dict[str, str] = {}
    if "model" in (backends.get("extractor") or {}):
        flags |= {"extractor": "llm", "llm_model": backends["extractor"]["model"]}
    if "model" in (backends.get("candidates") or {}):
        flags |= {"candidates": "pool-file", "pool_file": "report.json"}
    return flags


def config_toml(
    release: Release,
    *,
    inputs: Iterable[str],
    seed: int | None = None,
    command_inputs: Sequence[str] | None = None,
    review: str | None = None,
) -> str:
    """The exact settings of ``release`` as TOML, with the CLI command that reproduces it.

    ``inputs`` are the input file names (the sanitized files carry the same names, so they are public);
    ``command_inputs`` are the paths to name on the command line (default: the input names). No digest of
    an input goes in: the config is public, and a digest of an original would let a reader confirm a guess
    of its relation spans (DESIGN invariant 12). ``review`` names the analyst's review file the command replays
    (confidential, downloaded apart from the release).
    """
    inputs = sorted(inputs)
    g = release.guarantee
    p = release.provenance
    command = cli_command(
        list(command_inputs or inputs),
        epsilon=g.epsilon,
        lam=g.lam,
        k=g.k,
        seed=seed,
        review=review,
        **_command_backends(p),
    )
    privacy: dict[str, object] = {"epsilon": float(g.epsilon), "lambda": float(g.lam), "k": int(g.k)}
    if seed is not None:
        privacy["seed"] = seed
    privacy["rng"] = g.rng
    document = {
        "command": command,
        "private_release": g.private_release,
        "privacy": privacy,
        "backends": {
            "extractor": p.get("extractor", ""),
            "encoder": p.get("encoder", ""),
            "candidates": p.get("candidates", ""),
            "pool_source": p.get("pool_source", ""),
            "pool_sha256": p.get("pool_hash", ""),
            "relguard_version": p.get("relguard_version", ""),
        },
        "inputs": {"files": inputs},
    }
    header = (
        "# RelGuard run configuration: the settings that produced this release.\n"
        "# Reproduce the same settings (a new draw, with fresh randomness unless a seed is given):\n"
        f"#   {command}\n\n"
    )
    return header + tomli_w.dumps(document)


def release_zip(release: Release, *, config: str) -> bytes:
    """The public export as zip bytes: sanitized documents, report.json, report.md and config.toml."""
    files = dict(public_files(release))
    files[CONFIG_FILE] = config.encode("utf-8")
    check_public_files(release, files, forms=forms_for(release))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name])
    return buffer.getvalue()


def composed_epsilon(epsilons: Sequence[float]) -> float:
    """Releases of the same corpus compose: the bounds multiply, so their ε·d_R add up (ε's sum)."""
    return float(sum(epsilons))
