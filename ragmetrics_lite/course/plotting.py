"""One look for every plot in the suite, with Chinese that renders on any machine.

Why a font is bundled: matplotlib draws text with DejaVu Sans, which has no
Chinese characters, so a title such as "召回率@K" comes out as empty boxes and a
"Glyph ... missing from font(s)" warning on every machine without a CJK font
(most learners' laptops, every fresh CI machine). Asking learners to install one
would make the notebooks depend on the machine, so the package ships a subset of
Noto Sans CJK SC (SIL Open Font License 1.1, see ``fonts/OFL.txt``): every
GB2312 hanzi, Chinese and full-width punctuation, ASCII, and symbols such as
≥ × − … →, about 2 MB. ``fonts/README.md`` tells where it comes from and
how ``scripts/make_font.py`` (in the repository) rebuilds it.

``setup_plots()`` registers that font with matplotlib, sets the classroom style
and, inside a Jupyter kernel, selects the inline backend (so figures show even
where ``MPLBACKEND=Agg`` is set, as on many CI machines); call it once at the
top of a notebook. The drawing helpers:

* ``draw_rank_strip(ax, grades, k=...)``: a ranked list as a row of squares
  coloured by relevance grade, with the cut-off K marked;
* ``discount_curve(ax)``: DCG's position discount 1/log2(i + 1);
* ``grade_color(grade, max_grade)``: the colour of one grade, for other plots.

>>> setup_plots()
>>> FONT_FAMILY in {entry.name for entry in font_manager.fontManager.ttflist}
True
>>> plt.rcParams["font.family"][0] == FONT_FAMILY
True
"""
from __future__ import annotations

import logging
import math
import sys
from collections.abc import Sequence
from pathlib import Path

import matplotlib as mpl
import matplotlib.pyplot as plt
from matplotlib import font_manager
from matplotlib.patches import Patch, Rectangle

from .._validation import check_grade, check_k

__all__ = ["FONT_FAMILY", "FONT_PATH", "setup_plots", "draw_rank_strip",
           "discount_curve", "grade_color"]

FONT_FAMILY = "RagMetrics Noto Sans SC"
FONT_PATH = Path(__file__).parent / "fonts" / "RagMetricsNotoSansSC-Regular.ttf"

# Text tries the bundled font first; a character it lacks (e.g. ✗) comes from
# DejaVu Sans, which ships with matplotlib.
STYLE = {
    "font.family": [FONT_FAMILY, "DejaVu Sans"],
    "font.sans-serif": [FONT_FAMILY, "DejaVu Sans"],
    "font.size": 10,
    "axes.titlesize": 12,
    "axes.labelsize": 10,
    "axes.unicode_minus": True,  # the bundled font has the real minus sign U+2212
    "axes.grid": True,
    "axes.axisbelow": True,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "grid.color": "#e0e0e0",
    "grid.linewidth": 0.8,
    "legend.frameon": False,
    "figure.figsize": (7.0, 3.5),
    "figure.dpi": 100,
    "savefig.dpi": 100,
    "pdf.fonttype": 42,  # embed the TrueType font: Chinese stays searchable in a PDF
    "ps.fonttype": 42,
    "svg.hashsalt": "ragmetrics_lite",  # identical SVG files from run to run
}

NOT_RELEVANT_COLOR = "#e3e3e3"


def _is_weight_fallback(record: logging.LogRecord) -> bool:
    """False for matplotlib's note that a bold request fell back to the regular weight."""
    return not record.getMessage().startswith("findfont: Failed to find font weight")


INLINE_BACKEND = "module://matplotlib_inline.backend_inline"


def _in_jupyter_kernel():
    """The IPython shell when running inside a Jupyter kernel, else None (terminal, script, pytest)."""
    ipython = sys.modules.get("IPython")  # never import IPython just to find out
    shell = ipython.get_ipython() if ipython is not None else None
    return shell if getattr(shell, "kernel", None) is not None else None


