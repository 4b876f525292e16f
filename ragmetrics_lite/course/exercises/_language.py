"""The language the exercises print in: English, or Chinese where a current translation exists.

With ``RAGMETRICS_LANG=zh`` in the environment (``bash scripts/open_lab.sh --zh`` sets it for the
Chinese edition), an exercise prints its own texts (task, questions, choices, hints, diagnoses, case
labels) and the checker's sentences ("Correct: ...", "Hint 1 of 2: ...") in Chinese, read from the
gettext catalogues ``i18n/zh_CN/exercises/<exercise>.po`` and ``i18n/zh_CN/exercises/checker.po``.

A translation cannot go stale silently: a text prints in Chinese only while its catalogue entry's
English (msgid) is the text the exercise declares now. After an English edit it prints in English
again, never an out-of-date translation, and ``python scripts/zh_edition.py --check`` fails naming the
entry until the translation follows. An exercise without a catalogue prints in English.

Without the variable (the English notebooks, nbval, the tests) nothing is read: every message is the
English one, so no stored output depends on this module. ``texts`` of an exercise and ``TEMPLATES``
below are what the catalogues translate; ``scripts/zh_edition.py --update`` writes them there.
"""
from __future__ import annotations

import functools
import os
from pathlib import Path

__all__ = ["ENVIRONMENT", "TEMPLATES", "chinese", "end", "template", "text"]

ENVIRONMENT = "RAGMETRICS_LANG"
CATALOGUES = Path(__file__).resolve().parents[3] / "i18n" / "zh_CN" / "exercises"  # the repository's
TEMPLATE_CATALOGUE = "checker"

# The checker's sentences, by key; ``{name}`` fields are filled in with str.format (a translation keeps
# the same fields). Messages join several of them: Exercise, FunctionExercise and ChoiceExercise say how.
TEMPLATES = {
    "hint": "Hint {level} of {count}: {hint}{more}",
    "hint more": " (More: {name}.hint({level}).)",
    "hint level one": "There is 1 hint: call hint() or hint(level) with a level from 1 to 1, not {level}.",
    "hint level": "There are {count} hints: call hint() or hint(level) with a level from 1 to {count}, not {level}.",
    "not attempted": "Not attempted: {why} Replace ____ with your answer, then check again.",
    "answer blank": "the answer is still ____.",
    "answers blank": "the answers are still ____.",
    "returns blank": "your function still returns ____ (for {inputs}).",
    "not implemented": "your function raises NotImplementedError.",
    "uses blank": "your function still uses ____ and raised {error}.",
    "not a function": ("Incorrect: this exercise expects a function, got {kind} {value}. Pass the function "
                       "itself, without calling it."),
    "function correct": ("Correct: your function agrees with the reference on all {count} cases ({edge} edge "
                         "cases, {random} random)."),
    "raised": "Incorrect: your function raised {error}",
    "returned None": "Incorrect: your function returned None (is its return statement missing?).",
    "wrong value": "Incorrect: your function gives a wrong value.",
    "case": "  case:     {label}",
    "random case": "a random case",
    "inputs": "  inputs:   {inputs}",
    "expected": "  expected: {value}",
    "got": "  got:      {value}",
    "at line": "  at line:  {line}",
    "diagnosis": "  Diagnosis: {diagnosis}.",
    "not a dict": ("Incorrect: this exercise expects a dict like {{1: 'A', 2: 'C'}}, one letter for each "
                   "question 1 to {count}; got {kind}."),
    "no question": "Incorrect: there is no question {key}; the questions are numbered 1 to {count}.",
    "not a choice": "Incorrect: question {number}: {letter} is not one of the choices {choices}.",
    "choice right": "  {number}. {letter} ({choice}): {why}.",
    "choice wrong": "  {number}. {letter} ({choice}) is not it.",
    "choice diagnosis": "     Diagnosis: {diagnosis}.",
    "choices wrong one": "Incorrect: {wrong} of {count} answers is wrong.",
    "choices wrong": "Incorrect: {wrong} of {count} answers are wrong.",
    "choices answered": "{answered} of {count} questions answered.",
    "choices correct": "Correct: all {count} answers are right.",
}


def chinese() -> bool:
    """Whether the environment asks for Chinese (``RAGMETRICS_LANG`` is zh, zh_CN or zh-CN)."""
    return os.environ.get(ENVIRONMENT, "").strip().lower().replace("-", "_") in ("zh", "zh_cn")


@functools.lru_cache(maxsize=None)
def _entries(catalogue: str) -> dict[str, tuple[str, str]]:
    """msgctxt -> (msgid, msgstr) of a catalogue's current translations (none if it or polib is missing)."""
    path = CATALOGUES / f"{catalogue}.po"
    try:
        import polib  # the course's requirements.txt pins it; the library itself does not need it
    except ImportError:
        return {}
    if not path.is_file():
        return {}
    return {entry.msgctxt: (entry.msgid, entry.msgstr) for entry in polib.pofile(str(path))
            if entry.msgstr and not entry.obsolete and "fuzzy" not in entry.flags}


def text(catalogue: str, context: str, english: str) -> str:
    """``english``, or its translation when Chinese is asked for and the entry translates this very text."""
    if not chinese():
        return english
    msgid, msgstr = _entries(catalogue).get(context, (None, None))
    return msgstr if msgid == english else english


def template(key: str, /, **fields) -> str:
    """The checker's sentence ``key`` (TEMPLATES) in the language asked for, with its fields filled in."""
    english = TEMPLATES[key]
    return text(TEMPLATE_CATALOGUE, f"{TEMPLATE_CATALOGUE} {key}", english).format(**fields)


def end(sentence: str) -> str:
    """A declared text without its final full stop: templates add the stop of their language."""
    return sentence.rstrip(".。")
