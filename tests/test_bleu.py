"""BLEU: the notes' worked numbers, edge cases, bad input, and agreement with sacrebleu."""
from __future__ import annotations

import logging
import math
import random

import pytest
from sacrebleu.metrics import BLEU

from ragmetrics_lite.text.bleu import (
    SMOOTHING_DEFAULTS,
    bleu,
    brevity_penalty,
    clipped_precision,
    closest_reference_length,
    corpus_bleu,
)

from .helpers import run_with_blocked

# sacrebleu logs "It is recommended to enable effective_order ..." for every sentence score.
logging.getLogger("sacrebleu").setLevel(logging.ERROR)

REFERENCE = ["埃菲尔铁塔", "的", "高度", "为", "330", "米"]
CANDIDATE = ["埃菲尔铁塔", "的", "高度", "是", "330", "米"]

SMOOTHINGS = [("none", None), ("floor", None), ("floor", 0.25), ("add-k", None), ("add-k", 0.5), ("exp", None)]


def sacre_sentence(candidate, references, max_n=4, smoothing="none", smooth_value=None, effective_order=False):
    metric = BLEU(
        tokenize="none",
        max_ngram_order=max_n,
        smooth_method=smoothing,
        smooth_value=smooth_value,
        effective_order=effective_order,
    )
    return metric.sentence_score(" ".join(candidate), [" ".join(r) for r in references]).score / 100


def sacre_corpus(candidates, references, max_n=4, smoothing="none", smooth_value=None, effective_order=False):
    """sacrebleu wants reference *streams*; a candidate with fewer references is padded with None."""
    width = max(len(refs) for refs in references)
    streams = [[" ".join(refs[k]) if k < len(refs) else None for refs in references] for k in range(width)]
    metric = BLEU(
        tokenize="none",
        max_ngram_order=max_n,
        smooth_method=smoothing,
        smooth_value=smooth_value,
        effective_order=effective_order,
    )
    return metric.corpus_score([" ".join(c) for c in candidates], streams).score / 100


# --- the source notes' worked example --------------------------------------------------------


def test_notes_clipped_precisions():
    assert clipped_precision(CANDIDATE, [REFERENCE], 1) == (5, 6)
    assert clipped_precision(CANDIDATE, [REFERENCE], 2) == (3, 5)


def test_notes_bleu_2_is_0_7071_not_0_817():
    expected = math.sqrt(5 / 6 * 3 / 5)
    assert bleu(CANDIDATE, [REFERENCE], max_n=2) == pytest.approx(expected, abs=1e-12)
    assert round(expected, 4) == 0.7071
    # The notes' 0.817 pairs ln(5/6) = -0.1823 with log10(0.6) = -0.2218.
    slip = math.exp(0.5 * math.log(5 / 6) + 0.5 * math.log10(0.6))
    assert round(slip, 3) == 0.817
    assert bleu(CANDIDATE, [REFERENCE], max_n=2) == pytest.approx(sacre_sentence(CANDIDATE, [REFERENCE], 2), abs=1e-12)


def test_notes_brevity_penalty_table():
    assert brevity_penalty(6, 6) == 1.0
    assert brevity_penalty(5, 6) == pytest.approx(math.exp(1 - 6 / 5), abs=1e-15)
    assert round(brevity_penalty(5, 6), 4) == 0.8187
    assert brevity_penalty(7, 6) == 1.0


def test_bleu_4_of_the_notes_pair_is_0_without_smoothing():
    # no 4-gram is shared, so the classic formula gives 0; smoothing rescues it
    assert clipped_precision(CANDIDATE, [REFERENCE], 4) == (0, 3)
    assert bleu(CANDIDATE, [REFERENCE]) == 0.0
    for smoothing, value in SMOOTHINGS[1:]:
        ours = bleu(CANDIDATE, [REFERENCE], smoothing=smoothing, smooth_value=value)
        assert 0 < ours == pytest.approx(sacre_sentence(CANDIDATE, [REFERENCE], 4, smoothing, value), abs=1e-12)


# --- conventions --------------------------------------------------------------------------------


def test_closest_reference_length_prefers_the_shorter_on_a_tie():
    assert closest_reference_length(6, [4, 8, 9]) == 4
    assert closest_reference_length(6, [5, 7]) == 5
    assert closest_reference_length(6, [9, 6, 2]) == 6
    # through bleu: a 2-token candidate against refs of length 1 and 3 uses r = 1, so BP = 1
    assert bleu(["a", "b"], [["a"], ["a", "b", "c"]], max_n=1) == 1.0


