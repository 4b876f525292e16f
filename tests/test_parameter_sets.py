"""Notebooks survive a learner's edits: each committed alternative parameter set runs without error,
or, where the set names an error, stops with it before showing anything.

For every ``notebooks/parameter_sets/NN_name.json`` and every set in it, the set's values are
injected after the notebook's ``parameters`` cell (papermill's convention) and the notebook runs.
A set without ``error`` runs every cell with errors allowed, and the test fails listing each cell
(by id) that has an error output. A set with ``"error": {"type": ..., "message": ...}`` runs up to
the first error, which must be of that class, hold that phrase and come after the parameters cell,
with no output shown after the parameters cell before it. The injection, the run and the verdict
are shared with ``scripts/run_parameter_sets.py``, which notebook authors run by hand. To save
kernel start-ups and imports, the set files are split over three kernels
(``tests.helpers.parameter_set_kernel``), each running its notebooks' sets in turn with the
namespace emptied before every set, and figures laid out without being painted or encoded as PNG
(``harness.iter_notebooks``, which hands over each file's runs as soon as they are done, so the
tests report notebook by notebook); a set that expects an error costs only the cells up to its error.
The second half tests that harness on tiny synthetic notebooks.
"""
from __future__ import annotations

import doctest
import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from tests.helpers import load_script, parameter_set_kernel

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "run_parameter_sets.py"
harness = load_script(SCRIPT)

SET_FILES = sorted(harness.SETS_DIR.glob("*.json"))
REQUIRED = ["01", "04", "07", "08"]  # the notebooks a learner is most invited to edit


def cases() -> list:
    """One pytest case per (file, set); a file that cannot be read becomes one failing case."""
    found = []
    for path in SET_FILES:
        try:
            sets = harness.load_set_file(path)["sets"]
        except harness.ParameterSetError as error:
            found.append(pytest.param(path, str(error), id=f"{path.stem}[unreadable]"))
            continue
        found += [pytest.param(path, item, id=f"{path.stem}[{item['name']}]") for item in sets]
    return found


# --- the committed parameter sets -------------------------------------------------------------

def test_the_notebooks_learners_edit_most_have_parameter_sets():
    have = {path.name[:2] for path in SET_FILES}
    missing = [number for number in REQUIRED if number not in have]
    assert not missing, f"no notebooks/parameter_sets/NN_name.json for notebook(s) {missing}"


@pytest.mark.parametrize("path", SET_FILES, ids=lambda p: p.name)
def test_set_file_is_valid(path):
    problems = harness.validate(path)
    assert not problems, f"{path.name}:\n" + "\n".join(problems)


class _KernelRuns:
    """The runs of one shared kernel's set files, taken from ``harness.iter_notebooks`` file by file
    as the tests ask for them (the tests of a kernel run in file order, so each file's tests report
    as soon as its sets have run)."""

    def __init__(self, kernel: int):
        self.files = [p for p in SET_FILES if parameter_set_kernel(p.stem) == kernel and not harness.validate(p)]
        self.data = [harness.load_set_file(p) for p in self.files]
        self.pending = harness.iter_notebooks([(harness.NOTEBOOK_DIR / d["notebook"], d["sets"]) for d in self.data])
        self.done: dict[Path, dict] = {}
        self.error: Exception | None = None

    def runs(self, path: Path) -> dict[str, "harness.SetRun"]:
        while path not in self.done and self.error is None:
            position = len(self.done)
            try:
                result = next(self.pending)
            except Exception as error:  # noqa: BLE001 (reported by this and every later file's tests)
                self.error = error
                break
            self.done[self.files[position]] = {item["name"]: run for item, run in zip(self.data[position]["sets"], result)}
        if path not in self.done:
            raise self.error
        return self.done[path]


_KERNELS: dict[int, _KernelRuns] = {}


