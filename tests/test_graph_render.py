"""Graphs and HTML views: right edges and statuses, and document text never reaches HTML unescaped."""

import json
import re

from relguard.extract.corpus import group_relations
from relguard.studio.graph import graph_html, knowledge_graph, neighbourhood, release_diff, vis_data
from relguard.studio.render import highlight_html, original_diff_html, sanitized_diff_html
from relguard.types import (
    Document,
    DocumentExtraction,
    Entity,
    Extraction,
    Guarantee,
    Mention,
    Occurrence,
    Outcome,
    Release,
    SanitizedDocument,
    Sentence,
    Triple,
)

EVIL = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"
TEXT = f"{EVIL} founded Acme. {IMG} works for Acme. Acme is in Berlin."
#        0..25          26..33        49..  (offsets computed below)


def _doc() -> DocumentExtraction:
    document = Document("evil.txt", TEXT, source="evil.txt")
    founded = TEXT.index("founded")
    works = TEXT.index("works for")
    is_in = TEXT.index("is in")
    first_end = TEXT.index(".") + 1
    second_end = TEXT.index(".", first_end) + 1
    sentences = (
        Sentence(0, 0, first_end),
        Sentence(1, first_end + 1, second_end),
        Sentence(2, second_end + 1, len(TEXT)),
    )
    acme = [m.start() for m in re.finditer("Acme", TEXT)]
    entities = (
        Entity(EVIL, "PERSON", (Mention(0, 0, len(EVIL), EVIL),)),
        Entity(IMG, "PERSON", (Mention(1, first_end + 1, first_end + 1 + len(IMG), IMG),)),
        Entity("Acme", "ORG", tuple(Mention(i, s, s + 4, "Acme") for i, s in enumerate(acme))),
        Entity("Berlin", "GPE", (Mention(2, TEXT.index("Berlin"), TEXT.index("Berlin") + 6, "Berlin"),)),
    )
    triples = (
        Triple(EVIL, "PERSON", "founded", "Acme", "ORG", (Occurrence("evil.txt", 0, founded, founded + 7, "founded"),)),
        Triple(IMG, "PERSON", "works_for", "Acme", "ORG", (Occurrence("evil.txt", 1, works, works + 9, "works for"),)),
        Triple("Acme", "ORG", "located_in", "Berlin", "GPE", (Occurrence("evil.txt", 2, is_in, is_in + 5, "is in"),)),
    )
    return DocumentExtraction(document, sentences, entities, triples)


def _release() -> Release:
    doc = _doc()
    groups = group_relations([doc])
    group = {g.subject: g for g in groups}
    outcomes = (
        Outcome(group[EVIL], "founded"),
        Outcome(group[IMG], "advised"),
        Outcome(group["Acme"], None),
    )
    sanitized = SanitizedDocument("evil.txt", TEXT[: TEXT.index("Acme is")].replace("works for", "advised"), (2,), 2)
    return Release(Guarantee(epsilon=1.0, lam=1.0, k=3), (sanitized,), outcomes, (), Extraction((doc,), groups))


def assert_no_live_markup(html: str) -> None:
    assert EVIL not in html
    assert IMG not in html
    assert "<img" not in html


def test_highlight_escapes_entity_names_and_text():
    html = highlight_html(_doc())
    assert_no_live_markup(html)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    # the relation span is wrapped, with the triple as its (escaped) title
    assert re.search(r'title="&lt;script&gt;alert\(1\)&lt;/script&gt; —founded→ Acme">founded</span>', html)


def test_diff_views_escape_and_mark_outcomes():
    release = _release()
    doc = release.extraction.documents[0]
    left = original_diff_html(doc, release.outcomes, release.documents[0].removed_sentences)
    right = sanitized_diff_html(doc.document.text, release.documents[0])
    for html in (left, right):
        assert_no_live_markup(html)
    assert 'title="works_for → advised">works for</span>' in left
    assert re.search(r'<del [^>]*title="sentence removed">Acme', left)
    assert re.search(r"<span [^>]*>advised</span>", right)


def test_graph_edges_and_statuses():
    release = _release()
    original = knowledge_graph(release.extraction.triples)
    assert len(original.nodes) == 4 and len(original.edges) == 3
    diff = release_diff(release)
    assert [e.status for e in diff.edges] == ["kept", "substituted", "deleted"]
    assert diff.edges[1].label == "works_for → advised"
    assert diff.counts() == {"kept": 1, "substituted": 1, "deleted": 1}
    assert [t.predicate for t in neighbourhood(release.extraction.triples, "Berlin")] == ["located_in"]


def test_graph_html_holds_names_only_as_escaped_json():
    html = graph_html(knowledge_graph(_release().extraction.triples))
    assert_no_live_markup(html)
    data = html.split("const data = ", 1)[1].split(";\nconst network", 1)[0]
    assert "<" not in data and ">" not in data
    labels = {n["label"] for n in json.loads(data)["nodes"]}
    assert labels == {EVIL, IMG, "Acme", "Berlin"}
    first = _release().extraction.triples[0].subject
    assert vis_data(knowledge_graph(_release().extraction.triples))["nodes"][0]["label"] == first
