"""scripts/judge_agreement.py: a judge measured against the triad labels.

The lexical judge's held-out table must equal the figures recorded at its freeze
(data/triad/judge_freeze.json); an LLMJudge is driven by a scripted ``complete`` (no network:
an autouse fixture refuses every connection), with the expected figures worked out by hand
from the scripted verdicts and the items' labels. Kappa's bootstrap interval is checked against
rml.cohens_kappa (and sklearn) on every resample and against scipy.stats.bootstrap's interval.
"""
from __future__ import annotations

import doctest
import json
import os
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
import requests
from scipy import stats

import ragmetrics_lite as rml
from ragmetrics_lite.triad import (TRIAD_TASKS, LexicalJudge, LLMJudge, LLMReplyError, judge_items,
                                   meets_agreement_bar, read_triad_labels)
from ragmetrics_lite.triad.labels import TASK_FIELDS
from ragmetrics_lite.triad.llm import LLM_ENVIRONMENT_VARIABLES
from tests.helpers import load_script, refuse_network

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "triad"
FREEZE = json.loads((DATA / "judge_freeze.json").read_text(encoding="utf-8"))
script = load_script(ROOT / "scripts" / "judge_agreement.py", "judge_agreement")


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    refuse_network(monkeypatch)


class Scripted:
    """A ``complete`` that records its prompts and returns its replies in turn."""

    def __init__(self, *replies):
        self.replies, self.prompts = list(replies), []

    def __call__(self, prompt):
        self.prompts.append(prompt)
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            raise reply
        return reply


def cohen_kappa_score(*args, **kwargs):
    """scikit-learn's, imported at its first use: collecting the suite need not load sklearn."""
    from sklearn.metrics import cohen_kappa_score as reference

    return reference(*args, **kwargs)


def reply(word: str, reason: str = "scripted") -> str:
    return json.dumps({"verdicts": [{"verdict": word, "reason": reason}]})


# The first four held-out items of each task, in file order, with their labels (checked below
# against the files): faithfulness f129-f132 are all "direct" items labelled 1; the relevancy
# items alternate 1, 0.
FIRST_FOUR = {
    "faithfulness": (["f129", "f130", "f131", "f132"], [1, 1, 1, 1]),
    "context_relevancy": (["c097", "c098", "c099", "c100"], [1, 0, 1, 0]),
    "answer_relevancy": (["a097", "a098", "a099", "a100"], [1, 0, 1, 0]),
}
SCRIPTED = {
    "faithfulness": ["yes", "no", "yes", "yes"],
    "context_relevancy": ["yes", "no", "no", "no"],
    "answer_relevancy": ["yes", "yes", "yes", "yes"],
}
# By hand, kappa = (p_o - p_e) / (1 - p_e), p_e = sum over labels of P(truth = l) * P(judge = l):
# faithfulness:      3 of 4 agree, p_o 0.75; p_e = 1 * 0.75 + 0 * 0.25 = 0.75; kappa 0: below the bar
#                    (accuracy 0.75 under the majority share of 1.0).
# context_relevancy: 3 of 4 agree, p_o 0.75; p_e = 0.5 * 0.25 + 0.5 * 0.75 = 0.5; kappa 0.5; accuracy
#                    0.75 >= 0.5 + 0.10: meets it.
# answer_relevancy:  2 of 4 agree, p_o 0.5; p_e = 0.5 * 1 + 0.5 * 0 = 0.5; kappa 0: always "yes",
#                    accuracy no better than the majority share: below the bar.
EXPECTED = {
    "faithfulness": {"n": 4, "accuracy": 0.75, "majority_share": 1.0, "kappa": 0.0, "meets_bar": False},
    "context_relevancy": {"n": 4, "accuracy": 0.75, "majority_share": 0.5, "kappa": 0.5, "meets_bar": True},
    "answer_relevancy": {"n": 4, "accuracy": 0.5, "majority_share": 0.5, "kappa": 0.0, "meets_bar": False},
}


def scripted_judge() -> tuple[LLMJudge, Scripted]:
    complete = Scripted(*(reply(word) for task in TRIAD_TASKS for word in SCRIPTED[task]))
    return LLMJudge(complete), complete


@pytest.fixture
def llm_from_environment(monkeypatch):
    """main()'s --judge llm gets the LLMJudge the test sets, as if the variables named an endpoint."""
    judges = []
    monkeypatch.setattr(script, "llm_judge_from_environment", lambda: judges.pop(0))
    monkeypatch.setenv("RAGMETRICS_LLM_MODEL", "scripted-model")
    return judges


