"""The leak scanner blocks an export when reconstruction is broken, and stays quiet when it is not."""

from __future__ import annotations

import dataclasses
import io
import json
import zipfile
from pathlib import Path

import pytest

from relguard.engine import MemorySink, OutcomeTable, export, public_files, release_zip, write_release
from relguard.engine.memory import scan_release as scan
from relguard.engine.rewrite import rewrite_document
from relguard.errors import RelGuardError
from relguard.io import read_documents
from relguard.pipeline import prepare
from relguard.release.confidential import MAPPING_FILE, confidential_counts
from relguard.release.leakscan import LeakError
from relguard.rewrite import FormVerbalizer, Sampled, fill, mask
from relguard.types import Document, Outcome, SanitizedDocument

ROOT = Path(__file__).resolve().parents[1]
TEXTS = {
    "a.txt": "Alice Smith founded Acme Corporation in 1990. Acme Corporation is based in Berlin. "
    "Alice Smith was born in Paris.",
    "b.txt": "Bob Jones works for Globex. Bob Jones married Carol White in 2001. Globex acquired Initech in 2010.",
}


@pytest.fixture(scope="module")
def prepared():
    texts = {
        **TEXTS,
        # "founded" also appears in a sentence with no relation: a bare-word scan would flag it
        "c.txt": "The museum was founded long ago. Dana Scully founded Helix Labs in 2015.",
    }
    return prepare([Document(name, text) for name, text in texts.items()], k=10)


def _substitute_all(prepared):
    outcomes = []
    for group in prepared.groups:
        pool = prepared.pools[group.type_pair].predicates
        outcomes.append(Outcome(group, next(p for p in pool if p not in group.predicates)))
    return outcomes


def _reconstruct(extraction, outcomes, verbalize):
    """Mask and fill every document from ``outcomes`` with ``verbalize``, without the leak scan (test-only)."""
    index = {o.group.key: i for i, o in enumerate(outcomes)}
    sampled = {i: Sampled(o.group.type_pair, o.predicate) for i, o in enumerate(outcomes)}
    return tuple(fill(mask(doc, index), sampled, verbalize) for doc in extraction.documents)


def _release(prepared, outcomes, verbalize=None):
    """A release of these outcomes, rewritten by ``verbalize`` and not withheld: what a reconstruction bug makes."""
    release = prepared.draw(epsilon=5.0, lam=1.0)
    verbalize = verbalize or FormVerbalizer(prepared.generator.forms)
    return dataclasses.replace(
        release, outcomes=tuple(outcomes), documents=_reconstruct(prepared.extraction, outcomes, verbalize)
    )


def _guarded(release, verbalize):
    """The same release through the release core's rewrite (leak scan and withholding), with ``verbalize``."""
    table = OutcomeTable.of_release(release)
    pieces = [
        rewrite_document(d, table, forms=release.forms, verbalize=verbalize) for d in release.extraction.documents
    ]
    reasons = [reason for piece in pieces for reason in piece.withheld]
    return dataclasses.replace(
        release,
        documents=tuple(p.sanitized for p in pieces),
        confidential={**release.confidential, "withheld": reasons},
    )


def _mapping(release) -> dict:
    sink = MemorySink()
    export(release, sink, mapping=True)
    return json.loads(sink.confidential)


def _copying_verbalizer(prepared, outcomes):
    """Test-only reconstruction bug: the verbalizer writes the ORIGINAL relation span back."""
    spans = {}
    for outcome in outcomes:
        spans.setdefault((outcome.predicate, outcome.group.type_pair), outcome.group.occurrences[0].text)
    good = FormVerbalizer(prepared.generator.forms)

    def verbalize(predicate, type_pair, place):
        return spans.get((predicate, type_pair)) or good(predicate, type_pair, place)

    return verbalize


def _no_delete_fill(extraction, outcomes):
    """Test-only reconstruction bug: sentences with a null outcome are kept, with the original wording."""
    index = {o.group.key: i for i, o in enumerate(outcomes)}
    documents = []
    for doc in extraction.documents:
        masked = mask(doc, index)
        sampled = {i: Sampled(o.group.type_pair, o.predicate or "__keep__") for i, o in enumerate(outcomes)}
        original = {o.group.type_pair: o.group.occurrences[0].text for o in outcomes if o.deleted}

        def verbalize(predicate, type_pair, place, original=original):
            return original.get(type_pair, "") if predicate == "__keep__" else predicate.replace("_", " ")

        documents.append(SanitizedDocument(doc.document.name, fill(masked, sampled, verbalize).text))
    return tuple(documents)


