"""Tune: ε, λ and K live, exact expected outcomes, one pair's probabilities, the guarantee, and the draw."""

import streamlit as st

from pages._charts import outcome_curves, probability_bars
from pages._shared import EPSILONS, LAMBDAS, draw_button, encoder, help_text, lasting, log_slider, need_corpus, studio
from relguard.privacy.bounds import document_bound, relation_bound
from relguard.studio.entities import budget_note, entity_rows, shares
from relguard.studio.tables import close_summary, group_label, groups_per_document, probability_rows
from relguard.studio.teaching import pool_pairs
from relguard.studio.wording import OUTCOME_HELP, bound_words, epsilon_words, times

st.title("Tune")
ss = st.session_state
corpus = need_corpus()


@st.cache_data(show_spinner=False, max_entries=256)
def pool_distances(type_pair: tuple[str, str], predicates: tuple[str, ...]):
    return encoder().distances(list(predicates), list(predicates), type_pair)


if corpus is not None and corpus.groups:
    a, b, c = st.columns([3, 2, 1])
    epsilon_label = "ε — privacy budget (log scale): ← more privacy · more utility →"
    log_slider(a, epsilon_label, options=EPSILONS, key="w_epsilon", state="epsilon")
    budget_help = "ε is each entity's budget E; the pair (s, o) is drawn at E / max(n(s), n(o))."
    lasting(a.toggle, "Per-entity budget", key="w_entity", state="entity_budget", help=budget_help)
    lam_label = "λ — distance of deleting (log scale): ← deletes more · deletes less →"
    log_slider(b, lam_label, options=LAMBDAS, key="w_lam", state="lam")
    lasting(c.number_input, "K", min_value=1, max_value=20, step=1, key="w_k", state="k")
    epsilon, lam = ss.epsilon, ss.lam
    (st.warning if epsilon > 10 else st.info)(epsilon_words(epsilon))

    epsilons = studio().group_epsilons(corpus)
    probabilities = corpus.probabilities(epsilon=epsilons, lam=lam)
    if ss.entity_budget:
        st.info(budget_note(corpus, epsilons=epsilons, entity_epsilon=epsilon))
    expected = ss.model.expected(epsilon=epsilon, lam=lam, probabilities=probabilities)

    st.subheader("Expected outcomes: shares of the corpus's relations (exact, not sampled)")
    cols = [*st.columns(3), *st.columns(3)]
    for col, (name, share) in zip(cols, expected.as_dict().items(), strict=False):
        col.metric(name, f"{share:.1%}", help=OUTCOME_HELP[name])
    cols[4].metric("sentences removed", f"{expected.sentences_removed:.1f} of {expected.sentences}")
    cols[5].metric("kept their meaning", f"{expected.kept + expected.close:.1%}", help=OUTCOME_HELP[""])

    curve = ss.model.curve(EPSILONS[::2], lam=lam, shares=shares(corpus) if ss.entity_budget else None)
    figure = outcome_curves(curve, epsilon)
    st.plotly_chart(figure, width="stretch", key="curve")

    st.subheader("One entity pair")
    labels = [group_label(corpus, i) for i in range(len(corpus.groups))]
    index = st.selectbox("Relation group", range(len(labels)), format_func=labels.__getitem__, key="w_selected")
    st.caption(help_text("tune-one-pair").format(close=ss.model.close_threshold))
    rows = probability_rows(corpus, index, probabilities, lam=lam)
    if note := close_summary(probabilities[index], epsilon=epsilon):
        st.info(note)
    left, right = st.columns([3, 2])
    top = max(r["probability"] for r in rows)
    left.dataframe(
        rows,
        hide_index=True,
        width="stretch",
        height=38 + 35 * len(rows),
        column_config={"probability": st.column_config.ProgressColumn(format="%.4f", min_value=0, max_value=top)},
    )
    right.plotly_chart(probability_bars(rows), width="stretch", key="bars")

    st.subheader("The guarantee")
    pool = corpus.pool_for(corpus.groups[index])
    st.markdown(
        f"For any two relations r, r′ on the same entity pair, every outcome is at most "
        f"**e^(ε·d_R(r, r′))** times more likely under r than under r′. With ε = {epsilon:g} and d_R ≤ 1, "
        f"never more than **{times(relation_bound(1.0, epsilon=epsilon))}**."
    )
    examples = pool_pairs(pool.predicates, pool_distances(pool.type_pair, pool.predicates))
    st.dataframe(
        [{"r": r, "r′": r2, "d_R": d, "bound e^(ε·d_R)": relation_bound(d, epsilon=epsilon)} for r, r2, d in examples],
        hide_index=True,
        width="stretch",
    )
    per_doc = groups_per_document(corpus)
    name = max(per_doc, key=per_doc.get)
    m = per_doc[name]
    st.markdown(
        f"Per document (Eq. 8–9) the bounds multiply: the worst document, `{name}`, holds {m} relation groups, "
        "so two versions of it "
        f"differing in all of them are at most e^(ε·Σd_R) ≤ **{times(document_bound([1.0] * m, epsilon=epsilon))}** "
        "apart. " + bound_words(document_bound([1.0] * m, epsilon=epsilon), what=f"`{name}`")
    )
    weakest = entity_rows(corpus, epsilons=epsilons, lam=lam, limit=1)[0]
    st.markdown(
        f"Per entity the bounds add up too: `{weakest['entity']}` takes part in {weakest['groups (n)']} groups, so two "
        f"corpora differing in all of its relations are at most **{times(weakest['bound e^(Σ ε_g·d_max)'])}** apart "
        "(every entity, weakest first, on **Triples**). "
        + bound_words(weakest["bound e^(Σ ε_g·d_max)"], what=f"everything about `{weakest['entity']}`")
    )

    st.subheader("Draw a release")
    lasting(st.toggle, "Teaching seed (reproducible, NOT a private release)", key="w_teaching", state="teaching_seed")
    draw_button(corpus)
    release = studio().current_release(corpus)
    if release is not None:
        g = release.guarantee
        if not g.private_release:
            st.error("Drawn with a fixed teaching seed: this is NOT a private release. Do not publish it.")
        if reason := studio().stale_reason():
            stale = f"The drawn release (ε = {g.epsilon:g}, λ = {g.lam:g}, K = {g.k}) is stale: {reason}."
            st.warning(f"{stale} Draw it again before you export.")
        else:
            per = " per entity" if g.entity_epsilon is not None else ""
            st.success(f"Release drawn at ε = {g.epsilon:g}{per}, λ = {g.lam:g}, K = {g.k}.")
        if (draws := studio().draw_count()) is not None and draws.corpus > 1:
            st.warning(draws.words())
        st.caption("See what changed on **Drawn release** (confidential view), then **Export** it.")
elif corpus is not None:
    st.info("No relation was found between two names in these documents: there is nothing to draw. See **Review**.")
