"""The metric cards (ragmetrics_lite/data/cards/*.toml, read by ragmetrics_lite.cards): each names a
public function of the package and a notebook that exists, every public function has a card or a
reason in not_metrics.toml, and the loader refuses a malformed card, naming it."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

import ragmetrics_lite as rml
from ragmetrics_lite import cards
from tests.helpers import load_script

ROOT = Path(__file__).resolve().parents[1]
study_aids = load_script(ROOT / "scripts" / "study_aids.py", "study_aids")
PUBLIC = study_aids.public_functions(rml)


def test_every_card_names_a_public_function_and_an_existing_notebook():
    assert len(cards.metric_cards()) >= 25
    for name, card in cards.metric_cards().items():
        assert name in PUBLIC, f"the card [{name}] names no public function of ragmetrics_lite"
        assert (ROOT / "notebooks" / f"{card['notebook']}.ipynb").is_file(), f"[{name}]: {card['notebook']}"


def test_every_reason_names_a_public_function():
    for name, why in cards.not_metrics().items():
        assert name in PUBLIC, f"not_metrics.toml: {name} is not a public function of ragmetrics_lite"
        assert why.strip() == why and why


def test_every_public_function_has_a_card_or_a_reason_not_both():
    metrics, others = set(cards.metric_cards()), set(cards.not_metrics())
    assert not metrics & others
    assert set(PUBLIC) == metrics | others, sorted(set(PUBLIC) ^ (metrics | others))


def test_card_values_are_plain_text_on_one_line():
    for name, card in cards.metric_cards().items():
        for field, value in card.items():
            assert value == " ".join(value.split()), f"[{name}] {field}: stray spaces or a line break"
            assert not re.search(r"[\\$]", value), f"[{name}] {field}: LaTeX belongs in the docstring"


def test_the_card_shown_in_the_loader_docstring_is_a_card():
    example = re.search(r"::\n\n((?:    .*\n)+)", cards.__doc__).group(1)
    parsed = tomllib.loads("\n".join(line[4:] for line in example.splitlines()))
    assert list(parsed) == ["recall_at_k"] and tuple(parsed["recall_at_k"]) == cards.CARD_FIELDS
    assert parsed["recall_at_k"]["formula"] == cards.metric_cards()["recall_at_k"]["formula"]


GOOD = '[fake]\nnotebook = "01_recall_at_k"\nformula = "a"\nrange = "b"\ncompares = "c"\nmisses = "d"\nuse_when = "e"\n'


@pytest.mark.parametrize("text, phrase", [
    (GOOD.replace('misses = "d"\n', ""), "the card [fake] lacks misses; a card has notebook, formula, range"),
    (GOOD.replace("misses =", "blind_spots ="), "the card [fake] lacks misses and has blind_spots;"),
    (GOOD + GOOD.replace("[fake]", "[fake.sub]"), "the card [fake] has sub;"),
    (GOOD.replace('range = "b"', "range = 1"), "the card [fake] has a field that is not text"),
    ('fake = "x"\n', "the card [fake] is not a table"),
])
def test_a_malformed_card_is_refused_by_name(tmp_path, text, phrase):
    (tmp_path / "stage.toml").write_text(text, encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape(f"stage.toml: {phrase}")):
        cards.metric_cards(tmp_path)


def test_a_card_declared_in_two_files_is_refused(tmp_path):
    (tmp_path / "a.toml").write_text(GOOD, encoding="utf-8")
    (tmp_path / "b.toml").write_text(GOOD, encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape("b.toml: the card [fake] is declared twice")):
        cards.metric_cards(tmp_path)


def test_a_reason_must_be_text(tmp_path):
    (tmp_path / "not_metrics.toml").write_text('helper = ""\nother = 3\n', encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape("not_metrics.toml: give helper, other a reason")):
        cards.not_metrics(tmp_path)