def test_clean_releases_pass_the_scan(prepared):
    for epsilon in (0.0, 1.0, 5.0, 50.0):
        for _ in range(3):
            release = prepared.draw(epsilon=epsilon, lam=1.0)
            assert scan(release, public_files(release)) == []


def test_every_substituted_span_rewritten_correctly_is_clean(prepared):
    outcomes = _substitute_all(prepared)
    release = _release(prepared, outcomes)
    assert scan(release, public_files(release)) == []


def test_injected_copy_bug_blocks_write_release_and_zip(prepared, tmp_path):
    outcomes = _substitute_all(prepared)
    release = _release(prepared, outcomes, _copying_verbalizer(prepared, outcomes))
    with pytest.raises(LeakError, match=r"export blocked, nothing was written: documents/.* original relation"):
        write_release(release, tmp_path / "out", mapping=tmp_path / "apart.json")
    assert not (tmp_path / "out").exists() and not (tmp_path / "apart.json").exists()
    with pytest.raises(LeakError):
        release_zip(public_files(release))
    assert issubclass(LeakError, RelGuardError)


def test_a_leaking_sentence_is_withheld_counted_and_listed_not_published(prepared, tmp_path):
    """The policy of the last safety net: one bad sentence costs that sentence, not the corpus.

    With the test-only copying bug every substituted span writes its original back; the leak scan finds each
    such sentence and the release withholds it: it is not in any public file, the public report counts it, the
    confidential file lists it, and the rest of the corpus is released."""
    outcomes = _substitute_all(prepared)
    copying = _copying_verbalizer(prepared, outcomes)
    broken = _release(prepared, outcomes, copying)
    assert scan(broken, {f"documents/{d.name}": d.text.encode() for d in broken.documents})
    guarded = _guarded(broken, copying)
    withheld = {(d.name, s) for d in guarded.documents for s in d.withheld_sentences}
    listed = {(w["document"], w["sentence"]) for w in guarded.confidential["withheld"]}
    assert withheld and withheld == listed
    files = public_files(guarded)  # the final scan passes: nothing of the leak is left
    report = json.loads(files["report.json"])
    assert report["counts"]["sentences_withheld"] == len(withheld)
    published = b"".join(files.values()).decode()
    for entry in guarded.confidential["withheld"]:
        assert entry["text"] not in published
    kept = sum(len(d.sentences) for d in prepared.extraction.documents) - len(withheld)
    assert kept > 0 and report["counts"]["sentences"] - report["counts"]["sentences_withheld"] == kept
    assert _mapping(guarded)["withheld"] == guarded.confidential["withheld"]


def test_injected_no_delete_bug_is_caught_as_a_deleted_sentence(prepared, tmp_path):
    outcomes = [Outcome(g, None) for g in prepared.groups]
    release = _release(prepared, outcomes)
    assert scan(release, public_files(release)) == []
    broken = dataclasses.replace(release, documents=_no_delete_fill(prepared.extraction, outcomes))
    files = {f"documents/{d.name}": d.text.encode() for d in broken.documents}
    leaks = scan(broken, files)
    assert {leak.kind for leak in leaks} >= {"sentence"}
    with pytest.raises(LeakError, match="a sentence that should have been deleted"):
        write_release(broken, tmp_path)
    assert not any(tmp_path.iterdir())


def test_audit_file_inside_public_files_is_a_leak(prepared):
    release = prepared.draw(epsilon=5.0, lam=1.0)
    files = dict(public_files(release))
    files["notes.json"] = str(_mapping(release)).encode()
    leaks = scan(release, files)
    assert [leak.kind for leak in leaks if leak.file == "notes.json"][:1] == ["audit"]
    assert "the confidential original-to-sampled mapping" in leaks[0].describe()


def test_zip_and_folder_hold_no_audit_even_when_asked(prepared, tmp_path):
    release = prepared.draw(epsilon=5.0, lam=1.0)
    names = zipfile.ZipFile(io.BytesIO(release_zip(public_files(release)))).namelist()
    assert MAPPING_FILE not in names and "report.json" in names
    write_release(release, tmp_path / "plain")
    assert not (tmp_path / "plain" / MAPPING_FILE).exists()
    write_release(release, tmp_path / "asked", mapping=tmp_path / "apart" / MAPPING_FILE)
    assert (tmp_path / "apart" / MAPPING_FILE).exists()
    assert not [p for p in (tmp_path / "asked").rglob("*") if "CONFIDENTIAL" in p.name]


