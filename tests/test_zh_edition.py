"""The Chinese edition (scripts/zh_edition.py, issue 31): catalogues that standard gettext tools read,
a build that copies code and outputs and translates only prose, a --check that names the notebook and
the cell of every English text without a current translation, the rules a translation keeps, and
Chinese notebooks whose code runs from notebooks/zh/.

Most tests work on a small repository made in a temporary folder (two notebooks, a glossary, the
catalogues), with translations written here; the last ones check the real repository.
"""
from __future__ import annotations

import doctest
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import polib
import pytest

from tests.helpers import load_script

ROOT = Path(__file__).resolve().parents[1]
zh_edition = load_script(ROOT / "scripts" / "zh_edition.py", "zh_edition")
MSGFMT = shutil.which("msgfmt")

GLOSSARY = """# Glossary 术语表

| English | 中文 | short meaning |
|---|---|---|
| query | 查询 | the user's question |
| Recall@K | 召回率@K | share of all relevant documents found in the top K |
"""

# The English of the small repository, and a translation of each of its entries (by msgctxt).
INTRO = ("# 01 · Recall@K · 召回率@K\n\n"
         "Examples come from [the source notes](00_map.ipynb#The-source-notes); terms are in the "
         "[glossary](../docs/glossary.md).\n\nRecall@5 of `q1` is 0.5: one query, two relevant documents.")
CARDS = ("## Interview questions\n\n**Q1. 召回率是什么？** *(What is recall?)*\n\n"
         "<details><summary>Answer · 答案</summary>\n\n中文：找回的相关文档占全部相关文档的比例。\n\n"
         "English: The share of the relevant documents that came back.\n\n</details>")
CODE = "# the example's inputs,\n# as in the source notes\nK = 5  # the cut-off\nprint(K)\n"
CHINESE = {
    "intro markdown": ("# 01 · 召回率@K · Recall@K\n\n例子来自[源笔记](00_map.ipynb#The-source-notes)；术语见"
                       "[术语表](../docs/glossary.md)。\n\n`q1` 的 Recall@5 是 0.5：一个查询，两篇相关文档。"),
    "code comment 1": "示例输入，与源笔记相同",
    "code comment 2": "截断位置",
    "code alt": "柱状图：召回率@K 随 K 的变化。",
    "cards markdown": CARDS.replace("## Interview questions", "## 面试问题"),
}
MAP_CHINESE = {"map markdown": "# 00 · 评估全景图 · The map\n\n## 源笔记\n\n介绍。"}


