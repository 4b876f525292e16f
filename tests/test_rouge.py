"""ROUGE-N, ROUGE-L and the LCS: the notes' worked numbers, edge cases, agreement with rouge-score."""
from __future__ import annotations

import random

import numpy as np
import pytest
from rouge_score import rouge_scorer

from ragmetrics_lite.text.rouge import LCS, Score, lcs, rouge_l, rouge_n, rouge_scores

from .helpers import run_with_blocked

REFERENCE = ["埃菲尔铁塔", "高", "330", "米", "是", "法国", "巴黎", "的", "标志性", "建筑"]
CANDIDATE = ["巴黎", "的", "埃菲尔铁塔", "有", "330", "米", "高", "是", "著名", "的", "旅游", "景点"]


class SplitTokenizer:
    """rouge-score with no tokenization of its own: split on whitespace only."""

    def tokenize(self, text):
        return text.split()


SCORER = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rouge3", "rougeL"], tokenizer=SplitTokenizer())


def reference_scores(candidate, reference):
    """rouge-score takes the reference (target) first."""
    return SCORER.score(target=" ".join(reference), prediction=" ".join(candidate))


def assert_same(ours: Score, theirs) -> None:
    assert ours.precision == pytest.approx(theirs.precision, abs=1e-9)
    assert ours.recall == pytest.approx(theirs.recall, abs=1e-9)
    assert ours.fmeasure == pytest.approx(theirs.fmeasure, abs=1e-9)


# --- the source notes' worked example --------------------------------------------------------


def test_notes_rouge_1_recall_is_7_10_not_6_10():
    score = rouge_n(CANDIDATE, REFERENCE, 1)
    # shared: 埃菲尔铁塔 高 330 米 是 巴黎 and 的 (the notes missed 的)
    assert score.recall == 7 / 10
    assert score.precision == 7 / 12
    assert_same(score, reference_scores(CANDIDATE, REFERENCE)["rouge1"])


def test_notes_rouge_2_recall_is_2_9():
    score = rouge_n(CANDIDATE, REFERENCE, 2)  # shared bigrams: 330 米, 巴黎 的
    assert score.recall == 2 / 9
    assert score.precision == 2 / 11
    assert_same(score, reference_scores(CANDIDATE, REFERENCE)["rouge2"])


def test_notes_rouge_l():
    score = rouge_l(CANDIDATE, REFERENCE)
    assert score.precision == 5 / 12
    assert score.recall == 0.5
    assert score.fmeasure == pytest.approx(5 / 11, abs=1e-15)
    assert round(score.fmeasure, 4) == 0.4545
    assert_same(score, reference_scores(CANDIDATE, REFERENCE)["rougeL"])


def test_notes_lcs():
    found = lcs(CANDIDATE, REFERENCE)
    assert isinstance(found, LCS)
    assert found.length == 5
    assert found.tokens == ["埃菲尔铁塔", "330", "米", "是", "的"]
    assert found.pairs == [(2, 0), (4, 2), (5, 3), (7, 4), (9, 7)]
    assert found.table.shape == (13, 11)
    assert found.table[-1, -1] == 5
    assert [j for _, j in found.pairs] == rouge_scorer.lcs_ind(REFERENCE, CANDIDATE)


def test_lcs_path_is_a_connected_backtrace():
    found = lcs(CANDIDATE, REFERENCE)
    assert found.path[-1] == (12, 10)
    assert min(found.path[0]) == 0
    for (i0, j0), (i1, j1) in zip(found.path, found.path[1:]):
        assert (i1 - i0, j1 - j0) in {(1, 1), (1, 0), (0, 1)}
    diagonal_steps = [(i1 - 1, j1 - 1) for (i0, j0), (i1, j1) in zip(found.path, found.path[1:])
                      if (i1 - i0, j1 - j0) == (1, 1)]
    assert diagonal_steps == found.pairs


