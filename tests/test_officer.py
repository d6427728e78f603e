"""What a privacy officer needs before signing (issue 42): nothing emptied in silence."""

import json
from pathlib import Path

from relguard.cli import main


def test_a_document_emptied_by_the_draw_is_named_in_the_summary_and_both_reports(tmp_path, capsys):
    """Seed 6 at ε = 0.1, λ = 0 draws the null outcome for the one relation of a one-sentence note (a teaching
    draw, so the outcome is fixed): the file comes out empty, and every face says which file and why."""
    (tmp_path / "note.txt").write_text("Maria Lopez works for Acme Corp.\n")
    out = tmp_path / "out"
    argv = ["sanitize", str(tmp_path / "note.txt"), "--out", str(out), "--seed", "6", "--epsilon", "0.1"]
    assert main([*argv, "--lam", "0", "--quiet"]) == 0
    report = json.loads((out / "report.json").read_text())
    assert (out / "documents" / "note.txt").read_text().strip() == report["release_notice"]  # nothing but it
    said = capsys.readouterr().out
    assert "note.txt came out EMPTY: 1 of 1 sentence gone; 1 deleted by a null outcome" in said, said
    assert "1 relation slot in 1 group, 1 group deleted, 1 of 1 sentence removed" in said, said  # one plural helper
    assert report["documents_losing_text"] == [
        {
            "document": "note.txt",
            "sentences": 1,
            "sentences_gone": 1,
            "empty": True,
            "null_outcome": 1,
            "unfillable": 0,
            "leak_scan": 0,
        }
    ]
    assert "- `note.txt` came out EMPTY: 1 of 1 sentence gone" in (out / "report.md").read_text()  # the name as code


def test_a_document_that_keeps_its_sentences_is_not_named(tmp_path, capsys):
    (tmp_path / "note.txt").write_text("Maria Lopez works for Acme Corp.\n")
    out = tmp_path / "out"
    argv = ["sanitize", str(tmp_path / "note.txt"), "--out", str(out), "--seed", "1", "--epsilon", "0.1"]
    assert main([*argv, "--lam", "0", "--quiet"]) == 0
    assert "came out" not in capsys.readouterr().out
    assert json.loads(Path(out / "report.json").read_text())["documents_losing_text"] == []


def test_the_sensitive_policy_leaves_every_inventory_pool_at_exactly_k_up_to_the_apps_largest_k():
    """DESIGN invariant 2: the pools take the next public predicates, so K = 20 (the app's largest) still fits."""
    from relguard.candidates.exclusion import with_exclusions
    from relguard.candidates.inventory import InventoryCandidates
    from relguard.candidates.sensitive import sensitive_policy
    from relguard.types import ENTITY_TYPES

    policy = sensitive_policy()
    generator = with_exclusions(InventoryCandidates(), None, sensitive=policy)
    for pair in [(s, o) for s in ENTITY_TYPES for o in ENTITY_TYPES]:
        pool = generator.generate(pair, 20).predicates
        assert len(pool) == len(set(pool)) == 20, pair
        assert not set(pool) & policy.excluded(pair), pair
    assert {"sued", "fired", "arrested"} <= policy.excluded(("ORG", "PERSON"))
    assert {"spouse_of", "parent_of", "killed"} <= policy.excluded(("PERSON", "PERSON"))


def test_sensitive_predicates_are_out_of_the_pools_by_default_named_in_the_report_and_replayed(tmp_path):
    """PERSON → ORG at K = 20 holds sued and was_fired_by in the inventory; by default neither is in the pool,
    which still holds 20. ``--no-sensitive-policy`` puts them back, and a config replays either choice."""
    note = tmp_path / "note.txt"
    note.write_text("Maria Lopez works for Acme Corp.\n")
    pools = {}
    for name, extra in (("on", []), ("off", ["--no-sensitive-policy"])):
        out = tmp_path / name
        assert main(["sanitize", str(note), "--out", str(out), "--k", "20", "--quiet", *extra]) == 0
        report = json.loads((out / "report.json").read_text())
        pools[name] = report["candidates"]["pools"]["PERSON|ORG"]
        assert len(pools[name]) == 20
        config = (out / "config.toml").read_text()
        assert f"no_sensitive_policy = {'true' if extra else 'false'}" in config
        replay = tmp_path / f"{name}-replay"
        assert main(["sanitize", "--config", str(out / "config.toml"), "--out", str(replay), "--quiet"]) == 0
        again = json.loads((replay / "report.json").read_text())["candidates"]
        assert (
            again["pools"]["PERSON|ORG"] == pools[name]
            and again["sensitive_policy"] == report["candidates"]["sensitive_policy"]
        )
    assert not {"sued", "was_fired_by", "was_investigated_by"} & set(pools["on"])
    assert {"sued", "was_fired_by"} <= set(pools["off"])
    on = json.loads((tmp_path / "on" / "report.json").read_text())["candidates"]["sensitive_policy"]
    assert on["file"] == "relguard:sensitive-predicates-v1" and "sued" in on["excluded"]["PERSON|ORG"]
    assert "Sensitive-predicate policy" in (tmp_path / "on" / "report.md").read_text()
    assert "switched off" in (tmp_path / "off" / "report.md").read_text()


