"""trec_eval_measure names the pytrec_eval measure that gives the same per-query numbers."""
import math
import warnings

import pytest
import pytrec_eval

from ragmetrics_lite import evaluate, trec_eval_measure

QRELS = {"q1": {"a": 2, "b": 1, "c": 0, "d": -1, "e": 3}, "q2": {"x": 1, "y": 0}}
RUN = {"q1": {"a": 1.0, "b": 1.0, "x": 2.0, "d": 0.5, "f": 0.25}, "q2": {"y": 3.0, "z": 2.0, "x": 1.0}}
NAMES = ["recall@3", "precision@2", "hit_rate@1", "mrr", "map", "map@2", "ndcg", "ndcg@3", "r_precision"]


@pytest.mark.parametrize("level", [1, 2])
def test_every_named_measure_agrees_with_pytrec_eval(level):
    measures = {name: trec_eval_measure(name) for name in NAMES}
    evaluator = pytrec_eval.RelevanceEvaluator(QRELS, {ask for ask, _ in measures.values()}, relevance_level=level)
    reference = evaluator.evaluate(RUN)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ours = evaluate(QRELS, RUN, NAMES, relevance_level=level)
    for name, (_, key) in measures.items():
        for query in QRELS:
            assert math.isclose(ours.loc[query, name], reference[query][key], abs_tol=1e-9), (name, query)


@pytest.mark.parametrize("name", ["mrr@5", "dcg@3"])
def test_metrics_without_a_trec_eval_measure(name):
    assert trec_eval_measure(name) is None


def test_unknown_names_are_refused():
    with pytest.raises(ValueError, match="unknown metric"):
        trec_eval_measure("ndcg_cut_10")