def _runs_of_every_set(path: Path) -> dict[str, "harness.SetRun"]:
    """Each set's run (``harness.SetRun``) by set name for one set file, from its kernel's run.

    Every valid set file of the kernel (``parameter_set_kernel``) is run once, in one kernel
    (``harness.iter_notebooks``), in file order; a run that raises (a cell timeout, a dead kernel)
    fails the tests of that file and of the kernel's later files with its error, without running again.
    """
    kernel = parameter_set_kernel(path.stem)
    if kernel not in _KERNELS:
        _KERNELS[kernel] = _KernelRuns(kernel)
    return _KERNELS[kernel].runs(path)


@pytest.mark.parametrize("path, item", cases())
def test_notebook_runs_without_error_on_the_set(path, item):
    """(Named so for conftest.py's scheduler.) Runs clean, or stops with the set's error before any output."""
    if isinstance(item, str):
        pytest.fail(item)
    data = harness.load_set_file(path)
    assert not harness.validate(path), "the set file is invalid: see test_set_file_is_valid"
    problems = harness.verdict(item, _runs_of_every_set(path)[item["name"]])
    assert not problems, f"{data['notebook']} with {item['parameters']}:\n" + "\n".join(problems)


# --- the harness, on tiny synthetic notebooks ---------------------------------------------------
# Kernels are what cost here (~1.5-2 s each), so the synthetic notebooks' sets run once for the
# module: ``shared_runs`` runs every notebook's sets in ONE kernel (``harness.run_notebooks``), as
# the committed sets run, and ``script_run`` runs the tiny notebook's set file through the command
# line, which starts a fresh kernel per set (``harness.run_set``, the reference) and saves each
# executed copy. Each test asserts on its part; a fresh kernel of its own is started only by the
# test that compares a stopped set's fresh run with its shared one.

def tiny_notebook(folder: Path, name: str = "99_tiny.ipynb") -> Path:
    """Parameters K and items; cell 'take' fails when K is longer than the list."""
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    parameters = nbformat.v4.new_code_cell('K = 2  # cut-off\nitems = ["a", "b", "c"]\nweights = {"a": 1.5}',
                                           id="inputs")
    parameters.metadata["tags"] = ["parameters"]
    notebook.cells = [
        nbformat.v4.new_markdown_cell("# Tiny", id="title"),
        parameters,
        nbformat.v4.new_code_cell("top = items[:K]", id="convert"),
        nbformat.v4.new_code_cell('assert K <= len(items), f"K = {K} but only {len(items)} items"', id="take"),
        nbformat.v4.new_code_cell("print(top, K, weights)", id="show"),
    ]
    path = folder / name
    nbformat.write(notebook, path)
    return path


def write_sets(folder: Path, sets: list, notebook: str = "99_tiny.ipynb", name: str = "99_tiny.json") -> Path:
    path = folder / name
    path.write_text(json.dumps({"notebook": notebook, "sets": sets}, ensure_ascii=False), encoding="utf-8")
    return path


def leftover_notebooks(folder: Path) -> None:
    """96_leftover, the tiny notebook with a cell reading ``leftover`` right after the parameters and a
    last cell defining it, and 98_other, whose cell reads ``leftover`` and the tiny notebook's ``top``."""
    notebook = nbformat.read(tiny_notebook(folder, "96_leftover.ipynb"), as_version=4)
    notebook.cells.insert(2, nbformat.v4.new_code_cell("print(leftover)", id="reads-leftover"))
    notebook.cells.append(nbformat.v4.new_code_cell("leftover = K", id="defines-leftover"))
    nbformat.write(notebook, folder / "96_leftover.ipynb")
    other = nbformat.v4.new_notebook(metadata=notebook.metadata)
    other.cells = [nbformat.v4.new_code_cell("K = 1", id="inputs", metadata={"tags": ["parameters"]}),
                   nbformat.v4.new_code_cell("print(K, leftover, top)", id="reads-both")]
    nbformat.write(other, folder / "98_other.ipynb")


