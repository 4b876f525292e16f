"""Negation cues (否定词) read on the raw text, for LexicalJudge and the answer-type rule.

A clause negates when it holds an odd number of cues (``NEGATION_CUES``): 没有哪位员工可以不参加
(two cues) says that everyone must. The cues are matched on the lower-cased raw text after removing
the listed exceptions (``NEGATION_EXCEPTIONS``: words that contain a cue character without
negating, such as 无论 "no matter", 不仅 "not only", 非常 "very", 未来 "future", 是否 "whether").
无法 ("cannot") and 不同 ("different") are kept as negations: they deny something the positive
sentence asserts. Both lists are package data (:mod:`~ragmetrics_lite.triad.judge_words`).
Notebook ``13_faithfulness`` shows :func:`negation_cues` on its claims.
"""
from __future__ import annotations

import re

from .judge_words import word_list

__all__ = ["NEGATION_CUES", "NEGATION_EXCEPTIONS", "negation_cues"]

NEGATION_CUES = word_list("negation_cues")
NEGATION_EXCEPTIONS = word_list("negation_exceptions")
_ZH_CUES = re.compile("|".join(cue for cue in NEGATION_CUES if not cue.isascii()))
_EN_CUES = re.compile(r"\b(?:" + "|".join(c for c in NEGATION_CUES if c.isalpha() and c.isascii())
                      + r")\b|n['’]t")


def negation_cues(text: str) -> list[str]:
    """The negation cues in ``text``, in order, after removing ``NEGATION_EXCEPTIONS``.

    Shown in ``13_faithfulness``; an odd number of cues negates (see
    :class:`~ragmetrics_lite.triad.lexical.LexicalJudge`).

    >>> negation_cues("无论如何，本产品不支持 30 天退款")
    ['不']
    >>> negation_cues("Refunds are not only fast; we don't charge.")
    ["n't"]
    """
    lowered = text.lower()
    for exception in NEGATION_EXCEPTIONS:
        lowered = lowered.replace(exception, " " * len(exception))
    found = [(m.start(), m.group()) for m in _ZH_CUES.finditer(lowered)]
    found += [(m.start(), m.group().replace("’", "'")) for m in _EN_CUES.finditer(lowered)]
    return [cue for _, cue in sorted(found)]
