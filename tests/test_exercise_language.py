"""The exercises in Chinese (ragmetrics_lite/course/exercises/_language.py, issue 31).

RAGMETRICS_LANG=zh, which scripts/open_lab.sh --zh sets, prints an exercise's texts and the checker's
sentences from the catalogues i18n/zh_CN/exercises/*.po, but only where a translation translates the
English the exercise declares now: an outdated one is never shown. Without the variable every message
is the English one (the English notebooks' stored outputs and the other exercise tests rely on it).
scripts/zh_edition.py --check keeps the catalogues complete and current (tests/test_zh_edition.py).
"""
from __future__ import annotations

import re
import shutil
import string

import polib
import pytest

from ragmetrics_lite.course.exercises import REGISTRY, ____, _language

q00_which_metric = REGISTRY["q00_which_metric"]
ANSWERS = {1: "C", 2: "b", 3: ____, 4: ____}  # one right, one wrong, two not answered yet


@pytest.fixture
def catalogues(tmp_path, monkeypatch):
    """A copy of the repository's exercise catalogues that a test may change, read afresh."""
    folder = tmp_path / "exercises"
    shutil.copytree(_language.CATALOGUES, folder)
    monkeypatch.setattr(_language, "CATALOGUES", folder)
    _language._entries.cache_clear()
    yield folder
    _language._entries.cache_clear()


def test_without_the_variable_every_message_is_english(monkeypatch, capsys):
    monkeypatch.delenv(_language.ENVIRONMENT, raising=False)
    q00_which_metric.show()
    q00_which_metric.check(ANSWERS)
    q00_which_metric.hint()
    out = capsys.readouterr().out
    assert out.startswith("Which metric catches this failure? Give one letter for each question.\n")
    assert "Incorrect: 1 of 4 answers is wrong.\n  1. C (Recall@3): Recall@3 = 0" in out
    assert "Hint 1 of 2: For each failure" in out
    assert not re.search(r"[\u3400-\u9fff]", out)  # not one Chinese character


@pytest.mark.parametrize("value", ["zh", "zh_CN", "zh-CN", "ZH"])
def test_rag_metrics_lang_zh_prints_the_self_test_of_notebook_00_in_chinese(monkeypatch, capsys, value):
    monkeypatch.setenv(_language.ENVIRONMENT, value)
    q00_which_metric.show()
    out = capsys.readouterr().out
    assert out.startswith("哪个指标能发现这种故障？每道题给出一个字母。\n")
    for number, question in q00_which_metric.questions.items():
        assert question.text not in out and f"\n{number}. " in out
    q00_which_metric.check(ANSWERS)
    assert capsys.readouterr().out == (
        "不正确：4 个答案中有 1 个错了。\n"
        "  1. C（召回率@3）：召回率@3 = 0：唯一需要的那篇文档不在提示词收到的 3 个文本块之中。\n"
        "  2. B（命中率@5）不对。\n"
        "     诊断：只要前 5 个结果里有一篇相关文档，命中率@5 就是 1；它分不清找到四篇中的一篇还是四篇全部找到。\n")
    q00_which_metric.check({number: q.answer for number, q in q00_which_metric.questions.items()})
    assert capsys.readouterr().out.startswith("正确：4 个答案全对。\n")


def test_an_outdated_or_fuzzy_translation_is_never_shown(catalogues, monkeypatch, capsys):
    monkeypatch.setenv(_language.ENVIRONMENT, "zh")
    path = catalogues / "q00_which_metric.po"
    catalogue = polib.pofile(str(path), wrapwidth=0)
    catalogue.find("q00_which_metric question 1", by="msgctxt").msgid = "An older English question."
    catalogue.find("q00_which_metric question 2", by="msgctxt").flags = ["fuzzy"]
    catalogue.save()
    q00_which_metric.show()
    out = capsys.readouterr().out
    assert q00_which_metric.questions[1].text in out and q00_which_metric.questions[2].text in out  # English
    assert "答案给出了一个价格" in out  # question 3's translation is current


def test_an_exercise_without_a_catalogue_prints_in_english_within_the_checkers_chinese(catalogues, monkeypatch,
                                                                                      capsys):
    monkeypatch.setenv(_language.ENVIRONMENT, "zh")
    (catalogues / "q00_which_metric.po").unlink()
    q00_which_metric.check(ANSWERS)
    out = capsys.readouterr().out
    assert out.startswith("不正确：4 个答案中有 1 个错了。\n  1. C（Recall@3）：Recall@3 = 0: the one needed")


def test_every_exercise_names_each_of_its_texts_once():
    for name, exercise in REGISTRY.items():
        fields = [field for field, _ in exercise.texts()]
        assert len(fields) == len(set(fields)), name
        assert all(text.strip() for _, text in exercise.texts()), name


def test_every_checker_sentence_fills_in_in_both_languages(monkeypatch):
    translations = {entry.msgctxt: entry.msgstr for entry in polib.pofile(str(_language.CATALOGUES / "checker.po"))}
    for key, english in _language.TEMPLATES.items():
        fields = {field: "x" for _, field, _, _ in string.Formatter().parse(english) if field}
        assert english.format(**fields)
        assert translations[f"checker {key}"].format(**fields)  # a translation with other fields would raise
    monkeypatch.setenv(_language.ENVIRONMENT, "zh")
    assert _language.template("hint", level=1, count=2, hint="看排序列表。", more="") == "提示 1/2：看排序列表。"
