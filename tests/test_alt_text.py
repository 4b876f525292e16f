"""Alt text for every plot (issue 14): each code cell whose stored outputs hold an image carries
``cell.metadata["alt"]``, a description a screen-reader user or a teacher describing the slide needs,
and the offline handout (``scripts/export_handouts.py``) puts exactly that text on the ``<img>``.

Cell metadata, not output metadata: ``scripts/execute_notebooks.py`` keeps a cell's metadata when it
re-runs a notebook, while the outputs, and any metadata on them, are made anew. A new plot without
alt text fails ``test_every_plot_has_alt_text_on_its_cell``.
"""
from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from lxml import etree

from tests.helpers import load_script

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
IMAGE_TYPES = ("image/png", "image/jpeg")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9])")
handouts = load_script(ROOT / "scripts" / "export_handouts.py")


def images_in(cell) -> int:
    """How many image outputs a cell stored (the handout shows one ``<img>`` each)."""
    if cell.cell_type != "code":
        return 0
    return sum(mime in output.get("data", {}) for output in cell.get("outputs", []) for mime in IMAGE_TYPES)


def alt_texts(cell) -> list[str]:
    """The cell's alt text, one entry per image: a string for a one-image cell, else a list."""
    alt = cell.metadata.get("alt")
    return [alt] if isinstance(alt, str) else list(alt) if isinstance(alt, list) else []


def plots_without_alt(notebook) -> list[str]:
    """The plot cells of a notebook whose alt metadata is missing, empty or one short, by cell id."""
    problems = []
    for index, cell in enumerate(notebook.cells):
        images = images_in(cell)
        if not images:
            continue
        texts = alt_texts(cell)
        if len(texts) != images or not all(isinstance(t, str) and t.strip() for t in texts):
            problems.append(f"{cell.get('id', f'cell {index}')}: {images} image(s), alt = {cell.metadata.get('alt')!r}")
    return problems


def plot_cells():
    return [(path, cell) for path in NOTEBOOKS for cell in nbformat.read(path, as_version=4).cells if images_in(cell)]


def test_every_notebook_has_a_plot():
    """The house style asks each notebook for a picture, so the tests below are never vacuous."""
    without = [p.name for p in NOTEBOOKS if not any(images_in(c) for c in nbformat.read(p, as_version=4).cells)]
    assert NOTEBOOKS and not without, f"no stored image in {without}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_plot_has_alt_text_on_its_cell(path):
    problems = plots_without_alt(nbformat.read(path, as_version=4))
    assert not problems, (f"{path.name}: plot cells without cell.metadata['alt'] (set it with nbformat, "
                          f"a string, or a list with one string per image): {problems}")


def test_a_new_plot_without_alt_text_is_caught():
    image = {"image/png": "iVBORw0KGgo=", "text/plain": "<Figure>"}
    plot = lambda **meta: nbformat.v4.new_code_cell(  # noqa: E731
        "plt.show()", metadata=meta, outputs=[nbformat.v4.new_output("display_data", data=image)])
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [plot(alt="A described plot."), plot(), plot(alt="  "), plot(alt=["only one of two."]),
                      nbformat.v4.new_code_cell("print(1)")]
    notebook.cells[3].outputs.append(notebook.cells[3].outputs[0])
    flagged = [problem.split(":")[0] for problem in plots_without_alt(notebook)]
    assert flagged == [notebook.cells[i].id for i in (1, 2, 3)]


def test_no_cell_without_a_plot_keeps_alt_text():
    """A plot removed from a cell must take its description with it."""
    stale = [f"{p.name}: {c.id}" for p in NOTEBOOKS for c in nbformat.read(p, as_version=4).cells
             if "alt" in c.metadata and not images_in(c)]
    assert not stale, stale


def test_alt_texts_are_one_or_two_sentences_and_each_its_own():
    seen = {}
    for path, cell in plot_cells():
        for text in alt_texts(cell):
            where = f"{path.name} {cell.id}"
            assert text == text.strip() and text.endswith("."), f"{where}: {text!r}"
            assert 80 <= len(text) <= 700, f"{where}: {len(text)} characters"
            sentences = SENTENCE_END.split(text)
            assert len(sentences) <= 2, f"{where}: {len(sentences)} sentences: {sentences}"
            assert not text.startswith("Plot "), f"{where}: reads like export_handouts' fallback"
            assert text not in seen, f"{where} repeats the alt text of {seen.get(text)}"
            seen[text] = where


def test_the_export_takes_every_plots_alt_text_from_its_cell():
    """The handout's preprocessor, over every notebook: no plot falls back to the text around it."""
    for path in NOTEBOOKS:
        notebook = nbformat.read(path, as_version=4)
        processed, resources = handouts.AltTextPreprocessor().preprocess(nbformat.read(path, as_version=4), {})
        assert resources["images_without_alt"] == [], path.name
        for cell, done in zip(notebook.cells, processed.cells):
            exported = [o["metadata"][m]["alt"] for o in done.get("outputs", []) for m in IMAGE_TYPES
                        if m in o.get("data", {})]
            assert exported == alt_texts(cell)[:images_in(cell)], f"{path.name} {cell.id}"


def test_the_handout_img_carries_the_cells_alt_text(tmp_path):
    """One notebook exported for real (04: three plots): each ``<img alt>`` is its cell's text, in order."""
    path = ROOT / "notebooks" / "04_mrr.ipynb"
    report = handouts.export([path], tmp_path, glossary=False)[0]
    assert report["images_without_alt"] == []
    page = etree.HTML(report["page"].read_text(encoding="utf-8"))
    expected = [text for cell in nbformat.read(path, as_version=4).cells for text in alt_texts(cell)[:images_in(cell)]]
    assert len(expected) == 3
    assert [img.get("alt") for img in page.iter("img")] == expected
