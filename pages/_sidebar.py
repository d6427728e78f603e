"""The sidebar on every page: the corpus, the backends and privacy parameters, the drawn release, the glossary."""

from __future__ import annotations

import streamlit as st

from pages._shared import studio
from relguard.studio.wording import GLOSSARY


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
