"""Benchmark ragmetrics_lite against its references, as ratios measured side by side.

    PYTHONPATH=. .venv/bin/python bench/run.py [--queries 10000] [--depth 100] [--judged 10]
                                               [--sentences 3000] [--repeats 5] [--no-text]
                                               [--notebooks [--notebooks-glob '1[01]_*.ipynb']]

* Retrieval: ``evaluate`` (eight metrics) against ``pytrec_eval`` from
  dict-of-dicts (both given the same dicts) and from DataFrames (pytrec_eval's
  time includes building its dicts from the same DataFrames).
* Text: ``corpus_bleu`` against sacrebleu's ``corpus_score``; ROUGE-1/2/L per
  pair (``rouge_n`` twice and ``rouge_l``) against rouge-score's ``score``, both
  looped over the pairs.
* Peak memory of ``evaluate`` on the retrieval batch (tracemalloc, started
  after the inputs are built, so they are excluded).
* ``--notebooks``: each notebook under strict nbval, one pytest process each:
  pytest's own time, the process's wall time and the load average before it
  (the kernels import the package found on ``PYTHONPATH``, not ``RML_ROOT``).

Every repetition gets fresh inputs (seed = ``--seed`` + repetition) built
before its clock starts; within a repetition the contenders run interleaved,
in an order that rotates between repetitions. Both sides are checked to agree
on the first repetition before anything is timed. Reported: the median and
the min-max of CPU seconds of this process (``time.process_time``: other work
on a shared machine disturbs it less than wall-clock time), and the ratio of
the medians (ours / reference; below 1 we are faster), with the range of the
per-repetition ratios. Absolute times still vary with the machine's load;
the interleaved ratios much less. The load average before and after the
timings is printed with them.
"""
from __future__ import annotations

import argparse
import logging
import os
import random
import re
import statistics
import subprocess
import sys
import time
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, os.environ.get("RML_ROOT", str(ROOT)))  # RML_ROOT: time another checkout (a "before")

import ragmetrics_lite as rml  # noqa: E402

METRICS = ["recall@10", "precision@10", "hit_rate@10", "mrr", "map", "ndcg@10", "ndcg", "r_precision"]


# --------------------------------------------------------------------------- inputs
def retrieval_batch(queries: int, depth: int, judged: int, seed: int):
    """Judgments (grades 0-3, some of documents never retrieved) and a run, as dicts and DataFrames."""
    rng = np.random.default_rng(seed)
    pool = 50 * queries
    docs = rng.integers(0, pool, size=(queries, depth + judged))
    scores = rng.random((queries, depth)).astype(np.float32).astype(float)  # exact in pytrec_eval's float32
    grades = rng.integers(0, 4, size=(queries, judged))
    qrels, run = {}, {}
    for q in range(queries):
        ids = list(dict.fromkeys(f"d{d}" for d in docs[q]))
        run[f"q{q}"] = dict(zip(ids[:depth], scores[q].tolist()))
        judged_ids = ids[: judged - judged // 3] + ids[depth : depth + judged // 3]
        qrels[f"q{q}"] = dict(zip(judged_ids, grades[q].tolist()))
    qrels_df = pd.DataFrame([(q, d, g) for q, j in qrels.items() for d, g in j.items()],
                            columns=["query_id", "doc_id", "relevance"])
    run_df = pd.DataFrame([(q, d, s) for q, r in run.items() for d, s in r.items()],
                          columns=["query_id", "doc_id", "score"])
    return qrels, run, qrels_df, run_df


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


# --------------------------------------------------------------------------- contenders
def pytrec_from_dicts(qrels, run):
    import pytrec_eval

    measures = {rml.trec_eval_measure(name)[0] for name in METRICS}
    return pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)


def pytrec_from_frames(qrels_df, run_df):
    qrels, run = {}, {}
    for q, d, g in zip(qrels_df["query_id"], qrels_df["doc_id"], qrels_df["relevance"].tolist()):
        qrels.setdefault(q, {})[d] = g
    for q, d, s in zip(run_df["query_id"], run_df["doc_id"], run_df["score"].tolist()):
        run.setdefault(q, {})[d] = s
    return pytrec_from_dicts(qrels, run)


