"""Risk & utility: exact expected leakage over ε, and the targeted reconstruction attack on the drawn release."""

import streamlit as st

from pages._charts import leakage_curves
from pages._seed import seed_comparison
from pages._shared import EPSILONS, LAMBDAS, extractor, help_text, log_slider, need_corpus, studio
from relguard.engine.memory import release_tally
from relguard.evaluation import TargetedAttacker, default_matcher, expected_leakage_curve
from relguard.studio.risk import PERCENT_COLUMNS, leakage_rows, run_attack, utility_figures
from relguard.studio.wording import OUTCOME_HELP, epsilon_words

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
    st.info(epsilon_words(epsilon))
    release = studio().current_release(corpus)
    stored = ss.risk if ss.risk is not None and release is not None and ss.risk.release is release else None

    st.subheader("Expected leakage (exact, not sampled)")
    grid = sorted({*EPSILONS[::2], epsilon})
    curve = expected_leakage_curve(corpus, epsilons=grid, lam=lam)
    now = next(e for e in curve if e.epsilon == epsilon)
    expected = {
        "connections kept": (now.connection, "Expected share of relations whose entity pair stays connected."),
        "meaning kept": (now.relation, OUTCOME_HELP[""]),
        "relations deleted": (now.deleted, OUTCOME_HELP["deleted"]),
    }
    for col, (label, (share, what)) in zip(st.columns(3), expected.items(), strict=True):
        col.metric(label, f"{share:.1%}", help=what)
    st.caption(help_text("risk-expected").format(triples=now.triples, epsilon=epsilon, lam=lam, k=corpus.k))

    figure = leakage_curves(curve, epsilon, measured=stored)
    st.plotly_chart(figure, width="stretch", key="risk_curve")

    st.subheader("Measured: the targeted reconstruction attack")
    reason = studio().stale_reason()
    if release is None or release.extraction is not corpus.extraction:
        if release is not None:
            st.warning(f"The release is stale ({reason or 'the corpus changed'}). Draw it again on **Tune**.")
        else:
            st.info('No release yet. Draw one on **Tune** ("Draw a release"), then come back to attack it.')
    else:
        if reason:
            st.warning(f"The release is stale: {reason}. Its numbers are the drawn release's, not your settings'.")
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
            if measured.truth == "gold":
                cols[2].metric("coverage", f"{measured.coverage:.0%}", help="Share of the gold relations RelGuard saw.")
            else:
                unprotected = release_tally(release).coverage()["sentences_not_protected"]  # the report's count
                cols[2].metric("sentences not protected", unprotected, help=help_text("risk-unprotected-metric"))
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
                "text of this release on **Drawn release**."
            )
        seed_comparison(corpus, release, attacker=attacker(), matcher=matcher())
