"""RelGuard Studio under Streamlit's AppTest: every page on the sample corpus, with real models."""

import json
from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

from relguard.studio.signoff import APPROVED, REFUSED
from relguard.studio.wording import round_grid

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")
PAGES = ["documents", "triples", "pools", "tune", "export", "learn"]
TIMEOUT = 180  # the first run loads spaCy and the encoder


def start() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.run()
    assert not at.exception
    return at


def with_sample() -> AppTest:
    at = start()
    next(b for b in at.button if b.label == "Load the sample corpus").click().run()
    assert not at.exception
    return at


def goto(at: AppTest, page: str) -> AppTest:
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def table(at: AppTest, index: int = 0):
    return at.dataframe[index].value


def test_every_page_renders_on_the_sample_corpus():
    at = with_sample()
    documents = table(at)
    assert len(documents) == 6
    assert set(documents["document"]) == {p.name for p in (ROOT / "assets" / "sample_corpus").glob("*.txt")}
    for page in PAGES:
        goto(at, page)
        assert at.title[0].value
    goto(at, "triples")
    assert len(table(at)) > 0
    assert any("relguard-doc" in h.value for h in at.get("html"))
    # one draw per stated relation: every slot of the default mode holds the words it was read from
    assert "related_to" not in set(table(at)["relation"])


def test_empty_session_points_to_documents():
    at = start()
    goto(at, "tune")
    assert any("No documents yet" in i.value for i in at.info)


def test_sliders_change_the_probability_table_and_expectations():
    at = goto(with_sample(), "tune")
    before = table(at)["probability"].tolist()
    deleted_before = at.metric[3].value
    at.select_slider(key="w_epsilon").set_value(10.0).run()
    assert not at.exception
    after = table(at)["probability"].tolist()
    assert after != before
    assert max(after) > max(before)  # a larger ε concentrates the distribution
    assert at.metric[3].value != deleted_before
    at.select_slider(key="w_lam").set_value(0.1).run()
    assert table(at)["probability"].tolist()[-1] > after[-1]  # a smaller λ makes null likelier
    at.select_slider(key="w_epsilon").set_value(20.0).run()
    assert any("ε = 20 in words" in w.value and "Weak privacy" in w.value for w in at.warning)
    at.number_input(key="w_k").set_value(5).run()
    assert len(table(at)) == 6  # K candidates + null


def zip_button(at: AppTest):
    return next(b for b in at.get("download_button") if b.label.startswith("Download the release"))


def settle_unprotected(at: AppTest) -> None:
    """Dismiss every unprotected sentence still open, as an officer who judged them harmless would on Review: an
    approving sign-off needs each settled (tests/test_app_officer.py checks that gate)."""
    from relguard.extract.review import Dismiss
    from relguard.studio.queue import UNTYPED
    from relguard.studio.review import UNSLOTTED
    from relguard.studio.unsettled import unprotected

    review = at.session_state.review
    for s in unprotected(at.session_state.prepared.extraction, review).open:
        if s.reason == "no slot":
            review = review.add(Dismiss(UNSLOTTED, s.document, f"sentence {s.sentence}", "no relation there"))
        else:
            for name in s.entities:
                review = review.add(Dismiss(UNTYPED, s.document, f"{s.sentence}:{name}", "not a name"))
    at.session_state["review"] = review


def draw(at: AppTest, *, teaching: bool = False) -> AppTest:
    goto(at, "tune")
    settle_unprotected(at)
    goto(at, "tune")
    at.toggle(key="w_teaching").set_value(teaching).run()
    next(b for b in at.button if b.label == "Draw a release").click().run()
    assert not at.exception
    return goto(at, "export")


def sign(at: AppTest, decision: str = APPROVED) -> AppTest:
    at.text_input(key="w_sign_reviewer").input("R. Officer").run()
    at.radio(key="w_sign_decision").set_value(decision).run()
    assert not at.exception
    return at


def test_export_warns_when_a_second_draw_is_exported_not_on_a_re_download():
    """Releases of one corpus compose, so a second draw's export warns with the summed ε; downloading the same
    draw again publishes nothing new and must not count (a new user saw "2 releases, total ε 3" for one)."""
    at = sign(draw(with_sample()))
    labels = [b.label for b in at.get("download_button")]
    assert any("CONFIDENTIAL" in label for label in labels)
    assert not any("Releases compose" in w.value for w in at.warning)
    zip_button(at).click().run()
    assert len(at.session_state.exports) == 1
    goto(at, "export")
    assert not any("Releases compose" in w.value for w in at.warning)
    zip_button(at).click().run()
    assert len(at.session_state.exports) == 1
    at = sign(draw(at))
    assert any("exported 1 release of this corpus" in w.value and "total ε of 2" in w.value for w in at.warning)
    assert any("drawn 2 times" in w.value and "total ε = 2" in w.value for w in at.warning)


