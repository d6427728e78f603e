"""The sign-off gate, the draw record, ε in words and the pool cache: the library side of the Export page, and
the same sign-off on ``relguard sanitize``."""

import contextlib
import json
import math
import tomllib

import pytest

from relguard import cli, registry
from relguard.candidates.cache import PoolCache, pool_key
from relguard.candidates.exclusion import parse_policy, with_exclusions
from relguard.candidates.pools import build_pools
from relguard.studio.draws import Draw, count_draws
from relguard.studio.signoff import APPROVED, CONDITIONAL, REFUSED, sign_off_gate, sign_off_of
from relguard.studio.wording import ROUND_STEPS, after_reading, bound_words, epsilon_words, odds, percent, round_grid

COMPLETE = {"reviewer": "R. Officer", "date": "2026-12-02", "decision": APPROVED}


@pytest.mark.parametrize(
    ("sign_off", "private", "refused"),
    [
        ({}, True, ("reviewer", "date", "decision")),  # empty: every field is asked for
        (COMPLETE | {"date": "02/12/2026"}, True, ("YYYY-MM-DD",)),  # a date read differently in places
        (COMPLETE, False, ("teaching seed",)),  # a teaching draw is never approved, however complete
        (COMPLETE | {"decision": REFUSED}, True, ("not approved",)),
        (COMPLETE | {"decision": CONDITIONAL}, True, ("conditions",)),  # conditions must be written down
        (COMPLETE | {"reviewer": "   "}, True, ("reviewer",)),  # blanks are not a name
        (COMPLETE | {"decision": "approved!"}, True, ("not one of",)),
    ],
)
def test_the_gate_refuses_an_incomplete_or_unapprovable_sign_off(sign_off, private, refused):
    gate = sign_off_gate(sign_off, private_release=private)
    assert not gate.open
    text = gate.message()
    assert all(word in text for word in refused), text
    assert len(gate.refusals) == len(refused)


def test_the_gate_opens_for_a_complete_approval_of_a_private_draw():
    assert sign_off_gate(COMPLETE, private_release=True).open
    assert sign_off_gate(COMPLETE | {"decision": CONDITIONAL, "notes": "HR memo 3 left out"}, private_release=True).open


def test_the_sessions_sign_off_fields_become_the_reports_block():
    import datetime

    state = {"sign_reviewer": " R. Officer ", "sign_date": datetime.date(2026, 12, 2), "sign_decision": APPROVED}
    assert sign_off_of(state) == {"reviewer": "R. Officer", "date": "2026-12-02", "decision": APPROVED}
    assert sign_off_of({"sign_date": None}) == {}


def test_draws_of_one_corpus_are_counted_and_their_private_epsilons_add_up():
    a, b = ("memo.txt", "board.txt"), ("client.txt",)
    log = [
        Draw(1, a, 1.0, 1.0, 10, False, False),
        Draw(2, a, 1.0, 1.0, 10, False, True),  # teaching: counted, spends no private ε
        Draw(3, b, 5.0, 1.0, 10, False, False),  # another corpus (no document name in common)
        Draw(4, a[:1], 2.0, 1.0, 10, False, False),  # a document removed: still the same corpus (names overlap)
        Draw(5, a, 1.0, 1.0, 10, False, False),
    ]
    count = count_draws(log, log[-1])
    assert (count.corpus, count.same_settings, count.private) == (4, 3, 3)
    assert count.total_epsilon == pytest.approx(4.0)
    assert "total ε = 4" in count.words() and "breaks the promise" in count.words()
    single = count_draws(log[2:3], log[2])
    assert single.corpus == 1 and "once" in single.words() and "breaks" not in single.words()
    assert count_draws(log, log[1]).corpus == 2  # a draw counts only the draws made before it


def test_round_grid_stops_only_at_round_values_and_hits_the_ends():
    grid = round_grid(0.01, 100.0)
    assert grid[0] == 0.01 and grid[-1] == 100.0 and 1.0 in grid and 5.0 in grid and 10.0 in grid
    mantissas = {round(v / 10 ** math.floor(math.log10(v) + 1e-9), 6) for v in grid}
    assert mantissas == set(ROUND_STEPS)  # every stop is 1, 1.5, 2, 3, 4, 5 or 7 times a power of ten
    for bad in (5.01, 3.98, 1.26):
        assert bad not in grid
    assert list(grid) == sorted(set(grid))


