"""The rank playground: its state logic without a browser or kernel, its metrics against
trec_eval, and its widget driven from Python (buttons clicked, slider moved)."""
from __future__ import annotations

import random
import re

import pytest

import ragmetrics_lite as rml
from ragmetrics_lite.course import playground as pg
from ragmetrics_lite.course.playground import EXAMPLE, WIDGET_TEXT, RankPlayground, RankState

from .helpers import run_with_blocked, stdout_under_hash_seeds

NOTES = ({101: 3, 205: 2, 309: 1}, [999, 205, 101, 888, 309])


def notes_state(**kwargs) -> RankState:
    return RankState.build(*NOTES, k=kwargs.pop("k", 5), **kwargs)


# ---------------------------------------------------------------- moves
def test_move_up_swaps_with_the_document_above_and_keeps_the_selection():
    state = notes_state(selected=101).move_up()
    assert state.order == (999, 101, 205, 888, 309)
    assert state.selected == 101 and state.rank == 2
    assert state.start == tuple(NOTES[1])  # the starting ranking is remembered


def test_move_down_swaps_with_the_document_below():
    state = notes_state(selected=205).move_down()
    assert state.order == (999, 101, 205, 888, 309) and state.rank == 3


@pytest.mark.parametrize("doc, move", [(999, "move_up"), (309, "move_down")])
def test_a_move_past_either_end_changes_nothing(doc, move):
    state = notes_state(selected=doc)
    assert getattr(state, move)() == state


def test_moving_the_selection_to_the_top_takes_rank_minus_one_moves():
    state = notes_state(selected=309)
    for _ in range(4):
        state = state.move_up()
    assert state.order == (309, 999, 205, 101, 888) and state.move_up() == state


def test_states_are_immutable_values():
    state = notes_state()
    moved = state.select(205).move_up()
    assert state.order == tuple(NOTES[1]) and state.selected == 999  # the original is untouched
    with pytest.raises(AttributeError):
        state.k = 3


def test_reset_and_best_order():
    state = notes_state(selected=309).move_up().move_up()
    assert state.reset().order == tuple(NOTES[1]) and state.reset().selected == 309
    best = state.best_order()
    assert [best.grade(d) for d in best.order] == [3, 2, 1, 0, 0]
    assert best.metrics()["NDCG@5"] == 1.0  # every judged document is in the ranking


def test_best_order_cannot_reach_ndcg_1_when_a_judged_document_was_missed():
    state = RankState.build(EXAMPLE["grades"], EXAMPLE["ranking"], k=EXAMPLE["k"]).with_k(8).best_order()
    assert state.metrics()["NDCG@8"] == 1.0  # d7 is in the ranking, only last
    missed = RankState.build({"a": 3, "b": 2}, ["b", "x"], k=2).best_order()
    assert missed.metrics()["NDCG@2"] < 1.0 and missed.metrics()["Recall@2"] == 0.5


def test_with_k_changes_only_the_cut_off():
    state = notes_state().with_k(3)
    assert state.k == 3 and state.order == tuple(NOTES[1])
    assert list(state.metrics()) == ["Recall@3", "Hit@3", "Precision@3", "RR@3", "AP@3", "NDCG@3"]


def test_random_moves_keep_a_permutation_and_the_metrics_of_the_helper():
    rng = random.Random(0)
    state = RankState.build(EXAMPLE["grades"], EXAMPLE["ranking"], k=5)
    for _ in range(300):
        action = rng.choice(["up", "down", "select", "k"])
        if action == "up":
            state = state.move_up()
        elif action == "down":
            state = state.move_down()
        elif action == "select":
            state = state.select(rng.choice(state.order))
        else:
            state = state.with_k(rng.randint(1, 10))
        assert sorted(state.order) == sorted(EXAMPLE["ranking"])
        got, k, order = state.metrics(), state.k, list(state.order)
        assert got[f"NDCG@{k}"] == rml.ndcg_at_k(EXAMPLE["grades"], order, k)
        assert got[f"AP@{k}"] == rml.average_precision(EXAMPLE["grades"], order, k=k)
        assert got[f"RR@{k}"] == rml.reciprocal_rank(EXAMPLE["grades"], order, k=k)


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("grades, ranking, k, error, message", [
    ({"a": 1}, [], 5, ValueError, "at least one document"),
    ({"a": 1}, ["a", "b", "a"], 5, ValueError, "more than once"),
    ({"a": 1}, [f"d{i}" for i in range(21)], 5, ValueError, "at most 20"),
    ({101: 1}, ["101"], 5, TypeError, "never equals"),
    ({"a": 1.5}, ["a"], 5, ValueError, "must be an integer"),
    ({"a": 1}, ["a"], 0, ValueError, "k must be >= 1"),
    ({"a"}, ["a"], 5, TypeError, "grades must be a mapping"),
    ({"a": 1}, "ab", 5, TypeError, "not the string"),
])
def test_bad_inputs_get_a_clear_error(grades, ranking, k, error, message):
    with pytest.raises(error, match=message):
        RankState.build(grades, ranking, k=k)


