"""evaluate agrees with NIST trec_eval's own expected outputs (tests/data/trec_eval).

Each ``out.*`` file is what trec_eval printed for one command line (see the
README next to the files). We read the same qrels and run with ``read_qrels`` /
``read_run``, score them with ``evaluate`` and compare every per-query line and
every ``all`` line of the measures we implement, to the printed precision
(``%6.4f``, so an absolute difference of at most 5e-5).

``all`` is a mean, over different queries depending on the command line:
without ``-c`` trec_eval averages over the queries that are both judged and in
the run; with ``-c`` over every judged query, a query absent from the run
counting 0. ``evaluate`` always returns every judged query (``-c``), so the
test picks the queries to average by hand and checks their count against the
``num_q`` line.
"""
from __future__ import annotations

import math
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ragmetrics_lite import RagMetricsWarning, evaluate, read_qrels, read_run
from tests.helpers import run_with_blocked

DATA = Path(__file__).parent / "data" / "trec_eval"
PRINTED_PRECISION = 5e-5  # values are printed with %6.4f

# trec_eval measure name (pattern) -> our metric name
TREC_TO_OURS = [
    (r"P_(\d+)", "precision@{}"),
    (r"recall_(\d+)", "recall@{}"),
    (r"success_(\d+)", "hit_rate@{}"),
    (r"recip_rank", "mrr"),
    (r"map", "map"),
    (r"map_cut_(\d+)", "map@{}"),
    (r"Rprec", "r_precision"),
    (r"ndcg", "ndcg"),
    (r"ndcg_cut_(\d+)", "ndcg@{}"),
]


def our_name(measure: str) -> str | None:
    """Our metric name for a trec_eval measure name, None for measures we do not implement."""
    for pattern, name in TREC_TO_OURS:
        match = re.fullmatch(pattern, measure)
        if match:
            return name.format(*match.groups())
    return None


def family(measure: str) -> str:
    """'P_5' -> 'P', 'ndcg_cut_10' -> 'ndcg_cut', 'map' -> 'map'."""
    return re.sub(r"_\d+$", "", measure)


def read_expected(name: str) -> dict[tuple[str, str], str]:
    """``{(measure, query id or 'all'): printed value}`` from one trec_eval output file."""
    expected = {}
    for line in (DATA / name).read_text().splitlines():
        measure, query_id, value = line.split("\t")
        key = (measure.strip(), query_id.strip())
        assert key not in expected, f"{name} prints {key} twice"
        expected[key] = value.strip()
    return expected


def trec_order(run: pd.DataFrame) -> pd.DataFrame:
    """The run as trec_eval orders it: per query, score descending, then doc id descending."""
    return run.sort_values(["query_id", "score", "doc_id"], ascending=[True, False, False])


# (expected output, qrels, run, relevance level, -M cut, -c, measure families the file must contain)
ALL_TREC = {"P", "recall", "success", "recip_rank", "map", "map_cut", "Rprec", "ndcg", "ndcg_cut"}
CASES = [
    ("out.test", "qrels.test", "results.test", 1, None, False, {"P", "recip_rank", "map", "Rprec"}),
    ("out.test", "qrels.test.with-comments", "results.test", 1, None, False, {"P", "recip_rank", "map", "Rprec"}),
    ("out.comment.test", "qrels.comment.test", "results.comment.test", 1, None, False,
     {"P", "recip_rank", "map", "Rprec"}),
    ("out.test.a", "qrels.test", "results.test", 1, None, False, ALL_TREC),
    ("out.test.aq", "qrels.test", "results.test", 1, None, False, ALL_TREC),
    ("out.test.aqc", "qrels.test", "results.trunc", 1, None, True, ALL_TREC),
    ("out.test.aqcM", "qrels.test", "results.trunc", 1, 100, True, ALL_TREC),
    ("out.test.aql", "qrels.rel_level", "results.test", 2, None, False, ALL_TREC),
    ("out.test.meas_params", "qrels.test", "results.test", 1, None, False, {"P", "recall", "ndcg_cut", "success"}),
]


@pytest.mark.parametrize(
    "expected_file, qrels_file, run_file, level, max_per_query, all_judged, families",
    CASES,
    ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CASES],
)
def test_evaluate_matches_trec_eval_output(
    expected_file, qrels_file, run_file, level, max_per_query, all_judged, families
):
    expected = read_expected(expected_file)
    measures = sorted({m for m, _ in expected if our_name(m)})
    assert {family(m) for m in measures} == families, "the file holds other measures than the test expects"

    qrels, run = read_qrels(DATA / qrels_file), read_run(DATA / run_file)
    if max_per_query is not None:  # trec_eval -M: keep the top M of each query, in trec_eval's order
        run = trec_order(run).groupby("query_id").head(max_per_query)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RagMetricsWarning)  # checked in test_warnings_on_official_files
        scores = evaluate(qrels, run, [our_name(m) for m in measures], relevance_level=level)

    judged_and_run = sorted(set(qrels["query_id"]) & set(run["query_id"]))
    averaged = list(scores.index) if all_judged else judged_and_run
    per_query_ids = {q for _, q in expected if q != "all"}
    if per_query_ids:  # -q: one line per averaged query and measure
        assert per_query_ids == set(averaged)
    if ("num_q", "all") in expected:  # out.test.meas_params was not asked for num_q
        assert len(averaged) == int(expected[("num_q", "all")])

    compared = 0
    for (measure, query_id), printed in expected.items():
        name = our_name(measure)
        if name is None:
            continue
        column = scores[name]
        ours = column.loc[averaged].mean() if query_id == "all" else column.loc[query_id]
        assert abs(ours - float(printed)) <= PRINTED_PRECISION, (measure, query_id, ours, printed)
        compared += 1
    assert compared == len(measures) * (1 + len(per_query_ids))