def plot_notebook(folder: Path) -> Path:
    """97_plot: its cell 'plot' shows a figure titled with the parameter ``title``."""
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.cells = [
        nbformat.v4.new_code_cell('title = "recall"', id="inputs", metadata={"tags": ["parameters"]}),
        nbformat.v4.new_code_cell("%matplotlib inline\nimport matplotlib.pyplot as plt", id="setup"),
        nbformat.v4.new_code_cell("fig, ax = plt.subplots()\nax.set_title(title)\nplt.show()", id="plot"),
        nbformat.v4.new_code_cell("print(len(title))", id="after"),
    ]
    path = folder / "97_plot.ipynb"
    nbformat.write(notebook, path)
    return path


def early_error_notebook(folder: Path) -> Path:
    """95_early: the guarded notebook (below) with its first cell, before the parameters, raising."""
    path = guarded_notebook(folder, "95_early.ipynb")
    notebook = nbformat.read(path, as_version=4)
    notebook.cells[0].source = 'raise ValueError("only 3 items, says the set-up")'
    nbformat.write(notebook, path)
    return path


TITLES = {"fine": {"title": "$\\frac{1}{2}$"}, "broken": {"title": "$\\frac{1}$"}}  # mathtext, drawn or not


def shared_sets() -> dict[str, list[dict]]:
    """{notebook: its sets}, in the order the shared kernel runs them (a set of the early-error
    notebook expects the error the guarded notebook's check raises)."""
    return {"99_tiny.ipynb": [{"parameters": parameters} for parameters in TINY_SETS],
            "96_leftover.ipynb": [{"parameters": {"K": 1}}, {"parameters": {"K": 2}}],
            "98_other.ipynb": [{"parameters": {"K": 3}}],
            "97_plot.ipynb": [{"parameters": TITLES["fine"]}, {"parameters": TITLES["broken"]}],
            "99_guarded.ipynb": list(GUARDED_SETS.values()),
            "95_early.ipynb": [EARLY_SET]}


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory) -> Path:
    """A folder holding every synthetic notebook of this module."""
    folder = tmp_path_factory.mktemp("synthetic")
    tiny_notebook(folder)
    leftover_notebooks(folder)
    plot_notebook(folder)
    guarded_notebook(folder)
    early_error_notebook(folder)
    return folder


@pytest.fixture(scope="module")
def shared_runs(synthetic) -> dict[str, list]:
    """{notebook: [SetRun of each of its sets in ``shared_sets()``]}, all of them in ONE kernel, one
    notebook after another (``harness.run_notebooks``; a mathtext traceback takes ~1 s of it)."""
    jobs = shared_sets()
    return dict(zip(jobs, harness.run_notebooks([(synthetic / name, sets) for name, sets in jobs.items()])))


SCRIPT_SETS = [
    {"name": "K = 1", "parameters": {"K": 1, "items": ["z"]}},  # harmless
    {"name": "K past the list", "parameters": {"K": 5}},         # cell 'take' raises
    {"name": "K = 2", "parameters": {"K": 2}},                   # harmless
    {"name": "K past the list, refused", "parameters": {"K": 4},
     "error": {"type": "AssertionError", "message": "only 3 items"}},
    {"name": "K past the list, wrong type", "parameters": {"K": 4}, "error": {"type": "ValueError", "message": "only"}},
]
TINY_SETS = [item["parameters"] for item in SCRIPT_SETS[:3]]  # harmless, K past the list, harmless
TINY_COPIES = ["99_tiny__K_1.ipynb", "99_tiny__K_past_the_list.ipynb", "99_tiny__K_2.ipynb"]  # saved by the script


