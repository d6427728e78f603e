"""The heavy objects every page reads, loaded once per process behind ``st.cache_resource``: spaCy, the encoder,
the inventory, and the content-keyed extraction and pool caches (a session's reruns and sessions share them)."""

from __future__ import annotations

import streamlit as st

from relguard import registry
from relguard.candidates.cache import PoolCache
from relguard.settings import DEFAULT_ENCODER
from relguard.studio.session import ExtractionCache, Resources


@st.cache_resource(show_spinner="Loading spaCy …")
def extractor():
    return registry.create("extractor", "spacy")


@st.cache_resource(show_spinner="Loading the encoder …")
def encoder():
    return registry.create("encoder", "sentence-transformers", model=DEFAULT_ENCODER)


@st.cache_resource(show_spinner=False)
def candidates():
    return registry.create("candidates", "inventory")


@st.cache_resource(show_spinner=False)
def extraction_cache() -> ExtractionCache:
    return ExtractionCache()


@st.cache_resource(show_spinner=False)
def pool_cache() -> PoolCache:
    return PoolCache()


def resources() -> Resources:
    return Resources(extractor(), candidates(), encoder(), extraction_cache(), pool_cache())
