"""The Review page's entity forms: add a name, split one, set a pronoun's referent, correct a type, merge aliases.

Like every form of the page (:mod:`pages._review_forms`), each records one edit of :mod:`relguard.extract.review`
from what the analyst picks; the small helpers the forms share live here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import streamlit as st

from relguard.extract.review import AddEntity, MergeAlias, SetReferent, SetType, SplitName, entity_names
from relguard.pipeline import Prepared
from relguard.studio.queue import PRONOUNS, UNTYPED
from relguard.studio.review import Flag
from relguard.studio.session import Studio
from relguard.types import ENTITY_TYPES

T = TypeVar("T")


def record(session: Studio, edit) -> None:
    session.edit(edit)
    st.rerun()


def pick(label: str, items: Sequence[T], words: Callable[[T], str], *, key: str) -> T | None:
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


def document_of(corpus: Prepared, key: str):
    names = [d.document.name for d in corpus.extraction.documents]
    return corpus.extraction.documents[names.index(st.selectbox("Document", names, key=key))]


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
        record(session, AddEntity(name.strip(), kind))


def split_name(corpus: Prepared, session: Studio) -> None:
    joined = [n for n in entity_names(corpus.extraction) if len(n.split()) >= 3]
    name = st.selectbox("… or split a name that joins two (a case title: A v. B)", joined, index=None, key="split_name")
    between = st.text_input("The words that join them", value="v.", key="split_between")
    if st.button("Split the name", key="split", disabled=not (name and between.strip())):
        record(session, SplitName(name, between.strip()))


def set_referent(corpus: Prepared, queues: dict[str, list[Flag]], session: Studio) -> None:
    doc = document_of(corpus, "referent_document")
    links = [f for f in queues.get(PRONOUNS, []) if f.document == doc.document.name]
    link = pick("The word", links, lambda f: f"sentence {f.sentence + 1}: {f.problem}", key="referent_word")
    entity = st.selectbox("It refers to", sorted(e.name for e in doc.entities), key="referent_entity")
    if st.button("Set referent", key="set_referent", disabled=link is None or entity is None):
        start, end = (int(part) for part in link.item.split("-"))
        record(session, SetReferent(doc.document.name, start, end, entity))


def retype(corpus: Prepared, session: Studio) -> None:
    entity = st.selectbox("Entity", entity_names(corpus.extraction), key="type_entity")
    kind = st.selectbox("Its type", ENTITY_TYPES, key="type_value")
    if st.button("Set type", key="set_type"):
        record(session, SetType(entity, kind))


def merge(corpus: Prepared, session: Studio) -> None:
    everyone = entity_names(corpus.extraction)
    alias = st.selectbox("This name …", everyone, key="merge_alias")
    canonical = st.selectbox("… names the same entity as", everyone, key="merge_canonical")
    if st.button("Merge", key="merge", disabled=alias == canonical):
        record(session, MergeAlias(alias, canonical))