def test_selecting_a_document_outside_the_ranking_is_refused():
    with pytest.raises(ValueError, match="777 is not in the ranking"):
        notes_state().select(777)
    with pytest.raises(ValueError, match="k must be >= 1"):
        notes_state().with_k(0)


# ---------------------------------------------------------------- metrics
def test_the_metrics_come_from_the_helper_functions(monkeypatch):
    """Nothing is re-implemented: replacing a helper function changes the playground's number."""
    monkeypatch.setattr(rml.retrieval, "ndcg_at_k", lambda *args, **kwargs: 0.123)
    monkeypatch.setattr(rml.retrieval, "average_precision", lambda *args, **kwargs: 0.456)
    metrics = notes_state().metrics()
    assert metrics["NDCG@5"] == 0.123 and metrics["AP@5"] == 0.456


def test_the_metrics_agree_with_trec_eval_on_random_states():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = random.Random(1)
    for _ in range(150):
        pool = [f"d{i}" for i in range(1, 10)]
        grades = {d: rng.randint(-1, 3) for d in rng.sample(pool, rng.randint(0, 6))}
        state = RankState.build(grades, rng.sample(pool, rng.randint(1, 9)), k=rng.randint(1, 10))
        for _ in range(rng.randint(0, 5)):
            state = state.select(rng.choice(state.order)).move_up()
        k, order = state.k, list(state.order)
        qrels = {"q": {d: g for d, g in grades.items()}}
        run = {"q": {d: float(len(order) - i) for i, d in enumerate(order)}}
        top_k = {"q": {d: float(k - i) for i, d in enumerate(order[:k])}}
        ours = state.metrics()
        if not grades:  # trec_eval skips a query without judgments; the helper scores it 0
            assert set(ours.values()) == {0.0}
            continue
        measures = {f"recall.{k}", f"success.{k}", f"P.{k}", f"map_cut.{k}", f"ndcg_cut.{k}"}
        trec = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)["q"]
        rr = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(top_k)["q"]["recip_rank"]
        expected = {f"Recall@{k}": trec[f"recall_{k}"], f"Hit@{k}": trec[f"success_{k}"],
                    f"Precision@{k}": trec[f"P_{k}"], f"RR@{k}": rr, f"AP@{k}": trec[f"map_cut_{k}"],
                    f"NDCG@{k}": trec[f"ndcg_cut_{k}"]}
        for name, value in expected.items():
            assert ours[name] == pytest.approx(value, abs=1e-9), (name, grades, order, k)


def test_the_table_shows_the_change_against_the_starting_ranking_at_the_same_k():
    state = notes_state(selected=101, k=3).move_up().move_up()
    table = state.metrics_table()
    assert list(table.columns) == ["value", "change"] and table.index.name == "metric"
    start = notes_state(k=3).metrics()
    for name, row in table.iterrows():
        assert row["change"] == pytest.approx(row["value"] - start[name], abs=1e-15)
    assert table.loc["RR@3", "value"] == 1.0 and table.loc["RR@3", "change"] == pytest.approx(1 - 1 / 2)


# ---------------------------------------------------------------- text
def test_text_marks_the_cut_off_and_the_selection():
    text = notes_state(selected=101, k=2).text()
    lines = text.splitlines()
    assert lines[0] == "ranking (K = 2), selected: 101 at rank 3"
    assert lines[2] == "doc    999 205 | 101 888 309"
    assert lines[4].index("^") == lines[2].index("101") + 2  # under the selected document
    assert "change" not in text  # nothing moved yet
    assert "change" in notes_state(selected=101, k=2).move_up().text()


def test_text_with_k_past_the_end_of_the_ranking():
    text = notes_state(k=8).text()
    assert text.startswith("ranking (K = 8, past the last of 5 documents)") and "|" not in text
    assert "Precision@8   0.3750" in text  # 3 relevant / 8: precision divides by k


