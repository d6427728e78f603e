"""Documents: upload files, load the sample corpus or paste text; see what was read."""

import streamlit as st

from pages._backends import backends_panel, privacy_line
from pages._shared import SAMPLE_DIR, prepared, studio
from relguard.io.formats import UPLOAD_SUFFIXES, load_uploads, too_many_files
from relguard.studio.tables import document_rows
from relguard.studio.unsettled import unprotected

st.title("Documents")
st.write("Load the corpus to review.")
privacy_line()

files = st.file_uploader(  # every type: a file the library cannot read gets a visible error naming it, not a tooltip
    f"Upload files ({', '.join(UPLOAD_SUFFIXES[:-1])}; .csv and .parquet with a text column)",
    accept_multiple_files=True,
    key="uploads",
    help="A file's documents stay loaded when you clear it from this box; **Remove all documents** starts over.",
)
new = [f for f in files or [] if f.file_id not in st.session_state.seen_uploads]
if over_limit := too_many_files(len(files or [])):
    st.error(over_limit, icon="⚠️")
elif new:
    st.session_state.seen_uploads.update(f.file_id for f in new)
    studio().add_uploads(load_uploads((f.name, f.getvalue()) for f in new))

left, middle, right = st.columns(3)
if left.button("Load the sample corpus", type="primary", disabled=st.session_state.sample_loaded):
    studio().load_sample(SAMPLE_DIR)
with right.popover("Remove all documents", disabled=not st.session_state.documents):
    st.markdown("**This removes every loaded document, the review edits and the drawn release.** It cannot be undone.")
    if st.button("Yes, remove all documents", type="primary", key="confirm_clear"):
        studio().clear()
        st.rerun()

with middle.popover("Paste text"):
    name = st.text_input("Document name", value="pasted.txt", key="paste_name")
    text = st.text_area("Text", key="paste_text", height=160)
    if st.button("Add pasted text", key="paste_add"):
        if not text.strip():
            st.error("The text is empty; paste some text first.")
        else:
            pasted = name if name.endswith((".txt", ".md")) else f"{name}.txt"
            studio().add_uploads(load_uploads([(pasted, text.encode())]))


backends_panel()

for _, message in st.session_state.upload_errors:
    st.error(message, icon="⚠️")
if st.session_state.upload_errors and st.button("Dismiss these messages", key="dismiss_errors"):
    studio().dismiss_errors()
    st.rerun()

corpus = prepared()
if corpus is None:
    if not st.session_state.documents:
        st.info("No documents loaded yet.")
else:
    rows = document_rows(corpus.extraction)
    slots, relations, groups = sum(r["relation slots"] for r in rows), len(corpus.triples), len(corpus.groups)
    st.subheader(f"{len(rows)} documents · {slots} slots · {relations} relations · {groups} relation groups")
    st.dataframe(rows, hide_index=True, width="stretch")
    status = unprotected(corpus.extraction, st.session_state.review)
    if status.sentences:
        st.warning(
            f"{status.words()} (two or more entities and no relation slot, or a name no entity stands for): a "
            "relation RelGuard did not find is released as written. See and settle them on **Review**.",
            icon="⚠️",
        )
    if usage := st.session_state.usage:
        st.caption(
            f"Confidential — LLM this run: **{usage['calls']}** calls, {usage['prompt_tokens']} prompt + "
            f"{usage['completion_tokens']} completion tokens (they depend on the original text, so they stay out "
            "of the public report; cached documents and pools cost no calls)."
        )
    st.caption("Next: look at the extracted **Triples**, then **Tune** ε, λ and K.")