def test_sign_off_is_a_gate_that_survives_page_changes_and_never_opens_for_a_teaching_seed():
    """Issue 27: the zip downloaded with an empty sign-off or "not approved", the fields were wiped by a page
    change, and a teaching-seed draw could be "approved for release"."""
    at = draw(with_sample())
    assert zip_button(at).proto.disabled
    assert any("Export is locked" in e.value and "reviewer's name" in e.value for e in at.error)
    at.text_input(key="w_sign_reviewer").input("R. Officer").run()
    goto(at, "tune")
    goto(at, "export")
    assert at.text_input(key="w_sign_reviewer").value == "R. Officer"  # kept across pages
    assert zip_button(at).proto.disabled  # no decision yet
    at.radio(key="w_sign_decision").set_value(REFUSED).run()
    assert zip_button(at).proto.disabled
    assert any("'not approved'" in e.value for e in at.error)
    at.radio(key="w_sign_decision").set_value(APPROVED).run()
    assert not zip_button(at).proto.disabled
    assert not any("Export is locked" in e.value for e in at.error)
    report = next(e for e in at.expander if "report.md" in e.label).markdown[0].value
    assert "R. Officer" in report and APPROVED in report
    at = draw(at, teaching=True)
    assert at.session_state.sign_decision is None  # a decision approves one draw
    at.radio(key="w_sign_decision").set_value(APPROVED).run()
    assert zip_button(at).proto.disabled
    assert any("teaching seed" in e.value and "cannot be approved" in e.value for e in at.error)


def test_a_release_drawn_before_an_upload_stays_and_is_marked_stale():
    """A new user's draw vanished without a word when a file was uploaded after it; changing ε instead said
    "stale". Every page now says the documents changed, and Export refuses the old draw until it is redrawn."""
    at = goto(with_sample(), "tune")
    next(b for b in at.button if b.label == "Draw a release").click().run()
    goto(at, "documents")
    at.file_uploader(key="uploads").set_value([("late.txt", b"Dana Reyes works for Vexel Labs.", "text/plain")])
    at.run()
    assert at.session_state.release is not None
    for page in ("release", "risk", "tune", "documents"):
        goto(at, page)
        assert not at.exception, (page, [e.value for e in at.exception])
    goto(at, "release")
    assert any("the documents changed" in w.value for w in at.warning)
    goto(at, "export")
    assert any("the documents changed" in e.value for e in at.error)
    assert not any(b.label.startswith("Download the release") for b in at.get("download_button"))


def test_a_fixed_file_uploaded_again_clears_its_error_and_loads():
    """A new user fixed a .jsonl and uploaded it again: its documents loaded while the old "line 2" error stayed
    on the page. An error about a file that has since loaded under the same name is over; others stay."""
    at = start()
    broken = b'{"text": "Alice Meyer founded Quantix."}\n{"text": "Bob \n'
    at.file_uploader(key="uploads").set_value(
        [("records.jsonl", broken, "application/json"), ("empty.txt", b"", "text/plain")]
    ).run()
    assert {m.split(":")[0] for m in (e.value for e in at.error)} >= {"records.jsonl", "empty.txt"}
    assert any("nothing from this file was loaded" in e.value for e in at.error)
    fixed = b'{"text": "Alice Meyer founded Quantix."}\n{"text": "Bob Stone works for Acme Corp."}\n'
    at.file_uploader(key="uploads").set_value([("records.jsonl", fixed, "application/json")]).run()
    assert not at.exception
    messages = [e.value for e in at.error]
    assert not any(m.startswith("records.jsonl:") for m in messages)
    assert any(m.startswith("empty.txt:") for m in messages)
    assert set(table(at)["document"]) == {"records.jsonl:1", "records.jsonl:2"}


def test_bad_upload_shows_an_error_and_good_files_stay():
    at = start()
    at.file_uploader(key="uploads").set_value(
        [
            ("good.txt", b"Alice Meyer founded Quantix in Berlin.", "text/plain"),
            ("broken.pdf", b"%PDF-1.4 broken", "application/pdf"),
            ("notes.csv", b"id,body\n1,Bob Stone works for Acme Corp.\n", "text/csv"),
        ]
    ).run()
    assert not at.exception
    messages = [e.value for e in at.error]
    assert any(m.startswith("broken.pdf:") for m in messages)
    assert set(table(at)["document"]) == {"good.txt", "notes.csv:2"}


