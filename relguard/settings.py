"""One validated settings object for a run: privacy parameters, backends by name, input limits.

The CLI builds a :class:`Settings` from its flags, the app from its widgets, and both hand it down whole, so ε,
λ and K are validated once, where a person typed them, with a message that names the parameter. The flag table
:data:`FLAGS` is the one definition of the CLI's settings flags: the parser is built from it and an exported
``config.toml`` writes its reproducing command line from it (:func:`command_line`).
"""

from __future__ import annotations

import math
import numbers
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field

from relguard import registry
from relguard.errors import ConfigError, ConfigTypeError

DEFAULT_ENCODER = "all-MiniLM-L6-v2"
DEFAULT_EXTRACTOR = "spacy"
DEFAULT_CANDIDATES = "inventory"
DEFAULT_MAX_BYTES = 20 * 1024 * 1024
#: The slot modes (DESIGN invariant 11): the relation expression, or every stretch between two adjacent names.
SLOT_MODES = ("spans", "stretches")
#: How a sampled predicate is worded into its slot: the pools' offline forms, or an LLM (the paper's step 4).
VERBALIZERS = ("forms", "llm")


def _finite_at_least_zero(value: object, *, name: str, hint: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ConfigTypeError(f"{name} must be a number, got {type(value).__name__}: {value!r}")
    number = float(value)
    if not math.isfinite(number) or number < 0:
        raise ConfigError(f"{name} must be a finite number >= 0 (got {value!r}); {hint}")
    return number


def check_epsilon(epsilon: object) -> float:
    """ε must be a finite real ≥ 0: 0 is 'no information', larger means less privacy."""
    hint = "typical values are 0.1 (strong privacy) to 10 (weak privacy)"
    return _finite_at_least_zero(epsilon, name="epsilon", hint=hint)


def check_lam(lam: object) -> float:
    """λ is the distance assigned to deleting a relation (Eq. 6): a finite real ≥ 0."""
    hint = "smaller values delete more relations, 1 is the paper's default"
    return _finite_at_least_zero(lam, name="lam (lambda)", hint=hint)


def check_entity_epsilon(value: object) -> float:
    """E, the budget of one entity's relations together, must be a finite real ≥ 0 (like ε)."""
    hint = "it is the budget of all of one entity's relations together, e.g. 5"
    return _finite_at_least_zero(value, name="entity epsilon", hint=hint)


def check_budget(value: object) -> float:
    """The ε a corpus's private draws may spend together must be a finite real ≥ 0 (like ε)."""
    hint = "it is the total epsilon all private draws of one corpus may spend, e.g. 10 for two draws at 5"
    return _finite_at_least_zero(value, name="budget", hint=hint)


def check_k(k: object) -> int:
    """K, the number of real candidates per pool, must be an integer ≥ 1."""
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise ConfigTypeError(f"k must be an integer, got {type(k).__name__}: {k!r}")
    if int(k) < 1:
        raise ConfigError(f"k must be at least 1 (got {k!r}); the paper uses K = 10 and sweeps 5 to 20")
    return int(k)


@dataclass(frozen=True)
class PrivacySettings:
    """ε, λ and K of a release, and the teaching seed (None: OS entropy, a private release).

    ``entity_epsilon`` E is the per-entity budget (DESIGN invariant 13): each group is then drawn at
    ε_g = E / max(n(s), n(o)) (:mod:`relguard.privacy.entity`), and ``epsilon`` must be E too — the most any one
    group can get, so everything that reads ε as a per-relation ceiling stays right. :meth:`per_entity` builds it.
    ``budget`` caps the ε all private draws of one corpus spend together (:class:`~relguard.release.draws.
    Accountant`); None sets no cap.
    """

    epsilon: float = 5.0
    lam: float = 1.0
    k: int = 10
    seed: int | None = None
    entity_epsilon: float | None = None
    budget: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon))
        if self.budget is not None:
            object.__setattr__(self, "budget", check_budget(self.budget))
        if self.entity_epsilon is not None:
            object.__setattr__(self, "entity_epsilon", check_entity_epsilon(self.entity_epsilon))
            if self.epsilon != self.entity_epsilon:
                raise ConfigError(
                    f"with a per-entity budget E = {self.entity_epsilon:g}, epsilon is E too (got epsilon = "
                    f"{self.epsilon:g}); give one budget: epsilon per relation, or entity_epsilon per entity"
                )
        object.__setattr__(self, "lam", check_lam(self.lam))
        object.__setattr__(self, "k", check_k(self.k))
        if self.seed is not None and (isinstance(self.seed, bool) or not isinstance(self.seed, int)):
            raise ConfigTypeError(f"seed must be an integer or None, got {self.seed!r}")

    @classmethod
    def per_entity(
        cls, entity_epsilon: float, *, lam: float = 1.0, k: int = 10, seed: int | None = None
    ) -> PrivacySettings:
        """Settings with a per-entity budget E (``epsilon`` set to E)."""
        budget = check_entity_epsilon(entity_epsilon)
        return cls(epsilon=budget, lam=lam, k=k, seed=seed, entity_epsilon=budget)


