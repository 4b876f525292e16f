"""The plotting helper: the bundled font covers every Chinese text the suite draws.

The coverage tests read the notebooks when they run, so a notebook that starts
using a character outside the font fails here (add the character to
``EXTRA_CHARACTERS`` in ``scripts/make_font.py`` and rerun it).
"""
from __future__ import annotations

import io
import json
import math
import re
import warnings
from importlib import resources
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from fontTools.ttLib import TTFont  # noqa: E402
from matplotlib import font_manager  # noqa: E402

from ragmetrics_lite.course import plotting  # noqa: E402
from tests.helpers import load_script  # noqa: E402
from ragmetrics_lite.course.plotting import (  # noqa: E402
    FONT_FAMILY,
    FONT_PATH,
    discount_curve,
    draw_rank_strip,
    grade_color,
    setup_plots,
)

ROOT = Path(__file__).resolve().parents[1]
# Hanzi (CJK Unified Ideographs and Extension A), CJK symbols and punctuation,
# full-width and half-width forms; the quotes, dashes and dots that Chinese text
# borrows from general punctuation join a run but do not start one.
CJK = "\u3400-\u4dbf\u4e00-\u9fff\u3000-\u303f\uff01-\uffee"
BORROWED = "\u00b7\u2014\u2018\u2019\u201c\u201d\u2026"
CJK_RUN = re.compile(f"[{CJK}{BORROWED}]*[{CJK}][{CJK}{BORROWED}]*")
# Symbols the notebooks' plots use next to Chinese, checked whatever the notebooks say.
SYMBOLS = "≥ ≤ ≠ ≈ × ÷ − ± … → ← ↑ ↓ ⇒ ∑ √ ∞ ∈ ° ℃ ‰ · • ① ② ③ ■ □ ● ○ ★ ☆ ✓ “ ” ‘ ’ — α β λ"


def cjk_runs(text: str) -> list[str]:
    """Runs of Chinese characters and punctuation in ``text``.

    >>> cjk_runs('ax.set_title("召回率@K（Recall）")  # 注释…')
    ['召回率', '（', '）', '注释…']
    """
    return CJK_RUN.findall(text)


def notebook_code_texts() -> dict[str, list[str]]:
    """{notebook name: CJK runs in its code cells}, read from the notebooks now."""
    found = {}
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
        code = "".join("".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                       for c in cells if c.get("cell_type") == "code")
        found[path.name] = cjk_runs(code)
    return found


def sample_texts() -> list[str]:
    """Every Chinese run the suite draws or may draw, deduplicated, in a fixed order."""
    runs = cjk_runs((ROOT / "docs" / "glossary.md").read_text(encoding="utf-8"))
    runs += cjk_runs(Path(plotting.__file__).read_text(encoding="utf-8"))
    for notebook_runs in notebook_code_texts().values():
        runs += notebook_runs
    runs.append(SYMBOLS)
    return sorted(set(runs))


@pytest.fixture
def classroom_style():
    """setup_plots() inside an rc_context, so other tests keep matplotlib's defaults."""
    with matplotlib.rc_context():
        setup_plots()
        yield
    plt.close("all")


def test_glossary_sample_is_not_empty():
    # Guards the regex: the glossary alone has well over 100 distinct characters.
    characters = set("".join(cjk_runs((ROOT / "docs" / "glossary.md").read_text(encoding="utf-8"))))
    assert len(characters) > 100


def test_every_drawn_character_is_in_the_bundled_font():
    cmap = TTFont(FONT_PATH).getBestCmap()
    missing = {}
    for name, runs in [("glossary/plotting/symbols", sample_texts())] + sorted(notebook_code_texts().items()):
        absent = sorted({ch for run in runs for ch in run if not ch.isspace() and ord(ch) not in cmap})
        if absent:
            missing[name] = "".join(absent)
    assert not missing, f"characters missing from {FONT_PATH.name} (add them to EXTRA_CHARACTERS): {missing}"


def test_drawing_every_sample_text_warns_about_no_missing_glyph(classroom_style):
    texts = sample_texts()
    lines, line = [], ""
    for text in texts:  # pack the runs into lines of about 40 characters
        if len(line) + len(text) > 40:
            lines.append(line)
            line = ""
        line += text + " "
    lines.append(line)
    fig = plt.figure(figsize=(7, 0.25 * len(lines) + 0.5))
    for row, text in enumerate(lines):
        fig.text(0.01, 1 - (row + 1) / (len(lines) + 1), text)
    fig.text(0.5, 0.99, "Mixed 混合: Recall@K ≥ 0.5, −1, “golden set” 黄金标准数据集…", ha="center", va="top")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "Glyph ... missing from font(s)" becomes an exception
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png")
    assert buffer.getvalue().startswith(b"\x89PNG")


