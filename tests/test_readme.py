"""The README is the landing page: its two commands, its links and the generated table's markers.

Its Chinese twin README.zh-CN.md (issue 31) is checked here too: every link resolves (to the Chinese page
where there is one), it follows README.md section by section, and keeps every command of README.md's code
blocks. Its notebook table is scripts/zh_edition.py's, checked by that script's --check."""
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


# --------------------------------------------------------------------------- README.zh-CN.md
README_ZH = (ROOT / "README.zh-CN.md").read_text(encoding="utf-8")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation (full-width too) dropped, spaces as '-'."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def headings(markdown: str) -> list[tuple[int, str]]:
    """(level, text) of each heading outside code blocks."""
    return [(len(hashes), text) for hashes, text in re.findall(r"^(#{1,6}) (.+)$", FENCE.sub("", markdown), re.M)]


def test_the_two_readmes_link_each_other_at_the_top():
    assert "(README.zh-CN.md)" in README.split("\n## ")[0], "README.md links README.zh-CN.md before its first section"
    assert "(README.md)" in README_ZH.split("\n## ")[0], "README.zh-CN.md links README.md before its first section"


def test_every_link_of_the_chinese_readme_resolves_to_the_chinese_page_where_there_is_one():
    anchors = {github_anchor(text) for _, text in headings(README_ZH)}
    for target in re.findall(r"\]\(([^)\s]+)\)", FENCE.sub("", README_ZH)):
        if target.startswith(("http://", "https://")):
            continue
        path, _, fragment = unquote(target).partition("#")
        if not path:
            assert fragment in anchors, f"no heading for #{fragment}"
            continue
        page = ROOT / path
        assert page.exists(), f"broken link {target}"
        if fragment and page.suffix == ".md":
            theirs = {github_anchor(text) for _, text in headings(page.read_text(encoding="utf-8"))}
            assert fragment in theirs, f"{path} has no heading for #{fragment}"
        chinese = {"notebooks": ROOT / "notebooks" / "zh" / page.name,
                   "docs": page.with_name(f"{page.stem}.zh-CN.md")}.get(page.parent.name)
        if path != "README.md" and chinese is not None and page.parent != ROOT / "notebooks" / "zh":
            assert not chinese.exists(), f"{target} has a Chinese page: link {chinese.relative_to(ROOT)}"


def test_the_chinese_notebook_table_sits_between_its_markers_and_links_every_chinese_notebook():
    assert README_ZH.count(BEGIN) == 1 and README_ZH.count(END) == 1
    assert f"\n{BEGIN}\n" in README_ZH and f"\n{END}\n" in README_ZH  # whole lines, for the generator
    table = README_ZH[README_ZH.index(BEGIN):README_ZH.index(END)]
    for notebook in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        chinese = ROOT / "notebooks" / "zh" / notebook.name
        link = f"(notebooks/zh/{notebook.name})" if chinese.exists() else f"(notebooks/{notebook.name})"
        assert link in table, f"{notebook.name} is missing from the Chinese table"


def test_the_chinese_readme_follows_readme_section_by_section():
    english, chinese = headings(README), headings(README_ZH)
    assert [level for level, _ in chinese] == [level for level, _ in english], (
        "README.zh-CN.md's headings must follow README.md's, level for level:\n"
        + "\n".join(f"{'#' * a} {x}  |  {'#' * b} {y}" for (a, x), (b, y) in zip(english, chinese)))


def _code_lines(markdown: str) -> list[tuple[str, str]]:
    """(language, line) of every fenced code block, comments taken off bash and python lines."""
    lines = []
    for language, body in FENCE.findall(markdown):
        for line in body.splitlines():
            if language in ("bash", "python"):
                line = re.sub(r"(^|\s+)#\s.*$", "", line)
            if line.strip():
                lines.append((language, line.strip()))
    return lines


def test_the_chinese_readme_keeps_every_command_and_code_line():
    """Commands, code and printed output stay exact; comments and the package tree's notes are translated."""
    chinese = {line for _, line in _code_lines(README_ZH)}
    for language, line in _code_lines(README):
        if language:  # the package tree (no language) is translated: its left column is checked below
            assert any(line in other for other in chinese), f"README.zh-CN.md lacks the {language} line {line!r}"
    left = [[row[:28].strip() for row in body.splitlines() if row[:28].strip()]
            for language, body in FENCE.findall(README) + FENCE.findall(README_ZH) if not language]
    assert left[0] == left[-1], "the package tree's modules differ between README.md and README.zh-CN.md"


def test_the_chinese_readme_opens_the_chinese_edition():
    assert "bash scripts/open_lab.sh --zh" in README_ZH and "bash scripts/run_tests.sh" in README_ZH
    assert "scripts/export_handouts.py --zh" in README_ZH and "RAGMETRICS_LANG=zh" in README_ZH
