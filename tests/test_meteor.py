"""METEOR (exact matches, optional synonym table): worked example, edge cases, agreement with nltk.

nltk's WordNet data cannot be downloaded here, and we match exactly anyway, so nltk gets a
stemmer that changes nothing and a WordNet stand-in: one without synonyms, or one that reads
the same synonym table we pass to ``meteor``.
"""
from __future__ import annotations

import random

import pytest
from nltk.translate.meteor_score import _count_chunks, align_words, meteor_score

from ragmetrics_lite.text.meteor import count_chunks, meteor, meteor_alignment

from .helpers import run_with_blocked

REFERENCE = ["埃菲尔铁塔", "的", "高度", "为", "330", "米"]
CANDIDATE = ["埃菲尔铁塔", "的", "高度", "是", "330", "米"]


class KeepWord:
    """A stemmer that returns the word unchanged: nltk's stem stage then adds nothing."""

    def stem(self, word):
        return word


class Lemma:
    def __init__(self, name):
        self._name = name

    def name(self):
        return self._name


class Synset:
    def __init__(self, names):
        self._names = names

    def lemmas(self):
        return [Lemma(name) for name in self._names]


class TableWordNet:
    """Stands in for nltk.corpus.wordnet: ``synsets(word)`` reads a dict (empty: no synonyms)."""

    def __init__(self, table=None):
        self.table = table or {}

    def synsets(self, word):
        return [Synset(self.table[word])] if word in self.table else []


def nltk_meteor(candidate, references, alpha=0.9, beta=3.0, gamma=0.5, synonyms=None):
    """nltk takes the references first."""
    return meteor_score(references, candidate, stemmer=KeepWord(), wordnet=TableWordNet(synonyms),
                        alpha=alpha, beta=beta, gamma=gamma)


# --- worked example ---------------------------------------------------------------------------


def test_eiffel_pair_by_hand():
    alignment = meteor_alignment(CANDIDATE, REFERENCE)
    assert alignment == [(0, 0), (1, 1), (2, 2), (4, 4), (5, 5)]
    assert count_chunks(alignment) == 2
    precision = recall = 5 / 6
    fmean = precision * recall / (0.9 * precision + 0.1 * recall)
    expected = (1 - 0.5 * (2 / 5) ** 3) * fmean
    assert meteor(CANDIDATE, [REFERENCE]) == pytest.approx(expected, abs=1e-15)
    assert meteor(CANDIDATE, [REFERENCE]) == pytest.approx(nltk_meteor(CANDIDATE, [REFERENCE]), abs=1e-12)


def test_a_synonym_table_closes_the_gap():
    table = {"是": ["为"]}
    assert meteor_alignment(CANDIDATE, REFERENCE, synonyms=table) == [(i, i) for i in range(6)]
    ours = meteor(CANDIDATE, [REFERENCE], synonyms=table)
    assert ours == pytest.approx((1 - 0.5 * (1 / 6) ** 3) * 1.0, abs=1e-15)
    assert ours > meteor(CANDIDATE, [REFERENCE])
    assert ours == pytest.approx(nltk_meteor(CANDIDATE, [REFERENCE], synonyms=table), abs=1e-12)


def test_synonyms_are_looked_up_by_the_candidate_word_only():
    assert meteor(["为"], [["是"]], synonyms={"是": ["为"]}) == 0.0
    assert meteor(["是"], [["为"]], synonyms={"是": ["为"]}) > 0.0


def test_case_is_ignored():
    assert meteor(["The", "CAT"], [["the", "cat"]]) == meteor(["the", "cat"], [["the", "cat"]])
    assert meteor_alignment(["The", "Cat"], ["cat", "THE"]) == [(0, 1), (1, 0)]
    assert meteor(["Big"], [["big"]], synonyms={"BIG": ["Large"]}) == meteor(["big"], [["big"]])
    assert meteor(["Big"], [["LARGE"]], synonyms={"BIG": ["Large"]}) > 0


def test_greedy_alignment_goes_from_the_last_candidate_token():
    # the last "the" takes the last free "the"; the first takes what is left
    assert meteor_alignment(["the", "cat", "sat", "the"], ["The", "mat", "the", "cat"]) == [(0, 0), (1, 3), (3, 2)]


def test_best_reference_wins():
    worse, better = ["x", "y"], REFERENCE
    assert meteor(CANDIDATE, [worse, better]) == meteor(CANDIDATE, [better]) > meteor(CANDIDATE, [worse])


def test_count_chunks():
    assert count_chunks([]) == 0
    assert count_chunks([(3, 7)]) == 1
    assert count_chunks([(0, 0), (1, 1), (2, 2)]) == 1
    assert count_chunks([(0, 1), (1, 0)]) == 2  # adjacent in the candidate only
    assert count_chunks([(2, 5), (0, 0), (1, 1)]) == 2  # sorted first


# --- edge cases and bad input ---------------------------------------------------------------------


