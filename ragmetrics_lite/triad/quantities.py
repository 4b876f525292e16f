r"""Quantities (数量) read on the raw text, with their units converted, for LexicalJudge.

jieba cuts "30 天无理由" into 30 / 天无 / 理由, so numbers are found with regular expressions on
the raw text, never on tokens. Three kinds of number are read:

* digits (``30``, ``1,000.50``, ``95%``, ``1.2 万``); digits glued to a letter name a thing (the
  product B5, version v2.1) and are skipped;
* Chinese numerals before a measure word (三十天, 两次, 一个半小时, 半天); a lone 一 counts only
  before a unit of measurement (一周, 一个月), since 一个 and 一位 mostly mean "a";
* English number words (eighteen, twenty-four), and "a" / "an" / "one" / "half an" / "a quarter of
  an" before a unit of time ("a week", "half an hour").

A unit read after the number (``UNITS``) gives the quantity a dimension and a value in that
dimension's base unit, so the faithfulness check compares 48 小时 with 两天, 90 minutes with an hour
and a half, 5,200 mAh with 5.2 Ah, 9 折 with 90%. Working days, months and years are their own
dimensions: "3 working days" is not "3 days", and a month is not 30 days. Notebook
``13_faithfulness`` shows :func:`numbers_in` on its claims.
"""
from __future__ import annotations

import re
from decimal import Decimal
from typing import NamedTuple

from ..text.tokenization import CJK_IDEOGRAPH
from .judge_words import word_list, word_sections

__all__ = ["Quantity", "UNITS", "MEASURE_WORDS", "NUMBER_EXCEPTIONS", "quantities_in", "numbers_in", "is_quantity"]

#: Unit word (Chinese, or an English singular) -> (dimension, factor to the dimension's base unit).
UNITS: dict[str, tuple[str, Decimal]] = {
    word: (unit.split()[0], Decimal(unit.split()[1]))
    for unit, words in word_sections("units").items() for word in words}
MEASURE_WORDS = "".join(word_list("measure_words"))
NUMBER_EXCEPTIONS = word_list("number_exceptions")
_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
              "七": 7, "八": 8, "九": 9}
_ZH_POWERS = {"十": 10, "百": 100, "千": 1000, "万": 10000}
#: English number words ("one" only before a unit: "no one", "the new one" count nothing).
_EN_NUMBERS = {w: i for i, w in enumerate(
    "zero _ two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen".split()) if w != "_"}
_EN_NUMBERS.update({w: 10 * i for i, w in enumerate(
    "twenty thirty forty fifty sixty seventy eighty ninety".split(), start=2)})
_EN_SCALES = {"hundred": 100, "thousand": 1000}
_EN_UNITS_OF_TIME = r"(?:second|minute|hour|day|week|fortnight|month|year)s?\b"

_NUMBER = re.compile(r"(?<![A-Za-z\d.,:])\d{1,2}:\d{2}(?!\d)"                              # a time of day: 10:30
                     r"|(?<![A-Za-z\d.,:])\d+(?:,\d{3})*(?:\.\d+)?(?![A-Za-z\d:])(?:\s*万)?%?")  # 1,000.50; 1.2 万; 95%
_ZH_NUMERALS = "".join(_ZH_DIGITS) + "".join(_ZH_POWERS)
_ZH_NUMBER = re.compile(
    f"(?<![\\d.])(?<![\\d.] )(?<![\\d.]个)[{_ZH_NUMERALS}]+(?:个)?半?(?=[{MEASURE_WORDS}])"  # 三天, 一个半小时
    f"|(?<![\\d.]个)(?<![\\d.] 个)半(?=个?[{MEASURE_WORDS}])")  # 半天, 半个月
_EN_WORD = r"(?:" + "|".join(sorted([*_EN_NUMBERS, "one"], key=len, reverse=True)) + r")"
_EN_NUMBER = re.compile(
    rf"\b(?:{_EN_WORD}(?:[- ]{_EN_WORD})?(?:\s+(?:hundred|thousand)(?:\s+(?:and\s+)?{_EN_WORD})?)?"
    rf"|(?:an?\s+)?(?:hundred|thousand))\b(?!-)"
    rf"|\b(?:a\s+quarter\s+of\s+an?|half\s+an?|an?)(?=\s+{_EN_UNITS_OF_TIME})", re.IGNORECASE)
