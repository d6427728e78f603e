"""One real-browser run of RelGuard Studio: Debian's chromium driven by Playwright.

Starts ``streamlit run app.py`` headless on a free local port, loads the sample
corpus plus a hostile document and an HR memo, walks the analyst's review (a slot
removed and a missed one added by hand; a name the NER missed added as an entity and
a pronoun linked to it), moves ε, draws a release, sees it go stale and draws again,
passes the sign-off gate (refused empty, refused for a teaching seed, accepted when
complete), downloads the zip with slot marks and checks its contents; no script from a
document may run, and a second browser session must see none of the first one's
documents, edits or release. Screenshots of each page go to a temporary folder,
or to ``$RELGUARD_SCREENSHOTS`` (``docs/screenshots`` refreshes the README's).
"""

import contextlib
import io
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tests.polling import wait_for

pytest.importorskip("playwright")
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
SHOTS = Path(os.environ.get("RELGUARD_SCREENSHOTS") or Path(tempfile.gettempdir()) / "relguard-screenshots")
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
EVIL = (
    "<img src=x onerror=alert(1)> founded Quantix in Berlin. "
    "<script>alert(1)</script> works for Quantix. Maria Lopez works for Quantix in Madrid."
)
#: The officer's memo (issue 27): "She" is tied to the wrong person.
MEMO = "Anna Berg joined Acme Corp in 2003. Tamsin Ekwueme wrote the memo. She joined Acme Corp in 2004.\n"
WAIT = 180_000  # ms; the first extraction loads spaCy and the encoder
START = 1_000  # ms a rerun may take to begin after the click that asks for it

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="needs Debian's chromium (scripts/test.sh installs it)"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "RELGUARD_LOAD_SAMPLE"}
    env["TOKENIZERS_PARALLELISM"] = "false"
    env["RELGUARD_STATE"] = str(tmp_path_factory.mktemp("browser-state"))  # this run's draws and edits only
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.headless",
            "true",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"

    def healthy() -> bool:
        assert process.poll() is None, "streamlit exited before it answered"
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                return response.status == 200
        except OSError:
            return False

    try:
        wait_for(healthy, timeout=60, what="streamlit to answer /_stcore/health", interval=0.2)
    except AssertionError:
        process.kill()
        raise
    yield url
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


def goto(page, title: str) -> None:
    page.get_by_test_id("stSidebarNav").get_by_text(title, exact=True).click()
    expect(page.get_by_role("heading", name=title, exact=True).first).to_be_visible(timeout=WAIT)
    settle(page)


def settle(page) -> None:
    """Wait until Streamlit has finished the run an action started: first for it to start (a rerun begins within
    milliseconds of the click; one that already ended is not waited for past ``START``), then for it to end."""
    app = page.get_by_test_id("stApp")
    with contextlib.suppress(AssertionError):  # the run was over before we looked
        expect(app).to_have_attribute("data-test-script-state", "running", timeout=START)
    expect(app).to_have_attribute("data-test-script-state", "notRunning", timeout=WAIT)


def shot(page, name: str) -> None:
    print("shot", name, time.monotonic(), flush=True)
    SHOTS.mkdir(parents=True, exist_ok=True)
    settle(page)
    for busy in ("stSkeleton", "stSpinner"):  # placeholders of what is still being drawn
        expect(page.get_by_test_id(busy)).to_have_count(0, timeout=WAIT)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def pick_first_option(page, box) -> None:
    """Open a select box and take its first option; a click that lands during a rerun opens nothing, so retry."""
    option = page.get_by_role("option").first
    for _ in range(3):
        box.click()
        try:
            option.wait_for(state="visible", timeout=5_000)
            break
        except PlaywrightTimeoutError:
            page.keyboard.press("Escape")
            settle(page)
    option.click()


def pick(page, box, name: str) -> None:
    """Choose the option ``name`` in the select box ``box`` (its input), retrying a click that a rerun swallowed."""
    for _ in range(3):
        box.click()
        option = page.get_by_role("option", name=name, exact=True).first
        try:
            option.wait_for(state="visible", timeout=5_000)
            option.click()
            settle(page)
            expect(box).to_have_value(name, timeout=5_000)
            return
        except (PlaywrightTimeoutError, AssertionError):
            page.keyboard.press("Escape")
            settle(page)
    raise AssertionError(f"could not choose {name!r}")


