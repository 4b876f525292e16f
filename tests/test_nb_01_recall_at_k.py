"""Notebook 01 (Recall@K): what its labels and titles say holds after a learner's edit.

The edge cases a learner is invited to try run as parameter sets
(``notebooks/parameter_sets/01_recall_at_k.json``: an empty relevant set and an id retrieved twice
stop before any number is shown); these tests run the few cells a claim depends on in this
process, which costs far less than a kernel.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import run_notebook_cells

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "01_recall_at_k.ipynb"
FIRST_CELLS = ["01-001", "dda92603", "01-006", "01-007"]  # imports, conversion, the walk, Recall@K


@pytest.mark.parametrize("K", [3, 4, 5])
def test_the_four_document_rows_say_nothing_their_top_k_does_not_show(K, capsys):
    """With K = 4 list B holds three of its four relevant documents in its top 4: a row label that
    says a list finds all four (or one) must be true at the K shown."""
    four = run_notebook_cells(NOTEBOOK, [*FIRST_CELLS, "01-009"], {"K": K})["four"]
    capsys.readouterr()
    claims = {"all four": 4, "finds one": 1}
    for label, row in four.iterrows():
        for phrase, count in claims.items():
            if phrase in label:
                assert row[f"found in top {K}"] == count, f"K = {K}: the row {label!r} found {row.iloc[0]}"


def test_the_recall_curve_title_says_what_the_curve_does(capsys):
    """The curve over cut-offs is flat between relevant ranks: a title saying Recall@K only grows is
    false; the title's claims are checked on the notes' example."""
    namespace = run_notebook_cells(NOTEBOOK, [*FIRST_CELLS, "01-020"])
    capsys.readouterr()
    title = namespace["ax"].get_title()
    recall = namespace["walk"]["recall_at_this_rank"].tolist()
    relevant_ranks = namespace["walk"].loc[namespace["walk"]["relevant"], "rank"].tolist()
    up_at = [rank for rank, (before, after) in enumerate(zip([0.0, *recall], recall), 1) if after > before]
    claims = {
        "only grows": all(after > before for before, after in zip(recall, recall[1:])),
        "never falls": all(after >= before for before, after in zip(recall, recall[1:])),
        "steps up at each relevant document": up_at == relevant_ranks,
    }
    made = [claim for claim in claims if claim in title.lower()]
    assert made, f"the title {title!r} makes none of the claims this test knows: add its claim here"
    for claim in made:
        assert claims[claim], f"the title {title!r} says Recall@K {claim}, which the notes' example contradicts"
