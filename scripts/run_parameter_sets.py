"""Run a notebook with the alternative inputs a learner would try, and check each set's outcome.

Each notebook keeps its example's inputs in one code cell tagged ``parameters`` (JSON types only:
numbers, strings, booleans, lists, dicts with string keys). ``notebooks/parameter_sets/NN_name.json``
holds a few alternatives::

    {"notebook": "01_recall_at_k.ipynb",
     "sets": [{"name": "K = 3", "parameters": {"K": 3}},
              {"name": "empty relevant set", "parameters": {"relevant": []},
               "error": {"type": "ValueError", "message": "relevant"}}]}

For each set, as papermill does, a new code cell assigning the set's values (``K = 3``) goes right
after the ``parameters`` cell, and the notebook runs in a fresh kernel in its own folder.

- A set without ``error`` passes when no cell errors. The whole notebook runs with errors allowed,
  and every cell with an error output is reported by its cell id (papermill's own report counts
  cells after the injected one off by one).
- A set with ``"error": {"type": ..., "message": ...}`` is an input the notebook must refuse. It
  passes when execution stops with an exception of that class name whose message contains the
  phrase (case-sensitive), raised in a cell after the parameters cell, and no cell after the
  parameters cell (the injected one excluded) showed any output before it: bad input stops before
  any number is shown. The run stops at the first error.

``tests/test_parameter_sets.py`` runs every set of every file; notebook authors run one notebook
by hand:

    python scripts/run_parameter_sets.py notebooks/01_recall_at_k.ipynb          # every set in its file
    python scripts/run_parameter_sets.py notebooks/01_recall_at_k.ipynb "K = 3"  # one set (name or number)
    python scripts/run_parameter_sets.py /tmp/my_sets.json                       # a set file of your own

The executed notebooks are written to a fresh private folder in the temporary directory (its name
printed with each copy, readable by you only), or to ``--out``, so you can open them. The kernels
start without the ``RAGMETRICS_LLM_*`` variables, so no notebook asks a model or stores its replies.
The exit status is 1 when a set fails or a set file is invalid.
"""
from __future__ import annotations

import argparse
import ast
import contextlib
import copy
import json
import math
import os
import re
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))
from repo_files import replace_file  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_DIR = ROOT / "notebooks"
SETS_DIR = NOTEBOOK_DIR / "parameter_sets"
INJECTED_ID = "injected-parameters"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
ARROW = re.compile(r"\s*-+>\s*\d+ ")  # IPython's marker of the line that raised


class ParameterSetError(ValueError):
    """A set file or a notebook's parameters cell does not follow the convention."""


def source(cell) -> str:
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else text


def parameters_cell_index(notebook) -> int:
    """Index of the one code cell tagged ``parameters``."""
    found = [i for i, cell in enumerate(notebook.cells)
             if cell.cell_type == "code" and "parameters" in cell.get("metadata", {}).get("tags", [])]
    if len(found) != 1:
        raise ParameterSetError(f"expected one code cell tagged 'parameters', found {len(found)}")
    return found[0]


def _is_json_value(value) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if value is None or isinstance(value, (bool, int, str)):
        return True
    if isinstance(value, list):
        return all(_is_json_value(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(key, str) and _is_json_value(item) for key, item in value.items())
    return False


def stored_parameters(cell) -> dict:
    """{name: value} of the parameters cell, which may hold only ``NAME = <JSON-typed literal>`` lines."""
    values = {}
    for statement in ast.parse(source(cell)).body:
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)):
            raise ParameterSetError(
                f"parameters cell line {statement.lineno}: only 'NAME = value' assignments belong there")
        name = statement.targets[0].id
        try:
            value = ast.literal_eval(statement.value)
        except ValueError:
            raise ParameterSetError(f"parameters cell: {name} is not a literal value") from None
        if not _is_json_value(value):
            raise ParameterSetError(f"parameters cell: {name} = {value!r} is not JSON-typed (numbers, strings, "
                                    "booleans, lists, dicts with string keys); convert it in the next cell")
        values[name] = value
    return values