def test_lcs_tie_breaking_drops_the_reference_token_on_a_tie():
    # candidate "a b", reference "b a": ["a"] and ["b"] are both longest. At cell (2, 2) the tokens
    # differ and both neighbours hold 1, so the backtrace drops the reference's "a" and then pairs
    # the two "b"s, as rouge-score's backtrace does.
    found = lcs(["a", "b"], ["b", "a"])
    assert found.tokens == ["b"]
    assert found.pairs == [(1, 0)]
    assert [j for _, j in found.pairs] == rouge_scorer.lcs_ind(["b", "a"], ["a", "b"])


def test_score_is_a_named_tuple():
    score = rouge_n(CANDIDATE, REFERENCE, 1)
    assert score._fields == ("precision", "recall", "fmeasure")
    precision, recall, fmeasure = score
    assert fmeasure == pytest.approx(2 * precision * recall / (precision + recall), abs=1e-15)


# --- edge cases and bad input ---------------------------------------------------------------------


@pytest.mark.parametrize("candidate, reference", [([], REFERENCE), (CANDIDATE, []), ([], [])])
def test_empty_side_gives_rouge_scores_zeros(candidate, reference):
    theirs = reference_scores(candidate, reference)
    for n in (1, 2, 3):
        assert rouge_n(candidate, reference, n) == Score(0.0, 0.0, 0.0)
        assert_same(rouge_n(candidate, reference, n), theirs[f"rouge{n}"])
    assert rouge_l(candidate, reference) == Score(0.0, 0.0, 0.0)
    assert_same(rouge_l(candidate, reference), theirs["rougeL"])
    assert lcs(candidate, reference).length == 0
    assert lcs(candidate, reference).tokens == []


def test_n_longer_than_the_text_gives_zeros():
    assert rouge_n(["a", "b"], ["a", "b"], 3) == Score(0.0, 0.0, 0.0)


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: rouge_n("巴黎的埃菲尔铁塔", REFERENCE, 1), TypeError, "call tokenize first"),
        (lambda: rouge_l(CANDIDATE, "埃菲尔铁塔高"), TypeError, "call tokenize first"),
        (lambda: lcs("ab", ["a"]), TypeError, "call tokenize first"),
        (lambda: rouge_n(CANDIDATE, REFERENCE, 0), ValueError, "n must be >= 1"),
        (lambda: rouge_n(CANDIDATE, REFERENCE, "1"), TypeError, "n must be an int"),
        (lambda: rouge_l([1, 2], REFERENCE), TypeError, "must be a str"),
        (lambda: rouge_l(["a b"], REFERENCE), ValueError, "whitespace"),
    ],
)
def test_bad_input(call, error, message):
    with pytest.raises(error, match=message):
        call()


# --- agreement with rouge-score on random input -------------------------------------------------

VOCABULARY = ["的", "米", "高", "a", "B", "b"]


def random_sentence(rng: random.Random) -> list[str]:
    return [rng.choice(VOCABULARY) for _ in range(rng.randint(0, 12))]


def test_rouge_agrees_with_rouge_score_on_random_input():
    rng = random.Random(2024)
    checked = 0
    for _ in range(1500):
        candidate, reference = random_sentence(rng), random_sentence(rng)
        theirs = reference_scores(candidate, reference)
        for n in (1, 2, 3):
            assert_same(rouge_n(candidate, reference, n), theirs[f"rouge{n}"])
        assert_same(rouge_l(candidate, reference), theirs["rougeL"])
        checked += 4
    assert checked == 6000


def test_lcs_table_and_backtrace_agree_with_rouge_score():
    rng = random.Random(11)
    for _ in range(500):
        candidate, reference = random_sentence(rng), random_sentence(rng)
        found = lcs(candidate, reference)
        their_table = np.array(rouge_scorer._lcs_table(reference, candidate))  # rows: reference
        assert np.array_equal(found.table, their_table.T)
        assert [j for _, j in found.pairs] == rouge_scorer.lcs_ind(reference, candidate)
        assert found.tokens == [reference[j] for _, j in found.pairs]
        assert all(candidate[i] == reference[j] for i, j in found.pairs)