_RATE = re.compile(r"(?:\d|\b[a-z]+)\s+(?:yuan|rmb|dollars?|times?|hours?|days?|minutes?|percent)\s*$", re.IGNORECASE)
_AND_A_HALF = re.compile(r"\s*(?:个)?半|\s+and\s+a\s+half", re.IGNORECASE)
_RANGE_WORDS = ("到", "至", "或", "to", "or", "and")
_ZH_UNITS = sorted((u for u in UNITS if not u.isascii()), key=len, reverse=True)
_EN_UNIT = re.compile(r"\s*(working day|business day|per cent|[a-z%]+)", re.IGNORECASE)


class Quantity(NamedTuple):
    """A number read in a text: ``value`` as shown (``"30"``, ``"95%"``), the ``unit`` word after it
    (``""`` if none), and, for a unit in ``UNITS``, its ``dimension`` and value in base units."""

    start: int
    value: str
    unit: str
    dimension: str
    base: Decimal | None


def _zh_value(numerals: str) -> Decimal:
    """三十 -> 30, 十五 -> 15, 两 -> 2, 一百零五 -> 105, 一个半 -> 1.5, 半 -> 0.5."""
    half = numerals.endswith("半")
    numerals = numerals.rstrip("半").rstrip("个")
    total, section, digit = 0, 0, 0
    for char in numerals:
        if char in _ZH_DIGITS:
            digit = _ZH_DIGITS[char]
        elif char == "万":
            total, section, digit = (total + section + digit) * 10000, 0, 0
        else:
            section += (digit or 1) * _ZH_POWERS[char]
            digit = 0
    return Decimal(total + section + digit) + (Decimal("0.5") if half else 0)


def _en_value(words: str) -> Decimal:
    words = words.lower()
    if words.startswith("a quarter"):
        return Decimal("0.25")
    if words.startswith("half"):
        return Decimal("0.5")
    total, current = 0, 0
    for word in re.split(r"[- ]+", words):
        if word in _EN_SCALES:
            total, current = total + (current or 1) * _EN_SCALES[word], 0
        elif word in _EN_NUMBERS:
            current += _EN_NUMBERS[word]
        elif word in ("one", "a", "an"):
            current += 1
    return Decimal(total + current)


def _digits_value(text: str) -> Decimal:
    if ":" in text:  # 12:30, a time of day: its hour
        return Decimal(text.split(":")[0])
    number = Decimal(re.sub(r"[,\s万%]", "", text))
    return number * 10000 if "万" in text else number


def _unit_after(text: str, end: int) -> tuple[str, int]:
    """The unit word after a number ending at ``end`` (skipping spaces and 个), and where it ends."""
    position = end
    while position < len(text) and text[position] == " ":
        position += 1
    if text.startswith("个", position) and not any(text.startswith(u, position) for u in _ZH_UNITS):
        position += 1
    for unit in _ZH_UNITS:
        if text.startswith(unit, position):
            return unit, position + len(unit)
    if CJK_IDEOGRAPH.match(text, position):
        return text[position], position + 1
    match = _EN_UNIT.match(text, end)
    if match:
        word = match.group(1).lower()
        return word, match.end()
    return "", end


def _unit_entry(unit: str) -> tuple[str, Decimal] | None:
    unit = unit.lower()
    for candidate in (unit, unit[:-1] if unit.endswith("s") else unit, unit[:-2] if unit.endswith("es") else unit):
        if candidate in UNITS:
            return UNITS[candidate]
    return None


_CLOCK = re.compile(r"\s*(?:[ap]\.?m\b\.?|:\d\d|点|时(?!间))", re.IGNORECASE)


