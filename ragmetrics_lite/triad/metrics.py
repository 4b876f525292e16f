r"""The RAG triad (RAG 三元组) and context precision, as shares of a judge's verdicts.

Each metric splits its text into items, asks a :class:`~ragmetrics_lite.triad.judges.Judge` for one
yes/no verdict per item (``judge=None``: the lexical judge for faithfulness, the embedding judge for
context and answer relevance, ``triad.embedding.DEFAULT_JUDGES``), and counts. The ``*_verdicts``
twin returns the verdicts as a table; the score is computed from that table.

Each function's docstring gives its formula and the reference definition it follows (ragas' paper
is arXiv:2309.15217); its metric card (``data/cards/triad.toml``) says what it compares.

Where we differ on purpose:

* **Nothing to judge** (blank answer, no contexts, no sentences, blank question) gives NaN with a
  :class:`~ragmetrics_lite.RagMetricsWarning` saying what was empty. ragas also gives NaN when no
  statements are extracted; DeepEval gives 1 (no claims, nothing unfaithful).
* Verdicts are yes/no: DeepEval's ``idk`` (counted as yes) does not exist here.
* Statements come from :func:`~ragmetrics_lite.triad.split_statements`, not from an LLM.
* ``context_precision``'s verdict is relevance to the question, not usefulness for a reference answer.

Derived in ``12_context_relevancy.ipynb`` (context relevancy, context precision),
``13_faithfulness.ipynb`` and ``14_answer_relevancy.ipynb``.
"""
from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Sequence

import pandas as pd

from .._validation import RagMetricsWarning
from ..retrieval import average_precision
from .judges import Judge, Verdict
from .embedding import DefaultJudge
from .statements import split_statements

__all__ = ["faithfulness", "faithfulness_verdicts", "context_relevancy", "context_relevancy_verdicts",
           "answer_relevancy", "answer_relevancy_verdicts", "context_precision", "context_precision_verdicts"]


# ------------------------------------------------------------------ shared checks
def _check_text(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__} {value!r}")
    return value


def _check_contexts(contexts: object, name: str = "contexts") -> list[str]:
    """A list of context strings, or a TypeError naming the argument or the bad position."""
    if contexts is None or isinstance(contexts, (str, bytes)):
        shown = "None" if contexts is None else f"the string {contexts[:40]!r}"
        raise TypeError(f"{name} must be a list of strings (one per retrieved chunk), got {shown}; "
                        "wrap a single chunk in a list: [chunk]")
    if not isinstance(contexts, Sequence):
        raise TypeError(f"{name} must be a list of strings, got {type(contexts).__name__}")
    for position, chunk in enumerate(contexts):
        if not isinstance(chunk, str):
            raise TypeError(f"{name}[{position}] must be a str, got {type(chunk).__name__} {chunk!r}")
    return list(contexts)


def judge_or_default(judge: Judge | None) -> Judge:
    """``judge``, or ``DefaultJudge()`` for None; refuses an object without the three judge methods."""
    if judge is None:
        return DefaultJudge()
    if not all(callable(getattr(judge, m, None)) for m in ("support", "context_relevance", "answer_relevance")):
        raise TypeError(f"judge must be a Judge (support, context_relevance, answer_relevance), got {judge!r}")
    return judge


def ask_judge(judge: Judge, method: str, first, second, n_items: int) -> list[Verdict]:
    """Call ``judge.method(first, second)`` and check one (bool, str) verdict per judged item."""
    if not n_items:
        return []
    returned = getattr(judge, method)(first, second)
    name = getattr(judge, "name", type(judge).__name__)
    if isinstance(returned, (str, bytes)) or not isinstance(returned, Iterable):
        raise TypeError(f"judge {name!r} ({type(judge).__name__}) returned {type(returned).__name__} from "
                        f"{method}(); it must return a list of Verdict(bool, str), one per item")
    verdicts = list(returned)
    if len(verdicts) != n_items:
        raise ValueError(f"judge {name!r} returned {len(verdicts)} verdicts from {method}() "
                         f"for {n_items} items; it must return one per item")
    checked = []
    for i, v in enumerate(verdicts):
        if not (isinstance(v, tuple) and len(v) == 2 and v[0] in (True, False) and isinstance(v[1], str)):
            raise TypeError(f"judge {name!r}: verdict {i} from {method}() must be Verdict(bool, str), got {v!r}")
        checked.append(Verdict(bool(v[0]), v[1]))
    return checked


