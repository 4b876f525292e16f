"""A rank playground: move one document, change k, and watch six ranking metrics move at once.

Used in ``notebooks/07_ndcg.ipynb``. Nothing is computed here: Recall@k, Hit@k, Precision@k,
RR@k, AP@k and NDCG@k come from the package's per-query functions (``rml.recall_at_k`` and the
others), so the playground replicates trec_eval exactly as they do; for one state the equivalent
call is::

    pytrec_eval.RelevanceEvaluator({"q": grades}, {"recall.k", "success.k", "P.k", "map_cut.k",
                                                   "ndcg_cut.k"}).evaluate({"q": run})

plus ``recip_rank`` on the run cut to its top k (a document counts as relevant at grade >= 1).

Two layers, so that the logic is tested without a browser or a kernel:

* ``RankState``: an immutable value (judgments, order, k, selected document). ``move_up``,
  ``move_down``, ``select``, ``with_k``, ``reset`` and ``best_order`` return a new state;
  ``metrics_table()`` is a pandas DataFrame and ``text()`` the same as plain text.
* ``RankPlayground``: the ipywidgets 8 view, a strip of one button per rank coloured by grade
  (click to select), buttons to move the selection, a k slider, the metrics beside the strip.
  Every event replaces the state and redraws from it.

``rank_playground(grades, ranking, k)`` prints the state as text (what strict nbval compares)
and shows the widget, whose own text/plain is a fixed sentence (no model id, no state).

>>> state = RankState.build({101: 3, 205: 2, 309: 1}, [999, 205, 101, 888, 309], k=5)
>>> state.select(101).move_up().order
(999, 101, 205, 888, 309)
>>> round(state.select(101).move_up().metrics()["NDCG@5"], 4)
0.6887
"""
from __future__ import annotations

import html
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace

import pandas as pd

from .. import retrieval as rml  # the per-query functions (rml.recall_at_k, ...), as a learner calls them

from .._validation import as_grades, as_ranking, check_id_kinds, check_k

__all__ = ["RankState", "RankPlayground", "rank_playground", "WIDGET_TEXT", "EXAMPLE"]

MAX_DOCUMENTS = 20  # a strip of more buttons no longer fits a screen
WIDGET_TEXT = ("Rank playground (a live widget: run this cell in Jupyter, then click a document, "
               "move it, change k); the table printed above is its starting state.")
# Eight graded documents for a class (the capstone's default): grades 3, 2, 1, 0, unjudged, and one
# highly relevant document ("d7") the ranking puts last.
EXAMPLE = {"grades": {"d1": 2, "d2": 0, "d3": 3, "d4": 1, "d5": 0, "d6": 2, "d7": 3},
           "ranking": ["d2", "d1", "d5", "d3", "d8", "d4", "d6", "d7"], "k": 5}


def _metric_functions(k: int) -> dict[str, object]:
    """Metric name -> function of (judgments, ranking), the package's per-query functions cut at k."""
    return {f"Recall@{k}": lambda g, r: rml.recall_at_k(g, r, k),
            f"Hit@{k}": lambda g, r: rml.hit_at_k(g, r, k),
            f"Precision@{k}": lambda g, r: rml.precision_at_k(g, r, k),
            f"RR@{k}": lambda g, r: rml.reciprocal_rank(g, r, k=k),
            f"AP@{k}": lambda g, r: rml.average_precision(g, r, k=k),
            f"NDCG@{k}": lambda g, r: rml.ndcg_at_k(g, r, k)}


