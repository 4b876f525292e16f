"""Files and command lines a hostile but realistic user gives (issue 27 items 6, 7, 11; issue 26 points 2, 5).

Numbers are read as trec_eval reads them, fields split on spaces and tabs only, control characters in
ids refused, every text file read as UTF-8 with an optional byte-order mark (the scores of a file with
a BOM equal those without), lines bounded in length, and every failure of the command line one line on
stderr with the file, the line or the argument named, never a traceback.
"""
from __future__ import annotations

import io
import json
import os
import warnings

import numpy as np
import pandas as pd
import pytest

import ragmetrics_lite as rml
from ragmetrics_lite import cli, trec_io
from ragmetrics_lite.compare_inputs import read_durations, read_judged
from ragmetrics_lite.course import search
from ragmetrics_lite.retrieval import dcg_at_k, judged_at_k

BOM = "\ufeff"
QRELS = "q1 0 d1 1\nq1 0 d2 0\nq2 0 d3 2\nq2 0 d4 1\nq3 0 d5 1\n"
RUN = "q1 Q0 d2 1 0.9 t\nq1 Q0 d1 2 0.8 t\nq2 Q0 d4 1 0.9 t\nq2 Q0 d3 2 0.5 t\nq3 Q0 d9 1 0.7 t\nq3 Q0 d5 2 0.6 t\n"


def write(folder, name: str, text: str, encoding: str = "utf-8"):
    path = folder / name
    path.write_bytes(text.encode(encoding) if isinstance(text, str) else text)
    return path


def as_csv(trec: str, value: str) -> str:
    rows = [line.split() for line in trec.splitlines()]
    return f"query_id,doc_id,{value}\n" + "".join(f"{r[0]},{r[2]},{r[3] if value == 'relevance' else r[4]}\n"
                                               for r in rows)


def as_jsonl(trec: str, value: str) -> str:
    rows = [line.split() for line in trec.splitlines()]
    return "".join(json.dumps({"query_id": r[0], "doc_id": r[2],
                               value: int(r[3]) if value == "relevance" else float(r[4])}) + "\n" for r in rows)


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    status = cli.main(list(map(str, argv)))
    out, err = capsys.readouterr()
    return status, out, err


# ------------------------------------------------------------------ a byte-order mark is invisible (issue 26.2)
@pytest.mark.parametrize("kind", ["trec", "csv", "jsonl"])
def test_a_byte_order_mark_changes_no_score(tmp_path, kind):
    """A BOM made the first query '\\ufeffq1' (MRR 0.5833 -> 0.75 in a run, MAP 0.4009 -> 0.2549 in qrels),
    and a CSV's header lacked its query_id."""
    make = {"trec": lambda text, value: text, "csv": as_csv, "jsonl": as_jsonl}[kind]
    suffix = {"trec": ".txt", "csv": ".csv", "jsonl": ".jsonl"}[kind]
    plain = rml.evaluate(rml.read_qrels(write(tmp_path, "q" + suffix, make(QRELS, "relevance"))),
                         rml.read_run(write(tmp_path, "r" + suffix, make(RUN, "score"))))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no query may go missing
        marked = rml.evaluate(rml.read_qrels(write(tmp_path, "qb" + suffix, BOM + make(QRELS, "relevance"))),
                              rml.read_run(write(tmp_path, "rb" + suffix, BOM + make(RUN, "score"))))
    pd.testing.assert_frame_equal(plain, marked)


def test_every_other_text_reader_ignores_a_byte_order_mark(tmp_path):
    corpus = '{"doc_id": "d1", "title": "退款", "text": "7天内可退", "updated": "2026-03-01"}\n'
    assert search.read_corpus(write(tmp_path, "corpus.jsonl", BOM + corpus)) == \
        search.read_corpus(write(tmp_path, "plain.jsonl", corpus))
    assert read_durations(write(tmp_path, "ms.csv", BOM + "query_id,ms\nq1,120.5\n")) == [120.5]
    assert read_durations(write(tmp_path, "ms.txt", BOM + "80\n95.5\n")) == [80.0, 95.5]
    judged = "system,query_id,metric,value\nbaseline,q1,faithfulness,0.5\ncandidate,q1,faithfulness,1.0\n"
    tables, _ = read_judged(str(write(tmp_path, "judged.csv", BOM + judged)))
    assert tables["candidate"].loc["q1", "faithfulness"] == 1.0
    label = {"id": "a1", "split": "dev", "lang": "en", "phenomenon": "direct", "question": "How?",
             "statement": "Open the page.", "label": 1, "note": ""}
    write(tmp_path, "answer_relevancy.jsonl", BOM + json.dumps(label) + "\n")
    assert rml.triad.read_triad_labels(tmp_path, "answer_relevancy")["id"].tolist() == ["a1"]