def test_without_c_trec_eval_averages_only_over_run_queries():
    """out.test.aqc (-c) and a mean over run queries only differ for the query 302 absent from the run."""
    expected = read_expected("out.test.aqc")
    qrels, run = read_qrels(DATA / "qrels.test"), read_run(DATA / "results.trunc")
    assert sorted(set(qrels["query_id"]) - set(run["query_id"])) == ["302"]
    with pytest.warns(RagMetricsWarning, match="'302'"):
        scores = evaluate(qrels, run, ["map", "precision@10"])
    assert (scores.loc["302"] == 0).all()
    assert abs(scores["map"].mean() - float(expected[("map", "all")])) <= PRINTED_PRECISION
    run_only_mean = scores["map"].drop("302").mean()
    assert abs(run_only_mean - float(expected[("map", "all")])) > 0.01


def test_non_integer_cut_off_in_meas_params():
    """trec_eval was asked for ``ndcg_cut.23.4``; it reads the cut-off as the integer 23.

    It prints ``ndcg_cut_23`` (no 23.4, no 24) and the values equal our ``ndcg@23``.
    ``evaluate`` has no fractional cut-off: a rank is a whole number, so
    ``ndcg@23.4`` is refused rather than silently truncated.
    """
    expected = read_expected("out.test.meas_params")
    cut_offs = sorted({m for m, _ in expected if m.startswith("ndcg_cut_")})
    assert cut_offs == ["ndcg_cut_10", "ndcg_cut_20", "ndcg_cut_23"]
    scores = evaluate(read_qrels(DATA / "qrels.test"), read_run(DATA / "results.test"), ["ndcg@23", "ndcg@24"])
    for query_id in ("301", "302", "303"):
        printed = float(expected[("ndcg_cut_23", query_id)])
        assert abs(scores.loc[query_id, "ndcg@23"] - printed) <= PRINTED_PRECISION
    # 24 would have been a different number for query 301, so the cut really is 23
    assert abs(scores.loc["301", "ndcg@24"] - float(expected[("ndcg_cut_23", "301")])) > PRINTED_PRECISION
    with pytest.raises(ValueError, match="ndcg@23.4"):
        evaluate({"q": {"d": 1}}, {"q": {"d": 1.0}}, ["ndcg@23.4"])


def test_warnings_on_official_files():
    """results.comment.test ranks 301 queries, of which only 31 are judged; results.trunc lacks 302."""
    qrels, run = read_qrels(DATA / "qrels.comment.test"), read_run(DATA / "results.comment.test")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scores = evaluate(qrels, run, ["map"])
    messages = [str(w.message) for w in caught if issubclass(w.category, RagMetricsWarning)]
    assert len(messages) == 1 and messages[0].startswith("270 run queries have no judgments")
    assert len(scores) == 31


def test_with_comments_reads_as_the_plain_file_but_one_docno():
    """qrels.test.with-comments = qrels.test + three comment lines, and one docno spelled with '#'.

    The third comment line announces it ("# comment in docno"): the judgment of
    ``CR93E-1860`` appears as ``CR#93E-1860``, a different id, because a '#'
    inside a line is part of the id. That document is not in results.test,
    which is why trec_eval prints the same out.test for both files.
    """
    plain = read_qrels(DATA / "qrels.test")
    commented = read_qrels(DATA / "qrels.test.with-comments")
    comment_lines = [line for line in (DATA / "qrels.test.with-comments").read_text().splitlines()
                     if line.lstrip().startswith("#")]
    assert comment_lines == ["# comment here", "# and comment here", "# comment in docno"]
    assert len(plain) == len(commented) == 3681
    differs = plain["doc_id"] != commented["doc_id"]
    assert plain.loc[differs, "doc_id"].tolist() == ["CR93E-1860"]
    assert commented.loc[differs, "doc_id"].tolist() == ["CR#93E-1860"]
    commented.loc[differs, "doc_id"] = "CR93E-1860"
    pd.testing.assert_frame_equal(plain, commented)
    assert "CR93E-1860" not in set(read_run(DATA / "results.test")["doc_id"])


