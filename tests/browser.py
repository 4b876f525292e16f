"""Headless Chromium for the browser tests, driven by Playwright.

Playwright's own browser download cannot work on the suite's machines, so the tests drive the
system's Chromium (Debian's ``chromium``; ``bash scripts/run_tests.sh --with-browser`` installs it
where it can) through ``executable_path``. ``RAGMETRICS_CHROMIUM=/path/to/chrome`` picks another.
Without a browser (or without Playwright) the browser tests skip, saying why; with ``CI=true`` they
fail instead, so CI never passes without having looked.

``chinese_font_survey`` asks Chromium which fonts drew every element holding Chinese, so a test can
tell the bundled font from a fallback's .notdef boxes.

Screenshots go to ``test-artifacts/`` (ignored by git): open them after a run.
"""
from __future__ import annotations

import asyncio
import os
import re
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


# What "a Chinese character" means to the survey: CJK radicals to unified ideographs (CJK punctuation 、。
# among them), compatibility ideographs, full-width and half-width forms (，（）：), extensions B to G: what
# the bundled font's @font-face declares (its unicode-range). As a JavaScript character class ("u" flag)
# for the page, and as a Python pattern.
CHINESE_RANGES = [(0x2E80, 0x9FFF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF), (0x20000, 0x3134F)]
CHINESE = "[" + "".join(f"\\u{{{low:X}}}-\\u{{{high:X}}}" for low, high in CHINESE_RANGES) + "]"
CHINESE_CHARACTER = re.compile("[" + "".join(f"{chr(low)}-{chr(high)}" for low, high in CHINESE_RANGES) + "]")
SURVEYED = "data-chinese-survey"  # the attribute the survey marks elements with, the pass's number its value

# In the page, once the fonts have loaded: mark every element that holds drawn Chinese text of its own and
# was not surveyed before, and return, in document order, its tag, its text, its own Chinese characters and
# how many CSS.getPlatformFontsForNode counts for it: Chromium counts the glyphs of the element's own text
# and of its children's (descendants_depth 2 in inspector_css_agent.cc: the node, then its children), so
# each Chinese text node is credited to its parent element and the one above. checkVisibility() is false
# for text that is not drawn: in <head>, in a hidden panel, in a closed <details> (Chromium skips those too).
SURVEY_JS = """async ([rootSelector, pattern, attribute, pass]) => {
    const root = document.querySelector(rootSelector);
    if (!root) return null;
    root.getBoundingClientRect();  // lay out, so that every font the page needs has started loading
    await document.fonts.ready;
    const chinese = new RegExp(pattern, "gu");
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const own = new Map();
    const counted = new Map();
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        const count = (text.data.match(chinese) || []).length;
        const parent = text.parentElement;
        if (!count || !parent.checkVisibility()) continue;
        if (!parent.hasAttribute(attribute)) parent.setAttribute(attribute, pass);
        own.set(parent, (own.get(parent) || 0) + count);
        counted.set(parent, (counted.get(parent) || 0) + count);
        if (parent.parentElement) counted.set(parent.parentElement, (counted.get(parent.parentElement) || 0) + count);
    }
    // querySelectorAll's order, which DOM.querySelectorAll's node ids follow
    return [...root.querySelectorAll(`[${attribute}="${pass}"]`)].map(element => ({
        tag: element.tagName.toLowerCase(), text: element.textContent.trim().slice(0, 80),
        own: own.get(element), chinese: counted.get(element)}));
}"""


def send_all(session, method: str, params: list[dict]) -> list[dict]:
    """``session.send(method, each)`` for each of ``params``, all in flight at once.

    Playwright's synchronous ``send`` waits for each answer before the next command goes out, about
    2 ms of CPU a round trip; the asynchronous core its synchronous objects wrap (``_impl_obj``, run by
    ``_sync``: private, of the Playwright that requirements.txt pins) takes them all at once, for a third
    of the cost. Another Playwright, whose core differs, gets them one by one.
    """
    try:
        core, run = session._impl_obj, session._sync

        async def at_once():
            return await asyncio.gather(*(core.send(method, each, None) for each in params))

        return run(at_once())
    except (AttributeError, TypeError):
        return [session.send(method, each) for each in params]


def devtools(page, cache: bool = True):
    """A DevTools (CDP) session on ``page`` with the DOM and CSS domains on, for ``chinese_font_survey``.

    ``cache=False`` turns the browser's caches off for the page, as DevTools' "Disable cache" does:
    every page then loads its fonts as a reader's browser does the first time. With the cache on, the
    pages after the first that embed the same font bytes get the font decoded already, and a
    font-loading race that draws Chinese as boxes on a first load is never seen.
    """
    session = page.context.new_cdp_session(page)
    session.send("DOM.enable")
    session.send("CSS.enable")
    if not cache:
        session.send("Network.enable")
        session.send("Network.setCacheDisabled", {"cacheDisabled": True})
    return session


def chinese_font_survey(page, session, root_selector: str = "body", survey_pass: int = 1) -> list[dict]:
    """Every element under ``root_selector`` with drawn Chinese text of its own (not surveyed by an
    earlier pass), as ``{"tag", "text", "own", "chinese", "fonts"}``: ``own`` the Chinese characters of
    its own text, ``chinese`` those Chromium's glyph count covers (its own and its children's), ``fonts``
    {font family: glyph count} it drew them with (CSS.getPlatformFontsForNode), so the bundled font is
    told from a fallback's .notdef boxes.
    ``session`` comes from ``devtools(page)``.

    One pass in the page finds and marks the elements (after ``document.fonts.ready``), one
    ``DOM.querySelectorAll`` gives their node ids, then one call per element, all sent at once
    (``send_all``): no ``DOM.getDocument`` of the whole tree, which would send every inline image and
    font over the DevTools socket.
    """
    elements = page.evaluate(SURVEY_JS, [root_selector, CHINESE, SURVEYED, str(survey_pass)])
    assert elements is not None, f"nothing matches {root_selector!r}"
    document = session.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    selector = f'[{SURVEYED}="{survey_pass}"]'
    nodes = session.send("DOM.querySelectorAll", {"nodeId": document, "selector": selector})["nodeIds"]
    assert len(nodes) == len(elements), f"{len(elements)} elements marked, DevTools found {len(nodes)}"
    answers = send_all(session, "CSS.getPlatformFontsForNode", [{"nodeId": node} for node in nodes])
    for element, answer in zip(elements, answers):
        element["fonts"] = {font["familyName"]: font["glyphCount"] for font in answer["fonts"]}
    return elements


def drawn_without(family: str, survey: list[dict]) -> list[str]:
    """The surveyed elements whose Chinese ``family`` did not draw in full, one line each."""
    return [f"<{element['tag']}> {element['text']!r}: {element['chinese']} Chinese, drawn with {element['fonts']}"
            for element in survey if element["fonts"].get(family, 0) < element["chinese"]]
