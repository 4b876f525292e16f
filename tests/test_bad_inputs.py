"""Bad input raises an error that names the problem, never a silently wrong number.

Each case asserts the exception type and a fragment of its message. The
warnings at the end are the two conventions ``evaluate`` applies silently in
trec_eval: judged queries absent from the run score 0, unjudged run queries
are dropped.
"""
from __future__ import annotations

import re
import warnings

import numpy as np
import pandas as pd
import pytest

from ragmetrics_lite import (
    RagMetricsWarning,
    average_precision,
    dcg_at_k,
    evaluate,
    hit_at_k,
    ndcg_at_k,
    precision_at_k,
    r_precision,
    read_qrels,
    read_run,
    recall_at_k,
    reciprocal_rank,
)

QRELS = {"q1": {"d1": 1, "d2": 0}}
RUN = {"q1": {"d1": 0.5, "d2": 0.25}}

# every per-query function called as f(relevant, retrieved), with k where it takes one
PER_QUERY = {
    "recall_at_k": lambda rel, ret, k=3, **kw: recall_at_k(rel, ret, k, **kw),
    "precision_at_k": lambda rel, ret, k=3, **kw: precision_at_k(rel, ret, k, **kw),
    "hit_at_k": lambda rel, ret, k=3, **kw: hit_at_k(rel, ret, k, **kw),
    "reciprocal_rank": lambda rel, ret, k=3, **kw: reciprocal_rank(rel, ret, k=k, **kw),
    "average_precision": lambda rel, ret, k=3, **kw: average_precision(rel, ret, k=k, **kw),
    "ndcg_at_k": lambda rel, ret, k=3, **kw: ndcg_at_k(rel, ret, k, **kw),
}
WITH_K = list(PER_QUERY)
ALL_FUNCTIONS = {**PER_QUERY, "r_precision": lambda rel, ret, k=None, **kw: r_precision(rel, ret, **kw)}


def raises(kind, fragment):
    return pytest.raises(kind, match=re.escape(fragment))


# --------------------------------------------------------------------------- k
@pytest.mark.parametrize("name", WITH_K)
@pytest.mark.parametrize("k, kind, fragment", [
    (0, ValueError, "k must be >= 1, got 0"),
    (-3, ValueError, "k must be >= 1, got -3"),
    (2.5, TypeError, "k must be an int, got float 2.5"),
    (3.0, TypeError, "k must be an int, got float 3.0"),
    ("5", TypeError, "k must be an int, got str '5'"),
    (True, TypeError, "k must be an int, got bool True"),
])
def test_bad_k(name, k, kind, fragment):
    with raises(kind, fragment):
        PER_QUERY[name]({"d1": 1}, ["d1"], k=k)


@pytest.mark.parametrize("name", WITH_K)
def test_numpy_integer_k_works(name):
    assert PER_QUERY[name]({"d1": 1}, ["d1"], k=np.int64(3)) == PER_QUERY[name]({"d1": 1}, ["d1"], k=3)


def test_dcg_bad_k_and_grades():
    with raises(ValueError, "k must be >= 1, got 0"):
        dcg_at_k([1, 2], 0)
    with raises(TypeError, "not a string"):
        dcg_at_k("321", 2)
    with raises(ValueError, "relevance grade of rank 2 must be an integer, got 1.5"):
        dcg_at_k([1, 1.5], 2)


@pytest.mark.parametrize("metric", ["recall@0", "ndcg@0", "ndcg@2.5", "precision@-1", "ndcg@-1", "map@", "mrr@ 5"])
def test_bad_cut_off_in_a_metric_name(metric):
    """A known metric with a bad k is named as a bad cut-off, not as an unknown metric."""
    family = metric.split("@")[0]
    with raises(ValueError, f"bad cut-off in {metric!r}: k must be a whole number >= 1, e.g. '{family}@10'"):
        evaluate(QRELS, RUN, [metric])