def test_learn_page_shows_definition_3_holding():
    at = goto(start(), "learn")
    assert "≤" in at.metric[0].value
    at.select_slider(key="learn_epsilon").set_value(5.0).run()
    assert "≤" in at.metric[0].value
    assert any("ε = 5 in words" in i.value for i in at.info)  # the box that showed at ε = 1 only


def test_learn_takes_a_relation_of_ones_own_and_says_the_odds_before_and_after():
    at = goto(start(), "learn")
    at.text_input(key="learn_own").input("married to").run()
    assert not at.exception
    texts = [m.value for m in at.markdown]
    assert any("married_to" in t and "your own" in t for t in texts)
    assert any(t.startswith("**Before:**") and "Alice worked for Acme." in t for t in texts)
    assert any("**In odds:**" in t and "50% likely" in t for t in texts)
    assert any("redraw" in t for t in texts) and any("**Choosing ε.**" in t for t in texts)
    rows = next(t for t in at.dataframe if "P(y | r′)" in t.value.columns)
    assert rows.value["outcome"].iloc[-1] == "null"
    at.text_input(key="learn_own").input("<script>alert(1)</script>").run()
    assert not at.exception
    assert any("is not a relation" in e.value for e in at.error)


def test_tune_reads_epsilon_and_the_bounds_out_in_words_and_labels_every_bar_at_k_20():
    at = goto(with_sample(), "tune")
    assert at.select_slider(key="w_epsilon").options == [f"{v:g}" for v in round_grid(0.01, 100.0)]
    assert any("ε = 1 in words" in i.value for i in at.info)
    at.select_slider(key="w_epsilon").set_value(5.0).run()
    assert any("ε = 5 in words" in i.value for i in at.info)
    assert any("worst document" in m.value and "Read out:" in m.value for m in at.markdown)
    at.number_input(key="w_k").set_value(20).run()
    bars = json.loads(at.get("plotly_chart")[1].proto.spec)
    assert len(bars["data"][0]["y"]) == 21 and bars["layout"]["yaxis"]["dtick"] == 1
    assert bars["layout"]["height"] >= 21 * 24


def test_the_entity_level_on_tune_triples_and_learn():
    """DESIGN invariant 13 in the app: Triples lists entities the weakest bound first; Tune's per-entity toggle
    draws each pair at E / max(n(s), n(o)) and marks an earlier draw stale; Learn adds up one person's bounds."""
    at = goto(with_sample(), "triples")
    entities = next(t.value for t in at.dataframe if "groups (n)" in t.value.columns)
    assert list(entities["Σ ε_g·d_max"]) == sorted(entities["Σ ε_g·d_max"], reverse=True)
    assert entities["groups (n)"].iloc[0] == entities["groups (n)"].max() > 1
    goto(at, "tune")
    next(b for b in at.button if b.label == "Draw a release").click().run()
    before = table(at)["probability"].tolist()
    at.toggle(key="w_entity").set_value(True).run()
    assert not at.exception
    assert any("Per-entity budget E" in i.value for i in at.info)
    assert any("switched on" in w.value for w in at.warning)  # the ε-per-relation draw is stale now
    next(b for b in at.button if b.label == "Draw a release").click().run()
    assert at.session_state.release.guarantee.entity_epsilon == at.session_state.epsilon
    corpus, index = at.session_state.prepared, at.session_state.w_selected
    per_group = corpus.group_epsilons(entity_epsilon=at.session_state.epsilon)
    expected = corpus.probabilities(epsilon=per_group, lam=at.session_state.lam)[index]
    assert table(at)["probability"].tolist() == pytest.approx(expected.tolist())
    if per_group[index] != at.session_state.epsilon:
        assert table(at)["probability"].tolist() != pytest.approx(before)
    goto(at, "learn")
    words = [m.value for m in at.markdown if "Ilse Markov" in m.value]
    at.toggle(key="learn_entity").set_value(True).run()
    assert not at.exception
    budget = [m.value for m in at.markdown if "Ilse Markov" in m.value]
    assert words and budget and words != budget and "per-entity budget E = 1" in budget[0]
    rows = next(t.value for t in at.dataframe if "ε_g·d_max" in t.value.columns)
    assert len(rows) == 3 and rows["ε_g"].tolist() == pytest.approx([1 / 3] * 3)


def test_removing_all_documents_asks_first():
    """Issue 27: "Remove all documents" emptied the session on one click; it now sits behind a confirmation."""
    at = with_sample()
    assert not any(b.label == "Remove all documents" for b in at.button)  # a popover, not a one-click button
    assert len(at.session_state.documents) == 6
    next(b for b in at.button if b.label == "Yes, remove all documents").click().run()
    assert not at.exception and not at.session_state.documents
    assert any("No documents loaded yet" in i.value for i in at.info)


