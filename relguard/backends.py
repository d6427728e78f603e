"""Built-in backends, registered by name; each factory imports its own dependencies lazily.

Loaded models are shared per process (spaCy and the encoder take seconds to load).
"""

from __future__ import annotations

from functools import lru_cache

from relguard.registry import register


@lru_cache(maxsize=4)
def _spacy_extractor(**options):
    from relguard.extract.spacy import SpacyExtractor

    return SpacyExtractor(**options)


def _inventory_candidates(**options):
    from relguard.candidates.inventory import InventoryCandidates

    return InventoryCandidates(**options)


def _sentence_transformer(**options):
    from relguard.embed import load_encoder

    return load_encoder(**options)


register("extractor", "spacy", _spacy_extractor, install_hint="spacy and en_core_web_sm (pip install relguard)")
register("candidates", "inventory", _inventory_candidates)
register("encoder", "sentence-transformers", _sentence_transformer, install_hint="sentence-transformers and torch")
