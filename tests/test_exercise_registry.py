"""Every registered exercise, whatever its kind, tested the same way.

The tests are parametrised over ``ragmetrics_lite.course.exercises.REGISTRY``,
which discovery fills from the ``qNN_*.py`` files: a new exercise is covered the
moment its file exists. Discovery itself is tested on throwaway packages.
"""
from __future__ import annotations

import functools
import importlib
import inspect
import json
import os
import re
import sys
import textwrap
from pathlib import Path

import pytest

import ragmetrics_lite
from ragmetrics_lite.course import exercises
from ragmetrics_lite.course.exercises import REGISTRY, ChoiceExercise, FunctionExercise, ____
from ragmetrics_lite.course.exercises._registry import RegistryError, discover
from tests.helpers import run_with_blocked, stdout_under_hash_seeds

ROOT = Path(__file__).resolve().parent.parent
NAMES = list(REGISTRY)
FUNCTION_NAMES = [n for n in NAMES if isinstance(REGISTRY[n], FunctionExercise)]
PREFIXES = ("Correct", "Incorrect", "Not attempted")


def _diagnoses(message):
    return [line.strip() for line in message.splitlines() if line.strip().startswith("Diagnosis: ")]


def _placeholder_answers(exercise):
    """The answers a starter cell gives before the learner writes anything."""
    if isinstance(exercise, FunctionExercise):
        def returns_placeholder(*args):
            return ____  # your code here

        def uses_placeholder(*args):
            return ____ / len(args)

        def raises_not_implemented(*args):
            raise NotImplementedError

        return [____, returns_placeholder, uses_placeholder, raises_not_implemented]
    if isinstance(exercise, ChoiceExercise):
        return [____, {n: ____ for n in exercise.questions}, {}]
    return [____]


def _stored_outputs(notebook):
    cells = json.loads((ROOT / notebook).read_text(encoding="utf-8"))["cells"]
    for cell in cells:
        for output in cell.get("outputs", []):
            yield "".join(output.get("text", "")) + "".join(output.get("data", {}).get("text/plain", ""))


def test_the_registry_holds_every_exercise_file():
    files = sorted(p.stem for p in Path(exercises.__file__).parent.glob("q*.py"))
    assert NAMES == files and len(NAMES) >= 13


# ------------------------------------------------------------------ the declaration
@pytest.mark.parametrize("name", NAMES)
def test_the_reference_solution_passes(name):
    exercise = REGISTRY[name]
    result = exercise.evaluate(exercise.reference_answer)
    assert result.status == "correct" and result.message.startswith("Correct"), result.message
    module = getattr(exercises, name)
    assert module.check == exercise.check and module.hint == exercise.hint
    assert module.solution == exercise.solution
    if isinstance(exercise, FunctionExercise):
        assert module.reference_solution is exercise.reference_answer
    assert not hasattr(ragmetrics_lite, "solution")


@pytest.mark.parametrize("name", NAMES)
def test_the_printed_solution_runs_and_passes(name, capsys):
    exercise = REGISTRY[name]
    exercise.solution()
    printed = capsys.readouterr().out
    assert printed.strip() == exercise.solution_text()
    assert exercise.evaluate(exercise.solution_answer()).status == "correct"
    assert "ragmetrics_lite" not in printed, "the solution is plain Python"
    assert len(printed.splitlines()) <= 15, "a solution a learner can read at a glance"


@functools.lru_cache(maxsize=None)
def _results_of_known_mistakes(name):
    """``evaluate`` of each of an exercise's known mistakes, computed once for the two tests that read them."""
    exercise = REGISTRY[name]
    return [exercise.evaluate(answer) for answer, _ in exercise.known_mistakes()]


@pytest.mark.parametrize("name", NAMES)
def test_each_known_mistake_fails_with_its_own_diagnosis(name):
    exercise = REGISTRY[name]
    mistakes = exercise.known_mistakes()
    assert len(mistakes) >= 3
    for (answer, diagnosis), result in zip(mistakes, _results_of_known_mistakes(name), strict=True):
        assert result.status == "incorrect", (answer, result.message)
        assert _diagnoses(result.message) == [f"Diagnosis: {diagnosis.rstrip('.')}."], result.message


