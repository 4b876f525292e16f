"""The judge interface (评审器): what every judge of the RAG triad must answer.

A judge turns pairs of texts into yes/no verdicts with a reason; the metrics in
``ragmetrics_lite.triad.metrics`` only count verdicts. ragas, DeepEval and TruLens put an
LLM behind the same three questions (compared in ``13_faithfulness.ipynb``); the judges that
ship are listed in :mod:`ragmetrics_lite.triad`. Write your own by subclassing :class:`Judge`;
:class:`ScriptedJudge` replays given verdicts, to check a metric on any verdict pattern without a judge.
"""
from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import NamedTuple

import numpy as np

__all__ = ["Verdict", "Judge", "ScriptedJudge"]


class Verdict(NamedTuple):
    """One judged item: ``verdict`` True means supported / relevant / addresses the question.

    A row of every ``*_verdicts`` table in notebooks 12-14.

    >>> Verdict(True, "3/3 content words in the context")
    Verdict(verdict=True, reason='3/3 content words in the context')
    """

    verdict: bool
    reason: str


class Judge:
    """The interface: each method returns one :class:`Verdict` per input, in order (``[]`` for ``[]``).

    Every metric of notebooks 12-14 asks one. A subclass implements all three methods:

    >>> class SaysYes(Judge):
    ...     name = "says-yes"
    ...     def support(self, statements, contexts):
    ...         return [Verdict(True, "always yes") for _ in statements]
    ...     def context_relevance(self, question, texts):
    ...         return [Verdict(True, "always yes") for _ in texts]
    ...     def answer_relevance(self, question, statements):
    ...         return [Verdict(True, "always yes") for _ in statements]
    >>> SaysYes().support(["a.", "b."], ["ctx"])[1]
    Verdict(verdict=True, reason='always yes')
    """

    name: str = "judge"

    def support(self, statements: list[str], contexts: list[str]) -> list[Verdict]:
        """Is each statement supported by the contexts (all chunks taken together)?"""
        raise NotImplementedError(f"{type(self).__name__} does not implement support()")

    def context_relevance(self, question: str, texts: list[str]) -> list[Verdict]:
        """Is each text (a context sentence, or a whole chunk) relevant to the question?"""
        raise NotImplementedError(f"{type(self).__name__} does not implement context_relevance()")

    def answer_relevance(self, question: str, statements: list[str]) -> list[Verdict]:
        """Does each answer statement address the question?"""
        raise NotImplementedError(f"{type(self).__name__} does not implement answer_relevance()")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"


class ScriptedJudge(Judge):
    """A stand-in judge (a simulation, not a judgement): every question gets the given verdicts.

    Checks a metric on any verdict pattern: the verdicts are returned, in order, whichever of the
    three questions is asked (the metric must ask about as many texts as there are verdicts).
    Notebook ``12_context_relevancy`` checks context precision against AP with it; exercise q13
    replays DeepEval-style verdicts through it.

    A verdict is ``True`` or ``False``; ``1``/``0`` (a label column) and DeepEval's words ``"yes"``/``"no"``
    mean the same. Anything else is refused, so that nothing is counted as yes by accident (``bool("no")``
    is True): DeepEval's ``"idk"`` (the context does not say) among them, because DeepEval itself counts
    it as yes, or as no with ``penalize_ambiguous_claims=True``: map it to the one you mean.

    >>> import ragmetrics_lite as rml
    >>> rml.triad.context_precision("q", ["c1", "c2", "c3"], judge=ScriptedJudge([False, True, True]))
    0.5833333333333333
    """

    name = "scripted"

    def __init__(self, verdicts, reason: str = "scripted"):
        if isinstance(verdicts, (str, bytes)) or not isinstance(verdicts, Iterable):
            raise TypeError(f"ScriptedJudge: verdicts must be a list of True/False, got {type(verdicts).__name__}")
        self.verdicts = [_verdict(v, i) for i, v in enumerate(verdicts)]
        self.reason = reason

    def _replay(self, asked: list) -> list[Verdict]:
        if len(asked) != len(self.verdicts):
            raise ValueError(f"ScriptedJudge holds {len(self.verdicts)} verdicts "
                             f"but was asked about {len(asked)} texts")
        return [Verdict(v, self.reason) for v in self.verdicts]

    def support(self, statements, contexts):
        return self._replay(statements)

    def context_relevance(self, question, texts):
        return self._replay(texts)

    def answer_relevance(self, question, statements):
        return self._replay(statements)


def _verdict(value: object, position: int) -> bool:
    """True or False; 1/0 and "yes"/"no" (any case, spaces around) as the same; anything else a ValueError."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, numbers.Integral) and value in (0, 1):
        return value == 1
    word = value.strip().lower() if isinstance(value, str) else None
    if word in ("yes", "no"):
        return word == "yes"
    if word == "idk":
        raise ValueError(f"ScriptedJudge: verdicts[{position}] is {value!r}, DeepEval's \"the context does not "
                         "say\"; verdicts here are yes or no: map it to True or False (DeepEval counts it as yes, "
                         "or as no with penalize_ambiguous_claims=True)")
    raise ValueError(f"ScriptedJudge: verdicts[{position}] is {value!r}; a verdict is True or False "
                     "(or 1/0, \"yes\"/\"no\")")
