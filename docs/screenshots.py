"""Screenshots of the page of ``ndoku serve`` for the docs, made with the browser the tests
drive (Debian's chromium, headless, by Playwright): the empty page, a Samurai solved, a
hint, a 9×9 solved by the Metropolis chain with its energy plotted, and a hot chain
watched as it runs. Run from the
repository root: ``python docs/screenshots.py``; it writes ``examples/figures/page_*.png``
(the docs show them as ``assets/page_*.png``).

Needs the test extra (Playwright, Starlette, uvicorn) and /usr/bin/chromium.
"""

from __future__ import annotations

import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

from ndoku.web.server import Listening

ROOT = Path(__file__).resolve().parent.parent
FIGURES = ROOT / "examples" / "figures"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ARGS += ["--disable-component-update", "--disable-sync", "--no-first-run"]
SIZE = {"width": 1280, "height": 900}
#: A newspaper 9×9 of the test data, for the chain; a hardest one, for the chain watched hot.
EASY = (ROOT / "tests" / "data" / "sudoku9" / "norvig_easy50.txt").read_text().split()[0]
HARDEST = (ROOT / "tests" / "data" / "sudoku9" / "forum_hardest_1106_first40.txt").read_text()
HARDEST = HARDEST.split()[0].split(",")[0]


def main() -> None:
    listening = Listening("127.0.0.1", 0)
    threading.Thread(target=listening.serve, daemon=True).start()
    samurai = (ROOT / "examples" / "samurai.txt").read_text()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_page(viewport=SIZE)
        page.set_default_timeout(60_000)
        page.goto(listening.url)
        page.wait_for_selector("body[data-ready=yes]")
        page.screenshot(path=FIGURES / "page_empty.png")
        page.fill("[data-test=input]", samurai)
        page.click("[data-test=solve]")
        page.wait_for_selector("[data-test=result]:has-text('solved')")
        page.screenshot(path=FIGURES / "page_samurai_solved.png")
        page.fill("[data-test=input]", samurai)
        page.click("[data-test=hint]")
        page.wait_for_selector("[data-test=result]:has-text('Hidden single')")
        page.screenshot(path=FIGURES / "page_hint.png")
        page.fill("[data-test=input]", EASY)
        page.select_option("[data-test=method]", "metropolis")
        page.click("[data-test=solve]")
        page.wait_for_selector("[data-test=result]:has-text('solved by metropolis')")
        page.screenshot(path=FIGURES / "page_chain.png")
        page.fill("[data-test=input]", HARDEST)
        page.fill("[data-test=temperature]", "2")
        page.click("[data-test=chain]")
        page.wait_for_function(
            "() => document.querySelector('[data-test=result]').textContent.startsWith('watch')"
            " && Number(document.querySelector('[data-test=trace] polyline')"
            "?.getAttribute('data-points') || 0) >= 25"
        )
        page.screenshot(path=FIGURES / "page_watched.png")
        page.click("[data-test=stop]")
        browser.close()
    listening.stop()


if __name__ == "__main__":
    main()