def _kind(value) -> str:
    if isinstance(value, bool) or value is None:
        return type(value).__name__
    if isinstance(value, (int, float)):
        return "number"
    return {str: "string", list: "list", dict: "dict"}[type(value)]


def check_types(name: str, value, stored) -> list[str]:
    """Problems with giving ``name`` the value ``value`` where the notebook stores ``stored``."""
    if not _is_json_value(value):
        return [f"{name}: {value!r} is not a JSON value"]
    if _kind(value) != _kind(stored):
        return [f"{name}: the notebook stores a {_kind(stored)} ({stored!r}), the set gives {value!r}"]
    if isinstance(stored, int) and not isinstance(stored, bool) and isinstance(value, float):
        return [f"{name}: the notebook stores an integer ({stored!r}), the set gives the float {value!r}"]
    return []


def _refuse_constant(name: str):
    raise ParameterSetError(f"{name} is not JSON (use a finite number)")


SET_KEYS = {"name", "parameters", "error"}
ERROR_KEYS = {"type", "message"}
SET_SHAPE = ('{"name": "...", "parameters": {...}} with a name and at least one parameter, and optionally '
             '"error": {"type": "ValueError", "message": "a phrase of the message"}')


def _set_shape_problem(item) -> str:
    """Why ``item`` is not a set (``""`` when it is one)."""
    if not isinstance(item, dict) or not {"name", "parameters"} <= set(item) <= SET_KEYS:
        unknown = sorted(set(item) - SET_KEYS) if isinstance(item, dict) else []
        extra = f" (unknown key {', '.join(map(repr, unknown))})" if unknown else ""
        return f"must be {SET_SHAPE}{extra}"
    if not isinstance(item["name"], str) or not item["name"].strip():
        return f"must be {SET_SHAPE}: the name is empty or not a string"
    if not isinstance(item["parameters"], dict) or not item["parameters"]:
        return f"must be {SET_SHAPE}: 'parameters' must be a non-empty object"
    if "error" in item:
        error = item["error"]
        if not isinstance(error, dict) or set(error) != ERROR_KEYS:
            return ("has an 'error' that must be {\"type\": \"ValueError\", \"message\": \"a phrase of the message\"} "
                    "with exactly these two keys")
        if not isinstance(error["type"], str) or not error["type"].isidentifier():
            return f"has an error type {error['type']!r} that is not an exception class name such as 'ValueError'"
        if not isinstance(error["message"], str) or not error["message"].strip():
            return "has an error message that is empty or not a string: give a phrase the message must contain"
    return ""


def load_set_file(path: Path) -> dict:
    """The set file's JSON, its shape checked; raises ParameterSetError naming the problem."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"), parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise ParameterSetError(f"{Path(path).name}: not valid JSON: {error}") from None
    except ParameterSetError as error:
        raise ParameterSetError(f"{Path(path).name}: {error}") from None
    if not isinstance(data, dict) or set(data) != {"notebook", "sets"}:
        raise ParameterSetError(f"{Path(path).name}: expected an object with exactly the keys 'notebook' and 'sets'")
    if not isinstance(data["notebook"], str) or not isinstance(data["sets"], list) or not data["sets"]:
        raise ParameterSetError(f"{Path(path).name}: 'notebook' must be a file name and 'sets' a non-empty list")
    for i, item in enumerate(data["sets"], 1):
        problem = _set_shape_problem(item)
        if problem:
            raise ParameterSetError(f"{Path(path).name}: set {i} {problem}")
    return data


def validate(path: Path, notebook_dir: Path = NOTEBOOK_DIR) -> list[str]:
    """Every problem with a set file: its shape, its notebook, each parameter's name and type."""
    try:
        data = load_set_file(path)
    except ParameterSetError as error:
        return [str(error)]
    problems = []
    notebook_path = Path(notebook_dir) / data["notebook"]
    if Path(path).stem != Path(data["notebook"]).stem:
        problems.append(f"{Path(path).name} should be named after its notebook: {Path(data['notebook']).stem}.json")
    names = [item["name"] for item in data["sets"]]
    problems += [f"two sets are named {name!r}" for name in sorted({n for n in names if names.count(n) > 1})]
    if not notebook_path.is_file():
        return problems + [f"notebook {data['notebook']} not found in {notebook_dir}"]
    try:
        notebook = nbformat.read(notebook_path, as_version=4)
        stored = stored_parameters(notebook.cells[parameters_cell_index(notebook)])
    except (ParameterSetError, SyntaxError) as error:
        return problems + [f"{data['notebook']}: {error}"]
    for item in data["sets"]:
        for name, value in item["parameters"].items():
            if name not in stored:
                problems.append(f"set {item['name']!r}: {name} is not assigned in the parameters cell "
                                f"(it has {', '.join(stored) or 'nothing'})")
            else:
                problems += [f"set {item['name']!r}: {p}" for p in check_types(name, value, stored[name])]
    return problems