def test_every_released_file_opens_with_the_notice_and_every_record_carries_it(tmp_path):
    """The notice depends on ε alone; the slot ranges still point at the fills (text files: past the notice), the
    public-file check passes with it, and ``--no-notice`` (replayed by the config) drops it."""
    (tmp_path / "note.txt").write_text("Maria Lopez works for Acme Corp.\n")
    records = tmp_path / "rows.jsonl"
    records.write_text(json.dumps({"id": 1, "text": "Tom Reilly founded Vireo Analytics."}) + "\n")
    out = tmp_path / "out"
    inputs = [str(tmp_path / "note.txt"), str(records)]
    keep = ["--lam", "30"]  # a null (P < 1e-5 at λ = 30) would delete the one sentence the check reads
    assert main(["sanitize", *inputs, "--out", str(out), "--epsilon", "2", "--quiet", "--parquet", *keep]) == 0
    notice = json.loads((out / "report.json").read_text())["release_notice"]
    assert notice.startswith("RelGuard notice:") and "ε = 2," in notice and "\n" not in notice
    text = (out / "documents" / "note.txt").read_text()
    assert text.startswith(notice + "\n\nMaria Lopez ")
    (sidecar,) = [json.loads(line) for line in (out / "slots.jsonl").read_text().splitlines()]
    (row,) = [json.loads(line) for line in (out / "documents" / "rows.jsonl").read_text().splitlines()]
    assert row["relguard_notice"] == notice and row["id"] == 1
    fills = [text[a:b] for a, b in sidecar["relguard_slots"]] + [row["text"][a:b] for a, b in row["relguard_slots"]]
    assert len(fills) == 2 and all(f.strip() and f == f.strip() and "Maria" not in f for f in fills), fills
    again = tmp_path / "again"
    assert main(["sanitize", *inputs, "--out", str(again), "--epsilon", "2", "--quiet", "--no-notice", *keep]) == 0
    assert (again / "documents" / "note.txt").read_text().startswith("Maria Lopez ")
    assert "relguard_notice" not in (again / "documents" / "rows.jsonl").read_text()
    assert json.loads((again / "report.json").read_text())["release_notice"] is None
    assert "no_notice = true" in (again / "config.toml").read_text()


def test_a_private_replay_of_a_config_into_a_new_folder_continues_that_releases_ledger(tmp_path):
    (tmp_path / "note.txt").write_text("Maria Lopez works for Acme Corp.\n")
    first = tmp_path / "first"
    assert main(["sanitize", str(tmp_path / "note.txt"), "--out", str(first), "--epsilon", "1", "--quiet"]) == 0
    again = tmp_path / "again"
    assert main(["sanitize", "--config", str(first / "config.toml"), "--out", str(again), "--quiet"]) == 0
    draws = json.loads((again / "report.json").read_text())["draws"]
    assert (draws["this_draw"], draws["private"], draws["total_epsilon"]) == (2, 2, 2.0)
    third = tmp_path / "third"
    assert main(["sanitize", "--config", str(again / "config.toml"), "--out", str(third), "--quiet"]) == 0
    assert json.loads((third / "report.json").read_text())["draws"]["this_draw"] == 3


def test_bounds_are_said_in_words_at_any_epsilon_and_never_overflow():
    """At ε = 100 the officer saw "≤ inf× apart" and "15141017762110092"; numpy warned "overflow encountered in
    exp". Bounds are computed in the log domain and read out in words; ε = 2 (a 50 : 50 reader can reach 88 %
    about two unrelated relations) is not "Strong privacy"."""
    import math
    import re
    import warnings

    from relguard.privacy.bounds import document_bound, relation_bound
    from relguard.studio.teaching import odds_example, worked_example
    from relguard.studio.wording import epsilon_words, times

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert document_bound([1.0] * 12, epsilon=100) == math.inf
        assert relation_bound(1.0, epsilon=2) == math.exp(2)
        said = worked_example(epsilon=100, d_r=0.37) + odds_example(epsilon=100, d_r=0.37)
    assert not re.search(r"(?<![.\d])\d{7,}", said) and "about 1.2·10^16×" in said, said
    assert times(math.inf) == "more than 10^300×" and "inf" not in times(math.inf)
    assert times(7.389) == "7.39×" and times(2.2e6) == "about 2.2 million×"
    assert epsilon_words(2).split("**")[2].strip().startswith("Moderate privacy")
    assert epsilon_words(1).split("**")[2].strip().startswith("Strong privacy")
    assert epsilon_words(20).split("**")[2].strip().startswith("Weak privacy")


