"""The command line: ``python -m ragmetrics_lite evaluate QRELS RUN`` (or ``ragmetrics-lite``).

Prints trec_eval's three-column layout, ``measure<TAB>query<TAB>value`` with
values as ``%6.4f``: with ``-q`` one block per judged query, then the ``all``
rows (means over every judged query, a query absent from the run counting 0:
trec_eval ``-c``). Names are this package's (``ndcg@10``) or, with
``--trec-names``, trec_eval's (``ndcg_cut_10``; a metric trec_eval lacks keeps
its own name). The equivalent trec_eval call for the defaults is::

    trec_eval -c [-q] [-l LEVEL] -m recall.5 -m P.5 -m success.5 -m recip_rank -m map -m ndcg_cut.10 QRELS RUN

QRELS and RUN are TREC files, or CSV / JSON Lines files (``.csv``, ``.jsonl``)
with the columns ``query_id, doc_id, relevance`` and ``query_id, doc_id, score``.
Bad files are refused with the file name and line number (exit 2); warnings and
errors go to stderr, one line each. A report that cannot be written (a closed
stdout, a full disk) is one line too (exit 1). ``--version`` prints the version.
``ragmetrics-lite compare QRELS BASELINE_RUN CANDIDATE_RUN`` is the regression
gate of ``ragmetrics_lite.compare``.
"""
from __future__ import annotations

import argparse
import sys
import warnings

from . import __version__, compare
from .compare_inputs import read_argument
from .compare_report import deliver
from .retrieval.evaluate import evaluate
from .retrieval.table import DEFAULT_METRICS, METRICS, trec_eval_measure
from .trec_io import read_qrels, read_run

__all__ = ["main"]


def _metric_list() -> str:
    forms = {"required": "{0}@k", "optional": "{0}, {0}@k", "none": "{0}"}
    lines = ["metrics (from the metric table; trec_eval's name in brackets):"]
    for name, metric in METRICS.items():
        plain, with_cut = metric.trec_eval
        trec = ", ".join(t for t in (plain, with_cut and f"{with_cut}_k") if t) or "none"
        lines.append(f"  {forms[metric.cutoff].format(name):<22} [{trec}]  notebooks/{metric.notebook}.ipynb")
    return "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ragmetrics-lite", description="Evaluate RAG retrieval like trec_eval, with this package's metrics.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"ragmetrics-lite {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    ev = commands.add_parser(
        "evaluate", help="score a run against judgments", epilog=_metric_list(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Score RUN against QRELS; prints 'measure<TAB>query<TAB>value' as trec_eval -c does.")
    ev.add_argument("qrels", metavar="QRELS", help="judgments: TREC qrels, .csv or .jsonl")
    ev.add_argument("run", metavar="RUN", help="the run: TREC run, .csv or .jsonl")
    ev.add_argument("-m", "--metric", dest="metrics", action="extend", nargs="+", metavar="METRIC",
                    help=f"metrics to compute (default: {' '.join(DEFAULT_METRICS)})")
    ev.add_argument("-q", "--per-query", action="store_true", help="also print one line per query and metric")
    ev.add_argument("-l", "--level", type=int, default=1, metavar="LEVEL",
                    help="relevance level: a grade >= LEVEL is relevant (default 1)")
    ev.add_argument("--trec-names", action="store_true", help="print trec_eval's measure names (ndcg_cut_10)")
    compare.add_arguments(commands.add_parser(
        "compare", help="is the candidate run worse than the baseline? exit 1 if so (a CI gate)",
        description=compare.DESCRIPTION))
    return parser


def _printed_name(name: str, trec_names: bool) -> str:
    measure = trec_eval_measure(name) if trec_names else None
    return measure[1] if measure else name


def _evaluate(args) -> list[str]:
    metrics = args.metrics or list(DEFAULT_METRICS)
    qrels, run = read_argument(read_qrels, args.qrels, "QRELS"), read_argument(read_run, args.run, "RUN")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scores = evaluate(qrels, run, metrics, relevance_level=args.level)
    for warning in caught:
        print(f"ragmetrics-lite: warning: {warning.message}", file=sys.stderr)
    names = {name: _printed_name(name, args.trec_names) for name in scores.columns}
    lines = []
    if args.per_query:
        for query_id, row in scores.iterrows():
            lines += [f"{names[name]:<22}\t{query_id}\t{value:.4f}" for name, value in row.items()]
    lines.append(f"{'num_q':<22}\tall\t{len(scores)}")
    lines += [f"{names[name]:<22}\tall\t{value:.4f}" for name, value in scores.mean().items()]
    return lines


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (module docstring; compare's in its module)."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "compare":
        return compare.run(args)
    try:
        lines = _evaluate(args)
    except (OSError, ValueError, TypeError) as error:
        print(f"ragmetrics-lite: error: {error}", file=sys.stderr)
        return 2
    failure = deliver("\n".join(lines) + "\n")
    if failure is not None:
        print(f"ragmetrics-lite: error: cannot write the report ({failure})", file=sys.stderr)
        return 1
    return 0
