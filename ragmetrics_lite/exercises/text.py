"""Exercises for the text-metric notebooks 08-11: BLEU, ROUGE-N recall, the LCS and METEOR's chunks.

Expected values come from ``ragmetrics_lite``'s own text metrics (``bleu``,
``rouge_n``, ``lcs``, ``count_chunks``), never from a second copy of the
formula. The functions in this module named like the task (``bleu``,
``rouge_n_recall``, ``lcs_length``, ``count_chunks``) are the reference
*solutions* that ``solution()`` prints; the tests prove that each passes its
exercise. The private ``_``-functions are known mistakes, each with the
diagnosis printed when an answer behaves exactly like it. One comes from the
source notes: their BLEU for the Eiffel pair (0.817) takes the natural log of
p1 but log10 of p2, then undoes both with exp; the right BLEU-2 is 0.7071.

Random cases draw their tokens from three to five words, so repeated words and
shared n-grams are common.

>>> from ragmetrics_lite.exercises import q08_bleu
>>> q08_bleu.check(bleu)
Correct: your function agrees with the reference on all 208 cases (8 edge cases, 200 random).
"""
from __future__ import annotations

import math
from collections import Counter

from .. import bleu_score as bleu_metrics
from .. import meteor_score as meteor_metrics
from .. import rouge as rouge_metrics
from ._checker import Case, FunctionExercise, Mistake

__all__ = ["q08_bleu", "q09_rouge_n", "q10_lcs", "q11_meteor_chunks"]


_WORDS = ["the", "cat", "sat", "on", "mat"]

# The source notes' examples, tokenized as in the notebooks.
_EIFFEL_REFERENCE = ["埃菲尔铁塔", "的", "高度", "为", "330", "米"]
_EIFFEL_CANDIDATE = ["埃菲尔铁塔", "的", "高度", "是", "330", "米"]
_SUMMARY_REFERENCE = ["埃菲尔铁塔", "高", "330", "米", "是", "法国", "巴黎", "的", "标志性", "建筑"]
_SUMMARY_CANDIDATE = ["巴黎", "的", "埃菲尔铁塔", "有", "330", "米", "高", "是", "著名", "的", "旅游", "景点"]


def _random_tokens(rng, vocabulary, low, high):
    return [rng.choice(vocabulary) for _ in range(rng.randint(low, high))]


def _edited(rng, tokens, vocabulary):
    """A copy of tokens with one to three random edits (replace, delete, insert, swap neighbours)."""
    tokens = list(tokens)
    for _ in range(rng.randint(1, 3)):
        edit = rng.choice(("replace", "delete", "insert", "swap"))
        if edit == "insert" or not tokens:
            tokens.insert(rng.randint(0, len(tokens)), rng.choice(vocabulary))
        elif edit == "replace":
            tokens[rng.randrange(len(tokens))] = rng.choice(vocabulary)
        elif edit == "delete":
            del tokens[rng.randrange(len(tokens))]
        elif len(tokens) > 1:
            i = rng.randrange(len(tokens) - 1)
            tokens[i], tokens[i + 1] = tokens[i + 1], tokens[i]
    return tokens[:8]


def _random_pair(rng):
    """(candidate, reference): often an edited copy of the reference, sometimes unrelated tokens."""
    vocabulary = _WORDS[: rng.randint(3, 5)]
    reference = _random_tokens(rng, vocabulary, 1, 7)
    if rng.random() < 0.7:
        candidate = _edited(rng, reference, vocabulary)
    else:
        candidate = _random_tokens(rng, vocabulary, 0, 7)
    return candidate, reference


def _random_bleu_case(rng):
    return (*_random_pair(rng), rng.choice((1, 1, 2, 2, 2, 3, 4)))


def _random_rouge_case(rng):
    return (*_random_pair(rng), rng.choice((1, 1, 1, 2, 2, 3)))


def _random_lcs_case(rng):
    return _random_pair(rng)


