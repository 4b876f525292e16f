"""Claims notebook 07 makes about the base of NDCG's logarithm, checked on their own, and its
erratum on the source notes' IDCG@4.

With the discount 1/log_b(i + 1) the base cancels in DCG / IDCG, so a learner who writes ``ln``
passes the exercise; Järvelin and Kekäläinen's 2002 discount (weight 1 before rank b, then
1/log_b(i)) does depend on b, and trec_eval computes the log2(rank + 1) form, not theirs.

The notes print IDCG@4 = 6.324 for grades 3, 2, 1, 3: the sum of the terms rounded to three decimals
first; exactly it is 6.3235. The cell of the notes' other figures (id ``cf6096be``) used to print
"IDCG@4, exact (the notes print 6.324) = 6.323, as in the source notes (6.323)".
"""
from __future__ import annotations

import math
from pathlib import Path

import nbformat
import pytest

import ragmetrics_lite as rml
from ragmetrics_lite.course.exercises import REGISTRY

NOTES_JUDGMENTS = {101: 3, 205: 2, 309: 1}
NOTES_RANKING = [999, 205, 101, 888, 309]
SWAPPED = ({"d1": 3, "d2": 2, "d3": 0}, ["d2", "d1", "d3"])  # the notes' 3, 2, 0 with the top two swapped


def _ndcg(judgments, ranking, k, weight):
    """NDCG@k with the gain max(grade, 0) times ``weight(rank)``."""
    actual = [max(judgments.get(doc, 0), 0) for doc in ranking[:k]]
    ideal = sorted((g for g in judgments.values() if g > 0), reverse=True)[:k]
    dcg, idcg = (sum(g * weight(i) for i, g in enumerate(grades, start=1)) for grades in (actual, ideal))
    return dcg / idcg if idcg > 0 else 0.0


def _log_base(b):
    return lambda rank: 1 / math.log(rank + 1, b)


def _jarvelin_kekalainen(b):
    return lambda rank: 1.0 if rank < b else 1 / math.log(rank, b)


@pytest.mark.parametrize("b", [math.e, 3, 10])
def test_the_base_cancels_with_the_log_of_rank_plus_one(b):
    for judgments, ranking, k in [(NOTES_JUDGMENTS, NOTES_RANKING, 5), (*SWAPPED, 3)]:
        assert math.isclose(_ndcg(judgments, ranking, k, _log_base(b)), rml.ndcg_at_k(judgments, ranking, k),
                            rel_tol=0, abs_tol=1e-12)


def test_an_ndcg_written_with_the_natural_log_passes_the_exercise():
    def ndcg_with_ln(ground_truth, retrieved_ids, k):
        return _ndcg(ground_truth, retrieved_ids, k, lambda rank: 1 / math.log(rank + 1))

    assert REGISTRY["q07_ndcg"].evaluate(ndcg_with_ln).status == "correct"


def test_the_jarvelin_kekalainen_discount_depends_on_b():
    by_b = [_ndcg(NOTES_JUDGMENTS, NOTES_RANKING, 5, _jarvelin_kekalainen(b)) for b in (2, 3, 10)]
    assert len({round(v, 12) for v in by_b}) == 3
    assert _ndcg(*SWAPPED, 3, _jarvelin_kekalainen(2)) == 1.0  # ranks 1 and 2 both weigh 1: the swap is free


def test_trec_eval_uses_log2_of_rank_plus_one_not_jarvelin_kekalainen():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    judgments, ranking = SWAPPED
    qrels = {"q": dict(judgments)}
    run = {"q": {doc: float(len(ranking) - i) for i, doc in enumerate(ranking)}}
    got = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.3"}).evaluate(run)["q"]["ndcg_cut_3"]
    assert math.isclose(got, _ndcg(judgments, ranking, 3, _log_base(2)), rel_tol=0, abs_tol=1e-9)
    assert abs(got - _ndcg(judgments, ranking, 3, _jarvelin_kekalainen(2))) > 0.05


def test_the_idcg_erratum_says_what_the_notes_print_and_how():
    notebook = nbformat.read(Path(__file__).resolve().parents[1] / "notebooks" / "07_ndcg.ipynb", as_version=4)
    cells = [cell for cell in notebook.cells if cell.get("id") == "cf6096be"]
    assert len(cells) == 1
    text = "".join(output.get("text", "") for output in cells[0].outputs if output.output_type == "stream")
    assert "as in the source notes (6.323)" not in text, text
    assert "IDCG@4 = 6.3235; the source notes print 6.324" in text, text
    assert "rounded to 3 decimals first (6.324)" in text, text