def inject(notebook, parameters: dict):
    """A copy of ``notebook`` with a cell assigning ``parameters`` right after the parameters cell."""
    notebook = copy.deepcopy(notebook)
    lines = ["# Parameters injected from a parameter set"]
    for name, value in parameters.items():
        if not name.isidentifier():
            raise ParameterSetError(f"{name!r} is not a Python name")
        lines.append(f"{name} = {value!r}")
    cell = nbformat.v4.new_code_cell("\n".join(lines), id=INJECTED_ID)
    cell.metadata["tags"] = [INJECTED_ID]
    notebook.cells.insert(parameters_cell_index(notebook) + 1, cell)
    return notebook


# What nbclient raises when a new kernel dies or stays silent before its first reply
KERNEL_START_FAILURES = ("died before replying", "didn't respond")


def retry_kernel_start(run, attempts: int = 2):
    """``run()``, called again when its kernel failed to start.

    jupyter_client picks a kernel's five TCP ports as free, then lets the kernel bind them. Two
    processes starting kernels at the same moment (the test workers) can pick the same port, and
    that kernel dies at once ("Address already in use"). ``run`` must start its own kernel each
    time; a kernel that cannot start at all still fails, with its error. conftest.py does the same
    for nbval's kernels; scripts/execute_notebooks.py uses this one.

    >>> calls = []
    >>> def flaky():
    ...     calls.append(1)
    ...     if len(calls) == 1:
    ...         raise RuntimeError("Kernel didn't respond in 60 seconds")
    ...     return "ran"
    >>> retry_kernel_start(flaky), len(calls)
    ('ran', 2)
    >>> retry_kernel_start(lambda: 1 / 0)
    Traceback (most recent call last):
    ZeroDivisionError: division by zero
    """
    for attempt in range(1, attempts + 1):
        try:
            return run()
        except RuntimeError as error:
            if attempt == attempts or not any(cue in str(error) for cue in KERNEL_START_FAILURES):
                raise


def run_cells(client, notebook, stop_at_error: bool = False) -> None:
    """Execute the cells of ``notebook`` in order on ``client``'s running kernel, going on after errors
    unless ``stop_at_error``: then the cells after the first error are not run and keep no output."""
    for index, cell in enumerate(notebook.cells):
        client.execute_cell(cell, index)
        if stop_at_error and _has_error(cell):
            for later in notebook.cells[index + 1:]:
                if later.cell_type == "code":
                    later.outputs = []
                    later.execution_count = None
            return


def _has_error(cell) -> bool:
    return any(output.get("output_type") == "error" for output in cell.get("outputs", []))


def kernel_environment() -> dict[str, str]:
    """This process's environment without the ``RAGMETRICS_LLM_*`` variables, for every kernel started
    here: a notebook run with them set would send its texts to a model and keep the replies."""
    return {name: value for name, value in os.environ.items() if not name.startswith("RAGMETRICS_LLM_")}


