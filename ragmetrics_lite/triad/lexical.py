r"""LexicalJudge (词汇评审器): an offline, deterministic judge built on word overlap.

A teaching baseline, not a replacement for an LLM judge: it answers the three questions of
:class:`~ragmetrics_lite.triad.judges.Judge` by counting shared content words, so it misses
paraphrase, antonyms ("refunds are allowed" vs "refunds are refused") and numbers written as
words. Notebook ``13_faithfulness.ipynb`` measures its agreement with hand labels and shows the
items it gets wrong; ``12_context_relevancy`` and ``14_answer_relevancy`` use it as the default.
No reference library has a lexical judge; ragas' ``NonLLMContextPrecisionWithReference`` (string
similarity >= 0.5) is the nearest relative.

The rules (each broken rule adds a line to the verdict's ``reason``):

* **Content words** are :func:`~ragmetrics_lite.tokenize` tokens, lower-cased, minus the shipped
  stop words (``ragmetrics_lite/data/stopwords.txt``), numbers, negation cues and single Latin
  letters. A Chinese word is found when it, or one of its two-character pieces, occurs in the
  other text's raw characters (jieba may cut 货运费 in one text and 运费 in the other); an English
  word when its crude stem matches a token's (-ing/-ed/-es/-s dropped, then at most 5 letters).
* **support**: each clause of the statement (cut at commas, colons, semicolons) must have at least
  ``support_threshold`` of its content words in the contexts, so partial support fails; every
  number in the statement (by regex on the raw text, since jieba cuts "30 天无理由" into 30 / 天无 /
  理由; product codes such as B5 are names, not numbers) must appear in the context sentence that
  shares most of its words, so the 30 of "the old 30-day limit is abolished" does not support
  "within 30 days"; and each clause must agree in negation with the closest context clause.
* **context_relevance** / **answer_relevance**: the share of the question's content words found in
  the text must reach ``relevance_threshold`` / ``address_threshold``.

Negation cues are matched on the raw text after removing the listed exceptions
(``NEGATION_EXCEPTIONS``: words that contain a cue character without negating, such as 无论
"no matter", 不仅 "not only", 非常 "very", 未来 "future", 是否 "whether"). 无法 ("cannot") and
不同 ("different") are kept as negations: they deny something the positive sentence asserts.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation
from importlib import resources
from typing import NamedTuple

from ..tokenization import tokenize
from .judges import Judge, Verdict
from .statements import split_statements

__all__ = [
    "LexicalJudge",
    "NEGATION_CUES",
    "NEGATION_EXCEPTIONS",
    "default_stopwords",
    "stopwords_sha256",
    "negation_cues",
    "numbers_in",
]

_STOPWORDS_FILE = "stopwords.txt"

#: Negation cues, matched on the raw (lower-cased) text.
NEGATION_CUES = ("没有", "不", "没", "无", "未", "非", "别", "勿", "否",
                 "not", "no", "never", "n't", "none", "nothing", "nobody", "neither", "nor",
                 "without", "cannot")
#: Words that contain a cue but do not negate; removed before the cues are searched.
NEGATION_EXCEPTIONS = ("无论", "不论", "不管", "不仅", "不但", "不过", "不断", "不久", "不少", "不错",
                       "非常", "除非", "未来", "未必", "是否", "否则", "特别", "区别", "分别", "类别",
                       "级别", "识别", "别人", "别的", "个别", "告别", "not only")
_ZH_CUES = re.compile("|".join(cue for cue in NEGATION_CUES if not cue.isascii()))
_EN_CUES = re.compile(r"\b(?:" + "|".join(c for c in NEGATION_CUES if c.isalpha() and c.isascii())
                      + r")\b|n['’]t")
_NUMBER = re.compile(r"(?<![A-Za-z\d.,])\d+(?:,\d{3})*(?:\.\d+)?%?")
_CJK = re.compile(r"[\u3400-\u9fff]")
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


def default_stopwords() -> frozenset[str]:
    """The shipped stop-word list (generic function words), lower-cased. Shown in ``13_faithfulness``.

    >>> {"的", "the", "什么"} <= default_stopwords(), "不" in default_stopwords()
    (True, False)
    """
    text = resources.files("ragmetrics_lite").joinpath("data", _STOPWORDS_FILE).read_text(encoding="utf-8")
    return frozenset(line.strip().lower() for line in text.splitlines()
                     if line.strip() and not line.startswith("#"))


def stopwords_sha256() -> str:
    """SHA-256 of the shipped stop-word file, recorded in ``data/triad/judge_freeze.json``.

    >>> len(stopwords_sha256())
    64
    """
    data = resources.files("ragmetrics_lite").joinpath("data", _STOPWORDS_FILE).read_bytes()
    return hashlib.sha256(data).hexdigest()


def negation_cues(text: str) -> list[str]:
    """The negation cues in ``text``, in order, after removing ``NEGATION_EXCEPTIONS``.

    Shown in ``13_faithfulness``; an odd number of cues negates (see :class:`LexicalJudge`).

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


