"""Peak memory of the calls issue 27 bounded, each in a fresh process.

    PYTHONPATH=. .venv/bin/python bench/memory.py [--only NAME ...] [--list]

Each case builds its inputs, then starts ``tracemalloc`` (numpy reports its arrays to it) and makes
one call; the peak traced while the call runs is the figure (inputs excluded), printed beside the
process's peak resident set (``ru_maxrss``: the interpreter, the imports and the inputs included) and
the wall time. The bound each case must stay under is printed with it; the exit status is 1 when a
case goes over its bound.

Cases (issue 27, item 4): ``paired_permutation_test`` and ``bootstrap_ci`` at 20,000 queries and
10,000 resamples (bound 300 MB; before batching 3.05 GB each), ``cohens_kappa`` on 5,000 distinct
labels (1.15 GB before), ``rouge_l`` on 10,000 x 10,000 tokens (765 MB before), and the command line
``ragmetrics-lite evaluate`` on a run of 5,000,000 lines (176 MB; 5,000 queries of 1,000 documents,
half of each query's 20 judged documents among them): its bound of 1 GB is on the whole process's
peak resident set, which the figure is for that case (2.07 GB before the reader kept each id once).
"""
from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc

MB = 2**20


def _scores():
    import numpy as np

    rng = np.random.default_rng(1)
    return rng.random(20_000), rng.random(20_000)


def permutation_case():
    import ragmetrics_lite as rml

    a, b = _scores()
    return lambda: rml.paired_permutation_test(a, b, n_resamples=10_000, seed=0)


def bootstrap_case():
    import ragmetrics_lite as rml

    a, _ = _scores()
    return lambda: rml.bootstrap_ci(a, n_resamples=10_000, seed=0)


def kappa_case():
    import ragmetrics_lite as rml

    labels = list(range(5_000))
    return lambda: rml.cohens_kappa(labels, labels[::-1], weights="quadratic")


def rouge_case():
    import ragmetrics_lite as rml

    candidate = [f"w{i % 5_000}" for i in range(10_000)]
    reference = [f"w{(i * 7) % 5_000}" for i in range(10_000)]
    return lambda: rml.rouge_l(candidate, reference)


def cli_case():
    """Write the qrels and the 5,000,000-line run, then run the command line on them in a child process."""
    import numpy as np

    folder = tempfile.mkdtemp(prefix="bench-memory-")  # private, removed after the run
    rng = np.random.default_rng(0)
    with open(f"{folder}/run", "w") as run, open(f"{folder}/qrels", "w") as qrels:
        for query in range(5_000):
            docs = rng.choice(200_000, 1_000, replace=False)
            scores = np.sort(rng.random(1_000))[::-1]
            run.write("".join(f"q{query} Q0 d{d} {r} {s:.6f} bench\n" for r, (d, s) in enumerate(zip(docs, scores), 1)))
            unretrieved = 200_000 + rng.choice(9_999, 10, replace=False)
            judged = np.concatenate([docs[rng.choice(1_000, 10, replace=False)], unretrieved])
            qrels.write("".join(f"q{query} 0 d{d} {rng.integers(0, 3)}\n" for d in judged))

    def call():
        try:
            command = [sys.executable, "-m", "ragmetrics_lite", "evaluate", f"{folder}/qrels", f"{folder}/run"]
            done = subprocess.run(command, capture_output=True, text=True)
            if done.returncode:
                raise RuntimeError(f"the command line failed: {done.stderr}")
            return done.stdout.splitlines()[-1]
        finally:
            shutil.rmtree(folder)
    return call


#: name -> (what is measured, the inputs' builder, the bound in MB)
CASES = {
    "permutation": ("paired_permutation_test, 20,000 queries, 10,000 resamples", permutation_case, 300),
    "bootstrap": ("bootstrap_ci, 20,000 queries, 10,000 resamples", bootstrap_case, 300),
    "kappa": ("cohens_kappa, 5,000 distinct labels (quadratic weights)", kappa_case, 50),
    "rouge_l": ("rouge_l, 10,000 x 10,000 tokens", rouge_case, 50),
    "cli": ("ragmetrics-lite evaluate, a run of 5,000,000 lines (the process's peak)", cli_case, 1024),
}


def measure(name: str) -> str:
    """Run one case in this process: one tab-separated line, peak MB, RSS MB, seconds, result."""
    call = CASES[name][1]()
    tracemalloc.start()
    start = time.perf_counter()
    result = call()
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1] / MB
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux
    if name == "cli":  # the command line's own process: its peak resident set is the figure
        peak = rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return f"{peak:.1f}\t{rss:.0f}\t{seconds:.2f}\t{result!r:.60}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=sorted(CASES), help="measure only these cases")
    parser.add_argument("--list", action="store_true", help="list the cases and their bounds")
    parser.add_argument("--case", help=argparse.SUPPRESS)  # the child process's one case
    args = parser.parse_args(argv)
    if args.case:
        print(measure(args.case))
        return 0
    over = 0
    for name in args.only or CASES:
        what, _, bound = CASES[name]
        if args.list:
            print(f"{name}: {what} (bound {bound} MB)")
            continue
        done = subprocess.run([sys.executable, __file__, "--case", name], capture_output=True, text=True, check=True)
        peak, rss, seconds, result = done.stdout.strip().split("\t")
        verdict = "ok" if float(peak) <= bound else "OVER"
        over += verdict == "OVER"
        print(f"{what}: peak {peak} MB traced (bound {bound} MB, {verdict}), process {rss} MB, {seconds} s -> {result}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
