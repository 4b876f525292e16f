"""Time the text metrics of ragmetrics_lite against their reference libraries, as ratios.

    PYTHONPATH=. .venv/bin/python scripts/benchmark_text.py [--sentences 3000] [--repeats 7] [--seed 0]
                                                            [--per-sentence]

Rows (the speed targets are the first two):

* ``corpus_bleu`` against sacrebleu's ``corpus_score`` (no smoothing, as ``bench/run.py``);
* ``rouge_scores`` (ROUGE-1, -2 and -L of every pair) against rouge-score's ``score`` looped;
* with ``--per-sentence``: sentence ``bleu`` (exp smoothing, effective order), ``rouge_n`` twice and
  ``rouge_l`` per pair, and ``meteor`` (exact matches) against nltk, each looped.

The inputs are random sentences of 5 to 40 tokens over a Zipf-like 2,000-word vocabulary, one or
two references each (``bench/run.py``'s ``text_batch``). Every repetition gets fresh inputs
(seed = ``--seed`` + repetition), built before the clock starts; within a repetition the two sides
run interleaved, in an order that alternates between repetitions. Both sides must agree on the first
repetition before anything is reported. Printed per row: the median and the min-max of CPU seconds
(``time.process_time``: other work on a shared machine disturbs it less than wall-clock time), and
the ratio of the medians (ours / reference, below 1 we are faster) with the range of the
per-repetition ratios.
"""
from __future__ import annotations

import argparse
import logging
import math
import random
import statistics
import time

import ragmetrics_lite as rml


class SplitTokenizer:
    """rouge-score's tokenizer replaced by a plain split, so both sides see the same tokens."""

    def tokenize(self, text):
        return text.split()


class KeepWord:
    """nltk's stemmer replaced by one that changes nothing (exact matches only)."""

    def stem(self, word):
        return word


class NoSynonyms:
    """nltk's WordNet replaced by one without synonyms."""

    def synsets(self, word):
        return []


def text_batch(sentences: int, seed: int):
    """Candidates with one or two references, 5-40 tokens from a Zipf-like 2,000-word vocabulary."""
    rng = random.Random(seed)
    vocabulary = [f"w{i}" for i in range(2000)]
    weights = [1 / (rank + 1) for rank in range(len(vocabulary))]

    def sentence():
        return rng.choices(vocabulary, weights, k=rng.randint(5, 40))

    candidates = [sentence() for _ in range(sentences)]
    references = [[sentence() for _ in range(rng.randint(1, 2))] for _ in range(sentences)]
    return candidates, references


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=0, abs_tol=1e-9)


# --------------------------------------------------------------------------- the contenders
def sacrebleu_corpus(candidates, references):
    from sacrebleu.metrics import BLEU

    streams = [[" ".join(refs[k]) if k < len(refs) else None for refs in references]
               for k in range(max(map(len, references)))]
    hypotheses = [" ".join(c) for c in candidates]
    return BLEU(tokenize="none", smooth_method="none").corpus_score(hypotheses, streams).score / 100


def rouge_score_loop(candidates, references):
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer=SplitTokenizer())
    return [scorer.score(" ".join(refs[0]), " ".join(c)) for c, refs in zip(candidates, references)]


def ours_rouge_batch(candidates, references):
    return rml.rouge_scores(candidates, [refs[0] for refs in references])


def ours_rouge_loop(candidates, references):
    return [[rml.rouge_n(c, refs[0], 1), rml.rouge_n(c, refs[0], 2), rml.rouge_l(c, refs[0])]
            for c, refs in zip(candidates, references)]


def rouge_agrees(ours, theirs) -> bool:
    """Each pair's three scores agree; ``ours`` is a list of Scores per pair or a ``rouge_scores`` table."""
    if hasattr(ours, "to_dict"):
        ours = [[(row[f"{name}_precision"], row[f"{name}_recall"], row[f"{name}_fmeasure"])
                 for name in ("rouge1", "rouge2", "rougeL")] for row in ours.to_dict("records")]
    return all(close(a, b)
               for mine, reference in zip(ours, theirs)
               for score, key in zip(mine, ("rouge1", "rouge2", "rougeL"))
               for a, b in zip(score, reference[key]))


