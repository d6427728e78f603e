"""Export: sign the release, download the public zip; the confidential mapping and review apart, labelled."""

import datetime

import streamlit as st

from pages._review_forms import download_review
from pages._shared import SAMPLE_NAMES, budget_left, help_text, lasting, studio
from relguard.engine.marks import CLOSE, MEANING, OPEN
from relguard.engine.memory import release_counts
from relguard.release.confidential import MAPPING_FILE
from relguard.release.markdown import backend_lines
from relguard.release.report import counts_words
from relguard.studio.export import export_release, lost_text
from relguard.studio.signoff import DECISIONS
from relguard.studio.unsettled import unprotected
from relguard.studio.wording import epsilon_words
from relguard.textable import plural

st.title("Export")
ss, session = st.session_state, studio()
release = ss.release
if release is None:
    st.info("Draw a release on the **Tune** page first.")
elif reason := session.stale_reason():
    g = release.guarantee
    st.error(
        f"The drawn release (ε = {g.epsilon:g}, λ = {g.lam:g}, K = {g.k}) no longer matches your settings: {reason}. "
        "Draw it again on **Tune**; only a release that matches what the pages show can be exported."
    )
else:
    g = release.guarantee
    if not g.private_release:
        st.error("This release was drawn with a teaching seed: it is NOT a private release. It cannot be signed off.")
    counts = release_counts(release)
    st.markdown(
        f"**ε = {g.epsilon:g}, λ = {g.lam:g}, K = {g.k}** · {plural(counts['documents'], 'document')} · "
        f"{counts_words(counts)}"
    )
    st.info(epsilon_words(g.epsilon))
    for line in lost_text(release):
        st.error(f"{line}. Read it on **Drawn release** before you sign.", icon="⚠️")
    if counts["sentences_withheld"]:
        st.warning(
            f"{plural(counts['sentences_withheld'], 'sentence was', 'sentences were')} withheld: the leak scan still "
            "found an original relation there, so it is left out of the release. The confidential mapping lists it."
        )
    for line in backend_lines(release.provenance.get("backends") or {}):
        st.caption(line.strip().lstrip("- "))
    if (draws := session.draw_count()) is not None:
        (st.warning if draws.private > 1 else st.caption)(f"Draws: {draws.words()}")
    budget_left()
    if earlier := session.earlier_exports():
        total = draws.total_epsilon if draws is not None else session.composed(g.epsilon)  # one total: the ledger's
        st.warning(
            f"You already exported {plural(len(earlier), 'release')} of this corpus. Releases compose, and every draw "
            f"counts, exported or not: the ledger's total ε of {total:g} (bounds e^({total:g}·d_R)).",
            icon="⚠️",
        )

    st.caption(f"Review: {unprotected(release.extraction, session.review).words()} (their text: Review, mapping).")
    st.subheader("Sign-off")
    st.caption(help_text("export-sign-off"))
    if ss.sign_date is None:
        ss.sign_date = datetime.date.today()
    left, middle, right = st.columns([2, 1, 2])
    lasting(left.text_input, "Reviewer", key="w_sign_reviewer", state="sign_reviewer")
    lasting(middle.date_input, "Date", key="w_sign_date", state="sign_date")
    lasting(right.radio, "Decision", DECISIONS, key="w_sign_decision", state="sign_decision", index=None)
    lasting(st.text_area, "Notes", key="w_sign_notes", state="sign_notes", height=80)
    gate = session.gate()
    inputs = sorted(ss.hashes)
    marks = st.toggle(f"Also mark every filled slot inline in the text ({OPEN}…{CLOSE})", key="export_marks")
    st.caption(f"Whatever you choose, the release lists every filled slot: {MEANING}.")
    exported = export_release(
        session.public_release(),
        inputs=["assets/sample_corpus"] if set(inputs) == SAMPLE_NAMES else inputs,
        review="review.json" if session.review else None,
        mark_slots=marks,
        policy=ss.exclusion_policy,
    )
    with st.expander("report.md (the public report, as it is in the zip)"):
        st.markdown(exported.report_md)
    with st.expander("config.toml (settings, inputs and policies: `relguard sanitize --config` replays it)"):
        st.code(exported.config, language="toml")
    if not gate.open:
        st.error(gate.message(), icon="🔒")
    st.download_button(
        "Download the release (.zip): sanitized documents, report.json, report.md, config.toml",
        data=exported.zip if gate.open else b"",
        file_name="relguard-release.zip",
        mime="application/zip",
        type="primary",
        on_click=session.record_export,
        args=(g.epsilon,),
        key="download_zip",
        disabled=not gate.open,
    )
    st.divider()
    st.markdown(help_text("export-confidential"))
    private = exported.confidential_counts
    st.caption(
        f"Confidential: {private['unchanged']} of {private['relations']} relations kept their original predicate "
        f"and {private['same_words']} more read in their original words, "
        f"{private['substituted']} were substituted, {private['deleted']} deleted."
    )
    st.download_button(
        f"Download {MAPPING_FILE} (CONFIDENTIAL)",
        data=exported.mapping,
        file_name=MAPPING_FILE,
        mime="application/json",
        key="download_audit",
    )
    if session.review:
        label = "Download review.json (CONFIDENTIAL: the analyst's edits, replayed by the command in config.toml)"
        download_review(session, label, key="download_review_export")
