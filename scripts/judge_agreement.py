"""Measure how far a judge of the RAG triad agrees with the triad labels in data/triad/.

One table: per task, the items judged, the judge's accuracy against the labels, the majority
label's share, Cohen's kappa with a 95% percentile bootstrap interval (the items resampled with
replacement: ``--resamples``, default 2000, ``--seed``, default 0, so the same command prints the
same interval), and whether the judge clears the agreement bar (``rml.triad.AGREEMENT_BAR``:
accuracy at least the majority share + 0.10). Kappa is reported, not held to a threshold: on ~100
items its interval is 0.3 to 0.4 wide. The script measures; it exits 0 whether or not the bar is
met. Run from anywhere:

    python scripts/judge_agreement.py                                  # LexicalJudge, all tasks, held-out items
    python scripts/judge_agreement.py --judge embedding                # EmbeddingJudge; --judge default: judge=None's
    python scripts/judge_agreement.py --split dev --task faithfulness
    python scripts/judge_agreement.py --judge llm --limit 5 --verdicts try.jsonl   # 15 model calls

``--judge llm`` asks the OpenAI-compatible endpoint named by ``RAGMETRICS_LLM_BASE_URL`` and
``RAGMETRICS_LLM_MODEL`` (``RAGMETRICS_LLM_API_KEY`` if the server needs a key), through
``rml.triad.llm_judge_from_environment()``: one model call per item, so the held-out items of
all three tasks cost 320 calls. ``--limit N`` judges only the first N items of each task (file
order) for a cheap try, and ``--verdicts FILE.jsonl`` keeps every verdict (task, id, label,
judge, reason), written as it arrives, so that a paid run can be read afterwards and is not lost
when it stops half way. A reply that cannot be parsed is a parse failure: the item is left out
of the figures, counted in the ``parse failures`` column beside them, and kept in the verdicts file
with ``"judge": null`` and ``LLMReplyError``'s message (which quotes the reply) as ``"error"``. A
failed request (server down, too slow, an HTTP error) stops the run with one line naming the item
(exit 1); the verdicts before it are kept. The model calls, the replies taken from the cache and
the tokens the replies report are printed after the table. Retries are not made here: wrap
``complete`` for that. Bad arguments, unreadable label files and ``--judge llm`` without the
variables exit 2 with one line.

The held-out items are a fair test of a judge only if nothing about it (thresholds, word lists,
prompts) was tuned on them: tune on ``--split dev``, freeze, then score ``heldout`` (the protocol
of data/triad/README.md). The labels were written by model sessions following a written guideline,
so the figures measure agreement with that guideline as those sessions read it. The lexical judge's
held-out figures here equal those recorded at its freeze in data/triad/judge_freeze.json
(tests/test_judge_agreement.py checks it).
"""
from __future__ import annotations

import argparse
import json
import math
import numbers
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ragmetrics_lite.triad import (AGREEMENT_BAR, TRIAD_TASKS, LexicalJudge, LLMEndpointError,  # noqa: E402
                                   LLMReplyError, agreement_summary, judge_items, llm_judge_from_environment,
                                   meets_agreement_bar, read_triad_labels)
from ragmetrics_lite.triad.embedding import DEFAULT_JUDGES, DefaultJudge, EmbeddingJudge  # noqa: E402
from ragmetrics_lite.triad.llm import ENV_MODEL  # noqa: E402

DATA = ROOT / "data" / "triad"
SPLITS = ("heldout", "dev", "all")
#: The offline judges by name (``--judge``); "llm" is built from the environment in main.
OFFLINE_JUDGES = {"lexical": LexicalJudge, "embedding": EmbeddingJudge, "default": DefaultJudge}
JUDGES = (*OFFLINE_JUDGES, "llm")
COLUMNS = ["task", "split", "n", "parse_failures", "accuracy", "majority_share", "kappa", "kappa_low",
           "kappa_high", "kappa_resamples", "meets_bar"]
CONFIDENCE = 0.95
RESAMPLES, SEED = 2000, 0
MAX_RESAMPLES = 100_000   # the index matrix is 8 bytes per resample and item: 100 MB at 128 items
FAIRNESS = ("The held-out items are a fair test of this judge only if its prompts were not tuned on them "
            "(data/triad/README.md: tune on dev, freeze, then score heldout).")