# --- the lexical judge: what the freeze recorded ---------------------------------------------

@pytest.fixture(scope="module")
def lexical():
    """The lexical judge's table on each half, measured once."""
    return {split: script.measure(LexicalJudge(), TRIAD_TASKS, split) for split in ("heldout", "dev")}


@pytest.fixture
def lexical_heldout(lexical):
    return lexical["heldout"]


@pytest.mark.parametrize("split", ["heldout", "dev"])
@pytest.mark.parametrize("task", TRIAD_TASKS)
def test_the_lexical_judge_measures_what_the_freeze_recorded(lexical, split, task):
    row = lexical[split].set_index("task").loc[task]
    frozen = FREEZE[split][task]
    assert row["split"] == split
    assert row["n"] == frozen["n"]
    assert row["accuracy"] == pytest.approx(frozen["accuracy"], abs=1e-12)
    assert row["majority_share"] == pytest.approx(frozen["majority_share"], abs=1e-12)
    assert row["kappa"] == pytest.approx(frozen["kappa"], abs=1e-12)
    assert row["meets_bar"] == meets_agreement_bar(frozen)


def test_the_table_lists_the_tasks_in_order_with_its_columns(lexical_heldout):
    assert list(lexical_heldout.columns) == script.COLUMNS
    assert list(lexical_heldout["task"]) == list(TRIAD_TASKS)


def test_judging_item_by_item_equals_judge_items_on_the_whole_split():
    items = read_triad_labels(DATA, "context_relevancy")
    items = items[items["split"] == "dev"]
    kept = []
    script.measure(LexicalJudge(), ["context_relevancy"], "dev", record=kept.append)
    whole = judge_items(items, "context_relevancy", LexicalJudge())
    assert [v["id"] for v in kept] == list(whole["id"])
    assert [v["label"] for v in kept] == list(whole["label"])
    assert [v["judge"] for v in kept] == list(whole["judge"])
    assert [v["reason"] for v in kept] == list(whole["reason"])


def test_main_prints_the_table_and_the_bar(lexical_heldout, capsys):
    assert script.main(["--task", "answer_relevancy"]) == 0
    out = capsys.readouterr().out
    frozen = FREEZE["heldout"]["answer_relevancy"]
    measured = lexical_heldout.set_index("task").loc["answer_relevancy"]
    row = next(line for line in out.splitlines() if line.strip().startswith("answer_relevancy"))
    low, high = measured["kappa_low"], measured["kappa_high"]
    assert row.split() == ["answer_relevancy", "heldout", str(frozen["n"]), f"{frozen['accuracy']:.3f}",
                           f"{frozen['majority_share']:.3f}", f"{frozen['kappa']:.3f}", f"{low:.3f}–{high:.3f}",
                           "yes" if meets_agreement_bar(frozen) else "no"]
    assert "The bar (rml.triad.AGREEMENT_BAR): accuracy >= majority share + 0.10." in out
    assert "Interval: 2,000 resamples of the items with replacement (seed 0); the bar reads accuracy, not kappa." in out
    assert "Model calls" not in out and "LexicalJudge" in out and script.TUNED_ON_DEV not in out
    assert max(len(line) for line in out.splitlines()) <= 100


def test_the_default_judge_measures_what_judge_scores_recorded(capsys):
    """--judge default asks each task's default judge: on answer relevancy the embedding judge, whose
    held-out figures data/triad/judge_scores.json recorded when it was scored."""
    assert script.main(["--judge", "default", "--task", "answer_relevancy"]) == 0
    out = capsys.readouterr().out
    scores = json.loads((DATA / "judge_scores.json").read_text(encoding="utf-8"))
    recorded = scores["heldout"]["answer_relevancy"][scores["default_judge"]["answer_relevancy"]]["heldout"]
    row = next(line for line in out.splitlines() if line.strip().startswith("answer_relevancy")).split()
    assert row[:6] == ["answer_relevancy", "heldout", str(recorded["n"]), f"{recorded['accuracy']:.3f}",
                       f"{recorded['majority_share']:.3f}", f"{recorded['kappa']:.3f}"]
    assert out.startswith("Judge: DefaultJudge") and row[-1] == "yes"


