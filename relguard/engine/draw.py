"""The draw step every release goes through: the outcome table and the provenance that describes it.

The in-memory draw (:meth:`relguard.pipeline.Prepared.draw`), the local batch engine and the Ray engine each
hand this step their group table and settings, so the pools a report names and hashes are always the pools the
outcomes were drawn from, and :func:`~relguard.engine.outcomes.draw_outcomes` has one caller.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from relguard.engine.outcomes import OutcomeTable, draw_outcomes
from relguard.engine.provenance import provenance
from relguard.engine.tally import GroupTable
from relguard.extract.review import Review
from relguard.protocols import Encoder, Extractor, PoolGenerator
from relguard.settings import PrivacySettings
from relguard.types import CandidatePool, TypePair


@dataclass(frozen=True)
class Drawn:
    """The sampled outcomes, the public provenance for the report and the confidential part for the mapping."""

    outcomes: OutcomeTable
    public: dict
    confidential: dict


def draw_step(
    table: GroupTable,
    *,
    privacy: PrivacySettings,
    generator: PoolGenerator,
    encoder: Encoder | None = None,
    distances: np.ndarray | None = None,
    pools: Mapping[TypePair, CandidatePool] | None = None,
    allow_null: bool = True,
    **made: Any,
) -> Drawn:
    """Draw one outcome per group of ``table`` (:func:`~relguard.engine.outcomes.draw_outcomes`) and describe it
    with ``made``, the keywords of :func:`described` after ``teaching`` (what the release was made with).

    ``encoder`` computes the distance rows unless ``distances`` (and ``pools``) come from an earlier step or
    other processes; ``allow_null=False`` is the paper's no-deletion ablation, for evaluation only.
    """
    outcomes = draw_outcomes(
        table,
        privacy=privacy,
        generator=generator,
        encoder=encoder,
        distances=distances,
        pools=pools,
        allow_null=allow_null,
    )
    public, confidential = described(generator, outcomes.pools, teaching=privacy.seed is not None, **made)
    return Drawn(outcomes, public, confidential)


def described(
    generator: PoolGenerator,
    pools: Mapping[TypePair, CandidatePool],
    *,
    teaching: bool,
    encoder_id: str,
    encoder_runtime: str,
    extractor_id: str,
    extractor_backend: Extractor | None,
    review: Review,
    input_hashes: Mapping[str, str],
) -> tuple[dict, dict]:
    """(public provenance for the report, confidential details for the mapping) of a draw from ``pools``
    (:func:`~relguard.engine.provenance.provenance`, with the extractor and candidate backends it names)."""
    return provenance(
        extractor_id=extractor_id,
        encoder_id=encoder_id,
        encoder_runtime=encoder_runtime,
        generator=generator,
        pools=pools,
        backends=(("extractor", extractor_backend), ("candidates", generator)),
        review=review,
        input_hashes=input_hashes,
        teaching=teaching,
    )