def review_flow(page) -> None:
    """Take one slot out as if the extractor had missed it, then add it back by hand from the review form.

    Both forms start on the first document (atlas_shipping.txt); the slot's words and sentence are read from the
    form itself, so the flow does not depend on what the extractor finds.
    """
    goto(page, "Review")
    page.get_by_role("tab", name="Remove a slot").click()
    remove = page.get_by_role("tabpanel", name="Remove a slot")
    label = remove.get_by_test_id("stSelectbox").nth(1).locator("input").input_value()
    number, words = label.split(": ", 1)[0].split()[-1], label.split(": ", 1)[1].strip().strip("'\"")
    remove.get_by_role("button", name="Remove slot").click()
    settle(page)
    expect(page.get_by_text("1 edit, applied before the draw")).to_be_visible(timeout=WAIT)
    page.get_by_role("tab", name="Add a missed slot").click()
    add = page.get_by_role("tabpanel", name="Add a missed slot")
    add.get_by_test_id("stSelectbox").nth(1).locator("input").click()
    page.get_by_role("option", name=re.compile(rf"^{number}: ")).first.click()
    settle(page)
    add.get_by_label("The relation words, exactly as in the sentence").fill(words)
    add.get_by_label("The relation words, exactly as in the sentence").press("Enter")
    settle(page)
    for _ in range(2):
        pick_first_option(page, add.get_by_test_id("stMultiSelect").locator("input"))
        page.keyboard.press("Escape")
        settle(page)
    add.get_by_role("button", name="Add slot").click()
    settle(page)
    expect(page.get_by_text("2 edits, applied before the draw")).to_be_visible(timeout=WAIT)
    missed_name_and_pronoun(page)
    settle_unprotected(page)
    shot(page, "3b-review")


def settle_unprotected(page) -> None:
    """An approving sign-off needs every unprotected sentence settled: the officer reads the queue and dismisses
    the rest at once, with the reason (issue 42)."""
    expect(page.get_by_text("still open; an approving sign-off needs none open").first).to_be_visible(timeout=WAIT)
    page.get_by_role("tab", name="Dismiss an item").click()
    panel = page.get_by_role("tabpanel", name="Dismiss an item")
    panel.get_by_label("Why none of them holds a relation to protect").fill("read: no relation between the names")
    panel.get_by_label("Why none of them holds a relation to protect").press("Enter")
    settle(page)
    panel.get_by_role("button", name=re.compile(r"^Dismiss all \d+")).click()
    settle(page)
    expect(page.get_by_text("0 still open; an approving sign-off needs none open").first).to_be_visible(timeout=WAIT)


def missed_name_and_pronoun(page) -> None:
    """The memo's "She" is a pronoun read as Anna Berg; the analyst links it to Tamsin Ekwueme (whom public typing
    now finds, where the NER had missed the name), and the queue says so."""
    queue = page.get_by_test_id("stDataFrame").first
    expect(queue).to_be_visible(timeout=WAIT)
    page.get_by_role("tab", name="Set a pronoun's referent").click()
    panel = page.get_by_role("tabpanel", name="Set a pronoun's referent")
    pick(page, panel.get_by_test_id("stSelectbox").first.locator("input"), "memo.txt")
    expect(panel.get_by_test_id("stSelectbox").nth(1).locator("input")).to_have_value(
        re.compile("'She' is taken to mean Anna Berg"), timeout=WAIT
    )
    pick(page, panel.get_by_test_id("stSelectbox").nth(2).locator("input"), "Tamsin Ekwueme")
    panel.get_by_role("button", name="Set referent").click()
    settle(page)
    expect(page.get_by_text("3 edits, applied before the draw")).to_be_visible(timeout=WAIT)
    page.get_by_role("tab", name="Set a pronoun's referent").click()
    expect(panel.get_by_test_id("stSelectbox").nth(1).locator("input")).to_have_value(
        re.compile("'She' is taken to mean Tamsin Ekwueme"), timeout=WAIT
    )


