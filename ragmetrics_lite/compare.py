r"""Is the candidate worse than the baseline? ``ragmetrics-lite compare``, a regression gate for CI.

``compare QRELS BASELINE_RUN CANDIDATE_RUN`` scores both runs with :func:`evaluate` and, for each
metric, reports both means, the paired difference (candidate minus baseline) with a percentile
bootstrap interval (:func:`bootstrap_ci`, confidence ``1 - alpha``) and a two-sided sign-flip
p-value (:func:`paired_permutation_test` on the queries whose score changed: a tie flips to itself,
so all :math:`2^m` sign patterns of the :math:`m` changed queries are counted, and the p-value is
exact, whenever :math:`m \le 16` or :math:`2^m \le` ``--resamples``), the queries won, lost and tied,
and the worst-hit queries. The figures are those functions' own, called as notebook 18 calls them.

A metric's gate trips when the candidate's mean is lower by more than ``--max-drop`` and the drop is
significant at ``--alpha``, after Holm's correction (:func:`holm_rejections`) when several metrics
gate; or when the candidate's mean is below its ``--fail-under`` floor. Retrieval metrics and the
latency P95 (``--latency``, ``--max-latency-increase``) gate; judged metrics (``--judged``) only warn
unless ``--gate-judged``, and are printed beside their judge's measured agreement.

Exit status: 0 no gate tripped, 1 a gate tripped, 2 bad input or usage (the file and line named),
3 an unexpected error or a report that could not be written, so that neither passes for a verdict. Inputs are read by
:mod:`compare_inputs`; the report is written by :mod:`compare_report`.
"""
from __future__ import annotations

import argparse
import math
import sys

import pandas as pd

from . import compare_inputs as inputs
from .compare_report import FORMATS, deliver
from .retrieval.table import DEFAULT_METRICS
from .stats.latency import latency_percentiles
from .stats.significance import bootstrap_ci, holm_rejections, paired_permutation_test

__all__ = ["add_arguments", "run", "main", "DESCRIPTION", "EXACT_LIMIT"]

EXACT_LIMIT = 16  # up to 2**16 = 65,536 sign patterns are enumerated: an exact p-value, cheap
WORST_SHOWN = 3
DESCRIPTION = ("Is CANDIDATE_RUN worse than BASELINE_RUN? Exit status 0 no gate tripped, 1 a gate tripped, "
               "2 bad input, 3 an unexpected error.")
REPORT_TO = "report it to the maintainers with the command line and this message (it is not a verdict)"