TUNED_ON_DEV = ("The judge's thresholds and rules were chosen on the dev items, so its figures there flatter it; "
                "the held-out figures are the fair ones.")


class JudgingStopped(RuntimeError):
    """The judge failed on one item: which task and item, how many verdicts came before, and why.

    >>> stop = JudgingStopped("faithfulness", "f129", 2, ValueError("bad reply"))
    >>> str(stop)
    'faithfulness item f129 (after 2 verdicts): ValueError: bad reply'
    """

    def __init__(self, task: str, item_id: str, judged: int, error: Exception):
        self.task, self.item_id, self.judged, self.error = task, item_id, judged, error
        super().__init__(f"{task} item {item_id} (after {judged} verdicts): {type(error).__name__}: {error}")


class CountedCalls:
    """A ``complete(prompt) -> str`` that counts its calls (a call that fails counts too).

    >>> complete = CountedCalls(lambda prompt: prompt.upper())
    >>> complete("yes"), complete("no"), complete.calls
    ('YES', 'NO', 2)
    """

    def __init__(self, complete: Callable[[str], str]):
        self.complete, self.calls = complete, 0
        self.__name__ = getattr(complete, "__name__", type(complete).__name__)

    def __call__(self, prompt: str) -> str:
        self.calls += 1
        return self.complete(prompt)


class KappaInterval(NamedTuple):
    """A percentile bootstrap interval for kappa, and how many resamples had a kappa to rank."""
    low: float
    high: float
    resamples: int


def _zero_one(labels, name: str) -> np.ndarray:
    array = np.asarray(labels)
    if array.ndim != 1 or not np.isin(array, (0, 1)).all():
        raise ValueError(f"{name} must be a flat list of 0/1 labels")
    return array.astype(np.int8)   # one byte a label; the row sums below come out as int64


def resampled_kappas(truth, judged, indices) -> np.ndarray:
    r"""Cohen's kappa of 0/1 labels on each resample: row r of ``indices`` lists the items of resample r.

    Per row, with m = the row's length, a the items on which the two sides agree and t, j the items
    labelled 1 by ``truth`` and by ``judged``:

    .. math::
        p_o = \frac{a}{m},\quad p_e = \frac{t}{m}\frac{j}{m} + \frac{m - t}{m}\frac{m - j}{m},\quad
        \kappa = \frac{p_o - p_e}{1 - p_e} = \frac{m a - c}{m^2 - c},\quad c = tj + (m - t)(m - j).

    The last form is worked in integers up to its one division, so that ``p_e == 1`` (``c == m^2``:
    both sides gave every resampled item the same one label) is found exactly; such a row has no
    kappa and comes back NaN. Elsewhere it equals ``rml.cohens_kappa`` on the row's items.

    >>> resampled_kappas([1, 1, 0, 0], [1, 0, 0, 0], [[0, 1, 2, 3], [0, 0, 2, 3], [0, 0, 0, 0]])
    array([0.5, 1. , nan])
    """
    truth, judged = _zero_one(truth, "truth"), _zero_one(judged, "judged")
    if len(truth) != len(judged):
        raise ValueError(f"truth and judged must label the same items: {len(truth)} and {len(judged)}")
    indices = np.asarray(indices)
    t_rows, j_rows = truth[indices], judged[indices]
    m = indices.shape[-1]
    agree = (t_rows == j_rows).sum(axis=-1)
    t_ones, j_ones = t_rows.sum(axis=-1), j_rows.sum(axis=-1)
    chance = t_ones * j_ones + (m - t_ones) * (m - j_ones)
    denominator = m * m - chance
    has_kappa = denominator != 0
    kappas = np.full(agree.shape, np.nan)
    kappas[has_kappa] = (m * agree - chance)[has_kappa] / denominator[has_kappa]
    return kappas


def _within(least: int, most: float) -> str:
    return f"of at least {least}" if most == math.inf else f"from {least} to {most:,}"