@pytest.mark.parametrize("candidate, references", [([], [REFERENCE]), (CANDIDATE, [[]]), ([], [[]]), (["x"], [["y"]])])
def test_empty_or_unmatched_gives_nltks_0(candidate, references):
    assert meteor(candidate, references) == 0.0 == nltk_meteor(candidate, references)


def test_no_references_is_an_error_in_both():
    with pytest.raises(ValueError, match="at least one reference"):
        meteor(CANDIDATE, [])
    with pytest.raises(ValueError):
        nltk_meteor(CANDIDATE, [])


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"candidate": "埃菲尔铁塔的高度是 330 米"}, TypeError, "call tokenize first"),
        ({"references": REFERENCE}, TypeError, r"write \[reference\]"),
        ({"references": ["埃菲尔铁塔的高度为 330 米"]}, TypeError, "write"),
        ({"candidate": [None]}, TypeError, "must be a str"),
        ({"alpha": 1.5}, ValueError, "alpha must be between 0 and 1"),
        ({"gamma": -0.1}, ValueError, "gamma must be between 0 and 1"),
        ({"beta": -1}, ValueError, "beta must be >= 0"),
        ({"beta": float("inf")}, ValueError, "finite"),
        ({"alpha": "0.9"}, TypeError, "alpha must be a number"),
        ({"synonyms": [("是", "为")]}, TypeError, "synonyms must be a dict"),
        ({"synonyms": {"是": "为"}}, TypeError, "must be a list of words"),
        ({"synonyms": {"是": ["为 是"]}}, ValueError, "whitespace"),
    ],
)
def test_meteor_refuses_bad_input(kwargs, error, message):
    arguments = {"candidate": CANDIDATE, "references": [REFERENCE], **kwargs}
    with pytest.raises(error, match=message):
        meteor(**arguments)


# --- agreement with nltk on random input ----------------------------------------------------------

VOCABULARY = ["的", "米", "高", "a", "A", "b", "c"]  # "A" checks the lower-casing


def random_sentence(rng: random.Random) -> list[str]:
    return [rng.choice(VOCABULARY) for _ in range(rng.randint(0, 12))]


def random_parameters(rng: random.Random) -> dict:
    if rng.random() < 0.3:
        return {}
    return {"alpha": rng.random(), "beta": rng.uniform(0, 5), "gamma": rng.random()}


def random_synonyms(rng: random.Random) -> dict:
    words = ["的", "米", "高", "a", "b", "c"]
    return {w: rng.sample(words, rng.randint(1, 3)) for w in rng.sample(words, rng.randint(1, 4))}


def test_meteor_agrees_with_nltk_on_random_input():
    rng = random.Random(1234)
    nonzero = 0
    for _ in range(1500):
        candidate = random_sentence(rng)
        references = [random_sentence(rng) for _ in range(rng.randint(1, 4))]
        parameters = random_parameters(rng)
        ours = meteor(candidate, references, **parameters)
        assert ours == pytest.approx(nltk_meteor(candidate, references, **parameters), abs=1e-9)
        nonzero += ours > 0
    assert 500 < nonzero < 1500


def test_meteor_with_synonyms_agrees_with_nltk_reading_the_same_table():
    rng = random.Random(4321)
    for _ in range(1000):
        candidate = random_sentence(rng)
        references = [random_sentence(rng) for _ in range(rng.randint(1, 4))]
        table, parameters = random_synonyms(rng), random_parameters(rng)
        ours = meteor(candidate, references, synonyms=table, **parameters)
        theirs = nltk_meteor(candidate, references, synonyms=table, **parameters)
        assert ours == pytest.approx(theirs, abs=1e-9), (candidate, references, table)


def test_alignment_and_chunks_agree_with_nltk():
    rng = random.Random(77)
    for _ in range(1000):
        candidate, reference = random_sentence(rng), random_sentence(rng)
        table = random_synonyms(rng) if rng.random() < 0.5 else None
        ours = meteor_alignment(candidate, reference, synonyms=table)
        theirs, _, _ = align_words(candidate, reference, stemmer=KeepWord(), wordnet=TableWordNet(table))
        assert ours == theirs
        if ours:
            assert count_chunks(ours) == _count_chunks(theirs)


def test_meteor_works_with_the_references_blocked():
    out = run_with_blocked(
        """
        import ragmetrics_lite as rm
        ref = ["埃菲尔铁塔", "的", "高度", "为", "330", "米"]
        cand = ["埃菲尔铁塔", "的", "高度", "是", "330", "米"]
        pairs = rm.meteor_alignment(cand, ref)
        print(round(rm.meteor(cand, [ref]), 4), round(rm.meteor(cand, [ref], synonyms={"是": ["为"]}), 4),
              pairs, rm.count_chunks(pairs))
        """
    )
    assert out == "0.8067 0.9977 [(0, 0), (1, 1), (2, 2), (4, 4), (5, 5)] 2\n"