def _notebook(path: Path, cells: list) -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = cells
    nbformat.write(notebook, path)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository with notebooks 00 and 01, a glossary, and an empty pending list."""
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "glossary.md").write_text(GLOSSARY, encoding="utf-8")
    _notebook(tmp_path / "notebooks" / "00_map.ipynb",
              [nbformat.v4.new_markdown_cell("# 00 · The map\n\n## The source notes\n\nIntroduced.", id="map")])
    code = nbformat.v4.new_code_cell(CODE, id="code", metadata={"alt": "A bar chart of Recall@K against K."})
    code.outputs = [nbformat.v4.new_output("stream", name="stdout", text="5\n")]
    code.execution_count = 1
    _notebook(tmp_path / "notebooks" / "01_recall.ipynb", [nbformat.v4.new_markdown_cell(INTRO, id="intro"), code,
                                                            nbformat.v4.new_markdown_cell(CARDS, id="cards")])
    (tmp_path / "i18n" / "zh_CN").mkdir(parents=True)
    (tmp_path / "i18n" / "zh_CN" / "pending.txt").write_text("docs\n", encoding="utf-8")
    return tmp_path


def run(repo: Path, *args: str, capsys) -> tuple[int, str]:
    code = zh_edition.main([*args, "--root", str(repo)])
    return code, capsys.readouterr().out


def translate(repo: Path, stem: str, chinese: dict[str, str]) -> None:
    path = repo / "i18n" / "zh_CN" / f"{stem}.po"
    catalogue = polib.pofile(str(path), wrapwidth=0)
    for entry in catalogue:
        entry.msgstr = chinese.get(entry.msgctxt, entry.msgstr)
    catalogue.save(str(path))


@pytest.fixture
def translated(repo: Path, capsys) -> Path:
    """The small repository with both catalogues translated and the Chinese edition built."""
    assert run(repo, "--update", capsys=capsys)[0] == 0
    translate(repo, "00_map", MAP_CHINESE)
    translate(repo, "01_recall", CHINESE)
    assert run(repo, capsys=capsys)[0] == 0
    return repo


def test_the_scripts_doctests_pass():
    assert doctest.testmod(zh_edition).failed == 0


# --- catalogues ---------------------------------------------------------------------------------

def test_update_makes_one_entry_per_markdown_cell_comment_block_and_alt_text(repo, capsys):
    assert run(repo, "--update", "01", capsys=capsys)[0] == 0
    catalogue = polib.pofile(str(repo / "i18n" / "zh_CN" / "01_recall.po"))
    assert [entry.msgctxt for entry in catalogue] == list(CHINESE)
    assert catalogue[1].msgid == "the example's inputs,\nas in the source notes"
    assert "notebooks/01_recall.ipynb, cell code" in catalogue[1].comment
    assert not (repo / "i18n" / "zh_CN" / "00_map.po").exists()  # only what was named


@pytest.mark.skipif(MSGFMT is None, reason="msgfmt (GNU gettext) is not installed")
def test_msgfmt_check_accepts_a_translated_catalogue(translated):
    for path in (translated / "i18n" / "zh_CN").glob("*.po"):
        done = subprocess.run([MSGFMT, "--check", "-o", os.devnull, str(path)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


def test_update_keeps_translations_marks_changed_english_fuzzy_and_keeps_gone_text_obsolete(translated, capsys):
    notebook = nbformat.read(translated / "notebooks" / "01_recall.ipynb", as_version=4)
    notebook.cells[0].source = INTRO.replace("one query", "a single query")
    notebook.cells.pop()  # the cards cell is gone
    nbformat.write(notebook, translated / "notebooks" / "01_recall.ipynb")
    run(translated, "--update", "01_recall", capsys=capsys)
    catalogue = polib.pofile(str(translated / "i18n" / "zh_CN" / "01_recall.po"))
    entries = {entry.msgctxt: entry for entry in catalogue}
    assert entries["intro markdown"].flags == ["fuzzy"]
    assert entries["intro markdown"].previous_msgid == INTRO
    assert entries["intro markdown"].msgstr == CHINESE["intro markdown"]  # the old Chinese, to revise
    assert entries["code comment 2"].msgstr == "截断位置" and not entries["code comment 2"].flags
    assert entries["cards markdown"].obsolete


# --- the build ----------------------------------------------------------------------------------

def test_the_chinese_notebook_has_the_translations_and_the_same_code_and_outputs(translated):
    english = nbformat.read(translated / "notebooks" / "01_recall.ipynb", as_version=4)
    chinese = nbformat.read(translated / "notebooks" / "zh" / "01_recall.ipynb", as_version=4)
    assert chinese.cells[1].source == "# 示例输入，与源笔记相同\nK = 5  # 截断位置\nprint(K)\n"
    assert chinese.cells[1].metadata["alt"] == CHINESE["code alt"]
    for mine, theirs in zip(english.cells, chinese.cells, strict=True):
        assert mine.cell_type == theirs.cell_type and mine.get("outputs") == theirs.get("outputs")
        if mine.cell_type == "code":
            assert zh_edition.code_without_comments(mine.source) == zh_edition.code_without_comments(theirs.source)


def test_links_point_to_chinese_pages_and_follow_translated_headings(translated, capsys):
    intro = nbformat.read(translated / "notebooks" / "zh" / "01_recall.ipynb", as_version=4).cells[0].source
    assert "[源笔记](00_map.ipynb#源笔记)" in intro  # 00 is translated: its Chinese heading's anchor
    assert "[术语表](../../docs/glossary.md)" in intro  # no docs/glossary.zh-CN.md yet: the English
    (translated / "i18n" / "zh_CN" / "pending.txt").write_text("00_map\ndocs\n", encoding="utf-8")
    assert run(translated, capsys=capsys)[0] == 0
    intro = nbformat.read(translated / "notebooks" / "zh" / "01_recall.ipynb", as_version=4).cells[0].source
    assert "[源笔记](../00_map.ipynb#The-source-notes)" in intro  # 00 pending: the English page
    assert not (translated / "notebooks" / "zh" / "00_map.ipynb").exists()  # and no Chinese page


# --- --check ------------------------------------------------------------------------------------

def test_check_passes_on_a_complete_edition(translated, capsys):
    assert run(translated, "--check", capsys=capsys) == (0, "")


def test_one_changed_english_word_fails_check_naming_notebook_and_cell(translated, capsys):
    path = translated / "notebooks" / "01_recall.ipynb"
    notebook = nbformat.read(path, as_version=4)
    notebook.cells[2].source = CARDS.replace("came back", "come back")
    nbformat.write(notebook, path)
    code, out = run(translated, "--check", capsys=capsys)
    assert code == 1
    assert "notebooks/01_recall.ipynb, cell cards (markdown): the English changed" in out
    run(translated, "--update", capsys=capsys)  # the entry is now fuzzy: still not a current translation
    code, out = run(translated, "--check", capsys=capsys)
    assert code == 1 and "cell cards (markdown): the English changed since it was translated" in out


def test_a_new_cell_or_an_empty_translation_fails_check_unless_pending(translated, capsys):
    path = translated / "notebooks" / "00_map.ipynb"
    notebook = nbformat.read(path, as_version=4)
    notebook.cells.append(nbformat.v4.new_markdown_cell("A new paragraph.", id="new"))
    nbformat.write(notebook, path)
    code, out = run(translated, "--check", capsys=capsys)
    assert code == 1 and "notebooks/00_map.ipynb, cell new (markdown): new English text" in out
    run(translated, "--update", "00", capsys=capsys)
    code, out = run(translated, "--check", capsys=capsys)
    assert code == 1 and "cell new (markdown): not translated yet" in out
    (translated / "i18n" / "zh_CN" / "pending.txt").write_text("00_map\ndocs\n", encoding="utf-8")
    assert run(translated, capsys=capsys)[0] == 0  # the build deletes 00's Chinese page ...
    assert run(translated, "--check", capsys=capsys) == (0, "")  # ... and a pending catalogue passes


def test_check_fails_on_a_hand_edited_or_orphan_chinese_notebook(translated, capsys):
    page = translated / "notebooks" / "zh" / "01_recall.ipynb"
    page.write_text(page.read_text(encoding="utf-8").replace("截断位置", "截止"), encoding="utf-8")
    orphan = translated / "notebooks" / "zh" / "02_gone.ipynb"
    shutil.copy(page, orphan)
    code, out = run(translated, "--check", capsys=capsys)
    assert code == 1
    assert "notebooks/zh/01_recall.ipynb: differs from what the build writes" in out
    assert ('notebooks/zh/01_recall.ipynb, cell code (code): its text differs from what the build writes '
            '("截止 print(K)" became "截断位置 print(K)")') in out
    assert "notebooks/zh/02_gone.ipynb: its English is gone" in out


def test_a_page_translated_later_leaves_the_pages_linking_to_it_stale_and_check_names_them(translated, capsys):
    pending = translated / "i18n" / "zh_CN" / "pending.txt"
    pending.write_text("00_map\ndocs\n", encoding="utf-8")
    assert run(translated, capsys=capsys)[0] == 0  # 01 is built while 00 is pending: its link goes to the English
    pending.write_text("docs\n", encoding="utf-8")  # 00's translation lands later
    code, out = run(translated, "--check", capsys=capsys)
    assert code == 1
    assert "notebooks/zh/00_map.ipynb: missing; run python scripts/zh_edition.py" in out
    assert "notebooks/zh/01_recall.ipynb: differs from what the build writes; run python scripts/zh_edition.py" in out
    assert ("notebooks/zh/01_recall.ipynb, cell intro (markdown): links ../00_map.ipynb#The-source-notes → "
            "00_map.ipynb#源笔记: a page it links to has been translated, or went back to pending, since this page "
            "was built") in out
    assert "01_recall" not in run(translated, "--check", "00", capsys=capsys)[1]  # --check NN: that page only
    assert run(translated, capsys=capsys)[0] == 0  # the build relinks 01
    assert run(translated, "--check", capsys=capsys) == (0, "")


def test_check_nn_checks_only_the_named_notebooks_pending_or_not(translated, capsys):
    translate(translated, "00_map", {"map markdown": MAP_CHINESE["map markdown"].replace("介绍", "介绍 2")})
    translate(translated, "01_recall", {"code comment 2": "截断位置 5"})
    both = run(translated, "--check", capsys=capsys)[1]
    assert "notebooks/00_map.ipynb, cell map" in both and "notebooks/01_recall.ipynb, cell code" in both
    for name in ("01", "01_recall"):
        code, out = run(translated, "--check", name, capsys=capsys)
        assert code == 1
        assert "notebooks/01_recall.ipynb, cell code (comment 2): number: 5 only in the translation" in out
        assert "00_map" not in out
    code, out = run(translated, "--check", "00", capsys=capsys)
    assert code == 1 and "01_recall" not in out and "notebooks/00_map.ipynb, cell map (markdown)" in out
    (translated / "i18n" / "zh_CN" / "pending.txt").write_text("01_recall\ndocs\n", encoding="utf-8")
    assert "notebooks/01_recall" not in run(translated, "--check", capsys=capsys)[1]  # pending: not checked ...
    run(translated, capsys=capsys)  # the build deletes the pending notebook's page
    code = zh_edition.main(["--check", "01", "--root", str(translated)])  # ... but checked when named
    out, err = capsys.readouterr()
    assert code == 1 and "cell code (comment 2): number: 5 only in the translation" in out
    assert "notebooks/zh/01_recall.ipynb" not in out  # a pending notebook has no page to check
    assert "01_recall pending (i18n/zh_CN/pending.txt): the catalogue is checked" in err
    assert run(translated, "--check", "99", capsys=capsys)[0] == 2


def test_every_problem_quotes_what_it_is_about(translated, capsys):
    translate(translated, "01_recall", {"code comment 2": "本节以下各处使用的截断位置" * 5})
    out = run(translated, "--check", "01", capsys=capsys)[1]
    assert 'cell code (comment): line 2 is 139 columns wide, over 120 ("K = 5 # 本节以下各处使用的截断位置' in out
    translate(translated, "01_recall", {"cards markdown": CARDS.replace("## Interview questions", "面试问题")})
    out = run(translated, "--check", "01", capsys=capsys)[1]
    assert ("cell cards (markdown): the translation's headings differ from the English ones in number or level "
            "(English: ## Interview questions; translation: none)") in out
    path = translated / "notebooks" / "01_recall.ipynb"
    notebook = nbformat.read(path, as_version=4)
    notebook.cells[0].source = INTRO.replace("one query", "a single query")
    notebook.cells.append(nbformat.v4.new_markdown_cell("## Going further\n\nThe helper's edge cases.", id="new"))
    nbformat.write(notebook, path)
    out = run(translated, "--check", "01", capsys=capsys)[1]
    assert ('cell intro (markdown): the English changed since the catalogue was updated ("one query," became '
            '"a single query,")') in out
    assert 'cell new (markdown): new English text with no catalogue entry ("## Going further The helper\'s' in out
    run(translated, "--update", "01", capsys=capsys)
    out = run(translated, "--check", "01", capsys=capsys)[1]
    assert 'cell intro (markdown): the English changed since it was translated ("one query," became' in out
    assert 'cell new (markdown): not translated yet ("## Going further The helper\'s edge cases.")' in out


def test_check_refuses_a_translation_that_breaks_the_rules(translated, capsys):
    broken = {"intro markdown": CHINESE["intro markdown"].replace("0.5", "0.6").replace("一个查询", "一个问题"),
              "code comment 2": "截断\n位置"}
    translate(translated, "01_recall", broken)
    code, out = run(translated, "--check", capsys=capsys)
    assert code == 1
    assert "cell intro (markdown): number: 0.5 only in the English; 0.6 only in the translation" in out
    assert ("cell intro (markdown): glossary: 'query' is used in the English (\"…of `q1` is 0.5: one query, two "
            "relevant…\"), but the translation has none of 查询" in out)
    assert "cell code (comment 2): comments beside code: the translation has 2 lines, the English 1" in out


def test_the_going_further_heading_stays_recognisable(translated, capsys):
    path = translated / "notebooks" / "00_map.ipynb"
    notebook = nbformat.read(path, as_version=4)
    notebook.cells.append(nbformat.v4.new_markdown_cell("## Going further (optional)", id="more"))
    nbformat.write(notebook, path)
    run(translated, "--update", "00", capsys=capsys)
    translate(translated, "00_map", {"more markdown": "## 更多内容（选读）"})
    assert "must say 深入 or 附录" in run(translated, "--check", capsys=capsys)[1]
    translate(translated, "00_map", {"more markdown": "## 深入（选读）"})
    run(translated, capsys=capsys)
    assert run(translated, "--check", capsys=capsys) == (0, "")


def test_a_translators_allow_comment_exempts_one_token(translated, capsys):
    translate(translated, "01_recall", {"intro markdown": CHINESE["intro markdown"].replace("一个查询", "一个问题")})
    assert run(translated, "--check", capsys=capsys)[0] == 1
    catalogue = polib.pofile(str(translated / "i18n" / "zh_CN" / "01_recall.po"))
    catalogue.find("intro markdown", by="msgctxt").tcomment = "allow: query"
    catalogue.save()
    assert run(translated, capsys=capsys)[0] == 0  # the build writes the new translation
    assert run(translated, "--check", capsys=capsys) == (0, "")


# --- the exercises' texts ----------------------------------------------------------------------

def test_an_exercise_catalogue_is_checked_like_a_notebooks(translated, capsys):
    folder = translated / "i18n" / "zh_CN" / "exercises"
    shutil.copytree(ROOT / "i18n" / "zh_CN" / "exercises", folder)
    assert run(translated, "--check", capsys=capsys) == (0, "")
    path = folder / "q00_which_metric.po"
    catalogue = polib.pofile(str(path), wrapwidth=0)
    catalogue.find("q00_which_metric question 1", by="msgctxt").msgid = "An older English question."
    catalogue.find("q00_which_metric question 2 why", by="msgctxt").msgstr = "召回率@5 = 1/3：前 5 个里缺了三篇"
    catalogue.save()
    checker = polib.pofile(str(folder / "checker.po"), wrapwidth=0)
    checker.find("checker hint", by="msgctxt").msgstr = "提示 {level}/{n}：{hint}{more}"
    checker.save()
    code, out = run(translated, "--check", capsys=capsys)
    where = "ragmetrics_lite/course/exercises/q00_which_metric.py, q00_which_metric"
    assert code == 1
    assert f'{where} question 1: the English changed since the catalogue was updated ("An older English' in out
    assert f"{where} question 2 why: number: 4 only in the English; 3 only in the translation" in out
    assert ("ragmetrics_lite/course/exercises/_language.py, checker hint: the translation must have the fields "
            "{count}, {hint}, {level}, {more} of the English, and no other: it has {hint}, {level}, {more}, {n}") in out
    assert run(translated, "--check", "01", capsys=capsys)[0] == 0  # --check NN leaves the exercises out
    assert "q00_which_metric question 1" in run(translated, "--check", "q00_which_metric", capsys=capsys)[1]


def test_update_starts_an_exercise_catalogue(repo, capsys):
    assert run(repo, "--update", "q04_mrr", capsys=capsys)[0] == 0
    catalogue = polib.pofile(str(repo / "i18n" / "zh_CN" / "exercises" / "q04_mrr.po"))
    assert catalogue[0].msgctxt == "q04_mrr prompt" and not catalogue[0].msgstr
    assert [entry.msgctxt for entry in catalogue][1:3] == ["q04_mrr hint 1", "q04_mrr hint 2"]
    code, out = run(repo, "--check", "q04_mrr", capsys=capsys)
    assert code == 1 and "q04_mrr prompt: not translated yet" in out
    assert run(repo, "--update", "q99_nothing", capsys=capsys)[0] == 2


# --- rules of a translation ---------------------------------------------------------------------

@pytest.mark.parametrize("english, chinese, problem", [
    ("Use $\\frac{1}{r}$ here.", "这里用 $\\frac{1}{R}$。", "formula"),
    ("Call `rml.evaluate`.", "调用 `evaluate`。", "code"),
    ("See [02](02_hit_rate_at_k.ipynb).", "见 [02](02_hit.ipynb)。", "link"),
    ("Compare with pytrec_eval.", "与 pytrec-eval 比较。", "identifier"),
    ("NDCG@10 drops.", "NDCG@5 下降。", "cut-off"),
    ("It is 30 days.", "是三十天。", "number"),
])
def test_numbers_formulas_code_links_identifiers_and_cut_offs_stay_as_they_are(english, chinese, problem):
    assert [found.split(":")[0] for found in zh_edition.literal_problems(english, chinese)] == [problem]
    assert zh_edition.literal_problems(english, english) == []


def test_glossary_terms_need_their_chinese_name_and_names_may_stay():
    terms = zh_edition.glossary_terms(ROOT / "docs" / "glossary.md")
    assert zh_edition.glossary_problems("Each query's MRR.", "每个查询的 MRR。", terms) == []
    assert zh_edition.glossary_problems("Each query's MRR.", "每个查询的平均倒数排名。", terms) == []
    assert zh_edition.glossary_problems("Each query's MRR.", "每个问题的 MRR。", terms) == [
        "glossary: 'query' is used in the English (\"Each query's MRR.\"), but the translation has none of 查询"]
    assert zh_edition.glossary_problems("Query rewriting first.", "先做查询改写。", terms) == []


@pytest.mark.parametrize("english, chinese", [
    ("trec_eval's conventions", "trec_eval 的约定"),
    ("q3's NDCG@10 is low", "q3 的 NDCG@10 很低"),
    ("q3’s NDCG@10 is low", "q3 的 NDCG@10 很低"),
    ("that is ROUGE-1's F1", "这就是 ROUGE-1 的 F1"),
])
def test_a_possessive_is_the_identifier_it_belongs_to(english, chinese):
    assert zh_edition.literal_problems(english, chinese) == []
    assert zh_edition.literal_problems(english, "这就是它") != []  # the identifier itself must still be there


@pytest.mark.parametrize("english, chinese", [
    ("what can each top-3 metric see?", "每个前 3 位指标能看到什么？"),
    ("the cut-off drops the rank-100 hit", "截断位置丢掉了第 100 位的命中"),
    ("a grade-1 document no longer counts", "等级为 1 的文档不再计入"),
    ("the 1-based rank of the first hit", "第一个命中的排名（从 1 开始计）"),
    ("the 19th of 20 values", "20 个值中的第 19 个"),
])
def test_a_word_number_compound_needs_its_number_not_its_english(english, chinese):
    assert zh_edition.literal_problems(english, chinese) == []
    number = [token for token in zh_edition.TOKEN.findall(english) if any(ch.isdigit() for ch in token)][0]
    lost = zh_edition.literal_problems(english, chinese.replace(zh_edition.normalised(number)[0], "几"))
    assert [problem.split(":")[0] for problem in lost] == ["number"], lost  # the number is still required


def test_a_name_with_a_number_stays_an_identifier_and_old_allow_comments_still_exempt():
    assert zh_edition.literal_problems("ROUGE-1 and BLEU-4", "ROUGE 和 BLEU-4") == [
        "identifier: ROUGE-1 only in the English"]
    # catalogues written before compounds were read by their numbers exempt the compound (and its number)
    assert zh_edition.literal_problems("the top-3 metrics", "前三个指标", {"top-3"}) == []
    assert zh_edition.literal_problems("a grade-1 document", "等级 1 的文档", {"grade-1", "1"}) == []


@pytest.mark.parametrize("english, chinese", [
    ("**End-to-end evaluation** judges the whole system as a user meets it.", "**端到端评估**把整个系统当作整体评价。"),
    ("when you judge the retriever", "在评价检索器时"),
    ("The retriever (检索器) ranks chunks (文本块) by score.", "检索器（检索器）按分数给文本块排序。"),
    ("MRR judges this retrieval stage only.", "MRR 只评价这个检索阶段。"),
    ("A grade-0 document gains nothing; kappa discounts the agreement chance alone gives.",
     "等级为 0 的文档什么也得不到；kappa 扣除单靠随机就能达到的一致。"),
])
def test_a_glossary_noun_used_as_a_verb_needs_no_chinese_name(english, chinese):
    terms = zh_edition.glossary_terms(ROOT / "docs" / "glossary.md")
    assert zh_edition.glossary_problems(english, chinese, terms) == []


@pytest.mark.parametrize("english, chinese, term", [
    ("Three judges agree.", "三个评委意见一致。", "judge"),
    ("The answer sits at rank 3.", "答案排在第 3 位。", "rank"),
    ("the LLM judges differ", "大模型的看法不同", "judge"),
    ("the smallest gain a test detects", "检验能发现的最小提升", "gain"),
])
def test_the_same_word_used_as_a_noun_still_needs_it(english, chinese, term):
    terms = zh_edition.glossary_terms(ROOT / "docs" / "glossary.md")
    assert [problem.split("'")[1] for problem in zh_edition.glossary_problems(english, chinese, terms)] == [term]


def test_the_glossary_rule_skips_what_a_card_keeps_in_english():
    terms = zh_edition.glossary_terms(ROOT / "docs" / "glossary.md")
    card = ("## Interview questions\n\n**Q1. 空结果怎么算？** *(How do you count a query with no results?)*\n\n"
            "<details><summary>Answer · 答案</summary>\n\n中文：算作未命中，分母是全部问题。\n\n"
            "English: As a miss: the denominator is every judged query at rank K.\n\n</details>")
    translation = card.replace("Interview questions", "面试问题")
    assert zh_edition.glossary_problems(card, translation, terms) == []  # only the card's English says query
    prose = card.replace("## Interview questions", "## Interview questions\n\nEach query counts.")
    assert [p.split("'")[1] for p in zh_edition.glossary_problems(prose, translation + "每个都算。", terms)] == [
        "query"]  # prose outside the card still needs 查询


@pytest.mark.parametrize("english", ["Only the top K results count.", "Only the top-K results count.",
                                     "Top K results count.", "Top-K results count."])
def test_top_k_is_a_use_with_a_space_or_a_hyphen(english):
    terms = zh_edition.glossary_terms(ROOT / "docs" / "glossary.md")
    assert [p.split("'")[1] for p in zh_edition.glossary_problems(english, "只有头几个结果算数。", terms)] == ["top-K"]
    for chinese in ("只有 Top-K 结果算数。", "只有前 K 个结果算数。", "只有前K个结果算数。"):
        assert zh_edition.glossary_problems(english, chinese, terms) == [], chinese


def test_interview_cards_keep_both_answers_the_english_one_word_for_word():
    assert zh_edition.card_problems(CARDS, CARDS.replace("Interview questions", "面试问题")) == []
    assert zh_edition.card_problems(CARDS, CARDS.replace("English: The share", "English: the share")) == [
        'cards: Q1\'s English answer must stay word for word ("The share" became "the share")']
    assert zh_edition.card_problems(CARDS, CARDS.replace("中文：", "")) == ["cards: Q1 has no 中文： answer"]
    assert zh_edition.card_problems(CARDS, CARDS.replace("*(What is recall?)*", "")) == [
        "cards: Q1's question line must keep its number and its English question "
        '(Q1, "What is recall?"; the translation has Q1, "")']


# --- the study aids -----------------------------------------------------------------------------

def test_chinese_study_aids_cover_every_metric_card_and_glossary_row():
    paths = zh_edition.Paths(ROOT)
    identity = {unit.context: unit.text for unit in zh_edition.docs_units(paths)}
    links = zh_edition.Links(paths, frozenset(), {})
    cheatsheet = zh_edition.cheatsheet_zh(paths, identity, links)
    english_rows = (ROOT / "docs" / "cheatsheet.md").read_text(encoding="utf-8").count("\n| `")
    assert cheatsheet.count("\n| `") == english_rows
    assert "](../notebooks/01_recall_at_k.ipynb)" in cheatsheet  # nothing translated: the English pages
    deck = zh_edition.deck_zh(paths, links)
    assert deck.count("<details>") == (ROOT / "docs" / "interview.md").read_text(encoding="utf-8").count("<details>")
    glossary = zh_edition.glossary_zh(paths, identity)
    assert glossary.count("\n| ") - 1 == len(zh_edition.glossary_rows(ROOT / "docs" / "glossary.md"))
    table = zh_edition.reading_table(paths, identity, links)
    assert table.count("（英文，翻译中）") == len(zh_edition.reading_time.notebooks(ROOT / "notebooks"))



def test_the_first_build_after_a_page_lands_or_its_title_changes_needs_no_second_build(translated, capsys):
    """The aids that read the Chinese pages (the README table here, the cheat sheet and the deck likewise)
    read each page as the same build writes it, not the copy on disk, which may be missing or old."""
    readme = translated / zh_edition.README_ZH
    readme.write_text(f"# 中文版\n\n{zh_edition.reading_time.BEGIN}\n{zh_edition.reading_time.END}\n",
                      encoding="utf-8")
    pending = translated / "i18n" / "zh_CN" / "pending.txt"
    pending.write_text("00_map\ndocs\n", encoding="utf-8")
    assert run(translated, capsys=capsys)[0] == 0  # 00's Chinese page is deleted, the table links the English
    assert "](notebooks/00_map.ipynb)（英文，翻译中）" in readme.read_text(encoding="utf-8")
    pending.write_text("docs\n", encoding="utf-8")  # 00's translation lands: no page on disk yet
    assert run(translated, capsys=capsys)[0] == 0
    assert "| 00 | [评估全景图 · The map](notebooks/zh/00_map.ipynb) |" in readme.read_text(encoding="utf-8")
    assert run(translated, "--check", capsys=capsys) == (0, "")
    translate(translated, "00_map", {"map markdown": MAP_CHINESE["map markdown"].replace("评估全景图", "全景图")})
    assert run(translated, capsys=capsys)[0] == 0  # a new title: one build writes the page and the table
    assert "| 00 | [全景图 · The map](notebooks/zh/00_map.ipynb) |" in readme.read_text(encoding="utf-8")
    assert run(translated, "--check", capsys=capsys) == (0, "")


def test_a_catalogue_out_of_pending_but_incomplete_is_reported_and_its_english_page_linked(translated, capsys):
    readme = translated / zh_edition.README_ZH
    readme.write_text(f"{zh_edition.reading_time.BEGIN}\n{zh_edition.reading_time.END}\n", encoding="utf-8")
    pending = translated / "i18n" / "zh_CN" / "pending.txt"
    pending.write_text("00_map\ndocs\n", encoding="utf-8")
    assert run(translated, capsys=capsys)[0] == 0
    translate(translated, "00_map", {"map markdown": ""})
    pending.write_text("docs\n", encoding="utf-8")  # its line deleted too early: no page is built, none exists
    code, out = run(translated, capsys=capsys)
    assert code == 1 and "notebooks/00_map.ipynb, cell map (markdown): not translated yet" in out
    assert "](notebooks/00_map.ipynb)（英文，翻译中）" in readme.read_text(encoding="utf-8")
    intro = nbformat.read(translated / "notebooks" / "zh" / "01_recall.ipynb", as_version=4).cells[0].source
    assert "[源笔记](../00_map.ipynb#The-source-notes)" in intro


def test_the_cheat_sheet_and_deck_take_titles_and_cards_from_the_pages_being_built(tmp_path):
    paths = zh_edition.Paths(ROOT)
    identity = {unit.context: unit.text for unit in zh_edition.docs_units(paths)}
    page = paths.zh / "01_recall_at_k.ipynb"
    notebook = nbformat.read(ROOT / "notebooks" / "01_recall_at_k.ipynb", as_version=4)
    heading = next(cell for cell in notebook.cells if cell.cell_type == "markdown")
    heading.source = "# 01 · 新的标题 · A new title\n" + heading.source.split("\n", 1)[1]
    pages = zh_edition.Pages({page: zh_edition.notebook_text(notebook)}, tmp_path)
    links = zh_edition.Links(paths, frozenset({"01_recall_at_k"}), {})
    cheatsheet = zh_edition.cheatsheet_zh(paths, identity, links, pages)
    assert "[01 · 新的标题](../notebooks/zh/01_recall_at_k.ipynb)" in cheatsheet
    deck = zh_edition.deck_zh(paths, links, pages)
    assert "## [01 · 新的标题 · A new title](../notebooks/zh/01_recall_at_k.ipynb)" in deck
    assert deck.count("<details>") == (ROOT / "docs" / "interview.md").read_text(encoding="utf-8").count("<details>")


# --- the repository -----------------------------------------------------------------------------

def test_the_repository_passes_check(capsys):
    assert zh_edition.main(["--check"]) == 0, capsys.readouterr().out


def test_every_catalogue_passes_msgfmt_check():
    catalogues = sorted((ROOT / "i18n" / "zh_CN").rglob("*.po"))
    if MSGFMT is None or not catalogues:
        pytest.skip("msgfmt is not installed" if MSGFMT is None else "no catalogue started yet")
    for path in catalogues:
        done = subprocess.run([MSGFMT, "--check", "-o", os.devnull, str(path)], capture_output=True, text=True)
        assert done.returncode == 0, f"{path.name}: {done.stderr}"


def test_every_chinese_notebook_has_the_english_code_and_outputs():
    for page in sorted((ROOT / "notebooks" / "zh").glob("*.ipynb")):
        english = nbformat.read(ROOT / "notebooks" / page.name, as_version=4)
        chinese = nbformat.read(page, as_version=4)
        for mine, theirs in zip(english.cells, chinese.cells, strict=True):
            assert mine.get("outputs") == theirs.get("outputs"), f"{page.name}, cell {mine.get('id')}"
            if mine.cell_type == "code":
                assert (zh_edition.code_without_comments(mine.source)
                        == zh_edition.code_without_comments(theirs.source)), f"{page.name}, cell {mine.get('id')}"


def test_every_link_of_a_chinese_notebook_resolves_to_the_chinese_page_where_there_is_one():
    zh = ROOT / "notebooks" / "zh"
    for page in sorted(zh.glob("*.ipynb")):
        for cell in json.loads(page.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "markdown":
                continue
            for match in zh_edition.LINK_TARGET.finditer("".join(cell["source"])):
                path = match.group(2).partition("#")[0]
                if not path or ":" in path:
                    continue
                target = (zh / path).resolve()
                assert target.exists(), f"{page.name}, cell {cell['id']}: {path} does not exist"
                twin = zh / target.name
                assert not (target.suffix == ".ipynb" and twin.exists() and target != twin.resolve()), (
                    f"{page.name}, cell {cell['id']}: {path} has a Chinese page, {twin.name}")


def test_nbval_does_not_collect_the_chinese_notebooks():
    if not list((ROOT / "notebooks" / "zh").glob("*.ipynb")):
        pytest.skip("no Chinese notebook yet")
    import conftest
    assert "notebooks/zh" in getattr(conftest, "collect_ignore", []), (
        "conftest.py must list notebooks/zh in collect_ignore: the Chinese notebooks are not executed")


# --- the copied code runs from notebooks/zh/ ----------------------------------------------------

# Two notebooks, run in a plain interpreter started in the Chinese folder (a Jupyter kernel would
# cost three times as long; the code is what is tested). Neither reads data/ yet: the second becomes
# "12_context_relevancy" once its paths go through rml.course.data_path (it reads data/triad/).
EXECUTED = ("00_rag_evaluation_map", "01_recall_at_k")
RUN_CELLS = """
import json, sys
from IPython.display import display
for name in sys.argv[1:]:
    namespace = {"__name__": "__main__", "display": display}
    for cell in json.load(open(name, encoding="utf-8"))["cells"]:
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), f"{name}, cell {cell['id']}", "exec"), namespace)
"""


def _chinese_pages(tmp_path: Path, capsys) -> Path:
    """notebooks/zh/ of the repository if it holds the notebooks, else a copy built with the English as Chinese."""
    folder = ROOT / "notebooks" / "zh"
    if all((folder / f"{stem}.ipynb").exists() for stem in EXECUTED):
        return folder
    (tmp_path / "notebooks").mkdir()
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    for stem in EXECUTED:
        shutil.copy(ROOT / "notebooks" / f"{stem}.ipynb", tmp_path / "notebooks")
    run(tmp_path, "--update", *EXECUTED, capsys=capsys)
    for stem in EXECUTED:
        translate(tmp_path, stem, {})
        catalogue = polib.pofile(str(tmp_path / "i18n" / "zh_CN" / f"{stem}.po"), wrapwidth=0)
        for entry in catalogue:
            entry.msgstr = entry.msgid
        catalogue.save()
    run(tmp_path, capsys=capsys)  # the glossary rule fails on English "translations"; the pages are written
    return tmp_path / "notebooks" / "zh"


def test_chinese_notebooks_run_from_notebooks_zh(tmp_path, capsys):
    folder = _chinese_pages(tmp_path, capsys)
    names = [f"{stem}.ipynb" for stem in EXECUTED]
    assert all((folder / name).exists() for name in names)
    environment = {**os.environ, "MPLBACKEND": "Agg", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", RUN_CELLS, *names], cwd=folder, env=environment,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
