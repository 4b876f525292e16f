r"""Latency percentiles (延迟百分位数, P50/P95/P99) and a per-stage timer for a RAG pipeline.

Reference replicated: numpy 2.4's ``numpy.percentile``. The equivalent call is::

    {p: float(np.percentile(samples, p, method=method)) for p in percentiles}

for the methods ``linear`` (numpy's default, Hyndman & Fan type 7), ``lower``,
``higher``, ``nearest``, ``midpoint`` and ``inverted_cdf`` (H&F type 1). The
helper computes the order statistics itself (one sort, then indexing), with
numpy's own float arithmetic, so the values are equal, not merely close.

Two names that mislead:

* ``inverted_cdf`` is the textbook nearest-rank rule (the value at rank
  ``ceil(p / 100 * n)``) up to float rounding: numpy multiplies ``n`` by the float
  ``p / 100``, so at n = 100, p = 7 it gets 7.000000000000001 and returns the 8th
  value where the exact rule gives the 7th. We return numpy's value.
* ``nearest`` is not nearest rank: it rounds the *linear* method's position
  ``(n - 1) p / 100`` to the closest index (half to even).

Latencies are durations: the helper refuses an empty sample, NaN, infinity and
negative values rather than return a silently wrong percentile.

``StageTimer`` times the named stages of many requests (its docstring shows how).

Derived in ``notebooks/15_latency_percentiles.ipynb``.
"""
from __future__ import annotations

import numbers
import time
from collections.abc import Callable, Hashable, Iterable
from contextlib import contextmanager

import numpy as np
import pandas as pd

__all__ = ["PERCENTILE_METHODS", "latency_percentiles", "StageTimer"]

PERCENTILE_METHODS = ("linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf")


def _as_durations(samples: object) -> np.ndarray:
    """The samples as a sorted float array; refuses text, booleans, empty, NaN, inf, negatives."""
    if isinstance(samples, (str, bytes)) or not isinstance(samples, (Iterable, np.ndarray)):
        raise TypeError(f"samples must be a list or array of durations, got {type(samples).__name__}")
    values = np.asarray(samples if hasattr(samples, "__array__") else list(samples))  # arrays, Series as is
    if values.ndim != 1:
        raise ValueError(f"samples must be one-dimensional, got an array of shape {values.shape}")
    if values.size == 0:
        raise ValueError("samples is empty: a percentile needs at least one duration")
    if values.dtype.kind not in "iuf":
        bad = next((v for v in values.tolist() if isinstance(v, bool) or not isinstance(v, numbers.Real)),
                   values.tolist()[0])
        raise TypeError(f"samples must be numbers (durations), got {type(bad).__name__} {bad!r}")
    values = values.astype(np.float64)
    if np.isnan(values).any():
        raise ValueError(f"samples hold NaN at position {int(np.argmax(np.isnan(values)))}: record a "
                         "failed or timed-out request with the time it took, or leave it out on purpose")
    if np.isinf(values).any():
        raise ValueError(f"samples hold infinity at position {int(np.argmax(np.isinf(values)))}")
    if (values < 0).any():
        at = int(np.argmax(values < 0))
        raise ValueError(f"samples hold a negative duration {float(values[at])!r} at position {at}")
    return np.sort(values)


def _as_percentiles(percentiles: object) -> list:
    """The requested percentiles as a list of numbers in [0, 100]."""
    single = isinstance(percentiles, numbers.Real) and not isinstance(percentiles, bool)
    listed = [percentiles] if single else percentiles
    if isinstance(listed, (str, bytes)) or not isinstance(listed, (Iterable, np.ndarray)):
        raise TypeError(f"percentiles must be a number or a list of numbers, got {type(percentiles).__name__}")
    listed = list(listed)
    if not listed:
        raise ValueError("percentiles is empty: ask for at least one, e.g. (50, 95, 99)")
    for p in listed:
        if isinstance(p, (bool, np.bool_)) or not isinstance(p, numbers.Real):
            raise TypeError(f"each percentile must be a number, got {type(p).__name__} {p!r}")
        if not 0 <= p <= 100:  # also refuses NaN
            raise ValueError(f"percentiles must lie in [0, 100], got {p!r}")
    return listed


def _lerp(below: np.ndarray, above: np.ndarray, t: np.ndarray) -> np.ndarray:
    """below + t (above - below), computed from the nearer end as numpy does (same rounding)."""
    step = above - below
    return np.where(t >= 0.5, above - step * (1 - t), below + step * t)