@dataclass(frozen=True)
class BackendSettings:
    """Backends by name (the registry builds them) and the options the LLM backends need."""

    extractor: str = DEFAULT_EXTRACTOR
    candidates: str = DEFAULT_CANDIDATES
    encoder: str = DEFAULT_ENCODER
    encoder_runtime: str | None = None
    llm_model: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    pool_file: str | None = None
    allow_remote_llm: bool = False
    slots: str = "spans"
    verbalizer: str = "forms"
    exclude_predicates: str | None = None
    no_sensitive_policy: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.allow_remote_llm, bool):
            raise ConfigTypeError(f"allow_remote_llm must be true or false, got {self.allow_remote_llm!r}")
        if not isinstance(self.no_sensitive_policy, bool):
            raise ConfigTypeError(f"no_sensitive_policy must be true or false, got {self.no_sensitive_policy!r}")
        if self.verbalizer not in VERBALIZERS:
            raise ConfigError(
                f"verbalizer must be one of {', '.join(VERBALIZERS)} (got {self.verbalizer!r}): forms are the pools' "
                "own wordings (offline), llm asks the configured model to word each sentence"
            )
        if self.slots not in SLOT_MODES:
            raise ConfigError(
                f"slots must be one of {', '.join(SLOT_MODES)} (got {self.slots!r}): spans is the relation expression "
                "the parse finds, stretches every stretch between two adjacent names"
            )
        if self.encoder_runtime is not None and self.encoder_runtime not in registry.available("encoder"):
            raise ConfigError(
                f"encoder runtime {self.encoder_runtime!r} is unknown; choose one of "
                f"{', '.join(registry.available('encoder'))} (onnxruntime-fp32 and torch compute the same d_R)"
            )

    @property
    def extractor_backend(self) -> str:
        """The registry's extractor name: the extractor, in the strict slot mode when that is chosen."""
        return self.extractor + (registry.STRICT_SUFFIX if self.slots == "stretches" else "")

    @property
    def encoder_backend(self) -> str:
        """The registry's encoder backend: the runtime named, else the model on its default runtime."""
        return self.encoder_runtime or "sentence-transformers"

    @property
    def uses_llm(self) -> bool:
        return "llm" in (self.extractor, self.candidates, self.verbalizer) or self.extractor == "union"