@dataclass(frozen=True)
class RankState:
    """One arrangement in the playground; every method returns a new state.

    ``grades`` are the judgments (documents missing from it are unjudged, grade 0; judged
    documents missing from ``order`` were never retrieved and still count in Recall, AP and
    NDCG's ideal), ``order`` the ranking, best first, ``start`` the ranking the playground began
    with, ``selected`` the document the move buttons act on. Build one with ``RankState.build``.
    """

    grades: tuple[tuple[Hashable, int], ...]
    order: tuple
    k: int
    selected: Hashable
    start: tuple

    @classmethod
    def build(cls, grades: Mapping, ranking: Sequence, k: int = 5, selected=None) -> RankState:
        """Validate the inputs; the first document is selected unless ``selected`` names one.

        >>> RankState.build({"a": 1}, ["b", "a"], k=1).selected
        'b'
        >>> RankState.build({"a": 1}, [], k=1)
        Traceback (most recent call last):
        ...
        ValueError: the playground needs at least one document in ranking
        """
        if not isinstance(grades, Mapping):
            raise TypeError(f"grades must be a mapping {{doc_id: grade}}, got {type(grades).__name__}")
        judged, order = as_grades(grades), as_ranking(ranking)
        check_id_kinds(("grades", judged), ("ranking", order))
        if not order:
            raise ValueError("the playground needs at least one document in ranking")
        if len(order) > MAX_DOCUMENTS:
            raise ValueError(f"the playground shows at most {MAX_DOCUMENTS} documents, "
                             f"ranking has {len(order)}")
        state = cls(tuple(judged.items()), tuple(order), check_k(k), order[0], tuple(order))
        return state if selected is None else state.select(selected)

    @property
    def judgments(self) -> dict:
        """The judgments as ``{doc_id: grade}``."""
        return dict(self.grades)

    def grade(self, doc) -> int:
        """The grade of ``doc`` (0 when unjudged)."""
        return self.judgments.get(doc, 0)

    @property
    def rank(self) -> int:
        """The rank (1-based) of the selected document."""
        return self.order.index(self.selected) + 1

    def select(self, doc) -> RankState:
        """The same arrangement with ``doc`` selected."""
        if doc not in self.order:
            raise ValueError(f"{doc!r} is not in the ranking {list(self.order)}")
        return replace(self, selected=doc)

    def _swap(self, step: int) -> RankState:
        i = self.rank - 1
        j = i + step
        if not 0 <= j < len(self.order):
            return self  # already at the top (or bottom): nothing moves
        order = list(self.order)
        order[i], order[j] = order[j], order[i]
        return replace(self, order=tuple(order))

    def move_up(self) -> RankState:
        """The selected document one rank higher (unchanged at rank 1).

        >>> RankState.build({}, ["a", "b"], selected="b").move_up().order
        ('b', 'a')
        """
        return self._swap(-1)

    def move_down(self) -> RankState:
        """The selected document one rank lower (unchanged at the last rank)."""
        return self._swap(+1)

    def with_k(self, k: int) -> RankState:
        """The same arrangement cut at ``k`` (k may exceed the number of documents)."""
        return replace(self, k=check_k(k))

    def reset(self) -> RankState:
        """The starting ranking again (k and the selection stay)."""
        return replace(self, order=self.start)

    def best_order(self) -> RankState:
        """The documents sorted by grade, highest first (ties keep their order)."""
        return replace(self, order=tuple(sorted(self.order, key=lambda doc: -max(self.grade(doc), 0))))

    def metrics(self, order: Sequence | None = None) -> dict[str, float]:
        """``{"Recall@k": ..., ..., "NDCG@k": ...}`` of ``order`` (default: the current one)."""
        ranking = list(self.order if order is None else order)
        return {name: fn(self.judgments, ranking) for name, fn in _metric_functions(self.k).items()}

    def metrics_table(self) -> pd.DataFrame:
        """The six metrics now and their change against the starting ranking at the same k."""
        now, start = self.metrics(), self.metrics(self.start)
        return pd.DataFrame({"value": now, "change": {name: now[name] - start[name] for name in now}},
                            index=pd.Index(list(now), name="metric"))

    def text(self) -> str:
        """The strip and the metrics as plain text (what a notebook prints; nbval compares it).

        The change against the starting ranking (at the same k) shows once something moved:

        >>> print(RankState.build({"a": 2}, ["b", "a"], k=1, selected="a").move_up().text())
        ranking (K = 1), selected: a at rank 1
        rank     1 |   2
        doc      a |   b
        grade    2 |   0
                 ^
        metric        value   change
        Recall@1     1.0000  +1.0000
        Hit@1        1.0000  +1.0000
        Precision@1  1.0000  +1.0000
        RR@1         1.0000  +1.0000
        AP@1         1.0000  +1.0000
        NDCG@1       1.0000  +1.0000
        """
        labels = [str(doc) for doc in self.order]
        width = max(3, *map(len, labels))
        cells = {"rank": [str(i) for i in range(1, len(labels) + 1)], "doc": labels,
                 "grade": [str(self.grade(doc)) for doc in self.order]}
        cut = min(self.k, len(labels))

        def row(values):
            parts = [v.rjust(width) for v in values]
            return " ".join(parts[:cut]) + (" |" if cut < len(parts) else "") + "".join(
                " " + p for p in parts[cut:])

        past = f", past the last of {len(labels)} documents" if self.k > len(labels) else ""
        lines = [f"ranking (K = {self.k}{past}), selected: {self.selected} at rank {self.rank}"]
        lines += [f"{name:<6} {row(values)}" for name, values in cells.items()]
        marker = [("^" if i == self.rank else " ").rjust(width) for i in range(1, len(labels) + 1)]
        lines.append(f"{'':<6} {row(marker)}".replace("|", " ").rstrip())
        table = self.metrics_table()
        moved = self.order != self.start  # the change column only once something moved
        name_width = max(len("metric"), *map(len, table.index))
        lines.append(f"{'metric':<{name_width}}  {'value':>7}" + (f"  {'change':>7}" if moved else ""))
        lines += [f"{name:<{name_width}}  {value:7.4f}" + (f"  {change:+7.4f}" if moved else "")
                  for name, value, change in zip(table.index, table["value"], table["change"])]
        return "\n".join(lines)

    def metrics_html(self) -> str:
        """The metrics as an HTML table with a bar per value (what the widget shows)."""
        rows = []
        for name, value, change in self.metrics_table().itertuples():
            colour = "#1a7f37" if change > 1e-12 else "#c0392b" if change < -1e-12 else "#777"
            rows.append(
                f"<tr><td style='padding:2px 8px'>{html.escape(name)}</td>"
                f"<td style='padding:2px 8px;font-family:monospace'>{value:.4f}</td>"
                f"<td style='padding:2px 4px'><div style='width:120px;height:10px;background:#eee'>"
                f"<div style='width:{120 * value:.0f}px;height:10px;background:#2c7fb8'></div></div></td>"
                f"<td style='padding:2px 8px;font-family:monospace;color:{colour}'>{change:+.4f}</td></tr>")
        head = ("<tr><th style='text-align:left;padding:2px 8px'>metric</th><th>value</th><th></th>"
                "<th style='padding:2px 8px;white-space:nowrap'>vs start</th></tr>")
        return f"<table style='border-collapse:collapse'>{head}{''.join(rows)}</table>"


