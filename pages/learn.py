"""Learn relation-DP: the promise in plain words, then Definition 3 on two relations the student picks."""

import plotly.graph_objects as go
import streamlit as st

from pages._shared import EPSILONS, LAMBDAS, candidates, encoder, help_text
from relguard.errors import RelGuardError
from relguard.studio.teaching import (
    EXAMPLE_PAIR,
    EXAMPLE_R,
    EXAMPLE_R2,
    EXAMPLE_SENTENCE,
    before_after,
    compare,
    entity_example,
    entity_words,
    odds_example,
    own_relation,
    worked_example,
)
from relguard.studio.wording import choosing_epsilon, epsilon_words

st.title("Learn relation-DP")
st.markdown(help_text("learn-intro"))
ss = st.session_state
k = ss.k
st.caption(
    f"This page is a sandbox: its ε and λ sliders are its own and do not change your release. Its pool follows "
    f"the sidebar's K = {k} ({EXAMPLE_PAIR[0]} → {EXAMPLE_PAIR[1]}, the public inventory)."
)


@st.cache_data(show_spinner="Embedding the example …")
def example(k: int, r: str, r2: str):
    pool = candidates().generate(EXAMPLE_PAIR, k).predicates
    d = encoder().distances([r, r2], list(pool), EXAMPLE_PAIR)
    between = float(encoder().distances([r], [r2], EXAMPLE_PAIR)[0, 0])
    return pool, d, between


try:
    choices = list(dict.fromkeys([EXAMPLE_R, EXAMPLE_R2, *candidates().generate(EXAMPLE_PAIR, k).predicates]))
except RelGuardError as exc:
    st.error(str(exc))
    st.stop()
own = st.text_input("A relation of your own (optional, e.g. married to): it becomes r′", key="learn_own")
mine = None
if own.strip():
    try:
        mine = own_relation(own)
    except RelGuardError as exc:
        st.error(str(exc))
a, b, c, d = st.columns(4)
r = a.selectbox("r (what the document said)", choices, index=0, key="learn_r")
r2 = mine or b.selectbox("r′ (what it might have said)", choices, index=1, key="learn_r2")
if mine:
    b.markdown(f"r′ = **{mine}** (your own relation)")
epsilon = c.select_slider("ε", options=EPSILONS, value=1.0, key="learn_epsilon", format_func=lambda v: f"{v:g}")
lam = d.select_slider("λ", options=LAMBDAS, value=1.0, key="learn_lam", format_func=lambda v: f"{v:g}")
pool, distances, between = example(k, r, r2)
result = compare(pool, distances[0], distances[1], between, epsilon=epsilon, lam=lam)
st.markdown(worked_example(epsilon=epsilon, d_r=between))
st.markdown(odds_example(epsilon=epsilon, d_r=between))
st.info(epsilon_words(epsilon))
st.markdown(before_after(result, r))
r_text = EXAMPLE_SENTENCE.format(relation=r.replace("_", " "))
r2_text = EXAMPLE_SENTENCE.format(relation=r2.replace("_", " "))
st.markdown(
    f"Two worlds: in one the document says *“{r_text}”*, in the other *“{r2_text}”*. Both go through the same "
    f"mechanism over the same public pool of {len(pool)} relations plus *null* (delete the sentence)."
)
figure = go.Figure()
figure.add_bar(x=list(result.outcomes), y=result.p_r, name=f"r = {r}")
figure.add_bar(x=list(result.outcomes), y=result.p_r2, name=f"r′ = {r2}")
figure.update_layout(
    barmode="group", height=420, yaxis={"title": "probability"}, margin={"t": 20, "b": 10}, font={"size": 16}
)
st.plotly_chart(figure, width="stretch", key="learn_bars")
st.dataframe(
    [
        {"outcome": y, "P(y | r)": pr, "P(y | r′)": pr2, "|log ratio|": lr}
        for y, pr, pr2, lr in zip(result.outcomes, result.p_r, result.p_r2, result.log_ratio, strict=True)
    ],
    hide_index=True,
    width="stretch",
    height=38 + 35 * len(result.outcomes),  # every row, null included, without scrolling (projector-sized)
)
verdict = "holds" if result.holds else "FAILS"
st.metric(
    "worst |log P(y|r) − log P(y|r′)| vs ε·d_R(r, r′)",
    f"{result.worst:.4f} ≤ {result.bound:.4f}" if result.holds else f"{result.worst:.4f} > {result.bound:.4f}",
    help=f"Definition 3 {verdict} for this pair at ε = {epsilon:g}, λ = {lam:g}.",
)
st.markdown(help_text("learn-definition"))
st.markdown(help_text("learn-redraw"))
st.markdown(choosing_epsilon())

st.subheader("One person, three relations: the bounds add up")
per_entity = st.toggle("Per-entity budget: ε is her budget E", key="learn_entity")
person = entity_example(epsilon=epsilon, lam=lam, k=k, per_entity=per_entity)
st.markdown(entity_words(person))
st.dataframe(list(person.rows), hide_index=True, width="stretch")
