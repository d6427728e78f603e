"""The analyst's review: edits of the extraction before the draw, replayed by the CLI, and the app's queues.

Real spaCy, encoder and OpenDP throughout; the Studio runs over a plain dict exactly as over Streamlit's state.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from relguard import cli
from relguard.engine import public_files
from relguard.errors import InputError
from relguard.extract.review import (
    AddSlot,
    MergeAlias,
    RemoveSlot,
    Review,
    SetType,
    apply_review,
    locate_span,
    slot_on,
)
from relguard.io import read_documents
from relguard.pipeline import prepare
from relguard.release.markdown import in_words
from relguard.studio.review import needs_a_look, suspicious_types, unprotected_queue
from relguard.studio.session import Studio
from relguard.types import Document

TEXT = (
    "Alice Smith founded Acme Corp in 2001. "
    "Acme Corp operates a terminal in the Port of Antwerp and employs Bob Jones. "
    "Carla Diaz is a close friend of Alice Smith."
)


@pytest.fixture(scope="module")
def prepared():
    return prepare([Document("a.txt", TEXT)], k=10)


def _removed_then_added(prepared):
    """One slot taken out (as if the extractor had missed it) and the edit that puts it back by hand.

    The AddSlot names the two entities in reverse text order: the slot's direction must still come from the text.
    """
    doc = prepared.extraction.documents[0]
    slots_in = Counter(o.sentence for t in doc.triples for o in t.occurrences)
    triple = next(
        t for t in doc.triples if t.subject in TEXT and t.object in TEXT and slots_in[t.occurrences[0].sentence] == 1
    )  # the sentence's only slot: without it the sentence has two entities and no slot
    occ = triple.occurrences[0]
    missed = Review((RemoveSlot("a.txt", occ.start, occ.end),))
    first, second = sorted((triple.subject, triple.object), key=TEXT.index)
    return occ, missed, AddSlot("a.txt", occ.start, occ.end, second, first), first


def test_adding_a_missed_slot_protects_it_and_the_first_mention_is_the_subject(prepared):
    occ, missed, add, first = _removed_then_added(prepared)
    without = apply_review(prepared.extraction, missed)
    assert occ.sentence in {s.sentence for s in unprotected_queue(without)}
    assert locate_span(without.documents[0], occ.sentence, occ.text) == (occ.start, occ.end)
    edited = apply_review(prepared.extraction, missed.add(add))
    added = [g for g in edited.groups if any(o.start == occ.start for o in g.occurrences)]
    assert len(added) == 1 and added[0].subject == first  # mention order decides, not the analyst's order
    assert occ.sentence not in {s.sentence for s in unprotected_queue(edited)}
    release = prepare([Document("a.txt", TEXT)], k=10, review=missed.add(add)).draw(epsilon=1.0, lam=1.0, seed=1)
    sentence = prepared.extraction.documents[0].sentence_text(occ.sentence)
    assert sentence not in release.documents[0].text  # the re-added span is rewritten like any slot


def test_remove_retype_and_merge_change_only_the_structure(prepared):
    doc = prepared.extraction.documents[0]
    occ = doc.triples[0].occurrences[0]
    removed = apply_review(prepared.extraction, Review((RemoveSlot("a.txt", occ.start, occ.end),)))
    assert all(o.start != occ.start for g in removed.groups for o in g.occurrences)
    person = next(e.name for e in doc.entities if e.type == "PERSON")
    retyped = apply_review(prepared.extraction, Review((SetType(person, "ORG"),)))
    assert all(t.subject_type == "ORG" for t in retyped.triples if t.subject == person)
    names = sorted({e.name for e in doc.entities})
    merged = apply_review(prepared.extraction, Review((MergeAlias(names[0], names[1]),)))
    assert names[0] not in {e.name for d in merged.documents for e in d.entities}
    with pytest.raises(InputError, match="unknown entity type"):
        apply_review(prepared.extraction, Review((SetType(person, "TOWN"),)))
    with pytest.raises(InputError, match=r"no slot of a\.txt overlaps"):
        apply_review(prepared.extraction, Review((RemoveSlot("a.txt", 0, 1),)))


def test_a_slot_added_where_one_already_is_is_refused_by_name(prepared):
    """A new user added "works for" between two entities whose slot was already there: the pair then held two
    relations for one statement, silently. The library refuses it naming the slot; the Review page checks first."""
    occ, _, add, first = _removed_then_added(prepared)
    doc = prepared.extraction.documents[0]
    assert slot_on(doc, occ.start, occ.end, add.first, add.second) is not None
    with pytest.raises(InputError, match=f"review edit 1: {occ.text!r} already has a slot between {first}"):
        apply_review(prepared.extraction, Review((add,)))


def test_review_file_round_trips_and_the_cli_replays_it(prepared, tmp_path):
    occ, missed, add, first = _removed_then_added(prepared)
    review = missed.add(add).add(SetType(first, "PERSON"))
    assert Review.from_json(review.to_json()) == review
    with pytest.raises(InputError, match="not a RelGuard review file"):
        Review.from_json('{"edits": []}')
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "a.txt").write_text(TEXT)
    (tmp_path / "review.json").write_text(review.to_json())
    argv = ["sanitize", str(tmp_path / "in"), "--epsilon", "0", "--seed", "3", "--quiet"]
    assert cli.main([*argv, "--out", str(tmp_path / "plain")]) == 0
    assert cli.main([*argv, "--out", str(tmp_path / "reviewed"), "--review", str(tmp_path / "review.json")]) == 0
    plain = json.loads((tmp_path / "plain" / "report.json").read_text())
    reviewed = json.loads((tmp_path / "reviewed" / "report.json").read_text())
    assert reviewed["counts"]["slots"] == plain["counts"]["slots"]  # one slot removed, the same one added back
    assert {kind: n for kind, n in reviewed["review_edits"].items() if n} == {
        "add_slot": 1,
        "remove_slot": 1,
        "set_type": 1,
    }
    report_md = (tmp_path / "reviewed" / "report.md").read_text()
    assert "## Analyst's review" in report_md and str(occ.start) not in json.dumps(reviewed["review_edits"])
    only_removed = tmp_path / "removed.json"
    only_removed.write_text(missed.to_json())
    assert cli.main([*argv, "--out", str(tmp_path / "missed"), "--review", str(only_removed)]) == 0
    assert occ.text in (tmp_path / "missed" / "documents" / "a.txt").read_text()  # a missed slot stays as written


def _studio() -> tuple[Studio, dict]:
    state: dict = {}
    studio = Studio(state, environ={})
    studio.init()
    return studio, state


def test_studio_marks_a_release_stale_when_settings_documents_or_review_change(resources):
    studio, state = _studio()
    studio.add([Document("a.txt", TEXT)], {"a.txt": "x"})
    corpus = studio.prepared(resources)
    studio.draw(corpus)
    assert studio.stale_reason() is None
    state["epsilon"] = 10.0
    assert "ε moved from 1 to 10" in studio.stale_reason()
    state["epsilon"] = 1.0
    assert studio.stale_reason() is None
    state["k"] = 5
    assert "K moved from 10 to 5" in studio.stale_reason()
    state["k"] = 10
    studio.edit(SetType("Bob Jones", "ORG"))
    assert "review edits changed" in studio.stale_reason()
    studio.undo(0)
    assert studio.stale_reason() is None
    state["sign_reviewer"], state["sign_decision"] = "R. Officer", "approved for release"
    public = json.loads(public_files(studio.public_release())["report.json"])
    assert public["sign_off"] == {"reviewer": "R. Officer", "decision": "approved for release"}
    assert "attack" not in public


def test_removing_every_document_takes_their_review_edits_along(resources):
    """A new user added a slot, removed all documents and loaded the sample: the stale edit named a document no
    longer there, and every page showed only its error, with no edit list left to undo it from."""
    studio, state = _studio()
    studio.add([Document("a.txt", TEXT)], {"a.txt": "x"})
    start = TEXT.index("founded")
    studio.edit(RemoveSlot("a.txt", start, start + len("founded")))
    studio.draw(studio.prepared(resources))
    studio.clear()
    assert not studio.review and state["release"] is None
    studio.add([Document("b.txt", "Carol White works for Globex.")], {"b.txt": "y"})
    assert [d.document.name for d in studio.prepared(resources).extraction.documents] == ["b.txt"]


def test_queues_find_missed_relations_wrong_types_and_lost_antecedents():
    documents, _ = read_documents(["assets/sample_corpus"])
    corpus = prepare(documents, k=10)
    assert unprotected_queue(corpus.extraction)
    places = "Wilfried Schneider was born in Kiel. Priya Raman raised money from Sequoia Capital in 2019."
    placed = prepare([Document("p.txt", places)], k=10).extraction
    assert {"Kiel", "Sequoia Capital"} <= {e.name for d in placed.documents for e in d.entities}
    unsure = {f.text: f.problem for f in suspicious_types(placed)}
    assert "set its type if you know it" in unsure["Priya Raman"]  # only the NER typed her: ENTITY, flagged
    typed = Review((SetType("Kiel", "GPE"), SetType("Sequoia Capital", "ORG"), SetType("Priya Raman", "PERSON")))
    settled = {f.text for f in suspicious_types(apply_review(placed, typed))}
    assert not settled & {"Kiel", "Sequoia Capital", "Priya Raman"}
    flags = {f.text: f.problem for f in suspicious_types(apply_review(placed, Review((SetType("Kiel", "PERSON"),))))}
    assert "like a place" in flags["Kiel"] and "Sequoia Capital" not in flags  # a place typed PERSON is flagged
    text = "Acme Corp was founded by Alice Smith in Boston. It employs Bob Jones. Carla Diaz visited Paris."
    small = prepare([Document("b.txt", text)], k=10)
    first = next(i for i, g in enumerate(small.groups) if any(o.sentence == 0 for o in g.occurrences))
    for seed in range(200):  # ε = 0: each group is deleted with probability 1/11; find a draw that deletes it
        release = small.draw(epsilon=0.0, lam=1.0, seed=seed)
        if release.outcomes[first].deleted and 1 not in release.documents[0].removed_sentences:
            break
    else:
        pytest.fail("no draw in 200 deleted the first sentence alone")
    flags = needs_a_look(small, release)
    assert any(f.sentence == 1 and "deleted sentence" in f.problem for f in flags)


@pytest.mark.parametrize(
    "factor, words",
    [(2.718, "2.72 times"), (148.4, "148 times"), (59_874.0, "about 60,000 times"), (7.7e23, "beyond any practical")],
)
def test_bounds_are_said_in_words(factor, words):
    assert in_words(factor).startswith(words)