@pytest.fixture(scope="module")
def script_run(synthetic):
    """(the set file, the finished process): ``scripts/run_parameter_sets.py`` run by hand on a set file
    of the tiny notebook holding SCRIPT_SETS, each set in a fresh kernel, executed copies in out/."""
    sets = write_sets(synthetic, SCRIPT_SETS)
    command = [sys.executable, str(SCRIPT), str(sets), "--notebooks", str(synthetic), "--out", str(synthetic / "out")]
    return sets, subprocess.run(command, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def tiny_runs(synthetic, script_run):
    """[(cell errors, executed copy) of each of TINY_SETS, each in a fresh kernel]: the copies the
    script saved, read back, their errors found as ``harness.run_set`` finds them (``harness.outcome``)."""
    runs = []
    for name in TINY_COPIES:
        copy = synthetic / "out" / name
        assert copy.is_file(), f"the script saved no {name}:\n{script_run[1].stdout}{script_run[1].stderr}"
        done = nbformat.read(copy, as_version=4)
        runs.append((harness.outcome(done).errors, done))
    return runs


def replay_saved_runs(monkeypatch) -> list[str]:
    """Make ``harness.run_set`` read a set's run back from the executed copy that ``script_run`` saved
    where the script saves it, instead of starting its kernel again; returns the names of the sets run."""
    asked = []

    def replay(notebook_path, item, save_to=None):
        asked.append(item["name"])
        return harness.outcome(nbformat.read(save_to, as_version=4))

    monkeypatch.setattr(harness, "run_set", replay)
    return asked


def test_injected_cell_goes_right_after_the_parameters_cell(tmp_path):
    notebook = nbformat.read(tiny_notebook(tmp_path), as_version=4)
    injected = harness.inject(notebook, {"K": 3, "items": ["x", "召回"], "weights": {"x": 0.5}})
    assert [c.get("id") for c in injected.cells] == ["title", "inputs", "injected-parameters", "convert", "take", "show"]
    cell = injected.cells[2]
    assert cell.metadata["tags"] == ["injected-parameters"]
    assert cell.source.splitlines()[1:] == ["K = 3", "items = ['x', '召回']", "weights = {'x': 0.5}"]
    assert len(notebook.cells) == 5  # the original is not changed
    nbformat.validate(injected)


def test_a_set_that_makes_a_cell_raise_is_reported_with_that_cells_id(tiny_runs):
    errors, done = tiny_runs[1]  # the set K = 5
    assert [(e["cell_id"], e["code_cell"], e["error"]) for e in errors] == [
        ("take", 4, "AssertionError: K = 5 but only 3 items")]
    assert (errors[0]["type"], errors[0]["message"]) == ("AssertionError", "K = 5 but only 3 items")
    assert errors[0]["line"].endswith("1 assert K <= len(items), f\"K = {K} but only {len(items)} items\"")
    assert done.cells[-1].outputs[0]["text"] == "['a', 'b', 'c'] 5 {'a': 1.5}\n"  # later cells still ran


def test_a_harmless_set_reports_nothing_and_really_is_injected(tiny_runs):
    errors, done = tiny_runs[0]  # the set K = 1, items = ['z']
    assert errors == []
    assert done.cells[-1].outputs[0]["text"] == "['z'] 1 {'a': 1.5}\n"


def test_sets_in_one_kernel_give_what_a_fresh_kernel_per_set_gives(tiny_runs, shared_runs):
    assert [run.errors for run in shared_runs["99_tiny.ipynb"]] == [errors for errors, _ in tiny_runs]


def test_run_sets_is_run_notebooks_for_one_notebook(monkeypatch):
    """``run_sets`` (kept for authors) hands its one notebook to ``run_notebooks``, which the tests run."""
    calls = []
    monkeypatch.setattr(harness, "run_notebooks", lambda jobs, timeout=300: calls.append((jobs, timeout)) or [["runs"]])
    assert harness.run_sets(Path("99_tiny.ipynb"), [{"parameters": {"K": 1}}], timeout=7) == ["runs"]
    assert calls == [([(Path("99_tiny.ipynb"), [{"parameters": {"K": 1}}])], 7)]


def test_sets_in_one_kernel_share_no_names(shared_runs):
    """A name left by one set, or by another notebook of the kernel, must not rescue the next one:
    the namespace is emptied before every set (96_leftover's sets K = 1 and K = 2, then 98_other's)."""
    first, second = [run.errors for run in shared_runs["96_leftover.ipynb"]]
    (third,) = [run.errors for run in shared_runs["98_other.ipynb"]]
    assert [e["cell_id"] for e in first] == [e["cell_id"] for e in second] == ["reads-leftover"]
    assert second[0]["error"] == "NameError: name 'leftover' is not defined"
    assert [(e["cell_id"], e["error"]) for e in third] == [("reads-both", "NameError: name 'leftover' is not defined")]


def test_a_figure_that_fails_to_draw_fails_the_set(shared_runs):
    """In one kernel figures are laid out but neither painted nor encoded as PNG (``harness.BETWEEN_SETS``); an error
    raised while drawing (here mathtext that does not parse, found only at draw time) must still be
    the plot cell's error, as when the inline backend saves the PNG, in a set after another (97_plot's
    fine title, then its broken one)."""
    first, second = [run.errors for run in shared_runs["97_plot.ipynb"]]
    assert first == []
    assert [(e["cell_id"], e["error"].split(":")[0]) for e in second] == [("plot", "ValueError")], second
    assert "Expected \\frac{num}{den}" in second[0]["error"]
    assert second[0]["line"].endswith("figure.draw_without_rendering()"), second[0]["line"]  # laid out, not saved


def test_one_kernel_runs_notebooks_of_one_folder_only(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with pytest.raises(harness.ParameterSetError, match="one kernel runs notebooks of one folder"):
        harness.run_notebooks([(tiny_notebook(tmp_path / "a"), [{"parameters": {"K": 1}}]),
                               (tiny_notebook(tmp_path / "b"), [{"parameters": {"K": 1}}])])


# --- the expected-error mode -------------------------------------------------------------------

def guarded_notebook(folder: Path, name: str = "99_guarded.ipynb") -> Path:
    """Cell 'check' refuses a K past the list before showing anything, but a K below 1 only after
    printing; cell 'late' refuses an empty label after 'show' printed; cell 'after' leaves a file
    named after the label behind when it runs (the kernel starts in the notebook's folder)."""
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    parameters = nbformat.v4.new_code_cell('K = 2\nitems = ["a", "b", "c"]\nlabel = "top"', id="inputs")
    parameters.metadata["tags"] = ["parameters"]
    notebook.cells = [
        nbformat.v4.new_code_cell("import pathlib", id="imports"),
        parameters,
        nbformat.v4.new_markdown_cell("The first cell after the parameters checks them.", id="prose"),
        nbformat.v4.new_code_cell('if K > len(items):\n    raise ValueError(f"K = {K} but only {len(items)} items")\n'
                                  'print(f"{K} of {len(items)} items")\n'
                                  'if K < 1:\n    raise ValueError(f"K = {K} must be at least 1")', id="check"),
        nbformat.v4.new_code_cell("print(label, items[:K])", id="show"),
        nbformat.v4.new_code_cell('if not label:\n    raise ValueError("label is empty")', id="late"),
        nbformat.v4.new_code_cell('pathlib.Path(f"after-ran-{label}.txt").write_text("ran")\nlen(items)', id="after"),
    ]
    path = folder / name
    nbformat.write(notebook, path)
    return path


def expects(parameters: dict, kind: str, phrase: str) -> dict:
    return {"name": f"{parameters} {kind} {phrase}", "parameters": parameters,
            "error": {"type": kind, "message": phrase}}


GUARDED_SETS = {  # "stops as told" alone has the label "stops": only it would leave after-ran-stops.txt
    "stops as told": expects({"K": 5, "label": "stops"}, "ValueError", "only 3 items"),
    "another type": expects({"K": 5}, "TypeError", "only 3 items"),
    "phrase missing": expects({"K": 5}, "ValueError", "too many"),
    "phrase in another case": expects({"K": 5}, "ValueError", "Only 3 items"),
    "output in an earlier cell": expects({"label": ""}, "ValueError", "label is empty"),
    "output earlier in its own cell": expects({"K": 0}, "ValueError", "at least 1"),
    "nothing raised": expects({"K": 1}, "ValueError", "items"),
    "no error expected, none raised": {"name": "clean", "parameters": {"K": 3}},
    "no error expected, one raised": {"name": "dirty", "parameters": {"K": 5}},
}
EARLY_SET = expects({"K": 5}, "ValueError", "only 3 items")  # for 95_early, whose first cell raises


@pytest.fixture(scope="module")
def guarded_runs(shared_runs):
    """{label: SetRun} of GUARDED_SETS, run one after another in the shared kernel (``shared_runs``)."""
    return dict(zip(GUARDED_SETS, shared_runs["99_guarded.ipynb"]))


def problems_of(guarded_runs, label: str) -> list[str]:
    return harness.verdict(GUARDED_SETS[label], guarded_runs[label])


def test_an_expected_error_raised_before_any_output_passes(guarded_runs):
    assert problems_of(guarded_runs, "stops as told") == []
    run = guarded_runs["stops as told"]
    assert [(e["cell_id"], e["type"]) for e in run.errors] == [("check", "ValueError")]  # stopped there
    assert run.shown_before_error == [] and run.injected_code_cell == 3


def test_an_expected_error_of_another_type_fails(guarded_runs):
    assert problems_of(guarded_runs, "another type") == [
        "expected TypeError with 'only 3 items' in its message, but cell check (code cell 4, starts "
        "'if K > len(items):') raised ValueError: K = 5 but only 3 items"]


@pytest.mark.parametrize("label", ["phrase missing", "phrase in another case"])
def test_an_expected_error_without_the_phrase_fails(guarded_runs, label):
    (problem,) = problems_of(guarded_runs, label)
    assert problem.endswith("but the message of cell check (code cell 4, starts 'if K > len(items):') is: "
                            "ValueError: K = 5 but only 3 items"), problem


def test_an_expected_error_after_output_in_an_earlier_cell_fails(guarded_runs):
    run = guarded_runs["output in an earlier cell"]
    assert [e["cell_id"] for e in run.errors] == ["late"]
    assert problems_of(guarded_runs, "output in an earlier cell") == [
        "cell check (code cell 4) showed output before the error: '2 of 3 items'",
        "cell show (code cell 5) showed output before the error: \"['a', 'b']\""]


def test_an_expected_error_after_output_in_its_own_cell_fails(guarded_runs):
    assert problems_of(guarded_runs, "output earlier in its own cell") == [
        "cell check (code cell 4) showed output before the error: '0 of 3 items'"]


def test_an_expected_error_that_never_comes_fails(guarded_runs):
    assert problems_of(guarded_runs, "nothing raised") == [
        "expected ValueError with 'items' in its message, but no cell raised an error"]


def test_a_set_without_error_still_passes_clean_and_fails_on_any_error(guarded_runs):
    assert problems_of(guarded_runs, "no error expected, none raised") == []
    (problem,) = problems_of(guarded_runs, "no error expected, one raised")
    assert problem.startswith("cell check (code cell 4, starts 'if K > len(items):'): "
                              "ValueError: K = 5 but only 3 items")


def test_an_error_before_the_parameters_cell_is_not_the_expected_one(shared_runs):
    (run,) = shared_runs["95_early.ipynb"]
    (problem,) = harness.verdict(EARLY_SET, run)
    assert problem.startswith("expected ValueError with 'only 3 items' in its message after the parameters cell, "
                              "but cell imports (code cell 1"), problem


def test_an_expected_error_stops_the_run_in_a_shared_and_in_a_fresh_kernel(synthetic, guarded_runs, tmp_path):
    """Cells after the error do not run (here 'after' would leave after-ran-stops.txt), so such a set
    costs only the cells up to its error; a set without error runs every cell, errors allowed. Both
    kernels agree: the shared one (``shared_runs``) and a fresh one, started here in a folder of its own."""
    assert not (synthetic / "after-ran-stops.txt").exists()  # the shared kernel
    path = guarded_notebook(tmp_path)
    saved = tmp_path / "stopped.ipynb"
    fresh = harness.run_set(path, GUARDED_SETS["stops as told"], save_to=saved)
    assert not (tmp_path / "after-ran-stops.txt").exists()
    assert fresh == guarded_runs["stops as told"]
    later = [c for c in nbformat.read(saved, as_version=4).cells if c.get("id") in ("show", "late", "after")]
    assert [(c.outputs, c.execution_count) for c in later] == [([], None)] * 3
    assert (synthetic / "after-ran-top.txt").exists()  # the sets expecting no error ran every cell


def test_the_script_runs_a_set_file_by_hand_and_fails_on_an_error(script_run, monkeypatch, capsys):
    sets, done = script_run
    assert done.returncode == 1, done.stdout + done.stderr
    assert "with 'K = 1' {'K': 1, 'items': ['z']}: 0 cell(s) with an error" in done.stdout
    assert "\n  cell take (code cell 4, starts 'assert K <= len(items)" in done.stdout  # the set K past the list
    assert "AssertionError: K = 5 but only 3 items" in done.stdout
    assert (sets.parent / "out" / "99_tiny__K_past_the_list.ipynb").is_file()
    # one set by its name: in this process (the command line itself is tested above), its run read
    # back from the copy the command saved
    asked = replay_saved_runs(monkeypatch)
    assert harness.main([str(sets), "K = 1", "--notebooks", str(sets.parent), "--out", str(sets.parent / "out")]) == 0
    printed = capsys.readouterr().out
    assert "with 'K = 1' {'K': 1, 'items': ['z']}: 0 cell(s)" in printed and "K past the list" not in printed, printed
    assert asked == ["K = 1"]


def test_the_script_reports_an_expected_error_set(script_run, monkeypatch, capsys):
    sets, done = script_run
    refused = ("with 'K past the list, refused' {'K': 4}: expects AssertionError with 'only 3 items'; stops as "
               "expected: AssertionError: K = 4 but only 3 items in cell take (code cell 4")
    assert refused in done.stdout and "expects ValueError with 'only'; FAILS" in done.stdout, done.stdout
    # each set alone, by its number, in this process, its run read back from the copy the command saved:
    # the expected error passes (status 0), the wrong type fails (1)
    asked = replay_saved_runs(monkeypatch)
    options = ["--notebooks", str(sets.parent), "--out", str(sets.parent / "out")]
    assert harness.main([str(sets), "4", *options]) == 0
    printed = capsys.readouterr().out
    assert refused in printed, printed
    assert harness.main([str(sets), "5", *options]) == 1
    printed = capsys.readouterr().out
    assert "expects ValueError with 'only'; FAILS" in printed, printed
    assert "  expected ValueError with 'only' in its message, but cell take (code cell 4" in printed, printed
    assert asked == ["K past the list, refused", "K past the list, wrong type"]


@pytest.mark.parametrize("sets, problem", [
    ([{"name": "k", "parameters": {"k": 3}}], "set 'k': k is not assigned in the parameters cell (it has K, items, weights)"),
    ([{"name": "float K", "parameters": {"K": 3.0}}], "set 'float K': K: the notebook stores an integer (2), the set gives the float 3.0"),
    ([{"name": "text K", "parameters": {"K": "3"}}], "set 'text K': K: the notebook stores a number (2), the set gives '3'"),
    ([{"name": "items", "parameters": {"items": "abc"}}], "the notebook stores a list (['a', 'b', 'c']), the set gives 'abc'"),
    ([{"name": "a", "parameters": {"K": 1}}, {"name": "a", "parameters": {"K": 2}}], "two sets are named 'a'"),
    ([{"name": "no parameters", "parameters": {}}], "with a name and at least one parameter"),
    ([{"name": "extra key", "parameters": {"K": 1}, "notes": "x"}], "set 1 must be"),
    ([{"name": "extra key", "parameters": {"K": 1}, "notes": "x"}], "(unknown key 'notes')"),
    ([{"name": "e", "parameters": {"K": 9}, "error": "ValueError"}], "set 1 has an 'error' that must be"),
    ([{"name": "e", "parameters": {"K": 9}, "error": {"type": "ValueError"}}], "with exactly these two keys"),
    ([{"name": "e", "parameters": {"K": 9}, "error": {"type": "ValueError", "message": "K", "cell": "c"}}],
     "with exactly these two keys"),
    ([{"name": "e", "parameters": {"K": 9}, "error": {"type": "Value Error", "message": "K"}}],
     "error type 'Value Error' that is not an exception class name"),
    ([{"name": "e", "parameters": {"K": 9}, "error": {"type": "ValueError", "message": " "}}],
     "error message that is empty"),
    ([], "'sets' a non-empty list"),
])
def test_bad_set_files_are_refused_with_the_problem_named(tmp_path, sets, problem):
    tiny_notebook(tmp_path)
    problems = harness.validate(write_sets(tmp_path, sets), tmp_path)
    assert any(problem in p for p in problems), problems


def test_a_set_with_an_expected_error_is_valid(tmp_path):
    tiny_notebook(tmp_path)
    item = {"name": "K past the list", "parameters": {"K": 9}, "error": {"type": "ValueError", "message": "K = 9"}}
    assert harness.validate(write_sets(tmp_path, [item]), tmp_path) == []


def test_a_dict_parameter_takes_another_dict(tmp_path):
    tiny_notebook(tmp_path)
    assert harness.validate(write_sets(tmp_path, [{"name": "ok", "parameters": {"weights": {"a": 2}}}]), tmp_path) == []


def test_file_naming_missing_notebook_and_non_json(tmp_path):
    tiny_notebook(tmp_path)
    misnamed = write_sets(tmp_path, [{"name": "a", "parameters": {"K": 1}}], name="other.json")
    assert harness.validate(misnamed, tmp_path) == ["other.json should be named after its notebook: 99_tiny.json"]
    missing = write_sets(tmp_path, [{"name": "a", "parameters": {"K": 1}}], notebook="98_gone.ipynb", name="98_gone.json")
    assert harness.validate(missing, tmp_path) == [f"notebook 98_gone.ipynb not found in {tmp_path}"]
    nan = tmp_path / "99_tiny.json"
    nan.write_text('{"notebook": "99_tiny.ipynb", "sets": [{"name": "a", "parameters": {"K": NaN}}]}')
    assert harness.validate(nan, tmp_path) == ["99_tiny.json: NaN is not JSON (use a finite number)"]


@pytest.mark.parametrize("cell_source, problem", [
    ('relevant = {"d1"}', "relevant = {'d1'} is not JSON-typed"),
    ("pairs = (1, 2)", "pairs = (1, 2) is not JSON-typed"),
    ('grades = {1: 3}', "grades = {1: 3} is not JSON-typed"),
    ("K = int('5')", "K is not a literal value"),
    ("import math", "line 1: only 'NAME = value' assignments belong there"),
])
def test_a_parameters_cell_with_other_than_json_literals_is_refused(tmp_path, cell_source, problem):
    path = tiny_notebook(tmp_path)
    notebook = nbformat.read(path, as_version=4)
    notebook.cells[1].source = cell_source
    nbformat.write(notebook, path)
    problems = harness.validate(write_sets(tmp_path, [{"name": "a", "parameters": {"K": 1}}]), tmp_path)
    assert any(problem in p for p in problems), problems


def test_a_notebook_needs_exactly_one_parameters_cell(tmp_path):
    path = tiny_notebook(tmp_path)
    notebook = nbformat.read(path, as_version=4)
    notebook.cells[1].metadata["tags"] = []
    with pytest.raises(harness.ParameterSetError, match="found 0"):
        harness.inject(notebook, {"K": 1})
    notebook.cells[1].metadata["tags"] = notebook.cells[2].metadata["tags"] = ["parameters"]
    with pytest.raises(harness.ParameterSetError, match="found 2"):
        harness.inject(notebook, {"K": 1})


def test_the_scripts_doctests(monkeypatch):
    """Including retry_kernel_start's: a kernel that fails to start is started once more.

    doctest keeps a function only if ``inspect.getmodule`` finds it in the module searched, and that
    looks the name up in sys.modules: scripts/execute_notebooks.py imports this script as
    ``run_parameter_sets``, a second copy, after which testmod would find no test at all."""
    monkeypatch.setitem(sys.modules, harness.__name__, harness)
    result = doctest.testmod(harness, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
