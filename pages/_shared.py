"""Streamlit glue every page shares: the session's :class:`~relguard.studio.session.Studio`, the prepared
corpus, and the sliders that keep their value across pages.

The cached models are :mod:`pages._resources` (re-exported here), the sidebar :mod:`pages._sidebar`; everything
else is :mod:`relguard.studio.session`, which holds the logic.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import streamlit as st

from pages._resources import candidates as candidates
from pages._resources import encoder as encoder
from pages._resources import extractor as extractor
from pages._resources import resources
from relguard.errors import RelGuardError
from relguard.pipeline import Prepared
from relguard.studio.session import CANDIDATES, EXTRACTORS, Studio
from relguard.studio.wording import round_grid

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


def draw_button(corpus: Prepared) -> None:
    """The corpus's draw budget (the ε its private draws may spend together), what it leaves, and the draw: one
    past the budget is refused in words."""
    label = "Budget: the most ε this corpus's private draws may spend together (empty: no cap)"
    lasting(st.number_input, label, value=None, min_value=0.0, step=1.0, key="w_budget", state="draw_budget")
    budget_left()
    if st.button("Draw a release", type="primary"):
        try:
            studio().draw(corpus)
        except RelGuardError as exc:
            st.error(str(exc))


def budget_left() -> None:
    if (left := studio().budget_left()) is not None:
        st.caption(f"The budget leaves ε = {left:g} for further private draws of this corpus.")


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


def help_text(name: str) -> str:
    """A page's longer explanation, kept as Markdown in ``assets/help/`` so pages stay short."""
    return (ROOT / "assets" / "help" / f"{name}.md").read_text(encoding="utf-8")
