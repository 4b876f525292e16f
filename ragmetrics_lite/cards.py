"""Metric cards: one declaration per metric, kept as data in ``data/cards/*.toml``.

A card is a TOML table named after the public function that computes the metric, with six plain
text fields (no LaTeX: the function's docstring keeps the exact formula)::

    [recall_at_k]
    notebook = "01_recall_at_k"          # the stem of the notebook that derives it
    formula = "|relevant ∩ top-k| / |relevant|"
    range = "[0, 1]"
    compares = "the top k of the ranking with every document judged relevant for the query"
    misses = "order inside the top k, graded relevance, how much of the top k is noise"
    use_when = "the generator needs all the relevant passages"

A long value is a TOML multi-line string whose lines end in a backslash (TOML joins them). The
files are grouped by course stage (``retrieval.toml``, ``text.toml``, ...); ``not_metrics.toml``
maps every other public function (a reader, a step of BLEU) to the reason it is not a metric. The
cheat sheet (``docs/cheatsheet.md``) is generated from the cards by ``scripts/study_aids.py``,
which names a retrieval metric as ``evaluate`` takes it (``recall@k``) from ``METRICS``.
"""
from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

__all__ = ["CARD_FIELDS", "metric_cards", "not_metrics"]

CARDS = Path(__file__).with_name("data") / "cards"
CARD_FIELDS = ("notebook", "formula", "range", "compares", "misses", "use_when")
NOT_METRICS = "not_metrics.toml"


def _read(path: Path) -> dict:
    with path.open("rb") as handle:
        return tomllib.load(handle)


@cache
def metric_cards(folder: Path = CARDS) -> dict[str, dict[str, str]]:
    """Every card, by function name, in file-name order then file order.

    >>> metric_cards()["recall_at_k"]["range"]
    '[0, 1]'
    """
    cards: dict[str, dict[str, str]] = {}
    for path in sorted(folder.glob("*.toml")):
        if path.name == NOT_METRICS:
            continue
        for name, card in _read(path).items():
            where = f"{path.name}: the card [{name}]"
            _check_card(card, where)
            if name in cards:
                raise ValueError(f"{where} is declared twice")
            cards[name] = card
    return cards


def _check_card(card: object, where: str) -> None:
    """A card is a table of the six fields, each non-empty text; ``where`` names it in the error."""
    if not isinstance(card, dict):
        raise ValueError(f"{where} is not a table")
    faults = []
    missing = [field for field in CARD_FIELDS if not card.get(field)]
    if missing:
        faults.append(f"lacks {', '.join(missing)}")
    unknown = sorted(set(card) - set(CARD_FIELDS))
    if unknown:
        faults.append(f"has {', '.join(unknown)}")
    if faults:
        raise ValueError(f"{where} {' and '.join(faults)}; a card has {', '.join(CARD_FIELDS)}")
    if not all(isinstance(value, str) for value in card.values()):
        raise ValueError(f"{where} has a field that is not text")


@cache
def not_metrics(folder: Path = CARDS) -> dict[str, str]:
    """Public functions that are not metrics, each with the reason.

    >>> not_metrics()["read_qrels"]
    'reads judgments from a file'
    """
    reasons = _read(folder / NOT_METRICS)
    bad = [name for name, why in reasons.items() if not isinstance(why, str) or not why.strip()]
    if bad:
        raise ValueError(f"{NOT_METRICS}: give {', '.join(bad)} a reason, as text")
    return reasons
