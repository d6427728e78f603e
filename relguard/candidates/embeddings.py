"""The inventory's embeddings, computed once per machine: they depend on the public inventory and the encoder only.

Every candidate of every pool is a typed sentence of an inventory predicate under its type pair, so the whole
inventory's sentences are embedded in one go the first time an encoder meets an inventory, kept on disk under
the inventory's content hash and the encoder's ``model_id`` and runtime (:mod:`relguard.embed.store`), and read
back by every later process. Original relations never go there.
"""

from __future__ import annotations

from pathlib import Path

from relguard.candidates.exclusion import unwrapped
from relguard.candidates.inventory import InventoryCandidates
from relguard.embed.base import CachedEncoder
from relguard.embed.store import public_embeddings
from relguard.embed.text import predicate_text
from relguard.protocols import Encoder, PoolGenerator


def inventory_texts(inventory: InventoryCandidates) -> list[str]:
    """The typed sentence of every predicate of every type pair of the inventory (all of them, whatever K)."""
    pairs = inventory.pairs().items()
    return [predicate_text(p, tuple(key.split("|"))) for key, predicates in pairs for p in predicates]


def warm_public_embeddings(generator: PoolGenerator, encoder: Encoder, *, folder: Path | None = None) -> int:
    """Give ``encoder`` the inventory's embeddings (from disk after the first time); returns how many were computed.

    Only a fixed inventory qualifies (an LLM's pools have no content hash to key them by), and only an encoder
    that can take embeddings it computed earlier; for any other pair this does nothing.
    """
    generator = unwrapped(generator)  # an exclusion policy draws on the same inventory
    if not isinstance(generator, InventoryCandidates) or not isinstance(encoder, CachedEncoder):
        return 0
    return public_embeddings(encoder, inventory_texts(generator), content_hash=generator.content_hash(), folder=folder)