def _select_inline_backend() -> None:
    """Inside a Jupyter kernel, show figures inline whatever ``MPLBACKEND`` says.

    ipykernel makes the inline backend the default only when the ``MPLBACKEND``
    environment variable is unset; headless CI machines often set it to ``Agg``,
    and then a plot cell shows nothing (strict nbval: "Missing output fields").
    Selecting the backend when it is already inline would close open figures,
    so that case is left alone.
    """
    shell = _in_jupyter_kernel()
    if shell is not None and mpl.get_backend().lower() not in {"inline", INLINE_BACKEND}:
        shell.run_line_magic("matplotlib", "inline")


def setup_plots() -> None:
    """Register the bundled Chinese font and apply the classroom style (idempotent, silent).

    Inside a Jupyter kernel, also select the inline backend (``%matplotlib inline``):
    notebooks then draw their figures with and without ``MPLBACKEND=Agg`` in the
    environment. To use another backend (``%matplotlib widget``), select it after
    this call.

    The bundled font has one weight, so ``fontweight="bold"`` draws regular
    text; matplotlib's note about that fallback (which would reach stderr) is
    filtered out, and every other font warning still shows.
    """
    _select_inline_backend()
    path = str(FONT_PATH.resolve())
    if not any(entry.fname == path for entry in font_manager.fontManager.ttflist):
        font_manager.fontManager.addfont(path)
    logger = logging.getLogger("matplotlib.font_manager")
    if _is_weight_fallback not in logger.filters:
        logger.addFilter(_is_weight_fallback)
    mpl.rcParams.update(STYLE)


def grade_color(grade: int, max_grade: int = 1) -> tuple[float, float, float, float]:
    """RGBA colour of a relevance grade: light grey for grade <= 0, darker blue the higher.

    >>> grade_color(0) == mpl.colors.to_rgba(NOT_RELEVANT_COLOR)
    True
    >>> grade_color(3, max_grade=3) == grade_color(1, max_grade=1)
    False
    """
    grade, max_grade = check_grade(grade), check_k(max_grade, name="max_grade")
    if grade <= 0:
        return mpl.colors.to_rgba(NOT_RELEVANT_COLOR)
    if grade > max_grade:
        raise ValueError(f"grade {grade} is above max_grade {max_grade}")
    shade = 0.6 if max_grade == 1 else 0.35 + 0.6 * (grade - 1) / (max_grade - 1)
    return tuple(float(channel) for channel in mpl.colormaps["Blues"](shade))


def _text_color(fill) -> str:
    """Black or white, whichever reads better on ``fill``."""
    red, green, blue, _ = mpl.colors.to_rgba(fill)
    return "black" if 0.299 * red + 0.587 * green + 0.114 * blue > 0.55 else "white"


def draw_rank_strip(ax, grades: Sequence[int], *, k: int | None = None, title: str | None = None,
                    labels: Sequence[str] | None = None, max_grade: int | None = None,
                    legend: bool = True):
    """Draw a ranked list as squares at ranks 1..n, coloured by grade; mark the cut-off K.

    ``grades[i]`` is the relevance grade of the document at rank i + 1 (0 or less:
    not relevant). ``labels`` (e.g. doc ids) are written inside the squares. A
    dashed line after rank ``k`` shows what Recall@K and friends see; ranks up to
    ``k`` that nothing was retrieved at are dotted outlines. Colours run from light
    grey (0) to dark blue (``max_grade``, default the largest grade).

    >>> fig, ax = plt.subplots()
    >>> ax = draw_rank_strip(ax, [0, 1, 0, 1], k=2, labels=["d7", "d2", "d9", "d4"])
    >>> sum(patch.get_gid() == "rank-square" for patch in ax.patches)
    4
    >>> plt.close(fig)
    """
    grades = [check_grade(grade, where=f"rank {rank}") for rank, grade in enumerate(grades, 1)]
    if labels is not None and len(labels) != len(grades):
        raise ValueError(f"labels has {len(labels)} items but grades has {len(grades)}")
    top = max([1, *grades]) if max_grade is None else check_k(max_grade, name="max_grade")
    k = check_k(k, allow_none=True)
    texts = [str(label) for label in labels] if labels is not None else []
    longest = max(map(len, texts), default=0)
    upright = longest * len(grades) <= 40  # else turn every label to fit narrow squares
    for rank, grade in enumerate(grades, 1):
        fill = grade_color(grade, top)
        ax.add_patch(Rectangle((rank - 0.4, 0), 0.8, 0.8, facecolor=fill, edgecolor="#9e9e9e",
                               linewidth=0.8, gid="rank-square"))
        if texts:
            ax.text(rank, 0.4, texts[rank - 1], ha="center", va="center", color=_text_color(fill),
                    fontsize=9 if longest <= 4 else 8, rotation=0 if upright else 90)
    right = max(len(grades), k or 0, 1)
    if k is not None:
        _draw_cutoff(ax, k, len(grades))
    _strip_axes(ax, right)
    if title is not None:
        ax.set_title(title)
    if legend:
        _grade_legend(ax, top)
    return ax