def test_evaluate_says_each_measurement_of_all_and_about_how_long_is_left():
    from relguard.evaluation.progress import Progress, measurement_count

    said: list[str] = []
    counts = {"trials": 3, "presidio": True, "epsilons": (10.0, 5.0, 1.0, 0.1), "no_null_epsilons": (5.0, 1.0)}
    counts |= {"entity_epsilons": (), "lams": (0.1, 1.0), "ks": (10, 20), "lam": 1.0, "k": 10, "sweep_epsilon": 5.0}
    assert measurement_count(**counts) == 3 + 3 * (4 + 2 + 1 + 1)  # λ = 1 and K = 10 reuse the ε = 5 rows
    progress = Progress(2, said.append, then="the seed papers' sanitizers")
    for _ in range(3):
        progress.tick()
    assert said[0].startswith("  [measurement 1/2: 0 s so far") and "then the seed papers' sanitizers" in said[0]
    assert "about" in said[1] and "left" in said[1]
    assert said[2].startswith("  [the seed papers' sanitizers: measurement 1,")


def test_a_record_that_already_has_the_notice_field_is_refused_not_overwritten(tmp_path, capsys):
    rows = tmp_path / "rows.jsonl"
    rows.write_text(json.dumps({"text": "Tom Reilly founded Vireo Analytics.", "relguard_notice": "mine"}) + "\n")
    kept = ["--keep-fields", "relguard_notice"]  # other string fields are left out unless named (issue 38)
    assert main(["sanitize", str(rows), "--out", str(tmp_path / "out"), "--quiet", *kept]) == 1
    assert "has a field 'relguard_notice'" in capsys.readouterr().err
    assert main(["sanitize", str(rows), "--out", str(tmp_path / "out"), "--quiet", "--no-notice", *kept]) == 0


def test_a_note_typed_without_capitals_is_split_into_its_sentences():
    """Every sentence of it begins in lower case, so the abbreviation rule ("asst. | dir.") joined them all into
    one, and one null outcome emptied the file; a text with capitals keeps the rule."""
    from relguard.extract.lowercase import typed_without_capitals
    from relguard.extract.spacy import SpacyExtractor
    from relguard.types import Document

    note = (
        "yesterday we spoke with nguyen thi lan about the analyst role. nguyen thi lan currently works for harbor "
        "finance and is married to tran van minh. oluwaseun is the cousin of tran van minh."
    )
    assert typed_without_capitals(note) and not typed_without_capitals("Anna was asst. dir. at Acme. She left.")
    extractor = SpacyExtractor()
    assert len(extractor.extract(Document("note.txt", note)).sentences) == 3


def test_names_typed_without_capitals_are_whole_and_every_type_is_queued_for_a_look():
    """The NER cuts a lower-case name short ("nguyen" of "nguyen thi lan": a trailing lower-case word used to be
    the verb's prefix a name took); in such a text every name is whole, and its type, read from context alone, is
    queued ("oluwaseun" ORG) instead of being called "probably not a name"; a missed firm is queued as a name."""
    from relguard.pipeline import prepare
    from relguard.studio.queue import untyped_names
    from relguard.studio.review import suspicious_types
    from relguard.types import Document

    note = (
        "yesterday we spoke with nguyen thi lan about the analyst role. nguyen thi lan currently works for harbor "
        "finance and is married to tran van minh. oluwaseun is the cousin of tran van minh."
    )
    prepared = prepare([Document("note.txt", note)], k=10)
    names = {e.name for e in prepared.extraction.documents[0].entities}
    assert {"nguyen thi lan", "tran van minh"} <= names and not names & {"nguyen", "tran", "van"}
    queued = {f.item: f.problem for f in suspicious_types(prepared.extraction)}
    assert set(queued) == names and all("typed in lower case" in p for p in queued.values())
    missed = {f.item for f in untyped_names(prepared.extraction)}
    assert missed == {"1:harbor finance"}, missed  # a firm the NER missed, told by the word it ends in
    capitals = prepare([Document("m.txt", "Omar Haddad re-joined Acme Corp in May.")], k=10)
    assert "Omar Haddad" in {e.name for e in capitals.extraction.documents[0].entities}


def test_a_pronoun_that_opens_a_sentence_after_a_deleted_one_is_named():
    """ "She succeeded Karen Whitfield" after the sentence naming her was deleted: the slot's group names her
    (public), so the release does; a pronoun no slot ties to an entity ("She smiled") stays as written."""
    from relguard.pipeline import prepare
    from relguard.types import Document

    text = "Maria Gonzalez joined Brightwater Logistics in 2019. She succeeded Karen Whitfield. She smiled."
    prepared = prepare([Document("hr.txt", text)], k=10)
    seen = 0
    for seed in range(40):
        out = prepared.draw(epsilon=0.5, lam=1.0, seed=seed).documents[0]
        if 0 in out.gone_sentences and 1 not in out.gone_sentences:
            assert out.text.startswith("Maria Gonzalez ") and out.text.endswith(" She smiled."), out.text
            seen += 1
        elif 0 not in out.gone_sentences and 1 not in out.gone_sentences:
            assert ". She " in out.text, out.text
    assert seen, "no seed below 40 deleted the first sentence alone"