def execute(notebook, folder: Path, timeout: int = 300, stop_at_error: bool = False):
    """Run the cells in a fresh kernel started in ``folder``: every cell, going on after errors, or
    up to the first error when ``stop_at_error``."""
    from nbclient import NotebookClient

    def run() -> None:
        client = NotebookClient(notebook, timeout=timeout, kernel_name="python3", allow_errors=True,
                                resources={"metadata": {"path": str(folder)}},
                                shutdown_kernel="immediate")  # the outputs are in: no graceful wait
        if not stop_at_error:
            client.execute(env=kernel_environment())
            return
        with client.setup_kernel(env=kernel_environment()):
            run_cells(client, notebook, stop_at_error=True)

    retry_kernel_start(run)
    return notebook


def cell_errors(notebook) -> list[dict]:
    """One entry per code cell with an error output: its id, its number among code cells, the error
    (``"Type: message"``, and the two apart), the line that raised and the cell's first line."""
    found = []
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    for number, cell in enumerate(code_cells, 1):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                traceback = ANSI.sub("", "\n".join(output.get("traceback", [])))
                failing = [line.strip() for line in traceback.splitlines() if ARROW.match(line)]
                found.append({"cell_id": cell.get("id", f"code cell {number}"), "code_cell": number,
                              "error": f"{output.get('ename')}: {output.get('evalue')}",
                              "type": output.get("ename"), "message": output.get("evalue"),
                              "line": failing[0] if failing else "",  # the line in the cell
                              "source": source(cell).strip().splitlines()[:1]})
    return found


class SetRun(NamedTuple):
    """What running one set showed, enough to judge it against what the set expects (``verdict``)."""
    errors: list[dict]              # ``cell_errors``: every cell with an error output, in order
    shown_before_error: list[dict]  # cells after the injected one that showed output before the first error
    injected_code_cell: int         # the injected cell's number among code cells (0: none)


def _first_line(output) -> str:
    if output.get("output_type") == "stream":
        text = output.get("text", "")
    else:
        data = output.get("data", {})
        if "image/png" in data or "image/svg+xml" in data:
            return "(a picture)"
        if "text/html" in data and "<td" in source({"source": data["text/html"]}):
            return "(a table)"
        text = data.get("text/plain", "")
    lines = [line for line in source({"source": text}).splitlines() if line.strip()]
    return lines[0].strip() if lines else "(blank output)"


def outcome(notebook) -> SetRun:
    """The ``SetRun`` of an executed notebook holding an injected parameters cell."""
    errors = cell_errors(notebook)
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    injected = next((n for n, cell in enumerate(code_cells, 1) if cell.get("id") == INJECTED_ID), 0)
    shown = []
    if errors:
        for number, cell in enumerate(code_cells[:errors[0]["code_cell"]], 1):
            before = []
            for output in cell.get("outputs", []):
                if output.get("output_type") == "error":
                    break
                before.append(output)
            if number > injected and before:
                shown.append({"cell_id": cell.get("id", f"code cell {number}"), "code_cell": number,
                              "output": _first_line(before[0])})
    return SetRun(errors, shown, injected)


def _where(entry: dict) -> str:
    start = f", starts {entry['source'][0]!r}" if entry.get("source") else ""
    return f"cell {entry['cell_id']} (code cell {entry['code_cell']}{start})"