@dataclass(frozen=True)
class InputSettings:
    """How input files are read: the size limit, the text field of ``.jsonl`` records, the review to replay, and
    ``keep_fields``, the records' other string fields to release as written (comma-separated names; every other
    string field is left out, :func:`relguard.io.rows.record_fields`)."""

    max_bytes: int = DEFAULT_MAX_BYTES
    text_field: str = "text"
    review: str | None = None
    keep_fields: str | None = None

    def __post_init__(self) -> None:
        if isinstance(self.max_bytes, bool) or not isinstance(self.max_bytes, int) or self.max_bytes < 1:
            raise ConfigError(f"max bytes must be a positive integer, got {self.max_bytes!r}")
        if self.keep_fields is not None and not isinstance(self.keep_fields, str):
            raise ConfigTypeError(f"keep fields must be comma-separated field names, got {self.keep_fields!r}")
        if self.text_field in self.kept_fields:
            raise ConfigError(
                f"--keep-fields names the text field {self.text_field!r}: it is always sanitized; name other fields"
            )

    @property
    def kept_fields(self) -> frozenset[str]:
        return frozenset(name.strip() for name in (self.keep_fields or "").split(",") if name.strip())

    @property
    def reading(self) -> dict:
        """The options every reader of the inputs takes (:func:`relguard.io.read_documents`)."""
        return {"max_bytes": self.max_bytes, "text_field": self.text_field, "keep_fields": self.kept_fields}


@dataclass(frozen=True)
class Settings:
    """Everything that decides a run, validated on construction."""

    privacy: PrivacySettings = field(default_factory=PrivacySettings)
    backends: BackendSettings = field(default_factory=BackendSettings)
    inputs: InputSettings = field(default_factory=InputSettings)


@dataclass(frozen=True)
class Flag:
    """One CLI flag: where its value lives in :class:`Settings`, its type and help (``bool``: a switch)."""

    flag: str
    section: str
    name: str
    type: type
    help: str


FLAGS: tuple[Flag, ...] = (
    Flag("--epsilon", "privacy", "epsilon", float, "privacy budget ε ≥ 0 (default 5)"),
    Flag("--lam", "privacy", "lam", float, "deletion distance λ ≥ 0 (default 1)"),
    Flag("--k", "privacy", "k", int, "candidates per pool, K ≥ 1 (default 10)"),
    Flag(
        "--entity-epsilon",
        "privacy",
        "entity_epsilon",
        float,
        "per-entity budget E ≥ 0 instead of --epsilon: each relation group (s, o) is drawn at "
        "ε_g = E / max(n(s), n(o)), n an entity's groups, so all of one entity's relations together stay within e^E",
    ),
    Flag(
        "--budget",
        "privacy",
        "budget",
        float,
        "the most epsilon all private draws of this corpus may spend together (the release folder's ledger counts "
        "them): a draw that would pass it is refused before any work (default: no cap)",
    ),
    Flag("--extractor", "backends", "extractor", str, "extractor backend (default: spacy, offline)"),
    Flag("--candidates", "backends", "candidates", str, "candidate-pool backend (default: inventory)"),
    Flag(
        "--slots",
        "backends",
        "slots",
        str,
        "spans (default): a slot is the relation expression the parse finds, so where slots are is read from the "
        "wording; stretches (strict): every stretch between two adjacent names is a slot, whatever its words",
    ),
    Flag(
        "--exclude-predicates",
        "backends",
        "exclude_predicates",
        str,
        "a public policy file of predicates never to publish (one a line, optionally 'PERSON->PERSON spouse_of' "
        "for one type pair): they are taken out of the pools before the draw, and the report names the file",
    ),
    Flag(
        "--no-sensitive-policy",
        "backends",
        "no_sensitive_policy",
        bool,
        "draw accusations, dismissals, crimes, health and family ties about people too: by default the built-in "
        "sensitive-predicate list keeps them out of the pools (relguard/candidates/sensitive.py; the report names it)",
    ),
    Flag("--encoder", "backends", "encoder", str, "sentence-transformers model name or path"),
    Flag(
        "--encoder-runtime",
        "backends",
        "encoder_runtime",
        str,
        "what computes the encoder: onnxruntime-fp32 (default for all-MiniLM-L6-v2) or torch (the reference, "
        "default for other models); both give the same d_R",
    ),
    Flag(
        "--verbalizer",
        "backends",
        "verbalizer",
        str,
        "forms (default, offline): each slot worded from its frame; llm: the model words whole sentences from the "
        "masked text and the sampled predicates only (needs the LLM flags)",
    ),
    Flag("--max-bytes", "inputs", "max_bytes", int, "refuse input files larger than this (default 20 MB)"),
    Flag("--text-field", "inputs", "text_field", str, "field holding the text in .jsonl input (default text)"),
    Flag(
        "--keep-fields",
        "inputs",
        "keep_fields",
        str,
        "other fields of .jsonl records (and .csv/.parquet columns) to release AS WRITTEN, comma-separated, e.g. "
        "id,date: only the text field is sanitized, so every other field holding a string is left out of the "
        "release unless named here (numbers, booleans and nulls are kept); the report lists what was left out",
    ),
    Flag(
        "--review",
        "inputs",
        "review",
        str,
        "an analyst's review file (review.json from the app): added/removed slots, entity types, merged aliases",
    ),
    Flag(
        "--base-url",
        "backends",
        "base_url",
        str,
        "OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 (default: $OPENAI_BASE_URL); one not on this "
        "machine needs --allow-remote-llm",
    ),
    Flag("--llm-model", "backends", "llm_model", str, "model name (default: $RELGUARD_LLM_MODEL)"),
    Flag(
        "--api-key-env",
        "backends",
        "api_key_env",
        str,
        "environment variable holding the API key (default OPENAI_API_KEY; not needed for most local servers)",
    ),
    Flag(
        "--pool-file",
        "backends",
        "pool_file",
        str,
        "public pool file: read by --candidates pool-file; with --candidates llm, pools found in it are reused "
        "and all pools used are written back to it",
    ),
    Flag(
        "--allow-remote-llm",
        "backends",
        "allow_remote_llm",
        bool,
        "allow an LLM endpoint that is not on this machine (or, with no --base-url, OpenAI's hosted API): the "
        "documents are sent there; without it such a run stops with an error",
    ),
)
#: Flags that only the LLM backends read, shown under their own heading in --help.
LLM_FLAGS = frozenset(
    {"--base-url", "--llm-model", "--api-key-env", "--pool-file", "--allow-remote-llm", "--verbalizer"}
)


