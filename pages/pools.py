"""Candidate pools: the K public candidates per type pair and their d_R to the corpus's relations."""

import plotly.express as px
import streamlit as st

from pages._shared import lasting, need_corpus, studio
from relguard.candidates.exclusion import POLICY_FILE, offered
from relguard.candidates.sensitive import SENSITIVE_TEXT
from relguard.kinds import pool_pair
from relguard.studio.tables import pool_heatmap
from relguard.textable import plural

st.title("Candidate pools")
st.write(
    "Each ordered pair of entity types gets exactly K public candidate predicates. A pool is built from the "
    "type pair and K alone, never from the documents, so showing it reveals nothing about them."
)
sensitive_label = "Keep accusations, dismissals, crimes, health and family ties about people out of the pools"
lasting(st.toggle, sensitive_label, key="w_sensitive", state="sensitive_policy")
with st.expander("The sensitive-predicate list (public; the report names it)"):
    st.code(SENSITIVE_TEXT, language="text")
    st.caption("To change it, switch it off and pick the predicates you want kept out in the policy below.")
corpus = need_corpus()
if corpus is not None and corpus.triples:
    busy = {pair: sum(g.type_pair == pair for g in corpus.groups) for pair in corpus.pools}
    pairs = sorted(corpus.pools, key=lambda pair: (-busy[pair], pair))
    labels = [f"{a} → {b} ({plural(busy[(a, b)], 'entity pair')})" for a, b in pairs]
    label = st.selectbox("Type pair (busiest first)", labels, key="pools_pair")
    pair = pairs[labels.index(label)]
    pool = corpus.pools[pair]
    left, right = st.columns([1, 2])
    with left:
        st.markdown(f"**{pool.k} candidates** · source: `{pool.source}`")
        st.dataframe(
            [{"#": i + 1, "candidate": p} for i, p in enumerate(pool.predicates)], hide_index=True, width="stretch"
        )
    with right:
        originals, columns, matrix = pool_heatmap(corpus, pair)
        figure = px.imshow(
            matrix,
            x=columns,
            y=originals,
            zmin=0,
            zmax=1,
            color_continuous_scale="Viridis_r",
            text_auto=".2f",
            labels={"x": "candidate", "y": "relation in the corpus", "color": "d_R"},
            aspect="auto",
        )
        figure.update_layout(height=max(260, 60 + 34 * len(originals)), margin={"l": 10, "r": 10, "t": 30, "b": 10})
        st.markdown("**d_R between the corpus's relations (rows) and the pool (columns)**")
        st.caption(
            "d_R is how far apart two relations are in meaning, from 0 (the same) to 1 (unrelated): half the distance "
            "of their sentence embeddings. The mechanism makes close candidates likelier; the guarantee between two "
            "relations is e^(ε·d_R), so the closer they are, the harder they are to tell apart (confidential view: "
            "the rows are the corpus's original relations)."
        )
        st.plotly_chart(figure, width="stretch")

    st.subheader("Exclusion policy: predicates never published")
    st.caption(
        "Take predicates your organisation will never publish out of the pools, for every type pair or one. Each pool "
        "then holds the next K allowed predicates; the report names the policy with its digest, and the zip carries "
        f"it as `{POLICY_FILE}` (the file `relguard sanitize --exclude-predicates` reads)."
    )
    session, policy = studio(), studio().policy()
    read = sorted({pool_pair(found) for found in pairs})  # a city's pool with a person is a GPE's: one entry
    choices = {found: offered(corpus.generator, found, corpus.k) for found in read}
    anywhere = sorted({p for predicates in choices.values() for p in predicates})
    everywhere = st.multiselect(
        "Never in any pool", anywhere, default=sorted(policy.everywhere) if policy else [], key="policy_everywhere"
    )
    per_pair = {
        (a, b): st.multiselect(
            f"Never from {a} to {b}",
            choices[(a, b)],
            default=sorted(policy.excluded((a, b)) - policy.everywhere) if policy else [],
            key=f"policy_{a}_{b}",
        )
        for a, b in read
    }
    if st.button("Save the policy and rebuild the pools", key="policy_save"):
        session.set_policy(everywhere, per_pair)
        st.rerun()
if text := st.session_state.get("exclusion_policy"):
    st.code(text, language="text")
    left, right = st.columns(2)
    left.download_button(f"Download {POLICY_FILE} (public)", text, file_name=POLICY_FILE, key="policy_download")
    if right.button("Clear the policy", key="policy_clear"):
        studio().set_policy([], {})
        st.rerun()