def _random_alignment(rng):
    return (meteor_metrics.meteor_alignment(*_random_pair(rng)),)


def _notebook(name: str) -> str:
    return f"notebooks/{name}.ipynb"


def _counts(tokens, n):
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


# ============================================================================ q08 BLEU
def bleu(candidate, reference, max_n):
    log_total = 0.0
    for n in range(1, max_n + 1):
        cand = Counter(tuple(candidate[i:i + n]) for i in range(len(candidate) - n + 1))
        ref = Counter(tuple(reference[i:i + n]) for i in range(len(reference) - n + 1))
        matches = sum(min(count, ref[gram]) for gram, count in cand.items())
        if matches == 0:  # also when the candidate has no n-grams of this order
            return 0.0
        log_total += math.log(matches / sum(cand.values()))
    c, r = len(candidate), len(reference)
    brevity_penalty = 1.0 if c >= r else math.exp(1 - r / c)
    return brevity_penalty * math.exp(log_total / max_n)


def _precisions(candidate, reference, max_n, clip=True):
    """p_1..p_max_n, or None as soon as an order has no match (BLEU is then 0)."""
    precisions = []
    for n in range(1, max_n + 1):
        cand, ref = _counts(candidate, n), _counts(reference, n)
        if clip:
            matches = sum(min(count, ref[gram]) for gram, count in cand.items())
        else:
            matches = sum(count for gram, count in cand.items() if gram in ref)
        if matches == 0:
            return None
        precisions.append(matches / sum(cand.values()))
    return precisions


def _brevity_penalty(candidate, reference):
    return bleu_metrics.brevity_penalty(len(candidate), len(reference))


def _bleu_from(precisions, penalty, mean_of_logs=lambda ps: sum(math.log(p) for p in ps) / len(ps)):
    return 0.0 if precisions is None else penalty * math.exp(mean_of_logs(precisions))


def _bleu_log10_everywhere(candidate, reference, max_n):
    precisions = _precisions(candidate, reference, max_n)
    mean_log10 = lambda ps: sum(math.log10(p) for p in ps) / len(ps)  # noqa: E731
    return _bleu_from(precisions, _brevity_penalty(candidate, reference), mean_log10)


def _bleu_log10_above_one(candidate, reference, max_n):
    # the source notes: ln p1 = -0.1823 but "log 0.6" = -0.2218, which is log10; exp(-0.20205) = 0.817
    precisions = _precisions(candidate, reference, max_n)
    mixed = lambda ps: (math.log(ps[0]) + sum(math.log10(p) for p in ps[1:])) / len(ps)  # noqa: E731
    return _bleu_from(precisions, _brevity_penalty(candidate, reference), mixed)


def _bleu_unclipped(candidate, reference, max_n):
    precisions = _precisions(candidate, reference, max_n, clip=False)
    return _bleu_from(precisions, _brevity_penalty(candidate, reference))


def _bleu_no_brevity_penalty(candidate, reference, max_n):
    return _bleu_from(_precisions(candidate, reference, max_n), 1.0)


def _bleu_arithmetic_mean(candidate, reference, max_n):
    precisions = []
    for n in range(1, max_n + 1):
        cand, ref = _counts(candidate, n), _counts(reference, n)
        total = sum(cand.values())
        matches = sum(min(count, ref[gram]) for gram, count in cand.items())
        precisions.append(matches / total if total else 0.0)
    return _brevity_penalty(candidate, reference) * sum(precisions) / max_n


def _bleu_arithmetic_mean_unguarded(candidate, reference, max_n):
    precisions = []
    for n in range(1, max_n + 1):
        cand, ref = _counts(candidate, n), _counts(reference, n)
        matches = sum(min(count, ref[gram]) for gram, count in cand.items())
        precisions.append(matches / sum(cand.values()))
    return _brevity_penalty(candidate, reference) * sum(precisions) / max_n