def test_no_false_positive_on_the_sample_corpus_over_many_draws():
    documents, _ = read_documents([ROOT / "assets" / "sample_corpus"])
    sample = prepare(documents, k=10)
    for epsilon in (0.0, 0.5, 2.0, 5.0, 10.0):
        for _ in range(4):
            release = sample.draw(epsilon=epsilon, lam=0.5)
            assert scan(release, public_files(release)) == []


def test_a_record_field_that_repeats_a_deleted_sentence_is_not_a_leak(tmp_path):
    """A .jsonl record whose ``id`` repeats its first sentence (HotpotQA titles often repeat a phrase of the
    paragraph) keeps that field as written when the run names it (``--keep-fields id``); the scan counts the copy
    the original record already shows a reader there, so deleting the sentence in ``text`` passes, while a copy the
    rewrite puts back in ``text`` is caught."""
    sentence = "Alice Smith founded Acme Corporation in 1990."
    source = tmp_path / "titled.jsonl"
    source.write_text(json.dumps({"id": sentence, "text": f"{sentence} Acme Corporation is based in Berlin."}) + "\n")
    documents, _ = read_documents([source], keep_fields=frozenset({"id"}))
    prepared = prepare(documents, k=10)
    outcomes = [Outcome(g, None) for g in prepared.groups]
    release = _release(prepared, outcomes)
    assert sentence not in release.documents[0].text
    files = public_files(release)
    assert json.loads(files["documents/titled.jsonl"])["id"] == sentence
    broken = dataclasses.replace(release, documents=_no_delete_fill(prepared.extraction, outcomes))
    leaks = scan(
        broken, {"documents/titled.jsonl": json.dumps({"id": sentence, "text": broken.documents[0].text}).encode()}
    )
    assert {leak.kind for leak in leaks} >= {"sentence"}


def test_a_fill_that_ends_in_the_original_span_word_is_not_a_leak():
    """Re-DocRED dev 115: the relation span is the bare 'by' of "an English novel by the Indian writer …"; a
    sampled 'founded_by' is written "founded by", so the window around 'by' reappears, made by the sample's own
    words. Every pool predicate, for every group of the sentence, must scan clean."""
    text = "Across the Black Waters is an English novel by the Indian writer Mulk Raj Anand first published in 1939."
    assert _every_pool_predicate_scans_clean(text) == 10 * len(prepare([Document("d.txt", text)], k=10).groups)


def _every_pool_predicate_scans_clean(text: str) -> int:
    """Release ``text`` with every pool predicate drawn for each group in turn (the others substituted) and assert
    the scan finds nothing each time; returns how many releases were scanned."""
    prepared = prepare([Document("rel.txt", text)], k=10)
    assert prepared.groups, "the extractor found no relation in the sentence"
    base = _substitute_all(prepared)
    checked = 0
    for number, group in enumerate(prepared.groups):
        for predicate in prepared.pools[group.type_pair].predicates:
            outcomes = [*base[:number], Outcome(group, predicate), *base[number + 1 :]]
            release = _release(prepared, outcomes)
            assert scan(release, public_files(release)) == [], (group.key, predicate, release.documents[0].text)
            checked += 1
    return checked


@pytest.mark.parametrize(
    "text",
    [
        "Acme Corp, which was founded by Alice Smith, makes robots.",
        "Tom Hughes joined Beta Labs, a firm that employs Anna Berg.",
        "Bob Jones lives in Punjab, Pakistan, and works for Acme Corp.",
    ],
)
def test_a_fill_that_writes_its_own_relative_pronoun_or_comma_is_not_a_leak(text):
    """A span that takes its relative pronoun ("which was founded by") or is a bare comma ("Punjab, Pakistan")
    is filled by the verbalizer with its own "which …"/"that …" or, for located_in, the comma itself; when that
    reproduces the original words, they are a function of the sample (a release at ε = 5 on HotpotQA withheld four
    such sentences). Every pool predicate, for every group of the sentence, must scan clean."""
    _every_pool_predicate_scans_clean(text)


@pytest.mark.parametrize(
    "text",
    [
        "Mono runs on Android, Linux and some game consoles such as PlayStation 3.",
        "The memo sought help of the Obama administration in the wake of the Osama bin Laden raid.",
    ],
)
def test_a_fixed_phrases_preposition_printed_where_the_slot_was_is_not_a_leak(text):
    """ "such [as]", "in the wake [of]": the slot takes the preposition the phrase outside it asks for
    (relguard.rewrite.shape.fixed_prepositions), whatever the slot held; where the slot held that word, the window
    reappears, made by the masked text. Every pool predicate, for every group, must scan clean."""
    _every_pool_predicate_scans_clean(text)