def _whole(value, name: str, least: int, most: float = math.inf) -> int:
    """``value`` if it is a whole number from ``least`` to ``most``, else a ValueError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not least <= value <= most:
        raise ValueError(f"{name} must be a whole number {_within(least, most)}, got {value!r}")
    return int(value)


def kappa_interval(truth, judged, n_resamples: int = RESAMPLES, seed: int = SEED,
                   confidence: float = CONFIDENCE) -> KappaInterval:
    """A percentile bootstrap interval for Cohen's kappa of 0/1 labels, resampling the items.

    ``numpy.random.default_rng(seed).integers(0, n, (n_resamples, n))`` draws the resamples (the
    convention of ``rml.bootstrap_ci``, which bootstraps means), :func:`resampled_kappas`
    scores them, and the bounds are numpy's default (linear) quantiles at (1 - confidence) / 2 and
    (1 + confidence) / 2. A resample whose items all carry one label on both sides (p_e = 1) has no
    kappa: it is dropped, and ``resamples`` counts the ones kept. NaN bounds when none is kept.

    >>> truth, judged = [1, 1, 1, 0, 0, 0, 1, 0], [1, 1, 0, 0, 0, 1, 1, 0]
    >>> low, high, kept = kappa_interval(truth, judged, n_resamples=1000, seed=0)
    >>> f"{low:.3f}-{high:.3f}", kept
    ('-0.231-1.000', 1000)
    >>> kappa_interval([1, 1], [1, 1], n_resamples=10)
    KappaInterval(low=nan, high=nan, resamples=0)
    """
    n = len(truth)
    if n == 0:
        raise ValueError("truth and judged are empty: there are no items to resample")
    n_resamples, seed = _whole(n_resamples, "n_resamples", 1, MAX_RESAMPLES), _whole(seed, "seed", 0)
    indices = np.random.default_rng(seed).integers(0, n, (n_resamples, n))
    kappas = resampled_kappas(truth, judged, indices)
    kappas = kappas[~np.isnan(kappas)]
    if kappas.size == 0:
        return KappaInterval(math.nan, math.nan, 0)
    alpha = (1 - confidence) / 2
    low, high = np.quantile(kappas, [alpha, 1 - alpha])
    return KappaInterval(float(low), float(high), int(kappas.size))


def labelled_items(task: str, split: str = "heldout", limit: int | None = None, data: Path = DATA) -> pd.DataFrame:
    """The task's labelled items of ``split`` (``"all"``: both halves), the first ``limit`` in file order."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
    items = read_triad_labels(data, task)
    if split != "all":
        items = items[items["split"] == split]
    return items.head(limit).reset_index(drop=True) if limit is not None else items.reset_index(drop=True)