def _bleu_unguarded(candidate, reference, max_n):
    log_total = 0.0
    for n in range(1, max_n + 1):
        cand, ref = _counts(candidate, n), _counts(reference, n)
        matches = sum(min(count, ref[gram]) for gram, count in cand.items())
        log_total += math.log(matches / sum(cand.values()))
    return _brevity_penalty(candidate, reference) * math.exp(log_total / max_n)


def _bleu_penalty_swapped(candidate, reference, max_n):
    c, r = len(candidate), len(reference)
    penalty = 1.0 if c >= r else math.exp(1 - c / r)
    return _bleu_from(_precisions(candidate, reference, max_n), penalty)


def _bleu_penalty_swapped_everywhere(candidate, reference, max_n):
    c, r = len(candidate), len(reference)
    penalty = min(1.0, math.exp(1 - c / r))
    return _bleu_from(_precisions(candidate, reference, max_n), penalty)


_LOG10 = (
    "this takes log10 of the precisions but exp() undoes a natural log: use math.log for every order "
    "(the slip that turns the Eiffel pair's BLEU-2 of 0.7071 into 0.817)"
)
_ARITHMETIC = (
    "this averages the precisions; BLEU takes their geometric mean, exp of the mean of the logs, "
    "so one order without a match gives 0"
)
_SWAPPED = "this swaps r and c in the brevity penalty; it is exp(1 - r/c), r the reference length, when c < r"

q08_bleu = FunctionExercise(
    "q08_bleu",
    """
    Write bleu(candidate, reference, max_n): classic BLEU (双语评估替补) of a candidate token list
    against one reference token list, without smoothing: the clipped n-gram precisions p_1..p_max_n
    (截断计数), their geometric mean with equal weights 1/max_n, times the brevity penalty
    (长度惩罚) BP = exp(1 - r/c) when the candidate (c tokens) is shorter than the reference
    (r tokens), else 1. An order with no match (or no candidate n-gram) gives 0.0.
    """,
    notebook=_notebook("08_bleu"),
    reference=lambda candidate, reference, max_n: bleu_metrics.bleu(candidate, [reference], max_n=max_n),
    argnames=("candidate", "reference", "max_n"),
    edge_cases=[
        Case(([], ["the", "cat"], 1), "an empty candidate"),
        Case((["the"], ["the"], 2), "the candidate is shorter than max_n: it has no 2-grams"),
        Case(
            (["the", "the", "the"], ["the", "cat"], 1),
            "a repeated word, clipped to its count in the reference",
        ),
        Case((["cat", "the"], ["the", "cat"], 2), "no 2-gram matches"),
        Case((["the", "cat"], ["the", "cat", "sat"], 2), "the candidate is shorter than the reference"),
        Case((["the", "cat", "sat", "on"], ["the", "cat", "sat", "on"], 4), "the candidate is the reference"),
        Case((_EIFFEL_CANDIDATE, _EIFFEL_REFERENCE, 2), "the Eiffel pair: p1 = 5/6, p2 = 3/5"),
        Case(
            (_EIFFEL_CANDIDATE[:3] + _EIFFEL_CANDIDATE[4:], _EIFFEL_REFERENCE, 2),
            "the Eiffel reference with a 5-token candidate (BP of 5 tokens against 6)",
        ),
    ],
    random_case=_random_bleu_case,
    hint="""
    For each n from 1 to max_n, count the candidate's n-grams and the reference's with
    collections.Counter; a candidate n-gram matches at most as often as the reference has it
    (min of the two counts). p_n = matches / candidate n-grams; if an order has no match, return
    0.0. Average math.log(p_n) over the orders, take math.exp, and multiply by the brevity penalty.
    """,
    solution=bleu,
    solution_imports="import math\nfrom collections import Counter",
    mistakes=[
        Mistake(_bleu_log10_above_one, _LOG10),
        Mistake(_bleu_log10_everywhere, _LOG10),
        Mistake(
            _bleu_unclipped,
            "this counts every candidate n-gram found in the reference; clip each n-gram's count to "
            "its count in the reference",
        ),
        Mistake(
            _bleu_no_brevity_penalty,
            "this leaves out the brevity penalty exp(1 - r/c) for a candidate shorter than the reference",
        ),
        Mistake(_bleu_arithmetic_mean, _ARITHMETIC),
        Mistake(_bleu_arithmetic_mean_unguarded, _ARITHMETIC),
        Mistake(
            _bleu_unguarded,
            "this fails when an order has no match (math.log(0)) or no candidate n-gram; BLEU is 0.0 then",
        ),
        Mistake(_bleu_penalty_swapped, _SWAPPED),
        Mistake(_bleu_penalty_swapped_everywhere, _SWAPPED + "; a longer candidate is not penalised"),
    ],
)


