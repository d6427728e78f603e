"""config.toml: the settings, inputs and policies of a release, written into every release and read back to replay it.

``relguard sanitize --config config.toml --out DIR`` runs the same release again: the same settings (every field
of :data:`relguard.settings.FLAGS`, the one flag table, so a new flag travels without code here), the same inputs,
the same review file and output policies. With a teaching seed the replay writes the same bytes; with OS entropy
it is a new draw with the same settings, pools and report fields. ``[release]`` records what the release itself
said (encoder, pools, versions), so a replay can tell when something outside the config changed them.

The config is public: it holds settings, input paths and backend names, never a digest or size of an input
(DESIGN invariant 12). Relative paths are looked up beside config.toml, then in the current folder.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import tomli_w

from relguard.errors import ConfigError, RelGuardError
from relguard.release.draws import DrawHistory
from relguard.settings import FLAGS, BackendSettings, InputSettings, PrivacySettings, Settings, command_line

CONFIG_FILE = "config.toml"
CONFIG_VERSION = 1
#: What a release's report recorded about how it was made; a replay compares its own report with these.
RECORDED = ("rng", "extractor", "encoder", "candidates", "pool_source", "pool_sha256", "relguard_version")
HEADER = (
    "# RelGuard run configuration: the settings, inputs and policies that produced this release.\n"
    "# Replay it (relative paths are looked up beside this file, then in the current folder):\n"
    "#   relguard sanitize --config config.toml --out DIR\n"
    "# With a teaching seed the replay writes the same bytes; otherwise it is a new draw with the same settings.\n\n"
)
#: Under this name :func:`read_config` returns the sign-off the replayed release recorded (in words).
SIGNED = "signed_off"
#: The run options, each also a ``relguard sanitize`` flag.
RUN_FLAGS = ("parquet", "self_audit", "allow_withheld", "mark_slots", "no_notice")
_SECTIONS = {"privacy": PrivacySettings, "backends": BackendSettings, "inputs": InputSettings}
_TYPES = {float: "a number", int: "a whole number", str: "a string", bool: "true or false"}


@dataclass(frozen=True)
class RunOptions:
    """How a run writes and ends, beyond its settings: the Parquet copy, the recorded self-audit, whether
    withheld sentences end the run with a non-zero status, whether fills are marked inline in the text, and
    whether the release notice is left out (:mod:`relguard.engine.notice`)."""

    parquet: bool = False
    self_audit: bool = False
    allow_withheld: bool = False
    mark_slots: bool = False
    no_notice: bool = False


@dataclass(frozen=True)
class RunConfig:
    """Everything a replay needs: the settings, the input paths as they were given, and the run options.

    ``read_from`` is where those inputs are on this machine when it differs from how they were given (a replay
    finds them beside its config.toml); the config always records ``inputs``. ``sign_off`` is this release's
    sign-off (:mod:`relguard.release.signoff`): recorded in the report and the config, never replayed, since a
    replay is another draw and needs its own; ``history`` the earlier draws of the corpus its ledger continues
    (:mod:`relguard.release.draws`).
    """

    settings: Settings
    inputs: tuple[str, ...]
    options: RunOptions = field(default_factory=RunOptions)
    read_from: tuple[str, ...] = ()
    sign_off: Mapping[str, str] = field(default_factory=dict)
    history: DrawHistory = field(default_factory=DrawHistory)

    @property
    def paths(self) -> list[str]:
        """The input files and folders to read."""
        return list(self.read_from or self.inputs)


def config_toml(run: RunConfig, *, files: Sequence[str], recorded: Mapping[str, object]) -> str:
    """The config.toml of a release: ``files`` are the input names (public: the output files carry them),
    ``recorded`` the report's own account of the encoder, pools and versions (see :data:`RECORDED`)."""
    settings = run.settings
    sections: dict[str, dict[str, object]] = {"privacy": {}, "backends": {}, "inputs": {"paths": list(run.inputs)}}
    for spec in FLAGS:
        value = getattr(getattr(settings, spec.section), spec.name)
        if value is not None:
            sections[spec.section][spec.name] = value
    if settings.privacy.seed is not None:
        sections["privacy"]["seed"] = settings.privacy.seed
    sections["inputs"]["files"] = sorted(files)
    options = run.options
    flags = [f"--{name.replace('_', '-')}" for name in RUN_FLAGS if getattr(options, name)]
    document = {
        "relguard_config": CONFIG_VERSION,
        "command": " ".join([command_line(list(run.inputs), settings), *flags]),
        "private_release": settings.privacy.seed is None,
        **sections,
        "run": {name: getattr(options, name) for name in RUN_FLAGS},
        "release": {key: str(recorded[key]) for key in RECORDED if recorded.get(key) is not None},
        **({"sign_off": dict(run.sign_off)} if run.sign_off else {}),
    }
    return HEADER + tomli_w.dumps(document)