def measure(judge, tasks: Sequence[str] = TRIAD_TASKS, split: str = "heldout", limit: int | None = None, *,
            data: Path = DATA, record: Callable[[dict], None] | None = None,
            n_resamples: int = RESAMPLES, seed: int = SEED) -> pd.DataFrame:
    """One row per task: task, split, n, parse_failures, accuracy, majority_share, kappa, kappa_low,
    kappa_high, kappa_resamples, meets_bar.

    Each item is judged on its own (one ``judge`` call, so one model call for an ``LLMJudge``) and
    handed to ``record`` as ``{"task", "id", "label", "judge", "reason"}`` before the next is asked,
    so the verdicts made before a failure are kept. A reply that cannot be parsed (``LLMReplyError``)
    is recorded with ``"judge": None`` and the error's message as ``"error"``, counted in
    ``parse_failures`` and left out of ``n`` and the figures; any other failing item raises
    :class:`JudgingStopped` naming it, with the judge's error as ``error``.
    The figures are :func:`rml.triad.agreement_summary`'s, the bar :func:`rml.triad.meets_agreement_bar`
    (on accuracy); kappa_low, kappa_high and kappa_resamples are :func:`kappa_interval`'s,
    each task's from a fresh generator seeded ``seed``, so a task's interval does not depend on which
    other tasks are measured with it.

    >>> kept = []
    >>> table = measure(LexicalJudge(), ["answer_relevancy"], "dev", limit=6, record=kept.append)
    >>> table[["task", "n", "accuracy", "majority_share", "kappa", "meets_bar"]]
                   task  n  accuracy  majority_share  kappa  meets_bar
    0  answer_relevancy  6       1.0             0.5    1.0       True
    >>> [(v["id"], v["label"], v["judge"]) for v in kept[:2]]
    [('a001', 1, 1), ('a002', 0, 0)]
    """
    rows = []
    for task in tasks:
        items = labelled_items(task, split, limit, data)
        if items.empty:
            raise ValueError(f"{task}: no items in split {split!r}")
        verdicts = []
        for position in range(len(items)):
            verdicts.append(judge_one(judge, task, items.iloc[[position]], len(verdicts)))
            if record is not None:
                record(verdicts[-1])
        judged = [v for v in verdicts if v["judge"] is not None]
        labels, said = [v["label"] for v in judged], [v["judge"] for v in judged]
        row = {"task": task, "split": split, "n": len(judged), "parse_failures": len(verdicts) - len(judged)}
        if judged:
            summary = agreement_summary(labels, said)
            low, high, kept = kappa_interval(labels, said, n_resamples, seed)
            row.update({**summary.to_dict(), "kappa_low": low, "kappa_high": high, "kappa_resamples": kept,
                        "meets_bar": meets_agreement_bar(summary)})
        rows.append({"kappa_resamples": 0, "meets_bar": False, **row})  # no verdict at all: NaN figures
    table = pd.DataFrame(rows, columns=COLUMNS)
    return table.astype({"n": int, "parse_failures": int, "accuracy": float, "majority_share": float,
                         "kappa": float, "kappa_low": float, "kappa_high": float, "kappa_resamples": int,
                         "meets_bar": bool})


def judge_one(judge, task: str, item: pd.DataFrame, made: int) -> dict:
    """The verdict on one labelled item (a one-row frame, the task's ``made + 1``-th): an unreadable
    reply gives ``"judge": None`` and the error; any other failure raises :class:`JudgingStopped`."""
    item_id = item["id"].iat[0]
    verdict = {"task": task, "id": item_id, "label": int(item["label"].iat[0])}
    try:
        judged = judge_items(item, task, judge)
    except LLMReplyError as error:
        return {**verdict, "judge": None, "error": str(error)}
    except Exception as error:
        raise JudgingStopped(task, item_id, made, error) from error
    return {**verdict, "judge": int(judged["judge"].iat[0]), "reason": judged["reason"].iat[0]}


INTERVAL_COLUMN = f"kappa {CONFIDENCE:.0%} interval"


def interval_text(low: float, high: float) -> str:
    """An interval as the table prints it; "n/a" when no resample had a kappa.

    >>> interval_text(0.1484, 0.4461), interval_text(math.nan, math.nan)
    ('0.148–0.446', 'n/a')
    """
    return "n/a" if math.isnan(low) else f"{low:.3f}–{high:.3f}"


def format_table(table: pd.DataFrame, parse_failures: bool = False) -> str:
    """The table as printed: three decimals, the interval beside kappa, "yes"/"no" for the bar; the
    ``parse failures`` column beside ``n`` with ``parse_failures`` (an LLM judge) or when there are any.

    >>> row = {"task": "faithfulness", "split": "heldout", "n": 4, "accuracy": 0.75, "majority_share": 0.5,
    ...        "kappa": 0.5, "kappa_low": -0.2, "kappa_high": 1.0, "kappa_resamples": 1990, "meets_bar": True}
    >>> print(format_table(pd.DataFrame([row])))
            task   split  n  accuracy  majority share  kappa  kappa 95% interval  meets the bar
    faithfulness heldout  4     0.750           0.500  0.500        -0.200–1.000            yes
    """
    hidden = ["kappa_low", "kappa_high", "kappa_resamples"]
    if "parse_failures" in table and not (parse_failures or table["parse_failures"].any()):
        hidden.append("parse_failures")
    shown = table.drop(columns=hidden)
    shown.insert(shown.columns.get_loc("kappa") + 1, INTERVAL_COLUMN,
                 [interval_text(low, high) for low, high in zip(table["kappa_low"], table["kappa_high"])])
    shown = shown.rename(columns={"majority_share": "majority share", "meets_bar": "meets the bar",
                                  "parse_failures": "parse failures"})
    three = "{:.3f}".format
    return shown.to_string(index=False, formatters={"accuracy": three, "majority share": three, "kappa": three,
                                                     "meets the bar": lambda met: "yes" if met else "no"})