@pytest.mark.parametrize("name", NAMES)
def test_the_placeholder_is_not_attempted(name):
    exercise = REGISTRY[name]
    for answer in _placeholder_answers(exercise):
        result = exercise.evaluate(answer)
        assert result.status == "not attempted", (answer, result.message)
        assert result.message.startswith("Not attempted") and "Replace ____" in result.message


@pytest.mark.parametrize("name", FUNCTION_NAMES)
def test_a_raising_answer_is_shown_its_input_and_exception(name):
    exercise = REGISTRY[name]
    cases = exercise.edge_cases
    # where a declared mistake raises, if anywhere: a diagnosis must still need the same exception type
    raising = [c for c in cases for m in exercise.mistakes if _raises(m.function, c)]
    target = raising[0] if raising else cases[-1]

    def raises_on_target(*args):
        if list(args) == list(target.args):
            raise LookupError("raised on purpose")
        return exercise.reference(*args)

    message = exercise.evaluate(raises_on_target).message
    lines = message.splitlines()
    assert lines[0] == "Incorrect: your function raised LookupError: raised on purpose"
    assert f"  inputs:   {exercise.format_inputs(target)}" in lines
    assert '  at line:  raise LookupError("raised on purpose")' in lines
    assert _diagnoses(message) == []


def _raises(function, case):
    try:
        function(*case.args)
    except Exception:
        return True
    return False


# ------------------------------------------------------------------ the notebook
@pytest.mark.parametrize("name", NAMES)
def test_the_notebook_exists_and_calls_check(name):
    notebook = REGISTRY[name].notebook
    assert re.fullmatch(r"notebooks/\d\d_\w+\.ipynb", notebook), notebook
    assert (ROOT / notebook).is_file(), f"{name} names {notebook}, which does not exist"
    cells = json.loads((ROOT / notebook).read_text(encoding="utf-8"))["cells"]
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    assert any(f"{name}.check(" in source for source in code), f"{notebook} never calls {name}.check"


@pytest.mark.parametrize("name", NAMES)
def test_the_check_cell_is_followed_by_one_commented_hint_cell(name):
    """The house style: check, then ONE cell with hint(), hint(2) and solution() commented out."""
    notebook = REGISTRY[name].notebook
    if not (ROOT / notebook).is_file():
        pytest.skip(f"{notebook} does not exist (the notebook test fails for it)")
    cells = json.loads((ROOT / notebook).read_text(encoding="utf-8"))["cells"]
    code = ["".join(c["source"]).strip() for c in cells if c["cell_type"] == "code"]
    checks = [i for i, source in enumerate(code) if f"{name}.check(" in source]
    assert len(checks) == 1, f"{notebook} calls {name}.check in {len(checks)} cells, expected 1"
    after = code[checks[0] + 1] if checks[0] + 1 < len(code) else ""
    expected = f"# {name}.hint()\n# {name}.hint(2)\n# {name}.solution()"
    assert after == expected, f"{notebook}: the cell after {name}.check should be exactly\n{expected}\ngot\n{after}"
    live = [s for s in code if re.search(rf"^(?!\s*#).*{name}\.solution\(", s, re.M)]
    assert not live, f"{notebook} calls {name}.solution() in a live cell"


