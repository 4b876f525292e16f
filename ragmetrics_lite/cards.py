"""Metric cards: one declaration per metric, kept as data in ``data/cards/*.toml``.

A card is a TOML table named after the public function that computes the metric::

    [recall_at_k]
    notebook = "01_recall_at_k"          # the notebook that derives it
    formula = "|relevant ∩ top-k| / |relevant|"
    range = "[0, 1]"
    compares = "the top k of the ranking with every document judged relevant for the query"
    misses = "order inside the top k, graded relevance, how much of the top k is noise"
    use_when = "the generator needs all the relevant passages"

Retrieval metrics add what ``evaluate`` needs: ``evaluate`` (the metric's name there),
``cutoff`` (``"required"``, ``"optional"`` or ``"none"``) and ``trec_eval`` (trec_eval's measure
without and with the cut-off, ``""`` where it has none). The cheat sheet (``docs/cheatsheet.md``)
is generated from the cards; ``not_metrics.toml`` names the public functions that are not metrics
(a reader, a step of BLEU) with the reason.
"""
from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

__all__ = ["CARD_FIELDS", "metric_cards", "not_metrics"]

CARDS = Path(__file__).with_name("data") / "cards"
CARD_FIELDS = ("notebook", "formula", "range", "compares", "misses", "use_when")


def _read(path: Path) -> dict:
    with path.open("rb") as handle:
        return tomllib.load(handle)


@cache
def metric_cards() -> dict[str, dict]:
    """Every card, by function name, in file-name order then file order."""
    cards: dict[str, dict] = {}
    for path in sorted(CARDS.glob("*.toml")):
        if path.name == "not_metrics.toml":
            continue
        for name, card in _read(path).items():
            missing = [field for field in CARD_FIELDS if not card.get(field)]
            if missing:
                raise ValueError(f"{path.name}: the card [{name}] lacks {', '.join(missing)}")
            if name in cards:
                raise ValueError(f"{path.name}: the card [{name}] is declared twice")
            cards[name] = card
    return cards


@cache
def not_metrics() -> dict[str, str]:
    """Public functions that are not metrics, each with the reason."""
    path = CARDS / "not_metrics.toml"
    return _read(path) if path.exists() else {}
