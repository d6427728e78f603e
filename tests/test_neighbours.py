"""The neighbour test (DESIGN invariant 12): public files depend on the relations only through the outcomes.

Each row is a pair of corpora that differ in one relation expression only — same entities, another predicate's
wording in that span. Both are released through the CLI at ε = 0 with the same teaching seed. At ε = 0 every
outcome distribution is uniform, so if every public file is a function of the outcomes and of public
information, the two releases are byte-identical (creation time aside). A difference means that some field,
count, name, order or text reads the original relation.

Extraction is covered too (DESIGN invariant 11): which pairs get a slot, their types, the slot's direction and how
much of the expression the span covers must not depend on the relation's words, so every row passes. A row that
needs a known extraction gap names it as its reason and runs as a strict ``xfail``.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from relguard import cli

NEIGHBOURS = [
    # (name, corpus A, corpus B, why it still differs, or None)
    ("verb swap", ["Alice Smith founded Acme Corp in 2001."], ["Alice Smith joined Acme Corp in 2001."], None),
    ("verb with preposition", ["Bob Jones lives in Paris."], ["Bob Jones died in Paris."], None),
    ("passive participle vs active verb", ["Alice Smith was born in Paris."], ["Alice Smith lives in Paris."], None),
    ("person to person", ["Alice Smith married Bob Jones."], ["Alice Smith divorced Bob Jones."], None),
    ("auxiliary in the span", ["Alice Smith has joined Acme Corp."], ["Alice Smith joined Acme Corp."], None),
    ("possessive role noun", ["Acme Corp's founder Alice Smith retired."],
     ["Acme Corp's chairman Alice Smith retired."], None),
    # a role noun with its preposition is the relation's wording; a description ("the largest city in") is not
    ("copula and role noun", ["Paris is the capital of France."], ["Paris is a suburb of France."], None),
    ("coordinated verbs", ["Alice Smith founded and led Acme Corp."], ["Alice Smith founded and sold Acme Corp."],
     None),
    # the release issue's own case: the same pair in two documents, equal vs different predicates
    ("two documents on one pair", ["Alice Smith works for Acme Corp.", "Alice Smith works for Acme Corp."],
     ["Alice Smith works for Acme Corp.", "Alice Smith founded Acme Corp."], None),
    ("voice: passive with agent vs active", ["Acme Corp was founded by Alice Smith."],
     ["Acme Corp employs Alice Smith."], None),
    # the NER finds "Globex" only before a passive; proper-noun arguments labelled by name alone find it in both
    ("voice: same verb, both directions", ["Globex was acquired by Acme Corp."], ["Globex acquired Acme Corp."],
     None),
    ("appositive role with compound noun", ["Alice Smith, the founder of Acme Corp, spoke today."],
     ["Alice Smith, the chief executive of Acme Corp, spoke today."], None),
    ("negation", ["Alice Smith did not join Acme Corp."], ["Alice Smith joined Acme Corp."], None),
    ("fronted place", ["In Madrid, Sofia Jansen played three concerts."],
     ["In Madrid, Sofia Jansen recorded three concerts."], None),
    # the comma of "Dublin, Ohio" is the span; a relative clause set off by a comma takes that comma into its own
    ("comma vs relative clause", ["Dublin, Ohio, is a small city."], ["Dublin, which lies in Ohio, is a small city."],
     None),
    ("comma vs reduced relative", ["Dublin, Ohio, is a small city."], ["Dublin, located in Ohio, is a small city."],
     None),
    # HotpotQA's "The Prestige": the parse links other pairs once one "as" reads "mentored"; the regions are the
    # same, and the pairs come from their positions (relguard.extract.regions)
    ("one relation in a list of castings",
     ["The film stars Hugh Jackman as Robert Angier, Christian Bale as Alfred Borden, and David Bowie as "
      "Nikola Tesla."],
     ["The film stars Hugh Jackman as Robert Angier, Christian Bale mentored Alfred Borden, and David Bowie as "
      "Nikola Tesla."], None),
]  # fmt: skip


#: The red team's kinds that the default mode read from the wording, in both slot modes now (issue 26).
CLOSED = [
    ("adverb inside the span", ["Alice Smith secretly married Tom Baker."], ["Alice Smith married Tom Baker."]),
    ("role noun with its preposition, any noun",
     ["Alice Smith, the founder of Acme Corp, spoke."], ["Alice Smith, the auditor of Acme Corp, spoke."]),
    ("role noun after a possessive, any noun",
     ["Acme Corp's founder Alice Smith spoke."], ["Acme Corp's critic Alice Smith spoke."]),
    ("abbreviation inside the relation",
     ["Alice Smith was gen. mgr of Acme Corp."], ["Alice Smith was the chief of Acme Corp."]),
    ("entity boundary moved by the verb", ["Bob Jones sued Corvid Media."], ["Bob Jones acquired Corvid Media."]),
    # issue 38: the default mode slots a short stretch between two related names whole; a proper-noun argument
    # the NER missed is typed by its shape; 'wed' is no contraction; a title word is no name
    ("subject the NER missed", ["Priyanka Das founded Pellucid Analytics."], ["Priyanka Das left Pellucid Analytics."]),
    ("fronted verb between names", ["Ana Ruiz, hired in 2009, joined Corvid Media."],
     ["Ana Ruiz, hired in 2009, advised Corvid Media."]),
    ("synonym the tokenizer split (wed as we'd)", ["Maria Lopez married John Miller in 2010."],
     ["Maria Lopez wed John Miller in 2010."]),
    ("former premodifier", ["Maria Lopez, former CEO of Redfern Bank, spoke."],
     ["Maria Lopez, CEO of Redfern Bank, spoke."]),
    ("longtime premodifier", ["Maria Lopez, a longtime client of Redfern Bank, spoke."],
     ["Maria Lopez, a client of Redfern Bank, spoke."]),
    ("object and pronoun inside the relation", ["Maria Lopez left her job at Redfern Bank."],
     ["Maria Lopez joined Redfern Bank."]),
    ("possessive pronoun and noun", ["Redfern Bank sold its stake in Tessellate Labs."],
     ["Redfern Bank sold Tessellate Labs."]),
    ("number inside the relation", ["Redfern Bank owns 40 percent of Tessellate Labs."],
     ["Redfern Bank owns Tessellate Labs."]),
    ("a third coordinated verb", ["Maria Lopez founded, led and sold Redfern Bank."],
     ["Maria Lopez founded and sold Redfern Bank."]),
    ("possessive role noun the parse does not link", ["Redfern Bank's treasurer Maria Lopez spoke."],
     ["Redfern Bank's critic Maria Lopez spoke."]),
    ("hyphenated prefix the NER takes into the name", ["Omar Haddad re-joined Tessellate Labs."],
     ["Omar Haddad joined Tessellate Labs."]),
    ("title with a hyphen", ["Maria Lopez is Vice-Chairman of Redfern Bank."],
     ["Maria Lopez is a rival of Redfern Bank."]),
    # the subject pronoun that opens a stretch stays out of the slot, in every wording
    ("subject pronoun between the names", ["At Redfern Bank she was elected treasurer of Tessellate Labs."],
     ["At Redfern Bank she joined Tessellate Labs."]),
]  # fmt: skip
#: Kinds only the default mode closes: words after the last name are no stretch.
SPANS_ONLY = [
    ("a second coordinated verb",
     ["Alice Smith joined Acme Corp in 2005 and left in 2010."],
     ["Alice Smith joined Acme Corp in 2005 and stayed in 2010."]),
]  # fmt: skip
#: Kinds only the strict mode closes: the stretch is masked whatever it holds, names are found by their spelling
#: and a title word is never a name. In the default mode the parse decides whether two names are related, so a
#: wording it does not link (a comma alone, a bracket, an all-capital title in a list) is released as written.
STRICT = [
    ("comma vs word", ["Springvale, which invaded Oregon."], ["Springvale invaded Oregon."]),
    ("all-capital title between commas", ["Maria Lopez, CFO, Redfern Bank, retired."],
     ["Maria Lopez, client, Redfern Bank, retired."]),
    ("description vs role", ["Paris is the largest city in France."], ["Paris invaded France."]),
    ("abbreviated title", ["Maria Lopez was Exec. VP at Redfern Bank."], ["Maria Lopez was a client at Redfern Bank."]),
    ("title-case function after a title", ["Maria Lopez, Head of Treasury at Redfern Bank, spoke."],
     ["Maria Lopez, an adviser at Redfern Bank, spoke."]),
    ("memo line", ["To: Maria Lopez, Director of Operations, Redfern Bank."],
     ["To: Maria Lopez, a customer of Redfern Bank."]),
    ("quoted title, curly quotes", ["Maria Lopez, “Head of Risk” at Redfern Bank, spoke."],
     ["Maria Lopez, a client at Redfern Bank, spoke."]),
]  # fmt: skip
#: Issue 38's strict-mode reproducers and our own kinds like them: brackets, quotes, title case, abbreviations,
#: memo headers, a capitalized sentence opener, a pronoun between two names.
STRICT_NAMES = [
    ("a bracket between the names", ["David Chen (CEO of Microsoft) spoke first."],
     ["David Chen (critic of Microsoft) spoke first."]),
    ("a bracket around the relation", ["David Chen (CEO of Microsoft) spoke first."],
     ["David Chen (from Microsoft) spoke first."]),
    ("square brackets", ["Maria Lopez [CEO of] Redfern Bank spoke."], ["Maria Lopez [critic of] Redfern Bank spoke."]),
    ("a quoted role", ['Maria Lopez, "Head of Risk" of Redfern Bank, spoke.'],
     ["Maria Lopez, the head of risk of Redfern Bank, spoke."]),
    ("a title in brackets", ["Maria Lopez (Sr. VP, Finance) of Redfern Bank spoke."],
     ["Maria Lopez (a client) of Redfern Bank spoke."]),
    ("abbreviated title case role", ["Maria Lopez was named Sr. Vice President of Redfern Bank in March."],
     ["Maria Lopez was named a lender of Redfern Bank in March."]),
    ("title case vs lower case", ["Maria Lopez is Vice President of Redfern Bank."],
     ["Maria Lopez is vice president of Redfern Bank."]),
    ("Managing Director", ["Maria Lopez, Managing Director at Redfern Bank, spoke."],
     ["Maria Lopez, an adviser at Redfern Bank, spoke."]),
    ("Co-Founder of", ["Maria Lopez is Co-Founder of Redfern Bank."], ["Maria Lopez is a critic of Redfern Bank."]),
    ("Mgr. Operations", ["Maria Lopez, Mgr. Operations, Redfern Bank, retired."],
     ["Maria Lopez, a client of Redfern Bank, retired."]),
    ("memo header", ["Maria Lopez: Treasurer, Redfern Bank."], ["Maria Lopez: client of Redfern Bank."]),
    ("Chief Executive Officer", ["Maria Lopez, Chief Executive Officer of Redfern Bank, spoke."],
     ["Maria Lopez, a customer of Redfern Bank, spoke."]),
    ("VP and a function", ["Maria Lopez is VP Sales at Redfern Bank."],
     ["Maria Lopez is a saleswoman at Redfern Bank."]),
    ("a title between two names", ["Redfern Bank President Maria Lopez spoke."],
     ["Redfern Bank client Maria Lopez spoke."]),
    ("a capitalized opener, another sentence's modal",
     ["Will chairs Redfern Bank. Maria Lopez will join Redfern Bank."],
     ["Will chairs Redfern Bank. Maria Lopez joined Redfern Bank."]),
    ("a capitalized opener, another sentence's noun",
     ["Mark runs Redfern Bank. Maria Lopez left her mark on Redfern Bank."],
     ["Mark runs Redfern Bank. Maria Lopez worked at Redfern Bank."]),
    ("a capitalized opener, May", ["May chairs Redfern Bank. Maria Lopez may join Redfern Bank."],
     ["May chairs Redfern Bank. Maria Lopez joined Redfern Bank."]),
    ("a relation word and a legal-form word in brackets", ["Redfern Bank (Parent Company) of Tessellate Labs grew."],
     ["Redfern Bank acquired Tessellate Labs grew."]),
    ("a capitalized kinship word in brackets", ["Maria Lopez (Cousin) of John Miller spoke."],
     ["Maria Lopez married John Miller spoke."]),
    ("Dr. and Jr. stay name parts", ["Dr. Maria Lopez Jr. chairs Redfern Bank."],
     ["Dr. Maria Lopez Jr. audits Redfern Bank."]),
]  # fmt: skip


#: Title-case relation words no public lexicon knows: a name to the strict mode, printed as written. The report
#: says so and counts the sentences where it can have happened, from the names the masked text shows.
RESIDUAL = [
    ("an unknown title-case role", ["Maria Lopez, Rainmaker at Redfern Bank, spoke."],
     ["Maria Lopez, rainmaker at Redfern Bank, spoke."]),
    ("a sentence in title case", ["Maria Lopez Joined Redfern Bank In 2004."],
     ["Maria Lopez joined Redfern Bank in 2004."]),
]  # fmt: skip


def release_through_cli(texts: list[str], root: Path, *options: str) -> dict[str, bytes]:
    """Every public file of a release at ε = 0 with teaching seed 7 (a teaching draw records no clock), made from
    inside ``root`` so that its config names the inputs alike."""
    source = root / "in"
    source.mkdir(parents=True)
    for number, text in enumerate(texts):
        (source / f"doc{number}.txt").write_text(text + "\n", encoding="utf-8")
    with contextlib.chdir(root):
        assert cli.main(["sanitize", "in", "--out", "out", "--epsilon", "0", "--seed", "7", "--quiet", *options]) == 0
    out = root / "out"
    return {path.relative_to(out).as_posix(): path.read_bytes() for path in sorted(out.rglob("*")) if path.is_file()}


@pytest.mark.parametrize(
    "a, b",
    [
        pytest.param(a, b, id=name, marks=[pytest.mark.xfail(reason=reason, strict=True)] if reason else [])
        for name, a, b, reason in NEIGHBOURS
    ],
)
def test_neighbouring_corpora_give_identical_public_files_at_epsilon_zero(a, b, tmp_path, capsys):
    first = release_through_cli(a, tmp_path / "a")
    second = release_through_cli(b, tmp_path / "b")
    capsys.readouterr()
    assert set(first) == set(second)
    differing = [name for name in first if first[name] != second[name]]
    assert not differing, {name: (first[name][:300], second[name][:300]) for name in differing}


def _differing(a: list[str], b: list[str], root: Path, *options: str) -> dict:
    first = release_through_cli(a, root / "a", *options)
    second = release_through_cli(b, root / "b", *options)
    assert set(first) == set(second)
    return {name: (first[name][:300], second[name][:300]) for name in first if first[name] != second[name]}


@pytest.mark.parametrize("mode", ["spans", "stretches"])
@pytest.mark.parametrize("a, b", [pytest.param(a, b, id=name) for name, a, b in CLOSED])
def test_the_red_teams_kinds_are_closed_in_both_slot_modes(a, b, mode, tmp_path, capsys):
    differing = _differing(a, b, tmp_path, "--slots", mode)
    capsys.readouterr()
    assert not differing, differing


@pytest.mark.parametrize("a, b", [pytest.param(a, b, id=name) for name, a, b in SPANS_ONLY])
def test_the_default_mode_masks_a_second_verb_after_the_names(a, b, tmp_path, capsys):
    assert not _differing(a, b, tmp_path, "--slots", "spans")
    capsys.readouterr()


@pytest.mark.parametrize("a, b", [pytest.param(a, b, id=name) for name, a, b in STRICT])
def test_the_strict_mode_closes_what_the_wording_decides_in_the_default(a, b, tmp_path, capsys):
    """Identical in the strict mode; in the default mode these rewordings move the slot and are told apart, which
    the report says in plain words (where the slots are is read from the wording)."""
    assert not _differing(a, b, tmp_path / "strict", "--slots", "stretches")
    assert _differing(a, b, tmp_path / "spans", "--slots", "spans")
    capsys.readouterr()


@pytest.mark.parametrize("a, b", [pytest.param(a, b, id=name) for name, a, b in STRICT_NAMES])
def test_in_the_strict_mode_no_relation_word_decides_what_a_name_is(a, b, tmp_path, capsys):
    """Issue 38: brackets and quotes cut a stretch only where their partner lies outside it, a title word is
    never a name (relguard.extract.roles), a sentence's first word is a name by fixed lists alone, and a pronoun
    between two names lies in their stretch: byte-identical public files."""
    differing = _differing(a, b, tmp_path, "--slots", "stretches")
    capsys.readouterr()
    assert not differing, differing


@pytest.mark.parametrize("a, b", [pytest.param(a, b, id=name) for name, a, b in RESIDUAL])
def test_a_title_case_relation_word_no_lexicon_knows_is_counted_and_said(a, b, tmp_path, capsys):
    """The residual class: told apart (so the test notices the day it is closed), and report.json counts the
    sentence in ``coverage`` for the title-case wording only, its limits saying why in plain words."""
    import json

    first = release_through_cli(a, tmp_path / "a", "--slots", "stretches")
    second = release_through_cli(b, tmp_path / "b", "--slots", "stretches")
    capsys.readouterr()
    assert first["documents/doc0.txt"] != second["documents/doc0.txt"]
    field = "sentences_that_may_keep_a_title_case_relation_word"
    reports = [json.loads(files["report.json"]) for files in (first, second)]
    assert [report["coverage"][field] for report in reports] == [1, 0]
    assert any(field in limit and "title-case relation word" in limit for limit in reports[0]["limits"])


#: A hub: Alice Smith in three groups; the second corpus rewords every one of her relations (an entity neighbour).
HUB = ["Alice Smith founded Acme Corp in 2001. Alice Smith lives in Paris. Alice Smith married Bob Jones."]
HUB_REWORDED = ["Alice Smith joined Acme Corp in 2001. Alice Smith died in Paris. Alice Smith divorced Bob Jones."]


def _entity_release(texts: list[str], root: Path, *budget: str) -> dict[str, bytes]:
    """Like :func:`release_through_cli`, with the budget flags given (``--entity-epsilon 0`` replaces ε = 0)."""
    source = root / "in"
    source.mkdir(parents=True)
    for number, text in enumerate(texts):
        (source / f"doc{number}.txt").write_text(text + "\n", encoding="utf-8")
    with contextlib.chdir(root):
        assert cli.main(["sanitize", "in", "--out", "out", *budget, "--seed", "7", "--quiet"]) == 0
    out = root / "out"
    return {path.relative_to(out).as_posix(): path.read_bytes() for path in sorted(out.rglob("*")) if path.is_file()}


@pytest.mark.parametrize("budget", [("--epsilon", "0"), ("--entity-epsilon", "0")])
def test_the_entity_level_fields_read_no_wording_only_which_pairs_have_groups(budget, tmp_path, capsys):
    """DESIGN invariants 12 and 13: the entity block (n per entity, the weakest bound, with E the ε_g per pool) is a
    function of the group keys; rewording all of the hub's relations leaves every public file byte-identical,
    while a corpus where the hub has one group fewer changes the block (so it is not a constant)."""
    import json

    first = _entity_release(HUB, tmp_path / "a", *budget)
    second = _entity_release(HUB_REWORDED, tmp_path / "b", *budget)
    fewer = _entity_release(HUB[0].split(" Alice Smith married")[0:1], tmp_path / "c", *budget)
    capsys.readouterr()
    assert set(first) == set(second)
    assert not [name for name in first if first[name] != second[name]]
    block = json.loads(first["report.json"])["entity_level"]
    assert block["groups_per_entity"] == {"1": 3, "3": 1} and block["worst_entity"]["groups"] == 3
    assert json.loads(fewer["report.json"])["entity_level"]["groups_per_entity"] == {"1": 2, "2": 1}


def test_the_draw_ledger_reads_no_wording_a_reworded_corpus_drawn_again_is_the_next_draw(tmp_path, capsys):
    """DESIGN invariants 12 and 14: the ledger a release folder carries decides "the same corpus" by document names,
    never by content. A corpus drawn and then drawn again after one relation was reworded gives the same public
    files as one drawn twice unchanged (a content digest would start a new ledger exactly when a word changed);
    and the count is not a constant: the second draw is draw 2."""
    import json

    a, b = ["Alice Smith founded Acme Corp in 2001."], ["Alice Smith joined Acme Corp in 2001."]
    release_through_cli(a, tmp_path / "same")
    release_through_cli(b, tmp_path / "reworded")
    for root in ("same", "reworded"):
        (tmp_path / root / "in" / "doc0.txt").write_text(a[0] + "\n", encoding="utf-8")
        with contextlib.chdir(tmp_path / root):
            assert cli.main(["sanitize", "in", "--out", "out", "--epsilon", "0", "--seed", "7", "--quiet"]) == 0
    capsys.readouterr()
    files = [
        {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
        for root in (tmp_path / "same" / "out", tmp_path / "reworded" / "out")
    ]
    assert files[0] == files[1]
    assert json.loads(files[0]["report.json"])["draws"]["this_draw"] == 2
