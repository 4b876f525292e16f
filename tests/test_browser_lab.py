"""JupyterLab started as the README says, seen in headless Chromium: notebook 00 opens with its
stored outputs, plots and Chinese font, and its glossary link leads to the glossary.

The server runs on loopback with a random token and port, as ``scripts/open_lab.sh`` starts it
(``--no-browser``, plus ``--ip``, ``--port`` and the token for the test). When this interpreter is
the README's ``.venv`` the test runs ``open_lab.sh`` itself; from another environment (a developer's
shared venv) it runs the same ``jupyter lab`` command with the same options, which
``tests/test_launch.py`` pins. The browser may talk to that server only.
"""
from __future__ import annotations

import os
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
from tests.browser import ARTIFACTS, block_network, browser, fonts_used_for  # noqa: F401 (fixture)

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
    """
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


def test_notebook_00_in_jupyterlab_renders_its_outputs_and_its_glossary_link_resolves(lab, browser):
    base, token = lab
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    attempted = block_network(page, allowed=(base + "/", "data:", "blob:"))
    page.goto(f"{base}/lab/tree/{FIRST_NOTEBOOK}?token={token}")
    notebook = page.locator(".jp-NotebookPanel:visible .jp-Notebook")
    notebook.locator(".jp-MarkdownOutput h1").first.wait_for(timeout=60_000)

    # stored outputs render: text and tables at once, the first plot once it is scrolled to
    notebook.locator(".jp-OutputArea-output").first.wait_for(timeout=30_000)
    image = notebook.locator(".jp-RenderedImage img").first
    for _ in range(40):
        if image.count():
            break
        page.mouse.wheel(0, 700)
        page.wait_for_timeout(150)
    image.scroll_into_view_if_needed()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
    page.screenshot(path=str(ARTIFACTS / "lab_00_first_plot.png"))

    # Chinese drawn with the bundled font (custom.css), not a CJK font the machine may have
    assert page.evaluate(f"document.fonts.check('14px \"{FONT_FAMILY}\"', '评估全景图')")
    assert page.evaluate(f"""[...document.fonts].some(f => f.family.replaceAll('"', '') === "{FONT_FAMILY}"
                                                     && f.status === 'loaded')""")
    drawn = fonts_used_for(page, ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-MarkdownOutput h1")
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
    disabled = page.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).disabledExtensions")
    assert "@jupyterlab/apputils-extension:announcements" in disabled, disabled
    assert page.get_by_text("Jupyter news").count() == 0
    assert attempted == [], f"JupyterLab's page tried to load {attempted}"
    page.close()
