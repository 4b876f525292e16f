r"""LexicalJudge (词汇评审器): an offline, deterministic judge built on word overlap.

A teaching baseline, not a replacement for an LLM judge: it answers the three questions of
:class:`~ragmetrics_lite.triad.judges.Judge` by counting shared content words, so it misses
paraphrase and antonyms ("refunds are allowed" vs "refunds are refused"). Notebook
``13_faithfulness.ipynb`` measures its agreement with the triad labels and shows the items it gets
wrong; it is faithfulness's default judge, and 12 and 14 set it beside the embedding judge. No reference
library has a lexical judge; ragas' ``NonLLMContextPrecisionWithReference`` (string similarity
>= 0.5) is the nearest relative.

The rules (each broken rule adds a line to the verdict's ``reason``, named after the rule):

* **Content words** are :func:`~ragmetrics_lite.tokenize` tokens, lower-cased, minus the shipped
  stop words (``ragmetrics_lite/data/stopwords.txt``, function words only), quantities and units,
  negation cues and single Latin letters. A Chinese word is found when it occurs in the other
  text's raw characters; an English word when its crude stem matches a token's (-ing/-ed/-es/-s
  dropped, then at most 5 letters).
* **support** (faithfulness): at least ``support_threshold`` of the statement's content words occur
  in the contexts (statement coverage: a partial or drifted statement adds words the context
  lacks); every quantity in the statement (read on the raw text, :mod:`~ragmetrics_lite.triad.quantities`)
  occurs in a context sentence that shares most of its words, with the same value and unit or,
  with rule ``units`` (off by default, see ``DEFAULT_RULES``), the same amount once units are
  converted (48 小时 = 两天, 5,200 mAh = 5.2 Ah, 9 折 = 90%); and each clause of the statement agrees
  in negation with a closest context clause.
* **context_relevance** / **answer_relevance**: the topic first: word overlap measured both ways,
  the F1 (harmonic mean) of the share of the question's content words found in the text and the
  share of the text's content words found in the question, must be above 0 and reach
  ``relevance_threshold`` / ``address_threshold`` (a text below it still counts if it gives the
  quantity the question asks for: "大约一个半小时" answers "多久"). Then the guideline's rules,
  each defined in :mod:`~ragmetrics_lite.triad.answer_types`: ``answer_type``, ``echo`` and
  ``not_covered``; for answers ``evasion`` and ``history``; for context ``superseded``. A text of
  several sentences (a whole chunk, for context precision) is relevant when one sentence is.

Negation cues and their exceptions are read on the raw text (:mod:`~ragmetrics_lite.triad.negation`);
the word and cue lists are package data (:mod:`~ragmetrics_lite.triad.judge_words`).
"""
from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from ..text.tokenization import CJK_IDEOGRAPH, tokenize
from . import answer_types, quantities
from .answer_types import (CURRENT_CUES, ECHO_CUES, EVASION_CUES, HISTORY_CUES, NOT_COVERED_CUES,
                           PAST_QUESTION_CUES, answer_type_found, quantity_answer_found, cues_in,
                           expected_answer_types, strip_cues, superseded)
from .judge_words import default_stopwords, stopwords_sha256, word_sections  # noqa: F401
from .judges import Judge, Verdict
from .negation import NEGATION_CUES, NEGATION_EXCEPTIONS, negation_cues
from .quantities import MEASURE_WORDS, NUMBER_EXCEPTIONS, Quantity, is_quantity, numbers_in, quantities_in  # noqa: F401
from .statements import split_statements

# Its own names; what it imports from negation, quantities and judge_words stays importable here too.
__all__ = ["LexicalJudge", "RULES", "DEFAULT_RULES", "word_lists", "word_lists_sha256"]

#: The rules beyond word overlap, each a name for ``LexicalJudge(rules=...)`` and in verdict reasons.
RULES = ("units", "answer_type", "evasion", "echo", "history", "superseded", "not_covered")
#: The rules on by default. ``units`` (converting units before comparing values) is off: it raises
#: the fit on all development items but lowers the cross-validated estimates recorded in
#: ``data/triad/judge_freeze.json``, so by the tuning protocol (``scripts/tune_lexical_judge.py``)
#: it stays an option.
DEFAULT_RULES = ("answer_type", "evasion", "echo", "history", "superseded", "not_covered")
_CLAUSE_END = re.compile(r"[，,：:；;。！？!?]|\.(?=\s|$)")


