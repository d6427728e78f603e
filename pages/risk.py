"""Risk & utility: exact expected leakage over ε, and the targeted reconstruction attack on the drawn release."""

import time

import plotly.graph_objects as go
import streamlit as st

from pages._shared import EPSILONS, LAMBDAS, extractor, log_slider, need_corpus
from relguard.evaluate import TargetedAttacker, default_matcher, evaluate_release, expected_leakage_curve

CONN, REL = "#1f6fb4", "#e8710a"

st.title("Risk & utility")
ss = st.session_state
st.write(
    "How much of the knowledge graph could someone rebuild from what you release, and how much of the text "
    "survives? The expected figures are exact and follow the sliders; the attack is measured on the release you "
    "drew on **Tune**, next to the same attack on the unprotected originals."
)

with st.expander("How to read this page: the attacker, Conn., Rel. and their limits"):
    st.markdown(
        """
**The attacker.** It reads the *whole* sanitized corpus (everything a GraphRAG index built from it could reveal,
so at least as much as anyone who only queries such an index) and knows which people, organisations and places
the corpus is about. For each of these *targets* it extracts every relation it can find around it — its
one-hop neighbourhood — with the same spaCy extractor RelGuard used (paper §4.3, App. E).

**Conn. (connection recovery)** asks only *who is linked to whom*: did the attacker find that A and B are
connected, whatever the link is? **Rel. (relation recovery)** also asks *how*: the predicted relation must mean
the true one (the same predicate, or one within the calibrated d_R threshold of it).

**Precision** is the share of the links the attacker claims that are real; **recall** is the share of the real
links it found; **F1** combines the two. Each is computed per target and averaged (App. E). Lower is better for
privacy; without any defence all of them are 100 % by construction (the attacker reads the original text).

**Limits.** This attacker is an automatic extractor, not a person: a human reader, an LLM or someone with
background knowledge may recover more, so read the numbers as a measured floor of the risk, not a proof of
safety — the proof is the ε guarantee on **Tune**. It can only score relations RelGuard's extractor saw (see
coverage below). The relation matcher is symmetric, so it cannot tell a broader predicate from a narrower one.
One release is one random draw: another draw at the same ε gives somewhat different numbers.
"""
    )

corpus = need_corpus()


@st.cache_resource(show_spinner=False)
def attacker() -> TargetedAttacker:
    """One attacker per process: it caches its extraction per text, so only texts a release changed are re-read."""
    return TargetedAttacker(extractor())


@st.cache_resource(show_spinner="Calibrating the relation matcher …")
def matcher():
    return default_matcher()