def draw_on_tune(page, *, teaching: bool) -> None:
    """Switch the teaching seed (off, as the session starts, before ``teaching=True``; on before False) and draw."""
    goto(page, "Tune")
    page.get_by_text("Teaching seed (reproducible, NOT a private release)", exact=True).click()
    settle(page)
    page.get_by_role("button", name="Draw a release").click()
    settle(page)
    if teaching:
        expect(page.get_by_text("NOT a private release. Do not publish it.").first).to_be_visible(timeout=WAIT)


def sign_off_gate_flow(page) -> None:
    """Export stays locked until the sign-off is complete and approves a private draw; a teaching-seed draw is
    refused even when approved; the fields survive a page change (issue 27)."""
    zip_button = page.get_by_role("button", name="Download the release")
    goto(page, "Export")
    expect(zip_button).to_be_disabled(timeout=WAIT)
    expect(page.get_by_text("Export is locked until the sign-off is complete").first).to_be_visible()
    expect(page.get_by_text("the reviewer's name is missing", exact=False).first).to_be_visible()
    page.get_by_label("Reviewer").fill("R. Officer")
    page.get_by_label("Reviewer").press("Enter")
    settle(page)
    page.get_by_text("not approved", exact=True).click()
    settle(page)
    expect(zip_button).to_be_disabled()
    page.get_by_text("approved for release", exact=True).click()
    settle(page)
    expect(zip_button).to_be_enabled(timeout=WAIT)

    draw_on_tune(page, teaching=True)
    goto(page, "Export")
    expect(page.get_by_label("Reviewer")).to_have_value("R. Officer")  # kept across pages
    page.get_by_text("approved for release", exact=True).click()
    settle(page)
    expect(zip_button).to_be_disabled()
    expect(page.get_by_text("cannot be approved", exact=False).first).to_be_visible()

    draw_on_tune(page, teaching=False)
    goto(page, "Export")
    expect(page.get_by_text("This corpus was drawn 3 times", exact=False).first).to_be_visible(timeout=WAIT)
    page.get_by_text("approved for release", exact=True).click()
    settle(page)
    page.get_by_text("Also mark every filled slot inline", exact=False).click()
    settle(page)
    expect(zip_button).to_be_enabled(timeout=WAIT)
    shot(page, "5-export")