def _sentences(text: str) -> list[str]:
    """split_statements, re-joining a piece that starts in lower case to a piece ending in ".":
    "before 4 p.m. on a working day" is one sentence for the number check."""
    merged: list[str] = []
    for piece in split_statements(text):
        if merged and merged[-1].endswith(".") and piece[0].islower() and piece[0].isascii():
            merged[-1] += " " + piece
        else:
            merged.append(piece)
    return merged


def _clauses(text: str) -> list[str]:
    """Pieces between commas, colons, semicolons and sentence ends: the scope of a negation."""
    return [c.strip() for c in _CLAUSE_END.split(text) if any(char.isalnum() for char in c)]


def word_lists() -> dict:
    """Every word list and pattern the judge's rules read, by name (JSON types): what the freeze
    record fingerprints (``data/triad/judge_freeze.json``). Notebook ``13_faithfulness``.

    >>> lists = word_lists()
    >>> lists["DEFAULT_RULES"][:2], "it depends" in lists["EVASION_CUES"]
    (['answer_type', 'evasion'], True)
    """
    lists = {"DEFAULT_RULES": DEFAULT_RULES, "NEGATION_CUES": NEGATION_CUES,
             "NEGATION_EXCEPTIONS": NEGATION_EXCEPTIONS, "MEASURE_WORDS": MEASURE_WORDS,
             "NUMBER_EXCEPTIONS": NUMBER_EXCEPTIONS,
             "UNITS": {word: [dimension, str(factor)] for word, (dimension, factor) in quantities.UNITS.items()}}
    lists.update({name: getattr(answer_types, name) for name in (
        "QUESTION_TYPES", "ANSWER_EVIDENCE", "DESCRIPTION_FORMS", "EVASION_CUES", "ECHO_CUES", "HISTORY_CUES",
        "SUPERSEDED_CUES", "SUPERSEDED_PATTERNS", "CURRENT_CUES", "CURRENT_PATTERNS", "PAST_QUESTION_CUES",
        "NOT_COVERED_CUES")})
    return json.loads(json.dumps(lists, ensure_ascii=False))


