"""Reading time (scripts/reading_time.py): every notebook's main path fits the 20-minute budget,
the README's notebook table is up to date, and the counting does what DEVELOPERS.md says."""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from tests.helpers import load_script

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "reading_time.py"
NBHYGIENE = Path("/work/shared/tools/nbhygiene.py")  # the project's checker, on the maintainers' machine only


reading_time = load_script(SCRIPT, "reading_time")
NOTEBOOKS = reading_time.notebooks(ROOT / "notebooks")


def md(text: str) -> dict:
    return nbformat.v4.new_markdown_cell(text)


def code(text: str, outputs: list | None = None) -> dict:
    cell = nbformat.v4.new_code_cell(text)
    cell.outputs = outputs or []
    return cell


def write(folder: Path, name: str, cells: list[dict]) -> Path:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = cells
    path = folder / name
    nbformat.write(notebook, path)
    return path


# --- the suite's notebooks -------------------------------------------------------------------

def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 12


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_main_path_reads_in_at_most_20_minutes(path):
    """20 minutes; the capstone (18) 40, as its issue allows."""
    main = reading_time.reading_time(path).main
    assert main.minutes <= reading_time.budget_minutes(path), (
        f"{path.name}: main path reads in {main.minutes:.1f} min ({main.words} words, {main.hanzi} "
        f"Chinese characters, {main.code_lines} code lines): move checks and detail after a "
        "'## Going further' heading, after the exercise")


def test_readme_table_is_up_to_date():
    done = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr + "run: python scripts/reading_time.py"


def test_readme_table_lists_every_notebook_with_both_times():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index(reading_time.BEGIN):readme.index(reading_time.END)]
    for path in NOTEBOOKS:
        time = reading_time.reading_time(path)
        row = next(line for line in table.splitlines() if f"(notebooks/{path.name})" in line)
        assert row.endswith(f"| {time.main.minutes:.0f} min | {time.total.minutes:.0f} min |"), row


@pytest.mark.skipif(not NBHYGIENE.exists(), reason="the project's nbhygiene checker is not on this machine")
def test_counts_as_the_hygiene_checker_does(tmp_path):
    """Same formula, same regexes: the checker and this script never disagree on a main path."""
    nbhygiene = load_script(NBHYGIENE, "nbhygiene")
    synthetic = [synthetic_notebook(tmp_path)]
    for path in NOTEBOOKS + synthetic:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        time = reading_time.reading_time(path)
        assert time.total.minutes == pytest.approx(nbhygiene.minutes(cells), abs=1e-9), path.name
        main = cells
        for i, cell in enumerate(cells):
            if cell["cell_type"] == "markdown" and nbhygiene.FURTHER.search("".join(cell["source"])):
                main = cells[:i]
                break
        assert time.main.minutes == pytest.approx(nbhygiene.minutes(main), abs=1e-9), path.name
    assert reading_time.GOING_FURTHER.pattern == nbhygiene.FURTHER.pattern
    assert reading_time.BUDGET_MINUTES == nbhygiene.BUDGET_MINUTES


# --- the counting, on small synthetic notebooks ------------------------------------------------

def synthetic_notebook(folder: Path) -> Path:
    return write(folder, "98_synthetic.ipynb", [
        md("# Recall@K · 召回率@K\n\nIt's a well-known metric, isn't it?"),  # Recall K K It's a well-known metric isn't it; 召回率
        code("k = 5\n\n   \n# a comment counts\nprint(k)  # 中文 in code is not counted",
             outputs=[nbformat.v4.new_output("stream", name="stdout", text="5 " * 500)]),  # 3 lines
        md("**Q1. 区别？**\n\n<details><summary>Answer · 答案</summary>\n\n中文：召回率。\n\n"
           "English: recall counts.\n\n</details>"),  # Q details summary Answer summary English recall counts details; 区别 答案 中文 召回率
        md("## Going further (optional)\n\nChecking loops live here."),  # 7 words
        code("for seed in range(300):\n    pass"),  # 2 lines
    ])


def test_counts_words_hanzi_and_code_lines(tmp_path):
    time = reading_time.reading_time(synthetic_notebook(tmp_path))
    assert time.main == reading_time.Counts(words=9 + 9, hanzi=3 + 9, code_lines=3)
    assert time.total == reading_time.Counts(words=9 + 9 + 7, hanzi=3 + 9, code_lines=3 + 2)
    assert time.main.minutes == pytest.approx(18 / 200 + 12 / 400 + 3 / 10)


def test_words_are_runs_of_letters_with_apostrophes_and_hyphens():
    counted = reading_time.count([md("Recall@K isn't NDCG@10; top-K, 3rd x2 -- ok")])
    # Recall, K, isn't, NDCG, top-K, rd, x, ok
    assert counted.words == 8 and counted.hanzi == 0