# ============================================================================ q09 ROUGE-N
def rouge_n_recall(candidate, reference, n):
    cand = Counter(tuple(candidate[i:i + n]) for i in range(len(candidate) - n + 1))
    ref = Counter(tuple(reference[i:i + n]) for i in range(len(reference) - n + 1))
    total = sum(ref.values())
    if total == 0:
        return 0.0
    overlap = sum(min(count, cand[gram]) for gram, count in ref.items())
    return overlap / total


def _ngram_list(tokens, n):
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]


def _rouge_set_overlap(candidate, reference, n):
    ref = _ngram_list(reference, n)
    return len(set(_ngram_list(candidate, n)) & set(ref)) / len(ref) if ref else 0.0


def _rouge_set_overlap_of_sets(candidate, reference, n):
    ref = set(_ngram_list(reference, n))
    return len(set(_ngram_list(candidate, n)) & ref) / len(ref) if ref else 0.0


def _rouge_every_candidate_occurrence(candidate, reference, n):
    ref = _ngram_list(reference, n)
    return sum(1 for gram in _ngram_list(candidate, n) if gram in ref) / len(ref) if ref else 0.0


def _rouge_every_reference_occurrence(candidate, reference, n):
    cand, ref = _ngram_list(candidate, n), _ngram_list(reference, n)
    return sum(1 for gram in ref if gram in cand) / len(ref) if ref else 0.0


def _rouge_precision(candidate, reference, n):
    return rouge_metrics.rouge_n(candidate, reference, n).precision


def _rouge_precision_unguarded(candidate, reference, n):
    cand, ref = _counts(candidate, n), _counts(reference, n)
    return sum(min(count, ref[gram]) for gram, count in cand.items()) / sum(cand.values())


def _rouge_unguarded(candidate, reference, n):
    cand, ref = _counts(candidate, n), _counts(reference, n)
    return sum(min(count, cand[gram]) for gram, count in ref.items()) / sum(ref.values())


_SET = "this compares sets of n-grams, so a repeated n-gram counts once; count them with collections.Counter"
_PRECISION = (
    "this divides by the candidate's n-grams, which is precision; ROUGE-N recall divides by the reference's"
)