def test_an_invisible_character_left_in_an_id_is_named_by_its_code_point():
    with pytest.warns(rml.RagMetricsWarning) as caught:
        rml.evaluate({"q1": {"d1": 1}}, {"q1": {"d1": 1.0}, "\u200bq1": {"d1": 1.0}})
    message = str(caught[0].message)
    assert message.startswith("1 run query has no judgments and is ignored: ")  # it said "1 run queries have"
    assert "(holds U+200B)" in message


# ------------------------------------------------------------------ numbers and fields as trec_eval reads them (27.7)
@pytest.mark.parametrize("grade", ["1_0", "\uff11", "\u0663", "1.0", "nan", "0x1", "1e1", "+", "99999999999999999999"])
def test_grades_trec_eval_would_refuse_are_refused(tmp_path, grade):
    """int() read '1_0' as 10 and full-width or Arabic-Indic digits as digits; a grade past int64 was an
    uncaught OverflowError."""
    with pytest.raises(ValueError, match=r"q\.txt, line 2: relevance "):
        rml.read_qrels(write(tmp_path, "q.txt", f"q1 0 d1 1\nq1 0 d2 {grade}\n"))


@pytest.mark.parametrize("score, value", [("1e-05", 1e-05), ("-2.5", -2.5), (".5", 0.5), ("3.", 3.0), ("+7", 7.0)])
def test_scores_as_trec_eval_reads_them(tmp_path, score, value):
    assert rml.read_run(write(tmp_path, "r.txt", f"q1 Q0 d1 1 {score} t\n"))["score"].tolist() == [value]


@pytest.mark.parametrize("score", ["1_0.5", "\uff10.5", "inf", "nan", "0,5", "1e", "--1"])
def test_scores_trec_eval_would_refuse_are_refused(tmp_path, score):
    with pytest.raises(ValueError, match="r.txt, line 1: score must be a number"):
        rml.read_run(write(tmp_path, "r.txt", f"q1 Q0 d1 1 {score} t\n"))


def test_fields_are_split_on_spaces_and_tabs_only(tmp_path):
    """A no-break space is part of an id for trec_eval; str.split() cut there, and at \\x1c-\\x1f."""
    run = rml.read_run(write(tmp_path, "r.txt", "q1\tQ0 d\u00a01  1 \t 0.5 t\n"))
    assert run["doc_id"].tolist() == ["d\u00a01"]
    with pytest.raises(ValueError, match=r"r2.txt, line 1: .*control character U\+001C"):
        rml.read_run(write(tmp_path, "r2.txt", "q1 Q0 d1\x1c1 0.5 t\n"))


@pytest.mark.parametrize("kind", ["csv", "jsonl"])
@pytest.mark.parametrize("bad", ["d1\nq9\td9\t1.0", "d1\td2"])
def test_ids_with_control_characters_are_refused(tmp_path, kind, bad):
    """An id holding a line break or a tab printed forged lines under -q."""
    rows = pd.DataFrame({"query_id": ["q1"], "doc_id": [bad], "score": [0.5]})
    path = tmp_path / f"r.{kind}"
    rows.to_csv(path, index=False) if kind == "csv" else rows.to_json(path, orient="records", lines=True)
    with pytest.raises(ValueError, match=r"doc_id .* holds the control character U\+000[9A]"):
        rml.read_run(path)


def test_a_grade_past_int64_is_refused_wherever_it_comes_from():
    """A uint64 relevance column of 2**64 - 1 wrapped to -1 silently; a Python int raised OverflowError."""
    qrels = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["d1", "d2"],
                          "relevance": np.array([1, 2**64 - 1], dtype=np.uint64)})
    run = {"q1": {"d1": 1.0}}
    with pytest.raises(ValueError, match="query 'q1', document 'd2'.* must fit in 64 bits"):
        rml.evaluate(qrels, run)
    with pytest.raises(ValueError, match="must fit in 64 bits"):
        rml.evaluate({"q1": {"d1": 2**70}}, run)
    assert rml.evaluate(qrels.astype({"relevance": np.uint64}).head(1), run)["map"].tolist() == [1.0]