def test_clipping_uses_the_largest_count_in_any_one_reference():
    assert clipped_precision(["的"] * 4, [["的", "的"], ["的", "x", "的", "的"]], 1) == (3, 4)


def test_brevity_penalty_of_an_empty_candidate_is_0():
    assert brevity_penalty(0, 3) == 0.0
    assert brevity_penalty(0, 0) == 1.0


def test_effective_order_only_skips_orders_the_candidate_is_too_short_for():
    candidate, references = ["a", "b"], [["a", "b", "c"]]
    assert bleu(candidate, references) == 0.0
    assert bleu(candidate, references, effective_order=True) == pytest.approx(math.exp(1 - 3 / 2), abs=1e-15)
    # a zero precision of an order the candidate has is not skipped
    assert bleu(["a", "c", "b"], [["a", "b", "c"]], max_n=2, effective_order=True) == 0.0


def test_add_k_counts_orders_the_candidate_is_too_short_for():
    # sacrebleu adds k to matches and totals of every order >= 2 before checking the total
    # (sacrebleu's arithmetic in percent gives 100.00000000000004 here)
    value = bleu(["a", "b"], [["a", "b"]], smoothing="add-k")
    assert value == 1.0
    assert value == pytest.approx(sacre_sentence(["a", "b"], [["a", "b"]], smoothing="add-k"), abs=1e-12)


@pytest.mark.parametrize("smoothing, value", SMOOTHINGS)
def test_empty_candidate_or_reference_gives_sacrebleus_0(smoothing, value):
    for candidate, references in [([], [REFERENCE]), (CANDIDATE, [[]]), ([], [[]]), ([], [[], ["a"]])]:
        for effective_order in (False, True):
            ours = bleu(candidate, references, smoothing=smoothing, smooth_value=value, effective_order=effective_order)
            theirs = sacre_sentence(candidate, references, 4, smoothing, value, effective_order)
            assert ours == theirs == 0.0


def test_an_empty_reference_still_counts_for_the_closest_length():
    # sacrebleu keeps '' as a reference of length 0 (only None is dropped)
    candidate, references = ["a"], [["a", "b", "c"], []]
    assert closest_reference_length(1, [3, 0]) == 0
    assert bleu(candidate, references, max_n=1) == 1.0
    assert sacre_sentence(candidate, references, 1) == pytest.approx(1.0, abs=1e-12)
    assert sacre_sentence(candidate, [references[0]], 1) < 0.2  # without it, BP = exp(1 - 3)


def test_corpus_bleu_is_not_the_mean_of_sentence_bleu():
    candidates = [CANDIDATE, ["埃菲尔铁塔", "高"]]
    references = [[REFERENCE], [["埃菲尔铁塔", "高", "330", "米"]]]
    corpus = corpus_bleu(candidates, references, max_n=2)
    # p1 = 7/8, p2 = 4/6, BP = exp(1 - 10/8)
    assert corpus == pytest.approx(math.exp(1 - 10 / 8) * math.sqrt(7 / 8 * 4 / 6), abs=1e-12)
    mean = sum(bleu(c, r, max_n=2) for c, r in zip(candidates, references)) / 2
    assert abs(corpus - mean) > 0.01
    assert corpus == pytest.approx(sacre_corpus(candidates, references, 2), abs=1e-12)


# --- bad input -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"candidate": "埃菲尔铁塔的高度是 330 米"}, TypeError, "call tokenize first"),
        ({"references": "埃菲尔铁塔的高度为 330 米"}, TypeError, "call tokenize first"),
        ({"references": REFERENCE}, TypeError, r"write \[reference\]"),
        ({"references": []}, ValueError, "at least one reference"),
        ({"references": [REFERENCE, "埃菲尔铁塔"]}, TypeError, "call tokenize first"),
        ({"candidate": ["埃菲尔铁塔", 330]}, TypeError, "must be a str"),
        ({"candidate": ["埃菲尔铁塔 的"]}, ValueError, "whitespace"),
        ({"max_n": 0}, ValueError, "max_n must be >= 1"),
        ({"max_n": 2.0}, TypeError, "max_n must be an int"),
        ({"smoothing": "laplace"}, ValueError, r"one of \('none', 'floor', 'add-k', 'exp'\)"),
        ({"smoothing": "none", "smooth_value": 0.1}, ValueError, "only used by 'floor' and 'add-k'"),
        ({"smoothing": "exp", "smooth_value": 0.1}, ValueError, "only used by 'floor' and 'add-k'"),
        ({"smoothing": "floor", "smooth_value": -0.1}, ValueError, ">= 0"),
        ({"smoothing": "floor", "smooth_value": float("nan")}, ValueError, "finite"),
        ({"effective_order": "yes"}, TypeError, "True or False"),
    ],
)
def test_bleu_refuses_bad_input(kwargs, error, message):
    arguments = {"candidate": CANDIDATE, "references": [REFERENCE], **kwargs}
    with pytest.raises(error, match=message):
        bleu(**arguments)


