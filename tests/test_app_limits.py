"""Upload limits: the per-upload file count (relguard.formats.MAX_FILES) and the Streamlit size limit."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from relguard.io import DEFAULT_MAX_BYTES
from relguard.io.formats import MAX_FILES, load_uploads

ROOT = Path(__file__).resolve().parents[1]


def files(count: int) -> list[tuple[str, bytes]]:
    return [(f"note{i:03d}.txt", f"Note {i}: Alice Meyer founded Quantix.".encode()) for i in range(count)]


def test_library_loads_up_to_the_limit_and_refuses_one_more():
    assert len(load_uploads(files(MAX_FILES)).documents) == MAX_FILES
    over = load_uploads(files(MAX_FILES + 1))
    assert over.documents == () and over.hashes == {}
    assert over.errors == (
        (
            "(upload)",
            f"{MAX_FILES + 1} files were uploaded; the limit is {MAX_FILES} files per upload. "
            "Remove some, or combine documents into one .jsonl file (one document per line).",
        ),
    )


def test_streamlit_config_caps_upload_size_above_the_library_text_limit():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    size = config["server"]["maxUploadSize"]
    assert size == 25 and size * 1024 * 1024 > DEFAULT_MAX_BYTES  # an over-size text still gets the library message


def test_app_refuses_too_many_files_with_a_message_naming_the_limit():
    pytest.importorskip("streamlit")
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180)
    at.run()
    assert not at.exception
    at.file_uploader(key="uploads").set_value([(n, d, "text/plain") for n, d in files(MAX_FILES + 1)]).run()
    assert not at.exception
    messages = [e.value for e in at.error]
    assert any(f"the limit is {MAX_FILES} files per upload" in m for m in messages), messages
    assert not at.session_state.documents

    at.file_uploader(key="uploads").set_value([(n, d, "text/plain") for n, d in files(3)]).run()
    assert not at.exception and not any("files per upload" in e.value for e in at.error)
    assert len(at.session_state.documents) == 3


def test_plain_streamlit_run_sends_no_usage_statistics():
    """Streamlit reads ``.streamlit/config.toml`` from the working directory; its default is to send statistics."""
    pytest.importorskip("streamlit")
    import subprocess
    import sys

    assert tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())["browser"]["gatherUsageStats"] is False
    probe = (
        "from streamlit import config; config.get_config_options(); "
        "print(config.get_option('browser.gatherUsageStats'))"
    )
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "False"