def word_lists_sha256() -> str:
    """SHA-256 of :func:`word_lists` as canonical JSON (sorted keys), recorded at the freeze.

    >>> len(word_lists_sha256())
    64
    """
    canonical = json.dumps(word_lists(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def _stem(word: str) -> str:
    """A crude English stem: drop one of -ing, -ed, -es, -s and a doubled last consonant
    (shipped -> ship), keep at most 5 letters; other words are unchanged. Truncating to a few
    letters is an old information-retrieval stemmer: refund/refunds/refunded then match."""
    if word.isascii() and word.isalpha():
        for suffix in ("ing", "ed", "es", "s"):
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                word = word[: -len(suffix)]
                if suffix in ("ing", "ed") and word[-1] == word[-2] and word[-1] not in "aeiouls":
                    word = word[:-1]
                break
        return word[:5]
    return word


class _Text(NamedTuple):
    """A text prepared for lookups: lower-cased raw text, token stems, quantities."""

    raw: str
    stems: frozenset[str]
    quantities: tuple[Quantity, ...]


@lru_cache(maxsize=8192)
def _tokens(text: str) -> tuple[str, ...]:
    """Lower-cased tokens, cached: a judge asks about the same texts many times."""
    return tuple(token.lower() for token in tokenize(text))


#: negation_cues, cached: a statement's clause is checked against every context clause tied closest to it
_cues = lru_cache(maxsize=8192)(negation_cues)


@lru_cache(maxsize=8192)
def _content_words(text: str, stopwords: frozenset[str]) -> tuple[str, ...]:
    """``LexicalJudge.content_words``, cached as ``_tokens`` is."""
    return tuple(dict.fromkeys(
        w for w in _tokens(text)
        if w not in stopwords and not is_quantity(w) and negation_cues(w) != [w]
        and not (w.isascii() and len(w) == 1)
    ))


@lru_cache(maxsize=8192)
def _prepare(text: str) -> _Text:
    return _Text(text.lower(), frozenset(map(_stem, _tokens(text))), tuple(quantities_in(text)))


def _found_in(word: str, text: _Text) -> bool:
    """Chinese: the word occurs in the raw text. English: a token has the same stem."""
    if CJK_IDEOGRAPH.search(word):
        return word in text.raw
    return _stem(word) in text.stems


def _same_unit(a: str, b: str) -> bool:
    return a == b or not a or not b or _stem(a.lower()) == _stem(b.lower())


def _quantity_found(quantity: Quantity, text: _Text, convert: bool = True) -> bool:
    """Same value and the same unit (unless one side has none: 30 天 vs 30 分钟 differ), or, with
    ``convert``, the same amount once both units are converted (48 小时 = 两天, 9 折 = 90%)."""
    if any(q.value == quantity.value and _same_unit(q.unit, quantity.unit) for q in text.quantities):
        return True
    return convert and quantity.base is not None and any(
        q.dimension == quantity.dimension and q.base is not None and q.base == quantity.base for q in text.quantities)


_TYPE_NAMES = {kind: phrases[0] for kind, phrases in word_sections("answer_type_names").items()}


class LexicalJudge(Judge):
    """Judge by shared content words, quantities, negation and the guideline's cue rules (module docstring).

    ``support_threshold``: share of the statement's content words that must occur in the
    contexts. ``relevance_threshold``: the overlap F1 a context sentence or chunk must reach.
    ``address_threshold``: the same for an answer statement. ``stopwords``: an iterable of words to ignore (default: the
    shipped list). ``rules``: the names in ``RULES`` to apply (default ``DEFAULT_RULES``, all but
    ``units``), so a learner can switch one on or off and see what it does. The defaults were chosen
    by cross-validation on the ``dev`` items of ``data/triad`` only (``scripts/tune_lexical_judge.py``)
    and frozen with their figures in ``data/triad/judge_freeze.json``. Notebook ``13_faithfulness``.

    >>> judge = LexicalJudge()
    >>> judge.support(["产品支持 30 天无理由退款。"], ["产品支持 7 天退款。"])[0].verdict
    False
    >>> judge.answer_relevance("怎么申请退款？", ["在订单页点击申请退款。"])[0].verdict
    True
    >>> judge.answer_relevance("W2 充满电要多久？", ["W2 的充电方式很方便。"])[0].reason.split("; ")[-1]
    'answer type: asks for a duration, none found'
    """

    name = "lexical"

    def __init__(self, *, support_threshold: float = 0.95, relevance_threshold: float = 0.05,
                 address_threshold: float = 0.15, stopwords: Iterable[str] | None = None,
                 rules: Iterable[str] | None = None):
        for label, value in (("support_threshold", support_threshold),
                             ("relevance_threshold", relevance_threshold),
                             ("address_threshold", address_threshold)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
                raise ValueError(f"{label} must be a number in [0, 1], got {value!r}")
        if isinstance(stopwords, str):
            raise TypeError("stopwords must be a collection of words, not a single string")
        if isinstance(rules, str):
            raise TypeError("rules must be a collection of rule names, not a single string")
        rules = DEFAULT_RULES if rules is None else tuple(rules)
        unknown = [r for r in rules if r not in RULES]
        if unknown:
            raise ValueError(f"unknown rule(s) {unknown}; the rules are {RULES}")
        self.support_threshold = float(support_threshold)
        self.relevance_threshold = float(relevance_threshold)
        self.address_threshold = float(address_threshold)
        self.stopwords = default_stopwords() if stopwords is None else frozenset(w.lower() for w in stopwords)
        self.rules = frozenset(rules)

    def __repr__(self) -> str:
        changed = self.rules != frozenset(DEFAULT_RULES)
        return (f"LexicalJudge(support_threshold={self.support_threshold}, "
                f"relevance_threshold={self.relevance_threshold}, "
                f"address_threshold={self.address_threshold}"
                + (f", rules={[r for r in RULES if r in self.rules]}" if changed else "") + ")")

    def content_words(self, text: str) -> list[str]:
        """Lower-cased tokens minus stop words, quantities and negation cues, first occurrence kept.

        >>> LexicalJudge().content_words("产品不支持 30 天无理由退款，三年保修")  # jieba cuts 天无 / 理由
        ['产品', '支持', '天无', '理由', '退款', '保修']
        """
        return list(_content_words(text, self.stopwords))

    # ------------------------------------------------------------------ faithfulness
    def support(self, statements: list[str], contexts: list[str]) -> list[Verdict]:
        """One verdict per statement: its words covered, quantities and negation agree."""
        whole = _prepare("\n".join(contexts))
        # each distinct sentence and clause once, in order: a repeated one scores and checks the same
        sentences = [(t, _prepare(t)) for t in dict.fromkeys(t for chunk in contexts for t in _sentences(chunk))]
        clauses = [(t, _prepare(t)) for t in dict.fromkeys(t for chunk in contexts for t in _clauses(chunk))]
        return [self._support_one(statement, whole, sentences or [("", whole)], clauses or [("", whole)])
                for statement in statements]

    def _closest_all(self, text: str, candidates: list) -> list:
        """Every candidate (text, prepared) sharing the most content words with ``text`` (ties kept, in order)."""
        words = self.content_words(text)
        scores = [sum(_found_in(w, c[1]) for w in words) for c in candidates]
        most = max(scores)
        return [c for c, score in zip(candidates, scores) if score == most]

    def _support_one(self, statement: str, whole: _Text, sentences: list, clauses: list) -> Verdict:
        words = self.content_words(statement)
        if not words:
            return Verdict(False, "no content words to check")
        missing = [w for w in words if not _found_in(w, whole)]
        found = len(words) - len(missing)
        problems = []
        if found / len(words) < self.support_threshold:
            problems.append(f"coverage {found / len(words):.2f} < {self.support_threshold:g} "
                            f"(missing: {', '.join(missing)})")
        closest = [c[1] for c in self._closest_all(statement, sentences)]  # quantities: the sentence(s) saying it
        convert = "units" in self.rules
        problems += [f"number {q.value}{' ' + q.unit if q.unit else ''} not in the closest context sentence"
                     for q in quantities_in(statement) if not any(_quantity_found(q, c, convert) for c in closest)]
        for clause in _clauses(statement):  # negation: the closest context clause (any of equals) agrees
            candidates = [c[0] for c in self._closest_all(clause, clauses)]
            problems += min((self._negation_problem(clause, c) for c in candidates), key=len)
        reasons = [f"{found}/{len(words)} content words in the context", *problems]
        return Verdict(not problems, "; ".join(reasons))

    @staticmethod
    def _negation_problem(clause: str, context_clause: str) -> list[str]:
        """Statement and closest context clause agree in negation (an odd number of cues negates)."""
        said, context_said = _cues(clause), _cues(context_clause)
        if len(said) % 2 > len(context_said) % 2:
            return [f"the statement negates ({', '.join(said)}), the closest context clause does not"]
        if len(said) % 2 < len(context_said) % 2:
            return [f"the closest context clause negates ({', '.join(context_said)}), the statement does not"]
        return []

    # ------------------------------------------------------------------ relevance
    def overlap(self, question: str, text: str) -> tuple[float, float, float]:
        """(share of the question's words in ``text``, share of ``text``'s words in the question, F1).

        >>> [round(x, 2) for x in LexicalJudge().overlap("怎么申请退款？", "在订单页点击申请退款。")]
        [1.0, 0.4, 0.57]
        """
        return self._overlap_one(self.content_words(question), _prepare(question), text)

    def _overlap_one(self, asked: list[str], question: _Text, text: str) -> tuple[float, float, float]:
        said = self.content_words(text)
        if not asked or not said:
            return 0.0, 0.0, 0.0
        prepared = _prepare(text)
        in_text = sum(_found_in(w, prepared) for w in asked) / len(asked)
        in_question = sum(_found_in(w, question) for w in said) / len(said)
        both = in_text + in_question
        return in_text, in_question, (2 * in_text * in_question / both if both else 0.0)

    def rule_problems(self, question: str, text: str, task: str) -> list[str]:
        """The guideline's rules that ``text`` breaks as an answer to ``question`` (``task`` is
        ``"context"`` or ``"answer"``), each as "rule: why". Notebooks 12 and 14.

        >>> LexicalJudge().rule_problems("Is the W2 available in blue?", "Sorry, it depends.", "answer")
        ['evasion: it depends / sorry and no answer', 'answer type: asks for a yes or no, none found']
        """
        problems = []
        types = expected_answer_types(question)
        if "evasion" in self.rules and task == "answer" and (cues := cues_in(text, EVASION_CUES)):
            if not self._gives_value(strip_cues(text, EVASION_CUES), types):
                problems.append(f"evasion: {' / '.join(cues)} and no answer")
        if "echo" in self.rules and (cues := cues_in(text, ECHO_CUES)):
            problems.append(f"echo: restates the question ({', '.join(cues)})")
        asks_history = bool(cues_in(question, PAST_QUESTION_CUES))
        if "history" in self.rules and task == "answer" and not asks_history and (cues := cues_in(text, HISTORY_CUES)):
            if not self._gives_value(strip_cues(text, HISTORY_CUES), types) and not cues_in(text, CURRENT_CUES):
                problems.append(f"history: talks about changes ({', '.join(cues)}) without the asked value")
        if "superseded" in self.rules and task == "context" and not asks_history and (cues := superseded(text)):
            problems.append(f"superseded: marks what it says as no longer in force ({', '.join(cues)})")
        if "not_covered" in self.rules and (cues := cues_in(text, NOT_COVERED_CUES)):
            problems.append(f"not covered: says the topic is not covered here ({', '.join(cues)})")
        if "answer_type" in self.rules and types and not any(answer_type_found(t, text) for t in types):
            problems.append(f"answer type: asks for {' or '.join(_TYPE_NAMES[t] for t in types)}, none found")
        return problems

    @staticmethod
    def _gives_value(text: str, types: list[str]) -> bool:
        """Does ``text`` give what a typed part of the question asks for (years and dates left out:
        when a rule changed is not its value)? With no typed part: any quantity that is not a date."""
        typed = [t for t in types if t != "open"]
        if typed:
            return any(answer_type_found(t, text, dates=False) for t in typed)
        return any(q.dimension != "date" for q in quantities_in(text))

    def _relevance(self, question: str, texts: list[str], threshold: float, task: str) -> list[Verdict]:
        """Topic overlap (F1) and the guideline's rules; a text of several sentences (a whole
        chunk) is judged by its best sentence: the first that passes, else the best-overlapping."""
        asked, prepared = self.content_words(question), _prepare(question)
        if not asked:
            return [Verdict(False, "the question has no content words") for _ in texts]
        where = "text" if task == "context" else "statement"
        verdicts = []
        for text in texts:
            sentences = _sentences(text) or [text]
            judged = []
            for s in sentences:
                in_text, in_question, f1 = self._overlap_one(asked, prepared, s)
                reason = (f"overlap F1 {f1:.2f} {'>=' if f1 >= threshold else '<'} {threshold:g}: "
                          f"{in_text:.0%} of the question's words in the {where}, "
                          f"{in_question:.0%} of its words in the question")
                problems = self.rule_problems(question, s, task)
                on_topic = f1 >= threshold and f1 > 0
                if not on_topic and "answer_type" in self.rules and any(
                        quantity_answer_found(t, s) for t in expected_answer_types(question)):
                    on_topic, reason = True, reason + " (below, but it gives the quantity asked for)"
                elif f1 == 0:
                    reason += " (no shared content word)"
                judged.append((on_topic and not problems, f1, s, "; ".join([reason, *problems])))
            ok, _, best, reason = max(judged, key=lambda j: (j[0], j[1]))
            shown = f" (best sentence: {best})" if len(sentences) > 1 else ""
            verdicts.append(Verdict(ok, reason + shown))
        return verdicts

    def context_relevance(self, question: str, texts: list[str]) -> list[Verdict]:
        """One verdict per text: overlap F1 with the question, answer type, not superseded or out of scope."""
        return self._relevance(question, texts, self.relevance_threshold, "context")

    def answer_relevance(self, question: str, statements: list[str]) -> list[Verdict]:
        """One verdict per statement: overlap F1, answer type, no evasion, echo or history only."""
        return self._relevance(question, statements, self.address_threshold, "answer")
