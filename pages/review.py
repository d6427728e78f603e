"""Review: everything the officer must decide before the draw — the whole queue — and the edits that settle it."""

import streamlit as st

from pages import _review_forms as forms
from pages._shared import extractor, need_corpus, studio
from relguard.studio.queue import review_queues
from relguard.studio.unsettled import unprotected

st.title("Review")
st.write(
    "Before the draw, see what RelGuard did not protect and settle each item: add a relation it missed, "
    "widen a slot that left relation words outside, add a name the NER missed or split one that joins "
    "two, say who a pronoun refers to, correct a type, merge two names of one entity — or dismiss an item"
    " with the reason it is harmless. Edits decide **where** the slots are, never **which** outcome a "
    "slot gets — choosing outcomes by hand would void the guarantee. Everything on this page shows the "
    "original documents: it is a **confidential view**."
)
corpus = need_corpus()
if corpus is not None:
    session = studio()
    release = session.current_release(corpus)
    drawn = release if release is not None and not session.stale_reason() else None
    queues = review_queues(corpus, session.review, release=drawn, nlp=extractor().nlp)
    status = unprotected(corpus.extraction, session.review)
    (st.warning if status.open else st.success)(f"{status.words()}; an approving sign-off needs none open.")
    left, right = st.columns([2, 1])
    shown = left.multiselect("Show", list(queues), default=list(queues), key="review_filter")
    right.markdown("  \n".join(f"**{len(items)}** {name}" for name, items in queues.items()))
    flags = [f for name in shown for f in queues[name]]
    rows = [
        {
            "queue": f.queue,
            "document": f.document,
            "sentence": (f.sentence or 0) + 1,
            "problem": f.problem,
            "text": f.text,
        }
        for f in flags
    ]
    st.dataframe(rows, hide_index=True, width="stretch", key="review_queue")

    st.subheader("Settle an item")
    tabs = st.tabs(forms.TABS)
    with tabs[0]:
        forms.add_slot(corpus, session)
    with tabs[1]:
        forms.remove_slot(corpus, session)
    with tabs[2]:
        forms.add_entity(queues, session)
        forms.split_name(corpus, session)
    with tabs[3]:
        forms.set_referent(corpus, queues, session)
    with tabs[4]:
        forms.retype(corpus, session)
    with tabs[5]:
        forms.merge(corpus, session)
    with tabs[6]:
        forms.dismiss(corpus, flags, session)
    if session.review:
        forms.edit_log(corpus, session)