def verdict(item: dict, run: SetRun) -> list[str]:
    """Why the run of the set ``item`` fails what the set expects; ``[]`` when it passes.

    Without ``error``: each cell with an error output. With ``error``: the first error must be of
    that class name, hold the phrase, come after the parameters cell, and follow no output.

    >>> error = {"cell_id": "check", "code_cell": 3, "type": "ValueError", "message": "relevant is empty",
    ...          "error": "ValueError: relevant is empty", "source": ["rml.on_notes_example(...)"], "line": ""}
    >>> expects = {"parameters": {"relevant": []}, "error": {"type": "ValueError", "message": "relevant"}}
    >>> verdict(expects, SetRun([error], [], injected_code_cell=2))
    []
    >>> verdict({"parameters": {"K": 3}}, SetRun([error], [], 2))
    ["cell check (code cell 3, starts 'rml.on_notes_example(...)'): ValueError: relevant is empty"]
    >>> verdict(expects, SetRun([], [], 2))
    ["expected ValueError with 'relevant' in its message, but no cell raised an error"]
    """
    expected = item.get("error")
    if expected is None:
        return [f"{_where(e)}: {e['error']}" + (f"\n      at {e['line']}" if e["line"] else "") for e in run.errors]
    wanted = f"{expected['type']} with {expected['message']!r} in its message"
    if not run.errors:
        return [f"expected {wanted}, but no cell raised an error"]
    first = run.errors[0]
    if first["code_cell"] <= run.injected_code_cell:
        return [f"expected {wanted} after the parameters cell, but {_where(first)} raised {first['error']} "
                "before the parameters took effect"]
    problems = []
    if first["type"] != expected["type"]:
        problems.append(f"expected {wanted}, but {_where(first)} raised {first['error']}")
    elif expected["message"] not in (first["message"] or ""):
        problems.append(f"expected {wanted}, but the message of {_where(first)} is: {first['error']}")
    problems += [f"cell {s['cell_id']} (code cell {s['code_cell']}) showed output before the error: {s['output']!r}"
                 for s in run.shown_before_error]
    return problems


def run_set(notebook_path: Path, item: dict, save_to: Path | None = None) -> SetRun:
    """Inject the set ``item``'s parameters into the notebook and execute it in its folder, in a fresh
    kernel: every cell, or up to the first error when the set expects one (``item["error"]``)."""
    notebook_path = Path(notebook_path)
    notebook = inject(nbformat.read(notebook_path, as_version=4), item["parameters"])
    execute(notebook, notebook_path.parent, stop_at_error="error" in item)
    if save_to is not None:
        text = nbformat.writes(notebook)
        replace_file(save_to, text if text.endswith("\n") else text + "\n")  # never through a planted link
    return outcome(notebook)


def run_sets(notebook_path: Path, sets: list[dict], timeout: int = 300) -> list[SetRun]:
    """``run_set`` for several sets (items of a set file) of one notebook in ONE kernel.

    Between sets the kernel's namespace is emptied (as ``%reset -f`` does) and every figure closed,
    so each set starts from nothing but the imported modules, which stay loaded: starting a kernel
    and importing pandas, matplotlib and jieba is most of a notebook's run time. The tests use it
    (through ``run_notebooks``); ``run_set`` (a fresh kernel per set) stays the reference and is
    what the command line runs.
    """
    return run_notebooks([(notebook_path, sets)], timeout)[0]


# Run in the kernel before every set of ``run_notebooks``. (1) Close every figure and empty the
# namespace as ``%reset -f`` does, without its full garbage collection (0.1-0.3 s a set with
# pandas, matplotlib and jieba loaded; Python's own collector still runs as usual). (2) Figures are
# laid out but not encoded: the inline backend shows a figure by saving it as a PNG with
# ``bbox_inches="tight"`` (drawn twice, rasterised, then compressed); here the PNG formatter lays
# it out once with ``figure.draw_without_rendering()`` and returns no image (these runs only look
# for errors). That runs every artist's draw (text layout and mathtext, colour mapping, image
# resampling, the renderer's size check) with the renderer's painting calls turned off, so it
# raises where saving would; only the pixels are skipped (~14 of 90 CPU-s over all the sets).
# IPython reports an error raised by a formatter as the cell's error output. Set again before every
# set, in case a notebook re-selects the backend.
BETWEEN_SETS = """\
def _between_sets(shell=get_ipython()):
    def lay_out_only(figure):
        figure.draw_without_rendering()

    import gc
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    plt.close(plt.figure())  # a first figure loads the backend, which sets the formatters
    plt.close("all")
    for formatter in shell.display_formatter.formatters.values():
        formatter.pop(Figure, None)
    shell.display_formatter.formatters["image/png"].for_type(Figure, lay_out_only)
    collect, gc.collect = gc.collect, lambda generation=2: 0
    try:
        shell.reset(new_session=False)
    finally:
        gc.collect = collect
_between_sets()
"""


