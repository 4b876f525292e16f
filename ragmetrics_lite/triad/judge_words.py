"""LexicalJudge's word and cue lists, kept as package data in ``ragmetrics_lite/data/judge_words/``,
and its stop words (``ragmetrics_lite/data/stopwords.txt``).

One file per list, named after it, under a comment header saying what the list is for:

* one entry per line; a line starting with ``#`` is a comment and a blank line is skipped;
* an entry with a space at either end is written as a JSON string in double quotes (``"can "``),
  so that an editor trimming lines cannot change it;
* a file of several lists (``question_types``, ``answer_evidence``, ``units``) starts each list with
  a ``[name]`` line; the lists keep the file's order.

Each file is read once per process. ``tests/test_triad_word_lists.py`` checks that every list holds
entries and repeats none, and the freeze record ``data/triad/judge_freeze.json`` fingerprints every
list the rules read (:func:`~ragmetrics_lite.triad.lexical.word_lists_sha256`; not the reasons' wording).
"""
from __future__ import annotations

import hashlib
import json
from functools import cache
from importlib import resources

__all__ = ["word_list", "word_sections", "list_names", "default_stopwords", "stopwords_sha256"]

_STOPWORDS_FILE = "stopwords.txt"


def list_names() -> list[str]:
    """The names of the shipped list files, sorted.

    >>> list_names()[:3]
    ['answer_evidence', 'answer_type_names', 'current_cues']
    """
    folder = resources.files("ragmetrics_lite").joinpath("data").joinpath("judge_words")
    return sorted(item.name.removesuffix(".txt") for item in folder.iterdir() if item.name.endswith(".txt"))


@cache
def _sections(name: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``(section name, entries)`` of ``<name>.txt`` in file order; entries before any ``[name]`` line
    form the section ``""``."""
    path = resources.files("ragmetrics_lite").joinpath("data").joinpath("judge_words").joinpath(f"{name}.txt")
    sections: list[tuple[str, list[str]]] = [("", [])]
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            sections.append((line[1:-1], []))
        else:
            sections[-1][1].append(json.loads(line) if line.startswith('"') else line)
    return tuple((title, tuple(entries)) for title, entries in sections if title or entries)


def word_list(name: str) -> tuple[str, ...]:
    """The entries of ``data/judge_words/<name>.txt``, a file holding one list, in file order.

    >>> word_list("negation_cues")[:4]
    ('没有', '不', '没', '无')
    """
    sections = _sections(name)
    if len(sections) != 1 or sections[0][0]:
        raise ValueError(f"{name}.txt holds {len(sections)} [sections]; read it with word_sections")
    return sections[0][1]


def word_sections(name: str) -> dict[str, tuple[str, ...]]:
    """The lists of ``data/judge_words/<name>.txt`` by their ``[name]``, in file order.

    >>> word_sections("question_types")["clock"]
    ('几点', 'what time')
    """
    sections = _sections(name)
    if any(not title for title, _ in sections):
        raise ValueError(f"{name}.txt has entries before its first [section]")
    return dict(sections)


@cache
def default_stopwords() -> frozenset[str]:
    """The shipped stop-word list (generic function words), lower-cased: what LexicalJudge drops
    before counting content words (the "content words" of the reasons in notebooks 12-14).

    >>> {"的", "the", "什么"} <= default_stopwords(), "不" in default_stopwords()
    (True, False)
    """
    text = resources.files("ragmetrics_lite").joinpath("data").joinpath(_STOPWORDS_FILE).read_text(encoding="utf-8")
    return frozenset(line.strip().lower() for line in text.splitlines()
                     if line.strip() and not line.startswith("#"))


def stopwords_sha256() -> str:
    """SHA-256 of the shipped stop-word file, recorded in ``data/triad/judge_freeze.json``.

    >>> len(stopwords_sha256())
    64
    """
    data = resources.files("ragmetrics_lite").joinpath("data").joinpath(_STOPWORDS_FILE).read_bytes()
    return hashlib.sha256(data).hexdigest()