def test_chinese_text_uses_the_bundled_font(classroom_style):
    found = font_manager.findfont(font_manager.FontProperties(family=FONT_FAMILY),
                                  fallback_to_default=False)
    assert Path(found).resolve() == FONT_PATH.resolve()
    assert matplotlib.rcParams["font.family"] == [FONT_FAMILY, "DejaVu Sans"]


def test_font_ships_as_package_data_with_its_licence():
    fonts = resources.files("ragmetrics_lite") / "course" / "fonts"
    assert (fonts / FONT_PATH.name).is_file()
    licence = (fonts / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert "Reserved Font Name 'Source'" in licence
    assert (fonts / "README.md").is_file()


def test_font_is_a_small_truetype_font_with_its_own_name():
    font = TTFont(FONT_PATH)
    assert "glyf" in font and "CFF " not in font  # TrueType outlines: every backend takes them
    assert font["name"].getDebugName(1) == FONT_FAMILY
    assert "Open Font License" in font["name"].getDebugName(13)
    assert FONT_PATH.stat().st_size < 2 * 1024 * 1024
    hanzi = sum(0x4E00 <= cp <= 0x9FFF for cp in font.getBestCmap())
    assert hanzi >= 6763  # all of GB2312, levels 1 and 2


def test_setup_plots_is_idempotent_and_returns_none(classroom_style):
    first = dict(matplotlib.rcParams)
    assert setup_plots() is None
    assert dict(matplotlib.rcParams) == first
    entries = [e for e in font_manager.fontManager.ttflist if Path(e.fname) == FONT_PATH.resolve()]
    assert len(entries) == 1
    assert matplotlib.rcParams["figure.figsize"] == [7.0, 3.5]
    assert matplotlib.rcParams["figure.dpi"] == 100


def test_nothing_is_printed(capfd):
    with matplotlib.rc_context(), warnings.catch_warnings():
        warnings.simplefilter("error")
        setup_plots()
        setup_plots()
        fig, (top, bottom) = plt.subplots(2, 1)
        draw_rank_strip(top, [0, 2, 1, 0, 3], k=3, title="归一化折扣累积增益 NDCG@3", labels="abcde")
        discount_curve(bottom)
        fig.savefig(io.BytesIO(), format="png")
        plt.close(fig)
    assert capfd.readouterr() == ("", "")


def squares(ax, gid="rank-square"):
    return [patch for patch in ax.patches if patch.get_gid() == gid]


@pytest.mark.parametrize("grades", [[1], [0, 1, 0, 1, 1, 0, 0, 1, 0, 0], [3, 0, 2, 1, 0, 0, 1, 0], []])
def test_rank_strip_draws_one_square_per_rank(classroom_style, grades):
    fig, ax = plt.subplots()
    assert draw_rank_strip(ax, grades) is ax
    drawn = squares(ax)
    assert len(drawn) == len(grades)
    assert [patch.get_x() + patch.get_width() / 2 for patch in drawn] == pytest.approx(
        range(1, len(grades) + 1))
    top = max([1, *grades])
    assert [patch.get_facecolor() for patch in drawn] == [grade_color(g, top) for g in grades]
    assert list(ax.get_yticks()) == []


def test_rank_strip_marks_k_and_rank_numbers_and_labels(classroom_style):
    fig, ax = plt.subplots()
    draw_rank_strip(ax, [0, 1, 1], k=5, title="命中率@K", labels=["d1", "d2", "d3"])
    assert [t.get_text() for t in ax.texts if t.get_text().startswith("K =")] == ["K = 5"]
    (line,) = ax.lines
    assert list(line.get_xdata()) == [5.5, 5.5] and line.get_linestyle() == "--"
    assert len(squares(ax, "empty-slot")) == 2  # ranks 4 and 5: nothing retrieved there
    fig.canvas.draw()
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "2", "3", "4", "5"]
    assert {"d1", "d2", "d3"} <= {t.get_text() for t in ax.texts}
    assert ax.get_title() == "命中率@K"


def test_grade_colours_get_darker_with_the_grade():
    def lightness(rgba):
        return 0.299 * rgba[0] + 0.587 * rgba[1] + 0.114 * rgba[2]

    shades = [lightness(grade_color(g, 3)) for g in range(4)]
    assert shades == sorted(shades, reverse=True) and len(set(shades)) == 4
    assert grade_color(-1, 3) == grade_color(0, 3)  # negative grades: judged not relevant


@pytest.mark.parametrize("call, message", [
    (lambda ax: draw_rank_strip(ax, [0, 1], labels=["a"]), "labels has 1 items"),
    (lambda ax: draw_rank_strip(ax, [0, 3], max_grade=2), "above max_grade"),
    (lambda ax: draw_rank_strip(ax, [0, 1], k=0), "k must be >= 1"),
    (lambda ax: draw_rank_strip(ax, [0, 1], k="5"), "k must be an int"),
    (lambda ax: draw_rank_strip(ax, [0, 1.5]), "1.5"),
    (lambda ax: discount_curve(ax, 0), "max_rank must be >= 1"),
])
def test_bad_input_is_refused_with_a_clear_message(classroom_style, call, message):
    fig, ax = plt.subplots()
    with pytest.raises((ValueError, TypeError), match=re.escape(message)):
        call(ax)


