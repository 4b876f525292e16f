"""Headless Chromium for the browser tests, driven by Playwright.

Playwright's own browser download cannot work on the suite's machines, so the tests drive the
system's Chromium (Debian's ``chromium``; ``bash scripts/run_tests.sh --with-browser`` installs it
where it can) through ``executable_path``. ``RAGMETRICS_CHROMIUM=/path/to/chrome`` picks another.
Without a browser (or without Playwright) the browser tests skip, saying why; with ``CI=true`` they
fail instead, so CI never passes without having looked.

Screenshots go to ``test-artifacts/`` (ignored by git): open them after a run.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium() -> str | None:
    """The browser to drive: $RAGMETRICS_CHROMIUM, else the first of CANDIDATES on PATH."""
    chosen = os.environ.get("RAGMETRICS_CHROMIUM")
    if chosen:
        return chosen if Path(chosen).is_file() else None
    return next((found for name in CANDIDATES if (found := shutil.which(name))), None)


def unavailable(reason: str):
    """Skip, or under CI=true fail: a CI run must not pass without its browser tests."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true but {reason}; run `bash scripts/run_tests.sh --with-browser` as root")
    pytest.skip(f"{reason}; `bash scripts/run_tests.sh --with-browser` installs Chromium where it can")


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium, shared by a module's tests."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("Playwright is not installed")
    executable = find_chromium()
    if executable is None:
        unavailable("no Chromium found (looked for $RAGMETRICS_CHROMIUM, " + ", ".join(CANDIDATES) + ")")
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield launched
        launched.close()


def block_network(page, allowed=("file:", "data:")) -> list[str]:
    """Abort every request whose URL does not start with one of ``allowed``; returns the list of
    aborted URLs (filled as the page runs), so a test can assert that none was even attempted."""
    attempted: list[str] = []

    def handle(route):
        url = route.request.url
        if url.startswith(allowed):
            route.continue_()
        else:
            attempted.append(url)
            route.abort()

    page.route("**/*", handle)
    return attempted


def fonts_used_for(page, selector: str) -> dict[str, int]:
    """{font family: glyph count} Chromium really drew the text of ``selector`` with (DevTools'
    CSS.getPlatformFontsForNode): tells the embedded font from a CJK font installed on the machine."""
    session = page.context.new_cdp_session(page)
    session.send("DOM.enable")
    session.send("CSS.enable")
    # depth 0: querySelector searches the whole document anyway; depth -1 sent every node (a
    # handout's megabyte of inline images and fonts) over the DevTools socket, ~0.3 s a call
    root = session.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node = session.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    assert node, f"nothing matches {selector!r}"
    fonts = session.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    session.detach()
    return {font["familyName"]: font["glyphCount"] for font in fonts}
