"""Every page of RelGuard Studio at a small window, as a screenshot and a list of what the window cuts.

Starts the app (``streamlit run app.py``) on the sample corpus, opens each page in Debian's chromium at
1024×768 (``--size`` for another), saves a screenshot per page under ``--out`` and prints, per page, the texts
of elements whose content is wider than their box (``scrollWidth > clientWidth`` under hidden overflow or an
ellipsis: a metric, a tab, a label cut) and of controls that stick out of the window on the right. Read the
screenshots too: a cut a reader sees but the page reports as fitting is still a cut::

    .venv/bin/python bench/app_screens.py --out out/screens
"""

from __future__ import annotations

import argparse
from pathlib import Path

from app_slider_latency import CHROMIUM, PAGES, WAIT, free_port, settle, start_app
from playwright.sync_api import expect, sync_playwright

#: Visible elements whose text is wider than their box, and controls past the window's right edge.
CUT = """() => {
  const seen = [];
  for (const e of document.querySelectorAll('[data-testid="stMain"] *')) {
    if (!e.offsetParent || !e.innerText) continue;
    const style = getComputedStyle(e);
    const clipped = e.scrollWidth > e.clientWidth + 1
      && (['hidden', 'clip'].includes(style.overflowX) || style.textOverflow === 'ellipsis');
    const outside = ['BUTTON', 'INPUT', 'LABEL'].includes(e.tagName)
      && e.getBoundingClientRect().right > window.innerWidth + 1;
    if (clipped || outside) seen.push(e.innerText.slice(0, 60));
  }
  return [...new Set(seen)];
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="out/screens")
    parser.add_argument("--size", default="1024x768", help="window width x height")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    port = free_port()
    server = start_app(port)
    cuts: dict[str, list[str]] = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(f"http://127.0.0.1:{port}")
            page.get_by_role("button", name="Load the sample corpus").click()
            expect(page.get_by_text("6 documents ·", exact=False).first).to_be_visible(timeout=WAIT)
            settle(page)
            page.screenshot(path=str(out / "0-documents.png"), full_page=True)
            cuts["Documents"] = page.evaluate(CUT)
            nav = page.get_by_test_id("stSidebarNav")
            for number, name in enumerate(PAGES, start=1):
                nav.get_by_text(name, exact=True).click()
                settle(page)
                page.wait_for_timeout(2000)  # charts draw after the script settles
                slug = name.lower().replace(" & ", "-").replace(" ", "-")
                page.screenshot(path=str(out / f"{number}-{slug}.png"), full_page=True)
                cuts[name] = page.evaluate(CUT)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    for name, found in cuts.items():
        print(f"{name:20} {'nothing cut' if not found else 'cut: ' + ' | '.join(found)}")
    print(f"screenshots at {width}×{height}: {out}")


if __name__ == "__main__":
    main()