def numbers_in(text: str) -> list[str]:
    """Numbers written in digits, normalised (``1,000`` -> ``1000``, ``3.50`` -> ``3.5``).

    Digits glued to a letter (the product B5, version v2.1) name a thing and are skipped; numbers
    written as words (七, twelve) are not found: a blind spot shown in ``13_faithfulness``.

    >>> numbers_in("支持 30 天无理由退款，满 1,000.50 元包邮，好评率 95%")
    ['30', '1000.5', '95%']
    """
    found = []
    for match in _NUMBER.findall(text):
        digits, percent = match.rstrip("%").replace(",", ""), "%" if match.endswith("%") else ""
        try:
            found.append(format(Decimal(digits).normalize(), "f") + percent)
        except InvalidOperation:  # pragma: no cover - the regex only admits valid decimals
            found.append(match)
    return found


def _stem(word: str) -> str:
    """A crude English stem: drop one of -ing, -ed, -es, -s, keep at most 5 letters.

    refund/refunds/refunded, delivery/delivered and charge/charging then match. Truncating to a
    few letters is an old information-retrieval stemmer; other words are unchanged.
    """
    if word.isascii() and word.isalpha():
        for suffix in ("ing", "ed", "es", "s"):
            if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                word = word[: -len(suffix)]
                break
        return word[:5]
    return word


class _Text(NamedTuple):
    """A text prepared for lookups: lower-cased raw text, token stems, numbers."""

    raw: str
    stems: frozenset[str]
    numbers: frozenset[str]


def _prepare(text: str) -> _Text:
    tokens = [token.lower() for token in tokenize(text)]
    return _Text(text.lower(), frozenset(map(_stem, tokens)), frozenset(numbers_in(text)))


def _found_in(word: str, text: _Text) -> bool:
    """Chinese: the word, or one of its two-character pieces, occurs in the raw text (jieba may
    cut 货运费 in one text and 运费 in the other). English: a token has the same stem."""
    if _CJK.search(word):
        return word in text.raw or any(word[i : i + 2] in text.raw for i in range(len(word) - 1))
    return _stem(word) in text.stems