def test_the_interval_holds_the_point_kappa_and_kappa_does_not_decide_the_bar(lexical_heldout):
    for _, row in lexical_heldout.iterrows():
        assert row["kappa_low"] < row["kappa"] < row["kappa_high"], row["task"]
        assert row["kappa_resamples"] == script.RESAMPLES  # ~100 items: no resample is all one label
    wide = lexical_heldout.assign(kappa=0.0, kappa_high=1.0)   # the bar reads accuracy only
    assert [meets_agreement_bar(row) for _, row in wide.iterrows()] == list(lexical_heldout["meets_bar"])


@pytest.mark.parametrize("task", TRIAD_TASKS)
def test_the_interval_equals_scipys_paired_percentile_bootstrap(task):
    """scipy resamples paired items with the same index matrix, so with rml.cohens_kappa as its
    statistic (one call per resample) it is an independent check of the resampling and quantiles."""
    judged = judge_items(script.labelled_items(task), task, LexicalJudge())
    truth, verdicts = judged["label"].to_numpy(), judged["judge"].to_numpy()
    scipys = stats.bootstrap((truth, verdicts), lambda a, b: rml.cohens_kappa(a.tolist(), b.tolist()),
                             paired=True, vectorized=False, method="percentile", n_resamples=500,
                             rng=np.random.default_rng(0)).confidence_interval
    low, high, kept = script.kappa_interval(truth.tolist(), verdicts.tolist(), n_resamples=500, seed=0)
    assert (low, high) == pytest.approx((scipys.low, scipys.high), abs=1e-12) and kept == 500


def test_a_task_alone_gets_the_interval_it_has_in_the_full_table_and_the_seed_moves_it(lexical_heldout):
    alone = script.measure(LexicalJudge(), ["context_relevancy"])
    in_full = lexical_heldout.set_index("task").loc[["context_relevancy"]].reset_index()
    assert alone.equals(in_full)
    reseeded = script.measure(LexicalJudge(), ["context_relevancy"], seed=1, n_resamples=500)
    assert reseeded["kappa"].equals(alone["kappa"]) and reseeded["meets_bar"].equals(alone["meets_bar"])
    assert (reseeded["kappa_low"].iat[0], reseeded["kappa_high"].iat[0]) != (alone["kappa_low"].iat[0],
                                                                               alone["kappa_high"].iat[0])
    assert reseeded["kappa_resamples"].iat[0] == 500


def test_the_readme_shows_what_the_command_prints(capsys):
    """README.md's example output is a real run of the command it quotes (arguments included), not
    typed-in figures."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = re.search(r"scripts/judge_agreement\.py([^`]*)`.*?```text\n(.*?)```", readme, re.S)
    assert shown, "README.md shows no output of scripts/judge_agreement.py"
    assert script.main(shown[1].split()) == 0
    assert capsys.readouterr().out == shown[2]


def test_split_and_limit_choose_the_first_items_of_that_half(tmp_path, capsys):
    path = tmp_path / "verdicts.jsonl"
    assert script.main(["--task", "faithfulness", "--split", "dev", "--limit", "3", "--verdicts", str(path)]) == 0
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [v["id"] for v in lines] == ["f001", "f002", "f003"]
    assert all(set(v) == {"task", "id", "label", "judge", "reason"} for v in lines)
    out = capsys.readouterr().out
    assert " dev " in out and script.TUNED_ON_DEV in out
    all_items = script.labelled_items("faithfulness", "all")
    assert len(all_items) == len(read_triad_labels(DATA, "faithfulness"))


# --- the bootstrap's kappas against rml.cohens_kappa in a loop ----------------------------------

def looped_kappas(truth, judged, indices, kappa):
    """``kappa`` (rml's or sklearn's) on each resample's items, one call per row; NaN where undefined."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # both warn, then return NaN, when p_e is 1
        return np.array([kappa(truth[row].tolist(), judged[row].tolist()) for row in indices], dtype=float)