def test_markdown_inside_details_is_counted():
    open_card = reading_time.count([md("Why? Because.")])
    closed_card = reading_time.count([md("<details><summary>Why?</summary>\n\nBecause.\n\n</details>")])
    assert closed_card.words == open_card.words + 4  # the tags' "details" and "summary" are words too


def test_outputs_are_not_counted():
    bare = code("x = 1")
    printed = code("x = 1", outputs=[nbformat.v4.new_output("stream", name="stdout", text="many words " * 999)])
    assert reading_time.count([bare]) == reading_time.count([printed]) == reading_time.Counts(0, 0, 1)


def test_the_main_path_stops_at_the_first_going_further_heading():
    cells = [md("# Title"), code("a = 1"), md("Going further is a phrase, not a heading here."),
             code("# Going further (a code comment does not cut)"), md("### Going further\n\nmore"),
             code("b = 2"), md("## Going further again")]
    assert reading_time.main_path(cells) == cells[:4]
    assert reading_time.main_path(cells[:4]) == cells[:4]  # no heading: the whole notebook


def test_a_long_main_path_is_over_budget_and_moving_it_fixes_that(tmp_path):
    loop = code("\n".join(f"assert {i} == {i}" for i in range(150)))  # 15 minutes of code
    prose = md("word " * 1200)  # 6 minutes
    over = reading_time.reading_time(write(tmp_path, "97_over.ipynb", [md("# T"), prose, loop]))
    moved = reading_time.reading_time(
        write(tmp_path, "96_moved.ipynb", [md("# T"), prose, md("## Going further (optional)"), loop]))
    assert over.main.minutes > reading_time.BUDGET_MINUTES >= moved.main.minutes
    assert moved.total.minutes == pytest.approx(over.total.minutes + 3 / 200)  # + "Going further optional"


# --- the README table ------------------------------------------------------------------------

def test_title_is_the_first_heading_without_the_number(tmp_path):
    path = write(tmp_path, "00_x.ipynb", [code("# not a heading"), md("Intro"), md("# 00 · A map · 全景图\n\ntext")])
    assert reading_time.title(path) == "A map · 全景图"
    with pytest.raises(ValueError, match="no markdown heading"):
        reading_time.title(write(tmp_path, "01_y.ipynb", [md("no heading")]))


def test_table_rows_coming_row_and_unknown_notebooks(tmp_path, monkeypatch):
    write(tmp_path, "01_recall_at_k.ipynb", [md("# Recall@K | 召回率"), code("k = 1\n" * 20)])
    write(tmp_path, "12_context.ipynb", [md("# Context"), md("## Going further"), md("word " * 400)])
    write(tmp_path, "scratch.ipynb", [md("# not in the reading order")])
    teaches = {"01": reading_time.TEACHES["01"], "12": "is the context on topic?"}
    monkeypatch.setattr(reading_time, "TEACHES", teaches)
    monkeypatch.setattr(reading_time, "COMING", {"13": "Faithfulness", "14": "Answer Relevancy"})
    rows = reading_time.table(tmp_path).splitlines()
    assert rows[2] == ("| 01 | [Recall@K \\| 召回率](notebooks/01_recall_at_k.ipynb) | "
                       "how many of the relevant documents made the top K? | 2 min | 2 min |")
    assert rows[3].startswith("| 12 | [Context](notebooks/12_context.ipynb) |")
    assert rows[3].endswith("| 0 min | 2 min |")
    assert rows[4] == "| 13–14 | coming | Faithfulness, Answer Relevancy | | |"
    assert len(rows) == 5
    del teaches["12"]
    with pytest.raises(KeyError, match="add a line for '12' to TEACHES"):
        reading_time.table(tmp_path)


def test_check_fails_on_a_stale_table_and_the_rewrite_fixes_it(tmp_path, capsys):
    readme = tmp_path / "README.md"
    folder = tmp_path / "notebooks"
    folder.mkdir()
    shutil.copy(ROOT / "notebooks" / "04_mrr.ipynb", folder)
    readme.write_text(f"intro\n{reading_time.BEGIN}\n| old table |\n{reading_time.END}\nafter\n", encoding="utf-8")
    args = ["--readme", str(readme), "--notebooks", str(folder)]
    assert reading_time.main(["--check", *args]) == 1
    assert "stale" in capsys.readouterr().out
    assert reading_time.main(args) == 0
    text = readme.read_text(encoding="utf-8")
    assert text.startswith(f"intro\n{reading_time.BEGIN}\n| # | notebook |") and text.endswith(f"{reading_time.END}\nafter\n")
    assert "(notebooks/04_mrr.ipynb)" in text and "| old table |" not in text
    assert reading_time.main(["--check", *args]) == 0


def test_a_readme_without_markers_is_an_error(tmp_path):
    with pytest.raises(ValueError, match="notebook-table:begin"):
        reading_time.replace_table("no markers here\n", "| table |\n")


def test_the_scripts_docstring_examples():
    import doctest

    result = doctest.testmod(reading_time)
    assert result.attempted >= 1 and result.failed == 0
