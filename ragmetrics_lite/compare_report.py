"""The report of ``ragmetrics-lite compare`` as text (a terminal, a CI log), JSON or Markdown.

The three hold the same figures; JSON holds them at full precision (an undefined figure, such as the
interval of one query, is ``null``), text and Markdown round them. Markdown is what a CI job summary
or a pull-request comment shows.
"""
from __future__ import annotations

import json
import math
import os
import sys
import textwrap

__all__ = ["FORMATS", "as_text", "as_json", "as_markdown", "deliver"]

COLUMNS = ["metric", "baseline", "candidate", "difference", "{confidence} interval", "p", "won", "lost", "tied",
           "gate"]


def _figure(value: float, signed: bool = False) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{value:+.4f}" if signed else f"{value:.4f}"


def _gate(result: dict) -> str:
    if result["reasons"]:
        return "TRIPPED" if result["gated"] else "warning"
    return "pass" if result["gated"] else "warn only"


def _row(result: dict) -> list[str]:
    low, high = result["interval"]
    p_value = f"{result['p_value']:.4f}" + ("" if result["exact"] else "~")
    return [result["metric"], _figure(result["baseline"]), _figure(result["candidate"]),
            _figure(result["difference"], True), f"[{_figure(low, True)}, {_figure(high, True)}]", p_value,
            str(result["won"]), str(result["lost"]), str(result["tied"]), _gate(result)]


def _method(report: dict, family: list[dict], gated: bool) -> str:
    """One sentence: how the p-values were computed and corrected, and what trips a gate."""
    count = len(family)
    correction = (f"Holm's correction over the {count} {'gated' if gated else 'judged'} metrics"
                  if count > 1 else "one metric, so no correction")
    what = "a gate trips" if gated else "a warning is given"
    return (f"Two-sided sign-flip p-values, exact (every sign pattern of the changed queries) unless marked ~; "
            f"{correction} at alpha {report['alpha']:g}; {what} on a significant drop of more than "
            f"{report['max_drop']:g} or a mean under its --fail-under floor.")


def _agreement(result: dict) -> str:
    found = result["agreement"]
    if "kappa" not in found:
        return f"{result['metric']}: the judge's agreement is unknown: {found['why']}"
    return (f"{result['metric']}: judged by {found['judge']}, whose held-out agreement with the labels is "
            f"accuracy {found['accuracy']:.3f} (majority share {found['majority_share']:.3f}), "
            f"kappa {found['kappa']:.3f} on {found['n']} items ({found['source']}, round {found['round']})")


def _lines(report: dict) -> dict:
    """The pieces every format shows, as plain sentences."""
    confidence = f"{100 * (1 - report['alpha']):g}%"
    header = [c.format(confidence=confidence) for c in COLUMNS]
    retrieval = [r for r in report["metrics"] if r["kind"] == "retrieval"]
    judged = [r for r in report["metrics"] if r["kind"] == "judged"]
    worst = [f"{r['metric']}: " + ", ".join(f"{w['query_id']} ({w['difference']:+.4f})" for w in r["worst"])
             for r in report["metrics"] if r["worst"]]
    status = report["exit_status"]
    verdict = (f"FAIL: {len(report['tripped'])} gate(s) tripped (exit status 1)" if status
               else "PASS: no gate tripped (exit status 0)")
    return {"header": header, "retrieval": retrieval, "judged": judged, "worst": worst, "verdict": verdict,
            "about": (f"Candidate {report['candidate']} against baseline {report['baseline']}: "
                      f"judgments {report['qrels']} (grade >= {report['relevance_level']} relevant), "
                      f"{report['queries']}. Difference = candidate - baseline, mean over queries; "
                      f"{confidence} bootstrap interval ({report['resamples']} resamples, seed {report['seed']})."),
            "judged_about": "Judged metrics only warn (--gate-judged makes them gate); each beside its judge's "
                            "measured agreement, since a judge that often disagrees with the labels is no gate."}


def _latency_rows(timing: dict) -> list[list[str]]:
    return [[side, str(timing[side]["n"]), *(f"{timing[side][p]:.1f}" for p in ("p50", "p95", "p99"))]
            for side in ("baseline", "candidate")]


def _latency_verdict(timing: dict) -> str:
    change = f"P95 {timing['p95_increase_ms']:+.1f} ms"
    if not timing["gated"]:
        return f"{change}; not gated (--max-latency-increase sets a limit)"
    return f"{change}, {timing['allowed_ms']:.1f} ms allowed ({timing['max_increase']}): " + (
        "TRIPPED" if timing["reasons"] else "pass")