def check_retrieval(ours: pd.DataFrame, theirs: dict) -> None:
    for name in METRICS:
        key = rml.trec_eval_measure(name)[1]
        reference = np.array([theirs[q][key] for q in ours.index])
        worst = float(np.max(np.abs(ours[name].to_numpy() - reference)))
        if worst > 1e-9:
            raise SystemExit(f"{name}: ragmetrics_lite and pytrec_eval disagree by {worst:g}; not timing")


class _Split:
    def tokenize(self, text):
        return text.split()


def sacrebleu_corpus(candidates, references):
    from sacrebleu.metrics import BLEU

    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    streams = [[" ".join(refs[k]) if k < len(refs) else None for refs in references]
               for k in range(max(map(len, references)))]
    return BLEU(tokenize="none", smooth_method="none").corpus_score([" ".join(c) for c in candidates],
                                                                   streams).score / 100


def rouge_score_loop(candidates, references):
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"], tokenizer=_Split())
    return [scorer.score(" ".join(refs[0]), " ".join(c)) for c, refs in zip(candidates, references)]


def ours_rouge(candidates, references):
    batch = getattr(rml, "rouge_scores", None)
    if batch is not None:
        return batch(candidates, [refs[0] for refs in references])
    return [(rml.rouge_n(c, refs[0], 1), rml.rouge_n(c, refs[0], 2), rml.rouge_l(c, refs[0]))
            for c, refs in zip(candidates, references)]


def check_rouge(ours, theirs) -> None:
    if isinstance(ours, pd.DataFrame):
        ours = [((r.rouge1_precision, r.rouge1_recall, r.rouge1_fmeasure),
                 (r.rouge2_precision, r.rouge2_recall, r.rouge2_fmeasure),
                 (r.rougeL_precision, r.rougeL_recall, r.rougeL_fmeasure)) for r in ours.itertuples()]
    for mine, reference in zip(ours, theirs):
        for score, key in zip(mine, ("rouge1", "rouge2", "rougeL")):
            if max(abs(a - b) for a, b in zip(score, reference[key])) > 1e-9:
                raise SystemExit(f"ROUGE disagrees: {score} vs {reference[key]}")


# --------------------------------------------------------------------------- timing
def interleaved(make_inputs, contenders: dict, repeats: int, check) -> dict[str, list[float]]:
    """CPU seconds of each contender over ``repeats`` fresh inputs, run in rotating order."""
    times = {name: [] for name in contenders}
    names = list(contenders)
    for rep in range(repeats):
        inputs = make_inputs(rep)
        results = {}
        for name in names[rep % len(names):] + names[: rep % len(names)]:
            start = time.process_time()
            results[name] = contenders[name](*inputs)
            times[name].append(time.process_time() - start)
        if rep == 0:
            check(results)
    return times


def summary(label: str, ours: list[float], theirs: list[float], batch: str) -> str:
    def span(values):
        return f"{statistics.median(values):.3f} ({min(values):.3f}–{max(values):.3f})"
    ratio = statistics.median(ours) / statistics.median(theirs)
    per_rep = sorted(a / b for a, b in zip(ours, theirs))
    return f"| {label} | {batch} | {span(ours)} | {span(theirs)} | **{ratio:.2f}** ({per_rep[0]:.2f}–{per_rep[-1]:.2f}) |"


def peak_memory(qrels, run) -> float:
    tracemalloc.start()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rml.evaluate(qrels, run, METRICS)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def notebook_times(pattern: str = "[0-9]*.ipynb") -> list[tuple[str, str, float]]:
    """Each notebook under strict nbval in its own pytest process: pytest's own figure
    ("passed in 6.2s": kernel start and every cell, not the interpreter's start-up), the wall time
    of the whole process, and the one-minute load average before it ran."""
    rows = []
    for notebook in sorted((ROOT / "notebooks").glob(pattern)):
        load = os.getloadavg()[0]
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(notebook)],
                              cwd=ROOT, capture_output=True, text=True)
        wall = time.perf_counter() - start
        said = re.search(r" in ([0-9.]+)s", done.stdout.strip().splitlines()[-1] if done.stdout.strip() else "")
        status = "pass" if done.returncode == 0 else "FAIL"
        rows.append((f"{notebook.name} ({status})", said.group(1) if said else "?", wall, load))
    return rows


