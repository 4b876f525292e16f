"""The package's shape: no import circle, the library never imports the course, and the library stays small.

* **No import circle.** The graph of imports between the package's modules is
  built from their source (every ``import`` and ``from ... import``, at the top
  or inside a function, relative imports resolved; ``from package import name``
  points at the submodule when ``name`` is one). A circle that a lazy import
  inside a function keeps from failing at run time is still a circle: the two
  modules cannot be read, tested or moved one without the other.
* **The library never imports the course.** ``ragmetrics_lite/course/`` (the
  exercises, plotting, the playground, the capstone's retriever, the source-notes
  checks) may import the library; no module outside it imports it, except the
  top-level ``__init__.py`` (which re-exports a few course names) and thin shims
  (modules that only import and re-export, keeping an old import path working).
* **The library is small where learners read it.** Everything outside
  ``course/`` and ``fast/`` (the fast engine) is at most ``LIBRARY_LINES``
  lines, docstrings and doctests included, and no module is over
  ``MODULE_LINES``. Run with ``-s`` to see the current figures.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "ragmetrics_lite"
LIBRARY_LINES = 6500
MODULE_LINES = 400


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _resolve(module: str, node: ast.ImportFrom) -> str:
    """The absolute name of ``from <node.module> import ...`` written in ``module``."""
    if node.level == 0:
        return node.module or ""
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def imports_of(module: str) -> set[str]:
    """The package's modules that ``module`` imports, anywhere in its source."""
    found = set()
    for node in ast.walk(ast.parse(MODULES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, node)
            found |= {f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names}
    return {name for name in found if name in MODULES and name != module}


GRAPH = {module: imports_of(module) for module in MODULES}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle through each group of modules that import one another (depth-first search)."""
    found, state, stack = [], {}, []

    def visit(module: str) -> None:
        state[module] = "open"
        stack.append(module)
        for imported in sorted(graph[module]):
            if state.get(imported) == "open":
                found.append(stack[stack.index(imported):] + [imported])
            elif imported not in state:
                visit(imported)
        stack.pop()
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module)
    return found


def test_the_cycle_finder_finds_a_circle_and_names_it():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert cycles(graph) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_relative_imports_are_resolved():
    assert "ragmetrics_lite._validation" in GRAPH["ragmetrics_lite.retrieval.metrics"]
    assert "ragmetrics_lite.retrieval.evaluate" in GRAPH["ragmetrics_lite.cli"]
    assert "ragmetrics_lite.fast.kernels" in GRAPH["ragmetrics_lite.retrieval.table"]


def test_no_import_circle():
    found = cycles(GRAPH)
    assert not found, "import circles: " + "; ".join(" -> ".join(circle) for circle in found)


def test_the_fast_engine_never_imports_what_calls_it():
    """cli -> retrieval.evaluate -> (retrieval.table, retrieval._frames) -> fast: never back up."""
    for module, imported in GRAPH.items():
        if module.startswith("ragmetrics_lite.fast"):
            upward = {name for name in imported if not name.startswith("ragmetrics_lite.fast")}
            assert upward <= {"ragmetrics_lite._validation"}, (module, upward)


def is_thin_shim(path: Path) -> bool:
    """A module that only imports (and names ``__all__``): it keeps an old import path working."""
    body = ast.parse(path.read_text(encoding="utf-8")).body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    return all(isinstance(node, (ast.Import, ast.ImportFrom)) or _names_all(node) for node in body)


def _names_all(node: ast.stmt) -> bool:
    return isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["__all__"]


def test_the_library_never_imports_the_course():
    course = "ragmetrics_lite.course"
    offenders = {}
    for module, imported in GRAPH.items():
        if module == course or module.startswith(course + ".") or module == "ragmetrics_lite":
            continue
        from_course = sorted(name for name in imported if name == course or name.startswith(course + "."))
        if from_course and not is_thin_shim(MODULES[module]):
            offenders[module] = from_course
    assert not offenders, f"library modules importing the course: {offenders}"


def library_lines() -> dict[str, int]:
    """Lines of every library module: outside ``course/`` and ``fast/``, docstrings and doctests included."""
    skipped = (PACKAGE / "course", PACKAGE / "fast")
    return {module: len(path.read_text(encoding="utf-8").splitlines()) for module, path in MODULES.items()
            if not any(path.is_relative_to(folder) for folder in skipped)}


def test_the_library_is_small():
    lines = library_lines()
    total = sum(lines.values())
    print(f"\nlibrary: {total} lines in {len(lines)} modules (limit {LIBRARY_LINES}); "
          f"largest: {', '.join(f'{m} {n}' for m, n in sorted(lines.items(), key=lambda x: -x[1])[:5])}")
    assert total <= LIBRARY_LINES, f"the library is {total} lines, over {LIBRARY_LINES}"


@pytest.mark.parametrize("module", sorted(library_lines()))
def test_no_library_module_is_over_the_limit(module):
    lines = library_lines()[module]
    assert lines <= MODULE_LINES, f"{MODULES[module].relative_to(ROOT)} is {lines} lines, over {MODULE_LINES}"
