"""scripts/lexical_ceiling.py: how far lexical signals go on the triad labels, one round left out.

The frozen judge's round-3 column must equal the held-out kappas recorded at its freeze (round 3 is
the held-out set); the fitted designs give a kappa for every (task, round); the script's doctests pass.
"""
import doctest
import json
from pathlib import Path

import numpy as np
import pytest

from ragmetrics_lite.triad import TRIAD_TASKS
from tests.helpers import load_script

ROOT = Path(__file__).resolve().parents[1]
ceiling = load_script(ROOT / "scripts" / "lexical_ceiling.py")
FREEZE = json.loads((ROOT / "data" / "triad" / "judge_freeze.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def table():
    return ceiling.ceiling_table()


def test_the_frozen_judge_on_round_3_is_its_recorded_held_out_kappa(table):
    frozen = table.xs(ceiling.DESIGNS[0], level="design")["round 3 left out (clean)"]
    recorded = [FREEZE["heldout"][task]["kappa"] for task in TRIAD_TASKS]
    assert np.allclose(frozen.loc[list(TRIAD_TASKS)], recorded, rtol=0, atol=1e-12)


def test_every_task_design_and_round_has_a_kappa(table):
    assert list(table.index) == [(t, d) for t in TRIAD_TASKS for d in ceiling.DESIGNS]
    assert table.shape == (9, 3) and ((table >= -1) & (table <= 1)).all().all()


def test_the_rounds_match_the_label_files(table):
    items = ceiling.read_triad_labels(ceiling.DATA, "context_relevancy")
    rounds = [ceiling.labelling_round(i, "context_relevancy") for i in items["id"]]
    assert all((r == 3) == (split == "heldout") for r, split in zip(rounds, items["split"]))  # round 3 is held out
    assert rounds.count(1) == rounds.count(2) == 48


def test_the_scripts_doctests():
    result = doctest.testmod(ceiling, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def test_main_prints_the_table(capsys):
    assert ceiling.main(["--C", "0.3"]) == 0
    out = capsys.readouterr().out
    assert "round 3 left out (clean)" in out and "fitted, hard rules as vetoes" in out
