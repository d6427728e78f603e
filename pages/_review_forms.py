"""The Review page's edit forms: each takes its widgets and records one edit of the library's review.

Every edit is :mod:`relguard.extract.review`'s (applied before the draw, replayed from review.json); the forms
only find the offsets and names the edit needs, from what the analyst picks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import streamlit as st

from relguard.extract.review import (
    AddEntity,
    AddSlot,
    Dismiss,
    MergeAlias,
    RemoveSlot,
    SetReferent,
    SetType,
    entity_names,
    locate_span,
    slot_on,
    slots_of,
)
from relguard.pipeline import Prepared
from relguard.studio.queue import PRONOUNS, UNTYPED
from relguard.studio.review import Flag
from relguard.studio.session import Studio
from relguard.studio.unsettled import dismissals, unprotected
from relguard.studio.wording import count_words, edit_words, sentence_label
from relguard.types import ENTITY_TYPES

T = TypeVar("T")
TABS = (
    "Add a missed slot",
    "Remove a slot",
    "Add an entity",
    "Set a pronoun's referent",
    "Correct a type",
    "Merge aliases",
    "Dismiss an item",
)


def _record(session: Studio, edit) -> None:
    session.edit(edit)
    st.rerun()


def _pick(label: str, items: Sequence[T], words: Callable[[T], str], *, key: str) -> T | None:
    """A select box over ``items``, each shown by ``words(item)``. The options are those words themselves, not
    positions: when an edit changes the list under the box (the item shown was just removed, or dismissed), the
    box shows what it returns instead of a stale label over another item."""
    labels: dict[str, T] = {}
    for item in items:
        text, number = words(item), 2
        while text in labels:
            text, number = f"{words(item)} ({number})", number + 1
        labels[text] = item
    chosen = st.selectbox(label, list(labels), key=key)
    return labels.get(chosen) if chosen is not None else None


def _document(corpus: Prepared, key: str):
    names = [d.document.name for d in corpus.extraction.documents]
    return corpus.extraction.documents[names.index(st.selectbox("Document", names, key=key))]


def add_slot(corpus: Prepared, session: Studio) -> None:
    doc = _document(corpus, "add_document")
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
            _record(session, AddSlot(doc.document.name, span[0], span[1], pair[0], pair[1]))


def remove_slot(corpus: Prepared, session: Studio) -> None:
    doc = _document(corpus, "remove_document")
    span = _pick("Slot", slots_of(doc), lambda s: f"sentence {s[0] + 1}: {s[3]!r}", key="remove_slot_choice")
    if st.button("Remove slot", key="remove_slot", disabled=span is None):
        _record(session, RemoveSlot(doc.document.name, span[1], span[2]))


def add_entity(queues: dict[str, list[Flag]], session: Studio) -> None:
    suggested = sorted({flag.item.split(":", 1)[1] for flag in queues.get(UNTYPED, [])})
    name = st.selectbox(
        "The name, exactly as the documents spell it (every place it is spelled becomes a mention)",
        suggested,
        index=None,
        accept_new_options=True,
        placeholder="pick a name from the queue or type one",
        key="entity_name",
    )
    kind = st.selectbox("Its type", ENTITY_TYPES, key="entity_type")
    if st.button("Add entity", key="add_entity", disabled=not (name or "").strip()):
        _record(session, AddEntity(name.strip(), kind))


def set_referent(corpus: Prepared, queues: dict[str, list[Flag]], session: Studio) -> None:
    doc = _document(corpus, "referent_document")
    links = [f for f in queues.get(PRONOUNS, []) if f.document == doc.document.name]
    link = _pick("The word", links, lambda f: f"sentence {f.sentence + 1}: {f.problem}", key="referent_word")
    entity = st.selectbox("It refers to", sorted(e.name for e in doc.entities), key="referent_entity")
    if st.button("Set referent", key="set_referent", disabled=link is None or entity is None):
        start, end = (int(part) for part in link.item.split("-"))
        _record(session, SetReferent(doc.document.name, start, end, entity))


def retype(corpus: Prepared, session: Studio) -> None:
    entity = st.selectbox("Entity", entity_names(corpus.extraction), key="type_entity")
    kind = st.selectbox("Its type", ENTITY_TYPES, key="type_value")
    if st.button("Set type", key="set_type"):
        _record(session, SetType(entity, kind))


def merge(corpus: Prepared, session: Studio) -> None:
    everyone = entity_names(corpus.extraction)
    alias = st.selectbox("This name …", everyone, key="merge_alias")
    canonical = st.selectbox("… names the same entity as", everyone, key="merge_canonical")
    if st.button("Merge", key="merge", disabled=alias == canonical):
        _record(session, MergeAlias(alias, canonical))


def dismiss(corpus: Prepared, flags: list[Flag], session: Studio) -> None:
    flag = _pick("Queue item", flags, lambda f: f"{f.queue} · {f.document}: {f.problem[:90]}", key="dismiss_item")
    reason = st.text_input("Why it is harmless (recorded in review.json)", key="dismiss_reason")
    if st.button("Dismiss", key="dismiss", disabled=flag is None or not reason.strip()):
        _record(session, Dismiss(flag.queue, flag.document, flag.item, reason.strip()))
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
    st.download_button(
        "Download review.json (CONFIDENTIAL: replay it with relguard sanitize … --review review.json)",
        data=session.review.to_json(),
        file_name="review.json",
        mime="application/json",
        key="download_review",
    )
