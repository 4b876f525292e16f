"""Run a notebook with the alternative inputs a learner would try, and list every cell that fails.

Each notebook keeps its example's inputs in one code cell tagged ``parameters`` (JSON types only:
numbers, strings, booleans, lists, dicts with string keys). ``notebooks/parameter_sets/NN_name.json``
holds a few alternatives::

    {"notebook": "01_recall_at_k.ipynb",
     "sets": [{"name": "K = 3", "parameters": {"K": 3}},
              {"name": "a relevant document moved past K", "parameters": {"retrieved": ["d2", "d1"]}}]}

For each set, as papermill does, a new code cell assigning the set's values (``K = 3``) goes right
after the ``parameters`` cell; the whole notebook then runs in a fresh kernel in its own folder with
errors allowed, and every cell with an error output is reported by its cell id (papermill's own
report counts cells after the injected one off by one). ``tests/test_parameter_sets.py`` runs every
set of every file; notebook authors run one notebook by hand:

    python scripts/run_parameter_sets.py notebooks/01_recall_at_k.ipynb          # every set in its file
    python scripts/run_parameter_sets.py notebooks/01_recall_at_k.ipynb "K = 3"  # one set (name or number)
    python scripts/run_parameter_sets.py /tmp/my_sets.json                       # a set file of your own

The executed notebooks are written to the temporary folder (printed) so you can open them.
The exit status is 1 when a cell errors or a set file is invalid.
"""
from __future__ import annotations

import argparse
import ast
import copy
import json
import math
import re
import sys
import tempfile
from pathlib import Path

import nbformat

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
        if (not isinstance(item, dict) or set(item) != {"name", "parameters"} or not isinstance(item["name"], str)
                or not item["name"].strip() or not isinstance(item["parameters"], dict) or not item["parameters"]):
            raise ParameterSetError(f"{Path(path).name}: set {i} must be {{\"name\": \"...\", \"parameters\": {{...}}}} "
                                    "with a name and at least one parameter")
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


def execute(notebook, folder: Path, timeout: int = 300):
    """Run every cell in a fresh kernel started in ``folder``, going on after errors."""
    from nbclient import NotebookClient

    retry_kernel_start(lambda: NotebookClient(notebook, timeout=timeout, kernel_name="python3", allow_errors=True,
                                              resources={"metadata": {"path": str(folder)}}).execute())
    return notebook


def cell_errors(notebook) -> list[dict]:
    """One entry per code cell with an error output: its id, its number among code cells, the error."""
    found = []
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    for number, cell in enumerate(code_cells, 1):
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error":
                traceback = ANSI.sub("", "\n".join(output.get("traceback", [])))
                failing = [line.strip() for line in traceback.splitlines() if ARROW.match(line)]
                found.append({"cell_id": cell.get("id", f"code cell {number}"), "code_cell": number,
                              "error": f"{output.get('ename')}: {output.get('evalue')}",
                              "line": failing[0] if failing else "",  # the line in the cell
                              "source": source(cell).strip().splitlines()[:1]})
    return found


def run_set(notebook_path: Path, parameters: dict, save_to: Path | None = None) -> list[dict]:
    """Inject ``parameters`` into the notebook, execute it in its folder, return ``cell_errors``."""
    notebook_path = Path(notebook_path)
    notebook = inject(nbformat.read(notebook_path, as_version=4), parameters)
    execute(notebook, notebook_path.parent)
    if save_to is not None:
        nbformat.write(notebook, save_to)
    return cell_errors(notebook)


def run_sets(notebook_path: Path, parameter_sets: list[dict], timeout: int = 300) -> list[list[dict]]:
    """``run_set`` for several sets of one notebook in ONE kernel: ``cell_errors`` for each set.

    Between sets the kernel's namespace is emptied (as ``%reset -f`` does) and every figure closed,
    so each set starts from nothing but the imported modules, which stay loaded: starting a kernel
    and importing pandas, matplotlib and jieba is most of a notebook's run time. The tests use it
    (through ``run_notebooks``); ``run_set`` (a fresh kernel per set) stays the reference and is
    what the command line runs.
    """
    return run_notebooks([(notebook_path, parameter_sets)], timeout)[0]


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


def run_notebooks(jobs: list[tuple[Path, list[dict]]], timeout: int = 300) -> list[list[list[dict]]]:
    """``run_sets`` for several notebooks of one folder, one after another in ONE kernel.

    ``jobs`` is ``[(notebook path, [parameters, ...]), ...]``; the result holds, for each job, the
    ``cell_errors`` of each of its sets. The namespace is emptied and the figures closed before every
    set, as in ``run_sets``, so a notebook sees no name another one left; the modules stay imported.
    Figures are laid out but neither painted nor saved as PNG (``BETWEEN_SETS``): a drawing error
    is still the cell's error.
    """
    from nbclient import NotebookClient

    folders = {Path(path).resolve().parent for path, _ in jobs}
    if len(folders) != 1:
        raise ParameterSetError(f"one kernel runs notebooks of one folder (kernels start there), got {sorted(map(str, folders))}")
    folder = folders.pop()
    clean = nbformat.v4.new_code_cell(BETWEEN_SETS)

    def run_all() -> list:
        client = NotebookClient(nbformat.v4.new_notebook(), timeout=timeout, kernel_name="python3", allow_errors=True,
                                resources={"metadata": {"path": str(folder)}})
        results = []
        with client.setup_kernel():
            for notebook_path, parameter_sets in jobs:
                original = nbformat.read(Path(notebook_path), as_version=4)
                results.append([])
                for parameters in parameter_sets:
                    client.nb = nbformat.v4.new_notebook(cells=[copy.deepcopy(clean)])  # execute_cell stores
                    client.execute_cell(client.nb.cells[0], 0)                          # the cell in client.nb
                    notebook = inject(original, parameters)
                    client.nb = notebook
                    for index, cell in enumerate(notebook.cells):
                        client.execute_cell(cell, index)
                    results[-1].append(cell_errors(notebook))
        return results

    return retry_kernel_start(run_all)


def describe(errors: list[dict]) -> str:
    """One line per failing cell (id, number, first line, error), then the failing line if known."""
    lines = []
    for e in errors:
        start = f", starts {e['source'][0]!r}" if e["source"] else ""
        lines.append(f"  cell {e['cell_id']} (code cell {e['code_cell']}{start}): {e['error']}")
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
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "parameter_sets",
                        help="folder for the executed notebooks")
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
    args.out.mkdir(parents=True, exist_ok=True)
    failed = 0
    for item in sets:
        slug = re.sub(r"[^A-Za-z0-9]+", "_", item["name"]).strip("_") or "set"
        saved = args.out / f"{Path(data['notebook']).stem}__{slug}.ipynb"
        errors = run_set(args.notebooks / data["notebook"], item["parameters"], save_to=saved)
        print(f"{data['notebook']} with {item['name']!r} {item['parameters']}: "
              f"{len(errors)} cell(s) with an error (executed copy: {saved})")
        if errors:
            print(describe(errors))
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