q09_rouge_n = FunctionExercise(
    "q09_rouge_n",
    """
    Write rouge_n_recall(candidate, reference, n): ROUGE-N recall, the share of the reference's
    n-grams (n 元组) that the candidate covers. An n-gram the reference has k times and the candidate
    m times counts min(k, m) times. Return 0.0 when the reference has no n-grams.
    """,
    notebook=_notebook("09_rouge_n"),
    reference=lambda candidate, reference, n: rouge_metrics.rouge_n(candidate, reference, n).recall,
    argnames=("candidate", "reference", "n"),
    edge_cases=[
        Case((["the"], ["the"], 2), "the reference has no 2-grams"),
        Case(([], ["the", "cat"], 1), "an empty candidate"),
        Case(
            (["the", "the", "the"], ["the", "cat"], 1), "the candidate repeats a word the reference has once"
        ),
        Case((["the", "the"], ["the", "the", "cat"], 1), "both repeat a word"),
        Case(
            (["the", "cat"], ["the", "the", "cat"], 1), "the reference repeats a word the candidate has once"
        ),
        Case((["the", "cat", "sat"], ["the", "cat"], 2), "the candidate is longer than the reference"),
        Case(
            (_SUMMARY_CANDIDATE, _SUMMARY_REFERENCE, 1), "the Eiffel summary pair, ROUGE-1 (的 is shared once)"
        ),
        Case((_SUMMARY_CANDIDATE, _SUMMARY_REFERENCE, 2), "the Eiffel summary pair, ROUGE-2"),
    ],
    random_case=_random_rouge_case,
    hint="""
    Count the n-grams of each side with collections.Counter over tuple(tokens[i:i + n]). For every
    reference n-gram add min(its reference count, its candidate count), then divide by the number
    of reference n-grams (the sum of the reference counts). Check for zero reference n-grams first.
    """,
    solution=rouge_n_recall,
    solution_imports="from collections import Counter",
    mistakes=[
        Mistake(_rouge_set_overlap, _SET),
        Mistake(_rouge_set_overlap_of_sets, _SET),
        Mistake(
            _rouge_every_candidate_occurrence,
            "this counts every candidate n-gram found in the reference, so a repeat in the candidate "
            "counts again; count each n-gram at most min(candidate count, reference count) times",
        ),
        Mistake(
            _rouge_every_reference_occurrence,
            "this counts every reference n-gram found in the candidate, even when the candidate has it "
            "fewer times; count each n-gram at most min(candidate count, reference count) times",
        ),
        Mistake(_rouge_precision, _PRECISION),
        Mistake(_rouge_precision_unguarded, _PRECISION),
        Mistake(_rouge_unguarded, "this fails when the reference has no n-grams; return 0.0 then"),
    ],
)


# ============================================================================ q10 LCS
def lcs_length(a, b):
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            if a[i - 1] == b[j - 1]:
                table[i][j] = table[i - 1][j - 1] + 1
            else:
                table[i][j] = max(table[i - 1][j], table[i][j - 1])
    return table[len(a)][len(b)]


def _longest_common_substring(a, b):
    best = 0
    for i in range(len(a)):
        for j in range(len(b)):
            run = 0
            while i + run < len(a) and j + run < len(b) and a[i + run] == b[j + run]:
                run += 1
            best = max(best, run)
    return best


def _common_token_count(a, b):
    return sum((Counter(a) & Counter(b)).values())


def _common_word_count(a, b):
    return len(set(a) & set(b))


def _greedy_left_to_right(a, b):
    length, start = 0, 0
    for token in a:
        if token in b[start:]:
            start = b.index(token, start) + 1
            length += 1
    return length


_COMMON = "this counts the tokens the two share, in any order; the LCS keeps them in the same order in both"

q10_lcs = FunctionExercise(
    "q10_lcs",
    """
    Write lcs_length(a, b): the length of the longest common subsequence (最长公共子序列) of two
    token lists, the most tokens that appear in both in the same order, gaps allowed. It is the
    numerator of ROUGE-L.
    """,
    notebook=_notebook("10_rouge_l"),
    reference=lambda a, b: rouge_metrics.lcs(a, b).length,
    argnames=("a", "b"),
    edge_cases=[
        Case(([], ["the"]), "an empty list"),
        Case((["the"], ["cat"]), "nothing in common"),
        Case((["the", "cat"], ["cat", "the"]), "the same words in the opposite order"),
        Case((["the", "on", "cat"], ["the", "cat"]), "a gap in the first list"),
        Case((["the", "cat", "sat"], ["the", "cat", "sat"]), "identical lists"),
        Case(
            (["mat", "the", "cat", "sat"], ["the", "cat", "sat", "mat"]),
            "matching the first word first is a trap",
        ),
        Case((["the", "cat", "on", "the", "mat"], ["the", "mat", "on", "the", "cat"]), "repeated words"),
        Case((_SUMMARY_CANDIDATE, _SUMMARY_REFERENCE), "the Eiffel summary pair"),
    ],
    random_case=_random_lcs_case,
    hint="""
    Fill a table with len(a) + 1 rows and len(b) + 1 columns of zeros: cell [i][j] is the LCS length
    of a[:i] and b[:j]. If a[i - 1] == b[j - 1] it is the cell up-left plus 1, else the larger of
    the cell above and the cell to the left. The answer is the bottom-right cell.
    """,
    solution=lcs_length,
    mistakes=[
        Mistake(
            _longest_common_substring,
            "this is the longest common substring, whose tokens must be adjacent; a subsequence may "
            "skip tokens in either list",
        ),
        Mistake(_common_token_count, _COMMON),
        Mistake(_common_word_count, _COMMON),
        Mistake(
            _greedy_left_to_right,
            "this matches greedily from the left, and an early match can block a longer subsequence; "
            "use the dynamic-programming table",
        ),
    ],
)