class RankPlayground:
    """The widget: a clickable rank strip, move buttons, a k slider, the metrics beside them.

    ``state`` is the current ``RankState``; every control replaces it and ``refresh()`` redraws
    the widgets from it. Works without a kernel too (the tests click the buttons in Python).

    >>> playground = RankPlayground(RankState.build({"a": 2}, ["b", "a"], k=1))
    >>> playground.strip[1].click()      # select the document at rank 2
    >>> playground.up.click()
    >>> playground.state.order, playground.state.metrics()["Hit@1"]
    (('a', 'b'), 1.0)
    """

    def __init__(self, state: RankState):
        try:
            import ipywidgets as w
        except ImportError as error:  # the metrics and RankState work without it
            raise ImportError("the rank playground's widget needs ipywidgets 8 "
                              "(pip install -r requirements.txt); RankState works without it") from error
        from .plotting import grade_color  # matplotlib only when a widget is built
        self.state = state
        self._colour = grade_color
        self._top_grade = max([1, *(g for _, g in state.grades)])
        longest = max(len(f"{doc} ({state.grade(doc)})") for doc in state.order)
        width = f"{max(64, 8 * longest + 24)}px"  # rank numbers and buttons share one width
        self.strip = [w.Button(layout=w.Layout(width=width, margin="0 2px")) for _ in state.order]
        for position, button in enumerate(self.strip):
            button.on_click(lambda _, position=position: self._select_rank(position))
        self.ranks = [w.HTML(layout=w.Layout(width=width, margin="0 2px")) for _ in state.order]
        self.cutoff = w.HTML(layout=w.Layout(width="52px", margin="0 2px"))
        self.cutoff_spacer = w.HTML(layout=w.Layout(width="52px", margin="0 2px"))
        self.up = w.Button(description="▲ up", tooltip="move the selected document one rank up")
        self.down = w.Button(description="▼ down", tooltip="move the selected document one rank down")
        self.reset = w.Button(description="reset", tooltip="back to the starting ranking")
        self.best = w.Button(description="sort by grade", tooltip="highest grade first")
        self.k = w.IntSlider(value=state.k, min=1, max=max(len(state.order), state.k), description="k")
        self.status = w.HTML()
        self.metrics = w.HTML()
        self.up.on_click(lambda _: self._apply(self.state.move_up()))
        self.down.on_click(lambda _: self._apply(self.state.move_down()))
        self.reset.on_click(lambda _: self._apply(self.state.reset()))
        self.best.on_click(lambda _: self._apply(self.state.best_order()))
        self.k.observe(lambda change: self._apply(self.state.with_k(change["new"])), names="value")
        self.rank_row, self.strip_row = w.HBox(), w.HBox()
        legend = w.HTML("<div style='font-size:0.9em;line-height:1.4'>Each button is a document: its id "
                        "and (grade), darker = higher grade. Click one to select it; the red bar is the "
                        "cut-off k.</div>")
        left = w.VBox([legend, self.rank_row, self.strip_row,
                       w.HBox([self.up, self.down, self.reset, self.best]), self.k, self.status])
        self.widget = w.HBox([left, self.metrics], layout=w.Layout(align_items="flex-start"))
        self.refresh()

    def _select_rank(self, position: int) -> None:
        self._apply(self.state.select(self.state.order[position]))

    def _apply(self, state: RankState) -> None:
        self.state = state
        self.refresh()

    def refresh(self) -> None:
        """Redraw every widget from ``self.state``."""
        from matplotlib.colors import to_hex

        state = self.state
        for rank, (button, label, doc) in enumerate(zip(self.strip, self.ranks, state.order), start=1):
            grade = state.grade(doc)
            fill = self._colour(max(grade, 0), self._top_grade)
            light = 0.299 * fill[0] + 0.587 * fill[1] + 0.114 * fill[2] > 0.55
            button.description = f"{doc} ({grade})"
            button.tooltip = f"rank {rank}: document {doc}, grade {grade}"
            button.style.button_color = to_hex(fill)
            button.style.text_color = "black" if light else "white"
            button.layout.border = "3px solid #222" if doc == state.selected else "3px solid transparent"
            label.value = f"<div style='text-align:center;color:#555'>{rank}</div>"
        cut = min(state.k, len(state.order))
        self.cutoff.value = ("<div style='border-left:3px dashed #c0392b;height:34px;color:#c0392b'>"
                             f"&nbsp;K={state.k}</div>")
        self.cutoff_spacer.value = ""
        self.rank_row.children = tuple(self.ranks[:cut]) + (self.cutoff_spacer,) + tuple(self.ranks[cut:])
        self.strip_row.children = tuple(self.strip[:cut]) + (self.cutoff,) + tuple(self.strip[cut:])
        self.up.disabled = state.rank == 1
        self.down.disabled = state.rank == len(state.order)
        if self.k.value != state.k:
            self.k.value = state.k
        self.status.value = (f"selected: <b>{html.escape(str(state.selected))}</b> "
                             f"(grade {state.grade(state.selected)}) at rank {state.rank}")
        self.metrics.value = state.metrics_html()

    def _repr_mimebundle_(self, **kwargs):
        """The widget's view, with a fixed text/plain (no model id, the same in every run)."""
        bundle = self.widget._repr_mimebundle_(**kwargs)
        bundle["text/plain"] = WIDGET_TEXT
        return bundle

    def __repr__(self) -> str:
        return f"RankPlayground(order={list(self.state.order)!r}, k={self.state.k})"


def rank_playground(grades: Mapping, ranking: Sequence, k: int = 5) -> RankPlayground:
    """Print the ranking and its six metrics as text, show the live playground, and return it.

    ``grades`` maps judged ids to integer grades, ``ranking`` lists the ids best first (at most
    20). The printed table is the starting state, the same in every run; read the arrangement
    you reach back from the returned object's ``.state.order``.

    >>> playground = rank_playground({"a": 1}, ["b", "a"], k=1)  # doctest: +ELLIPSIS
    ranking (K = 1), selected: b at rank 1
    ...
    NDCG@1       0.0000
    RankPlayground(order=['b', 'a'], k=1)
    """
    from IPython.display import display

    playground = RankPlayground(RankState.build(grades, ranking, k))
    print(playground.state.text())
    display(playground)
    return playground