@pytest.mark.parametrize("name", FUNCTION_NAMES)
def test_the_text_and_the_prompt_name_the_function_the_starter_cell_checks(name):
    """The notebook says "Write `my_x(...)`" and the prompt (help(qNN_...)) "Write my_x(...)" for the
    function the starter cell defines and passes to check, so a learner reads the name they edit."""
    exercise = REGISTRY[name]
    cells = json.loads((ROOT / exercise.notebook).read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    markdown = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    [function] = re.findall(rf"\b{name}\.check\((\w+)\)", code)
    assert re.search(rf"^def {function}\(", code, re.M), f"{exercise.notebook} does not define {function}"
    assert f"Write `{function}(" in markdown, f"{exercise.notebook}'s exercise text does not name {function}"
    assert exercise.prompt.startswith(f"Write {function}("), exercise.prompt.split(":")[0]


@pytest.mark.parametrize("name", NAMES)
def test_no_stored_output_shows_the_solution(name):
    exercise = REGISTRY[name]
    if not (ROOT / exercise.notebook).is_file():
        pytest.skip(f"{exercise.notebook} does not exist (the notebook test fails for it)")
    lines = exercise.solution_text().splitlines()
    code = [line for line in lines if line and not line.startswith(("import ", "from "))]
    assert code[0].startswith(("def solution(", "answers = "))
    assert not any(code[0] in text for text in _stored_outputs(exercise.notebook))


# ------------------------------------------------------------------ hints and text
@pytest.mark.parametrize("name", NAMES)
def test_hints_come_in_two_levels_a_nudge_then_the_recipe(name, capsys):
    exercise = REGISTRY[name]
    nudge, recipe = exercise.hints
    assert not re.search(r"\w\(|\[", nudge), "the nudge holds no code"
    exercise.hint()
    exercise.hint(2)
    assert capsys.readouterr().out == (
        f"Hint 1 of 2: {nudge} (More: {name}.hint(2).)\nHint 2 of 2: {recipe}\n"
    )


@pytest.mark.parametrize("name", NAMES)
def test_check_prints_one_deterministic_result(name, capsys):
    exercise = REGISTRY[name]
    answers = [exercise.reference_answer, ____, exercise.known_mistakes()[0][0]]
    for answer in answers:
        exercise.check(answer)
        first = capsys.readouterr().out
        exercise.check(answer)
        assert capsys.readouterr().out == first
        assert first.startswith(PREFIXES) and first.endswith("\n") and "0x" not in first
    for answer in answers:
        exercise.evaluate(answer)
    assert capsys.readouterr().out == "", "evaluate prints nothing"


def test_check_output_does_not_depend_on_hash_seed():
    """What check prints in an interpreter with another hash seed is what it would print here (this
    process's seed is random, unless PYTHONHASHSEED is set, in which case the other one differs from
    it): check prints ``evaluate(answer).message``, and the known mistakes' results are shared with
    the test above."""
    code = """
        from ragmetrics_lite.course.exercises import REGISTRY
        for exercise in REGISTRY.values():
            exercise.check(exercise.reference_answer)
            for answer, _ in exercise.known_mistakes():
                exercise.check(answer)
        """
    here = "".join(f"{message}\n" for name in NAMES
                   for message in [REGISTRY[name].evaluate(REGISTRY[name].reference_answer).message]
                   + [result.message for result in _results_of_known_mistakes(name)])
    other_seed = "12345" if os.environ.get("PYTHONHASHSEED") == "0" else "0"
    [there] = stdout_under_hash_seeds(code, seeds=(other_seed,))
    assert there == here
    assert here.count("Diagnosis: ") == sum(len(e.known_mistakes()) for e in REGISTRY.values())


def test_every_solution_passes_with_the_reference_libraries_blocked():
    out = run_with_blocked(
        """
        from ragmetrics_lite.course.exercises import REGISTRY
        for exercise in REGISTRY.values():
            print(exercise.evaluate(exercise.solution_answer()).status)
        """
    )
    assert out.split() == ["correct"] * len(REGISTRY)


@pytest.mark.parametrize("name", NAMES)
def test_docstrings_and_exports_name_the_exercise_and_its_notebook(name):
    exercise = REGISTRY[name]
    module = getattr(exercises, name)
    assert exercise.prompt and exercise.__doc__ == f"{exercise.prompt}\n\nNotebook: {exercise.notebook}"
    assert exercise.notebook in module.__doc__ and ">>> " in module.__doc__
    assert repr(exercise) == f"<{type(exercise).__name__} {name}>"
    assert name in exercises.__all__ and module.__name__ == f"{exercises.__name__}.{name}"
    row = f"``{name}``  "
    assert any(line.startswith(row) and exercise.notebook in line for line in exercises.__doc__.splitlines())
    assert len(inspect.getsource(module).splitlines()) <= 155, "an exercise module stays short (about 150 lines)"


# ------------------------------------------------------------------ function exercises: their cases
@pytest.mark.parametrize("name", FUNCTION_NAMES)
def test_edge_cases_are_labelled_and_come_smallest_first(name):
    exercise = REGISTRY[name]
    sizes = [len(exercise.format_inputs(c)) for c in exercise.edge_cases]
    # smallest first, allowing a few characters where a more telling case goes first
    assert all(size <= min(sizes[i:]) + 8 for i, size in enumerate(sizes)), sizes
    labels = [case.label for case in exercise.edge_cases]
    assert all(labels) and len(set(labels)) == len(labels)


@pytest.mark.parametrize("name", FUNCTION_NAMES)
def test_random_cases_are_seeded_and_varied(name):
    exercise = REGISTRY[name]
    first = exercise.random_cases()
    assert first == exercise.random_cases() and len(first) == exercise.n_random == 200
    values = [exercise.expected(c) for c in first]
    assert any(v == 0 for v in values) and len(set(values)) >= 4


# ------------------------------------------------------------------ discovery
def test_an_exercise_module_is_a_module_that_exposes_its_exercise(capsys):
    import ragmetrics_lite.course.exercises.q01_recall as module
    from ragmetrics_lite.course.exercises import q01_recall

    assert q01_recall is module and inspect.ismodule(module)
    assert module is sys.modules["ragmetrics_lite.course.exercises.q01_recall"]
    exercise = REGISTRY["q01_recall"]
    assert module.q01_recall is exercise
    module.hint(2)
    module.solution()
    exercise.hint(2)
    exercise.solution()
    first, second = capsys.readouterr().out.split("Hint 2 of 2")[1:]
    assert first == second and "def solution(relevant, retrieved, k):" in first


def test_the_registry_is_read_only():
    with pytest.raises(TypeError):
        REGISTRY["q99_new"] = REGISTRY["q01_recall"]


_GOOD = """
from ragmetrics_lite.course.exercises import FunctionExercise


def reference_solution(x):
    return x


{var} = FunctionExercise("{name}", "Return x.", reference=reference_solution, argnames=("x",),
                         edge_cases=[(1,)], hints=("h", "r"), solution=reference_solution)
check = {var}.check
hint = {var}.hint
solution = {var}.solution
"""
_HALF = _GOOD.format(var="q42_half", name="q42_half")


@pytest.fixture
def make_package(tmp_path, monkeypatch):
    """A throwaway package holding the given ``{file name: source}``, imported fresh."""
    made = []

    def make(files):
        package = f"scratch_exercises_{len(made)}"
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
        for filename, source in files.items():
            (tmp_path / package / filename).write_text(textwrap.dedent(source))
        made.append(package)
        return importlib.import_module(package)

    monkeypatch.syspath_prepend(str(tmp_path))
    yield make
    for name in list(sys.modules):
        if name.split(".")[0] in made:
            del sys.modules[name]


def test_discovery_registers_a_new_exercise_file(make_package):
    package = make_package({
        "q42_half.py": _GOOD.format(var="q42_half", name="q42_half"),
        "helpers.py": "x = 1\n",
    })
    found = discover(package)
    assert list(found) == ["q42_half"] and isinstance(found["q42_half"], FunctionExercise)


@pytest.mark.parametrize(
    "files, complaint",
    [
        ({"q42_half.py": "import no_such_module_here\n"}, "does not import: ModuleNotFoundError"),
        ({"q42_half.py": "def broken(:\n"}, "does not import: SyntaxError"),
        ({"q42_half.py": "x = 1\n"}, "defines 0 exercises (none)"),
        (
            {"q42_half.py": _GOOD.format(var="q42_half", name="q42_half")
             + _GOOD.format(var="q43_more", name="q43_more")},
            "defines 2 exercises (q42_half, q43_more)",
        ),
        ({"q42_half.py": _GOOD.format(var="q42_half", name="q42_other")}, "its exercise is 'q42_other'"),
        ({"q42_half.py": _GOOD.format(var="q42_other", name="q42_half")}, "bound to 'q42_other'"),
        ({"q42_Half.py": _GOOD.format(var="q42_Half", name="q42_Half")}, "name an exercise module qNN_<topic>"),
        ({"q42_half.py": _HALF.replace("solution = q42_half.solution", "")},
         "does not expose solution: end the module with solution = q42_half.solution"),
        ({"q42_half.py": _HALF.replace("check = q42_half.check", "check = print")}, "does not expose check"),
    ],
    ids=["no import", "syntax error", "no exercise", "two exercises", "name differs", "variable differs",
         "file name", "no solution", "another check"],
)
def test_discovery_rejects_a_malformed_exercise_module(make_package, files, complaint):
    package = make_package(files)
    with pytest.raises(RegistryError, match=re.escape(complaint)) as raised:
        discover(package)
    assert f"{next(iter(files))}" in str(raised.value), "the message names the file"