def _nothing_to_judge(what: str, columns: list[str]) -> pd.DataFrame:
    warnings.warn(f"nothing to judge: {what}; the score is NaN", RagMetricsWarning, stacklevel=3)
    return pd.DataFrame({c: pd.Series(dtype=bool if c == "verdict" else object) for c in columns})


def _frame(columns: dict, verdicts: list[Verdict]) -> pd.DataFrame:
    frame = pd.DataFrame(columns)
    frame["verdict"] = pd.Series([v.verdict for v in verdicts], dtype=bool)
    frame["reason"] = [v.reason for v in verdicts]
    return frame


def _share(frame: pd.DataFrame) -> float:
    return float(frame["verdict"].mean()) if len(frame) else math.nan


# ------------------------------------------------------------------ faithfulness
def faithfulness_verdicts(answer: str, contexts: list[str], judge: Judge | None = None) -> pd.DataFrame:
    """One row per answer statement: ``statement``, ``verdict`` (supported?), ``reason``.

    >>> faithfulness_verdicts("支持 7 天退款。支持 30 天退款。", ["产品支持 7 天退款。"])[["statement", "verdict"]]
       statement  verdict
    0  支持 7 天退款。     True
    1  支持 30 天退款。   False
    """
    _check_text(answer, "answer")
    contexts = _check_contexts(contexts)
    statements = split_statements(answer)
    columns = ["statement", "verdict", "reason"]
    if not statements:
        return _nothing_to_judge("the answer has no statements (empty or blank)", columns)
    if not any(chunk.strip() for chunk in contexts):
        return _nothing_to_judge("contexts is empty or blank", columns)
    verdicts = ask_judge(judge_or_default(judge), "support", statements, contexts, len(statements))
    return _frame({"statement": statements}, verdicts)


def faithfulness(answer: str, contexts: list[str], judge: Judge | None = None) -> float:
    r"""Faithfulness (忠实度) = supported statements / answer statements.

    .. math:: F = \frac{|\{s \in S : \text{judge says the contexts support } s\}|}{|S|}

    ragas ``Faithfulness`` (0.4.3, paper §3). Notebook ``13_faithfulness``.

    >>> faithfulness("产品支持 7 天退款。支持 30 天无理由退款。", ["产品支持 7 天退款。"])
    0.5
    """
    return _share(faithfulness_verdicts(answer, contexts, judge))


# ------------------------------------------------------------------ context relevancy
def context_relevancy_verdicts(question: str, contexts: list[str], judge: Judge | None = None) -> pd.DataFrame:
    """One row per context sentence: ``chunk`` (1-based rank), ``statement``, ``verdict``, ``reason``.

    >>> chunks = ["退款政策：7 天内可退款。公司成立于 1998 年。"]
    >>> context_relevancy_verdicts("退款政策是什么？", chunks)[["chunk", "verdict"]]
       chunk  verdict
    0      1     True
    1      1    False
    """
    _check_text(question, "question")
    contexts = _check_contexts(contexts)
    columns = ["chunk", "statement", "verdict", "reason"]
    if not question.strip():
        return _nothing_to_judge("the question is empty or blank", columns)
    rows = [(rank, s) for rank, chunk in enumerate(contexts, start=1) for s in split_statements(chunk)]
    if not rows:
        return _nothing_to_judge("the contexts hold no sentences", columns)
    sentences = [s for _, s in rows]
    verdicts = ask_judge(judge_or_default(judge), "context_relevance", question, sentences, len(sentences))
    return _frame({"chunk": [r for r, _ in rows], "statement": sentences}, verdicts)


def context_relevancy(question: str, contexts: list[str], judge: Judge | None = None) -> float:
    r"""Context relevancy (上下文相关性) = relevant context sentences / context sentences.

    .. math:: CR = \frac{|\{\text{sentences of } c(q) \text{ relevant to } q\}|}{|\text{sentences of } c(q)|}

    ragas' original ``context_relevancy`` (paper §3; removed in ragas 0.1.11); DeepEval's
    ``ContextualRelevancyMetric`` is the same ratio over LLM-extracted statements. Notebook
    ``12_context_relevancy``.

    >>> context_relevancy("退款政策是什么？", ["退款政策：7 天内可退款。", "公司成立于 1998 年。"])
    0.5
    """
    return _share(context_relevancy_verdicts(question, contexts, judge))


