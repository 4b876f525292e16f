"""read_triad_labels' schema checks, judge_items and agreement_summary."""
import json
import math

import pytest

import ragmetrics_lite as rml
from ragmetrics_lite.triad import (TRIAD_TASKS, Judge, Verdict, agreement_summary, judge_items, meets_agreement_bar,
                                   read_second_labels, read_triad_labels)

ITEM = {"faithfulness": {"context": "产品支持 7 天退款。", "statement": "支持 7 天退款。"},
        "context_relevancy": {"question": "退款政策？", "sentence": "退款需在 7 天内申请。"},
        "answer_relevancy": {"question": "怎么退款？", "statement": "在订单页申请退款。"}}


def item(task, number, **changes):
    base = {"id": f"{task[0]}{number:03d}", "split": "dev", "lang": "zh", "phenomenon": "paraphrase",
            **ITEM[task], "label": 1, "note": "why"}
    base.update(changes)
    return base


def write(folder, task, items):
    lines = [json.dumps(i, ensure_ascii=False) if isinstance(i, dict) else i for i in items]
    (folder / f"{task}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


@pytest.mark.parametrize("task", TRIAD_TASKS)
def test_reads_each_task(tmp_path, task):
    write(tmp_path, task, [item(task, 1), item(task, 2, label=0, split="heldout", lang="en")])
    frame = read_triad_labels(tmp_path, task)
    assert frame["id"].tolist() == [f"{task[0]}001", f"{task[0]}002"]
    assert frame["label"].tolist() == [1, 0] and frame["split"].tolist() == ["dev", "heldout"]
    assert list(frame.columns)[:4] == ["id", "split", "lang", "phenomenon"]
    assert list(frame.columns)[-2:] == ["label", "note"]


@pytest.mark.parametrize("changes, message", [
    ({"label": 2}, "line 2: label must be 1 or 0"),
    ({"label": True}, "line 2: label must be 1 or 0"),
    ({"label": "1"}, "line 2: label must be 1 or 0"),
    ({"split": "test"}, "line 2: split must be one of"),
    ({"lang": "fr"}, "line 2: lang must be one of"),
    ({"statement": "  "}, "line 2: statement must be a non-empty string"),
    ({"id": "f001"}, "line 2: id 'f001' appears twice"),
])
def test_bad_items_name_the_line(tmp_path, changes, message):
    write(tmp_path, "faithfulness", [item("faithfulness", 1), item("faithfulness", 2, **changes)])
    with pytest.raises(ValueError, match=message):
        read_triad_labels(tmp_path, "faithfulness")


def test_missing_field_bad_json_unknown_task_empty_file(tmp_path):
    bad = item("faithfulness", 1)
    del bad["context"]
    write(tmp_path, "faithfulness", [bad])
    with pytest.raises(ValueError, match="line 1: missing field 'context'"):
        read_triad_labels(tmp_path, "faithfulness")
    write(tmp_path, "faithfulness", ["{not json"])
    with pytest.raises(ValueError, match="line 1: not valid JSON"):
        read_triad_labels(tmp_path, "faithfulness")
    with pytest.raises(ValueError, match="task must be one of"):
        read_triad_labels(tmp_path, "faithfullness")
    write(tmp_path, "faithfulness", [""])
    with pytest.raises(ValueError, match="holds no items"):
        read_triad_labels(tmp_path, "faithfulness")


class Recorder(Judge):
    name = "recorder"

    def __init__(self):
        self.calls = []

    def support(self, statements, contexts):
        self.calls.append(("support", statements, contexts))
        return [Verdict(True, "s")]

    def context_relevance(self, question, texts):
        self.calls.append(("context_relevance", question, texts))
        return [Verdict(False, "c")]

    def answer_relevance(self, question, statements):
        self.calls.append(("answer_relevance", question, statements))
        return [Verdict(True, "a")]


@pytest.mark.parametrize("task, expected", [
    ("faithfulness", ("support", ["支持 7 天退款。"], ["产品支持 7 天退款。"])),
    ("context_relevancy", ("context_relevance", "退款政策？", ["退款需在 7 天内申请。"])),
    ("answer_relevancy", ("answer_relevance", "怎么退款？", ["在订单页申请退款。"])),
])
def test_judge_items_asks_once_per_item(tmp_path, task, expected):
    write(tmp_path, task, [item(task, 1), item(task, 2)])
    judge = Recorder()
    out = judge_items(read_triad_labels(tmp_path, task), task, judge)
    assert judge.calls == [expected, expected]
    assert out["judge"].tolist() == [int(task != "context_relevancy")] * 2
    assert list(out.columns)[-2:] == ["judge", "reason"]


def test_judge_items_errors():
    import pandas as pd

    with pytest.raises(TypeError, match="items must be a DataFrame"):
        judge_items([{"question": "q"}], "answer_relevancy")
    with pytest.raises(ValueError, match="lacks the column"):
        judge_items(pd.DataFrame({"question": ["q"]}), "answer_relevancy")


def test_agreement_summary_matches_its_parts():
    truth, predicted = [1, 1, 1, 0, 0, 1, 0, 1], [1, 0, 1, 0, 1, 1, 0, 1]
    summary = agreement_summary(truth, predicted)
    assert list(summary.index) == ["n", "accuracy", "majority_share", "kappa"]
    assert summary["n"] == 8 and summary["accuracy"] == 6 / 8 and summary["majority_share"] == 5 / 8
    assert summary["kappa"] == pytest.approx(rml.cohens_kappa(truth, predicted), abs=1e-12)
    assert math.isnan(agreement_summary([1, 1], [1, 1])["kappa"])
    with pytest.raises(ValueError, match="same items"):
        agreement_summary([1], [1, 0])
    with pytest.raises(ValueError, match="empty"):
        agreement_summary([], [])


def test_meets_agreement_bar_edges():
    on_the_bar = agreement_summary([1] * 5 + [0] * 5, [1] * 4 + [0] + [0] * 4 + [1])  # accuracy 0.8, kappa 0.6
    assert meets_agreement_bar(on_the_bar)
    exactly = {"n": 10, "accuracy": 0.6, "majority_share": 0.5, "kappa": 0.2}   # 0.6 - 0.5 is 0.0999... in floats
    assert meets_agreement_bar(exactly)
    assert not meets_agreement_bar({**exactly, "accuracy": 0.59})
    # kappa is reported beside the bar, not part of it: a low or undefined kappa does not decide
    assert meets_agreement_bar({**exactly, "kappa": 0.1}) and meets_agreement_bar({**exactly, "kappa": math.nan})
    skewed = {"n": 10, "accuracy": 0.8, "majority_share": 0.8, "kappa": 0.5}   # no better than the majority
    assert not meets_agreement_bar(skewed)


def write_second(folder, task, lines):
    (folder / "second_labeller").mkdir(exist_ok=True)
    text = "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n"
    (folder / "second_labeller" / f"{task}.jsonl").write_text(text, encoding="utf-8")


@pytest.mark.parametrize("task", TRIAD_TASKS)
def test_read_second_labels_joins_the_first_file(tmp_path, task):
    write(tmp_path, task, [item(task, 1), item(task, 2, label=0), item(task, 3)])
    write_second(tmp_path, task, [{"id": f"{task[0]}003", "label": 0}, {"id": f"{task[0]}001", "label": 1}])
    both = read_second_labels(tmp_path, task)
    assert both["id"].tolist() == [f"{task[0]}001", f"{task[0]}003"]   # the first file's order
    assert both["label"].tolist() == [1, 1] and both["second_label"].tolist() == [1, 0]
    assert list(both.columns) == [*read_triad_labels(tmp_path, task).columns, "second_label"]


@pytest.mark.parametrize("line, message", [
    ({"id": "f001", "label": 2}, "second_labeller/faithfulness.jsonl, line 2: label must be 1 or 0"),
    ({"id": "f001", "label": False}, "line 2: label must be 1 or 0"),
    ({"label": 1}, "line 2: expected a JSON object with an id and a label"),
    ([1, 0], "line 2: expected a JSON object with an id and a label"),
    ({"id": "f002", "label": 1}, "line 2: id 'f002' appears twice"),
    ("{not json", "line 2: not valid JSON"),
])
def test_read_second_labels_names_the_bad_line(tmp_path, line, message):
    write(tmp_path, "faithfulness", [item("faithfulness", 1), item("faithfulness", 2)])
    write_second(tmp_path, "faithfulness", [{"id": "f002", "label": 1}, line])
    with pytest.raises(ValueError, match=message):
        read_second_labels(tmp_path, "faithfulness")


def test_read_second_labels_unknown_id_empty_file_no_file(tmp_path):
    write(tmp_path, "faithfulness", [item("faithfulness", 1)])
    write_second(tmp_path, "faithfulness", [{"id": "f001", "label": 1}, {"id": "f999", "label": 0}])
    with pytest.raises(ValueError, match=r"second_labeller/faithfulness.jsonl: id\(s\) \['f999'\] are not in faithfulness.jsonl"):
        read_second_labels(tmp_path, "faithfulness")
    write_second(tmp_path, "faithfulness", ["", "  "])
    with pytest.raises(ValueError, match="second_labeller/faithfulness.jsonl holds no items"):
        read_second_labels(tmp_path, "faithfulness")
    with pytest.raises(FileNotFoundError, match="answer_relevancy"):
        read_second_labels(tmp_path, "answer_relevancy")
    with pytest.raises(ValueError, match="task must be one of"):
        read_second_labels(tmp_path, "relevancy")


def test_judge_items_with_its_arguments_swapped_says_so():
    """Swapped, the DataFrame reached `task not in TRIAD_TASKS`: pandas' "truth value ... is ambiguous"."""
    items = pytest.importorskip("pandas").DataFrame([item("answer_relevancy", 1)])
    with pytest.raises(TypeError, match="takes the items first"):
        judge_items("answer_relevancy", items)
    with pytest.raises(ValueError, match="got a DataFrame"):
        judge_items(items, items)


def test_a_missing_label_in_a_nullable_column_is_named_by_position():
    import pandas as pd

    with pytest.raises(ValueError, match=r"truth\[1\] is <NA>: every label must be 1 or 0"):
        agreement_summary(pd.Series([1, None, 0], dtype="Int64"), [1, 1, 0])
    with pytest.raises(ValueError, match=r"predicted\[0\] is 0.7"):
        agreement_summary([1, 0], [0.7, 0])
    assert agreement_summary([True, 0], [1.0, False])["accuracy"] == 1.0
