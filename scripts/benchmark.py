"""Time ragmetrics_lite's retrieval evaluation against pytrec_eval (trec_eval).

    PYTHONPATH=. .venv/bin/python scripts/benchmark.py [--queries 2000] [--depth 100] [--judged 20]
                                               [--seed 0] [--repeats 5] [--profile]

A synthetic batch: each query ranks ``--depth`` documents with distinct
float32 scores and has ``--judged`` judgments (grades 0 to 3, about a quarter
of them of documents the run never retrieved). ``evaluate`` computes the six
default metrics and five more; pytrec_eval computes the same trec_eval
measures. Both results are checked to agree to 1e-9 before any time is
printed. The readers are timed on trec_eval's official test files and on the
synthetic run written out as a TREC file.

Times are CPU seconds of this process (``time.process_time``, so that other
work on a shared machine disturbs them less), the best of ``--repeats`` runs
with the two sides taking turns. The ratio is ours / reference: above 1 means
ragmetrics_lite is slower. ``--profile`` adds a cProfile of one ``evaluate``
call, heaviest functions first.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytrec_eval

import ragmetrics_lite as rm

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "trec_eval"

# our metric name -> the trec_eval measure (as pytrec_eval asks for it, and as it reports it)
METRICS = {
    "recall@5": ("recall.5", "recall_5"),
    "precision@5": ("P.5", "P_5"),
    "hit_rate@5": ("success.5", "success_5"),
    "mrr": ("recip_rank", "recip_rank"),
    "map": ("map", "map"),
    "ndcg@10": ("ndcg_cut.10", "ndcg_cut_10"),
    "ndcg": ("ndcg", "ndcg"),
    "map@10": ("map_cut.10", "map_cut_10"),
    "r_precision": ("Rprec", "Rprec"),
    "precision@10": ("P.10", "P_10"),
    "recall@100": ("recall.100", "recall_100"),
}


def make_batch(queries: int, depth: int, judged: int, seed: int) -> tuple[dict, dict]:
    """Random judgments ``{q: {doc: grade}}`` and run ``{q: {doc: score}}``."""
    rng = np.random.default_rng(seed)
    unretrieved = judged // 4
    qrels, run = {}, {}
    for q in range(queries):
        docs = [f"doc{d}" for d in rng.choice(10 * depth * queries, depth + unretrieved, replace=False)]
        while True:
            scores = rng.random(depth).astype(np.float32)
            if len(np.unique(scores)) == depth:  # distinct after float32 rounding
                break
        run[f"q{q}"] = dict(zip(docs[:depth], scores.tolist()))
        judged_docs = list(rng.choice(docs[:depth], judged - unretrieved, replace=False)) + docs[depth:]
        grades = rng.choice([0, 0, 1, 2, 3], size=len(judged_docs))
        qrels[f"q{q}"] = {str(d): int(g) for d, g in zip(judged_docs, grades)}
    return qrels, run


def as_frames(qrels: dict, run: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    qrels_df = pd.DataFrame([(q, d, g) for q, j in qrels.items() for d, g in j.items()],
                            columns=["query_id", "doc_id", "relevance"])
    run_df = pd.DataFrame([(q, d, s) for q, r in run.items() for d, s in r.items()],
                          columns=["query_id", "doc_id", "score"])
    return qrels_df, run_df


def best_times(ours, reference, repeats: int) -> tuple[float, float, object, object]:
    """Fastest CPU time of each of two callables, run in turns, and their last results."""
    times: dict = {ours: [], reference: []}
    results: dict = {}
    for _ in range(repeats):
        for function in (ours, reference):
            start = time.process_time()
            results[function] = function()
            times[function].append(time.process_time() - start)
    return min(times[ours]), min(times[reference]), results[ours], results[reference]


def check_agreement(ours: pd.DataFrame, theirs: dict) -> None:
    assert set(theirs) == set(ours.index), "the two sides scored different queries"
    worst = 0.0
    for name, (_, reported) in METRICS.items():
        reference = np.array([theirs[q][reported] for q in ours.index])
        worst = max(worst, float(np.max(np.abs(ours[name].to_numpy() - reference))))
    if worst > 1e-9:
        raise SystemExit(f"ragmetrics_lite and pytrec_eval disagree by {worst:g}: not timing")


def row(label: str, ours: float, reference: float) -> str:
    return f"{label:<74} {ours:9.4f} {reference:9.4f} {ours / reference:7.1f}"


def read_with(parser, path: Path) -> dict:
    with open(path) as handle:
        return parser(handle)


def time_evaluate(qrels: dict, run: dict, repeats: int) -> None:
    """``evaluate`` from dicts and from DataFrames against pytrec_eval, after checking they agree."""
    qrels_df, run_df = as_frames(qrels, run)
    names = list(METRICS)
    measures = {asked for asked, _ in METRICS.values()}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, measures)
    contests = [
        ("evaluate(dicts) vs RelevanceEvaluator(...).evaluate", lambda: rm.evaluate(qrels, run, names),
         lambda: pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)),
        ("evaluate(DataFrames) vs RelevanceEvaluator(...).evaluate", lambda: rm.evaluate(qrels_df, run_df, names),
         lambda: pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)),
        ("evaluate(DataFrames) vs .evaluate(run) only", lambda: rm.evaluate(qrels_df, run_df, names),
         lambda: evaluator.evaluate(run)),
    ]
    print(f"CPU seconds, best of {repeats}; ratio = ours / reference\n")
    print(f"{'':<74} {'ours':>9} {'reference':>9} {'ratio':>7}")
    with warnings.catch_warnings():
        warnings.simplefilter("error", rm.RagMetricsWarning)  # the batch has no missing queries
        for label, ours, reference in contests:
            t_ours, t_ref, mine, theirs = best_times(ours, reference, repeats)
            check_agreement(mine, theirs)
            print(row(label, t_ours, t_ref))


def time_readers(run: dict, repeats: int) -> None:
    """The TREC readers against pytrec_eval's, on trec_eval's test files and the synthetic run."""
    with tempfile.TemporaryDirectory() as folder:
        synthetic = Path(folder) / "synthetic.run"
        with open(synthetic, "w") as handle:
            for q, scores in run.items():
                for rank, (doc, score) in enumerate(sorted(scores.items(), key=lambda x: -x[1]), start=1):
                    handle.write(f"{q} Q0 {doc} {rank} {score!r} bench\n")
        readers = [
            (rm.read_qrels, pytrec_eval.parse_qrel, DATA / "qrels.test"),
            (rm.read_qrels, pytrec_eval.parse_qrel, DATA / "qrels.comment.test"),
            (rm.read_run, pytrec_eval.parse_run, DATA / "results.test"),
            (rm.read_run, pytrec_eval.parse_run, DATA / "results.comment.test"),
            (rm.read_run, pytrec_eval.parse_run, synthetic),
        ]
        print()
        for ours_reader, their_reader, path in readers:
            t_ours, t_ref, frame, nested = best_times(
                lambda: ours_reader(path), lambda: read_with(their_reader, path), repeats)
            assert len(frame) == sum(len(docs) for docs in nested.values())
            label = f"{ours_reader.__name__} vs pytrec_eval.{their_reader.__name__}: {path.name}"
            print(row(f"{label} ({len(frame):,} lines)", t_ours, t_ref))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--judged", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()

    qrels, run = make_batch(args.queries, args.depth, args.judged, args.seed)
    rows, judgments = sum(map(len, run.values())), sum(map(len, qrels.values()))
    print(f"batch: {args.queries} queries x {args.depth} retrieved, {args.judged} judged each "
          f"({rows:,} run rows, {judgments:,} judgments); {len(METRICS)} metrics")
    time_evaluate(qrels, run, args.repeats)
    time_readers(run, args.repeats)
    if args.profile:
        print("\ncProfile of one evaluate(dicts) call, by cumulative time:")
        profiler = cProfile.Profile()
        profiler.runcall(rm.evaluate, qrels, run, list(METRICS))
        pstats.Stats(profiler).strip_dirs().sort_stats("cumulative").print_stats(18)


if __name__ == "__main__":
    main()
