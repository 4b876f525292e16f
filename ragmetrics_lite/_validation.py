"""Input checks shared by every metric, retrieval and text alike.

Each check either returns a clean value or raises a ``TypeError``/``ValueError``
whose message names the problem, so that a bad input never becomes a silently
wrong number. The most common silent zero in retrieval evaluation is an id that
is the integer ``101`` on one side and the string ``"101"`` on the other: the
two never match, and every metric quietly drops to 0. ``check_id_kinds`` turns
that into an error.
"""
from __future__ import annotations

import math
import numbers
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

__all__ = ["RagMetricsWarning", "check_k", "check_length", "check_relevance_level", "check_grade", "check_finite",
           "as_grades", "as_ranking", "check_id_kinds", "refuse_repeated_row", "as_tokens", "as_references"]


class RagMetricsWarning(UserWarning):
    """Something in the input was scored by a convention the caller may not expect."""


def check_k(k: object, name: str = "k", allow_none: bool = False) -> int | None:
    """Return ``k`` as an ``int`` after checking that it is a whole number >= 1.

    >>> check_k(5)
    5
    >>> check_k(0)
    Traceback (most recent call last):
    ...
    ValueError: k must be >= 1, got 0
    """
    if k is None and allow_none:
        return None
    if isinstance(k, bool) or not isinstance(k, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {type(k).__name__} {k!r}")
    if k < 1:
        raise ValueError(f"{name} must be >= 1, got {k}")
    return int(k)


def check_length(length: object, name: str) -> int:
    """Return a length (a count of tokens) as an ``int`` after checking that it is a whole number >= 0.

    >>> check_length(0, "candidate_len")
    0
    >>> check_length(2.5, "reference_len")
    Traceback (most recent call last):
    ...
    TypeError: reference_len must be an int, got float 2.5
    """
    if isinstance(length, bool) or not isinstance(length, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {type(length).__name__} {length!r}")
    if length < 0:
        raise ValueError(f"{name} must be >= 0, got {length}")
    return int(length)


def check_relevance_level(level: object) -> int:
    """A relevance level is an int >= 1: a document is relevant when its grade >= level.

    Level 0 is refused because it would call judged non-relevant documents
    (grade 0) relevant.
    """
    return check_k(level, name="relevance_level")


def check_grade(grade: object, where: str = "") -> int:
    """Return a relevance grade as an ``int``; refuse NaN, infinity, 1.5, booleans, text.

    >>> check_grade(2.0)
    2
    >>> check_grade(1.5, "doc 'd1'")
    Traceback (most recent call last):
    ...
    ValueError: relevance grade of doc 'd1' must be an integer, got 1.5
    """
    label = f"relevance grade of {where}" if where else "relevance grade"
    if isinstance(grade, bool) or not isinstance(grade, numbers.Real):
        raise TypeError(f"{label} must be an integer, got {type(grade).__name__} {grade!r}")
    if not math.isfinite(grade):
        raise ValueError(f"{label} must be finite, got {grade}")
    if grade != int(grade):
        raise ValueError(f"{label} must be an integer, got {grade}")
    if not -2**63 <= grade < 2**63:  # grades are int64, as trec_eval's are longs: 2**64 - 1 would wrap to -1
        raise ValueError(f"{label} must fit in 64 bits, got {grade}")
    return int(grade)


def check_finite(value: object, what: str) -> float:
    """Return ``value`` as a float; refuse NaN, infinity and non-numbers."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{what} must be a number, got {type(value).__name__} {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"{what} must be finite, got {value}")
    return float(value)


def _id_kind(doc_id: object, what: str) -> str:
    """'str' or 'number' (an integer); booleans, floats and other objects are refused."""
    if isinstance(doc_id, bool) or isinstance(doc_id, np.bool_):
        raise TypeError(f"{what} must be a string or an integer, got the boolean {doc_id!r}")
    if isinstance(doc_id, str):
        return "str"
    if isinstance(doc_id, numbers.Integral):
        return "number"
    if doc_id is None or doc_id is pd.NA or (isinstance(doc_id, float) and math.isnan(doc_id)):
        raise ValueError(f"{what} is missing ({doc_id!r}); every id must be a string or an integer")
    raise TypeError(
        f"{what} must be a string or an integer, got {type(doc_id).__name__} {doc_id!r}"
        + (" (a float id such as 101.0 would not match 101 as text)" if isinstance(doc_id, float) else "")
    )


def check_id_kinds(*groups: tuple[str, Iterable[object]]) -> None:
    """Refuse ids that mix strings and numbers across (or within) the groups, each ``(name, ids)``.

    >>> check_id_kinds(("relevant", [101, 205]), ("retrieved", ["101"]))
    Traceback (most recent call last):
    ...
    TypeError: relevant has numeric ids (e.g. 101) but retrieved has string ids (e.g. '101'):
    101 never equals '101', so every metric would silently be 0. Use one kind of id on both sides.
    """
    seen: dict[str, tuple[str, object]] = {}
    for name, ids in groups:
        for doc_id in ids:
            kind = _id_kind(doc_id, f"id in {name}")
            if kind not in seen:
                seen[kind] = (name, doc_id.item() if isinstance(doc_id, np.generic) else doc_id)
    if "str" in seen and "number" in seen:
        num_name, num_id = seen["number"]
        str_name, str_id = seen["str"]
        raise TypeError(
            f"{num_name} has numeric ids (e.g. {num_id!r}) but {str_name} has string ids "
            f"(e.g. {str_id!r}): {num_id!r} never equals {str(num_id)!r}, so every metric "
            "would silently be 0. Use one kind of id on both sides."
        )


def as_grades(relevant: object) -> dict[Hashable, int]:
    """Judgments as ``{doc_id: grade}``.

    A mapping keeps its integer grades; any other collection of ids (a set, a
    list) gives every id grade 1. A bare string is refused: ``"doc1"`` would
    otherwise be read as the ids ``d``, ``o``, ``c`` and ``1``.

    >>> as_grades({"d1": 2, "d2": 0})
    {'d1': 2, 'd2': 0}
    >>> sorted(as_grades({"d3", "d1"}).items())
    [('d1', 1), ('d3', 1)]
    """
    if isinstance(relevant, (str, bytes)):
        raise TypeError(
            f"relevant must be a mapping {{doc_id: grade}} or a collection of ids, "
            f"not the string {relevant!r}; wrap a single id in a list: [{relevant!r}]"
        )
    if isinstance(relevant, Mapping):
        return {doc: check_grade(g, f"doc {doc!r}") for doc, g in relevant.items()}
    if isinstance(relevant, (Collection, np.ndarray)):
        ids = list(relevant)
        _refuse_duplicates(ids, "relevant")
        return {doc: 1 for doc in ids}
    raise TypeError(
        "relevant must be a mapping {doc_id: grade} or a collection of ids, "
        f"got {type(relevant).__name__}"
    )


def _refuse_duplicates(ids: list, name: str) -> None:
    seen: set = set()
    for doc_id in ids:
        if doc_id in seen:
            raise ValueError(f"{name} lists the id {doc_id!r} more than once")
        seen.add(doc_id)


def refuse_repeated_row(name: str, query_id: object, docs: Iterable) -> None:
    """Raise for the first document ``docs`` lists twice: ``docs`` are one query's rows of the
    judgments or the run (``name``), which may hold each document once.

    >>> refuse_repeated_row("run", "q1", ["d2", "d1", "d2"])
    Traceback (most recent call last):
    ...
    ValueError: run has more than one row for query 'q1', document 'd2'
    """
    seen: set = set()
    for doc in docs:
        if doc in seen:
            raise ValueError(f"{name} has more than one row for query {query_id!r}, document {doc!r}")
        seen.add(doc)


def as_ranking(retrieved: object) -> list:
    """The ranked ids as a list, best first; refuses strings, sets and duplicate ids.

    A set has no order, so it cannot be a ranking.

    >>> as_ranking(("d2", "d1"))
    ['d2', 'd1']
    >>> as_ranking(["d1", "d2", "d1"])
    Traceback (most recent call last):
    ...
    ValueError: retrieved lists the id 'd1' more than once
    """
    if isinstance(retrieved, (str, bytes)):
        raise TypeError(
            f"retrieved must be a list of ids, best first, not the string {retrieved!r}; "
            f"wrap a single id in a list: [{retrieved!r}]"
        )
    if isinstance(retrieved, (set, frozenset, Mapping)):
        raise TypeError(
            f"retrieved must be an ordered list of ids, best first, not a {type(retrieved).__name__}"
        )
    if not isinstance(retrieved, (Collection, np.ndarray)):
        raise TypeError(f"retrieved must be a list of ids, got {type(retrieved).__name__}")
    ids = list(retrieved)
    _refuse_duplicates(ids, "retrieved")
    return ids


def as_tokens(tokens: object, name: str = "candidate") -> list[str]:
    """``tokens`` as a list of non-empty strings without whitespace, or a clear error.

    A bare string is refused: ``"埃菲尔铁塔"`` would otherwise be read as five
    one-character tokens. Shared by every text metric.

    >>> as_tokens(("的", "高度"))
    ['的', '高度']
    >>> as_tokens("高度")
    Traceback (most recent call last):
    ...
    TypeError: candidate must be a list of tokens, not the string '高度'; call tokenize first, e.g. tokenize('高度')
    """
    if isinstance(tokens, (str, bytes)):
        raise TypeError(
            f"{name} must be a list of tokens, not the string {tokens!r}; "
            f"call tokenize first, e.g. tokenize({tokens!r})"
        )
    if isinstance(tokens, (set, frozenset, Mapping)) or not isinstance(tokens, Iterable):
        raise TypeError(f"{name} must be a list of tokens, got {type(tokens).__name__}")
    tokens = list(tokens)
    for token in tokens:
        if not isinstance(token, str):
            raise TypeError(f"every token in {name} must be a str, got {type(token).__name__} {token!r}")
    if " ".join(tokens).split() != tokens:  # then some token is empty or holds whitespace
        bad = next(token for token in tokens if token.split() != [token])
        raise ValueError(
            f"token {bad!r} in {name} is empty or contains whitespace; "
            "tokens are single words, as tokenize returns them"
        )
    return tokens


def as_references(references: object, name: str = "references") -> list[list[str]]:
    """A non-empty list of token lists (one per reference), or a clear error.

    >>> as_references([["a", "b"], ["c"]])
    [['a', 'b'], ['c']]
    >>> as_references(["a", "b"])
    Traceback (most recent call last):
    ...
    TypeError: references must be a list of token lists, one per reference, got a list of strings;
    for a single reference write [reference]
    """
    if isinstance(references, (str, bytes)):
        raise TypeError(
            f"{name} must be a list of token lists, not the string {references!r}; call tokenize first"
        )
    if not isinstance(references, Sequence):
        raise TypeError(f"{name} must be a list of token lists, got {type(references).__name__}")
    if len(references) == 0:
        raise ValueError(f"{name} must hold at least one reference")
    if all(isinstance(ref, str) for ref in references):
        raise TypeError(
            f"{name} must be a list of token lists, one per reference, got a list of strings; "
            "for a single reference write [reference]"
        )
    return [as_tokens(ref, f"{name}[{k}]") for k, ref in enumerate(references)]