def read_config(path: str | Path) -> tuple[RunConfig, dict[str, str]]:
    """The run a config.toml describes, and what its release recorded; every bad field is one readable line."""
    path = Path(path)
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc.strerror}); pass the config.toml of a release") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc}); pass the config.toml of a release") from exc
    known = {"relguard_config", "command", "private_release", "run", "release", "sign_off", *_SECTIONS}
    if unknown := sorted(set(document) - known):
        raise ConfigError(f"{path}: unknown field {unknown[0]!r}; a config holds {', '.join(sorted(known))}")
    version = document.get("relguard_config")
    if version != CONFIG_VERSION:
        raise ConfigError(f"{path}: relguard_config = {version!r}; this RelGuard reads version {CONFIG_VERSION}")
    values = {name: _section(path, document, name) for name in (*_SECTIONS, "run", "release")}
    if "entity_epsilon" in values["privacy"]:  # a per-entity budget is also the ε ceiling of every group
        values["privacy"].setdefault("epsilon", values["privacy"]["entity_epsilon"])
    inputs = values["inputs"]
    paths = inputs.pop("paths", None)
    inputs.pop("files", None)
    if not isinstance(paths, list) or not paths or not all(isinstance(p, str) and p for p in paths):
        raise ConfigError(f"{path}: [inputs] paths must be a non-empty list of file or folder paths")
    built = {}
    for name, kind in _SECTIONS.items():
        try:
            built[name] = kind(**values[name])
        except RelGuardError as exc:
            raise ConfigError(f"{path}: [{name}] {exc}") from exc
    run = RunConfig(Settings(**built), tuple(paths), RunOptions(**values["run"]))
    recorded = {key: str(value) for key, value in values["release"].items()}
    if signed := _section(path, document, "sign_off"):  # recorded, never replayed: a replay is another draw
        recorded[SIGNED] = ", ".join(str(signed[key]) for key in ("reviewer", "decision", "date") if key in signed)
    return run, recorded


def _section(path: Path, document: Mapping[str, object], name: str) -> dict[str, object]:
    """One table of the config, each field checked for name and type against what the settings hold."""
    table = document.get(name, {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [{name}] must be a table of fields")
    fields = _fields(name)
    for key, value in table.items():
        if key not in fields:
            raise ConfigError(f"{path}: [{name}] {key} is not a field; known: {', '.join(sorted(fields))}")
        kind = fields[key]
        ok = isinstance(value, kind) and not (isinstance(value, bool) and kind is not bool)
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            ok = True
        if not ok:
            raise ConfigError(
                f"{path}: [{name}] {key} must be {_TYPES.get(kind, kind.__name__)}, got {type(value).__name__} "
                f"{value!r}"
            )
    return dict(table)


def _fields(name: str) -> dict[str, type]:
    if name == "run":
        return dict.fromkeys(RUN_FLAGS, bool)
    if name == "release":
        return dict.fromkeys(RECORDED, str)
    if name == "sign_off":
        return dict.fromkeys(("reviewer", "date", "decision", "notes"), str)
    fields: dict[str, type] = {spec.name: spec.type for spec in FLAGS if spec.section == name}
    if name == "privacy":
        fields["seed"] = int
    if name == "inputs":
        fields |= {"paths": list, "files": list}
    return fields


def resolve_inputs(paths: Sequence[str], config: str | Path) -> list[str]:
    """The config's input paths on this machine: absolute as they are, relative ones beside the config, else here."""
    folder = Path(config).parent
    found = []
    for given in paths:
        candidate = Path(given)
        if not candidate.is_absolute() and (folder / candidate).exists():
            candidate = folder / candidate
        if not candidate.exists():
            raise ConfigError(
                f"{config}: [inputs] paths names {given!r}, found neither beside the config nor in the current "
                "folder; run from the folder the release was made in, or give the inputs after --config"
            )
        found.append(str(candidate))
    return found


def recorded_of(report: Mapping[str, object]) -> dict[str, str]:
    """What a report records of how its release was made, under the config's :data:`RECORDED` names."""
    candidates = report.get("candidates") or {}
    versions = report.get("versions") or {}
    assert isinstance(candidates, Mapping) and isinstance(versions, Mapping)
    values = {
        "rng": report.get("rng"),
        "extractor": report.get("extractor"),
        "encoder": report.get("encoder"),
        "candidates": candidates.get("backend"),
        "pool_source": candidates.get("source"),
        "pool_sha256": candidates.get("sha256"),
        "relguard_version": versions.get("relguard"),
    }
    return {key: str(value) for key, value in values.items() if value is not None}