def test_judged_at_k_refuses_a_set_and_dcg_says_when_a_gain_overflows():
    with pytest.raises(TypeError, match=r"relevant must be \{doc_id: grade\}"):
        judged_at_k({"a"}, ["a"], 1)
    with pytest.raises(ValueError, match="exponential gain 2\\*\\*2000 - 1 is too large"):
        dcg_at_k([2000], 1, gain="exponential")
    assert dcg_at_k([1023], 1, gain="exponential") == 2.0**1023 - 1


# ------------------------------------------------------------------ lines, encodings, the command line (27.6, 26.5)
def test_a_file_without_line_breaks_is_refused_after_one_bounded_line(tmp_path, monkeypatch):
    """The reader read /dev/zero, or a huge file without line breaks, into one ever-growing line."""
    monkeypatch.setattr(trec_io, "MAX_LINE_BYTES", 1000)
    with pytest.raises(ValueError, match="zeros, line 1: longer than 1,000 bytes"):
        rml.read_run(write(tmp_path, "zeros", b"\0" * 5000))


@pytest.mark.parametrize("name, text", [("q.txt", b"q1 0 d1 1\nq1 0 d\xff2 1\n"),
                                        ("q.csv", b"query_id,doc_id,relevance\nq1,d1,1\nq1,d\xe92,1\n"),
                                        ("q.jsonl", b'{"query_id": "q1", "doc_id": "d\xc3", "relevance": 1}\n')])
def test_a_file_that_is_not_utf8_is_refused_naming_file_and_line(tmp_path, capsys, name, text):
    status, out, err = run_cli(capsys, "evaluate", write(tmp_path, name, text), write(tmp_path, "r.txt", RUN))
    line = 1 if name.endswith(".jsonl") else 2 if name.endswith(".txt") else 3
    assert status == 2 and out == ""
    assert err.startswith(f"ragmetrics-lite: error: {tmp_path / name}, line {line}: not UTF-8 text")


def test_command_line_errors_are_one_line_naming_the_argument_or_file(tmp_path, capsys):
    run = write(tmp_path, "r.txt", RUN)
    for argv, expected in [
        (["evaluate", tmp_path, run], f"QRELS {tmp_path}: Is a directory"),
        (["evaluate", tmp_path / "nope.txt", run], f"QRELS {tmp_path / 'nope.txt'}: No such file or directory"),
        (["evaluate", write(tmp_path, "q.txt", QRELS), tmp_path / "nope"], f"RUN {tmp_path / 'nope'}: No such file"),
        (["evaluate", write(tmp_path, "empty.txt", "# nothing\n"), run], f"{tmp_path / 'empty.txt'}: no judgments"),
        (["evaluate", write(tmp_path, "big.txt", "q1 0 d1 99999999999999999999\n"), run],
         f"{tmp_path / 'big.txt'}, line 1: relevance '99999999999999999999' is out of range"),
    ]:
        status, out, err = run_cli(capsys, *argv)
        assert (status, out) == (2, "") and err.count("\n") == 1, err
        assert err.startswith(f"ragmetrics-lite: error: {expected}"), err


def test_version(capsys):
    with pytest.raises(SystemExit) as done:
        cli.main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out == f"ragmetrics-lite {rml.__version__}\n"


@pytest.mark.parametrize("where", ["full", "closed", "pipe"])
def test_an_output_that_cannot_be_written_is_one_line_not_a_traceback(tmp_path, monkeypatch, capsys, where):
    """> /dev/full raised OSError, a closed stdout AttributeError, a reader gone BrokenPipeError."""
    args = ["evaluate", write(tmp_path, "q.txt", QRELS), write(tmp_path, "r.txt", RUN), "-q"]
    if where == "full":
        monkeypatch.setattr("sys.stdout", open(os.devnull if not os.path.exists("/dev/full") else "/dev/full", "w"))
    elif where == "closed":
        monkeypatch.setattr("sys.stdout", None)
    else:
        reader, writer = os.pipe()
        os.close(reader)
        monkeypatch.setattr("sys.stdout", io.TextIOWrapper(io.FileIO(writer, "w")))
    status = cli.main(list(map(str, args)))
    err = capsys.readouterr().err
    if where == "full" and not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    assert status == 1 and err.startswith("ragmetrics-lite: error: cannot write the report (") and err.count("\n") == 1