if corpus is not None and corpus.triples:
    left, right = st.columns(2)
    log_slider(left, "ε — privacy budget (log scale)", options=EPSILONS, key="risk_epsilon", state="epsilon")
    log_slider(right, "λ — distance of deleting (log scale)", options=LAMBDAS, key="risk_lam", state="lam")
    epsilon, lam = ss.epsilon, ss.lam
    release = ss.release if ss.release is not None and ss.release.extraction is corpus.extraction else None
    stored = ss.risk if ss.risk is not None and release is not None and ss.risk["release"] is release else None

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

    figure = go.Figure()
    figure.add_scatter(
        x=[e.epsilon for e in curve], y=[e.connection for e in curve], name="connections kept", line={"color": CONN}
    )
    figure.add_scatter(
        x=[e.epsilon for e in curve],
        y=[e.relation for e in curve],
        name="relations kept (meaning)",
        line={"color": REL},
    )
    figure.add_scatter(
        x=[epsilon, epsilon],
        y=[0, 1],
        mode="lines",
        name=f"current ε = {epsilon:g}",
        line={"dash": "dash", "color": "#333"},
    )
    if stored is not None:
        measured = stored["release_eval"].leakage
        for label, recall, color in (("Conn.", measured.conn_recall, CONN), ("Rel.", measured.rel_recall, REL)):
            figure.add_scatter(
                x=[stored["epsilon"]],
                y=[recall],
                mode="markers",
                name=f"measured {label} recall (attack)",
                marker={"symbol": "diamond", "size": 12, "color": color},
            )
    figure.update_layout(
        xaxis={"type": "log", "title": "ε"},
        yaxis={"title": "expected share of relations", "tickformat": ".0%", "range": [0, 1.02]},
        height=340,
        margin={"l": 10, "r": 10, "t": 20, "b": 10},
    )
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
                started = time.perf_counter()
                spy, same = attacker(), matcher()
                spy.seed([d.text for d in corpus.documents], corpus.extraction)
                baseline = evaluate_release(corpus, None, attacker=spy, matcher=same)
                measured = evaluate_release(corpus, release, attacker=spy, matcher=same)
                ss.risk = stored = {
                    "release": release,
                    "epsilon": g.epsilon,
                    "baseline": baseline,
                    "release_eval": measured,
                    "seconds": time.perf_counter() - started,
                    "threshold": same.threshold,
                }
            st.rerun()
        if stored is None:
            st.caption("The attack re-runs spaCy on every changed document, so it runs only when you press the button.")
        else:
            baseline, measured = stored["baseline"], stored["release_eval"]
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

            def row(method: str, evaluation) -> dict:
                s = evaluation.leakage
                return {
                    "method": method,
                    "Conn. P": 100 * s.conn_precision,
                    "Conn. R": 100 * s.conn_recall,
                    "Conn. F1": 100 * s.conn_f1,
                    "Rel. P": 100 * s.rel_precision,
                    "Rel. R": 100 * s.rel_recall,
                    "Rel. F1": 100 * s.rel_f1,
                    "coverage": 100 * evaluation.coverage,
                    "deleted": 100 * evaluation.deleted_share,
                    "targets": s.targets,
                }

            percent = st.column_config.NumberColumn(format="%.1f %%")
            st.dataframe(
                [
                    row("no defence (original text)", baseline),
                    row(f"RelGuard (ε = {g.epsilon:g}, λ = {g.lam:g}, K = {g.k})", measured),
                ],
                hide_index=True,
                width="stretch",
                column_config={
                    name: percent
                    for name in ("Conn. P", "Conn. R", "Conn. F1", "Rel. P", "Rel. R", "Rel. F1", "coverage", "deleted")
                },
                key="risk_table",
            )
            st.caption(
                f"Attacker: `{attacker().name}` on all {len(release.documents)} documents · relations match when "
                f"d_R ≤ {stored['threshold']:.2f} (calibrated) · {measured.leakage.targets} target entities · "
                f"{stored['seconds']:.1f} s. Lower is better for privacy."
            )
            if measured.truth == "gold":
                st.markdown(
                    f"**Coverage {measured.coverage:.0%}:** of the annotated (gold) relations, this share lies on an "
                    "entity pair RelGuard extracted and therefore sanitized. The rest it never saw: they were "
                    "released unchanged."
                )
            else:
                st.markdown(
                    "**Coverage is 100 % by construction here.** There are no annotated relations for your "
                    "documents, so the truth the attacker is scored against is RelGuard's own extraction of the "
                    "originals — every relation in it is one RelGuard saw and sanitized. Relations the extractor "
                    "missed were released unchanged and are not counted, so they are neither protected nor "
                    "measured. To measure coverage against annotated relations, run "
                    "`relguard evaluate --dataset redocred`."
                )

            st.subheader("Utility")
            removed = sum(len(d.removed_sentences) for d in release.documents)
            total = sum(len(d.sentences) for d in release.extraction.documents)
            cols = st.columns(3)
            cols[0].metric("sentences kept", f"{total - removed} of {total}")
            cols[1].metric("relations deleted", f"{measured.deleted_share:.1%}")
            changed = sum(o.text != d.text for o, d in zip(corpus.documents, release.documents, strict=True))
            cols[2].metric("documents changed", f"{changed} of {len(release.documents)}")
            st.caption(
                "Answer survival and retrieval recall need questions with known answers; `relguard evaluate "
                "--dataset hotpotqa` (or `2wiki`) measures them against the same baselines. See the side-by-side "
                "text of this release on **Tune**."
            )
