"""The README is the landing page: its two commands, its links and the generated table's markers."""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BEGIN, END = "<!-- notebook-table:begin -->", "<!-- notebook-table:end -->"


def test_the_two_commands_are_the_scripts_ci_runs():
    assert "bash scripts/open_lab.sh" in README and "bash scripts/run_tests.sh" in README
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = re.search(r"^exec (bash scripts/run_tests\.sh(?: --with-browser)?)\s*$", ci, re.M)
    assert command and command[1] in README, "CI must run the README's test command"


def test_the_notebook_table_sits_between_its_markers_and_links_every_notebook():
    assert README.count(BEGIN) == 1 and README.count(END) == 1
    assert f"\n{BEGIN}\n" in README and f"\n{END}\n" in README  # whole lines, for the generator
    table = README[README.index(BEGIN):README.index(END)]
    for notebook in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        assert f"(notebooks/{notebook.name})" in table, f"{notebook.name} is missing from the table"


def test_every_relative_link_and_anchor_resolves():
    headings = {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
                for h in re.findall(r"^#{1,6} (.+)$", README, re.M)}
    for target in re.findall(r"\]\(([^)\s]+)\)", README):
        if target.startswith(("http://", "https://")):
            continue
        if target.startswith("#"):
            assert target[1:] in headings, f"no heading for {target}"
        else:
            assert (ROOT / unquote(target.split("#")[0])).exists(), f"broken link {target}"


def test_it_has_the_sections_a_newcomer_looks_for():
    for heading in ("## Quick start", "## The notebooks", "## Three ways through the suite",
                    "## Opening the notebooks another way", "## Platform notes",
                    "## The helper package", "## Tests and benchmark", "## Speed",
                    "## Errata: where the source notes slip"):
        assert f"\n{heading}" in README, heading
    for path in ("The full course", "The interview sprint", "The one-lesson classroom"):
        assert f"**{path}**" in README
    for platform in ("**Windows**", "**macOS**", "**ARM Linux**"):
        assert platform in README