def test_a_comma_opened_clause_shown_for_another_group_of_its_span_is_not_a_leak():
    """HotpotQA paragraph "2009 CONCACAF U-20 Championship" (hotpotqa_train_hipporag.json, reworded to one
    relation sentence): the span ", which was hosted by" stands for the group World Cup → Egypt, whose drawn
    predicate the verbalizer writes there (its preposition, "by"). The words are the shown outcome's wording, a
    function of the sample, not a leak; 16 of 60 seeded
    HotpotQA draws at ε = 5 withheld this sentence before the leading comma was read as the comma the verbalizer
    writes itself."""
    text = (
        "The CONCACAF U-20 Championship sent four semifinalists to the 2009 FIFA U-20 World Cup, which was hosted "
        "by Egypt from 25 September."
    )
    prepared = prepare([Document("concacaf.txt", text)], k=10)
    spans = {o.text for g in prepared.groups for o in g.occurrences}
    assert ", which was hosted by" in spans, spans
    outcomes = [
        Outcome(g, g.predicates[0] if g.predicates == ("hosted_by",) else o.predicate)
        for g, o in zip(prepared.groups, _substitute_all(prepared), strict=True)
    ]
    release = _release(prepared, outcomes)
    assert "World Cup by Egypt" in release.documents[0].text  # the drawn predicate's preposition after a name
    assert scan(release, public_files(release)) == [], release.documents[0].text


def test_a_document_name_that_states_its_relation_is_not_a_leak_in_the_report():
    """Re-DocRED titles can state a relation ("National Executive Committee of the African National Congress").
    The report lists every document by name, which is public by design, so the words the name brings are not
    a leak; a release at ε = 5 withheld such a sentence. The same words in the rewritten text still are."""
    text = "Alice Smith founded Acme Corp."
    prepared = prepare([Document(text, text)], k=10)
    assert prepared.groups, "the extractor found no relation in the sentence"
    release = _release(prepared, _substitute_all(prepared))
    files = public_files(release)
    assert text in files["report.json"].decode("utf-8")
    assert scan(release, files) == []
    outcomes = _substitute_all(prepared)
    with pytest.raises(LeakError):
        public_files(_release(prepared, outcomes, _copying_verbalizer(prepared, outcomes)))


def _every_pool_predicate(prepared, base):
    """Releases with one group at a time set to each predicate of its pool, the others as in ``base``."""
    for number, group in enumerate(prepared.groups):
        for predicate in prepared.pools[group.type_pair].predicates:
            yield _release(prepared, [*base[:number], Outcome(group, predicate), *base[number + 1 :]])


def test_a_short_window_that_a_fill_elsewhere_writes_is_not_a_leak():
    """Re-DocRED dev 367 (WUIS): the span 'in' of "member station in Springfield" has its window cut at the
    neighbouring spans down to " in Springfield". A fill in another sentence ("University of Illinois is
    headquartered in Springfield") writes that window itself; a release at ε = 5 withheld the sentence for it.
    Every predicate of every group, with the first sentence kept or deleted, must scan clean."""
    text = (
        "WUIS (91.9 FM), is the National Public Radio member station in Springfield, Illinois, United States. "
        "The station is owned by and based at the University of Illinois at Springfield."
    )
    prepared = prepare([Document("wuis.txt", text)], k=10)
    first = [n for n, g in enumerate(prepared.groups) if {o.sentence for o in g.occurrences} == {0}]
    assert first and len(first) < len(prepared.groups), "the extractor no longer finds a slot in each sentence"
    kept = _substitute_all(prepared)
    deleted = [Outcome(o.group, None) if n in first else o for n, o in enumerate(kept)]
    written = 0
    for base in (kept, deleted):
        for release in _every_pool_predicate(prepared, base):
            assert scan(release, public_files(release)) == [], release.documents[0].text
            written += " in Springfield" in release.documents[0].text.split("The station")[-1]
    assert written, "no draw wrote the window in the second sentence, so this test checks nothing"


