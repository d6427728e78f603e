"""Export: the public zip, and the confidential mapping as a separate, labelled download."""

import streamlit as st

from pages._shared import SAMPLE_NAMES, studio
from relguard.release.bundle import config_toml, release_zip
from relguard.release.confidential import MAPPING_FILE, confidential_bytes, confidential_counts
from relguard.release.report import backend_lines, release_counts

st.title("Export")
ss = st.session_state
release = ss.release
if release is None:
    st.info("Draw a release on the **Tune** page first.")
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
            "relation there, so they are left out of the release. The confidential file lists them."
        )
    for line in backend_lines(release.provenance.get("backends") or {}):
        st.caption(line.strip().lstrip("- "))
    earlier = studio().earlier_exports()
    if earlier:
        total = studio().composed(g.epsilon)
        st.warning(
            f"You already exported {len(earlier)} release(s) of this corpus. Releases compose: publishing them "
            f"together gives ε·d_R adding up, a total ε of {total:g} (bounds e^({total:g}·d_R)).",
            icon="⚠️",
        )
    inputs = sorted(ss.hashes)
    config = config_toml(
        release,
        inputs=inputs,
        seed=ss.release_seed,
        command_inputs=["assets/sample_corpus"] if set(inputs) == SAMPLE_NAMES else None,
    )
    with st.expander("config.toml (settings and the command that reproduces them)"):
        st.code(config, language="toml")

    def record() -> None:
        studio().record_export(g.epsilon)

    st.download_button(
        "Download the release (.zip): sanitized documents, report.json, report.md, config.toml",
        data=release_zip(release, config=config),
        file_name="relguard-release.zip",
        mime="application/zip",
        type="primary",
        on_click=record,
        key="download_zip",
    )
    st.divider()
    st.markdown(
        "#### Confidential file\nMaps every original relation to its sampled one, with the counts that need the "
        "originals and the digests of the input files. It undoes the protection: keep it apart from the release "
        "and never publish it."
    )
    private = confidential_counts(release)
    st.caption(
        f"Confidential: {private['unchanged']} of {private['relations']} relations kept their original predicate, "
        f"{private['substituted']} were substituted, {private['deleted']} deleted."
    )
    st.download_button(
        f"Download {MAPPING_FILE} (CONFIDENTIAL)",
        data=confidential_bytes(release),
        file_name=MAPPING_FILE,
        mime="application/json",
        key="download_audit",
    )