def check_bleu(results) -> None:
    if abs(results["ours"] - results["sacrebleu"]) > 1e-9:
        raise SystemExit(f"BLEU disagrees: {results['ours']} vs {results['sacrebleu']}")


def text_ratios(args, text: str) -> None:
    times = interleaved(lambda rep: text_batch(args.sentences, args.seed + rep),
                        {"ours": rml.corpus_bleu, "sacrebleu": sacrebleu_corpus}, args.repeats, check_bleu)
    print(summary("`corpus_bleu` vs sacrebleu `corpus_score`", times["ours"], times["sacrebleu"], text), flush=True)
    times = interleaved(lambda rep: text_batch(args.sentences, args.seed + rep),
                        {"ours": ours_rouge, "rouge-score": rouge_score_loop}, args.repeats,
                        lambda results: check_rouge(results["ours"], results["rouge-score"]))
    print(summary("ROUGE-1/2/L for every pair vs rouge-score looped", times["ours"], times["rouge-score"], text),
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10000)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--judged", type=int, default=10)
    parser.add_argument("--sentences", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--notebooks", action="store_true", help="time each notebook under strict nbval")
    parser.add_argument("--notebooks-glob", default="[0-9]*.ipynb", help="which notebooks (default: all)")
    parser.add_argument("--no-text", action="store_true", help="skip corpus BLEU and ROUGE")
    args = parser.parse_args()
    warnings.simplefilter("ignore", rml.RagMetricsWarning)
    batch = f"{args.queries:,} queries × {args.depth} retrieved, {args.judged} judged"
    text = f"{args.sentences:,} sentences"
    load_before = os.getloadavg()
    print("| what | batch | ours, CPU s: median (min–max) | reference, CPU s | ratio of medians (per repetition) |")
    print("|---|---|---|---|---|")

    def make(rep):
        return retrieval_batch(args.queries, args.depth, args.judged, args.seed + rep)

    def check_both(results):
        check_retrieval(results["ours dicts"], results["pytrec dicts"])
        check_retrieval(results["ours frames"], results["pytrec frames"])

    times = interleaved(lambda rep: make(rep), {
        "ours dicts": lambda q, r, qd, rd: rml.evaluate(q, r, METRICS),
        "pytrec dicts": lambda q, r, qd, rd: pytrec_from_dicts(q, r),
        "ours frames": lambda q, r, qd, rd: rml.evaluate(qd, rd, METRICS),
        "pytrec frames": lambda q, r, qd, rd: pytrec_from_frames(qd, rd),
    }, args.repeats, check_both)
    print(summary("`evaluate`, 8 metrics, from dict-of-dicts vs `pytrec_eval` (same dicts)",
                  times["ours dicts"], times["pytrec dicts"], batch), flush=True)
    print(summary("`evaluate`, 8 metrics, from DataFrames vs `pytrec_eval` (incl. building its dicts)",
                  times["ours frames"], times["pytrec frames"], batch), flush=True)

    if not args.no_text:
        text_ratios(args, text)

    qrels, run, qrels_df, run_df = make(0)
    print("\nload average (1, 5, 15 min) before the timings: %.2f %.2f %.2f, after: %.2f %.2f %.2f"
          % (*load_before, *os.getloadavg()))
    print(f"peak memory of evaluate ({batch}), inputs excluded: "
          f"dicts {peak_memory(qrels, run):.0f} MiB, DataFrames {peak_memory(qrels_df, run_df):.0f} MiB")
    if args.notebooks:
        print("\n| notebook under strict nbval | pytest's s | wall s | load |\n|---|---|---|---|")
        for name, said, seconds, load in notebook_times(args.notebooks_glob):
            print(f"| {name} | {said} | {seconds:.1f} | {load:.1f} |")


if __name__ == "__main__":
    main()
