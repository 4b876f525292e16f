"""Reading time (scripts/reading_time.py): every notebook's main path fits its budget (28 minutes,
the capstone 55), the README's notebook table is up to date, and the counting is the formula of the
house style, the same as the project's hygiene checker's."""
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
def test_main_path_reads_within_its_budget(path):
    """28 minutes; the capstone (18) 55."""
    main = reading_time.reading_time(path).main
    assert main.minutes <= reading_time.budget_minutes(path), (
        f"{path.name}: main path reads in {main.minutes:.1f} min ({main}): cut what does not teach, "
        "or move checks and detail after a '## Going further' heading, after the exercise")


def test_budgets():
    assert reading_time.budget_minutes(ROOT / "notebooks" / "01_recall_at_k.ipynb") == 28
    assert reading_time.budget_minutes(Path("18_capstone_golden_set.ipynb")) == 55


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


def hygiene_main_path(nbhygiene, cells: list[dict]) -> list[dict]:
    for i, cell in enumerate(cells):
        if cell["cell_type"] == "markdown" and nbhygiene.FURTHER.search("".join(cell["source"])):
            return cells[:i]
    return cells


@pytest.mark.skipif(not NBHYGIENE.exists(), reason="the project's nbhygiene checker is not on this machine")
def test_counts_as_the_hygiene_checker_does(tmp_path):
    """Same formula: the checker and this script never disagree on a main path or a whole notebook,
    on the suite's notebooks and on synthetic ones holding every kind of cell and output."""
    nbhygiene = load_script(NBHYGIENE, "nbhygiene")
    synthetic = [synthetic_notebook(tmp_path), every_output_kind(tmp_path), awkward_text(tmp_path)]
    for path in NOTEBOOKS + synthetic:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        time = reading_time.reading_time(path)
        assert time.total.minutes == pytest.approx(nbhygiene.minutes(cells), abs=1e-9), path.name
        main = hygiene_main_path(nbhygiene, cells)
        assert time.main.minutes == pytest.approx(nbhygiene.minutes(main), abs=1e-9), path.name
    assert reading_time.GOING_FURTHER.pattern == nbhygiene.FURTHER.pattern
    assert reading_time.BUDGET_MINUTES == nbhygiene.BUDGET_MINUTES
    assert reading_time.CAPSTONE_MINUTES == nbhygiene.CAPSTONE_MINUTES


# --- the counting, on small synthetic notebooks ------------------------------------------------

def stream(text: str, name: str = "stdout") -> dict:
    return nbformat.v4.new_output("stream", name=name, text=text)


def result(data: dict) -> dict:
    return nbformat.v4.new_output("execute_result", data=data, execution_count=1)


def display(data: dict) -> dict:
    return nbformat.v4.new_output("display_data", data=data)


PNG = "iVBORw0KGgo="  # the bytes do not matter: only the kind of output counts
TABLE = ("<table><tr><th>K</th><th>Recall@K</th></tr>"
         "<tr><td>1</td><td>0.3</td></tr><tr><td>5</td><td>0.7</td></tr></table>")  # 4 cells; headers not counted


def synthetic_notebook(folder: Path) -> Path:
    return write(folder, "98_synthetic.ipynb", [
        md("# Recall@K · 召回率@K\n\nIt's a well-known metric, isn't it?"),
        # Recall, K, K, It's, a, well-known, metric, isn't, it: 9 words; 召回率: 3
        code("k = 5\n\n   \n# a comment counts\nprint(k)  # 中文 after code is code",
             outputs=[stream("5 " * 500)]),
        # comment: a, comment, counts = 3 words; code: "k=5" 3 + "print(k)#中文aftercodeiscode" 26 = 29
        md("**Q1. 区别？**\n\n<details><summary>Answer · 答案</summary>\n\n中文：召回率。\n\n"
           "English: recall counts.\n\n</details>"),
        # Q1., details, summary, Answer, summary, English, recall, counts., details: 9 words;
        # 区别 答案 中文 召回率: 9 Chinese characters
        md("## Going further (optional)\n\nChecking loops live here."),  # 7 words
        code("for seed in range(300):\n    pass"),  # 20 + 4 characters
    ])


def test_counts_prose_comments_code_and_outputs(tmp_path):
    time = reading_time.reading_time(synthetic_notebook(tmp_path))
    assert time.main == reading_time.Counts(words=9 + 3 + 9, chinese=3 + 9, code_characters=29,
                                            output_words=500, output_chinese=0, table_cells=0, pictures=0)
    assert time.total == time.main._replace(words=9 + 3 + 9 + 7, code_characters=29 + 24)
    assert time.main.minutes == pytest.approx(21 / 200 + 12 / 400 + 29 / 300 + 500 / 250)


def test_words_are_runs_of_letters_and_digits_with_inner_apostrophes_dots_and_hyphens():
    counted = reading_time.count([md("Recall@K isn't NDCG@10; top-K, 3rd x2 -- ok e.g. 0.6667 it’s")])
    # Recall, K, isn't, NDCG, 10, top-K, 3rd, x2, ok, e.g., 0.6667, it’s
    assert counted.words == 12 and counted.chinese == 0


def test_chinese_characters_count_one_each_and_split_words():
    counted = reading_time.count([md("召回率Recall与精确率（precision）")])
    assert (counted.words, counted.chinese) == (2, 7)  # the full-width brackets are not characters of text


def test_markdown_inside_details_is_counted():
    open_card = reading_time.count([md("Why? Because.")])
    closed_card = reading_time.count([md("<details><summary>Why?</summary>\n\nBecause.\n\n</details>")])
    assert closed_card.words == open_card.words + 4  # the tags' "details" and "summary" are words too


