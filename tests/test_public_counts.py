"""Every count in report.json comes from the masked document and the outcomes (DESIGN invariant 12, issue 38).

A neighbour pair (tests/test_neighbours.py): two corpora that differ in one relation's wording, released at ε = 0
with one teaching seed, give byte-identical public files. Here the relation sits in a sentence the draw deletes
(K = 1, so the null is one of two equally likely outcomes; seed 4 draws it, and the test checks that it did), so
the documents are the same whatever the wording, and only a count that reads the original sentence could tell
the two apart: "Vice President" inside the slot once made ``coverage.sentences_with_an_untyped_name`` 1 against 0.
"""

from __future__ import annotations

import json

import pytest

from relguard.extract.unprotected import masked_text, untyped_names_in
from relguard.pipeline import prepare
from relguard.types import Document
from tests.test_neighbours import release_through_cli

#: (name, corpus A, corpus B): a title-case role against a plain one, inside the relation's slot.
TITLE_CASE = [
    ("title-case role in an appositive", ["Maria Lopez, the Vice President of Redfern Bank, spoke today."],
     ["Maria Lopez, the vice president of Redfern Bank, spoke today."]),
    ("title-case role after a copula", ["Maria Lopez is Head Of Risk at Redfern Bank."],
     ["Maria Lopez is head of risk at Redfern Bank."]),
]  # fmt: skip
DELETING = ("--slots", "spans", "--k", "1", "--seed", "4")


@pytest.mark.parametrize("a, b", [pytest.param(a, b, id=name) for name, a, b in TITLE_CASE])
def test_a_title_case_role_in_a_deleted_sentence_changes_no_public_file(a, b, tmp_path, capsys):
    first = release_through_cli(a, tmp_path / "a", *DELETING)
    second = release_through_cli(b, tmp_path / "b", *DELETING)
    capsys.readouterr()
    for files in (first, second):
        report = json.loads(files["report.json"])
        assert report["counts"]["sentences_removed"] == 1, "the premise: this seed deletes the sentence"
    assert set(first) == set(second)
    differing = {name: (first[name][:300], second[name][:300]) for name in first if first[name] != second[name]}
    assert not differing, differing


def test_untyped_names_are_read_outside_the_slots():
    """A capitalized run inside a slot is the relation's wording: the fill replaces it, no count reads it; one
    outside every slot and mention is still counted."""
    prepared = prepare(
        [
            Document("a.txt", "Maria Lopez, the Vice President of Redfern Bank, spoke today."),
            Document("b.txt", "Priyanka Das visited the Pellucid Analytics Lab yesterday."),
        ],
        k=1,
    )
    for doc in prepared.extraction.documents:
        masked = masked_text(doc)
        assert len(masked) == len(doc.document.text)
        slots = [(o.start, o.end) for t in doc.triples for o in t.occurrences]
        for start, end in slots:
            assert set(masked[start:end]) == {"\0"}
        for sentence in untyped_names_in(doc):
            for name in sentence.entities:
                assert name in masked, (name, masked)
    role = prepared.extraction.documents[0]
    inside = [o for t in role.triples for o in t.occurrences if "President" in o.text]
    if inside:  # the slot holds the role's words (the default mode's span), so no count may read them
        assert not any("President" in n for s in untyped_names_in(role) for n in s.entities)


def _jsonl_release(headline: str, root) -> dict[str, bytes]:
    """A one-record .jsonl corpus released at ε = 0 with teaching seed 7, from inside ``root``."""
    import contextlib

    from relguard import cli

    source = root / "in"
    source.mkdir(parents=True)
    record = {"id": 7, "headline": headline, "text": "Maria Lopez joined Redfern Bank in March."}
    (source / "news.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    with contextlib.chdir(root):
        assert cli.main(["sanitize", "in", "--out", "out", "--epsilon", "0", "--seed", "7", "--quiet"]) == 0
    out = root / "out"
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_a_relation_in_a_records_other_field_changes_no_public_file(tmp_path, capsys):
    """Issue 38: "Maria Lopez wed John Miller" in a ``headline`` was copied into the release as written; the
    field is left out now (and named in the report), so the two corpora give the same public files."""
    first = _jsonl_release("Maria Lopez wed John Miller", tmp_path / "a")
    second = _jsonl_release("Maria Lopez divorced John Miller", tmp_path / "b")
    capsys.readouterr()
    assert first == second
    assert b"John Miller" not in first["documents/news.jsonl"]
    assert json.loads(first["report.json"])["record_fields"]["left_out"] == ["headline"]


def test_the_overlap_test_of_untyped_names_agrees_with_the_pairwise_one():
    """The log-time overlap test (sorted starts, running furthest end) says what testing every range says,
    on nested, touching and disjoint ranges."""
    import itertools
    import random

    from relguard.extract.unprotected import _overlaps

    rng = random.Random(7)
    for _ in range(200):
        covered = sorted((a, a + rng.randint(1, 12)) for a in (rng.randint(0, 80) for _ in range(rng.randint(0, 9))))
        starts = [a for a, _ in covered]
        reach = list(itertools.accumulate((b for _, b in covered), max))
        for start in range(0, 95, 3):
            end = start + rng.randint(1, 10)
            pairwise = any(a < end and start < b for a, b in covered)
            assert _overlaps(starts, reach, start, end) == pairwise, (covered, start, end)