# one error type per mistake in every module: a non-integer count is a TypeError, a too small one a ValueError
def _text_calls(value):
    from ragmetrics_lite import bleu, brevity_penalty, clipped_precision, closest_reference_length, ngrams, rouge_n
    tokens = ["a", "b"]
    return {
        "recall_at_k k": lambda: recall_at_k({"d1": 1}, ["d1"], value),
        "evaluate relevance_level": lambda: evaluate(QRELS, RUN, relevance_level=value),
        "ngrams n": lambda: ngrams(tokens, value),
        "rouge_n n": lambda: rouge_n(tokens, tokens, value),
        "bleu max_n": lambda: bleu(tokens, [tokens], max_n=value),
        "clipped_precision n": lambda: clipped_precision(tokens, [tokens], value),
        "brevity_penalty length": lambda: brevity_penalty(value - 1, 2),
        "closest_reference_length length": lambda: closest_reference_length(2, [value - 1]),
    }


@pytest.mark.parametrize("call", list(_text_calls(1)))
def test_one_error_type_per_mistake_across_modules(call):
    with pytest.raises(TypeError, match="must be an int, got float"):
        _text_calls(2.5)[call]()
    with pytest.raises(ValueError, match="must be >= "):
        _text_calls(-3)[call]()


# --------------------------------------------------------------------------- ids and collections
@pytest.mark.parametrize("name", list(ALL_FUNCTIONS))
def test_string_instead_of_a_list(name):
    f = ALL_FUNCTIONS[name]
    with raises(TypeError, "retrieved must be a list of ids, best first, not the string 'd1'"):
        f({"d1": 1}, "d1")
    with raises(TypeError, "not the string 'd1'; wrap a single id in a list: ['d1']"):
        f("d1", ["d1"])


@pytest.mark.parametrize("name", list(ALL_FUNCTIONS))
def test_unordered_or_duplicated_ranking(name):
    f = ALL_FUNCTIONS[name]
    with raises(TypeError, "retrieved must be an ordered list of ids, best first, not a set"):
        f({"d1": 1}, {"d1", "d2"})
    with raises(TypeError, "not a dict"):
        f({"d1": 1}, {"d1": 0.5})
    with raises(ValueError, "retrieved lists the id 'd1' more than once"):
        f({"d1": 1}, ["d1", "d2", "d1"])
    with raises(ValueError, "relevant lists the id 'd1' more than once"):
        f(["d1", "d1"], ["d1"])


@pytest.mark.parametrize("name", list(ALL_FUNCTIONS))
def test_string_and_numeric_ids_mixed(name):
    f = ALL_FUNCTIONS[name]
    with raises(TypeError, "relevant has numeric ids (e.g. 101) but retrieved has string ids (e.g. '101')"):
        f({101: 1}, ["101"])
    with raises(TypeError, "retrieved has numeric ids (e.g. 101) but relevant has string ids (e.g. '101')"):
        f({"101": 1}, [101])
    with raises(TypeError, "every metric would silently be 0"):
        f({"101"}, ["d1", 101])  # mixed within one side too


@pytest.mark.parametrize("name", list(ALL_FUNCTIONS))
def test_numpy_integer_ids_count_as_numbers(name):
    f = ALL_FUNCTIONS[name]
    assert f({np.int64(101): 1}, [101, 7]) == f({101: 1}, [101, 7]) == f({"101": 1}, ["101", "7"])
    assert f([np.int32(101)], np.array([101, 7])) == f({101: 1}, [101, 7])


@pytest.mark.parametrize("name", list(ALL_FUNCTIONS))
def test_boolean_ids_are_refused(name):
    f = ALL_FUNCTIONS[name]
    with raises(TypeError, "must be a string or an integer, got the boolean True"):
        f({True: 1}, [True])
    with raises(TypeError, "got the boolean"):
        f({1: 1}, [np.bool_(True)])


@pytest.mark.parametrize("name", list(ALL_FUNCTIONS))
def test_float_ids_are_refused(name):
    with raises(TypeError, "a float id such as 101.0 would not match 101 as text"):
        ALL_FUNCTIONS[name]({101.0: 1}, [101.0])