@pytest.mark.parametrize("epsilon", [0.0, 0.01, 0.3, 1.0, 5.0, 20.0, 100.0])
def test_epsilon_is_read_out_at_every_value(epsilon):
    words = epsilon_words(epsilon)
    assert f"ε = {epsilon:g}" in words and "50 : 50" in words and "What no ε hides" in words
    # the belief it states for unrelated relations is e^ε / (1 + e^ε), to the digits shown
    far = after_reading(0.5, math.exp(epsilon)) if epsilon < 700 else 1.0
    assert percent(far) in words


def test_beliefs_and_odds_follow_the_bound():
    assert after_reading(0.5, 1.0) == pytest.approx(0.5)  # a factor of 1 teaches nothing
    assert after_reading(0.5, math.e) == pytest.approx(math.e / (1 + math.e))
    assert after_reading(0.1, 3.0) == pytest.approx(0.3 / 1.2)
    assert percent(0.9999938) == "99.99938 %" and percent(0.5) == "50.0 %"
    assert odds(148.4) == "148 to 1" and odds(1.6e5) == "about 160 thousand to 1"
    assert odds(1.3e26) == "more than a trillion to 1"
    assert "practically nothing" in bound_words(1.3e26, what="this document")
    assert "far from sure" in bound_words(2.0, what="this document")
    with pytest.raises(ValueError):
        epsilon_words(-1.0)


def test_pool_cache_builds_each_pool_once_per_type_pair_k_and_policy():
    inventory = registry.create("candidates", "inventory")
    calls = []

    class Counting:
        name, forms, provenance = inventory.name, inventory.forms, inventory.provenance

        def content_hash(self):
            return inventory.content_hash()

        def generate(self, pair, k):
            calls.append((pair, k))
            return inventory.generate(pair, k)

    cache, pairs = PoolCache(), [("PERSON", "ORG"), ("PERSON", "PERSON")]
    first = build_pools(pairs, generator=Counting(), k=10, cache=cache)
    again = build_pools(pairs, generator=Counting(), k=10, cache=cache)
    assert again == first and len(calls) == 2  # the second build came from the cache
    build_pools(pairs, generator=Counting(), k=20, cache=cache)
    assert len(calls) == 4  # another K is another pool
    policy = parse_policy("killed\n", name="policy.txt")
    excluding = with_exclusions(inventory, policy)
    assert pool_key(excluding, pairs[1], 20) != pool_key(inventory, pairs[1], 20)
    reduced = build_pools(pairs, generator=excluding, k=20, cache=cache)
    assert "killed" not in reduced[pairs[1]].predicates
    assert reduced == build_pools(pairs, generator=excluding, k=20)


def test_review_edits_and_sentences_are_shown_in_words():
    from relguard.extract.review import AddSlot, RemoveSlot, SetType
    from relguard.studio.wording import count_words, edit_words, sentence_label

    texts = {"memo.txt": "Alice Meyer works for Acme."}
    assert edit_words(AddSlot("memo.txt", 12, 21, "Alice Meyer", "Acme"), texts) == (
        "Add slot 'works for' between Alice Meyer and Acme in memo.txt"
    )
    assert edit_words(RemoveSlot("memo.txt", 12, 21), texts) == "Remove slot 'works for' in memo.txt"
    assert edit_words(SetType("Acme", "ORG"), texts) == "Set type: entity Acme, type ORG"
    assert (count_words(1, "edit"), count_words(2, "edit")) == ("1 edit", "2 edits")
    label = sentence_label(1, "C-2025-017\nParties: Pellucid Analytics Ltd and Harwood & Finch LLP.", width=40)
    assert label.startswith("2: C-2025-017 ⏎ Parties:") and label.endswith("…") and len(label) <= 43


SENTENCE = "Alice Smith founded Acme Corp in 2001.\n"
SIGNED = ("--reviewer", "R. Officer", "--decision", "approved", "--signed-on", "2026-12-02")


