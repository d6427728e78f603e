"""Drawn release: the confidential view of what the draw did, relation by relation, and the graph diff."""

import streamlit as st

from pages._shared import need_corpus, studio
from relguard.studio.export import lost_text
from relguard.studio.graph import frame_height, graph_html, release_diff
from relguard.studio.render import original_diff_html, sanitized_diff_html
from relguard.studio.tables import relation_review_rows

st.title("Drawn release")
st.error(
    "**Confidential view.** This page shows the original relations next to what was drawn for them. It is for your "
    "review only; nothing on it is part of an export.",
    icon="🔒",
)
corpus = need_corpus()
release = studio().current_release(corpus) if corpus is not None else None
if corpus is not None and release is None:
    st.info('No release yet. Draw one on **Tune** ("Draw a release").')
elif release is not None:
    g = release.guarantee
    st.markdown(f"Release drawn at **ε = {g.epsilon:g}, λ = {g.lam:g}, K = {g.k}**.")
    if reason := studio().stale_reason():
        st.warning(f"This release is stale: {reason}. Draw it again on **Tune** before you export.")
    if release.extraction is not corpus.extraction:
        st.info("The corpus changed since this draw; the views below show the release as it was drawn.")
    for line in lost_text(release):
        st.error(line, icon="⚠️")
    diff = release_diff(release)
    counts = diff.counts()
    st.markdown("Relations: " + ", ".join(f"**{v}** {k}" for k, v in counts.items()) + ".")
    rows = relation_review_rows(corpus, release, close_threshold=st.session_state.model.close_threshold)
    kinds = ["kept", "close", "distant", "deleted"]
    chosen = st.multiselect("Outcome", kinds, default=kinds, key="release_kinds")
    st.dataframe(
        [r for r in rows if r["outcome"] in chosen],
        hide_index=True,
        width="stretch",
        column_config={"group": None, "d_R": st.column_config.NumberColumn(format="%.2f")},
        key="release_rows",
    )
    st.subheader("Graph diff")
    st.iframe(graph_html(diff, height=560, confidential=True), height=frame_height(560, confidential=True))
    names = [d.name for d in release.documents]
    shown = st.selectbox("Document", names, key="diff_document")
    position = names.index(shown)
    extraction, sanitized = release.extraction.documents[position], release.documents[position]
    left, right = st.columns(2)
    left.markdown("**Original** (struck: sentence removed)")
    left.html(original_diff_html(extraction, release.outcomes, sanitized.gone_sentences))
    right.markdown("**Sanitized** (marked: new words)")
    right.html(sanitized_diff_html(extraction.document.text, sanitized))
