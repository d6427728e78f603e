"""The Review page's edit forms: each takes its widgets and records one edit of the library's review.

Every edit is :mod:`relguard.extract.review`'s (applied before the draw, replayed from review.json); the forms
only find the offsets and names the edit needs, from what the analyst picks.
"""

from __future__ import annotations

import streamlit as st

from pages._entity_forms import add_entity, document_of, merge, pick, record, retype, set_referent, split_name
from relguard.extract.review import AddSlot, Dismiss, RemoveSlot, locate_span, slot_on, slots_of
from relguard.pipeline import Prepared
from relguard.studio.review import Flag
from relguard.studio.session import Studio
from relguard.studio.unsettled import dismissals, unprotected
from relguard.studio.wording import count_words, edit_words, sentence_label

__all__ = [
    "TABS",
    "add_entity",
    "add_slot",
    "dismiss",
    "download_review",
    "edit_log",
    "merge",
    "remove_slot",
    "retype",
    "set_referent",
    "split_name",
]
TABS = (
    "Add a missed slot",
    "Remove a slot",
    "Add an entity",
    "Set a pronoun's referent",
    "Correct a type",
    "Merge aliases",
    "Dismiss an item",
)


def add_slot(corpus: Prepared, session: Studio) -> None:
    doc = document_of(corpus, "add_document")
    number = st.selectbox(
        "Sentence",
        range(len(doc.sentences)),
        format_func=lambda i: sentence_label(i, doc.sentence_text(i)),
        key="add_sentence",
    )
    named = sorted({e.name for e in doc.entities for m in e.mentions if m.sentence == number})
    words = st.text_input("The relation words, exactly as in the sentence", key="add_words")
    pair = st.multiselect("The two entities it links", named, max_selections=2, key="add_pair")
    if st.button("Add slot", key="add_slot", disabled=len(pair) != 2 or not words.strip()):
        span = locate_span(doc, number, words)
        if span is None:
            st.error(f"{words!r} is not in sentence {number + 1} outside the entity names; copy it exactly.")
        elif slot_on(doc, span[0], span[1], pair[0], pair[1]) is not None:
            st.warning(f"{words!r} already has a slot between {pair[0]} and {pair[1]}; nothing was added.")
        else:
            record(session, AddSlot(doc.document.name, span[0], span[1], pair[0], pair[1]))


def remove_slot(corpus: Prepared, session: Studio) -> None:
    doc = document_of(corpus, "remove_document")
    span = pick("Slot", slots_of(doc), lambda s: f"sentence {s[0] + 1}: {s[3]!r}", key="remove_slot_choice")
    if st.button("Remove slot", key="remove_slot", disabled=span is None):
        record(session, RemoveSlot(doc.document.name, span[1], span[2]))


def dismiss(corpus: Prepared, flags: list[Flag], session: Studio) -> None:
    flag = pick("Queue item", flags, lambda f: f"{f.queue} · {f.document}: {f.problem[:90]}", key="dismiss_item")
    reason = st.text_input("Why it is harmless (recorded in review.json)", key="dismiss_reason")
    if st.button("Dismiss", key="dismiss", disabled=flag is None or not reason.strip()):
        record(session, Dismiss(flag.queue, flag.document, flag.item, reason.strip()))
    status = unprotected(corpus.extraction, session.review)
    if status.open:
        st.markdown(f"Or settle all {len(status.open)} open unprotected sentences at once, having read each above:")
        every = st.text_input("Why none of them holds a relation to protect", key="dismiss_all_reason")
        if st.button(f"Dismiss all {len(status.open)}", key="dismiss_all", disabled=not every.strip()):
            for change in dismissals(status, every.strip()):
                session.edit(change)
            st.rerun()


def edit_log(corpus: Prepared, session: Studio) -> None:
    st.subheader(f"{count_words(len(session.review), 'edit')}, applied before the draw")
    texts = {d.name: d.text for d in corpus.documents}
    for index, change in enumerate(session.review.edits):
        text, undo = st.columns([6, 1])
        text.markdown(edit_words(change, texts))
        if undo.button("Undo", key=f"undo_{index}"):
            session.undo(index)
            st.rerun()
    label = "Download review.json (CONFIDENTIAL: replay it with relguard sanitize … --review review.json)"
    download_review(session, label, key="download_review")


def download_review(session: Studio, label: str, *, key: str) -> None:
    """The analyst's edits as review.json, offered wherever a page tells what they are for (``label``)."""
    st.download_button(label, data=session.review.to_json(), file_name="review.json", mime="application/json", key=key)