def test_ids_containing_hash_are_ids_not_comments():
    run = read_run(DATA / "results.comment.test")
    qrels = read_qrels(DATA / "qrels.comment.test")
    assert len(run) == 30100 and len(qrels) == 5890
    assert run["doc_id"].str.contains("#").sum() > 1000
    assert run.iloc[0].tolist() == ["2024-224960", "msmarco_v2.1_doc_50_2286987788#13_3087841662", 0.7]


def _split_lines(path: Path) -> list[list[str]]:
    return [line.split() for line in path.read_text().splitlines() if line.strip()]


def test_results_trunc_extra_fields_are_ignored():
    path = DATA / "results.trunc"
    lines = _split_lines(path)
    assert sum(len(fields) > 6 for fields in lines) > 0  # the file really has trailing junk
    run = read_run(path)
    assert run["query_id"].tolist() == [f[0] for f in lines]
    assert run["doc_id"].tolist() == [f[2] for f in lines]
    assert run["score"].tolist() == [float(f[4]) for f in lines]
    assert not run.isin(["STANDARD", "junk", "more"]).any().any()


def test_readers_agree_with_pytrec_eval_parsers():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    for qrels_file in ("qrels.test", "qrels.rel_level", "qrels.comment.test"):
        with open(DATA / qrels_file) as handle:
            reference = pytrec_eval.parse_qrel(handle)
        ours = read_qrels(DATA / qrels_file)
        assert {(q, d): g for q, d, g in ours.itertuples(index=False)} == {
            (q, d): g for q, docs in reference.items() for d, g in docs.items()
        }
    for run_file in ("results.test", "results.comment.test"):
        with open(DATA / run_file) as handle:
            reference = pytrec_eval.parse_run(handle)
        ours = read_run(DATA / run_file)
        assert {(q, d): s for q, d, s in ours.itertuples(index=False)} == {
            (q, d): s for q, docs in reference.items() for d, s in docs.items()
        }


def test_everything_works_with_the_reference_libraries_blocked():
    """The helper never imports pytrec_eval, sacrebleu, rouge_score or nltk."""
    code = f"""
    import sys
    import ragmetrics_lite as rm
    from ragmetrics_lite import (average_precision, dcg_at_k, evaluate, hit_at_k, ndcg_at_k,
        precision_at_k, r_precision, read_qrels, read_run, recall_at_k, reciprocal_rank)
    relevant, retrieved = {{"a": 2, "b": 1, "c": 0}}, ["x", "a", "c", "b"]
    print(recall_at_k(relevant, retrieved, 2), precision_at_k(relevant, retrieved, 2),
          hit_at_k(relevant, retrieved, 1), reciprocal_rank(relevant, retrieved),
          reciprocal_rank(relevant, retrieved, k=1), average_precision(relevant, retrieved),
          average_precision(relevant, retrieved, k=2), r_precision(relevant, retrieved),
          round(dcg_at_k([3, 2, 1, 3], 4), 4), round(ndcg_at_k(relevant, retrieved, None), 4),
          round(ndcg_at_k(relevant, retrieved, 2, gain="exponential"), 4))
    qrels = read_qrels({str(DATA / 'qrels.test')!r})
    run = read_run({str(DATA / 'results.test')!r})
    print(round(evaluate(qrels, run, ["map"])["map"].mean(), 4))
    loaded = sorted(m for m in sys.modules if m.split(".")[0] in
                    {{"pytrec_eval", "sacrebleu", "rouge_score", "nltk"}})
    print(loaded)
    """
    lines = run_with_blocked(code).splitlines()
    expected_ndcg = (2 / math.log2(3) + 1 / math.log2(5)) / (2 + 1 / math.log2(3))
    expected_exp = (3 / math.log2(3)) / (3 + 1 / math.log2(3))
    assert lines[0] == (
        f"0.5 0.5 0.0 0.5 0.0 {(1 / 2 + 2 / 4) / 2} 0.25 0.5 6.0539 "
        f"{round(expected_ndcg, 4)} {round(expected_exp, 4)}"
    )
    assert lines[1] == read_expected("out.test")[("map", "all")]
    assert lines[2] == "[]"


def test_blocking_really_blocks():
    """The blocked-import test above would prove nothing if the blocker let imports through."""
    out = run_with_blocked("""
    try:
        import pytrec_eval
        print("imported")
    except ImportError:
        print("blocked")
    """)
    assert out.strip() == "blocked"


def test_trec_order_is_byte_wise_descending():
    """Sanity check of the helper used for -M above: ties go to the larger doc id as bytes."""
    run = pd.DataFrame({"query_id": ["q"] * 4, "doc_id": ["d10", "d9", "D9", "e"], "score": [1.0, 1.0, 1.0, 0.5]})
    assert trec_order(run)["doc_id"].tolist() == ["d9", "d10", "D9", "e"]
    assert np.array_equal(trec_order(run)["score"].to_numpy(), [1.0, 1.0, 1.0, 0.5])
