r"""What a question asks for, and the cue words of the labelling guideline, for LexicalJudge.

Sharing the question's words shows that a text names the question's topic, not that it answers
it. The guideline (``data/triad/README.md``) asks more of a relevant text, and these rules say it
in words a learner can read and check:

* **expected answer type** (期望的答案类型): the question's interrogative says what kind of thing
  answers it (``QUESTION_TYPES``): how long / 多久 -> a duration; when / 什么时候 -> a time;
  how much / 多少钱 -> an amount; how many / 几 -> a number; can / 能不能 / 吗 -> a yes or no (a
  polarity or modal word); how do I / 怎么 -> a step or action; where / 哪里 -> a place; why / 为什么
  -> a reason. :func:`answer_type_found` looks for that kind of thing in the text
  (``ANSWER_EVIDENCE`` and the quantities of :mod:`~ragmetrics_lite.triad.quantities`).
* **evasion** (回避): "it depends", "抱歉，我无法回答", a thank-you with no content (``EVASION_CUES``).
* **echo** (复述问题): a statement that asks or reports the question instead of answering it
  ("many users ask whether ...", "关于 ... 能否 ... 的问题"): it holds a question form
  (``ECHO_CUES``).
* **history** (变更历史): a text about when or how often a rule changed (``HISTORY_CUES``).
* **superseded** (已失效): a text that marks what it says as no longer in force (``SUPERSEDED_CUES``)
  and does not also state what holds now (``CURRENT_CUES``), unless the question asks about the
  past (``PAST_QUESTION_CUES``).
* **not covered** (不涉及): a text that says its topic is not covered here (``NOT_COVERED_CUES``).

Every list holds general words a speaker of the language would give for that category, written
from the guideline, never a word chosen to fix a labelled item; its file in ``data/judge_words/``
opens with what it is for. Cues are matched on the raw,
lower-cased text (English at word boundaries). Notebooks ``12_context_relevancy`` and
``14_answer_relevancy`` show the rules at work.
"""
from __future__ import annotations

import re
from functools import lru_cache

from .judge_words import word_list, word_sections
from .negation import negation_cues
from .quantities import quantities_in

__all__ = ["QUESTION_TYPES", "ANSWER_EVIDENCE", "EVASION_CUES", "ECHO_CUES", "HISTORY_CUES", "SUPERSEDED_CUES",
           "CURRENT_CUES", "NOT_COVERED_CUES", "DESCRIPTION_FORMS", "PAST_QUESTION_CUES", "SUPERSEDED_PATTERNS",
           "CURRENT_PATTERNS", "expected_answer_types", "answer_type_found", "quantity_answer_found", "superseded",
           "cues_in", "strip_cues"]

QUESTION_TYPES: dict[str, tuple[str, ...]] = word_sections("question_types")
_EVIDENCE = word_sections("answer_evidence")
ANSWER_EVIDENCE: dict[str, tuple[str, ...]] = {kind: _EVIDENCE.get(kind, ()) for kind in QUESTION_TYPES}
EVASION_CUES = word_list("evasion_cues")
ECHO_CUES = word_list("echo_cues")
HISTORY_CUES = word_list("history_cues")
SUPERSEDED_CUES = word_list("superseded_cues")
_MONTHS = "january|february|march|april|may|june|july|august|september|october|november|december"
#: "until <a date or version>" also marks a rule as superseded ("until May 2026", "until v5.2").
SUPERSEDED_PATTERNS = (rf"\buntil\s+(?:the\s+)?(?:(?:app\s+)?version\b|v?\d|{_MONTHS})",)
PAST_QUESTION_CUES = word_list("past_question_cues")
CURRENT_CUES = word_list("current_cues")
#: "since <a date or version>", "自 ... 起" also state what holds now.
CURRENT_PATTERNS = (r"(?:自|从).{0,15}起",
                    rf"\b(?:since|from|starting)\s+(?:(?:app\s+)?version\s+\S|v\d|\d{{4}}|{_MONTHS})")
NOT_COVERED_CUES = word_list("not_covered_cues")
DESCRIPTION_FORMS = word_list("description_forms")


@lru_cache(maxsize=None)
def _pattern(cue: str) -> re.Pattern:
    """A cue as a compiled regular expression: English words at word boundaries, Chinese anywhere."""
    text = re.escape(cue.strip())
    if cue.isascii() and cue.strip()[:1].isalnum():
        text = r"\b" + text + (r"\b" if cue.strip()[-1:].isalnum() else "")
    return re.compile(text)


def cues_in(text: str, cues: tuple[str, ...]) -> list[str]:
    """The cues of a list found in ``text`` (lower-cased; English at word boundaries), in list order.

    >>> cues_in("Sorry, it depends on your region.", EVASION_CUES)
    ['it depends', 'depends on', 'sorry']
    >>> cues_in("The warranty is not covered by this page's scope", ("cover", "not covered"))
    ['not covered']
    """
    return list(_cues_in(text, cues))


@lru_cache(maxsize=8192)
def _cues_in(text: str, cues: tuple[str, ...]) -> tuple[str, ...]:
    """``cues_in``, cached: the judge's rules look for the same lists in the same sentences again."""
    lowered = text.lower()
    return tuple(cue for cue in cues if _pattern(cue).search(lowered))