def test_a_phrase_left_in_place_is_a_leak_even_when_another_slot_shows_its_wording():
    """The excuse for fills is narrow: a wording counts as written by a fill only when it reaches past the
    needle's window. An original phrase left in place holds its whole window, so it stays a leak even though
    another sentence of the same document rightly reads "was founded by"."""
    text = "Acme Corp was founded by Alice Smith in 1990. Initech Corp was founded by Bob Jones in 1995."
    prepared = prepare([Document("two.txt", text)], k=10)
    acme, initech = prepared.groups
    assert acme.type_pair == initech.type_pair and acme.predicates == initech.predicates == ("founded_by",)
    outcomes = [Outcome(acme, "employs"), Outcome(initech, "founded_by")]
    release = _release(prepared, outcomes, _copying_verbalizer(prepared, outcomes))
    assert release.documents[0].text.startswith("Acme Corp was founded by Alice Smith")
    leaks = scan(release, {"documents/two.txt": release.documents[0].text.encode()})
    assert [(leak.kind, leak.sentence, leak.text) for leak in leaks] == [("relation", 0, "was founded by")]
    with pytest.raises(LeakError, match="sentence 1"):
        public_files(release)


def test_touching_spans_are_one_slot_so_their_fills_never_run_together():
    """Re-DocRED dev 124 writes "The Incredibles,, Ratatouille": two comma spans with nothing between them. As
    two slots they were filled "which sued" + "sued" into "which suedsued", a word no wording matches. They
    are one slot, and every predicate of every group scans clean (comma slots are between places only, so the
    doubled comma here stands between two)."""
    text = "Michael Giacchino recorded the score in Burbank,, California, and in London."
    prepared = prepare([Document("lists.txt", text)], k=10)
    masked = mask(prepared.extraction.documents[0], {g.key: n for n, g in enumerate(prepared.groups)})
    assert all(a.end < b.start for a, b in zip(masked.slots, masked.slots[1:], strict=False)), masked.text
    start = text.index(",,")
    assert any(o.start == start for g in prepared.groups for o in g.occurrences), "no slot on the first comma"
    assert "Burbank[REL_" in masked.text and ",," not in masked.text
    for release in _every_pool_predicate(prepared, _substitute_all(prepared)):
        assert scan(release, public_files(release)) == [], release.documents[0].text


def test_a_substitute_that_reads_like_the_original_is_counted_in_the_confidential_file():
    """A new user released "Bob Jones works for Acme Corp." word for word while the counts said "0 kept their
    original predicate": the extractor merged the tense into ``worked_for`` and the draw gave ``works_for``. The
    confidential counts name such relations (``same_words``); a substitute in other words is not one."""
    prepared = prepare([Document("bob.txt", "Bob Jones works for Acme Corp.")], k=10)
    (group,) = prepared.groups
    assert group.predicates == ("worked_for",) and "works_for" in prepared.pools[group.type_pair].predicates
    same = _release(prepared, [Outcome(group, "works_for")])
    assert same.documents[0].text == "Bob Jones works for Acme Corp."
    counts = confidential_counts(_rows(same))
    assert (counts["unchanged"], counts["substituted"], counts["same_words"]) == (0, 1, 1)
    other = next(p for p in prepared.pools[group.type_pair].predicates if "work" not in p)
    counts = confidential_counts(_rows(_release(prepared, [Outcome(group, other)])))
    assert (counts["substituted"], counts["same_words"]) == (1, 0)


def _rows(release):
    sink = MemorySink()
    return export(release, sink, mapping=True).mapping_rows


def test_a_release_marked_inline_is_scanned_without_its_marks(prepared):
    """With ``--mark-slots`` the scan reads the text without the marks (what a reader's tool sees once it drops
    them). It once read them in: the flag was shadowed by a set of the same name, so an original relation word
    split by a mark ("found⟦ed⟧") went unseen."""
    import re

    from relguard.engine.check import leaks_in_files
    from relguard.engine.marks import CLOSE, OPEN

    release = _release(prepared, _substitute_all(prepared))
    table = OutcomeTable.of_release(release)
    files = dict(public_files(release))
    name = next(n for n in files if n.startswith("documents/a"))
    copied = f"Alice Smith found{OPEN}ed{CLOSE} Acme Corporation"
    files[name] = re.sub(r"Alice Smith [^.]*? Acme Corporation", copied, files[name].decode(), count=1).encode()
    assert copied.encode() in files[name]
    documents = release.extraction.documents
    assert leaks_in_files(documents, files, table, forms=release.forms, withheld={}, marked=True)
    assert not leaks_in_files(documents, dict(public_files(release)), table, forms=release.forms, withheld={})