def _aligned(header: list[str], rows: list[list[str]]) -> list[str]:
    """Columns padded to their widest cell: the first left-aligned, the others right-aligned."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    return ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
            for row in [header, *rows]]


def _wrapped(*paragraphs: str, indent: str = "") -> list[str]:
    """Each paragraph as lines of at most 100 columns, continuation lines indented two more spaces."""
    return [line for text in paragraphs
            for line in textwrap.wrap(text, 100, initial_indent=indent, subsequent_indent=indent + "  ")]


def as_text(report: dict) -> str:
    """The report for a terminal or a CI log."""
    parts = _lines(report)
    lines = ["ragmetrics-lite compare", *_wrapped(parts["about"], _method(report, parts["retrieval"], True)), ""]
    lines += _aligned(parts["header"], [_row(r) for r in parts["retrieval"]])
    if parts["judged"]:
        gated = report["metrics"][-1]["gated"]
        about = parts["judged_about"] if not gated else "Judged metrics, gated (--gate-judged)."
        lines += ["", *_wrapped(about, _method(report, parts["judged"], gated)), ""]
        lines += _aligned(parts["header"], [_row(r) for r in parts["judged"]])
        lines += _wrapped(*[_agreement(r) for r in parts["judged"]])
    if report["latency"]:
        lines += ["", *_aligned(["latency (ms)", "n", "P50", "P95", "P99"], _latency_rows(report["latency"])),
                  _latency_verdict(report["latency"])]
    lines += ["", "Worst-hit queries:" if parts["worst"] else "No query lost on any metric."]
    lines += [f"  {line}" for line in parts["worst"]]
    lines += _wrapped(*[f"Note: {note}" for note in report["notes"]], *[f"Warning: {w}" for w in report["warnings"]])
    lines += ["", f"Verdict: {parts['verdict']}", *_wrapped(*report["tripped"], indent="  ")]
    return "\n".join(lines) + "\n"


def _markdown_table(header: list[str], rows: list[list[str]]) -> list[str]:
    align = ["---"] + ["---:"] * (len(header) - 2) + [":---:"]
    return [f"| {' | '.join(row)} |" for row in [header, align[:len(header)], *rows]]


def as_markdown(report: dict) -> str:
    """The report for a CI job summary or a pull-request comment (GitHub-flavoured Markdown)."""
    parts = _lines(report)
    mark = "regression found" if report["exit_status"] else "no regression"
    lines = [f"### ragmetrics-lite compare: {mark}", "", parts["about"], ""]
    lines += _markdown_table(parts["header"], [_row(r) for r in parts["retrieval"]])
    lines += ["", _method(report, parts["retrieval"], True)]
    if parts["judged"]:
        lines += ["", parts["judged_about"], ""]
        lines += _markdown_table(parts["header"], [_row(r) for r in parts["judged"]])
        lines += ["", *[f"- {_agreement(r)}" for r in parts["judged"]]]
    if report["latency"]:
        rows = _latency_rows(report["latency"])
        lines += ["", *_markdown_table(["latency (ms)", "n", "P50", "P95", "P99"], rows),
                  "", _latency_verdict(report["latency"])]
    if parts["worst"]:
        lines += ["", "Worst-hit queries:", "", *[f"- {line}" for line in parts["worst"]]]
    lines += [""] * bool(report["notes"] or report["warnings"])
    lines += [f"- Note: {note}" for note in report["notes"]] + [f"- Warning: {w}" for w in report["warnings"]]
    lines += ["", f"**Verdict: {parts['verdict']}**", *[f"- {reason}" for reason in report["tripped"]]]
    return "\n".join(lines) + "\n"


def _plain(value):
    """NaN as None, so that the JSON is standard (``null``), not Python's ``NaN``."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {key: _plain(v) for key, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def as_json(report: dict) -> str:
    """Every figure at full precision, for a script."""
    return json.dumps(_plain(report), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


FORMATS = {"text": as_text, "json": as_json, "markdown": as_markdown}


def deliver(text: str) -> str | None:
    """Write ``text`` to standard output and flush it; None, or why it could not be written (stdout closed,
    a full disk, a reader gone as in ``| head``). Then stdout points at /dev/null, so that Python's own
    flush at exit has nowhere to fail and no traceback follows the one-line error."""
    try:
        if sys.stdout is None:
            return "standard output is closed"
        sys.stdout.write(text)
        sys.stdout.flush()
    except OSError as error:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return error.strerror or str(error)
    return None