# Sent to the kernel for each set of ``run_notebooks``: every code cell goes through IPython's own
# ``run_cell``, as a cell the kernel is sent does (display hook, figures shown at the cell's end, an
# error shown with its traceback), but all in one request: a round trip to the kernel costs about
# 5 ms of CPU a cell (sent one by one, the committed sets ran 11-13 % slower, with equal results).
# Before each cell, the streams are flushed and a marker output names the cell, so that
# ``run_in_one_request`` can give each cell its outputs.
CELL_MARKER = "application/x.run-parameter-sets.cell"
RUN_CELLS = """\
def _run_cells(cells, stop_at_error, shell=get_ipython()):
    import sys
    from IPython.display import publish_display_data

    for cell_id, code in cells:
        sys.stdout.flush()
        sys.stderr.flush()
        publish_display_data({{{marker!r}: cell_id}})
        if not shell.run_cell(code, store_history=True).success and stop_at_error:
            break
    sys.stdout.flush()
    sys.stderr.flush()
_run_cells({cells!r}, {stop_at_error!r})
del _run_cells
"""


def run_in_one_request(client, notebook, stop_at_error: bool = False) -> None:
    """What ``run_cells`` does, in one request to ``client``'s running kernel (``RUN_CELLS``): each
    code cell of ``notebook`` gets the outputs it showed and an execution count; after the first
    error, with ``stop_at_error``, the cells are not run and keep no output. The cells nbclient
    skips (blank, or tagged ``skip-execution``) are skipped."""
    code = [(str(index), source(cell)) for index, cell in enumerate(notebook.cells)
            if cell.cell_type == "code" and source(cell).strip()
            and client.skip_cells_with_tag not in cell.get("metadata", {}).get("tags", [])]
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
    driver = nbformat.v4.new_code_cell(RUN_CELLS.format(marker=CELL_MARKER, cells=code, stop_at_error=stop_at_error))
    client.nb = nbformat.v4.new_notebook(cells=[driver])
    client.execute_cell(driver, 0)
    current = None
    count = 0
    for output in driver.outputs:
        marker = output.get("data", {}).get(CELL_MARKER) if output.get("output_type") == "display_data" else None
        if marker is not None:
            count += 1
            current = notebook.cells[int(marker)]
            current.execution_count = count
        elif current is not None:
            current.outputs.append(output)
        else:
            raise RuntimeError(f"the kernel showed output before the first cell: {output}")


def run_notebooks(jobs: list[tuple[Path, list[dict]]], timeout: int = 300) -> list[list[SetRun]]:
    """``run_sets`` for several notebooks of one folder, one after another in ONE kernel.

    ``jobs`` is ``[(notebook path, [set, ...]), ...]``, each set an item of a set file
    (``{"parameters": {...}}``, optionally with ``"error"``); the result holds, for each job, the
    ``SetRun`` of each of its sets. A set that expects an error stops at the first error. The namespace
    is emptied and the figures closed before every set, as in ``run_sets``, so a notebook sees no name
    another one left; the modules stay imported. Figures are laid out but neither painted nor saved as
    PNG (``BETWEEN_SETS``): a drawing error is still the cell's error. A set's cells go to the kernel
    in one request (``run_in_one_request``); ``run_set`` sends them one by one.
    """
    return list(iter_notebooks(jobs, timeout))