def interval_lines(table: pd.DataFrame, n_resamples: int, seed: int) -> list[str]:
    """What the interval is, that the bar does not read kappa, and any resamples left out for having no kappa.

    >>> row = {"task": "faithfulness", "kappa_resamples": 1990}
    >>> for line in interval_lines(pd.DataFrame([row]), 2000, 0):
    ...     print(line)
    Interval: 2,000 resamples of the items with replacement (seed 0); the bar reads accuracy, not kappa.
    faithfulness: 10 of 2,000 resamples had one label on both sides (no kappa) and were left out.
    """
    lines = [f"Interval: {n_resamples:,} resamples of the items with replacement (seed {seed}); "
             "the bar reads accuracy, not kappa."]
    for task, kept in zip(table["task"], table["kappa_resamples"]):
        if kept < n_resamples:
            lines.append(f"{task}: {n_resamples - kept:,} of {n_resamples:,} resamples had one label on both "
                         "sides (no kappa) and were left out.")
    return lines


def bar_line() -> str:
    """The bar, read from AGREEMENT_BAR.

    >>> bar_line()
    'The bar (rml.triad.AGREEMENT_BAR): accuracy >= majority share + 0.10.'
    """
    margin = AGREEMENT_BAR["accuracy_over_majority"]
    return f"The bar (rml.triad.AGREEMENT_BAR): accuracy >= majority share + {margin:.2f}."


def whole_number(least: int, most: float = math.inf) -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``least`` to ``most`` (--limit 1, --resamples 1 to
    MAX_RESAMPLES, --seed 0), else an error saying which numbers are allowed.

    >>> whole_number(1)("5")
    5
    >>> whole_number(1)("0")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: must be a whole number of at least 1, got '0'
    >>> whole_number(1, MAX_RESAMPLES)("100001")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: must be a whole number from 1 to 100,000, got '100001'
    >>> whole_number(0)("x")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: must be a whole number of at least 0, got 'x'
    """
    def parse(text: str) -> int:
        try:
            return _whole(int(text), "", least, most)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number {_within(least, most)}, got {text!r}") from None

    return parse


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors come back to ``main`` (one line on stderr, exit 2), not SystemExit."""

    def error(self, message: str):
        raise _UsageError(message)


def _parser() -> _Parser:
    parser = _Parser(prog="judge_agreement.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--judge", choices=JUDGES, default="lexical",
                        help="lexical: LexicalJudge (default); embedding: EmbeddingJudge; default: each task's "
                             "default judge (judge=None); llm: the model the environment names")
    parser.add_argument("--task", choices=(*TRIAD_TASKS, "all"), default="all", help="one task, or all (default)")
    parser.add_argument("--split", choices=SPLITS, default="heldout",
                        help="heldout (default), dev, or all: both halves")
    parser.add_argument("--limit", type=whole_number(1), metavar="N", help="judge only the first N items of each task")
    parser.add_argument("--verdicts", type=Path, metavar="FILE.jsonl",
                        help="write one JSON line per judged item: task, id, label, judge, reason")
    parser.add_argument("--data", type=Path, default=DATA, help="the folder of the label files (default: data/triad)")
    parser.add_argument("--resamples", type=whole_number(1, MAX_RESAMPLES), default=RESAMPLES, metavar="N",
                        help=f"bootstrap resamples for kappa's interval (default: {RESAMPLES})")
    parser.add_argument("--seed", type=whole_number(0), default=SEED, metavar="S",
                        help=f"the bootstrap's numpy seed (default: {SEED})")
    return parser