def latency_percentiles(samples, percentiles=(50, 95, 99), method: str = "linear") -> dict:
    r"""Each percentile of a sample of durations, as ``{p: value}`` (floats, the samples' unit).

    With the sorted sample :math:`x_0 \le \dots \le x_{n-1}` and :math:`q = p / 100`:

    - ``linear`` (default): :math:`h = (n-1)q`, value
      :math:`x_{\lfloor h\rfloor} + (h - \lfloor h\rfloor)(x_{\lfloor h\rfloor+1} - x_{\lfloor h\rfloor})`;
    - ``lower`` / ``higher`` / ``nearest``: :math:`x_{\lfloor h\rfloor}`, :math:`x_{\lceil h\rceil}`,
      :math:`x_{\mathrm{round}(h)}` (half to even); ``midpoint``: the mean of the last two;
    - ``inverted_cdf``: :math:`x_{\lceil nq\rceil - 1}` (and :math:`x_0` at p = 0), nearest rank.

    Equal to ``numpy.percentile(samples, p, method=method)``. Derived in
    ``15_latency_percentiles.ipynb``.

    >>> {p: round(v, 6) for p, v in latency_percentiles([120, 80, 95, 400, 100]).items()}
    {50: 100.0, 95: 344.0, 99: 388.8}
    >>> latency_percentiles([120, 80, 95, 400, 100], [50, 95], method="inverted_cdf")
    {50: 100.0, 95: 400.0}
    """
    if not isinstance(method, str) or method not in PERCENTILE_METHODS:
        raise ValueError(f"method must be one of {', '.join(PERCENTILE_METHODS)}; got {method!r}")
    x = _as_durations(samples)
    requested = _as_percentiles(percentiles)
    q = np.array(requested, dtype=np.float64) / 100
    n, last = x.size, x.size - 1
    if method == "inverted_cdf":
        position = n * q - 1
        below = np.floor(position)
        index = np.where(position == below, below, below + 1).clip(0, last).astype(np.intp)
        values = x[index]
    else:
        h = (n - 1) * q
        lo, hi = np.floor(h).astype(np.intp), np.ceil(h).astype(np.intp)
        if method == "lower":
            values = x[lo]
        elif method == "higher":
            values = x[hi]
        elif method == "nearest":
            values = x[np.around(h).astype(np.intp)]
        else:
            t = np.where(lo == hi, 0.0, 0.5) if method == "midpoint" else h - lo
            values = _lerp(x[lo], x[np.minimum(lo + 1, last)], t)
    return {p: float(v) for p, v in zip(requested, values)}


class StageTimer:
    """Wall-clock durations per named pipeline stage over many requests, as a DataFrame (ms).

    Open one ``request()`` per query and time each stage inside it::

        timer = StageTimer()
        for query in queries:
            with timer.request():
                with timer.stage("retrieve"):
                    chunks = retrieve(query)
                with timer.stage("generate"):
                    answer = generate(query, chunks)
        timer.frame()   # one row per request: a column per stage, then "total"

    ``total`` is the whole request, so it includes any time between stages. A stage
    timed twice in one request adds up; a stage a request skipped is NaN. A stage that
    raises is still recorded (the user waited for it) and the exception goes on.
    ``clock`` returns seconds (default ``time.perf_counter``); pass a simulated clock
    to test code that uses the timer or to replay synthetic durations (notebook 15).

    >>> now = [0.0]
    >>> timer = StageTimer(clock=lambda: now[0])
    >>> with timer.request("q1"):
    ...     with timer.stage("retrieve"):
    ...         now[0] += 0.050
    ...     with timer.stage("generate"):
    ...         now[0] += 0.700
    >>> timer.frame().round(3).to_dict("index")
    {'q1': {'retrieve': 50.0, 'generate': 700.0, 'total': 750.0}}
    """

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        if not callable(clock):
            raise TypeError(f"clock must be a function returning seconds, got {type(clock).__name__}")
        self._clock = clock
        self._rows: list[tuple[Hashable, dict[str, float]]] = []
        self._open: dict[str, float] | None = None
        self._in_stage = False

    def _now(self) -> float:
        value = self._clock()
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(value):
            raise TypeError(f"clock must return a finite number of seconds, got {value!r}")
        return float(value)

    @contextmanager
    def request(self, request_id: Hashable = None):
        """Time one request; ``request_id`` labels its row (default: 0, 1, 2, ...)."""
        if self._open is not None:
            raise RuntimeError("a request is already open: requests do not nest")
        label = len(self._rows) if request_id is None else request_id
        self._open, start = {}, self._now()
        try:
            yield self
        finally:
            durations, self._open = self._open, None
            durations["total"] = (self._now() - start) * 1000
            self._rows.append((label, durations))

    @contextmanager
    def stage(self, name: str):
        """Time one stage of the open request, adding to its column ``name`` (milliseconds)."""
        if not isinstance(name, str) or not name or name == "total":
            raise ValueError(f"a stage needs a non-empty name other than 'total', got {name!r}")
        if self._open is None:
            raise RuntimeError(f"stage {name!r} is outside a request: open `with timer.request():` first")
        if self._in_stage:
            raise RuntimeError(f"stage {name!r} is inside another stage: stages do not nest")
        durations, self._in_stage, start = self._open, True, self._now()
        try:
            yield
        finally:
            self._in_stage = False
            durations[name] = durations.get(name, 0.0) + (self._now() - start) * 1000

    def frame(self) -> pd.DataFrame:
        """One row per finished request (index ``request``): the stages in first-seen order, then ``total``."""
        stages = list(dict.fromkeys(s for _, row in self._rows for s in row if s != "total"))
        columns = [*stages, "total"]
        table = pd.DataFrame([row for _, row in self._rows], columns=columns, dtype=float)
        table.index = pd.Index([label for label, _ in self._rows], name="request")
        return table
