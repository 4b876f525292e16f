"""q14_bow_cosine: cosine similarity of two bag-of-words count vectors, for ``notebooks/14_answer_relevancy.ipynb``.

ragas' answer relevancy averages the cosine similarity between the embedding of the user's question
and the embeddings of questions an LLM writes back from the answer. The notebook simulates it
offline with bag-of-words vectors: each text becomes the counts of its tokens, and the cosine is
the dot product of the two count vectors over the product of their lengths (Euclidean norms).
Expected values come from the unigram counts of ``ragmetrics_lite.text.tokenization.ngram_counts``
(``collections.Counter``) and the textbook formula, which equals
``sklearn.metrics.pairwise.cosine_similarity`` on ``CountVectorizer`` rows; a text without tokens
is a zero vector, whose cosine is undefined, and counts as 0.0 here (nothing in common).

>>> check(reference_solution)
Correct: your function agrees with the reference on all 207 cases (7 edge cases, 200 random).
"""
from __future__ import annotations

import math
from collections import Counter

from ragmetrics_lite.text.tokenization import ngram_counts
from . import _cases
from ._checker import Case, FunctionExercise, Mistake


def reference_solution(a, b):
    count_a, count_b = Counter(a), Counter(b)
    dot = sum(count * count_b[word] for word, count in count_a.items())
    norm_a = math.sqrt(sum(count * count for count in count_a.values()))
    norm_b = math.sqrt(sum(count * count for count in count_b.values()))
    if norm_a == 0 or norm_b == 0:
        return 0.0
    return dot / (norm_a * norm_b)


def _expected(a, b):
    counts_a = {gram[0]: c for gram, c in ngram_counts(a, 1).items()}
    counts_b = {gram[0]: c for gram, c in ngram_counts(b, 1).items()}
    norms = math.hypot(*counts_a.values()) * math.hypot(*counts_b.values())
    return sum(c * counts_b.get(word, 0) for word, c in counts_a.items()) / norms if norms else 0.0


def _dot(a, b):
    count_b = Counter(b)
    return float(sum(count * count_b[word] for word, count in Counter(a).items()))


def _binary(a, b):
    distinct_a, distinct_b = set(a), set(b)
    norms = math.sqrt(len(distinct_a) * len(distinct_b))
    return len(distinct_a & distinct_b) / norms if norms else 0.0


def _jaccard(a, b):
    union = set(a) | set(b)
    return len(set(a) & set(b)) / len(union) if union else 0.0


def _over_token_counts(a, b):
    return _dot(a, b) / math.sqrt(len(a) * len(b)) if a and b else 0.0


def _over_list_lengths(a, b):
    return _dot(a, b) / (len(a) * len(b)) if a and b else 0.0


def _over_list_lengths_unguarded(a, b):
    return _dot(a, b) / (len(a) * len(b))


def _norms_over_shared_words(a, b):
    count_a, count_b = Counter(a), Counter(b)
    shared = set(count_a) & set(count_b)
    norms = math.sqrt(sum(count_a[w] ** 2 for w in shared) * sum(count_b[w] ** 2 for w in shared))
    return _dot(a, b) / norms if norms else 0.0


def _unguarded(a, b):
    count_a, count_b = Counter(a), Counter(b)
    norms = math.sqrt(sum(c * c for c in count_a.values())) * math.sqrt(sum(c * c for c in count_b.values()))
    return _dot(a, b) / norms


q14_bow_cosine = FunctionExercise(
    "q14_bow_cosine",
    """
    Write my_bow_cosine(a, b): a and b are token lists (for example rml.tokenize of two questions).
    Turn each into a bag-of-words count vector (how often each word occurs) and return the cosine of
    the angle between the two vectors: their dot product over the product of their norms, each norm
    the square root of the vector's summed squared counts (not the number of tokens in the list).
    Word order does not matter; return 0.0 when either list is empty (a zero vector).
    """,
    notebook="14_answer_relevancy",
    reference=_expected,
    argnames=("a", "b"),
    edge_cases=[
        Case(([], ["退款"]), "an empty list"),
        Case((["退款"], ["退款"]), "the same single word"),
        Case((["怎么", "退款"], ["公司", "历史"]), "no word in common"),
        Case((["申请", "退款"], ["退款", "申请"]), "the same words in another order"),
        Case((["怎么", "申请", "退款"], ["如何", "申请", "退款"]), "two of three words shared"),
        Case((["退款", "退款", "申请"], ["退款", "申请"]), "a word repeated in one list"),
        Case((["the", "cat", "the", "cat", "sat"], ["the", "the", "the", "mat"]), "repeats on both sides"),
    ],
    random_case=_cases.text_pair,
    hints=(
        "Draw the two texts as columns of word counts over the words either of them uses. What does "
        "each column's length (its norm, not the number of tokens) measure, and what should a text "
        "with no words give?",
        "Count the words of each list (collections.Counter). dot = sum over the words of a of "
        "count_a[w] * count_b[w]; each norm is the square root of the sum of its squared counts. "
        "Return 0.0 if a norm is 0, else dot / (norm_a * norm_b).",
    ),
    solution=reference_solution,
    solution_imports="import math\nfrom collections import Counter",
    mistakes=[
        Mistake(_dot, "this is the dot product alone; divide it by the two vectors' lengths so that "
                "identical texts give 1 whatever their length"),
        Mistake(_binary, "this counts each distinct word once (0/1 vectors); a bag of words keeps how "
                "often each word occurs"),
        Mistake(_jaccard, "this is the Jaccard overlap of the two word sets (shared over all words); "
                "cosine divides the dot product of the count vectors by their lengths"),
        Mistake(_over_list_lengths, "this divides by the product of the two lists' lengths (their token "
                "counts); divide by the product of the vectors' norms, each the square root of the summed "
                "squared counts"),
        Mistake(_over_list_lengths_unguarded, "this divides by the product of the two lists' lengths (their "
                "token counts), and by zero for an empty list; divide by the product of the vectors' norms, "
                "and return 0.0 when either list is empty"),
        Mistake(_over_token_counts, "this divides by the square root of the token counts; a vector's "
                "length is the square root of its summed squared counts"),
        Mistake(_norms_over_shared_words, "this measures the lengths over the shared words only; each "
                "length takes every word of its own text"),
        Mistake(_unguarded, "this fails on an empty list; a text with no words is a zero vector, "
                "return 0.0 for it"),
    ],
)

check = q14_bow_cosine.check
hint = q14_bow_cosine.hint
solution = q14_bow_cosine.solution