# ============================================================================ q11 METEOR chunks
def count_chunks(alignment):
    chunks = 0
    for k, (i, j) in enumerate(alignment):
        if k == 0 or (i, j) != (alignment[k - 1][0] + 1, alignment[k - 1][1] + 1):
            chunks += 1
    return chunks


def _chunks_are_matches(alignment):
    return len(alignment)


def _chunks_breaks_only(alignment):
    return sum(1 for (i, j), nxt in zip(alignment, alignment[1:]) if nxt != (i + 1, j + 1))


def _chunks_one_when_empty(alignment):
    return 1 + _chunks_breaks_only(alignment)


def _chunks_candidate_side(alignment):
    return sum(1 for k, (i, _) in enumerate(alignment) if k == 0 or i != alignment[k - 1][0] + 1)


def _chunks_reference_side(alignment):
    return sum(1 for k, (_, j) in enumerate(alignment) if k == 0 or j != alignment[k - 1][1] + 1)


_ONE_SIDE = (
    "this checks adjacency on one side only; a chunk continues only when the next match is the next "
    "token in the candidate AND in the reference"
)

q11_meteor_chunks = FunctionExercise(
    "q11_meteor_chunks",
    """
    Write count_chunks(alignment): alignment lists METEOR's matches as (candidate index, reference
    index) pairs, sorted by candidate index. A chunk (匹配块) is a run of matches that are adjacent in
    both texts: (i, j) followed by (i + 1, j + 1). Return the number of chunks; no match gives 0.
    """,
    notebook=_notebook("11_meteor"),
    reference=lambda alignment: meteor_metrics.count_chunks(alignment),
    argnames=("alignment",),
    edge_cases=[
        Case(([],), "no match"),
        Case(([(0, 0)],), "one match"),
        Case(([(0, 0), (1, 1)],), "two matches in one chunk"),
        Case(([(0, 1), (1, 0)],), "adjacent in the candidate, reversed in the reference"),
        Case(([(0, 0), (2, 1)],), "adjacent in the reference, a gap in the candidate"),
        Case(([(0, 0), (1, 1), (2, 5), (4, 6)],), "three chunks"),
        Case(
            (meteor_metrics.meteor_alignment(_EIFFEL_CANDIDATE, _EIFFEL_REFERENCE),),
            "the Eiffel pair: 是 against 为 splits the five matches",
        ),
    ],
    random_case=_random_alignment,
    hint="""
    Walk through the pairs: the first pair opens a chunk, and each later pair (i, j) opens a new one
    unless the pair before it is exactly (i - 1, j - 1). An empty alignment has no chunk.
    """,
    solution=count_chunks,
    mistakes=[
        Mistake(_chunks_are_matches, "this counts the matches; adjacent matches share one chunk"),
        Mistake(
            _chunks_breaks_only,
            "this counts the breaks between chunks, one fewer than the chunks; the first match opens a "
            "chunk too",
        ),
        Mistake(_chunks_one_when_empty, "this gives 1 for an empty alignment; no match means no chunk"),
        Mistake(_chunks_candidate_side, _ONE_SIDE),
        Mistake(_chunks_reference_side, _ONE_SIDE),
    ],
)