def label_pairs():
    """0/1 label pairs that reach the edges, then random ones of random sizes and label shares."""
    rng = np.random.default_rng(2026)
    random_labels = rng.integers(0, 2, 30)
    yield "perfect agreement", random_labels, random_labels.copy()
    yield "truth all 1", np.ones(12, int), rng.integers(0, 2, 12)
    yield "judged all 0", rng.integers(0, 2, 12), np.zeros(12, int)
    yield "both all 1", np.ones(7, int), np.ones(7, int)
    yield "all 1 against all 0", np.ones(7, int), np.zeros(7, int)
    yield "n = 2, one agreement", np.array([1, 0]), np.array([1, 1])
    yield "n = 2, opposite", np.array([1, 0]), np.array([0, 1])
    yield "n = 1", np.array([0]), np.array([1])
    for case in range(12):
        n = int(rng.integers(2, 60))
        share_t, share_j = rng.uniform(0.02, 0.98, 2)
        yield f"random {case}", (rng.random(n) < share_t).astype(int), (rng.random(n) < share_j).astype(int)


LABEL_PAIRS = list(label_pairs())


@pytest.mark.parametrize("name, truth, judged", LABEL_PAIRS, ids=[name for name, _, _ in LABEL_PAIRS])
def test_the_vectorised_resample_kappas_equal_cohens_kappa_in_a_loop(name, truth, judged):
    indices = np.random.default_rng(7).integers(0, len(truth), (300, len(truth)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # no 0/0 warning: rows without a kappa are found before dividing
        vectorised = script.resampled_kappas(truth, judged, indices)
    looped = looped_kappas(truth, judged, indices, rml.cohens_kappa)
    np.testing.assert_allclose(vectorised, looped, rtol=0, atol=1e-12)   # NaN where NaN, on the same rows
    sklearn_rows = looped_kappas(truth, judged, indices[:40], cohen_kappa_score)   # rml's equal sklearn's
    np.testing.assert_allclose(vectorised[:40], sklearn_rows, rtol=0, atol=1e-12)
    one_label_rows = [len(set(truth[row]) | set(judged[row])) == 1 for row in indices]
    assert np.isnan(vectorised).tolist() == one_label_rows


@pytest.mark.parametrize("name, truth, judged", LABEL_PAIRS, ids=[name for name, _, _ in LABEL_PAIRS])
def test_the_interval_is_the_quantiles_of_the_resamples_that_have_a_kappa(name, truth, judged):
    indices = np.random.default_rng(3).integers(0, len(truth), (500, len(truth)))
    looped = looped_kappas(truth, judged, indices, rml.cohens_kappa)
    kept = looped[~np.isnan(looped)]
    low, high, count = script.kappa_interval(truth.tolist(), judged.tolist(), n_resamples=500, seed=3)
    assert count == kept.size
    if kept.size:
        assert (low, high) == pytest.approx(tuple(np.quantile(kept, [0.025, 0.975])), abs=1e-12)
    else:
        assert np.isnan(low) and np.isnan(high)


@pytest.mark.parametrize("call, says", [
    (lambda: script.kappa_interval([], []), "no items to resample"),
    (lambda: script.kappa_interval([1, 0], [1, 0], n_resamples=0), "n_resamples must be a whole number from 1 to"),
    (lambda: script.kappa_interval([1, 0], [1, 0], n_resamples=10**6), "from 1 to 100,000, got 1000000"),
    (lambda: script.kappa_interval([1, 0], [1, 0], seed=-1), "seed must be a whole number of at least 0, got -1"),
    (lambda: script.kappa_interval([1, 0], [1, 0], seed="x"), "seed must be a whole number of at least 0, got 'x'"),
    (lambda: script.kappa_interval([1, 0, 1], [1, 0]), "must label the same items: 3 and 2"),
    (lambda: script.kappa_interval([1, 2], [1, 0]), "truth must be a flat list of 0/1 labels"),
    (lambda: script.resampled_kappas([1, 0], ["yes", "no"], [[0, 1]]), "judged must be a flat list of 0/1 labels"),
])
def test_bad_labels_or_resamples_raise_a_clear_error(call, says):
    with pytest.raises(ValueError, match=says):
        call()


# --- an LLM judge with scripted replies ------------------------------------------------------

def test_the_first_four_items_are_the_ones_the_expectations_were_worked_out_for():
    for task, (ids, labels) in FIRST_FOUR.items():
        items = script.labelled_items(task, "heldout", 4)
        assert list(items["id"]) == ids and list(items["label"]) == labels


def test_a_scripted_llm_judge_through_measure():
    judge, complete = scripted_judge()
    kept = []
    table = script.measure(judge, TRIAD_TASKS, "heldout", limit=4, record=kept.append)
    assert len(complete.prompts) == 12 and complete.replies == []  # one call per item
    # each call asked about its own item, in file order
    for prompt, verdict in zip(complete.prompts, kept):
        task, item_id = verdict["task"], verdict["id"]
        items = script.labelled_items(task, "heldout", 4).set_index("id")
        judged_text = items.loc[item_id, TASK_FIELDS[task][1]]
        assert json.dumps(judged_text, ensure_ascii=False) in prompt
    assert [v["judge"] for v in kept] == [int(w == "yes") for t in TRIAD_TASKS for w in SCRIPTED[t]]
    assert [v["label"] for v in kept] == [label for t in TRIAD_TASKS for label in FIRST_FOUR[t][1]]
    assert {v["reason"] for v in kept} == {"scripted"}
    for task, expected in EXPECTED.items():
        row = table.set_index("task").loc[task]
        for column, value in expected.items():
            assert row[column] == pytest.approx(value, abs=1e-12), (task, column)


def test_main_with_an_llm_judge_names_the_model_the_calls_and_the_fairness_condition(
        llm_from_environment, tmp_path, capsys):
    judge, complete = scripted_judge()
    llm_from_environment.append(judge)
    path = tmp_path / "llm.jsonl"
    assert script.main(["--judge", "llm", "--limit", "4", "--verdicts", str(path)]) == 0
    out = capsys.readouterr().out
    assert "model scripted-model" in out
    assert "Model calls: 12." in out and len(complete.prompts) == 12
    assert "fair test of this judge only if its prompts were not tuned on them" in out
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.split()[:1] in (["faithfulness"],
            ["context_relevancy"], ["answer_relevancy"])}
    assert rows["context_relevancy"][-1] == "yes" and rows["faithfulness"][-1] == "no"
    assert len(path.read_text(encoding="utf-8").splitlines()) == 12 and f"Verdicts: 12 lines in {path}." in out


def test_an_unreadable_reply_is_a_parse_failure_beside_the_figures(llm_from_environment, tmp_path, capsys):
    """A reply that cannot be read stopped the run; it is now counted beside the figures, and kept."""
    bad = "Sure! The statement is supported."
    llm_from_environment.append(LLMJudge(Scripted(reply("yes"), reply("no"), bad, reply("yes"))))
    path = tmp_path / "llm.jsonl"
    assert script.main(["--judge", "llm", "--task", "faithfulness", "--limit", "4", "--verdicts", str(path)]) == 0
    out = capsys.readouterr().out
    header, row = [line.split() for line in out.splitlines() if line.split()[:1] in (["task"], ["faithfulness"])]
    assert header[2:5] == ["n", "parse", "failures"] and row[2:4] == ["3", "1"]
    assert "Parse failures: 1 replies could not be read as verdicts" in out
    kept = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert [(v["id"], v["judge"]) for v in kept] == [("f129", 1), ("f130", 0), ("f131", None), ("f132", 1)]
    assert repr(bad) in kept[2]["error"] and "is not JSON" in kept[2]["error"]


def test_measure_counts_parse_failures_and_leaves_them_out_of_the_figures():
    judge = LLMJudge(Scripted(reply("yes"), '{"verdicts": []}', reply("yes"), reply("no")))
    kept = []
    table = script.measure(judge, ["answer_relevancy"], "heldout", limit=4, record=kept.append)
    assert [v["id"] for v in kept] == ["a097", "a098", "a099", "a100"]
    assert "expected 1 verdicts" in kept[1]["error"] and kept[1]["judge"] is None
    assert table.loc[0, "n"] == 3 and table.loc[0, "parse_failures"] == 1 and table.loc[0, "accuracy"] == 1.0
    nothing = script.measure(LLMJudge(Scripted(*["no json"] * 2)), ["answer_relevancy"], "heldout", limit=2)
    assert nothing.loc[0, "n"] == 0 and nothing.loc[0, "parse_failures"] == 2 and np.isnan(nothing.loc[0, "kappa"])


class WithUsage(Scripted):
    """A scripted complete that reports token usage as openai_compatible_complete does."""

    stats = {"requests": 10, "cached": 2, "prompt_tokens": 1234, "completion_tokens": 56, "total_tokens": 1290}


def test_an_llm_run_reports_requests_cache_hits_and_tokens(llm_from_environment, capsys):
    llm_from_environment.append(LLMJudge(WithUsage(*[reply("yes")] * 4)))
    assert script.main(["--judge", "llm", "--task", "faithfulness", "--limit", "4"]) == 0
    out = capsys.readouterr().out
    assert ("Requests sent: 10, replies from the cache: 2; tokens the replies report: prompt 1,234, "
            "completion 56, total 1,290.") in out
    assert " parse failures " in out.splitlines()[1]  # the column is there for an LLM judge, even at 0


def test_an_endpoint_error_stops_with_one_line_naming_the_item(llm_from_environment, capsys):
    down = rml.triad.LLMEndpointError("http://127.0.0.1:9/v1/chat/completions: no answer (Connection refused)")
    llm_from_environment.append(LLMJudge(Scripted(reply("yes"), down)))
    assert script.main(["--judge", "llm", "--task", "answer_relevancy"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["judge_agreement.py: stopped at answer_relevancy item a098 (after 1 verdicts): LLMEndpointError: "
                   "http://127.0.0.1:9/v1/chat/completions: no answer (Connection refused)"]


def test_a_failed_request_stops_with_one_line_naming_the_item(llm_from_environment, capsys):
    refused = requests.ConnectionError("connection refused")
    llm_from_environment.append(LLMJudge(Scripted(reply("yes"), refused)))
    assert script.main(["--judge", "llm", "--task", "context_relevancy"]) == 1
    err = capsys.readouterr().err
    assert "context_relevancy item c098" in err and "connection refused" in err


def test_a_bug_in_a_judge_is_not_hidden_behind_a_one_line_message():
    class Broken(LexicalJudge):
        def support(self, statements, contexts):
            raise ZeroDivisionError("a bug")

    with pytest.raises(script.JudgingStopped) as stopped:
        script.measure(Broken(), ["faithfulness"], "dev", limit=2)
    assert isinstance(stopped.value.__cause__, ZeroDivisionError)


# --- bad arguments and a missing endpoint: exit 2, one line ----------------------------------

def test_llm_without_the_variables_says_how_to_set_them(monkeypatch, capsys):
    for variable in LLM_ENVIRONMENT_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    assert script.main(["--judge", "llm"]) == 2
    captured = capsys.readouterr()
    assert "RAGMETRICS_LLM_BASE_URL" in captured.out and "RAGMETRICS_LLM_MODEL" in captured.out
    assert captured.err.count("\n") == 1 and "--judge llm needs an endpoint" in captured.err


def test_the_conftest_leaves_the_variables_unset():
    assert not any(os.environ.get(variable) for variable in LLM_ENVIRONMENT_VARIABLES)


@pytest.mark.parametrize("argv, says", [
    (["--task", "faithfulnes"], "argument --task: invalid choice: 'faithfulnes'"),
    (["--limit", "0"], "argument --limit: must be a whole number of at least 1, got '0'"),
    (["--limit", "three"], "argument --limit: must be a whole number of at least 1, got 'three'"),
    (["--split", "test"], "argument --split: invalid choice: 'test'"),
    (["--judge", "gpt"], "argument --judge: invalid choice: 'gpt'"),
    (["--verbose"], "unrecognized arguments: --verbose"),
    (["--resamples", "0"], "argument --resamples: must be a whole number from 1 to 100,000, got '0'"),
    (["--resamples", "200000"], "argument --resamples: must be a whole number from 1 to 100,000, got '200000'"),
    (["--seed", "x"], "argument --seed: must be a whole number of at least 0, got 'x'"),
    (["--seed", "-1"], "argument --seed: must be a whole number of at least 0, got '-1'"),
])
def test_bad_arguments_exit_2_with_one_line(argv, says, capsys):
    assert script.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and says in captured.err


def test_an_unwritable_verdicts_file_exits_2_before_judging(tmp_path, capsys):
    assert script.main(["--verdicts", str(tmp_path / "missing" / "v.jsonl")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "cannot write --verdicts" in captured.err


def test_missing_or_broken_labels_exit_2_before_judging(tmp_path, capsys):
    assert script.main(["--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read the faithfulness labels" in err and "faithfulness.jsonl" in err
    (tmp_path / "answer_relevancy.jsonl").write_text('{"id": "a1"}\n', encoding="utf-8")
    assert script.main(["--data", str(tmp_path), "--task", "answer_relevancy"]) == 2
    assert "missing field 'split'" in capsys.readouterr().err


def test_the_scripts_doctests():
    assert doctest.testmod(script, optionflags=doctest.NORMALIZE_WHITESPACE).failed == 0
