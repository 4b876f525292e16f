"""JupyterLab started as the README says, seen in headless Chromium: notebook 00 opens with its
stored outputs, plots and Chinese font, and its glossary link leads to the glossary; in notebooks 00,
09 and 14, open side by side, every Chinese character is drawn with the bundled font, and a closed
interview card leaves a gap before the next question.

The server runs on loopback with a random token and port, as ``scripts/open_lab.sh`` starts it
(``--no-browser``, plus ``--ip``, ``--port`` and the token for the test). When this interpreter is
the README's ``.venv`` the test runs ``open_lab.sh`` itself; from another environment (a developer's
shared venv) it runs the same ``jupyter lab`` command with the same options, which
``tests/test_launch.py`` pins. The browser may talk to that server only.
"""
from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from ragmetrics_lite.course.plotting import FONT_FAMILY, FONT_PATH
from tests.browser import (ARTIFACTS, CHINESE, CHINESE_CHARACTER, block_network, browser,  # noqa: F401
                           chinese_font_survey, devtools, drawn_without, fonts_used_for)
from tests.helpers import load_script

ROOT = Path(__file__).resolve().parents[1]
FIRST_NOTEBOOK = "notebooks/00_rag_evaluation_map.ipynb"
START_TIMEOUT = 120  # seconds; JupyterLab starts in 4-16 s on a busy 2-core machine


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def lab_command(port: int, token: str, state: Path) -> tuple[list[str], dict[str, str]]:
    """open_lab.sh when this is the README's .venv, else the command it runs, with the same options.

    The layout and settings JupyterLab saves go to ``state``, not to the learner's jupyter_config/lab/.
    There, notebook windowing is off (``windowingMode: none``): every cell is on the page, where by
    default the cells out of view are left for the browser to skip, and a survey could not see them.
    """
    tracker = state / "user-settings" / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings"
    tracker.parent.mkdir(parents=True, exist_ok=True)
    tracker.write_text(json.dumps({"windowingMode": "none"}), encoding="utf-8")
    extra = ["--no-browser", "--ip=127.0.0.1", f"--port={port}", "--ServerApp.port_retries=0",
             f"--IdentityProvider.token={token}", f"--LabApp.workspaces_dir={state / 'workspaces'}",
             f"--LabApp.user_settings_dir={state / 'user-settings'}"]
    environment = dict(os.environ, JUPYTER_CONFIG_DIR=str(ROOT / "jupyter_config"))
    if Path(sys.prefix).resolve() == (ROOT / ".venv").resolve() and shutil.which("bash"):
        return ["bash", "scripts/open_lab.sh", *extra], environment
    shutil.copy(FONT_PATH, ROOT / "jupyter_config" / "custom" / FONT_PATH.name)  # as open_lab.sh does
    options = [f"--ServerApp.root_dir={ROOT}", f"--LabApp.default_url=/lab/tree/{FIRST_NOTEBOOK}", "--custom-css"]
    if os.name != "nt" and os.geteuid() == 0:
        options.append("--allow-root")
    return [sys.executable, "-m", "jupyter", "lab", *options, *extra], environment


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """(base URL, token) of a JupyterLab started for this module, stopped afterwards."""
    port, token = free_port(), secrets.token_hex(16)
    state = tmp_path_factory.mktemp("lab")
    command, environment = lab_command(port, token, state)
    log = state / "jupyterlab.log"
    with open(log, "w") as output:
        server = subprocess.Popen(command, cwd=ROOT, env=environment, stdout=output, stderr=subprocess.STDOUT,
                                  start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if server.poll() is not None:
                pytest.fail(f"JupyterLab stopped with status {server.returncode}:\n{log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=5) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"JupyterLab did not answer within {START_TIMEOUT} s:\n{log.read_text()[-3000:]}")
            time.sleep(0.5)
        with pytest.raises(urllib.error.HTTPError):  # the token is required
            urllib.request.urlopen(f"{base}/api/contents/notebooks", timeout=5)
        yield base, token
    finally:
        os.killpg(server.pid, 15)  # its own session: the server and the kernels it started
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, 9)
            server.wait()


# Three notebooks with Chinese of every kind: 00's tables (中文 headers), 09's tokenised Chinese in code,
# outputs and tables, 14's answers and statements in tables; each has interview cards.
# three notebooks, one of them from the Chinese edition (notebooks/zh/), whose prose is all Chinese
SURVEYED = (FIRST_NOTEBOOK, "notebooks/zh/09_rouge_n.ipynb", "notebooks/14_answer_relevancy.ipynb")
MAIN_AREA = "#jp-main-dock-panel"
# True once nothing in the main area has changed for `quiet` ms (false if it still changes after `limit` ms):
# markdown, formulas and outputs render after their cells are on the page, and the survey marks elements
# in one step and finds them again in the next.
SETTLED_JS = """([selector, quiet, limit]) => new Promise(resolve => {
    const observer = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, quiet, true); });
    let timer = setTimeout(done, quiet, true);
    const deadline = setTimeout(done, limit, false);
    function done(settled) { observer.disconnect(); clearTimeout(timer); clearTimeout(deadline); resolve(settled); }
    observer.observe(document.querySelector(selector), {childList: true, subtree: true, characterData: true});
})"""


def test_custom_css_declares_the_chinese_font_as_the_handouts_do():
    """For Chinese only (the handouts' unicode-range) and first in each of JupyterLab's font lists, so that
    Latin text keeps JupyterLab's fonts."""
    handouts = load_script(ROOT / "scripts" / "export_handouts.py")
    css = (ROOT / "jupyter_config" / "custom" / "custom.css").read_text(encoding="utf-8")
    assert f"unicode-range: {handouts.CJK_UNICODE_RANGE};" in css
    stacks = re.findall(r"--jp-[a-z-]*font-family[a-z-]*:\s*([^;]+);", css)
    assert len(stacks) == 4 and all(stack.startswith(f'"{FONT_FAMILY}",') for stack in stacks), stacks


def side_by_side(paths: tuple[str, ...]) -> dict:
    """A JupyterLab workspace (as its REST API takes it) with the notebooks ``paths`` open side by side,
    sidebars closed, and no kernel started for them (``kernelPreference``, which the command that
    reopens them, ``docmanager:open``, takes): the tests read stored outputs only."""
    widgets = [f"notebook:{path}" for path in paths]
    dock = {"type": "split-area", "orientation": "horizontal", "sizes": [1 / len(paths)] * len(paths),
            "children": [{"type": "tab-area", "currentIndex": 0, "widgets": [widget]} for widget in widgets]}
    layout = {"main": {"dock": dock, "current": widgets[0]},
              "left": {"collapsed": True, "widgets": []}, "right": {"collapsed": True, "widgets": []}}
    no_kernel = {"shouldStart": False, "canStart": False}
    notebooks = {widget: {"data": {"path": path, "factory": "Notebook", "kernelPreference": no_kernel}}
                 for widget, path in zip(widgets, paths)}
    return {"data": {"layout-restorer:data": layout, **notebooks}, "metadata": {"id": "default"}}


@pytest.fixture(scope="module")
def lab_page(lab, browser):
    """(page, DevTools session, URLs the page tried to load elsewhere): JupyterLab opened at the
    README's address (notebook 00) in a fresh browser, its workspace holding the ``SURVEYED`` notebooks
    side by side, so that all three are laid out while the bundled font loads; every cell rendered."""
    base, token = lab
    workspace = json.dumps(side_by_side(SURVEYED)).encode()
    request = urllib.request.Request(f"{base}/lab/api/workspaces/default?token={token}", data=workspace,
                                     method="PUT", headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=30).close()
    cells = sum(len(json.loads((ROOT / path).read_text(encoding="utf-8"))["cells"]) for path in SURVEYED)
    page = browser.new_page(viewport={"width": 1800, "height": 1000})
    attempted = block_network(page, allowed=(base + "/", "data:", "blob:"))
    session = devtools(page)
    page.goto(f"{base}/lab/tree/{FIRST_NOTEBOOK}?token={token}")
    page.wait_for_function(f"""cells => document.querySelectorAll('{MAIN_AREA} .jp-Cell').length === cells
        && !document.querySelector('{MAIN_AREA} .jp-MarkdownCell:not(.jp-mod-rendered)')""", arg=cells,
                           timeout=60_000)
    assert page.evaluate(SETTLED_JS, [MAIN_AREA, 500, 30_000]), "the notebooks were still changing after 30 s"
    yield page, session, attempted
    page.close()


def notebook_panel(page, path: str):
    """The locator of the notebook ``path``'s panel (Lumino gives a tab the id of its widget)."""
    return page.locator("#" + page.locator(".lm-TabBar-tab", has_text=Path(path).name).get_attribute("data-id"))


def test_every_chinese_character_in_three_notebooks_one_chinese_is_drawn_with_the_bundled_font(lab_page):
    """Every element holding Chinese in the three notebooks drew at least as many glyphs with the bundled
    font as it has Chinese characters, so none is a fallback's .notdef box; then again with the interview
    cards opened, for the answers. A closed card leaves a gap before the next question."""
    page, session, _ = lab_page
    assert page.locator(f"{MAIN_AREA} .jp-NotebookPanel:visible").count() == len(SURVEYED)
    survey = chinese_font_survey(page, session, MAIN_AREA)  # lab_00_first_plot.png shows the three
    gaps = page.evaluate(f"""[...document.querySelectorAll('{MAIN_AREA} .jp-RenderedMarkdown details')]
        .filter(card => card.nextElementSibling)
        .map(card => [card.nextElementSibling.getBoundingClientRect().top - card.getBoundingClientRect().bottom,
                      parseFloat(getComputedStyle(card).fontSize)])""")
    cards = f"document.querySelectorAll('{MAIN_AREA} details').forEach(card => {{ card.open = %s; }})"
    page.evaluate(cards % "true")
    survey += chinese_font_survey(page, session, MAIN_AREA, survey_pass=2)
    page.evaluate(cards % "false")

    not_drawn = drawn_without(FONT_FAMILY, survey)
    assert not not_drawn, "Chinese not drawn with the bundled font:\n" + "\n".join(not_drawn)
    # every cell was drawn, not only those in view: the editors show all the Chinese of the code
    in_editors = page.evaluate(f"""pattern => [...document.querySelectorAll('{MAIN_AREA} .jp-CodeCell .cm-content')]
        .filter(editor => editor.checkVisibility())
        .reduce((sum, editor) => sum + (editor.textContent.match(new RegExp(pattern, "gu")) || []).length, 0)""",
                               CHINESE)
    in_code = sum(len(CHINESE_CHARACTER.findall("".join(cell["source"])))
                  for path in SURVEYED for cell in json.loads((ROOT / path).read_text(encoding="utf-8"))["cells"]
                  if cell["cell_type"] == "code" and not cell["metadata"].get("jupyter", {}).get("source_hidden"))
    assert in_editors == in_code > 0, f"{in_code} Chinese characters in the shown code, {in_editors} in the editors"
    assert sum(element["own"] for element in survey) > in_code  # and the markdown and outputs
    assert gaps and all(gap >= font_size / 2 for gap, font_size in gaps), f"card gaps (px, font size): {gaps}"


def test_notebook_00_in_jupyterlab_renders_its_outputs_and_its_glossary_link_resolves(lab, lab_page):
    base, _ = lab
    page, _, attempted = lab_page
    notebook = notebook_panel(page, FIRST_NOTEBOOK)
    assert page.locator(".lm-TabBar-tab.jp-mod-current", has_text=Path(FIRST_NOTEBOOK).name).count() == 1

    # stored outputs render: text, tables and plots
    image = notebook.locator(".jp-RenderedImage img").first
    image.scroll_into_view_if_needed()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
    page.screenshot(path=str(ARTIFACTS / "lab_00_first_plot.png"))

    # Chinese drawn with the bundled font (custom.css), not a CJK font the machine may have
    assert page.evaluate(f"document.fonts.check('14px \"{FONT_FAMILY}\"', '评估全景图')")
    assert page.evaluate(f"""[...document.fonts].some(f => f.family.replaceAll('"', '') === "{FONT_FAMILY}"
                                                     && f.status === 'loaded')""")
    drawn = fonts_used_for(page, f"#{notebook.get_attribute('id')} .jp-MarkdownOutput h1")
    assert drawn.get(FONT_FAMILY, 0) >= 5, f"notebook 00's title was drawn with {drawn}"

    # the glossary link: rendered in the notebook, opens docs/glossary.md
    link = notebook.locator("a[href*='glossary.md']").first
    link.scroll_into_view_if_needed()
    href = link.get_attribute("href")
    assert urllib.parse.urlsplit(href).path == "/files/docs/glossary.md", href  # resolved from ../docs/
    served = page.request.get(href)
    assert served.status == 200 and "# Glossary 术语表" in served.text()
    link.click()
    glossary = page.locator(".jp-MainAreaWidget:visible", has_text="术语表")
    glossary.locator("text=retrieval-augmented generation").first.wait_for(timeout=30_000)
    assert page.locator(".lm-TabBar-tab.jp-mod-current", has_text="glossary.md").count() == 1
    page.screenshot(path=str(ARTIFACTS / "lab_00_glossary.png"))
    # no "Would you like to get notified about official Jupyter news?" over a projected notebook:
    # jupyter_config/labconfig/page_config.json disables the plugin that asks (and fetches news)
    config = page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent)")
    disabled = config["disabledExtensions"]
    assert "@jupyterlab/apputils-extension:announcements" in disabled, disabled
    assert page.get_by_text("Jupyter news").count() == 0
    assert attempted == [], f"JupyterLab's page tried to load {attempted}"