def test_corpus_bleu_refuses_bad_input():
    with pytest.raises(TypeError, match="call tokenize first"):
        corpus_bleu(["埃菲尔铁塔的高度是 330 米"], [[REFERENCE]])
    with pytest.raises(ValueError, match="one list of references per candidate"):
        corpus_bleu([CANDIDATE, CANDIDATE], [[REFERENCE]])
    with pytest.raises(ValueError, match="at least one sentence"):
        corpus_bleu([], [])
    with pytest.raises(TypeError, match=r"references\[0\] must be a list of token lists"):
        corpus_bleu([CANDIDATE], [REFERENCE])


def test_length_helpers_refuse_bad_input():
    with pytest.raises(ValueError, match="candidate_len must be >= 0, got -1"):
        brevity_penalty(-1, 3)
    with pytest.raises(TypeError, match="reference_len must be an int, got float 2.5"):
        brevity_penalty(3, 2.5)
    with pytest.raises(TypeError, match="reference length must be an int"):
        closest_reference_length(3, [2, "4"])
    with pytest.raises(ValueError, match="at least one length"):
        closest_reference_length(3, [])


# --- agreement with sacrebleu on random input ---------------------------------------------------

VOCABULARY = ["的", "米", "高", "a", "b"]  # tiny, so n-grams repeat and clipping matters


def random_sentence(rng: random.Random, max_len: int = 12) -> list[str]:
    return [rng.choice(VOCABULARY) for _ in range(rng.randint(0, max_len))]


def random_references(rng: random.Random) -> list[list[str]]:
    return [random_sentence(rng) for _ in range(rng.randint(1, 4))]


def all_options():
    for max_n in range(1, 5):
        for smoothing, value in SMOOTHINGS:
            for effective_order in (False, True):
                yield max_n, smoothing, value, effective_order


def test_sentence_bleu_agrees_with_sacrebleu_on_random_input():
    rng = random.Random(20240601)
    metrics = {opts: BLEU(tokenize="none", max_ngram_order=opts[0], smooth_method=opts[1],
                          smooth_value=opts[2], effective_order=opts[3]) for opts in all_options()}
    checked = nonzero = 0
    for _ in range(120):
        candidate, references = random_sentence(rng), random_references(rng)
        hyp, refs = " ".join(candidate), [" ".join(r) for r in references]
        for (max_n, smoothing, value, effective_order), metric in metrics.items():
            ours = bleu(candidate, references, max_n, smoothing, value, effective_order)
            theirs = metric.sentence_score(hyp, refs).score / 100
            assert ours == pytest.approx(theirs, abs=1e-9), (candidate, references, max_n, smoothing, value)
            assert 0.0 <= ours <= 1.0
            checked += 1
            nonzero += ours > 0
    assert checked == 120 * 48
    assert 0 < nonzero < checked  # both branches were taken


def test_clipped_precision_agrees_with_sacrebleus_counts():
    rng = random.Random(7)
    for _ in range(300):
        candidate, references = random_sentence(rng), random_references(rng)
        max_n = rng.randint(1, 4)
        score = BLEU(tokenize="none", max_ngram_order=max_n, smooth_method="none").sentence_score(
            " ".join(candidate), [" ".join(r) for r in references])
        ours = [clipped_precision(candidate, references, n) for n in range(1, max_n + 1)]
        assert [m for m, _ in ours] == score.counts
        assert [t for _, t in ours] == score.totals
        assert closest_reference_length(len(candidate), [len(r) for r in references]) == score.ref_len


def test_corpus_bleu_agrees_with_sacrebleu_on_random_corpora():
    rng = random.Random(99)
    checked = 0
    for _ in range(60):
        size = rng.randint(1, 6)
        candidates = [random_sentence(rng) for _ in range(size)]
        references = [random_references(rng) for _ in range(size)]  # 1-4 references each
        for max_n, smoothing, value, effective_order in all_options():
            ours = corpus_bleu(candidates, references, max_n, smoothing, value, effective_order)
            theirs = sacre_corpus(candidates, references, max_n, smoothing, value, effective_order)
            assert ours == pytest.approx(theirs, abs=1e-9), (candidates, references, max_n, smoothing, value)
            checked += 1
    assert checked == 60 * 48


