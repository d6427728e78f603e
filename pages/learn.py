"""Learn relation-DP: Definition 3 with real numbers on a small built-in example."""

import plotly.graph_objects as go
import streamlit as st

from pages._shared import EPSILONS, LAMBDAS, candidates, encoder
from relguard.errors import RelGuardError
from relguard.studio.teaching import EXAMPLE_PAIR, EXAMPLE_R, EXAMPLE_R2, EXAMPLE_SENTENCE, compare

st.title("Learn relation-DP")
st.markdown(
    "**Definition 3 (relation-DP).** A mechanism M is ε-relation-DP if for any two relations r, r′ that could "
    "hold between the same two entities, and any set S of outputs,\n\n"
    "  Pr[M(r) ∈ S] ≤ e^(ε · d_R(r, r′)) · Pr[M(r′) ∈ S],\n\n"
    "where d_R(r, r′) = ½‖z(r) − z(r′)‖ ∈ [0, 1] is the distance of the relations' unit sentence embeddings. "
    "Close relations are hard to tell apart; the guarantee weakens gracefully for distant ones."
)


@st.cache_data(show_spinner="Embedding the example …")
def example(k: int):
    pool = candidates().generate(EXAMPLE_PAIR, k).predicates
    d = encoder().distances([EXAMPLE_R, EXAMPLE_R2], list(pool), EXAMPLE_PAIR)
    between = float(encoder().distances([EXAMPLE_R], [EXAMPLE_R2], EXAMPLE_PAIR)[0, 0])
    return pool, d, between


a, b = st.columns(2)
epsilon = a.select_slider("ε", options=EPSILONS, value=1.0, key="learn_epsilon", format_func=lambda v: f"{v:g}")
lam = b.select_slider("λ", options=LAMBDAS, value=1.0, key="learn_lam", format_func=lambda v: f"{v:g}")
try:
    pool, d, between = example(8)
except RelGuardError as exc:
    st.error(str(exc))
    st.stop()
result = compare(pool, d[0], d[1], between, epsilon=epsilon, lam=lam)
r_text = EXAMPLE_SENTENCE.format(relation=EXAMPLE_R.replace("_", " "))
r2_text = EXAMPLE_SENTENCE.format(relation=EXAMPLE_R2.replace("_", " "))
st.markdown(
    f"Two worlds: in one the document says *“{r_text}”* (r = `{EXAMPLE_R}`), in the other *“{r2_text}”* "
    f"(r′ = `{EXAMPLE_R2}`). Their distance is **d_R = {between:.3f}**. Both go through the same mechanism over "
    f"the same public pool for {EXAMPLE_PAIR[0]} → {EXAMPLE_PAIR[1]} plus *null*."
)
figure = go.Figure()
figure.add_bar(x=list(result.outcomes), y=result.p_r, name=f"r = {EXAMPLE_R}")
figure.add_bar(x=list(result.outcomes), y=result.p_r2, name=f"r′ = {EXAMPLE_R2}")
figure.update_layout(barmode="group", height=340, yaxis={"title": "probability"}, margin={"t": 20, "b": 10})
st.plotly_chart(figure, width="stretch", key="learn_bars")
st.dataframe(
    [
        {"outcome": y, "P(y | r)": pr, "P(y | r′)": pr2, "|log ratio|": lr}
        for y, pr, pr2, lr in zip(result.outcomes, result.p_r, result.p_r2, result.log_ratio, strict=True)
    ],
    hide_index=True,
    width="stretch",
)
verdict = "holds" if result.holds else "FAILS"
st.metric(
    "worst |log P(y|r) − log P(y|r′)| vs ε·d_R(r, r′)",
    f"{result.worst:.4f} ≤ {result.bound:.4f}" if result.holds else f"{result.worst:.4f} > {result.bound:.4f}",
    help=f"Definition 3 {verdict} for this pair at ε = {epsilon:g}, λ = {lam:g}.",
)
st.markdown(
    "**Why null protects connectivity.** Substituting a relation still tells a reader that *some* relation links "
    "the two entities. The null outcome deletes the sentence, so sometimes the edge disappears from the graph "
    "altogether; because null has the same probability under r and r′ up to the same e^(ε·d_R) factor, its "
    "presence or absence reveals no more than any other outcome. λ sets how attractive null is: a smaller λ "
    "deletes more."
)