def _is_date_or_clock(text: str, start: int, end: int, value: Decimal, unit: str) -> bool:
    """A year (2025, 2025 年, "the 2023 policy"), a month or day of a date (2025 年 3 月 5 日), or a
    time of day (9 a.m., 10:30, 7 点): a point in time, not an amount."""
    if value == value.to_integral() and 1900 <= value <= 2100 and (unit in ("年", "") or _unit_entry(unit) is None):
        return True
    before = text[max(0, start - 4):start]
    if unit == "月" and "年" in before or unit in ("日", "号") and "月" in before:
        return True
    return bool(_CLOCK.match(text, end))


def quantities_in(text: str) -> list[Quantity]:
    """Every number in ``text``, in order, as a :class:`Quantity` (see the module docstring).

    >>> [(q.value, q.unit) for q in quantities_in("30 天无理由，满 1,000.50 元，一个半小时，eighteen yuan, 95%")]
    [('30', '天'), ('1000.5', '元'), ('1.5', '小时'), ('18', 'yuan'), ('95%', '')]
    >>> [(q.dimension, q.base) for q in quantities_in("48 小时 / two days / 5,200 mAh / 9 折")]
    [('time', Decimal('172800')), ('time', Decimal('172800')), ('charge', Decimal('5200')), ('share', Decimal('90'))]
    """
    for exception in NUMBER_EXCEPTIONS:
        text = text.replace(exception, " " * len(exception))
    found = []
    for pattern, read in ((_NUMBER, _digits_value), (_ZH_NUMBER, _zh_value), (_EN_NUMBER, _en_value)):
        for match in pattern.finditer(text):
            raw, end = match.group(), match.end()
            unit, unit_end = ("", end) if raw.endswith("%") else _unit_after(text, end)
            if raw == "一" and _unit_entry(unit) is None:
                continue  # 一个订单, 一位顾客: "a", not a count
            if re.fullmatch(r"(?i)an?|one", raw.strip()) and (
                    _unit_entry(unit) is None or _RATE.search(text[:match.start()])):
                continue  # "the new one"; "80 yuan a day" is a rate, not a day
            value = read(raw)
            if pattern is _NUMBER and unit == "半":  # 3 个半月: three and a half months
                unit, unit_end = _unit_after(text, unit_end)
                value += Decimal("0.5")
            half = _AND_A_HALF.match(text, unit_end) if pattern is not _ZH_NUMBER else None
            if half and _unit_entry(unit) is not None and unit != "%":
                value += Decimal("0.5")
            shown = format(value.normalize(), "f") + ("%" if raw.endswith("%") else "")
            if unit.lower() in _RANGE_WORDS:
                unit = ""  # the 3 of "3 到 5 天" has no unit of its own
            entry = UNITS["%"] if raw.endswith("%") else _unit_entry(unit)
            dimension, base = (entry[0], value * entry[1]) if entry else ("", None)
            if ":" in raw:  # 12:30
                shown, unit, dimension, base = raw, "", "clock", None
            elif _is_date_or_clock(text, match.start(), end, value, unit):
                dimension, base = ("clock" if _CLOCK.match(text, end) else "date"), None
            found.append(Quantity(match.start(), shown, unit, dimension, base))
    return sorted(found)


def numbers_in(text: str) -> list[str]:
    """The values of :func:`quantities_in` (``1,000`` -> ``1000``, ``3.50`` -> ``3.5``, 十 -> ``10``).

    >>> numbers_in("支持 30 天无理由退款，满 1,000.50 元包邮，好评率 95%，十天")
    ['30', '1000.5', '95%', '10']
    """
    return [q.value for q in quantities_in(text)]


def is_quantity(word: str) -> bool:
    """A token that is a number or a unit: digits, an English number word, 三十天 (numerals + measure
    word), or a unit of ``UNITS`` (小时, weeks): the quantity rule compares these, not word overlap.

    >>> [is_quantity(w) for w in ("30", "eighteen", "三十天", "小时", "weeks", "half", "退款")]
    [True, True, True, True, True, True, False]
    """
    return bool(_NUMBER.fullmatch(word) or re.fullmatch(_EN_WORD, word, re.IGNORECASE) or quantities_in(word)
                or _unit_entry(word) is not None or word.lower() in ("half", "quarter", "半"))