# --------------------------------------------------------------------------- grades and scores
@pytest.mark.parametrize("name", list(ALL_FUNCTIONS))
@pytest.mark.parametrize("grade, kind, fragment", [
    (1.5, ValueError, "relevance grade of doc 'd1' must be an integer, got 1.5"),
    ("2", TypeError, "relevance grade of doc 'd1' must be an integer, got str '2'"),
    (float("nan"), ValueError, "relevance grade of doc 'd1' must be finite, got nan"),
    (float("inf"), ValueError, "relevance grade of doc 'd1' must be finite, got inf"),
    (True, TypeError, "relevance grade of doc 'd1' must be an integer, got bool True"),
    (None, TypeError, "relevance grade of doc 'd1' must be an integer, got NoneType None"),
])
def test_bad_grades_in_per_query_functions(name, grade, kind, fragment):
    with raises(kind, fragment):
        ALL_FUNCTIONS[name]({"d1": grade}, ["d1"])


def test_whole_float_grades_and_numpy_grades_work():
    assert average_precision({"d1": 2.0, "d2": np.int64(1)}, ["d2", "d1"]) == 1.0
    assert ndcg_at_k({"d1": np.float64(3.0)}, ["d1"], 1) == 1.0


@pytest.mark.parametrize("grade, kind, fragment", [
    (1.5, ValueError, "must be an integer, got 1.5"),
    ("2", TypeError, "must be an integer, got str '2'"),
    (float("nan"), ValueError, "must be finite, got nan"),
])
def test_bad_grades_in_evaluate(grade, kind, fragment):
    with raises(kind, fragment):
        evaluate({"q1": {"d1": grade}}, RUN)
    frame = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["d2", "d1"], "relevance": [0, grade]})
    with raises(kind, "relevance grade of query 'q1', document 'd1' " + fragment):
        evaluate(frame, RUN)


@pytest.mark.parametrize("score", [float("nan"), float("inf"), -float("inf")])
def test_non_finite_scores(score):
    with raises(ValueError, f"score of query 'q1', document 'd2' must be finite, got {score}"):
        evaluate(QRELS, {"q1": {"d1": 1.0, "d2": score}})
    frame = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["d1", "d2"], "score": [1.0, score]})
    with raises(ValueError, f"score of query 'q1', document 'd2' must be finite, got {score}"):
        evaluate(QRELS, frame)


@pytest.mark.parametrize("score", ["0.5", None, True])
def test_non_numeric_scores(score):
    with raises(TypeError, "must be a number"):
        evaluate(QRELS, {"q1": {"d1": score}})


# --------------------------------------------------------------------------- evaluate: ids and frames
@pytest.mark.parametrize("qrels, run, fragment", [
    ({101: {"d1": 1}}, {"101": {"d1": 1.0}}, "qrels query_id has numeric ids"),
    ({"101": {"d1": 1}}, {101: {"d1": 1.0}}, "run query_id has numeric ids"),
    ({"q1": {101: 1}}, {"q1": {"101": 1.0}}, "qrels doc_id has numeric ids"),
    ({"q1": {"101": 1}}, {"q1": {101: 1.0}}, "run doc_id has numeric ids"),
    ({"q1": {"101": 1}}, {"q1": ["d1", 101]}, "run doc_id has numeric ids"),
])
def test_evaluate_refuses_mixed_id_kinds(qrels, run, fragment):
    with raises(TypeError, fragment):
        evaluate(qrels, run)
    with pytest.raises(TypeError, match="never equals '101'"):
        evaluate(qrels, run)


def test_evaluate_refuses_mixed_id_kinds_in_frames():
    qrels = pd.DataFrame({"query_id": [101], "doc_id": ["d1"], "relevance": [1]})
    run = pd.DataFrame({"query_id": ["101"], "doc_id": ["d1"], "score": [1.0]})
    with raises(TypeError, "qrels query_id has numeric ids"):
        evaluate(qrels, run)
    run = pd.DataFrame({"query_id": [101], "doc_id": [7], "score": [1.0]})
    with raises(TypeError, "qrels doc_id has string ids"):
        evaluate(qrels, run)