def test_discount_curve_plots_one_over_log2(classroom_style):
    fig, ax = plt.subplots()
    assert discount_curve(ax, max_rank=6) is ax
    (line,) = ax.lines
    assert list(line.get_xdata()) == [1, 2, 3, 4, 5, 6]
    assert list(line.get_ydata()) == pytest.approx([1 / math.log2(i + 1) for i in range(1, 7)])


def test_bold_text_falls_back_to_regular_without_a_warning(caplog):
    """The bundled font has one weight; matplotlib's fallback note must not reach stderr."""
    setup_plots()
    fig, ax = plt.subplots()
    with caplog.at_level("WARNING", logger="matplotlib.font_manager"):
        ax.set_title("粗体 bold", fontweight="bold")
        fig.canvas.draw()
    plt.close(fig)
    assert not [r for r in caplog.records if "findfont" in r.getMessage()]


@pytest.mark.parametrize("grades, message", [
    ([0, 1.5], "relevance grade of rank 2 must be an integer, got 1.5"),
    ([float("nan")], "relevance grade of rank 1 must be finite, got nan"),
    ([1, 0, "2"], "relevance grade of rank 3 must be an integer, got str '2'"),
])
def test_rank_strip_names_the_rank_of_a_bad_grade(classroom_style, grades, message):
    """The message reads "relevance grade of rank 2", not "relevance grade of  at rank 2"."""
    fig, ax = plt.subplots()
    with pytest.raises((ValueError, TypeError)) as raised:
        draw_rank_strip(ax, grades)
    assert str(raised.value) == message


def test_setup_plots_leaves_the_backend_alone_outside_a_kernel(classroom_style):
    # pytest is no Jupyter kernel: the Agg backend selected at the top of this file stays.
    assert plotting._in_jupyter_kernel() is None
    setup_plots()
    assert matplotlib.get_backend().lower() == "agg"


PLOT_NOTEBOOK = [
    "import matplotlib.pyplot as plt\nfrom ragmetrics_lite.course.plotting import draw_rank_strip, setup_plots\n",
    "fig, ax = plt.subplots(figsize=(4, 1.5))\ndraw_rank_strip(ax, [0, 1, 1], k=2, title='命中率@K')\nplt.show()",
]


def run_plot_notebook(tmp_path, first_cell: str) -> list:
    """Execute a two-cell plotting notebook in a fresh kernel; return the plot cell's outputs. The
    kernel is killed once the cells have run (``shutdown_kernel="immediate"``): a graceful shutdown
    waits ~0.3 s more for it to exit, after every output has arrived."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(first_cell), nbformat.v4.new_code_cell(PLOT_NOTEBOOK[1])]
    harness = load_script(ROOT / "scripts" / "run_parameter_sets.py")
    harness.retry_kernel_start(lambda: NotebookClient(notebook, timeout=120, kernel_name="python3",
                                                      shutdown_kernel="immediate",
                                                      resources={"metadata": {"path": str(tmp_path)}}).execute())
    assert notebook.cells[0].outputs == []  # setup_plots prints nothing, also when it switches backend
    return notebook.cells[1].outputs


@pytest.mark.parametrize("mplbackend", ["Agg", None])
def test_a_notebook_shows_its_plot_with_and_without_mplbackend_agg(tmp_path, monkeypatch, mplbackend):
    """Headless CI machines often set MPLBACKEND=Agg; the kernel inherits it and, unless
    setup_plots() selects the inline backend, a plot cell has no output (strict nbval fails)."""
    if mplbackend is None:
        monkeypatch.delenv("MPLBACKEND", raising=False)
    else:
        monkeypatch.setenv("MPLBACKEND", mplbackend)
    outputs = run_plot_notebook(tmp_path, PLOT_NOTEBOOK[0] + "setup_plots()")
    assert [o["output_type"] for o in outputs] == ["display_data"]
    assert {"image/png", "text/plain"} <= set(outputs[0]["data"])
    assert outputs[0]["data"]["text/plain"].startswith("<Figure size 400x150")


def test_without_setup_plots_mplbackend_agg_loses_the_plot(tmp_path, monkeypatch):
    """The failure the test above guards against, shown on the same notebook."""
    monkeypatch.setenv("MPLBACKEND", "Agg")
    outputs = run_plot_notebook(tmp_path, PLOT_NOTEBOOK[0])
    assert not [o for o in outputs if o["output_type"] == "display_data"]