def test_a_comment_line_is_prose_and_any_other_line_is_code_by_its_characters():
    comment = reading_time.count([code("    # the top K 前五\n#no space")])
    assert (comment.words, comment.chinese, comment.code_characters) == (5, 2, 0)
    trailing = reading_time.count([code("top = retrieved[:K]  # the top K")])
    assert (trailing.words, trailing.code_characters) == (0, len("top=retrieved[:K]#thetopK"))


def test_packing_code_saves_nothing():
    one_per_line = reading_time.count([code("k = 5\nn = 3\nprint(k, n)")])
    packed = reading_time.count([code("k, n = 5, 3; print(k, n)")])
    assert packed.code_characters >= one_per_line.code_characters == 3 + 3 + 10
    assert reading_time.count([code("\n\n   \n\t")]).minutes == 0


def every_output_kind(folder: Path) -> Path:
    return write(folder, "97_outputs.ipynb", [
        code("a = 1", outputs=[stream("Recall@5 = 0.6667 召回率\n")]),                       # 3 words, 3 Chinese
        code("b = 2", outputs=[stream("a warning here\n", name="stderr")]),                  # 3 words
        code("c", outputs=[result({"text/plain": "0.5 中"})]),                               # 1 word, 1 Chinese
        code("d", outputs=[result({"text/html": TABLE, "text/plain": "many words " * 50})]),  # 4 cells only
        code("e", outputs=[display({"text/html": "<b>no table</b>", "text/plain": "some words"})]),  # nothing
        code("f", outputs=[display({"image/png": PNG, "text/plain": "<Figure size 640x480 with 1 Axes>"})]),
        code("g", outputs=[display({"image/svg+xml": "<svg/>"})]),                           # a picture
        code("h", outputs=[nbformat.v4.new_output("error", ename="ValueError", evalue="bad K words",
                                                  traceback=["ValueError: bad K words"])]),  # nothing
        code("i", outputs=[display({"application/json": {"x": 1}})]),                         # nothing
    ])


def test_each_kind_of_output_counts_as_a_reader_reads_it(tmp_path):
    cells = json.loads(every_output_kind(tmp_path).read_text(encoding="utf-8"))["cells"]
    kinds = [reading_time.count(cells[i:i + 1])._replace(code_characters=0) for i in range(len(cells))]
    nothing = reading_time.NOTHING
    assert kinds == [nothing._replace(output_words=3, output_chinese=3),
                     nothing._replace(output_words=3),
                     nothing._replace(output_words=1, output_chinese=1),
                     nothing._replace(table_cells=4),
                     nothing,
                     nothing._replace(pictures=1),
                     nothing._replace(pictures=1),
                     nothing,
                     nothing]
    assert reading_time.count(cells).minutes == pytest.approx(
        7 / 250 + 4 / 500 + 4 / 60 + 2 * 0.5 + 13 / 300)  # 13: the code "a=1", "b=2", "c" ... "i"


def awkward_text(folder: Path) -> Path:
    """Sources and outputs stored as one string or as lists of lines, a heading in a code comment."""
    notebook = write(folder, "96_awkward.ipynb", [
        md(["# 00 · Title\n", "Two lines ", "of prose 中文"]),
        code("# Going further is a comment here\nx = [1,\n     2]", outputs=[stream(["chunked ", "text 中\n"])]),
        md("### 深入\n\nafter the main path"),
        code("y = 2", outputs=[result({"text/html": ["<table><tr><td>1</td>", "<td>2</td></tr></table>"]})]),
    ])
    return notebook


def test_sources_and_outputs_as_lists_of_lines(tmp_path):
    time = reading_time.reading_time(awkward_text(tmp_path))
    assert time.main == reading_time.Counts(words=6 + 6, chinese=2, code_characters=len("x=[1,") + 2,
                                            output_words=2, output_chinese=1, table_cells=0, pictures=0)
    assert time.total.table_cells == 2


def test_the_main_path_stops_at_the_first_going_further_heading():
    cells = [md("# Title"), code("a = 1"), md("Going further is a phrase, not a heading here."),
             code("# Going further (a code comment does not cut)"), md("### Going further\n\nmore"),
             code("b = 2"), md("## Going further again")]
    assert reading_time.main_path(cells) == cells[:4]
    assert reading_time.main_path(cells[:4]) == cells[:4]  # no heading: the whole notebook


def test_a_long_main_path_is_over_budget_and_moving_it_fixes_that(tmp_path):
    checks = code("\n".join(f"assert recall_at_k == {i}" for i in range(300)))  # 300 x 20 characters: 20 minutes
    prose = md("word " * 2000)  # 10 minutes
    over = reading_time.reading_time(write(tmp_path, "95_over.ipynb", [md("# T"), prose, checks]))
    moved = reading_time.reading_time(
        write(tmp_path, "94_moved.ipynb", [md("# T"), prose, md("## Going further (optional)"), checks]))
    assert over.main.minutes > reading_time.BUDGET_MINUTES >= moved.main.minutes
    assert moved.total.minutes == pytest.approx(over.total.minutes + 3 / 200)  # + "Going further optional"


# --- the README table ------------------------------------------------------------------------

def test_title_is_the_first_heading_without_the_number(tmp_path):
    path = write(tmp_path, "00_x.ipynb", [code("# not a heading"), md("Intro"), md("# 00 · A map · 全景图\n\ntext")])
    assert reading_time.title(path) == "A map · 全景图"
    with pytest.raises(ValueError, match="no markdown heading"):
        reading_time.title(write(tmp_path, "01_y.ipynb", [md("no heading")]))


def test_table_rows_coming_row_and_unknown_notebooks(tmp_path, monkeypatch):
    write(tmp_path, "01_recall_at_k.ipynb", [md("# Recall@K | 召回率"), code("recall = 1\n" * 60)])  # 1.6 min
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
