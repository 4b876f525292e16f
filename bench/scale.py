"""How large a run ``evaluate`` scores on one machine: time and memory against size.

    PYTHONPATH=. .venv/bin/python bench/scale.py [--queries 10000 50000] [--depth 100] [--judged 10]

For each size, builds DataFrame inputs (string ids, as ``read_run`` returns),
then measures one ``evaluate`` call with the eight metrics of ``bench/run.py``:
wall seconds, the tracemalloc peak of the call (inputs excluded), the size of
the inputs themselves (``DataFrame.memory_usage(deep=True)``) and the process's
peak resident set size so far.
"""
from __future__ import annotations

import argparse
import resource
import sys
import time
import tracemalloc
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import ragmetrics_lite as rml  # noqa: E402
from run import METRICS  # noqa: E402


def frames(queries: int, depth: int, judged: int, seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Vectorised inputs (no Python loop per row), so that large sizes build quickly."""
    rng = np.random.default_rng(seed)
    query = np.repeat(np.arange(queries), depth)
    doc = rng.integers(0, 50 * queries, size=queries * depth)
    run = pd.DataFrame({"query_id": pd.Series(query).map("q{}".format).astype("str"),
                        "doc_id": pd.Series(doc).map("d{}".format).astype("str"),
                        "score": rng.random(queries * depth)})
    run = run.drop_duplicates(["query_id", "doc_id"])
    picked = run.groupby("query_id", sort=False).head(judged)
    qrels = pd.DataFrame({"query_id": picked["query_id"].to_numpy(), "doc_id": picked["doc_id"].to_numpy(),
                          "relevance": rng.integers(0, 4, len(picked))})
    return qrels, run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, nargs="+", default=[10000, 50000])
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--judged", type=int, default=10)
    args = parser.parse_args()
    warnings.simplefilter("ignore", rml.RagMetricsWarning)
    print("| run rows | evaluate wall s | evaluate peak (tracemalloc) | inputs (deep) | process peak RSS |")
    print("|---|---|---|---|---|")
    for queries in args.queries:
        qrels, run = frames(queries, args.depth, args.judged)
        inputs = (qrels.memory_usage(deep=True).sum() + run.memory_usage(deep=True).sum()) / 2**20
        start = time.perf_counter()
        rml.evaluate(qrels, run, METRICS)
        seconds = time.perf_counter() - start
        tracemalloc.start()
        rml.evaluate(qrels, run, METRICS)
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"| {len(run):,} | {seconds:.1f} | {peak:.0f} MiB | {inputs:.0f} MiB | {rss:.0f} MiB |", flush=True)
        del qrels, run


if __name__ == "__main__":
    main()
