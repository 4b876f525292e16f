"""The bundled font covers every CJK character the suite writes, in notebooks, docs and helper.

JupyterLab (through ``jupyter_config/custom/custom.css``) and matplotlib both draw the suite's Chinese
with ``RagMetricsNotoSansSC-Regular.ttf``; a character it lacks shows as a box on a machine
without a CJK font. The text is read when the tests run, so a notebook that starts using a new
character fails here, named, until ``scripts/make_font.py`` is rerun.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from ragmetrics_lite.course.plotting import FONT_PATH
from tests.helpers import load_script

ROOT = Path(__file__).resolve().parents[1]


make_font = load_script(ROOT / "scripts" / "make_font.py")


@pytest.fixture(scope="module")
def cmap() -> dict[int, str]:
    return TTFont(FONT_PATH).getBestCmap()


def test_the_scan_reads_notebooks_docs_and_helper():
    files = [path.relative_to(ROOT).as_posix() for path in make_font.suite_text_files()]
    for expected in ("README.md", "docs/glossary.md", "notebooks/00_rag_evaluation_map.ipynb",
                     "ragmetrics_lite/course/plotting.py"):
        assert expected in files
    assert not [f for f in files if f.startswith((".venv/", "jupyter_config/"))]
    found = make_font.suite_cjk_characters()
    assert len(found) > 300  # the glossary alone has well over 100 distinct characters
    assert "notebooks/01_recall_at_k.ipynb" in found["召"]  # 召回率, in the title


def test_the_scan_reads_sources_and_outputs_of_a_notebook(tmp_path):
    (tmp_path / "notebooks").mkdir()
    notebook = {"cells": [{"cell_type": "markdown", "source": ["标题\n"], "metadata": {}},
                          {"cell_type": "code", "source": "x = 1", "metadata": {},
                           "outputs": [{"output_type": "stream", "name": "stdout", "text": ["啰嗦"]}]}],
                "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    # \\u escapes, as some tools write them, must count too
    (tmp_path / "notebooks" / "00_x.ipynb").write_text(json.dumps(notebook, ensure_ascii=True))
    (tmp_path / "notes.md").write_text("English only, then （全角）✗", encoding="utf-8")
    assert sorted(make_font.suite_cjk_characters(tmp_path)) == sorted("标题啰嗦（全角）")


def test_every_cjk_character_of_the_suite_is_in_the_bundled_font(cmap):
    missing = {ch: files for ch, files in make_font.suite_cjk_characters().items() if ord(ch) not in cmap}
    assert not missing, (
        f"{FONT_PATH.name} lacks {''.join(missing)} "
        f"(used in {sorted({f for files in missing.values() for f in files})}): "
        "rebuild it with `.venv/bin/python scripts/make_font.py` (needs Debian's fonts-noto-cjk)")


def test_the_font_keeps_gb2312_and_the_characters_beyond_it(cmap):
    assert {ord(c) for c in make_font.gb2312_characters(0xB0, 0xF7)} <= set(cmap)
    beyond = set(make_font.suite_cjk_characters()) - set(make_font.gb2312_characters(0xB0, 0xF7))
    assert {ord(c) for c in beyond} <= set(cmap)  # what the suite writes outside GB2312 (none today)


@pytest.mark.skipif(not (os.environ.get("CHECK_FONT_REBUILD") and Path(make_font.SOURCE).is_file()),
                    reason="a minute of CPU: set CHECK_FONT_REBUILD=1 (needs Debian's fonts-noto-cjk)")
def test_rebuilding_gives_the_bundled_file_byte_for_byte(tmp_path):
    rebuilt = tmp_path / FONT_PATH.name
    make_font.build(rebuilt)
    assert rebuilt.read_bytes() == FONT_PATH.read_bytes(), (
        "the bundled font is not what scripts/make_font.py builds from today's text: rerun it")
