"""Checks of a notebook's figure against the source notes that survive a learner's edits.

Every notebook reproduces an example from the source notes (a set of Chinese study notes on RAG
evaluation, introduced in notebook 00) and checks the notes' figure. A learner is invited to change
the example's inputs and re-run; the notes' figure then no longer applies, and a bare ``assert``
would stop "Run All" at the first check. ``notes_check`` asserts the figure only while the inputs
are the notes' own example, and otherwise prints the learner's value beside a one-line reminder.

A notebook decides whether its inputs are still the notes' example by comparing the values of its
``parameters`` cell with the notes' inputs, kept as data in ``notes_examples/<notebook>.json``::

    on_notes_example = on_notes_example("01_recall_at_k", K=K, relevant=relevant, retrieved=retrieved)
    notes_check(f"Recall@{K}", recall, 2 / 3, on_notes_example)

>>> notes_check("Recall@5", 2 / 3, 2 / 3, applies=True)
Recall@5 = 0.6667, as in the source notes (0.6667)
>>> notes_check("Recall@3", 0.5, 2 / 3, applies=False)
Recall@3 = 0.5000 for your inputs; the source notes' 0.6667 is for their example only
>>> notes_check("Recall@5", 0.5, 2 / 3, applies=True)
Traceback (most recent call last):
...
AssertionError: Recall@5 = 0.5000, but the source notes' example gives 0.6667
"""
from __future__ import annotations

import json
import math
from collections.abc import Mapping
from functools import cache
from pathlib import Path

import numpy as np

__all__ = ["notes_check", "notes_claim", "on_notes_example", "same_inputs"]

EXAMPLES = Path(__file__).with_name("notes_examples")


def notes_check(label: str, value: float, notes_value: float, applies: bool, *,
                places: int = 4) -> None:
    """Assert ``value`` equals the source notes' figure when ``applies``; otherwise just report it.

    ``notes_value`` is the correct figure for the notes' example (where the notes slip, the
    notebook passes the corrected value and explains the slip in prose). Values agree when they
    differ by at most half a unit in the last of ``places`` decimals. Used in every notebook.

    >>> notes_check("NDCG@4", 0.95739, 0.9574, applies=True)
    NDCG@4 = 0.9574, as in the source notes (0.9574)
    """
    if not isinstance(applies, bool):
        raise TypeError(f"applies must be True or False, got {applies!r}")
    shown = f"{label} = {value:.{places}f}"
    if not applies:
        print(f"{shown} for your inputs; the source notes' {notes_value:.{places}f} "
              "is for their example only")
        return
    if not math.isclose(value, notes_value, rel_tol=0.0, abs_tol=0.5 * 10 ** -places + 1e-12):
        raise AssertionError(f"{shown}, but the source notes' example gives {notes_value:.{places}f}")
    print(f"{shown}, as in the source notes ({notes_value:.{places}f})")


def notes_claim(claim: str, holds: bool, applies: bool) -> None:
    """Assert a claim the source notes make without a number, when ``applies``; otherwise report it.

    Some examples in the notes are comparisons ("retrieving company history for a refund question
    scores lower than retrieving the refund policy") rather than figures. The claim is asserted
    while the inputs are the notes' example; after an edit, whether it still holds is printed.
    Used in notebooks 12–14.

    >>> notes_claim("history chunks score below refund chunks", True, applies=True)
    As in the source notes: history chunks score below refund chunks
    >>> notes_claim("history chunks score below refund chunks", False, applies=False)
    For your inputs it does not hold that history chunks score below refund chunks
    (the source notes' claim is about their example only)
    >>> notes_claim("history chunks score below refund chunks", False, applies=True)
    Traceback (most recent call last):
    ...
    AssertionError: The source notes' example should show that history chunks score below refund chunks, but it does not
    """
    for name, flag in (("holds", holds), ("applies", applies)):
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False, got {flag!r}")
    if not applies:
        verdict = "it holds" if holds else "it does not hold"
        print(f"For your inputs {verdict} that {claim} "
              "(the source notes' claim is about their example only)")
        return
    if not holds:
        raise AssertionError(f"The source notes' example should show that {claim}, but it does not")
    print(f"As in the source notes: {claim}")


def same_inputs(inputs: Mapping, notes_example: Mapping) -> bool:
    """True when every input named in ``notes_example`` has the notes' value in ``inputs``.

    Compares the JSON-typed values of a notebook's parameters cell, so lists compare in order.

    >>> same_inputs({"K": 5, "retrieved": ["a", "b"]}, {"K": 5, "retrieved": ["a", "b"]})
    True
    >>> same_inputs({"K": 3, "retrieved": ["a", "b"]}, {"K": 5, "retrieved": ["a", "b"]})
    False
    """
    missing = [name for name in notes_example if name not in inputs]
    if missing:
        raise KeyError(f"the inputs have no value named {missing[0]!r}")
    return all(inputs[name] == value for name, value in notes_example.items())


@cache
def notes_example(notebook: str) -> dict:
    """The source notes' inputs for one notebook (``notes_examples/<notebook>.json``, key ``inputs``).

    >>> notes_example("06_dcg")
    {'grades': [3, 2, 1, 3], 'K': 4}
    """
    path = EXAMPLES / f"{notebook}.json"
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in EXAMPLES.glob("*.json")))
        raise ValueError(f"no source-notes example is recorded for {notebook!r}; known: {known}")
    return json.loads(path.read_text(encoding="utf-8"))["inputs"]


def on_notes_example(notebook: str, **inputs) -> bool:
    """True while a notebook's ``parameters`` values are still the source notes' example.

    Pass the parameters by name; those the notes' example names are compared (JSON values, so lists
    compare in order), any others are ignored. A name the example needs and the call leaves out
    is an error, so a renamed parameter cannot make every check silently skip.

    >>> on_notes_example("06_dcg", grades=[3, 2, 1, 3], K=4)
    True
    >>> on_notes_example("06_dcg", grades=[3, 2, 1, 3], K=3)
    False
    >>> on_notes_example("06_dcg", grades=[3, 2, 1, 3])
    Traceback (most recent call last):
    ...
    TypeError: on_notes_example('06_dcg', ...) needs the parameter K: the source notes' example names it
    """
    example = notes_example(notebook)
    missing = [name for name in example if name not in inputs]
    if missing:
        raise TypeError(f"on_notes_example({notebook!r}, ...) needs the parameter {missing[0]}: "
                        "the source notes' example names it")
    return same_inputs(inputs, example)