def test_evaluate_with_numpy_integer_ids_works():
    qrels = {np.int64(1): {np.int32(5): 1, 6: 0}}
    run = {1: {5: 0.5, np.int64(6): 0.75}}
    scores = evaluate(qrels, run, ["mrr", "precision@2"])
    assert list(scores.index) == ["1"] and scores.loc["1"].tolist() == [0.5, 0.5]
    frame = pd.DataFrame({"query_id": np.array([1, 1]), "doc_id": np.array([5, 6]), "score": [0.5, 0.75]})
    pd.testing.assert_frame_equal(evaluate(qrels, frame, ["mrr", "precision@2"]), scores)


def test_evaluate_refuses_boolean_and_float_ids():
    with raises(TypeError, "got the boolean"):
        evaluate({True: {"d1": 1}}, {True: {"d1": 1.0}})
    with raises(TypeError, "got the boolean"):
        evaluate({"q1": {False: 1}}, {"q1": {False: 1.0}})
    frame = pd.DataFrame({"query_id": ["q1"], "doc_id": [101.0], "relevance": [1]})
    with raises(TypeError, "a float id such as 101.0 would not match 101 as text"):
        evaluate(frame, {"q1": {"d1": 1.0}})


def test_evaluate_refuses_strings_and_sets_inside_dicts():
    with raises(TypeError, "retrieved must be a list of ids, best first, not the string 'd1'"):
        evaluate(QRELS, {"q1": "d1"})
    with raises(TypeError, "not a set"):
        evaluate(QRELS, {"q1": {"d1", "d2"}})
    with raises(TypeError, "relevant must be a mapping {doc_id: grade} or a collection of ids, not the string"):
        evaluate({"q1": "d1"}, RUN)
    with raises(ValueError, "retrieved lists the id 'd1' more than once"):
        evaluate(QRELS, {"q1": ["d1", "d2", "d1"]})


@pytest.mark.parametrize("which", ["qrels", "run"])
def test_duplicate_rows_in_frames(which):
    qrels = pd.DataFrame({"query_id": ["q1", "q1", "q1"], "doc_id": ["d1", "d2", "d1"], "relevance": [1, 0, 0]})
    run = pd.DataFrame({"query_id": ["q1", "q1", "q1"], "doc_id": ["d2", "d1", "d2"], "score": [1.0, 0.5, 0.2]})
    good_qrels, good_run = qrels.iloc[:2], run.iloc[:2]
    doc = "d1" if which == "qrels" else "d2"
    with raises(ValueError, f"{which} has more than one row for query 'q1', document '{doc}'"):
        if which == "qrels":
            evaluate(qrels, good_run)
        else:
            evaluate(good_qrels, run)


def test_frames_missing_a_column():
    with raises(ValueError, "missing ['score']"):
        evaluate(QRELS, pd.DataFrame({"query_id": ["q1"], "doc_id": ["d1"], "rank": [1]}))
    with raises(ValueError, "missing ['relevance']"):
        evaluate(pd.DataFrame({"query_id": ["q1"], "doc_id": ["d1"], "grade": [1]}), RUN)


@pytest.mark.parametrize("qrels, run, fragment", [
    ([("q1", "d1", 1)], RUN, "qrels must be {query_id: {doc_id: grade}} or a DataFrame, got list"),
    (QRELS, [("q1", "d1", 1.0)], "run must be {query_id: {doc_id: score}} or a DataFrame, got list"),
])
def test_wrong_containers(qrels, run, fragment):
    with raises(TypeError, fragment):
        evaluate(qrels, run)


# --------------------------------------------------------------------------- metric names and options
KNOWN = "known metrics: recall@k, precision@k, hit_rate@k, mrr or mrr@k, map or map@k, ndcg or ndcg@k, dcg@k, r_precision"