class LexicalJudge(Judge):
    """Judge by shared content words, numbers and negation (see the module docstring).

    ``support_threshold``: share of each statement clause's content words that must occur in the
    contexts. ``relevance_threshold``: share of the question's content words a context sentence or
    chunk must contain. ``address_threshold``: the same for an answer statement. ``stopwords``: an
    iterable of words to ignore (default: the shipped list). The defaults were chosen on the
    ``dev`` half of ``data/triad`` only and frozen with their figures in
    ``data/triad/judge_freeze.json``. Notebook ``13_faithfulness``.

    >>> judge = LexicalJudge()
    >>> judge.support(["产品支持 30 天无理由退款。"], ["产品支持 7 天退款。"])[0].verdict
    False
    >>> judge.answer_relevance("怎么申请退款？", ["在订单页点击申请退款。"])[0].verdict
    True
    """

    name = "lexical"

    def __init__(self, *, support_threshold: float = 0.4, relevance_threshold: float = 0.4,
                 address_threshold: float = 0.6, stopwords: Iterable[str] | None = None):
        for label, value in (("support_threshold", support_threshold),
                             ("relevance_threshold", relevance_threshold),
                             ("address_threshold", address_threshold)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
                raise ValueError(f"{label} must be a number in [0, 1], got {value!r}")
        if isinstance(stopwords, str):
            raise TypeError("stopwords must be a collection of words, not a single string")
        self.support_threshold = float(support_threshold)
        self.relevance_threshold = float(relevance_threshold)
        self.address_threshold = float(address_threshold)
        self.stopwords = default_stopwords() if stopwords is None else frozenset(w.lower() for w in stopwords)

    def __repr__(self) -> str:
        return (f"LexicalJudge(support_threshold={self.support_threshold}, "
                f"relevance_threshold={self.relevance_threshold}, "
                f"address_threshold={self.address_threshold})")

    def content_words(self, text: str) -> list[str]:
        """Lower-cased tokens minus stop words, numbers and negation cues, first occurrence kept.

        >>> LexicalJudge().content_words("产品不支持 30 天无理由退款")  # jieba cuts 天无 / 理由
        ['产品', '支持', '天无', '理由', '退款']
        """
        words = (token.lower() for token in tokenize(text))
        return list(dict.fromkeys(
            w for w in words
            if w not in self.stopwords and not _NUMBER.fullmatch(w) and negation_cues(w) != [w]
            and not (w.isascii() and len(w) == 1)
        ))

    # ------------------------------------------------------------------ the three questions
    def support(self, statements: list[str], contexts: list[str]) -> list[Verdict]:
        """One verdict per statement: covered clause by clause, numbers and negation agree."""
        whole = _prepare("\n".join(contexts))
        sentences = [(t, _prepare(t)) for chunk in contexts for t in _sentences(chunk)]
        clauses = [(t, _prepare(t)) for chunk in contexts for t in _clauses(chunk)]
        return [self._support_one(statement, whole, sentences or [("", whole)], clauses or [("", whole)])
                for statement in statements]

    def _closest(self, text: str, candidates: list) -> tuple[str, _Text]:
        """The candidate (text, prepared) sharing most content words with ``text``; the first of equals."""
        words = self.content_words(text)
        return max(candidates, key=lambda c: sum(_found_in(w, c[1]) for w in words))

    def _support_one(self, statement: str, whole: _Text, sentences: list, clauses: list) -> Verdict:
        words = self.content_words(statement)
        if not words:
            return Verdict(False, "no content words to check")
        found = [w for w in words if _found_in(w, whole)]
        problems = []
        for clause in _clauses(statement):  # partial support: every clause must be covered
            clause_words = self.content_words(clause)
            clause_found = sum(_found_in(w, whole) for w in clause_words)
            if clause_words and clause_found / len(clause_words) < self.support_threshold:
                problems.append(f"{clause_found}/{len(clause_words)} words of '{clause}' in the context")
            problems += self._negation_problem(clause, self._closest(clause, clauses)[0])
        sentence = self._closest(statement, sentences)[1]  # numbers: the sentence that says it
        problems += [f"number {n} not in the closest context sentence"
                     for n in numbers_in(statement) if n not in sentence.numbers]
        reasons = [f"{len(found)}/{len(words)} content words in the context", *problems]
        return Verdict(not problems, "; ".join(reasons))

    @staticmethod
    def _negation_problem(clause: str, context_clause: str) -> list[str]:
        """A clause negates when it holds an odd number of cues: 没有哪位员工可以不参加 (two cues)
        says that everyone must. Statement and closest context clause must agree."""
        said, context_said = negation_cues(clause), negation_cues(context_clause)
        if len(said) % 2 > len(context_said) % 2:
            return [f"the statement negates ({', '.join(said)}), the closest context clause does not"]
        if len(said) % 2 < len(context_said) % 2:
            return [f"the closest context clause negates ({', '.join(context_said)}), the statement does not"]
        return []

    def _overlap(self, question: str, texts: list[str], threshold: float, where: str) -> list[Verdict]:
        words = self.content_words(question)
        verdicts = []
        for text in texts:
            if not words:
                verdicts.append(Verdict(False, "the question has no content words"))
                continue
            prepared = _prepare(text)
            found = [w for w in words if _found_in(w, prepared)]
            shown = f": {', '.join(found)}" if found else ""
            verdicts.append(Verdict(len(found) / len(words) >= threshold,
                                    f"{len(found)}/{len(words)} question words in the {where}{shown}"))
        return verdicts

    def context_relevance(self, question: str, texts: list[str]) -> list[Verdict]:
        """One verdict per text: enough of the question's content words occur in it."""
        return self._overlap(question, texts, self.relevance_threshold, "text")

    def answer_relevance(self, question: str, statements: list[str]) -> list[Verdict]:
        """One verdict per statement: enough of the question's content words occur in it."""
        return self._overlap(question, statements, self.address_threshold, "statement")
