"""Shared test utilities."""
from __future__ import annotations

import copy
import importlib
import importlib.util
import math
import os
import re
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

def load_script(path, name: str | None = None):
    """Import a file that is not in a package (a ``scripts/`` tool) as a module."""
    spec = importlib.util.spec_from_file_location(name or Path(path).stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------- parameter sets
PARAMETER_SET_KERNELS = 3


def parameter_set_kernel(stem: str) -> int:
    """Which of the PARAMETER_SET_KERNELS shared kernels runs the sets of ``notebooks/parameter_sets/<stem>.json``.

    The notebook's number modulo 3: that spreads the slow text notebooks (08-11) over the three.
    tests/test_parameter_sets.py runs each kernel's notebooks in turn; conftest.py keeps the tests
    of one kernel in one worker process.

    >>> [parameter_set_kernel(s) for s in ("01_recall_at_k", "11_meteor", "18_capstone_golden_set", "x")]
    [1, 2, 0, 0]
    """
    return int(stem[:2]) % PARAMETER_SET_KERNELS if stem[:2].isdigit() else 0


def run_notebook_cells(notebook_path, cell_ids, parameters: dict | None = None) -> dict:
    """Run the parameters cell and the code cells ``cell_ids`` of a notebook in this process, in
    notebook order, with ``parameters`` assigned right after the parameters cell (as a parameter
    set would); return the namespace. Cheaper than a kernel for a test that needs a few cells'
    values. Figures go to matplotlib's current backend and are closed afterwards; plot-style
    settings a cell makes are undone.
    """
    import json

    import matplotlib
    import matplotlib.pyplot as plt

    cells = json.loads(Path(notebook_path).read_text(encoding="utf-8"))["cells"]
    wanted = set(cell_ids)
    namespace: dict = {"__name__": "__notebook__"}
    found = set()
    with matplotlib.rc_context():
        try:
            for cell in cells:
                tags = cell.get("metadata", {}).get("tags", [])
                if cell["cell_type"] != "code" or not (cell.get("id") in wanted or "parameters" in tags):
                    continue
                found.add(cell.get("id"))
                exec(compile("".join(cell["source"]), f"<cell {cell.get('id')}>", "exec"), namespace)
                if "parameters" in tags:
                    namespace.update(copy.deepcopy(parameters or {}))
        finally:
            plt.close("all")
    missing = wanted - found
    assert not missing, f"{Path(notebook_path).name} has no code cell with id {sorted(missing)}"
    return namespace


REFERENCE_LIBRARIES = ("pytrec_eval", "sacrebleu", "rouge_score", "nltk", "scipy", "sklearn")

_BLOCKER = """
import sys
class _Blocked:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {blocked!r}:
            raise ImportError(f"{{name}} is blocked in this test")
        return None
sys.meta_path.insert(0, _Blocked())
for _name in list(sys.modules):
    if _name.split(".")[0] in {blocked!r}:
        del sys.modules[_name]
"""


def refuse_network(monkeypatch) -> None:
    """Make any attempt to open a network connection fail the test (an autouse fixture calls it)."""
    def refuse(*args, **kwargs):
        raise AssertionError("a test tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def run_with_blocked(code: str, blocked: tuple[str, ...] = REFERENCE_LIBRARIES) -> str:
    """Run ``code`` in a fresh interpreter where importing any of ``blocked`` fails.

    Returns the interpreter's stdout; raises AssertionError with stderr if it fails.
    """
    program = _BLOCKER.format(blocked=set(blocked)) + textwrap.dedent(code)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"failed with the references blocked:\n{done.stderr}"
    return done.stdout


# ---------------------------------------------------------------- exercise checkers
def failing_case(exercise, message: str):
    """The case of ``exercise`` whose inputs an Incorrect ``message`` prints."""
    found = [c for c in exercise.cases() if f"  inputs:   {exercise.format_inputs(c)}\n" in message + "\n"]
    assert found, f"no case of {exercise.name} matches the message:\n{message}"
    return found[0]


def disagrees(exercise, function, case) -> bool:
    """Whether a learner's ``function`` gets ``case`` wrong (raises, returns True/False, or a wrong value)."""
    expected = exercise.expected(case)
    try:
        got = function(*copy.deepcopy(case.args))
    except Exception:
        return True
    if isinstance(got, bool):
        return True  # True/False is not a score, even where it equals 1 or 0
    return not math.isclose(got, expected, rel_tol=1e-9, abs_tol=1e-12)


def stdout_under_hash_seeds(code: str, seeds: tuple[str, ...] = ("0", "12345")) -> list[str]:
    """Run ``code`` from the repository root once per PYTHONHASHSEED; its stdout each time.

    Set order differs between interpreters; printed results must not.
    """
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    outputs = []
    for seed in seeds:
        env = dict(os.environ, PYTHONHASHSEED=seed)
        done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                              text=True, cwd=root, env=env, timeout=300)
        assert done.returncode == 0, done.stderr
        assert done.stderr == ""
        outputs.append(done.stdout)
    return outputs


def exercise_module(exercise):
    """The module ``qNN_<topic>.py`` of a registered exercise."""
    return importlib.import_module(f"ragmetrics_lite.course.exercises.{exercise.name}")


def wrong_answer(exercise, phrase):
    """Mark a test module's function as a learner's wrong answer to ``exercise``: its diagnosis must
    hold ``phrase`` (None: it must get no diagnosis). :func:`wrong_answers` collects the marked ones."""

    def mark(function):
        function.wrong_answer_to = (exercise, phrase)
        return function

    return mark


def wrong_answers(namespace):
    """The functions of a module's namespace marked with :func:`wrong_answer`, in definition order."""
    return [f for f in namespace.values() if callable(f) and hasattr(f, "wrong_answer_to")]


def assert_wrong_answer_diagnosed(function):
    """A learner's wrong ``function`` fails on the first case it gets wrong, with the expected value
    the reference gives there and the diagnosis its :func:`wrong_answer` mark asks for."""
    from ragmetrics_lite.course.exercises._checker import show

    exercise, phrase = function.wrong_answer_to
    result = exercise.evaluate(function)
    message = result.message
    assert result.status == "incorrect" and message.startswith("Incorrect"), message
    assert "  got:      " in message or "raised" in message
    case = failing_case(exercise, message)
    assert disagrees(exercise, function, case), "the printed case must really be a counterexample"
    assert case == next(c for c in exercise.cases() if disagrees(exercise, function, c)), "the first failing case"
    assert f"  expected: {show(exercise.expected(case))}\n" in message + "\n"
    diagnoses = [line for line in message.splitlines() if line.startswith("  Diagnosis: ")]
    if phrase is None:
        assert diagnoses == [], message
    else:
        assert len(diagnoses) == 1 and phrase in diagnoses[0], message


FURTHER = re.compile(r"^#+\s.*going further", re.I | re.M)  # the heading that ends a main path


def run_main_path(notebook_path, stop_after: int | None = None, **overrides) -> tuple[dict, str]:
    """Run the notebook's code cells before Going further in this process (or its first
    ``stop_after`` code cells after the parameters cell), ``overrides`` assigned right after the
    parameters cell as a parameter set would; returns the namespace and what the cells printed."""
    import contextlib
    import io
    import warnings

    import matplotlib
    import nbformat

    matplotlib.use("Agg")
    notebook = nbformat.read(notebook_path, as_version=4)
    namespace: dict = {"__name__": "__main__"}
    printed = io.StringIO()
    after_parameters = None
    with contextlib.redirect_stdout(printed), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for cell in notebook.cells:
            if cell.cell_type == "markdown" and FURTHER.search(cell.source):
                break
            if cell.cell_type != "code":
                continue
            if after_parameters is not None and after_parameters == stop_after:
                break
            exec(compile(cell.source, f"{notebook_path.name}:{cell.get('id')}", "exec"), namespace)
            if "parameters" in cell.metadata.get("tags", []):
                namespace.update(overrides)
                after_parameters = 0
            elif after_parameters is not None:
                after_parameters += 1
    return namespace, printed.getvalue()