def _draw_cutoff(ax, k: int, retrieved: int) -> None:
    """The dashed line after rank k, and a dotted outline at each rank up to k nothing was retrieved at."""
    for rank in range(retrieved + 1, k + 1):
        ax.add_patch(Rectangle((rank - 0.4, 0), 0.8, 0.8, fill=False, edgecolor="#b0b0b0",
                               linestyle=":", linewidth=0.8, gid="empty-slot"))
    ax.plot([k + 0.5, k + 0.5], [-0.1, 0.95], linestyle="--", color="#c0392b", linewidth=1.5)
    ax.text(k + 0.5, 1.0, f"K = {k}", ha="center", va="bottom", color="#c0392b")


def _strip_axes(ax, right: int) -> None:
    """Square cells, rank numbers 1..right below, no y axis, grid or frame."""
    ax.set_xlim(0.4, right + 0.6)
    ax.set_ylim(-0.15, 1.45)
    ax.set_aspect("equal")
    ax.set_xticks(range(1, right + 1))
    ax.tick_params(axis="x", length=0)
    ax.set_yticks([])
    ax.grid(False)
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_xlabel("rank 排名")


def _grade_legend(ax, top: int) -> None:
    """One swatch per grade 0..top, outside the strip on its right."""
    names = {0: "0 not relevant 不相关", 1: "1 relevant 相关" if top == 1 else "1"}
    handles = [Patch(facecolor=grade_color(g, top), edgecolor="#9e9e9e",
                     label=names.get(g, str(g))) for g in range(top + 1)]
    ax.legend(handles=handles, title="grade 相关性等级" if top > 1 else None,
              loc="center left", bbox_to_anchor=(1.0, 0.45), fontsize=9)


def discount_curve(ax, max_rank: int = 10):
    """Plot DCG's position discount 1/log2(i + 1) for ranks i = 1..max_rank, values labelled.

    >>> fig, ax = plt.subplots()
    >>> [round(float(y), 3) for y in discount_curve(ax, 3).lines[0].get_ydata()]
    [1.0, 0.631, 0.5]
    >>> plt.close(fig)
    """
    ranks = list(range(1, check_k(max_rank, name="max_rank") + 1))
    discounts = [1 / math.log2(rank + 1) for rank in ranks]
    ax.plot(ranks, discounts, marker="o", color="#2c7fb8")
    if max_rank <= 12:
        for rank, discount in zip(ranks, discounts):
            ax.annotate(f"{discount:.2f}", (rank, discount), textcoords="offset points",
                        xytext=(0, 6), ha="center", fontsize=8)
    if max_rank <= 20:
        ax.set_xticks(ranks)
    ax.set_ylim(0, 1.15)
    ax.set_xlabel("rank i 排名")
    ax.set_ylabel("discount 折扣")
    ax.set_title(r"position discount 位置折损 $1/\log_2(i+1)$")
    return ax
