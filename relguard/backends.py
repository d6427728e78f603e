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


def _llm_extractor(**options):
    from relguard.extract.llm import LLMExtractor

    return LLMExtractor(**options)


def _llm_candidates(**options):
    from relguard.candidates.llm import LLMCandidates

    return LLMCandidates(**options)


def _pool_file_candidates(**options):
    from relguard.candidates.llm import PoolFileCandidates

    return PoolFileCandidates(**options)


_LLM_HINT = "the openai client (pip install 'relguard[llm]')"
register("extractor", "llm", _llm_extractor, install_hint=_LLM_HINT)
register("candidates", "llm", _llm_candidates, install_hint=_LLM_HINT)
register("candidates", "pool-file", _pool_file_candidates)
