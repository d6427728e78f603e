"""RelGuard Studio as a privacy officer uses it (issue 42), under Streamlit's AppTest with the real models."""

from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
NOTE = b"Maria Lopez works for Acme Corp."


def goto(at: AppTest, page: str) -> AppTest:
    at.switch_page(f"pages/{page}.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_a_document_emptied_by_the_draw_is_named_on_export_and_on_the_drawn_release():
    """With K = 1 and the smallest ε and λ a one-relation note is deleted in about half the teaching draws; the
    seeds are fixed, so the first seed that empties it is always the same one."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    at.file_uploader(key="uploads").set_value([("note.txt", NOTE, "text/plain")]).run()
    goto(at, "tune")
    at.select_slider(key="w_epsilon").set_value(0.01).run()
    at.select_slider(key="w_lam").set_value(0.01).run()
    at.number_input(key="w_k").set_value(1).run()
    at.toggle(key="w_teaching").set_value(True).run()
    for seed in range(20):
        at.session_state["seed"] = seed
        goto(at, "tune")
        next(b for b in at.button if b.label == "Draw a release").click().run()
        assert not at.exception
        if not at.session_state.release.documents[0].text.strip():
            break
    else:
        pytest.fail("no teaching seed below 20 deleted the note's one relation")
    said = "note.txt came out EMPTY: 1 of 1 sentence gone; 1 deleted by a null outcome"
    assert any(said in e.value for e in goto(at, "export").error), [e.value for e in at.error]
    assert any(said in e.value for e in goto(at, "release").error), [e.value for e in at.error]