MEMO = (
    "Tamsin Ekwueme wrote the memo. Acme Corp hired staff in 2004. She joined Acme Corp in 2004. "
    "Tom Reid works in our Tobermory office.\n"
)


def test_the_review_page_queues_a_missed_name_and_a_pronoun_and_settles_both():
    """Issue 27: the queue lacked pronoun links and doubtful types, and review could neither retype an entity nor
    set a pronoun's referent nor dismiss a harmless item. Each action here changes the queue."""
    at = start()
    at.file_uploader(key="uploads").set_value([("memo.txt", MEMO.encode(), "text/plain")]).run()
    goto(at, "review")
    queue = table(at, 0)
    problems = list(queue["problem"])
    assert any("'She' is taken to mean no entity" in p for p in problems)
    at.selectbox(key="type_entity").set_value("Tamsin Ekwueme").run()
    at.selectbox(key="type_value").set_value("PERSON").run()
    next(b for b in at.button if b.key == "set_type").click().run()
    assert not at.exception
    at.selectbox(key="referent_entity").set_value("Tamsin Ekwueme").run()
    next(b for b in at.button if b.key == "set_referent").click().run()
    problems = list(table(at, 0)["problem"])
    assert any("'She' is taken to mean Tamsin Ekwueme (PERSON); if it means someone else" in p for p in problems)
    assert any("names Acme Corp, Tamsin Ekwueme but has no relation slot" in p for p in problems)
    before = len(table(at, 0))
    place = next(o for o in at.selectbox(key="dismiss_item").options if "Tobermory typed" in o)
    at.selectbox(key="dismiss_item").set_value(place).run()
    at.text_input(key="dismiss_reason").input("the office is in Tobermory").run()
    next(b for b in at.button if b.key == "dismiss").click().run()
    assert len(table(at, 0)) == before - 1
    assert not any(p.startswith("Tobermory typed") for p in table(at, 0)["problem"])
    kinds = [e["kind"] for e in json.loads(at.session_state.review.to_json())["edits"]]
    assert kinds == ["set_type", "set_referent", "dismiss"]


def test_the_exclusion_policy_editor_takes_predicates_out_of_the_pools_and_the_zip_carries_the_policy():
    """Issue 27: an organisation picks the predicates it never publishes in the app; the pools are rebuilt
    without them, a drawn release goes stale, and the export names the policy and carries its file (the format
    `relguard sanitize --exclude-predicates` reads)."""
    from relguard.candidates.exclusion import POLICY_FILE, parse_policy
    from relguard.kinds import pool_pair

    at = draw(with_sample())
    goto(at, "pools")
    pools = at.session_state.prepared.pools
    pair = next(p for p in pools if len(pools[p].predicates) == at.session_state.k and pool_pair(p) == p)
    dropped = pools[pair].predicates[0]
    at.multiselect(key=f"policy_{pair[0]}_{pair[1]}").set_value([dropped]).run()
    next(b for b in at.button if b.key == "policy_save").click().run()
    assert not at.exception
    assert dropped not in at.session_state.prepared.pools[pair].predicates
    assert len(at.session_state.prepared.pools[pair].predicates) == at.session_state.k  # still exactly K
    text = at.session_state.exclusion_policy
    assert parse_policy(text, name=POLICY_FILE).excluded(pair) == {dropped}
    goto(at, "export")
    assert any("the exclusion policy changed" in e.value for e in at.error)  # the earlier draw is stale
    at = sign(draw(at))
    report = next(e for e in at.expander if "report.md" in e.label).markdown[0].value
    assert f"exclusion policy {POLICY_FILE}" in report.replace("`", "")
    config = next(e for e in at.expander if "config.toml" in e.label).code[0].value
    assert f'exclude_predicates = "{POLICY_FILE}"' in config


def test_tune_takes_a_draw_budget_refuses_a_draw_past_it_in_words_and_export_shows_what_is_left():
    at = with_sample()
    goto(at, "tune")
    at.number_input(key="w_budget").set_value(1.5).run()
    assert any("leaves ε = 1.5" in c.value for c in at.caption)
    assert not any("Session State" in w.value for w in at.warning)
    at = draw(at)  # ε = 1 (the session's default): within the budget
    assert any("leaves ε = 0.5" in c.value for c in at.caption)
    goto(at, "tune")
    next(b for b in at.button if b.label == "Draw a release").click().run()
    assert not at.exception
    assert any("budget of 1.5" in e.value and "already spent 1" in e.value for e in at.error)
    assert at.session_state.draws == 1
