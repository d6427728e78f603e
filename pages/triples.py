"""Triples: highlighted documents, the canonical triple table, the one-hop view and the graph."""

import streamlit as st

from pages._shared import need_corpus, studio
from relguard.extract.regions import UNREAD
from relguard.studio.entities import entity_rows
from relguard.studio.graph import entities, frame_height, graph_html, knowledge_graph, neighbourhood
from relguard.studio.render import highlight_html, legend_html
from relguard.studio.tables import triple_rows

st.title("Triples")
corpus = need_corpus()
if corpus is not None and corpus.triples:
    names = [d.document.name for d in corpus.extraction.documents]
    document = st.selectbox("Document", names, key="triples_document")
    extraction = corpus.extraction.documents[names.index(document)]
    st.html(legend_html())
    st.html(highlight_html(extraction))

    st.subheader("Relations of the whole corpus (canonical triples; see the glossary in the sidebar)")
    entity = st.selectbox(
        "Everything about … (the one-hop neighbourhood a targeted attacker goes after)",
        ["(all entities)", *entities(corpus.triples)],
        key="triples_entity",
    )
    shown = corpus.triples if entity == "(all entities)" else neighbourhood(corpus.triples, entity)
    keys = {t.key for t in shown}
    rows = [row for row, t in zip(triple_rows(corpus), corpus.triples, strict=True) if t.key in keys]
    st.dataframe(rows, hide_index=True, width="stretch")
    if any(t.predicate == UNREAD for t in shown):
        st.caption(
            f"`{UNREAD}`: a slot the extractor read no relation words in (a strict-mode stretch): it is drawn "
            "from a constant input, and its outcome is printed like any other."
        )

    st.subheader("Entities, the weakest bound first")
    budget = "a per-entity budget E" if st.session_state.entity_budget else "one ε for every pair"
    st.caption(
        f"All of one entity's relations together, at ε = {st.session_state.epsilon:g} and {budget} (Tune): two "
        "corpora that differ in every relation of the entity are told apart by at most e^(Σ ε_g·d_max) ≤ e^(ε·n)."
    )
    epsilons = studio().group_epsilons(corpus)
    st.dataframe(entity_rows(corpus, epsilons=epsilons, lam=st.session_state.lam), hide_index=True, width="stretch")

    st.subheader("Knowledge graph")
    st.caption("Nodes are coloured by entity type; hover an edge for the relation and its occurrences.")
    st.iframe(graph_html(knowledge_graph(shown), height=560), height=frame_height(560))
