"""Export: sign the release, download the public zip; the confidential mapping and review apart, labelled."""

import datetime

import streamlit as st

from pages._shared import SAMPLE_NAMES, help_text, studio
from relguard.engine.memory import release_counts
from relguard.release.confidential import MAPPING_FILE
from relguard.release.markdown import backend_lines
from relguard.studio.export import export_release

DECISIONS = ("approved for release", "approved with conditions (see notes)", "not approved")

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
        st.error("This release was drawn with a teaching seed: it is NOT a private release. Do not publish it.")
    counts = release_counts(release)
    st.markdown(
        f"**ε = {g.epsilon:g}, λ = {g.lam:g}, K = {g.k}** · {counts['documents']} documents · "
        f"{counts['slots']} relation slots in {counts['groups']} groups, {counts['groups_deleted']} groups deleted · "
        f"{counts['sentences_removed']} of {counts['sentences']} sentences removed"
    )
    if counts["sentences_withheld"]:
        st.warning(
            f"{counts['sentences_withheld']} sentence(s) were withheld: the leak scan still found an original "
            "relation there, so they are left out of the release. The confidential mapping lists them."
        )
    for line in backend_lines(release.provenance.get("backends") or {}):
        st.caption(line.strip().lstrip("- "))
    if earlier := session.earlier_exports():
        total = session.composed(g.epsilon)
        st.warning(
            f"You already exported {len(earlier)} release(s) of this corpus. Releases compose: publishing them "
            f"together gives ε·d_R adding up, a total ε of {total:g} (bounds e^({total:g}·d_R)).",
            icon="⚠️",
        )

    st.subheader("Sign-off")
    st.caption(help_text("export-sign-off"))
    left, middle, right = st.columns([2, 1, 2])
    signed = {
        "reviewer": left.text_input("Reviewer", key="sign_reviewer"),
        "date": middle.date_input("Date", value=datetime.date.today(), key="sign_date").isoformat(),
        "decision": right.radio("Decision", DECISIONS, index=None, key="sign_decision") or "",
        "notes": st.text_area("Notes", key="sign_notes", height=80),
    }
    ss.sign_off = signed if signed["reviewer"] or signed["decision"] else {}
    inputs = sorted(ss.hashes)
    exported = export_release(
        session.public_release(),
        inputs=["assets/sample_corpus"] if set(inputs) == SAMPLE_NAMES else inputs,
        review="review.json" if session.review else None,
    )
    with st.expander("report.md (the public report, as it is in the zip)"):
        st.markdown(exported.report_md)
    with st.expander("config.toml (settings, inputs and policies: `relguard sanitize --config` replays it)"):
        st.code(exported.config, language="toml")
    st.download_button(
        "Download the release (.zip): sanitized documents, report.json, report.md, config.toml",
        data=exported.zip,
        file_name="relguard-release.zip",
        mime="application/zip",
        type="primary",
        on_click=session.record_export,
        args=(g.epsilon,),
        key="download_zip",
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
        st.download_button(
            "Download review.json (CONFIDENTIAL: the analyst's edits, replayed by the command in config.toml)",
            data=session.review.to_json(),
            file_name="review.json",
            mime="application/json",
            key="download_review_export",
        )