@pytest.mark.parametrize("metric, fragment", [
    ("recal@5", "unknown metric 'recal@5'; " + KNOWN),
    ("MRR", "unknown metric 'MRR'; " + KNOWN),
    ("P_5", "unknown metric 'P_5'; " + KNOWN),
    ("ndcg_cut_10", "unknown metric 'ndcg_cut_10'; " + KNOWN),
    ("recall", "'recall' needs its cut-off k, e.g. 'recall@5'; " + KNOWN),
    ("precision", "'precision' needs its cut-off k, e.g. 'precision@5'"),
    ("hit_rate", "'hit_rate' needs its cut-off k"),
    ("dcg", "'dcg' needs its cut-off k"),
    ("r_precision@5", "'r_precision' takes no cut-off"),
])
def test_bad_metric_names(metric, fragment):
    with raises(ValueError, fragment):
        evaluate(QRELS, RUN, [metric])


def test_metric_listed_twice_or_not_a_string():
    with raises(ValueError, "a metric is listed twice"):
        evaluate(QRELS, RUN, ["mrr", "map", "mrr"])
    with raises(TypeError, "a metric name must be a string, got 5"):
        evaluate(QRELS, RUN, [5])


def test_a_single_metric_name_may_be_a_string():
    assert list(evaluate(QRELS, RUN, "mrr").columns) == ["mrr"]


@pytest.mark.parametrize("level, kind, fragment", [
    (0, ValueError, "relevance_level must be >= 1, got 0"),
    (-1, ValueError, "relevance_level must be >= 1, got -1"),
    (1.5, TypeError, "relevance_level must be an int, got float 1.5"),
    (True, TypeError, "relevance_level must be an int, got bool True"),
])
def test_bad_relevance_level(level, kind, fragment):
    with raises(kind, fragment):
        evaluate(QRELS, RUN, relevance_level=level)
    for name in ("recall_at_k", "precision_at_k", "hit_at_k", "reciprocal_rank", "average_precision"):
        with raises(kind, fragment):
            PER_QUERY[name]({"d1": 1}, ["d1"], relevance_level=level)
    with raises(kind, fragment):
        r_precision({"d1": 1}, ["d1"], relevance_level=level)


@pytest.mark.parametrize("gain", ["log", "Linear", "exp", None])
def test_bad_gain(gain):
    with raises(ValueError, f"gain must be one of ('linear', 'exponential'), got {gain!r}"):
        ndcg_at_k({"d1": 1}, ["d1"], 3, gain=gain)
    with raises(ValueError, "gain must be one of"):
        dcg_at_k([1, 2], 2, gain=gain)


