"""Time the text metrics of ragmetrics_lite against their reference libraries.

    /work/venv/bin/python scripts/benchmark_text.py [--sentences 3000] [--seed 0]

Random sentences over a 2,000-word vocabulary, 5 to 40 tokens, one or two
references each. Each side gets its own kind of input, prepared before the
clock starts: token lists for ragmetrics_lite, space-joined strings for
sacrebleu and rouge-score, token lists for nltk. Every pair of results is
checked to agree before the times are printed. A ratio above 1 means
ragmetrics_lite is slower. Times are CPU time of this process
(``time.process_time``), so that other work on a shared machine disturbs them
less; each is the best of five runs, the two sides taking turns.
"""
from __future__ import annotations

import argparse
import logging
import math
import random
import time

from nltk.translate.meteor_score import meteor_score
from rouge_score import rouge_scorer
from sacrebleu.metrics import BLEU

import ragmetrics_lite as rm


class SplitTokenizer:
    def tokenize(self, text):
        return text.split()


class KeepWord:
    def stem(self, word):
        return word


class NoSynonyms:
    def synsets(self, word):
        return []


def best_times(ours, theirs, repeats: int = 5):
    """Fastest CPU times of ``ours`` and ``theirs``, run in turns, and their last results."""
    times = {ours: [], theirs: []}
    results = {}
    for _ in range(repeats):
        for function in (ours, theirs):
            start = time.process_time()
            results[function] = function()
            times[function].append(time.process_time() - start)
    return min(times[ours]), min(times[theirs]), results[ours], results[theirs]


def make_corpus(size: int, seed: int):
    rng = random.Random(seed)
    vocabulary = [f"w{i}" for i in range(2000)]
    weights = [1 / (rank + 1) for rank in range(len(vocabulary))]  # Zipf-like: common words repeat

    def sentence():
        return rng.choices(vocabulary, weights, k=rng.randint(5, 40))

    candidates = [sentence() for _ in range(size)]
    references = [[sentence() for _ in range(rng.randint(1, 2))] for _ in range(size)]
    return candidates, references


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=0, abs_tol=1e-9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)

    candidates, references = make_corpus(args.sentences, args.seed)
    hyp_strings = [" ".join(c) for c in candidates]
    streams = [[" ".join(refs[k]) if k < len(refs) else None for refs in references] for k in range(2)]
    first_refs = [refs[0] for refs in references]
    first_ref_strings = [" ".join(r) for r in first_refs]
    sacre = BLEU(tokenize="none", smooth_method="exp", effective_order=True)
    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer=SplitTokenizer())

    def ours_rouge():
        pairs = zip(candidates, first_refs)
        return [(rm.rouge_n(c, r, 1), rm.rouge_n(c, r, 2), rm.rouge_l(c, r)) for c, r in pairs]

    def their_rouge():
        return [scorer.score(target=r, prediction=c) for c, r in zip(hyp_strings, first_ref_strings)]

    rows = [
        (
            "corpus BLEU",
            lambda: rm.corpus_bleu(candidates, references, smoothing="exp", effective_order=True),
            lambda: sacre.corpus_score(hyp_strings, streams).score / 100,
            lambda a, b: close(a, b),
        ),
        (
            "sentence BLEU, each sentence",
            lambda: [
                rm.bleu(c, r, smoothing="exp", effective_order=True) for c, r in zip(candidates, references)
            ],
            lambda: [
                sacre.sentence_score(h, [" ".join(x) for x in r]).score / 100
                for h, r in zip(hyp_strings, references)
            ],
            lambda a, b: all(close(x, y) for x, y in zip(a, b)),
        ),
        (
            "ROUGE-1, -2, -L, each pair",
            ours_rouge,
            their_rouge,
            lambda a, b: all(
                close(x.fmeasure, y[name].fmeasure)
                for ours, theirs in zip(a, b)
                for x, y, name in zip(ours, [theirs] * 3, ["rouge1", "rouge2", "rougeL"])
            ),
        ),
        (
            "METEOR (exact), each sentence",
            lambda: [rm.meteor(c, r) for c, r in zip(candidates, references)],
            lambda: [
                meteor_score(r, c, stemmer=KeepWord(), wordnet=NoSynonyms())
                for c, r in zip(candidates, references)
            ],
            lambda a, b: all(close(x, y) for x, y in zip(a, b)),
        ),
    ]
    print(f"{args.sentences} random sentences, seed {args.seed}; CPU seconds, best of 5 runs")
    print(f"{'metric':32} {'ragmetrics_lite':>16} {'reference':>12} {'ratio':>7}")
    for name, ours, theirs, agree in rows:
        ours_time, their_time, ours_result, their_result = best_times(ours, theirs)
        assert agree(ours_result, their_result), f"{name}: results differ"
        print(f"{name:32} {ours_time:15.3f}s {their_time:11.3f}s {ours_time / their_time:7.2f}")


if __name__ == "__main__":
    main()