def sacrebleu_sentences(candidates, references):
    from sacrebleu.metrics import BLEU

    scorer = BLEU(tokenize="none", smooth_method="exp", effective_order=True)
    return [scorer.sentence_score(" ".join(c), [" ".join(r) for r in refs]).score / 100
            for c, refs in zip(candidates, references)]


def nltk_meteor(candidates, references):
    from nltk.translate.meteor_score import meteor_score

    return [meteor_score(refs, c, stemmer=KeepWord(), wordnet=NoSynonyms())
            for c, refs in zip(candidates, references)]


def rows(per_sentence: bool) -> list:
    """(label, ours, reference, agree) for each row to time."""
    def each_close(a, b):
        return all(close(x, y) for x, y in zip(a, b))

    table = [
        ("`corpus_bleu` vs sacrebleu `corpus_score`", rml.corpus_bleu, sacrebleu_corpus, close),
        ("`rouge_scores` (ROUGE-1/2/L of every pair) vs rouge-score looped", ours_rouge_batch,
         rouge_score_loop, rouge_agrees),
    ]
    if per_sentence:
        def ours_sentences(candidates, references):
            return [rml.bleu(c, refs, smoothing="exp", effective_order=True)
                    for c, refs in zip(candidates, references)]

        def ours_meteor(candidates, references):
            return [rml.meteor(c, refs) for c, refs in zip(candidates, references)]

        table += [
            ("sentence `bleu`, each sentence, vs sacrebleu `sentence_score`", ours_sentences,
             sacrebleu_sentences, each_close),
            ("`rouge_n` (1, 2) and `rouge_l`, each pair, vs rouge-score looped", ours_rouge_loop,
             rouge_score_loop, rouge_agrees),
            ("`meteor` (exact), each sentence, vs nltk", ours_meteor, nltk_meteor, each_close),
        ]
    return table


# --------------------------------------------------------------------------- timing
def interleaved(ours, theirs, agree, sentences: int, seed: int, repeats: int) -> tuple[list, list]:
    """CPU seconds of both sides over ``repeats`` fresh batches, the order alternating."""
    times: dict = {ours: [], theirs: []}
    for rep in range(repeats):
        inputs = text_batch(sentences, seed + rep)
        results = {}
        for side in ((ours, theirs) if rep % 2 == 0 else (theirs, ours)):
            start = time.process_time()
            results[side] = side(*inputs)
            times[side].append(time.process_time() - start)
        if rep == 0 and not agree(results[ours], results[theirs]):
            raise SystemExit(f"{ours.__name__} and {theirs.__name__} disagree; not timing")
    return times[ours], times[theirs]


def summary(label: str, ours: list[float], theirs: list[float]) -> str:
    def span(values):
        return f"{statistics.median(values):.3f} ({min(values):.3f}–{max(values):.3f})"

    ratio = statistics.median(ours) / statistics.median(theirs)
    per_rep = sorted(a / b for a, b in zip(ours, theirs))
    return f"| {label} | {span(ours)} | {span(theirs)} | **{ratio:.2f}** ({per_rep[0]:.2f}–{per_rep[-1]:.2f}) |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--per-sentence", action="store_true", help="also time the per-sentence functions")
    args = parser.parse_args()
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    print(f"{args.sentences:,} sentences, {args.repeats} repetitions; CPU seconds")
    print("| what | ours: median (min–max) | reference | ratio of medians (per repetition) |")
    print("|---|---|---|---|")
    for label, ours, theirs, agree in rows(args.per_sentence):
        ours_times, their_times = interleaved(ours, theirs, agree, args.sentences, args.seed, args.repeats)
        print(summary(label, ours_times, their_times), flush=True)


if __name__ == "__main__":
    main()