def test_one_sentence_corpus_equals_sentence_bleu():
    rng = random.Random(3)
    for _ in range(200):
        candidate, references = random_sentence(rng), random_references(rng)
        max_n, (smoothing, value) = rng.randint(1, 4), rng.choice(SMOOTHINGS)
        assert corpus_bleu([candidate], [references], max_n, smoothing, value) == bleu(
            candidate, references, max_n, smoothing, value)


def test_smoothing_defaults_are_sacrebleus():
    assert SMOOTHING_DEFAULTS == BLEU.SMOOTH_DEFAULTS


def test_bleu_works_with_the_references_blocked():
    out = run_with_blocked(
        """
        import ragmetrics_lite as rm
        ref = ["埃菲尔铁塔", "的", "高度", "为", "330", "米"]
        cand = ["埃菲尔铁塔", "的", "高度", "是", "330", "米"]
        print(round(rm.bleu(cand, [ref], max_n=2), 4), round(rm.corpus_bleu([cand], [[ref]], smoothing="exp"), 4),
              rm.clipped_precision(cand, [ref], 2), round(rm.brevity_penalty(5, 6), 4),
              rm.closest_reference_length(6, [4, 8]), sorted(rm.SMOOTHING_DEFAULTS))
        """
    )
    assert out == "0.7071 0.3799 (3, 5) 0.8187 4 ['add-k', 'exp', 'floor', 'none']\n"


# --- the fast path: each segment's statistics counted at once equal the sentence statistics -----
@pytest.mark.parametrize("seed", range(12))
def test_segment_statistics_counted_at_once_equal_the_sentence_statistics(seed):
    from ragmetrics_lite.fast.text import bleu_statistics
    from ragmetrics_lite.text.bleu import _segment_stats

    rng = random.Random(seed)
    vocabulary = [f"w{i}" for i in range(rng.choice([2, 3, 5, 50]))]
    candidates = [rng.choices(vocabulary, k=rng.randint(0, 8)) for _ in range(rng.randint(1, 40))]
    references = [[rng.choices(vocabulary, k=rng.randint(0, 8)) for _ in range(rng.randint(1, 3))]
                  for _ in candidates]
    for max_n in (1, 2, 4):
        rows = bleu_statistics(candidates, references, max_n).tolist()
        assert rows == [_segment_stats(c, refs, max_n) for c, refs in zip(candidates, references)]


@pytest.mark.parametrize("seed", range(4))
def test_corpus_bleu_scores_the_summed_sentence_statistics(seed):
    from ragmetrics_lite.text.bleu import _score_from_stats, _segment_stats

    rng = random.Random(seed)
    vocabulary = [f"w{i}" for i in range(5)]
    candidates = [rng.choices(vocabulary, k=rng.randint(1, 8)) for _ in range(30)]
    references = [[rng.choices(vocabulary, k=rng.randint(1, 8)) for _ in range(rng.randint(1, 3))]
                  for _ in candidates]
    summed = [sum(column) for column in zip(*(_segment_stats(c, r, 4) for c, r in zip(candidates, references)))]
    for smoothing in ("none", "exp"):
        want = _score_from_stats(summed, 4, smoothing, None, False)
        assert corpus_bleu(candidates, references, smoothing=smoothing) == want


@pytest.mark.parametrize("limit", [2**62, 300])  # 300: the 4-gram codes are renumbered first
def test_ngram_codes_are_equal_exactly_when_the_ngrams_are(limit):
    from ragmetrics_lite.fast.text import ngram_codes, token_stream

    rng = random.Random(limit)
    sentences = [rng.choices("abcde", k=rng.randint(0, 6)) for _ in range(15)]
    for n, _, code in ngram_codes(token_stream(sentences), 4, room=2**62 // limit):
        grams = [tuple(s[i : i + n]) for s in sentences for i in range(len(s) - n + 1)]
        assert len(code) == len(grams)
        assert len(set(zip(grams, code.tolist()))) == len(set(grams)) == len(set(code.tolist()))
        assert code.max(initial=0) < limit


def test_ngram_codes_refuse_a_batch_too_large_to_count_exactly():
    from ragmetrics_lite.fast.text import ngram_codes, token_stream

    with pytest.raises(ValueError, match="too many distinct n-grams"):
        list(ngram_codes(token_stream([list("abcdeabcdeedcba")]), 3, room=2**62 // 20))