def from_values(values: object, *, seed: int | None = None) -> Settings:
    """Settings from an object with one attribute per flag (an argparse Namespace): validated once, here."""
    sections: dict[str, dict] = {"privacy": {}, "backends": {}, "inputs": {}}
    for spec in FLAGS:
        value = getattr(values, spec.flag[2:].replace("-", "_"), None)
        if value is not None:
            sections[spec.section][spec.name] = value
    privacy = sections["privacy"]
    if privacy.get("entity_epsilon") is not None:
        if "epsilon" in privacy:
            raise ConfigError(
                "--epsilon and --entity-epsilon are two budgets for one draw; give --epsilon (per relation) or "
                "--entity-epsilon (per entity), not both"
            )
        privacy["epsilon"] = check_entity_epsilon(privacy["entity_epsilon"])
    return Settings(
        privacy=PrivacySettings(**privacy, seed=seed),
        backends=BackendSettings(**sections["backends"]),
        inputs=InputSettings(**sections["inputs"]),
    )


def command_line(inputs: Sequence[str], settings: Settings, *, out: str = "release") -> str:
    """The ``relguard sanitize`` command that reproduces ``settings``: every flag not at its default."""
    parts = ["relguard", "sanitize", *inputs, "--out", out]
    defaults = Settings()
    privacy = settings.privacy
    budget = ["--epsilon", f"{privacy.epsilon:g}"]
    if privacy.entity_epsilon is not None:
        budget = ["--entity-epsilon", f"{privacy.entity_epsilon:g}"]
    parts += [*budget, "--lam", f"{privacy.lam:g}", "--k", str(privacy.k)]
    if privacy.seed is not None:
        parts += ["--seed", str(privacy.seed)]
    if privacy.budget is not None:
        parts += ["--budget", f"{privacy.budget:g}"]
    for spec in FLAGS:
        if spec.section == "privacy":
            continue
        value = getattr(getattr(settings, spec.section), spec.name)
        if value is not None and value != getattr(getattr(defaults, spec.section), spec.name):
            parts += [spec.flag] if spec.type is bool else [spec.flag, str(value)]
    return shlex.join(parts)