def _sanitize(tmp_path, *flags: str) -> int:
    """The exit status of ``relguard sanitize`` on a one-sentence memo (a usage error's too)."""
    (tmp_path / "in").mkdir(exist_ok=True)
    (tmp_path / "in" / "memo.txt").write_text(SENTENCE, encoding="utf-8")
    with contextlib.chdir(tmp_path):
        try:
            return cli.main(["sanitize", "in", "--out", "out", "--quiet", *flags])
        except SystemExit as exit:
            return int(exit.code or 0)


def test_the_cli_records_the_sign_off_in_report_json_report_md_and_config(tmp_path, capsys):
    assert _sanitize(tmp_path, *SIGNED, "--sign-notes", "HR memos reviewed") == 0
    out = tmp_path / "out"
    expected = {"reviewer": "R. Officer", "date": "2026-12-02", "decision": APPROVED, "notes": "HR memos reviewed"}
    assert json.loads((out / "report.json").read_text())["sign_off"] == expected
    markdown = (out / "report.md").read_text()
    block = markdown.split("## Sign-off", 1)[1].split("##", 1)[0]
    assert all(f"| {key} | {value} |" in block for key, value in expected.items()), block
    config = tomllib.loads((out / "config.toml").read_text())
    assert config["sign_off"] == expected
    # a replay is another draw: the sign-off is not carried over, and the CLI says so
    capsys.readouterr()
    with contextlib.chdir(tmp_path):
        assert cli.main(["sanitize", "--config", "out/config.toml", "--out", "again", "--quiet"]) == 0
    assert "sign_off" not in json.loads((tmp_path / "again" / "report.json").read_text())
    assert "signed off (R. Officer, approved for release, 2026-12-02)" in capsys.readouterr().err


def test_the_sign_off_fields_are_public_and_read_no_relation(tmp_path, capsys):
    """Two neighbouring corpora (one relation reworded) signed alike give the same sign-off block, byte for byte."""
    blocks = []
    for number, sentence in enumerate(("Alice Smith founded Acme Corp.", "Alice Smith left Acme Corp.")):
        root = tmp_path / str(number)
        (root / "in").mkdir(parents=True)
        (root / "in" / "memo.txt").write_text(sentence + "\n", encoding="utf-8")
        with contextlib.chdir(root):
            flags = ["--epsilon", "0", "--seed", "7", "--decision", "not-approved", *SIGNED[:2], *SIGNED[4:]]
            assert cli.main(["sanitize", "in", "--out", "out", "--quiet", *flags]) == 0
        blocks.append([(root / "out" / name).read_bytes() for name in ("report.json", "report.md", "config.toml")])
    assert blocks[0] == blocks[1]
    assert json.loads(blocks[0][0])["sign_off"]["decision"] == REFUSED
    assert "do not publish it" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("flags", "fragment", "status"),
    [
        # a teaching draw can never be recorded as approved, with or without conditions
        (("--seed", "3", *SIGNED), "NOT a private release and cannot be approved; drop --seed", 1),
        (("--seed", "3", *SIGNED[:2], "--decision", "approved-with-conditions", *SIGNED[4:], "--sign-notes", "x"),
         "cannot be approved", 1),
        ((*SIGNED[:4], "--signed-on", "2026-02-30"), "argument --signed-on: must be a date written YYYY-MM-DD", 2),
        ((*SIGNED[:4], "--signed-on", "02/12/2026"), "argument --signed-on: must be a date written YYYY-MM-DD", 2),
        (SIGNED[:4], "--signed-on: the date of the review is missing", 1),  # the three go together
        (SIGNED[2:], "--reviewer: the reviewer's name is missing", 1),
        ((*SIGNED[:2], "--decision", "maybe", *SIGNED[4:]), "argument --decision: must be one of approved,", 2),
        ((*SIGNED[:2], "--decision", "approved-with-conditions", *SIGNED[4:]), "--sign-notes: an approval with", 1),
    ],
)  # fmt: skip
def test_a_sign_off_that_cannot_stand_is_one_line_naming_the_flag_and_writes_nothing(
    tmp_path, capsys, flags, fragment, status
):
    assert _sanitize(tmp_path, *flags) == status
    err = capsys.readouterr().err.strip()
    assert fragment in err and len(err.splitlines()) == 1, err
    assert not (tmp_path / "out").exists()
