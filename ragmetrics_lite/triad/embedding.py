r"""EmbeddingJudge (向量评审器): an offline judge that compares meanings through sentence vectors.

Each text becomes a 512-number vector from the multilingual Universal Sentence Encoder v3 (Chinese,
English and 14 more languages), offline (:mod:`~ragmetrics_lite.triad.vectors` says how, and how
the vectors are cached). Texts that point the same way (cosine near 1) say similar things, in any
words, so "公司的退款政策" is near a refund rule and far from a chunk about the company's history.
The vectors do not read polarity ("无法取消" and "可以取消" are at cosine 0.94), so ``support``
adds the lexical judge's number and negation checks. Compared with the lexical and LLM judges in
notebooks 12-14.

The rules (each verdict's ``reason`` names the cosine and the threshold that decided):

* **context_relevance** / **answer_relevance**: the cosine between the question and each sentence
  of the text (each line cut by :func:`~ragmetrics_lite.triad.split_statements`); a sentence
  counts when it reaches ``relevance_threshold`` / ``address_threshold`` and breaks none of the
  guideline's cue rules applied by :meth:`LexicalJudge.rule_problems
  <ragmetrics_lite.triad.LexicalJudge.rule_problems>` (``rules``); a text counts when one of its
  sentences does.
* **support**: the statement's cosine with its closest context sentence reaches
  ``support_threshold``, and, with ``checks``, :class:`~ragmetrics_lite.triad.LexicalJudge` (its
  coverage threshold set to 0, so only its number and negation checks can fail) finds the
  statement's numbers and polarity in its ``CHECKED_SENTENCES`` closest context sentences.

Thresholds, rules and checks were tuned on the development items of ``data/triad`` only
(``scripts/tune_embedding_judge.py``; labels written by model sessions following a written
guideline) and frozen in ``data/triad/embedding_freeze.json`` with the default judge of each
metric (``DEFAULT_JUDGES``, which ``DefaultJudge`` follows): this judge for context and answer
relevance, where it agreed with those labels more often than the lexical judge, and the lexical
judge for faithfulness, where it did not. Scored once afterwards on the held-out items, the two
judges kept that order on all three (``data/triad/judge_scores.json``).
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .judges import Judge, Verdict
from .lexical import DEFAULT_RULES, RULES, LexicalJudge
from .statements import split_statements
from .vectors import embed

__all__ = ["EmbeddingJudge", "DefaultJudge", "DEFAULT_JUDGES", "Evidence", "CHECKED_SENTENCES"]

#: How many of a statement's closest context sentences the number and negation checks read.
CHECKED_SENTENCES = 3


def _sentences(text: str) -> list[str]:
    """Each line of ``text`` cut into sentences: what a vector stands for."""
    return [s for line in text.splitlines() for s in split_statements(line)]


class Evidence(NamedTuple):
    """What a verdict rests on: a cosine, the sentence it was reached with, the rules or checks broken."""

    cosine: float
    closest: str
    problems: list[str]


class EmbeddingJudge(Judge):
    """Judge by sentence-vector cosine, with the lexical judge's cue rules and checks (module docstring).

    ``support_threshold``, ``relevance_threshold``, ``address_threshold``: the cosine a statement,
    a context sentence or an answer statement must reach. ``rules``: the cue rules (names of
    ``LexicalJudge``'s ``RULES``) that relevance applies. ``checks``: whether ``support`` adds the
    number and negation checks. Notebooks 12-14.

    >>> judge = EmbeddingJudge()
    >>> [v.verdict for v in judge.context_relevance("公司的退款政策是怎样的？",
    ...     ["公司成立于 2008 年，最初是一家网上书店。", "退款政策：商品签收后 7 天内可以申请退款，商品需保持完好。"])]
    [False, True]
    >>> judge.support(["订单发货后可以取消。"], ["订单发货后无法取消。"])[0].reason.split("; ")[-1]
    'the closest context clause negates (无), the statement does not'
    """

    name = "embedding"

    def __init__(self, *, support_threshold: float = 0.17, relevance_threshold: float = 0.17,
                 address_threshold: float = 0.2, rules=DEFAULT_RULES, checks: bool = True):
        for label, value in (("support_threshold", support_threshold), ("relevance_threshold", relevance_threshold),
                             ("address_threshold", address_threshold)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not -1 <= value <= 1:
                raise ValueError(f"{label} must be a cosine in [-1, 1], got {value!r}")
        self.support_threshold = float(support_threshold)
        self.relevance_threshold = float(relevance_threshold)
        self.address_threshold = float(address_threshold)
        self.checks = bool(checks)
        self.lexical = LexicalJudge(support_threshold=0.0, rules=rules)   # coverage off: numbers and negation only
        self.rules = tuple(rule for rule in RULES if rule in self.lexical.rules)

    def __repr__(self) -> str:
        return (f"EmbeddingJudge(support_threshold={self.support_threshold}, relevance_threshold="
                f"{self.relevance_threshold}, address_threshold={self.address_threshold}, "
                f"rules={list(self.rules)}, checks={self.checks})")

    def support_evidence(self, statement: str, contexts: list[str]) -> Evidence:
        """The closest context sentence (each line of each chunk split into sentences), its cosine,
        and what the number and negation checks find wrong in the ``CHECKED_SENTENCES`` closest."""
        units = [s for chunk in contexts for s in _sentences(chunk)]
        if not units:
            return Evidence(-1.0, "", ["no context sentence"])
        cosines = embed(units) @ embed([statement])[0]
        order = np.argsort(-cosines, kind="stable")
        problems = []
        if self.checks:
            checked = self.lexical.support([statement], [units[i] for i in order[:CHECKED_SENTENCES]])[0]
            if not checked.verdict and checked.reason != "no content words to check":
                problems.append(f"lexical checks: {checked.reason}")
        return Evidence(float(cosines[order[0]]), units[order[0]], problems)

    def relevance_evidence(self, question: str, text: str, task: str) -> list[Evidence]:
        """For each sentence of ``text``: its cosine with the question and the cue rules it breaks
        (``task``: "context" or "answer", as in ``LexicalJudge.rule_problems``)."""
        sentences = _sentences(text) or [text]
        cosines = embed(sentences) @ embed([question])[0]
        return [Evidence(float(cosine), sentence, self.lexical.rule_problems(question, sentence, task))
                for cosine, sentence in zip(cosines, sentences)]

    @staticmethod
    def _verdict(found: list[Evidence], threshold: float, where: str, shown: bool) -> Verdict:
        passing = [e for e in found if e.cosine >= threshold and not e.problems]
        cosine, closest, problems = max(passing or found, key=lambda e: e.cosine)
        reason = f"cosine {cosine:.2f} {'>=' if cosine >= threshold else '<'} {threshold:g} with the {where}"
        reason += f" (sentence: {closest})" if shown else ""
        return Verdict(bool(passing), "; ".join([reason, *problems]))

    def support(self, statements: list[str], contexts: list[str]) -> list[Verdict]:
        """One verdict per statement: close to a context sentence, numbers and negation agreeing."""
        return [self._verdict([self.support_evidence(s, contexts)], self.support_threshold,
                              "closest context sentence", False) for s in statements]

    def context_relevance(self, question: str, texts: list[str]) -> list[Verdict]:
        """One verdict per text: a sentence close to the question that breaks no cue rule."""
        found = [self.relevance_evidence(question, text, "context") for text in texts]
        return [self._verdict(f, self.relevance_threshold, "question", len(f) > 1) for f in found]

    def answer_relevance(self, question: str, statements: list[str]) -> list[Verdict]:
        """One verdict per statement: close to the question, no evasion, echo or history only."""
        found = [self.relevance_evidence(question, statement, "answer") for statement in statements]
        return [self._verdict(f, self.address_threshold, "question", len(f) > 1) for f in found]


#: The judge each metric uses when none is given (module docstring: chosen on development agreement).
DEFAULT_JUDGES = {"support": "lexical", "context_relevance": "embedding", "answer_relevance": "embedding"}


class DefaultJudge(Judge):
    """The default judges as one (every metric's ``judge=None``): each question to the judge ``DEFAULT_JUDGES`` names.

    >>> DefaultJudge().answer_relevance("怎么申请退款？", ["在订单页点击申请退款。"])[0].reason
    'cosine 0.67 >= 0.2 with the question'
    """

    name = "default"

    def __init__(self):
        self.judges = {"lexical": LexicalJudge(), "embedding": EmbeddingJudge()}

    def _judge(self, method: str) -> Judge:
        return self.judges[DEFAULT_JUDGES[method]]

    def support(self, statements, contexts):
        return self._judge("support").support(statements, contexts)

    def context_relevance(self, question, texts):
        return self._judge("context_relevance").context_relevance(question, texts)

    def answer_relevance(self, question, statements):
        return self._judge("answer_relevance").answer_relevance(question, statements)