def strip_cues(text: str, cues: tuple[str, ...]) -> str:
    """``text`` (lower-cased) with every cue of the list blanked out: the rest is what the text adds.

    >>> strip_cues("我不确定，可能需要 3 天", EVASION_CUES)
    '我   ，可能需要 3 天'
    """
    lowered = text.lower()
    for cue in sorted(cues, key=len, reverse=True):
        lowered = _pattern(cue).sub(lambda m: " " * len(m.group()), lowered)
    return lowered


def _parts(question: str) -> list[str]:
    """The parts of a question: pieces between ？ ? ， , ; and English "and <interrogative>"."""
    for form in DESCRIPTION_FORMS:
        question = question.replace(form, "什么")
    pieces = re.split(r"[？?，,；;。]|\band\s+(?=(?:how|what|when|where|why|who|which|can|is|do|does)\b)",
                      question.lower())
    return [p.strip() for p in pieces if p and p.strip()]


def expected_answer_types(question: str) -> list[str]:
    """The answer type each part of the question asks for (one per part that has an interrogative).

    >>> expected_answer_types("W2 手表充满电要多久？")
    ['duration']
    >>> expected_answer_types("How do I book a meeting room, and how long can I keep it?")
    ['step', 'duration']
    >>> expected_answer_types("What is the W2's screen size?")  # what / which / who: anything may answer
    ['open']
    >>> expected_answer_types("你们的退款政策是怎样的？")  # 怎样的 asks what it is like, not how to
    ['open']
    >>> expected_answer_types("My parcel arrived damaged.")
    []
    """
    return list(_answer_types(question))


@lru_cache(maxsize=8192)
def _answer_types(question: str) -> tuple[str, ...]:
    """``expected_answer_types``, cached: a judge asks about one question for every sentence it judges."""
    types = []
    for part in _parts(question):
        for kind, cues in QUESTION_TYPES.items():
            hits = cues_in(part, tuple(c for c in cues if c.strip()))
            if kind == "yes_no":  # an English auxiliary asks yes/no only when it opens the question
                hits = [c for c in hits if not c.isascii() or part.startswith(c.strip() + " ")]
            if hits:
                types.append(kind)
                break
    return tuple(dict.fromkeys(types))


#: The dimensions of quantity (``quantities.UNITS``) that answer each type; a number with no known
#: unit at all answers a number-like type too; a quantity of another dimension does not (time asked, price given).
_TYPE_DIMENSIONS = {"weight": {"mass"}, "distance": {"length"}, "clock": {"clock"},
                    "duration": {"time", "workday", "month"}, "time": {"time", "workday", "month", "date", "clock"},
                    "amount": {"money", "share"}}
_UNITLESS_ANSWERS = ("weight", "distance", "amount", "number")


def quantity_answer_found(kind: str, text: str, dates: bool = True) -> bool:
    """Does ``text`` hold a quantity of the kind asked for (duration, time, amount, number)?
    ``dates=False`` leaves out years and dates (2021, 2025 年 3 月): when a rule changed is not its value.

    >>> quantity_answer_found("duration", "约 240 分钟"), quantity_answer_found("time", "始于 2021 年", dates=False)
    (True, False)
    """
    skip = () if dates else ("date",)
    quantities = [q for q in quantities_in(text) if q.dimension not in skip]
    if kind in _TYPE_DIMENSIONS and any(q.dimension in _TYPE_DIMENSIONS[kind] for q in quantities):
        return True
    if kind == "number":
        return any(q.dimension not in ("date", "clock") for q in quantities)
    return kind in _UNITLESS_ANSWERS and any(not q.unit for q in quantities)


def answer_type_found(kind: str, text: str, dates: bool = True) -> bool:
    """Does ``text`` hold an answer of this type (a quantity of the right kind, or an evidence word)?

    >>> answer_type_found("duration", "大约一个半小时。"), answer_type_found("duration", "报销制度修订过。")
    (True, False)
    >>> answer_type_found("amount", "Cancelling before shipment costs nothing.")
    True
    """
    if quantity_answer_found(kind, text, dates):
        return True
    if kind == "open":
        return True  # what / which / who: any text may answer; overlap decides
    if kind == "yes_no" and negation_cues(text):
        return True  # "no" is an answer
    return bool(cues_in(text, ANSWER_EVIDENCE[kind]))


def superseded(text: str) -> list[str]:
    """The superseded cues of ``text`` when it does not also say what holds now ([] otherwise).

    >>> superseded("按已废止的 2023 年版制度，报销须在 30 天内提交。")
    ['已废止', '废止']
    >>> superseded("自 2025 年 1 月起，纸质发票不再受理。")
    []
    """
    lowered = text.lower()
    if cues_in(text, CURRENT_CUES) or any(re.search(p, lowered) for p in CURRENT_PATTERNS):
        return []
    return cues_in(text, SUPERSEDED_CUES) + [m.group() for p in SUPERSEDED_PATTERNS for m in re.finditer(p, lowered)]
