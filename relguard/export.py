"""Export bundles: the public zip, the separate confidential audit file, and the reproducing config.

The zip holds exactly what may leave the building (DESIGN invariant 9): the
sanitized documents under ``documents/`` with their input names, ``report.json``,
``report.md`` and ``config.toml`` (the settings and the CLI command that
reproduce the run). The original → sampled mapping is only ever produced by
:func:`audit_bytes`, as its own explicitly labelled file.
"""

from __future__ import annotations

import io
import json
import shlex
import zipfile
from collections.abc import Iterable, Mapping, Sequence

from relguard.report import AUDIT_FILE, build_confidential, public_files
from relguard.types import Release

CONFIG_FILE = "config.toml"
_ZIP_TIME = (2020, 1, 1, 0, 0, 0)


def cli_command(
    inputs: Sequence[str],
    *,
    epsilon: float,
    lam: float,
    k: int,
    seed: int | None = None,
    out: str = "release",
    extractor: str = "spacy",
    candidates: str = "inventory",
    encoder: str = "all-MiniLM-L6-v2",
    llm_model: str | None = None,
    pool_file: str | None = None,
) -> str:
    """The ``relguard sanitize`` command line that reproduces a run with these settings."""
    parts = ["relguard", "sanitize", *inputs, "--out", out]
    parts += ["--epsilon", f"{epsilon:g}", "--lam", f"{lam:g}", "--k", str(k)]
    if seed is not None:
        parts += ["--seed", str(seed)]
    defaults = {"--extractor": "spacy", "--candidates": "inventory", "--encoder": "all-MiniLM-L6-v2"}
    for flag, value in (("--extractor", extractor), ("--candidates", candidates), ("--encoder", encoder)):
        if value != defaults[flag]:
            parts += [flag, value]
    if llm_model:
        parts += ["--llm-model", llm_model]
    if pool_file:
        parts += ["--pool-file", pool_file]
    return shlex.join(parts)


def _command_backends(provenance: Mapping) -> dict[str, str]:
    """CLI backend flags for a release: LLM pools replay from its own report.json, so no LLM is needed for them."""
    backends = provenance.get("backends") or {}
    flags: dict[str, str] = {}
    if "model" in (backends.get("extractor") or {}):
        flags |= {"extractor": "llm", "llm_model": backends["extractor"]["model"]}
    if "model" in (backends.get("candidates") or {}):
        flags |= {"candidates": "pool-file", "pool_file": "report.json"}
    return flags


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    return json.dumps(str(value), ensure_ascii=False)


def config_toml(
    release: Release,
    *,
    inputs: Iterable[str],
    seed: int | None = None,
    command_inputs: Sequence[str] | None = None,
) -> str:
    """The exact settings of ``release`` as TOML, with the CLI command that reproduces it.

    ``inputs`` are the input file names (the sanitized files carry the same names, so they are public);
    ``command_inputs`` are the paths to name on the command line (default: the input names). No digest of
    an input goes in: the config is public, and a digest of an original would let a reader confirm a guess
    of its relation spans (DESIGN invariant 12).
    """
    inputs = sorted(inputs)
    g = release.guarantee
    p = release.provenance
    command = cli_command(
        list(command_inputs or inputs), epsilon=g.epsilon, lam=g.lam, k=g.k, seed=seed, **_command_backends(p)
    )
    lines = [
        "# RelGuard run configuration: the settings that produced this release.",
        "# Reproduce the same settings (a new draw, with fresh randomness unless a seed is given):",
        f"#   {command}",
        "",
        f"command = {_toml_value(command)}",
        f"private_release = {_toml_value(g.private_release)}",
        "",
        "[privacy]",
        f"epsilon = {_toml_value(float(g.epsilon))}",
        f"lambda = {_toml_value(float(g.lam))}",
        f"k = {_toml_value(int(g.k))}",
        f"seed = {seed}" if seed is not None else "# no seed: OS entropy (a private release)",
        f"rng = {_toml_value(g.rng)}",
        "",
        "[backends]",
        f"extractor = {_toml_value(p.get('extractor', ''))}",
        f"encoder = {_toml_value(p.get('encoder', ''))}",
        f"candidates = {_toml_value(p.get('candidates', ''))}",
        f"pool_source = {_toml_value(p.get('pool_source', ''))}",
        f"pool_sha256 = {_toml_value(p.get('pool_hash', ''))}",
        f"relguard_version = {_toml_value(p.get('relguard_version', ''))}",
        "",
        "[inputs]",
        f"files = [{', '.join(_toml_value(name) for name in inputs)}]",
    ]
    return "\n".join(lines) + "\n"


def release_zip(release: Release, *, config: str) -> bytes:
    """The public export as zip bytes: sanitized documents, report.json, report.md and config.toml."""
    files = dict(public_files(release))
    files[CONFIG_FILE] = config.encode("utf-8")
    from relguard.leakscan import check_public_files, forms_for

    check_public_files(release, files, forms=forms_for(release))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name])
    return buffer.getvalue()


def audit_bytes(release: Release) -> bytes:
    """The CONFIDENTIAL original → sampled mapping, as the bytes of :data:`relguard.report.AUDIT_FILE`."""
    return (json.dumps(build_confidential(release), indent=2, ensure_ascii=False) + "\n").encode("utf-8")


AUDIT_NAME = AUDIT_FILE


def composed_epsilon(epsilons: Sequence[float]) -> float:
    """Releases of the same corpus compose: the bounds multiply, so their ε·d_R add up (ε's sum)."""
    return float(sum(epsilons))
