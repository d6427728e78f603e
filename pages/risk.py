"""Risk & utility: exact expected leakage over ε, and the targeted reconstruction attack on the drawn release."""

import streamlit as st

from pages._charts import leakage_curves
from pages._shared import EPSILONS, LAMBDAS, extractor, help_text, log_slider, need_corpus, studio
from relguard.evaluation import TargetedAttacker, default_matcher, expected_leakage_curve
from relguard.studio.risk import PERCENT_COLUMNS, leakage_rows, run_attack, utility_figures

st.title("Risk & utility")
ss = st.session_state
st.write(help_text("risk-intro"))

with st.expander("How to read this page: the attacker, Conn., Rel. and their limits"):
    st.markdown(help_text("risk-how-to-read"))

corpus = need_corpus()


@st.cache_resource(show_spinner=False)
def attacker() -> TargetedAttacker:
    """One attacker per process: it caches its extraction per text, so only texts a release changed are re-read."""
    return TargetedAttacker(extractor())


@st.cache_resource(show_spinner="Calibrating the relation matcher …")
def matcher():
    return default_matcher()


if corpus is not None and corpus.groups:
    left, right = st.columns(2)
    log_slider(left, "ε — privacy budget (log scale)", options=EPSILONS, key="risk_epsilon", state="epsilon")
    log_slider(right, "λ — distance of deleting (log scale)", options=LAMBDAS, key="risk_lam", state="lam")
    epsilon, lam = ss.epsilon, ss.lam
    release = studio().current_release(corpus)
    stored = ss.risk if ss.risk is not None and release is not None and ss.risk.release is release else None

    st.subheader("Expected leakage (exact, not sampled)")
    grid = sorted({*EPSILONS[::2], epsilon})
    curve = expected_leakage_curve(corpus, epsilons=grid, lam=lam)
    now = next(e for e in curve if e.epsilon == epsilon)
    cols = st.columns(3)
    cols[0].metric(
        "connections kept",
        f"{now.connection:.1%}",
        help="Expected share of relations whose entity pair stays connected in the text (1 − P(deleted)).",
    )
    cols[1].metric(
        "relations kept with their meaning",
        f"{now.relation:.1%}",
        help="Expected share of relations "
        "whose released predicate means the original one (probability mass on equivalent candidates).",
    )
    cols[2].metric("relations deleted", f"{now.deleted:.1%}", help="Expected share whose sentence is removed.")
    st.caption(
        f"Over the {now.triples} canonical triples at ε = {epsilon:g}, λ = {lam:g}, K = {corpus.k}, straight from "
        "the mechanism's probability tables. This is what the mechanism *keeps*; what an attacker *recovers* is "
        "measured below and can be lower (the extractor misses things) or higher (it finds links other ways)."
    )

    figure = leakage_curves(curve, epsilon, measured=stored)
    st.plotly_chart(figure, width="stretch", key="risk_curve")

    st.subheader("Measured: the targeted reconstruction attack")
    if release is None:
        if ss.release is not None:
            st.warning("The release was drawn before the corpus or K changed. Draw it again on **Tune**.")
        else:
            st.info('No release yet. Draw one on **Tune** ("Draw a release"), then come back to attack it.')
    else:
        g = release.guarantee
        kind = "private draw" if g.private_release else "teaching draw — NOT a private release"
        st.markdown(f"Your release: ε = **{g.epsilon:g}**, λ = **{g.lam:g}**, K = **{g.k}** ({kind}).")
        if st.button("Run the attack on this release", type="primary", key="risk_run"):
            with st.spinner("Re-extracting the sanitized corpus with spaCy and scoring it (App. E) …"):
                ss.risk = run_attack(corpus, release, attacker=attacker(), matcher=matcher())
            st.rerun()
        if stored is None:
            st.caption("The attack re-runs spaCy on every changed document, so it runs only when you press the button.")
        else:
            baseline, measured = stored.baseline, stored.measured
            cols = st.columns(3)
            for col, label, name in (
                (cols[0], "Conn. F1 (who is linked)", "conn_f1"),
                (cols[1], "Rel. F1 (how they are linked)", "rel_f1"),
            ):
                value, before = getattr(measured.leakage, name), getattr(baseline.leakage, name)
                col.metric(
                    label, f"{value:.1%}", f"{100 * (value - before):+.1f} points vs no defence", delta_color="inverse"
                )
            cols[2].metric("coverage", f"{measured.coverage:.0%}", help="Share of the true relations RelGuard saw.")
            percent = st.column_config.NumberColumn(format="%.1f %%")
            st.dataframe(
                leakage_rows(stored),
                hide_index=True,
                width="stretch",
                column_config=dict.fromkeys(PERCENT_COLUMNS, percent),
                key="risk_table",
            )
            st.caption(
                f"Attacker: `{stored.attacker}` on all {len(release.documents)} documents · relations match when "
                f"d_R ≤ {stored.threshold:.2f} (calibrated) · {measured.leakage.targets} target entities · "
                f"{stored.seconds:.1f} s. Lower is better for privacy."
            )
            st.markdown(help_text("risk-coverage-gold" if measured.truth == "gold" else "risk-coverage-own"))

            st.subheader("Utility")
            cols = st.columns(3)
            figures = utility_figures(corpus, release)
            cols[0].metric("sentences kept", figures["sentences kept"])
            cols[1].metric("relations deleted", f"{measured.deleted_share:.1%}")
            cols[2].metric("documents changed", figures["documents changed"])
            st.caption(
                "Answer survival and retrieval recall need questions with known answers; `relguard evaluate "
                "--dataset hotpotqa` (or `2wiki`) measures them against the same baselines. See the side-by-side "
                "text of this release on **Tune**."
            )
