"""Streamlit glue every page shares: the session's :class:`~relguard.studio.session.Studio`, cached models,
the sliders that keep their value across pages, and the sidebar.

Heavy objects (spaCy, the encoder, the inventory, the content-keyed extraction cache) are loaded once per process
behind ``st.cache_resource``; everything else is :mod:`relguard.studio.session`, which holds the logic.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import streamlit as st

from relguard import registry
from relguard.candidates.cache import PoolCache
from relguard.errors import RelGuardError
from relguard.pipeline import Prepared
from relguard.settings import DEFAULT_ENCODER
from relguard.studio.session import CANDIDATES, EXTRACTORS, ExtractionCache, Resources, Studio
from relguard.studio.wording import GLOSSARY, round_grid

__all__ = ["CANDIDATES", "EPSILONS", "EXTRACTORS", "LAMBDAS", "SAMPLE_DIR", "SAMPLE_NAMES"]

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_DIR = ROOT / "assets" / "sample_corpus"
SAMPLE_NAMES = frozenset(p.name for p in SAMPLE_DIR.glob("*.txt"))
EPSILONS = round_grid(0.01, 100.0)
LAMBDAS = round_grid(0.01, 10.0)


def studio() -> Studio:
    return Studio(st.session_state)


def init_state() -> None:
    """Every session-state key with its default, once per session; the sample corpus when asked to load it."""
    autoload = os.environ.get("RELGUARD_LOAD_SAMPLE") == "1"
    studio().init(sample=SAMPLE_DIR if autoload else None)


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


def prepared(*, progress: bool = True) -> Prepared | None:
    """The session's corpus, extracted and prepared for its current K (recomputed only when they change)."""
    bar = st.progress(0.0, text="Extracting triples …") if progress and studio().documents else None

    def update(done: int, total: int) -> None:
        if bar is not None:
            bar.progress(done / max(total, 1), text=f"Extracting triples: {done}/{total} documents")

    try:
        return studio().prepared(resources(), progress=update)
    except RelGuardError as exc:
        st.error(str(exc))
        return None
    finally:
        if bar is not None:
            bar.empty()


def need_corpus() -> Prepared | None:
    """The prepared corpus, or a pointer to the Documents page when there is none yet."""
    result = prepared()
    if result is None and not st.session_state.documents:
        st.info("No documents yet. Load the sample corpus or upload files on the **Documents** page.")
        if st.button("Load the sample corpus", key="load_sample_here"):
            studio().load_sample(SAMPLE_DIR)
            st.rerun()
    elif result is not None and not result.groups:
        st.warning("The extractor found no relations between named entities in these documents.")
    return result


def lasting(widget, label: str, *args, key: str, state: str, **kwargs):
    """``widget(label, ...)`` whose value lives in the session key ``state``, not only in its widget ``key``.

    Streamlit drops a widget's key when its page is left; seeding the widget from ``state`` and copying every
    change back keeps ε, λ, K and the backend choices across pages (and lets two pages share one value).
    """
    if key not in st.session_state:
        st.session_state[key] = st.session_state[state]
    return widget(label, *args, key=key, on_change=_keep, args=(key, state), **kwargs)


def log_slider(container, label: str, *, options: Sequence[float], key: str, state: str) -> float:
    """An ε or λ slider over a log-spaced grid, its value kept in ``state`` (shared by Tune and Risk)."""
    return lasting(container.select_slider, label, options=options, key=key, state=state, format_func=_number)


def _number(value: float) -> str:
    return f"{value:g}"


def _keep(widget_key: str, state_key: str) -> None:
    st.session_state[state_key] = st.session_state[widget_key]


def sidebar() -> None:
    """Corpus status and the current privacy parameters, on every page."""
    with st.sidebar:
        count = len(st.session_state.documents)
        st.caption(f"**{count}** document{'s' if count != 1 else ''} loaded")
        extractor_name, candidates_name = studio().backend_choice()
        st.caption(f"Extractor: {extractor_name} · pools: {candidates_name}")
        per = " per entity" if st.session_state.entity_budget else ""
        st.caption(f"ε = {st.session_state.epsilon:g}{per} · λ = {st.session_state.lam:g} · K = {st.session_state.k}")
        release = st.session_state.release
        if release is not None:
            g = release.guarantee
            label = "teaching draw (not private)" if st.session_state.release_seed is not None else "private draw"
            st.caption(f"Release drawn at ε = {g.epsilon:g} · λ = {g.lam:g} · K = {g.k} ({label})")
            if reason := studio().stale_reason():
                st.warning(f"Drawn release is stale: {reason}.", icon="⚠️")
        if review := st.session_state.review:
            st.caption(f"{len(review)} review edit{'s' if len(review) != 1 else ''} applied")
        with st.expander("Glossary: slots, relations, relation groups …"):
            st.markdown("\n".join(f"- **{term}**: {meaning}" for term, meaning in GLOSSARY.items()))


def help_text(name: str) -> str:
    """A page's longer explanation, kept as Markdown in ``assets/help/`` so pages stay short."""
    return (ROOT / "assets" / "help" / f"{name}.md").read_text(encoding="utf-8")
