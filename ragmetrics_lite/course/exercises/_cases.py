"""Random-case generators and example inputs shared by the exercise modules.

Each generator takes a seeded ``random.Random`` and returns one case's
arguments as a tuple. Id spaces and vocabularies are small on purpose, so that
random rankings often hit relevant documents and random texts share n-grams;
lists are sometimes empty, cut-offs sometimes pass the end of the list.

>>> import random
>>> relevant, retrieved = query(random.Random(0))
>>> relevant <= set(IDS) and set(retrieved) <= set(IDS)
True
"""
from __future__ import annotations

from collections import Counter

from ragmetrics_lite import meteor_alignment

IDS = [f"d{i}" for i in range(1, 8)]
WORDS = ["the", "cat", "sat", "on", "mat"]

# The source notes' examples, tokenized as in the notebooks.
EIFFEL_REFERENCE = ["埃菲尔铁塔", "的", "高度", "为", "330", "米"]
EIFFEL_CANDIDATE = ["埃菲尔铁塔", "的", "高度", "是", "330", "米"]
SUMMARY_REFERENCE = "埃菲尔铁塔 高 330 米 是 法国 巴黎 的 标志性 建筑".split()
SUMMARY_CANDIDATE = "巴黎 的 埃菲尔铁塔 有 330 米 高 是 著名 的 旅游 景点".split()


def ngram_counts(tokens, n):
    """How often each n-gram (a tuple) occurs in ``tokens``."""
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


# ----------------------------------------------------------------------------- retrieval
def query(rng):
    """(relevant set, ranked list): relevant ids from d1-d5, the ranking from d1-d7."""
    relevant = set(rng.sample(IDS[:5], rng.choice((0, 1, 2, 2, 3, 3, 4))))
    retrieved = rng.sample(IDS, rng.choice((0, 1, 2, 3, 4, 5, 5, 6, 6)))
    return relevant, retrieved


def query_at_k(rng):
    return (*query(rng), rng.randint(1, 6))


def dataset_at_k(rng):
    """(relevant sets, rankings, k) for one to four queries."""
    queries = [query(rng) for _ in range(rng.randint(1, 4))]
    return [q[0] for q in queries], [q[1] for q in queries], rng.randint(1, 6)


def dataset(rng):
    """(rankings, relevant sets) for one to four queries, in the order MRR's starter takes them."""
    queries = [query(rng) for _ in range(rng.randint(1, 4))]
    return [q[1] for q in queries], [q[0] for q in queries]


def grades_at_k(rng):
    """(grades in rank order, k); grades -1 to 3, a negative one now and then (it gains 0)."""
    grades = [rng.choice((-1, 0, 1, 1, 2, 2, 3, 3)) for _ in range(rng.randint(0, 6))]
    return grades, rng.randint(1, 7)


def judged_query_at_k(rng):
    """(ground truth {id: grade}, ranked ids, k); judged ids from d1-d5, grades -1 to 3."""
    judged = rng.sample(IDS[:5], rng.choice((0, 1, 2, 3, 3, 4, 4, 5)))
    ground_truth = {doc: rng.choice((-1, 0, 1, 1, 2, 2, 3)) for doc in judged}
    return ground_truth, query(rng)[1], rng.randint(1, 6)


# ----------------------------------------------------------------------------- text
def _tokens(rng, vocabulary, low, high):
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


def text_pair(rng):
    """(candidate, reference): often an edited copy of the reference, sometimes unrelated tokens."""
    vocabulary = WORDS[: rng.randint(3, 5)]
    reference = _tokens(rng, vocabulary, 1, 7)
    if rng.random() < 0.7:
        candidate = _edited(rng, reference, vocabulary)
    else:
        candidate = _tokens(rng, vocabulary, 0, 7)
    return candidate, reference


def bleu_case(rng):
    return (*text_pair(rng), rng.choice((1, 1, 2, 2, 2, 3, 4)))


def rouge_case(rng):
    return (*text_pair(rng), rng.choice((1, 1, 1, 2, 2, 3)))


def alignment(rng):
    """(METEOR's alignment of a random pair,), sorted by candidate index."""
    return (meteor_alignment(*text_pair(rng)),)