# --------------------------------------------------------------------------- TREC files
def write(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("text, line, fragment", [
    ("q1 0 d1 1\nq1 0 d2\n", 2, "a qrels line has 4 fields (query_id iteration doc_id relevance), found 3"),
    ("q1 0 d1 1 extra\n", 1, "a qrels line has 4 fields"),
    ("# header\nq1 0 d1 1\n\nq1 0 d2 1.5\n", 4, "relevance must be an integer, got '1.5'"),
    ("q1 0 d1 high\n", 1, "relevance must be an integer, got 'high'"),
    ("q1 0 d1 nan\n", 1, "relevance must be an integer, got 'nan'"),
    ("q1 0 d1 1\nq2 0 d1 1\nq1 0 d1 0\n", 3, "document 'd1' appears twice for query 'q1' (first on line 1)"),
])
def test_bad_qrels_files(tmp_path, text, line, fragment):
    path = write(tmp_path, "bad.qrels", text)
    with raises(ValueError, f"{path}, line {line}: {fragment}"):
        read_qrels(path)


@pytest.mark.parametrize("text, line, fragment", [
    ("q1 Q0 d1 1 0.5 run\nq1 Q0 d2 2 0.4\n", 2, "a run line has 6 fields (query_id Q0 doc_id rank score tag), found 5"),
    ("q1 Q0 d1 1 high run\n", 1, "score must be a number, got 'high'"),
    ("q1 Q0 d1 1 0,5 run\n", 1, "score must be a number, got '0,5'"),
    ("q1 Q0 d1 1 0.5 run\n# comment\nq1 Q0 d2 2 nan run\n", 3, "score must be a number, got 'nan'"),
    ("q1 Q0 d1 1 inf run\n", 1, "score must be a number, got 'inf'"),
    ("q1 Q0 d1 1 0.5 run\nq1 Q0 d1 2 0.4 run\n", 2, "document 'd1' appears twice for query 'q1' (first on line 1)"),
])
def test_bad_run_files(tmp_path, text, line, fragment):
    path = write(tmp_path, "bad.run", text)
    with raises(ValueError, f"{path}, line {line}: {fragment}"):
        read_run(path)


def test_same_doc_in_two_queries_is_fine(tmp_path):
    run = read_run(write(tmp_path, "ok.run", "q1 Q0 d1 1 0.5 a\nq2 Q0 d1 1 0.5 a\n"))
    assert len(run) == 2


# --------------------------------------------------------------------------- warnings
def caught_warnings(qrels, run, **kwargs) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evaluate(qrels, run, **kwargs)
    assert all(issubclass(w.category, RagMetricsWarning) for w in caught)
    return [str(w.message) for w in caught]


def test_one_warning_for_all_queries_missing_from_the_run():
    qrels = {f"q{i}": {"d1": 1} for i in range(10)}
    run = {"q0": {"d1": 1.0}, "q1": {"d1": 1.0}, "q2": {}}
    messages = caught_warnings(qrels, run)
    assert messages == [
        "8 of 10 judged queries have no results in the run and score 0 on every metric (trec_eval -c): "
        "'q2', 'q3', 'q4', 'q5', 'q6' and 3 more"
    ]


def test_one_warning_for_all_unjudged_run_queries():
    run = {"q1": {"d1": 1.0}, "x2": {"d1": 1.0}, "x1": {"d9": 0.5}}
    assert caught_warnings(QRELS, run) == ["2 run queries have no judgments and are ignored: 'x1', 'x2'"]


def test_both_warnings_once_each_per_call():
    qrels = {"q1": {"d1": 1}, "q2": {"d1": 1}, "q3": {"d1": 1}}
    run = {"q1": {"d1": 1.0}, "u1": {"d1": 1.0}, "u2": {"d1": 1.0}}
    for _ in range(2):
        messages = caught_warnings(qrels, run, metrics=["mrr", "map", "ndcg@3"])
        assert len(messages) == 2
        assert messages[0].startswith("2 of 3 judged queries have no results")
        assert messages[1].startswith("2 run queries have no judgments")


def test_no_warning_when_every_query_matches():
    assert caught_warnings(QRELS, RUN) == []
    frame = pd.DataFrame({"query_id": ["q1"], "doc_id": ["d9"], "score": [1.0]})
    assert caught_warnings(QRELS, frame, metrics=["r_precision"]) == []


def test_the_warning_points_at_the_caller():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evaluate({"q1": {"d1": 1}, "q2": {"d1": 1}}, RUN)
    assert [w.filename for w in caught] == [__file__]


def test_empty_qrels_and_queries_without_judgments_are_errors():
    with raises(ValueError, "qrels is empty"):
        evaluate({}, {})
    with raises(ValueError, "qrels query 'q2' has no judgments"):
        evaluate({"q1": {"d1": 1}, "q2": {}}, {"q1": {"d1": 1.0}})
    with raises(ValueError, "qrels query 'q2' has no judgments"):
        evaluate({"q1": {"d1": 1}, "q2": set()}, {"q1": {"d1": 1.0}})


@pytest.mark.parametrize("missing", [None, float("nan")])
def test_missing_ids_in_dataframes_are_named_missing(missing):
    frame = pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["d1", missing], "score": [1.0, 0.5]})
    with raises(ValueError, "is missing"):
        evaluate(QRELS, frame)


def test_mixed_id_message_shows_plain_integers():
    with raises(TypeError, "(e.g. 101)"):
        evaluate({"q1": {np.int64(101): 1}}, {"q1": {"101": 1.0}})
