r"""LexicalJudge (词汇评审器): an offline, deterministic judge built on word overlap.

A teaching baseline, not a replacement for an LLM judge: it answers the three questions of
:class:`~ragmetrics_lite.triad.judges.Judge` by counting shared content words, so it misses
paraphrase and antonyms ("refunds are allowed" vs "refunds are refused"). Notebook
``13_faithfulness.ipynb`` measures its agreement with hand labels and shows the items it gets
wrong; ``12_context_relevancy`` and ``14_answer_relevancy`` use it as the default. No reference
library has a lexical judge; ragas' ``NonLLMContextPrecisionWithReference`` (string similarity
>= 0.5) is the nearest relative.

The rules (each broken rule adds a line to the verdict's ``reason``):

* **Content words** are :func:`~ragmetrics_lite.tokenize` tokens, lower-cased, minus the shipped
  stop words (``ragmetrics_lite/data/stopwords.txt``, function words only), quantities, negation
  cues and single Latin letters. A Chinese word is found when it occurs in the other text's raw
  characters; an English word when its crude stem matches a token's (-ing/-ed/-es/-s dropped,
  then at most 5 letters).
* **support**: at least ``support_threshold`` of the statement's content words occur in the
  contexts (statement coverage: a partial or drifted statement adds words the context lacks);
  every quantity in the statement (value and unit, read on the raw text by :func:`quantities_in`)
  occurs in the context sentence that shares most of its words; and each clause of the statement
  agrees in negation with the closest context clause.
* **context_relevance** / **answer_relevance**: word overlap measured both ways, the F1 (harmonic
  mean) of the share of the question's content words found in the text and the share of the
  text's content words found in the question, must reach ``relevance_threshold`` /
  ``address_threshold``. A sentence that mentions the question's words in passing scores lower
  than one about them; a text of several sentences (a whole chunk, for context precision) is
  judged by its best sentence.

Negation cues are matched on the raw text after removing the listed exceptions
(``NEGATION_EXCEPTIONS``: words that contain a cue character without negating, such as 无论
"no matter", 不仅 "not only", 非常 "very", 未来 "future", 是否 "whether"). 无法 ("cannot") and
不同 ("different") are kept as negations: they deny something the positive sentence asserts.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from decimal import Decimal
from importlib import resources
from typing import NamedTuple

from ..tokenization import tokenize
from .judges import Judge, Verdict
from .statements import split_statements

__all__ = [
    "LexicalJudge",
    "NEGATION_CUES",
    "NEGATION_EXCEPTIONS",
    "MEASURE_WORDS",
    "NUMBER_EXCEPTIONS",
    "default_stopwords",
    "stopwords_sha256",
    "negation_cues",
    "numbers_in",
    "quantities_in",
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
#: Chinese measure words and units (量词): a run of Chinese numerals is a number only before one
#: of them (三十天, 两次), so 一律 or 统一 hold no number. A lone 一 is left out, like English
#: "one": 一个, 一位 mostly mean "a".
MEASURE_WORDS = "天日周年月次个元块角分秒克斤点岁件位台只对张倍号层米升度折成项人家条页遍"
#: Words that hold a numeral before a measure word without counting (十分 "very"); removed first.
NUMBER_EXCEPTIONS = ("十分", "百分之")
_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
              "七": 7, "八": 8, "九": 9}
_ZH_POWERS = {"十": 10, "百": 100, "千": 1000, "万": 10000}
#: English number words (``one`` is left out: "no one", "the new one" count nothing).
_EN_NUMBERS = {w: i for i, w in enumerate(
    "zero _ two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen".split()) if w != "_"}
_EN_NUMBERS.update({w: 10 * i for i, w in enumerate(
    "twenty thirty forty fifty sixty seventy eighty ninety".split(), start=2)})
_ZH_CUES = re.compile("|".join(cue for cue in NEGATION_CUES if not cue.isascii()))
_EN_CUES = re.compile(r"\b(?:" + "|".join(c for c in NEGATION_CUES if c.isalpha() and c.isascii())
                      + r")\b|n['’]t")
_NUMBER = re.compile(r"(?<![A-Za-z\d.,])\d+(?:,\d{3})*(?:\.\d+)?%?")
_ZH_NUMBER = re.compile(f"[{''.join(_ZH_DIGITS)}{''.join(_ZH_POWERS)}]+(?=[{MEASURE_WORDS}])")
_EN_NUMBER = re.compile(r"\b(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[- ](?:two|three|"
                        r"four|five|six|seven|eight|nine|one)|" + "|".join(sorted(_EN_NUMBERS, key=len, reverse=True))
                        + r")\b", re.IGNORECASE)
_RANGE_WORDS = ("到", "至", "或", "to", "or", "and")
_UNIT = re.compile(r"\s*(?:([\u3400-\u9fff])|([A-Za-z]+))?")
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


def _zh_value(numerals: str) -> int:
    """三十 -> 30, 十五 -> 15, 两 -> 2, 一百零五 -> 105 (a leading 十 means 一十)."""
    total, section, digit = 0, 0, 0
    for char in numerals:
        if char in _ZH_DIGITS:
            digit = _ZH_DIGITS[char]
        elif char == "万":
            total, section, digit = (total + section + digit) * 10000, 0, 0
        else:
            section += (digit or 1) * _ZH_POWERS[char]
            digit = 0
    return total + section + digit


def _en_value(words: str) -> int:
    return sum(_EN_NUMBERS.get(w, 1) for w in re.split(r"[- ]", words.lower()))


def quantities_in(text: str) -> list[tuple[str, str]]:
    """(value, unit) of every number in ``text``, in order: digits, Chinese numerals before a
    measure word (``MEASURE_WORDS``) and English number words, read on the raw text because jieba
    cuts "30 天无理由" into 30 / 天无 / 理由. The unit is the next Chinese character or the next
    English word's stem ("" if none, or if that is 到 / 至 / to / or, as in "3 到 5 天"). Digits glued to a letter (the product B5, version v2.1)
    name a thing and are skipped. Notebook ``13_faithfulness``.

    >>> quantities_in("支持 30 天无理由退款，满 1,000.50 元包邮，三十天内，一个订单，eighteen yuan, 95%")
    [('30', '天'), ('1000.5', '元'), ('30', '天'), ('18', 'yuan'), ('95%', '')]
    """
    found = []
    for exception in NUMBER_EXCEPTIONS:
        text = text.replace(exception, " " * len(exception))
    for pattern, value in ((_NUMBER, None), (_ZH_NUMBER, _zh_value), (_EN_NUMBER, _en_value)):
        for match in pattern.finditer(text):
            if match.group() == "一":
                continue
            if value is None:
                digits = match.group().rstrip("%").replace(",", "")
                shown = format(Decimal(digits).normalize(), "f") + ("%" if match.group().endswith("%") else "")
            else:
                shown = str(value(match.group()))
            unit = _UNIT.match(text, match.end())
            unit = "" if shown.endswith("%") else unit.group(1) or _stem((unit.group(2) or "").lower())
            unit = "" if unit in _RANGE_WORDS else unit  # the 3 of "3 到 5 天" has no unit of its own
            found.append((match.start(), shown, unit))
    return [(shown, unit) for _, shown, unit in sorted(found)]


def numbers_in(text: str) -> list[str]:
    """The values of :func:`quantities_in` (``1,000`` -> ``1000``, ``3.50`` -> ``3.5``, 十 -> ``10``).

    >>> numbers_in("支持 30 天无理由退款，满 1,000.50 元包邮，好评率 95%，十天")
    ['30', '1000.5', '95%', '10']
    """
    return [value for value, _ in quantities_in(text)]


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
    quantities: tuple[tuple[str, str], ...]


def _prepare(text: str) -> _Text:
    tokens = [token.lower() for token in tokenize(text)]
    return _Text(text.lower(), frozenset(map(_stem, tokens)), tuple(quantities_in(text)))


def _found_in(word: str, text: _Text) -> bool:
    """Chinese: the word occurs in the raw text. English: a token has the same stem."""
    if _CJK.search(word):
        return word in text.raw
    return _stem(word) in text.stems


def _quantity_found(quantity: tuple[str, str], text: _Text) -> bool:
    """Same value, and the same unit unless one side has none (30 天 vs 30 分钟 differ)."""
    value, unit = quantity
    return any(v == value and (u == unit or not u or not unit) for v, u in text.quantities)


def _is_quantity(word: str) -> bool:
    """A token that is a number: digits, an English number word, or 三十天 (numerals + measure word)."""
    return bool(_NUMBER.fullmatch(word) or _EN_NUMBER.fullmatch(word) or quantities_in(word))


class LexicalJudge(Judge):
    """Judge by shared content words, quantities and negation (see the module docstring).

    ``support_threshold``: share of the statement's content words that must occur in the
    contexts. ``relevance_threshold``: the overlap F1 (question words found in the text, text
    words found in the question) a context sentence or chunk must reach. ``address_threshold``:
    the same for an answer statement. ``stopwords``: an iterable of words to ignore (default: the
    shipped list). The defaults were chosen by cross-validation on the ``dev`` items of
    ``data/triad`` only (``scripts/tune_lexical_judge.py``) and frozen with their figures in
    ``data/triad/judge_freeze.json``. Notebook ``13_faithfulness``.

    >>> judge = LexicalJudge()
    >>> judge.support(["产品支持 30 天无理由退款。"], ["产品支持 7 天退款。"])[0].verdict
    False
    >>> judge.answer_relevance("怎么申请退款？", ["在订单页点击申请退款。"])[0].verdict
    True
    """

    name = "lexical"

    def __init__(self, *, support_threshold: float = 0.95, relevance_threshold: float = 0.3,
                 address_threshold: float = 0.3, stopwords: Iterable[str] | None = None):
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
        """Lower-cased tokens minus stop words, quantities and negation cues, first occurrence kept.

        >>> LexicalJudge().content_words("产品不支持 30 天无理由退款，三年保修")  # jieba cuts 天无 / 理由
        ['产品', '支持', '天无', '理由', '退款', '保修']
        """
        words = (token.lower() for token in tokenize(text))
        return list(dict.fromkeys(
            w for w in words
            if w not in self.stopwords and not _is_quantity(w) and negation_cues(w) != [w]
            and not (w.isascii() and len(w) == 1)
        ))

    # ------------------------------------------------------------------ the three questions
    def support(self, statements: list[str], contexts: list[str]) -> list[Verdict]:
        """One verdict per statement: its words covered, quantities and negation agree."""
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
        missing = [w for w in words if not _found_in(w, whole)]
        found = len(words) - len(missing)
        problems = []
        if found / len(words) < self.support_threshold:
            problems.append(f"coverage {found / len(words):.2f} < {self.support_threshold:g} "
                            f"(missing: {', '.join(missing)})")
        sentence = self._closest(statement, sentences)[1]  # quantities: the sentence that says it
        problems += [f"number {value}{' ' + unit if unit else ''} not in the closest context sentence"
                     for value, unit in quantities_in(statement) if not _quantity_found((value, unit), sentence)]
        for clause in _clauses(statement):
            problems += self._negation_problem(clause, self._closest(clause, clauses)[0])
        reasons = [f"{found}/{len(words)} content words in the context", *problems]
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

    def _overlap(self, question: str, texts: list[str], threshold: float, where: str) -> list[Verdict]:
        """A text of several sentences (a whole chunk) is judged by its best sentence."""
        asked, prepared = self.content_words(question), _prepare(question)
        if not asked:
            return [Verdict(False, "the question has no content words") for _ in texts]
        verdicts = []
        for text in texts:
            sentences = _sentences(text) or [text]
            scored = [(self._overlap_one(asked, prepared, s), s) for s in sentences]
            (in_text, in_question, f1), best = max(scored, key=lambda pair: pair[0][2])
            shown = f" (best sentence: {best})" if len(sentences) > 1 else ""
            verdicts.append(Verdict(f1 >= threshold, f"overlap F1 {f1:.2f} {'>=' if f1 >= threshold else '<'} "
                                    f"{threshold:g}: {in_text:.0%} of the question's words in the {where}, "
                                    f"{in_question:.0%} of its words in the question{shown}"))
        return verdicts

    def context_relevance(self, question: str, texts: list[str]) -> list[Verdict]:
        """One verdict per text: its words and the question's overlap enough (F1, best sentence)."""
        return self._overlap(question, texts, self.relevance_threshold, "text")

    def answer_relevance(self, question: str, statements: list[str]) -> list[Verdict]:
        """One verdict per statement: its words and the question's overlap enough (F1)."""
        return self._overlap(question, statements, self.address_threshold, "statement")