def _labels_problem(tasks: Sequence[str], args: argparse.Namespace) -> str | None:
    """Why the labels cannot be judged (an unreadable file, no items in the split), or None."""
    for task in tasks:
        try:
            if labelled_items(task, args.split, args.limit, args.data).empty:
                raise ValueError(f"no {args.split} items")
        except (OSError, ValueError) as error:
            return f"cannot read the {task} labels in {args.data}: {error}"
    return None


def _report(judge, counted: CountedCalls | None, table: pd.DataFrame, args: argparse.Namespace,
            written: list[str]) -> None:
    """Print the judge, the table, the bar, the interval and what else the run needs saying."""
    if counted is not None:
        print(f"Judge: LLMJudge, model {os.environ.get(ENV_MODEL, '').strip()}")
    elif isinstance(judge, DefaultJudge):
        print(f"Judge: DefaultJudge ({', '.join(f'{q}: {j}' for q, j in DEFAULT_JUDGES.items())})")
    else:
        print(f"Judge: {judge!r}")
    print(format_table(table, parse_failures=counted is not None))
    print(bar_line())
    for line in interval_lines(table, args.resamples, args.seed):
        print(line)
    if table["parse_failures"].any():
        print(f"Parse failures: {table['parse_failures'].sum()} replies could not be read as verdicts; those "
              "items are left out of n and the figures" + (" (their errors are in the verdicts file)."
                                                          if args.verdicts else "."))
    if counted is not None:
        print(FAIRNESS)
        print(f"Model calls: {counted.calls}.")
        stats = getattr(counted.complete, "stats", None)
        if stats is not None:
            print(f"Requests sent: {stats['requests']}, replies from the cache: {stats['cached']}; tokens the "
                  f"replies report: prompt {stats['prompt_tokens']:,}, completion {stats['completion_tokens']:,}, "
                  f"total {stats['total_tokens']:,}.")
    elif args.split != "heldout":
        print(TUNED_ON_DEV)
    if args.verdicts:
        print(f"Verdicts: {len(written)} lines in {args.verdicts}.")


def _fail(message: str) -> int:
    print(f"judge_agreement.py: error: {message}", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    try:
        args = _parser().parse_args(argv)
    except _UsageError as error:
        return _fail(str(error))
    tasks = TRIAD_TASKS if args.task == "all" else (args.task,)
    problem = _labels_problem(tasks, args)   # before any model call
    if problem is not None:
        return _fail(problem)
    counted = None
    if args.judge == "llm":
        judge = llm_judge_from_environment()   # prints how to set the variables when they are not set
        if judge is None:
            return _fail("--judge llm needs an endpoint: set the variables above")
        judge.complete = counted = CountedCalls(judge.complete)
    else:
        judge = OFFLINE_JUDGES[args.judge]()
    try:
        verdicts_file = args.verdicts.open("w", encoding="utf-8") if args.verdicts else None
    except OSError as error:
        return _fail(f"cannot write --verdicts: {error}")
    written = []

    def record(verdict: dict) -> None:
        if verdicts_file is not None:
            verdicts_file.write(json.dumps(verdict, ensure_ascii=False) + "\n")
            verdicts_file.flush()
            written.append(verdict["id"])
        if counted is not None and sys.stderr.isatty():   # progress, one line rewritten in place
            print(f"\r{counted.calls} model calls, last {verdict['task']} {verdict['id']}".ljust(60),
                  end="", file=sys.stderr, flush=True)

    try:
        table = measure(judge, tasks, args.split, args.limit, data=args.data, record=record,
                        n_resamples=args.resamples, seed=args.seed)
    except JudgingStopped as stop:
        if not isinstance(stop.error, (LLMEndpointError, OSError)):
            raise
        print(f"{chr(10) if sys.stderr.isatty() else ''}judge_agreement.py: stopped at {stop}", file=sys.stderr)
        if args.verdicts:
            print(f"judge_agreement.py: the {len(written)} verdicts made before it are in {args.verdicts}",
                  file=sys.stderr)
        return 1
    finally:
        if verdicts_file is not None:
            verdicts_file.close()
    if counted is not None and sys.stderr.isatty():
        print(file=sys.stderr)   # end the progress line
    _report(judge, counted, table, args, written)
    return 0

if __name__ == "__main__":
    sys.exit(main())
