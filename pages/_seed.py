"""The Risk page's comparison with the seed papers' sanitizers: widgets in, one library call, the table out."""

from __future__ import annotations

import streamlit as st

from pages._shared import encoder
from relguard.studio.baselines import (
    PERCENT_COLUMNS,
    SECONDS_HINT,
    compare_seed_sanitizers,
    descriptions,
    display_rows,
)

NAMES = {"PromptGraph (spans)": "promptgraph", "TRIP-RAG (entities)": "trip-rag", "PA-HDP (sentences)": "pa-hdp"}


def seed_comparison(corpus, release, *, attacker, matcher) -> None:
    """The comparison on the analyst's documents, run on request (it re-runs spaCy and the encoder a lot)."""
    ss = st.session_state
    st.subheader("Beside the seed papers' sanitizers")
    st.caption(
        "The same two attackers read each sanitizer's output on your documents. Without questions every "
        f"sanitizer runs query-free. Slow — {SECONDS_HINT} — so it runs only when you press the button."
    )
    chosen = st.multiselect("Sanitizers", list(NAMES), default=list(NAMES), key="seed_names")
    match = st.toggle(
        "Also the setting matched to RelGuard's utility at ε = 5 (searches a grid: several times slower)",
        key="seed_match",
    )
    if st.button("Run the comparison (slow)", key="seed_run", disabled=not chosen):
        try:
            with st.spinner("Sanitizing with each method and attacking the results … this takes minutes."):
                ss.seed_comparison = compare_seed_sanitizers(
                    corpus,
                    release,
                    attacker=attacker,
                    matcher=matcher,
                    encoder=encoder(),
                    names=[NAMES[c] for c in chosen],
                    match=match,
                )
        except Exception as exc:  # a page never shows a traceback; the message says what failed
            st.error(f"The comparison could not run: {type(exc).__name__}: {exc}")
    stored = ss.get("seed_comparison")
    if stored is None or stored.release is not release:
        return
    percent = st.column_config.NumberColumn(format="%.1f %%")
    config = dict.fromkeys(PERCENT_COLUMNS, percent)
    st.dataframe(display_rows(stored.rows), hide_index=True, width="stretch", column_config=config, key="seed_table")
    st.caption(
        f"{stored.seconds:.0f} s in all. Lower attack F1 is more private; document similarity is the mean cosine "
        "between each document and its sanitized version. Co-occ. is the independent co-occurrence reader."
    )
    with st.expander("What each one protects, and what guarantee its paper claims"):
        for name, text in descriptions([n for n in NAMES.values()]).items():
            st.markdown(f"**{name}** — {text}")