def test_text_is_the_same_whatever_the_hash_seed():
    outputs = stdout_under_hash_seeds("""
        from ragmetrics_lite.course.playground import EXAMPLE, RankState
        state = RankState.build(EXAMPLE["grades"], EXAMPLE["ranking"], k=5)
        print(state.select("d7").move_up().move_up().text())
    """)
    assert outputs[0] == outputs[1] and "NDCG@5" in outputs[0]


# ---------------------------------------------------------------- the widget, driven from Python
@pytest.fixture
def playground():
    pytest.importorskip("ipywidgets")
    return RankPlayground(notes_state())


def test_clicking_a_document_selects_it_and_the_buttons_move_it(playground):
    playground.strip[2].click()  # rank 3: document 101
    assert playground.state.selected == 101
    playground.up.click()
    assert playground.state.order == (999, 101, 205, 888, 309)
    assert playground.strip[1].description == "101 (3)"
    assert playground.strip[1].layout.border.startswith("3px solid #222")  # the selection follows it
    assert "0.6887" in playground.metrics.value  # NDCG@5 of the new order
    playground.down.click()
    assert playground.state.order == tuple(NOTES[1])


def test_the_move_buttons_are_disabled_at_the_ends(playground):
    assert playground.up.disabled and not playground.down.disabled  # rank 1 is selected
    playground.strip[4].click()
    assert not playground.up.disabled and playground.down.disabled


def test_the_slider_changes_k_and_moves_the_cut_off(playground):
    playground.k.value = 2
    assert playground.state.k == 2 and "NDCG@2" in playground.metrics.value
    children = playground.strip_row.children
    assert children[2] is playground.cutoff and "K=2" in playground.cutoff.value
    assert playground.k.max == 5


def test_reset_and_sort_buttons(playground):
    playground.strip[4].click()
    playground.up.click()
    playground.best.click()
    assert [playground.state.grade(d) for d in playground.state.order] == [3, 2, 1, 0, 0]
    playground.reset.click()
    assert playground.state.order == tuple(NOTES[1])


def test_the_widget_text_is_fixed_and_holds_no_model_id(playground):
    bundle = playground._repr_mimebundle_()
    model_id = bundle["application/vnd.jupyter.widget-view+json"]["model_id"]
    assert bundle["text/plain"] == WIDGET_TEXT and model_id not in bundle["text/plain"]
    assert not re.search(r"[0-9a-f]{32}", WIDGET_TEXT)


def test_rank_playground_prints_the_table(capsys):
    pytest.importorskip("ipywidgets")
    returned = rml.rank_playground(*NOTES, k=5)
    printed = capsys.readouterr().out
    assert printed.startswith(returned.state.text() + "\n")
    assert "NDCG@5        0.6612" in printed


def test_the_state_works_without_ipywidgets_and_the_widget_says_what_is_missing():
    out = run_with_blocked("""
        import sys
        import ragmetrics_lite as rml
        from ragmetrics_lite.course.playground import RankPlayground, RankState
        assert "ipywidgets" not in sys.modules and "matplotlib" not in sys.modules
        state = RankState.build({"a": 2}, ["b", "a"], k=1, selected="a").move_up()
        print(state.metrics()["NDCG@1"])
        try:
            RankPlayground(state)
        except ImportError as error:
            print(error)
    """, blocked=("ipywidgets",))
    assert out.splitlines()[0] == "1.0" and "needs ipywidgets 8" in out


def test_notebook_07_stores_the_printed_table_and_no_widget_state():
    """Stored outputs are identical run to run: no widget state, no random model id.

    Fails if 07 is re-executed by a client that stores widget state (nbclient's default
    ``store_widget_state=True``) or keeps the widget view, whose model id changes every run.
    """
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "notebooks" / "07_ndcg.ipynb"
    notebook = json.loads(path.read_text(encoding="utf-8"))
    assert "widgets" not in notebook["metadata"]
    cells = [c for c in notebook["cells"] if "rml.rank_playground(" in "".join(c["source"])]
    assert len(cells) == 1
    printed = "".join("".join(o.get("text", "")) for o in cells[0]["outputs"])
    assert printed.startswith("ranking (K = ") and "NDCG@" in printed
    stored = json.dumps(notebook)
    assert "widget-view+json" not in stored and not re.search(r'"model_id"', stored)
