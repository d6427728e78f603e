"""What one audit is given: the setting it checks, the backends it may call, and what it audits.

An audit is one call, :func:`relguard.verify.audit.run_audit`, over three frozen objects rather than a long list
of loose arguments: :class:`AuditSettings` (ε, λ, K and how hard to check them), :class:`AuditBackends` (the
encoder, and the pool generator and extractor when the pool checks can run) and :class:`AuditInputs` (the pools
and, when known, the corpus and public files behind them). The mechanism and the sampler under audit are part of
the settings, so a test can hand in a broken variant (the exponent without its ``/2``) and see the audit fail.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from relguard.privacy.entity import entity_log_bounds, group_epsilons
from relguard.privacy.mechanism import log_probabilities
from relguard.privacy.sampling import sample_outcomes
from relguard.protocols import Encoder, Extractor, PoolGenerator
from relguard.settings import check_entity_epsilon, check_epsilon, check_k, check_lam
from relguard.types import CandidatePool, Extraction, PairKey, TypePair
from relguard.verify.bound import GroupDistances, LogProbabilities
from relguard.verify.entity import Allocation, EntityBounds
from relguard.verify.sampler import CHI2_ALPHA, Sampler


@dataclass(frozen=True)
class AuditOptions:
    """How hard to check, and what is checked: the mechanism, the sampler, the group utility, the per-entity
    allocation and the entity-level bound under audit.

    ``draws`` per χ² test (None: enough for the stated power), the family-wise ``alpha``, and ``pools_check``
    (regenerate the pools and check their publicness; off where the generator cannot regenerate them).
    """

    draws: int | None = None
    alpha: float = CHI2_ALPHA
    pools_check: bool = True
    probabilities: LogProbabilities = log_probabilities
    sampler: Sampler = sample_outcomes
    combine: GroupDistances | None = None
    allocate: Allocation = group_epsilons
    entity_bound: EntityBounds = entity_log_bounds


@dataclass(frozen=True)
class AuditSettings:
    """One release setting (ε, λ, K, and the per-entity budget E when one was set), validated like every
    setting, with the options of its audit."""

    epsilon: float
    lam: float
    k: int
    options: AuditOptions = field(default_factory=AuditOptions)
    entity_epsilon: float | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "epsilon", check_epsilon(self.epsilon))
        if self.entity_epsilon is not None:
            object.__setattr__(self, "entity_epsilon", check_entity_epsilon(self.entity_epsilon))
        object.__setattr__(self, "lam", check_lam(self.lam))
        object.__setattr__(self, "k", check_k(self.k))


@dataclass(frozen=True)
class AuditBackends:
    """The backends an audit calls: the encoder for d_R; the generator and extractor for the pool checks.

    ``generator`` is None when the pools cannot be regenerated from their type pairs (an LLM's pools read back
    from a report); the pool checks are then reported as skipped.
    """

    encoder: Encoder
    generator: PoolGenerator | None = None
    extractor: Extractor | None = None


@dataclass(frozen=True)
class AuditInputs:
    """What is audited: the pools and what is known behind them.

    ``originals`` are the corpus's relations per type pair (inputs of the exact bound); ``rows`` one real distance
    row per pool for the χ² test (default: each pool's first candidate); ``extraction`` the corpus, for the group
    checks and the rewritten-corpus pool check; ``public_files`` (name → bytes) a release's public files, checked
    for ``input_digests`` among other things. With a per-entity budget, ``pool_epsilons`` are the ε_g each pool's
    groups were drawn at and ``keys`` the release's group keys (public), when known without the extraction.
    """

    pools: Mapping[TypePair, CandidatePool]
    originals: Mapping[TypePair, Sequence[str]] = field(default_factory=dict)
    rows: Mapping[TypePair, np.ndarray] | None = None
    expected_pool_hash: str | None = None
    extraction: Extraction | None = None
    public_files: Mapping[str, bytes] | None = None
    input_digests: Sequence[str] = ()
    pool_epsilons: Mapping[TypePair, Sequence[float]] | None = None
    keys: Sequence[PairKey] | None = None