def iter_notebooks(jobs: list[tuple[Path, list[dict]]], timeout: int = 300) -> Iterator[list[SetRun]]:
    """``run_notebooks``, yielding each job's results as soon as its sets have run (the tests report
    each notebook's sets then, instead of after the whole kernel's). The kernel stops when the
    iterator is exhausted or closed."""
    from nbclient import NotebookClient

    folders = {Path(path).resolve().parent for path, _ in jobs}
    if len(folders) != 1:
        raise ParameterSetError(f"one kernel runs notebooks of one folder (kernels start there), got {sorted(map(str, folders))}")
    folder = folders.pop()
    clean = nbformat.v4.new_code_cell(BETWEEN_SETS)

    def start() -> tuple[NotebookClient, contextlib.ExitStack]:
        client = NotebookClient(nbformat.v4.new_notebook(), timeout=timeout, kernel_name="python3", allow_errors=True,
                                resources={"metadata": {"path": str(folder)}},
                                shutdown_kernel="immediate")  # the outputs are in: no graceful wait
        stack = contextlib.ExitStack()
        stack.enter_context(client.setup_kernel(env=kernel_environment()))
        return client, stack

    client, stack = retry_kernel_start(start)
    with stack:
        for notebook_path, sets in jobs:
            original = nbformat.read(Path(notebook_path), as_version=4)
            results = []
            for item in sets:
                client.nb = nbformat.v4.new_notebook(cells=[copy.deepcopy(clean)])  # execute_cell stores
                client.execute_cell(client.nb.cells[0], 0)                          # the cell in client.nb
                notebook = inject(original, item["parameters"])
                run_in_one_request(client, notebook, stop_at_error="error" in item)
                results.append(outcome(notebook))
            yield results


def describe(errors: list[dict]) -> str:
    """One line per failing cell (id, number, first line, error), then the failing line if known."""
    lines = []
    for e in errors:
        lines.append(f"  {_where(e)}: {e['error']}")
        if e["line"]:
            lines.append(f"      at {e['line']}")
    return "\n".join(lines)


def set_file_for(argument: str) -> Path:
    path = Path(argument)
    if path.suffix == ".json":
        return path
    return SETS_DIR / f"{path.stem}.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebook", help="a notebook (its file in notebooks/parameter_sets/ is used) or a set file")
    parser.add_argument("set", nargs="?", help="run only this set (its name or its number, from 1)")
    parser.add_argument("--notebooks", type=Path, default=NOTEBOOK_DIR, help="folder of the notebooks")
    parser.add_argument("--out", type=Path, help="folder for the executed notebooks (default: a fresh private "
                                                  "folder in the temporary directory)")
    args = parser.parse_intermixed_args(argv)

    path = set_file_for(args.notebook)
    if not path.is_file():
        print(f"no parameter-set file {path}")
        return 1
    problems = validate(path, args.notebooks)
    if problems:
        print(f"{path}: invalid\n" + "\n".join(f"  {p}" for p in problems))
        return 1
    data = load_set_file(path)
    sets = data["sets"]
    if args.set is not None:
        sets = [s for i, s in enumerate(sets, 1) if args.set in (s["name"], str(i))]
        if not sets:
            print(f"{path.name} has no set named {args.set!r}")
            return 1
    if args.out is None:  # a new folder only its owner can enter: no name another user could plant first
        args.out = Path(tempfile.mkdtemp(prefix="parameter_sets-"))
    args.out.mkdir(parents=True, exist_ok=True)
    failed = 0
    for item in sets:
        slug = re.sub(r"[^A-Za-z0-9]+", "_", item["name"]).strip("_") or "set"
        saved = args.out / f"{Path(data['notebook']).stem}__{slug}.ipynb"
        run = run_set(args.notebooks / data["notebook"], item, save_to=saved)
        problems = verdict(item, run)
        heading = f"{data['notebook']} with {item['name']!r} {item['parameters']}"
        if "error" in item:
            expected = item["error"]
            result = "FAILS" if problems else f"stops as expected: {run.errors[0]['error']} in {_where(run.errors[0])}"
            print(f"{heading}: expects {expected['type']} with {expected['message']!r}; {result} "
                  f"(executed copy: {saved})")
            if problems:
                print("\n".join(f"  {problem}" for problem in problems))
        else:
            print(f"{heading}: {len(run.errors)} cell(s) with an error (executed copy: {saved})")
            if run.errors:
                print(describe(run.errors))
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