def test_browser_end_to_end(server, tmp_path):
    dialogs: list[str] = []
    outside: list[str] = []  # requests that would leave the machine: the app must work offline
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        context = browser.new_context(viewport={"width": 1400, "height": 1100}, accept_downloads=True)
        page = context.new_page()
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.on(
            "request",
            lambda r: None if r.url.startswith((server, "data:", "blob:", "about:")) else outside.append(r.url),
        )
        page.goto(server)
        expect(page.get_by_role("heading", name="Documents").first).to_be_visible(timeout=WAIT)

        page.get_by_role("button", name="Load the sample corpus").click()
        expect(page.get_by_text("6 documents ·", exact=False).first).to_be_visible(timeout=WAIT)
        page.locator("input[type=file]").set_input_files(
            files=[
                {"name": "evil.txt", "mimeType": "text/plain", "buffer": EVIL.encode()},
                {"name": "memo.txt", "mimeType": "text/plain", "buffer": MEMO.encode()},
            ]
        )
        expect(page.get_by_text("8 documents ·", exact=False).first).to_be_visible(timeout=WAIT)
        settle(page)
        shot(page, "1-documents")

        goto(page, "Triples")
        page.get_by_test_id("stSelectbox").first.click()
        page.get_by_role("option", name="evil.txt").click()
        settle(page)
        expect(page.get_by_text("<script>alert(1)</script>", exact=False).first).to_be_visible()
        expect(page.get_by_text("<img src=x onerror=alert(1)>", exact=False).first).to_be_visible()
        page.get_by_test_id("stSelectbox").first.click()
        page.get_by_role("option", name="quantix_merger.txt").click()
        settle(page)
        shot(page, "2-triples")

        goto(page, "Candidate pools")
        shot(page, "3-pools")

        review_flow(page)

        goto(page, "Tune")
        deleted = page.get_by_test_id("stMetricValue").nth(3)
        before = deleted.inner_text()
        slider = page.get_by_role("slider").first
        slider.focus()
        for _ in range(7):  # seven round stops right: ε 1 → 1.5, 2, 3, 4, 5, 7, 10
            slider.press("ArrowRight")
        settle(page)
        expect(deleted).not_to_have_text(before, timeout=WAIT)
        page.get_by_role("button", name="Draw a release").click()
        expect(page.get_by_text("Drawn at ε = 10").first).to_be_visible(timeout=WAIT)
        settle(page)
        slider.focus()
        slider.press("ArrowLeft")
        settle(page)
        expect(page.get_by_text("is stale: ε moved from 10").first).to_be_visible(timeout=WAIT)
        slider.press("ArrowRight")
        settle(page)
        expect(page.get_by_text("Drawn at ε = 10").first).to_be_visible(timeout=WAIT)
        page.get_by_role("heading", name="Tune", exact=True).first.scroll_into_view_if_needed()
        shot(page, "4-tune")
        page.set_viewport_size({"width": 1024, "height": 768})  # issue 27: metrics were cut off at this size
        settle(page)
        cut = page.evaluate(
            """() => [...document.querySelectorAll('[data-testid^="stMetric"], [data-testid^="stMetric"] *')]
                 .filter(e => e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1).map(e => e.innerText)"""
        )
        assert cut == [], cut
        page.set_viewport_size({"width": 1400, "height": 1100})

        goto(page, "Risk & utility")  # the attack itself (spaCy on every changed text) is left to test_app_risk
        expect(page.get_by_text("connections kept").first).to_be_visible(timeout=WAIT)
        shot(page, "4b-risk")

        goto(page, "Drawn release")
        expect(page.get_by_text("Confidential view").first).to_be_visible(timeout=WAIT)
        shot(page, "4a-release")

        sign_off_gate_flow(page)
        with page.expect_download(timeout=WAIT) as info:
            page.get_by_role("button", name="Download the release").click()
        path = tmp_path / "release.zip"
        info.value.save_as(path)

        goto(page, "Learn relation-DP")
        shot(page, "6-learn")

        other = browser.new_context().new_page()
        other.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        other.goto(server)
        expect(other.get_by_text("No documents loaded yet.")).to_be_visible(timeout=WAIT)
        expect(other.get_by_text("evil.txt")).to_have_count(0)
        other.get_by_role("button", name="Load the sample corpus").click()
        expect(other.get_by_text("6 documents ·", exact=False).first).to_be_visible(timeout=WAIT)
        goto(other, "Review")
        expect(other.get_by_text(re.compile(r"edits?, applied before the draw"))).to_have_count(
            0
        )  # the first session's edits
        goto(other, "Export")
        expect(other.get_by_text("Draw a release on the").first).to_be_visible(timeout=WAIT)
        browser.close()

    names = set(zipfile.ZipFile(path).namelist())
    expected = {f"documents/{p.name}" for p in (ROOT / "assets" / "sample_corpus").glob("*.txt")}
    public = {"report.json", "report.md", "config.toml", "slots.jsonl"}
    assert names == expected | {"documents/evil.txt", "documents/memo.txt"} | public
    bundle = zipfile.ZipFile(io.BytesIO(path.read_bytes()))
    report = bundle.read("report.json").decode()
    assert '"epsilon": 10.0' in report
    markdown = bundle.read("report.md").decode()
    assert "R. Officer" in markdown and "approved for release" in markdown
    assert "## Analyst's review" in markdown and "1 add slot, 1 remove slot, 1 set referent" in markdown
    draws = json.loads(report)["draws"]
    assert draws["this_draw"] == 3 and draws["private"] == 2  # the teaching draw is counted, spends no private ε
    memo = bundle.read("documents/memo.txt").decode()
    assert "She joined" not in memo and ("She ⟦" in memo or "She" not in memo)  # her relation: a marked slot
    assert "--review review.json" in bundle.read("config.toml").decode()
    assert "mark_slots = true" in bundle.read("config.toml").decode()
    slots = [json.loads(line) for line in bundle.read("slots.jsonl").decode().splitlines()]
    for entry in slots:  # every mark lies around a ⟦…⟧ the text holds
        text = bundle.read(entry["file"]).decode()
        assert text.count("⟦") == len(entry["relguard_slots"]) == text.count("⟧")
    assert sum(len(e["relguard_slots"]) for e in slots) > 0
    assert dialogs == []
    assert outside == []
