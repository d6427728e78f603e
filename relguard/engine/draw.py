"""The draw step every release goes through: the outcome table and the provenance that describes it.

The in-memory draw (:meth:`relguard.pipeline.Prepared.draw`), the local batch engine and the Ray engine each
hand this step their group table and settings, so the pools a report names and hashes are always the pools the
outcomes were drawn from, and :func:`draw_step` is the one entry to the draw.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from relguard.engine.outcomes import OutcomeTable, distance_matrix, sample_table, table_pools
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
    """Draw one outcome per group of ``table`` and describe it with ``made``, the keywords of :func:`described`
    after ``teaching`` (what the release was made with).

    The draw of every release, in memory or streamed: pools for the table's type pairs, its distance rows, then
    :func:`~relguard.engine.outcomes.sample_table` (called from here alone). ``distances`` are the table's
    :func:`~relguard.engine.outcomes.distance_matrix` rows in key order and ``pools`` its pools, when another
    process or an earlier step (:func:`relguard.pipeline.prepare`) computed them; otherwise ``encoder`` computes
    the rows. ``allow_null=False`` is the paper's no-deletion ablation, for evaluation only.
    """
    pools = pools if pools is not None else table_pools(table, generator=generator, k=privacy.k)
    keys = table.keys
    if distances is None:
        if encoder is None:
            raise ValueError("a draw without distance rows needs the encoder that computes them")
        distances = distance_matrix([(key, table.predicates[key]) for key in keys], pools, encoder)
    outcomes = sample_table(keys, distances, pools=pools, privacy=privacy, allow_null=allow_null)
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
