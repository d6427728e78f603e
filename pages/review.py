"""Review: what is unprotected, which types look wrong, and the analyst's edits of the extraction before the draw."""

import streamlit as st

from pages._shared import extractor, need_corpus, studio
from relguard.extract.review import (
    AddSlot,
    MergeAlias,
    RemoveSlot,
    SetType,
    entity_names,
    locate_span,
    slot_on,
    slots_of,
)
from relguard.studio.review import needs_a_look, suspicious_types, unprotected_queue
from relguard.studio.wording import count_words, edit_words, sentence_label
from relguard.types import ENTITY_TYPES

st.title("Review")
st.write(
    "Before the draw, see what RelGuard did not protect and fix the extraction: add a relation it missed, remove a "
    "false one, correct an entity's type, merge two names of one entity. Edits decide **where** the slots are, "
    "never **which** outcome a slot gets — choosing outcomes by hand would void the guarantee. Everything on this "
    "page shows the original documents: it is a **confidential view**."
)
corpus = need_corpus()
if corpus is not None:
    ss, session = st.session_state, studio()
    release = session.current_release(corpus)
    queues = {
        "relations not protected": unprotected_queue(corpus.extraction),
        "entity types that look wrong": suspicious_types(corpus.extraction),
    }
    if release is not None and not session.stale_reason():
        queues["sanitized sentences that need a look"] = needs_a_look(corpus, release, nlp=extractor().nlp)
    left, right = st.columns([2, 1])
    shown = left.multiselect("Show", list(queues), default=list(queues), key="review_filter")
    total = {name: len(items) for name, items in queues.items()}
    right.markdown("  \n".join(f"**{n}** {name}" for name, n in total.items()))
    rows = [
        {"queue": name, "document": f.document, "sentence": (f.sentence or 0) + 1, "problem": f.problem, "text": f.text}
        for name in shown
        for f in queues[name]
    ]
    st.dataframe(rows, hide_index=True, width="stretch", key="review_queue")

    st.subheader("Edit the extraction")
    names = [d.document.name for d in corpus.extraction.documents]
    add, remove, retype, merge = st.tabs(["Add a missed slot", "Remove a slot", "Correct a type", "Merge aliases"])
    with add:
        document = st.selectbox("Document", names, key="add_document")
        doc = corpus.extraction.documents[names.index(document)]
        sentences = list(range(len(doc.sentences)))
        number = st.selectbox(
            "Sentence", sentences, format_func=lambda i: sentence_label(i, doc.sentence_text(i)), key="add_sentence"
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
                session.edit(AddSlot(document, span[0], span[1], pair[0], pair[1]))
                st.rerun()
    with remove:
        document = st.selectbox("Document", names, key="remove_document")
        doc = corpus.extraction.documents[names.index(document)]
        spans = slots_of(doc)
        choice = st.selectbox(
            "Slot", range(len(spans)), format_func=lambda i: f"sentence {spans[i][0] + 1}: {spans[i][3]!r}",
            key="remove_slot_choice",
        )  # fmt: skip
        if st.button("Remove slot", key="remove_slot", disabled=not spans):
            session.edit(RemoveSlot(document, spans[choice][1], spans[choice][2]))
            st.rerun()
    with retype:
        entity = st.selectbox("Entity", entity_names(corpus.extraction), key="type_entity")
        kind = st.selectbox("Its type", ENTITY_TYPES, key="type_value")
        if st.button("Set type", key="set_type"):
            session.edit(SetType(entity, kind))
            st.rerun()
    with merge:
        everyone = entity_names(corpus.extraction)
        alias = st.selectbox("This name …", everyone, key="merge_alias")
        canonical = st.selectbox("… names the same entity as", everyone, key="merge_canonical")
        if st.button("Merge", key="merge", disabled=alias == canonical):
            session.edit(MergeAlias(alias, canonical))
            st.rerun()

    if session.review:
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