# ------------------------------------------------------------------ answer relevancy
def answer_relevancy_verdicts(question: str, answer: str, judge: Judge | None = None) -> pd.DataFrame:
    """One row per answer statement: ``statement``, ``verdict`` (addresses the question?), ``reason``.

    >>> answer_relevancy_verdicts("怎么申请退款？", "在订单页申请退款。公司成立于 1998 年。")["verdict"].tolist()
    [True, False]
    """
    _check_text(question, "question")
    _check_text(answer, "answer")
    columns = ["statement", "verdict", "reason"]
    if not question.strip():
        return _nothing_to_judge("the question is empty or blank", columns)
    statements = split_statements(answer)
    if not statements:
        return _nothing_to_judge("the answer has no statements (empty or blank)", columns)
    verdicts = ask_judge(judge_or_default(judge), "answer_relevance", question, statements, len(statements))
    return _frame({"statement": statements}, verdicts)


def answer_relevancy(question: str, answer: str, judge: Judge | None = None) -> float:
    r"""Answer relevancy (答案相关性) = answer statements that address the question / statements.

    .. math:: AR = \frac{|\{s \in S : s \text{ addresses } q\}|}{|S|}

    DeepEval ``AnswerRelevancyMetric`` (4.1.10) without its ``idk`` verdict; ragas instead
    generates questions back from the answer and averages their cosine similarity to ``q``
    (shown in notebook ``14_answer_relevancy``).

    >>> answer_relevancy("怎么申请退款？", "在订单页申请退款。公司成立于 1998 年。")
    0.5
    """
    return _share(answer_relevancy_verdicts(question, answer, judge))


# ------------------------------------------------------------------ context precision
def context_precision_verdicts(question: str, contexts: list[str], judge: Judge | None = None) -> pd.DataFrame:
    """One row per chunk, in rank order: ``chunk`` (rank), ``statement`` (the chunk), ``verdict``, ``reason``.

    >>> chunks = ["公司成立于 1998 年。", "退款政策：7 天内可退款。"]
    >>> context_precision_verdicts("退款政策是什么？", chunks)["verdict"].tolist()
    [False, True]
    """
    _check_text(question, "question")
    contexts = _check_contexts(contexts)
    columns = ["chunk", "statement", "verdict", "reason"]
    if not question.strip():
        return _nothing_to_judge("the question is empty or blank", columns)
    if not contexts:
        return _nothing_to_judge("contexts is empty (no chunks retrieved)", columns)
    verdicts = ask_judge(judge_or_default(judge), "context_relevance", question, contexts, len(contexts))
    return _frame({"chunk": range(1, len(contexts) + 1), "statement": contexts}, verdicts)


def context_precision(question: str, contexts: list[str], judge: Judge | None = None) -> float:
    r"""Context precision (上下文精确率) = average precision over the ranked chunks' verdicts.

    .. math:: CP = \frac{\sum_{k} \mathrm{P@}k \cdot v_k}{\sum_k v_k}, \quad v_k \in \{0, 1\}

    computed with :func:`ragmetrics_lite.average_precision` (notebook 05), the relevant chunks
    being those judged relevant; none relevant gives 0.0, as ragas' :math:`+10^{-10}` in the
    denominator does. ragas ``ContextPrecision`` (0.4.3) and DeepEval ``ContextualPrecisionMetric``
    judge whether a chunk was *useful for the reference answer*; here the verdict is relevance to
    the *question*, so no reference answer is needed. Notebook ``12_context_relevancy``.

    >>> round(context_precision("退款政策是什么？", ["公司成立于 1998 年。", "退款政策：7 天内可退款。"]), 4)
    0.5
    """
    frame = context_precision_verdicts(question, contexts, judge)
    if not len(frame):
        return math.nan
    relevant = set(frame.loc[frame["verdict"], "chunk"].tolist())
    return average_precision(relevant, frame["chunk"].tolist())