def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The options of ``compare`` (the command line's subcommand, or :func:`main` on its own)."""
    parser.add_argument("qrels", metavar="QRELS", help="judgments: TREC qrels, .csv or .jsonl")
    parser.add_argument("baseline", metavar="BASELINE_RUN", help="the run to compare against")
    parser.add_argument("candidate", metavar="CANDIDATE_RUN", help="the run under test")
    parser.add_argument("-m", "--metric", dest="metrics", action="extend", nargs="+", metavar="METRIC",
                        help=f"metrics that gate (default: {' '.join(DEFAULT_METRICS)})")
    parser.add_argument("-l", "--level", type=int, default=1, metavar="LEVEL",
                        help="relevance level: a grade >= LEVEL is relevant (default 1)")
    parser.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
    parser.add_argument("--max-drop", type=float, default=0.0, metavar="D",
                        help="a significant drop of the mean trips the gate beyond D (absolute; default 0)")
    parser.add_argument("--fail-under", action="append", default=[], metavar="[METRIC=]X",
                        help="the gate trips when the candidate's mean is below X (repeat per metric)")
    parser.add_argument("--queries", metavar="FILE", help="queries.jsonl: compare only the queries it lists")
    parser.add_argument("--split", metavar="NAME", help="with --queries: only the queries of this split")
    parser.add_argument("--seed", type=int, default=0, help="seed of the resampling (default 0)")
    parser.add_argument("--resamples", type=int, default=10_000, metavar="N",
                        help="bootstrap resamples, and random sign patterns when too many to count (10000)")
    parser.add_argument("--format", choices=sorted(FORMATS), default="text", help="output (default text)")
    parser.add_argument("--latency", nargs=2, metavar=("BASELINE_FILE", "CANDIDATE_FILE"),
                        help="durations in ms, one per line (or a CSV with the columns query_id, ms)")
    parser.add_argument("--max-latency-increase", metavar="MS|PCT%",
                        help="the gate trips when the candidate's P95 is higher by more (50 or 10%%)")
    parser.add_argument("--judged", metavar="FILE",
                        help="judged scores: rows system (baseline|candidate), query_id, metric, value[, judge]")
    parser.add_argument("--gate-judged", action="store_true", help="let judged metrics gate (default: warn)")
    parser.add_argument("--triad-dir", default="data/triad", metavar="DIR",
                        help="where judges' *freeze*.json files give their agreement (default data/triad)")
    return parser


def main(argv: list[str] | None = None) -> int:
    """``compare`` on its own: parse ``argv`` and :func:`run`; returns the exit status."""
    parser = add_arguments(argparse.ArgumentParser(prog="ragmetrics-lite compare", description=DESCRIPTION))
    return run(parser.parse_args(argv))


def run(args: argparse.Namespace) -> int:
    """Read, compare, print the report; 0 no gate tripped, 1 a gate tripped, 2 bad input, 3 a crash."""
    try:
        progress = inputs.Progress(args)
        try:
            prepared = inputs.prepare(args, progress)
        except (OSError, ValueError, TypeError) as error:
            print(f"ragmetrics-lite compare: error: {error}", file=sys.stderr)
            return 2
        report = compare(prepared, args, progress)
        failure = deliver(FORMATS[args.format](report))
        if failure is not None:  # no report, so no verdict either
            print(f"ragmetrics-lite compare: error: cannot write the report ({failure})", file=sys.stderr)
            return 3
    except Exception as error:  # noqa: BLE001: a crash must never pass for a verdict
        print(f"ragmetrics-lite compare: internal error: {type(error).__name__}: {error}; {REPORT_TO}",
              file=sys.stderr)
        return 3
    return 1 if report["tripped"] else 0


def sign_patterns(changed: int, resamples: int) -> int:
    """How many sign patterns the test uses: all ``2**changed`` (exact) when few, else ``resamples``."""
    return 2**changed if changed <= EXACT_LIMIT or 2**changed <= resamples else resamples


def paired(baseline: pd.Series, candidate: pd.Series, args: argparse.Namespace) -> dict:
    """One metric on the queries both sides scored: means, the difference with its interval and p-value."""
    difference = (candidate - baseline).dropna()
    changed = difference[difference != 0].to_numpy()
    patterns = sign_patterns(len(changed), args.resamples)
    p_value = 1.0  # nothing changed: no evidence of any difference
    if len(changed):
        p_value = paired_permutation_test(changed, 0 * changed, n_resamples=patterns, seed=args.seed)
    low = high = math.nan
    if len(difference) >= 2:
        low, high = bootstrap_ci(difference, confidence=1 - args.alpha, n_resamples=args.resamples, seed=args.seed)
    worst = difference[difference < 0].sort_values(kind="stable").head(WORST_SHOWN)
    return {"queries": len(difference),
            "baseline": float(baseline[difference.index].mean()),
            "candidate": float(candidate[difference.index].mean()),
            "difference": float(difference.mean()) if len(difference) else math.nan,
            "interval": [low, high], "p_value": p_value,
            "exact": patterns == 2 ** len(changed), "sign_patterns": patterns, "changed": len(changed),
            "won": int((difference > 0).sum()), "lost": int((difference < 0).sum()),
            "tied": int((difference == 0).sum()),
            "worst": [{"query_id": str(q), "difference": float(d)} for q, d in worst.items()]}


def gate(results: list[dict], args: argparse.Namespace, floors: dict[str, float]) -> None:
    """Each result's ``significant`` (Holm's correction within its family) and ``reasons`` its gate trips.

    Two families, each corrected on its own: the metrics that gate, and the judged ones that only warn.
    """
    for family in ([r for r in results if r["gated"]], [r for r in results if not r["gated"]]):
        if not family:
            continue
        rejected = holm_rejections([r["p_value"] for r in family], alpha=args.alpha)
        test = f"alpha {args.alpha:g}" + (f", Holm's correction over {len(family)}" if len(family) > 1 else "")
        for result, significant in zip(family, rejected):
            result["significant"] = bool(significant)
            result["reasons"] = []
            drop = result["baseline"] - result["candidate"]
            if significant and drop > args.max_drop:
                result["reasons"].append(f"the mean dropped by {drop:.4f} (more than {args.max_drop:g}), "
                                         f"significantly (p = {result['p_value']:.4f}, {test})")
            floor = floors.get(result["metric"])
            result["fail_under"] = floor
            if floor is not None and result["candidate"] < floor:
                result["reasons"].append(f"the candidate's mean {result['candidate']:.4f} is under {floor:g}")


def latency(durations: dict[str, list[float]] | None, limit: tuple[float, bool] | None) -> dict | None:
    """P50, P95 and P99 of each side (ms), and whether the P95 increase trips ``--max-latency-increase``."""
    if durations is None:
        return None
    shown = {side: {"n": len(values), **{f"p{p}": v for p, v in latency_percentiles(values, (50, 95, 99)).items()}}
             for side, values in durations.items()}
    increase = shown["candidate"]["p95"] - shown["baseline"]["p95"]
    allowed = None
    if limit is not None:
        allowed = limit[0] * shown["baseline"]["p95"] / 100 if limit[1] else limit[0]
    reasons = []
    if allowed is not None and increase > allowed:
        reasons.append(f"P95 rose by {increase:.1f} ms, more than the {allowed:.1f} ms allowed")
    limit_text = None if limit is None else f"{limit[0]:g}{'%' if limit[1] else ' ms'}"
    return {**shown, "p95_increase_ms": increase, "max_increase": limit_text, "allowed_ms": allowed,
            "gated": limit is not None, "reasons": reasons}


def compare(prepared: inputs.Prepared, args: argparse.Namespace, progress) -> dict:
    """The report: every figure of every metric, the gates, the notes; ``tripped`` lists why it fails."""
    base, cand = prepared.scores["baseline"], prepared.scores["candidate"]
    judged = prepared.judged or {"baseline": pd.DataFrame(), "candidate": pd.DataFrame()}
    names = [(m, "retrieval") for m in base.columns] + [(m, "judged") for m in judged["baseline"].columns]
    progress.expect(len(base), len(names), args.resamples)
    results = []
    for number, (name, kind) in enumerate(names, start=1):
        progress(f"metric {number} of {len(names)}: {name}")
        sides = (base, cand) if kind == "retrieval" else (judged["baseline"], judged["candidate"])
        extra = {} if kind == "retrieval" else {"agreement": prepared.agreement[name]}
        results.append({"metric": name, "kind": kind, "gated": kind == "retrieval" or args.gate_judged,
                        **paired(sides[0][name], sides[1][name], args), **extra})
    gate(results, args, prepared.floors)
    timing = latency(prepared.latency, prepared.latency_limit)
    tripped = [f"{r['metric']}: {why}" for r in results if r["gated"] for why in r["reasons"]]
    tripped += [f"latency: {why}" for why in (timing or {}).get("reasons", [])]
    return {"qrels": args.qrels, "baseline": args.baseline, "candidate": args.candidate,
            "relevance_level": args.level, "queries": prepared.selection, "alpha": args.alpha,
            "max_drop": args.max_drop, "seed": args.seed, "resamples": args.resamples,
            "exact_limit": EXACT_LIMIT, "correction": "holm", "metrics": results, "latency": timing,
            "notes": prepared.notes + _judged_notes(judged),
            "warnings": [f"{r['metric']}: {why}" for r in results if not r["gated"] for why in r["reasons"]],
            "tripped": tripped, "exit_status": 1 if tripped else 0}


def _judged_notes(judged: dict[str, pd.DataFrame]) -> list[str]:
    """Judged scores of one side only cannot be paired: say how many were left out."""
    notes = []
    for metric in judged["baseline"].columns:
        scored = [judged[side][metric].dropna().index for side in inputs.SIDES]
        alone = len(scored[0].symmetric_difference(scored[1]))
        if alone:
            notes.append(f"judged {metric}: {alone} queries scored for one system only are left out")
    return notes