def test_rouge_works_with_the_references_blocked():
    out = run_with_blocked(
        """
        import ragmetrics_lite as rm
        ref = ["埃菲尔铁塔", "高", "330", "米", "是", "法国", "巴黎", "的", "标志性", "建筑"]
        cand = ["巴黎", "的", "埃菲尔铁塔", "有", "330", "米", "高", "是", "著名", "的", "旅游", "景点"]
        found = rm.lcs(cand, ref)
        print(rm.rouge_n(cand, ref, 1).recall, round(rm.rouge_n(cand, ref, 2).recall, 4),
              [round(x, 4) for x in rm.rouge_l(cand, ref)], found.length, found.tokens, found.table.shape,
              isinstance(rm.rouge_l(cand, ref), rm.Score), isinstance(found, rm.LCS))
        """
    )
    assert out == (
        "0.7 0.2222 [0.4167, 0.5, 0.4545] 5 ['埃菲尔铁塔', '330', '米', '是', '的'] (13, 11) True True\n"
    )


# --- the batch path: every pair at once equals the per-pair functions ---------------------------
@pytest.mark.parametrize("seed", range(12))
def test_rouge_scores_equals_the_per_pair_functions(seed):
    import random

    from ragmetrics_lite import rouge_scores

    rng = random.Random(seed)
    vocabulary = [f"w{i}" for i in range(rng.choice([2, 3, 5, 50]))]  # tiny vocabularies: many repeats
    candidates = [rng.choices(vocabulary, k=rng.randint(0, 12)) for _ in range(rng.randint(1, 300))]
    references = [rng.choices(vocabulary, k=rng.randint(0, 12)) for _ in candidates]
    batch = rouge_scores(candidates, references, orders=(1, 2, 3))
    assert len(batch) == len(candidates)
    for i, (candidate, reference) in enumerate(zip(candidates, references)):
        for n in (1, 2, 3):
            want = rouge_n(candidate, reference, n)
            got = [batch.loc[i, f"rouge{n}_{field}"] for field in want._fields]
            assert max(abs(a - b) for a, b in zip(got, want)) <= 1e-12, (i, n)
        want = rouge_l(candidate, reference)
        got = [batch.loc[i, f"rougeL_{field}"] for field in want._fields]
        assert max(abs(a - b) for a, b in zip(got, want)) <= 1e-12, (i, "L")


def test_rouge_scores_refuses_bad_input():
    from ragmetrics_lite import rouge_scores

    with pytest.raises(ValueError, match="one reference per candidate"):
        rouge_scores([["a"]], [])
    with pytest.raises(TypeError, match="call tokenize first"):
        rouge_scores(["a b"], [["a"]])
    with pytest.raises(ValueError, match="n must be >= 1"):
        rouge_scores([["a"]], [["a"]], orders=(0,))


def test_long_texts_need_no_lcs_table():
    """rouge_l filled the whole (n+1) x (m+1) table to read one cell: 72 MB for these 3,000 x 3,000 tokens
    (765 MB for 10,000 x 10,000, bench/memory.py); one row of the shorter text is enough."""
    import tracemalloc

    candidate = [f"w{i % 700}" for i in range(3_000)]
    reference = [f"w{(i * 7) % 700}" for i in range(3_000)]
    tracemalloc.start()
    try:
        score = rouge_l(candidate, reference)
        table = rouge_scores([candidate], [reference])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 10 * 2**20  # about 1 MB
    assert score.fmeasure == table["rougeL_fmeasure"][0]
    short = rouge_l(candidate, reference[:5])  # either side may be the shorter one
    assert rouge_l(reference[:5], candidate) == (short.recall, short.precision, short.fmeasure)
