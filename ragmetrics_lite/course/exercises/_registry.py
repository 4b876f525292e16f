"""Finding the exercises: every ``qNN_<topic>.py`` module of a package defines exactly one.

:func:`discover` imports each module of the package whose name starts with
``q`` and two digits, and checks that it defines exactly one exercise, bound
to the module's own name and carrying that name, and that the module exposes
the calls a notebook makes (``check``, ``hint``, ``solution``; ``show`` for an
exercise that has it) as that exercise's methods. A module that breaks the
rule stops the import with a :class:`RegistryError` naming the file and the
fix, so a new exercise cannot go unnoticed or half-registered.
"""
from __future__ import annotations

import importlib
import pkgutil
import re
from types import ModuleType

from ._checker import Exercise

MODULE_NAME = re.compile(r"q\d\d_[a-z0-9_]+")
MODULE_CALLS = ("check", "hint", "solution", "show")  # what a notebook calls on a module


class RegistryError(ImportError):
    """An exercise module that does not follow the one-file, one-exercise rule."""


def discover(package: ModuleType) -> dict[str, Exercise]:
    """The exercises of ``package``'s ``qNN_*`` modules, by name, in file-name order."""
    found = {}
    names = sorted(m.name for m in pkgutil.iter_modules(package.__path__) if re.match(r"q\d", m.name))
    for name in names:
        where = f"{package.__name__}.{name} ({name}.py)"
        if not MODULE_NAME.fullmatch(name):
            raise RegistryError(f"{where}: name an exercise module qNN_<topic>, lower case")
        try:
            module = importlib.import_module(f"{package.__name__}.{name}")
        except Exception as exc:
            raise RegistryError(f"{where} does not import: {type(exc).__name__}: {exc}") from exc
        exercises = {attr: v for attr, v in vars(module).items() if isinstance(v, Exercise)}
        if len(exercises) != 1:
            listed = ", ".join(sorted(exercises)) or "none"
            raise RegistryError(f"{where} defines {len(exercises)} exercises ({listed}); define exactly one")
        (attr, exercise), = exercises.items()
        if attr != name or exercise.name != name:
            raise RegistryError(
                f"{where}: its exercise is {exercise.name!r}, bound to {attr!r}; the file, the variable "
                "and the exercise's name must all be the same"
            )
        _check_module_calls(module, exercise, where)
        found[name] = exercise
    return found


def _check_module_calls(module: ModuleType, exercise: Exercise, where: str) -> None:
    """The module's ``check``, ``hint``, ``solution`` (and ``show``) are the exercise's own methods."""
    calls = [call for call in MODULE_CALLS if hasattr(exercise, call)]
    wrong = [call for call in calls if getattr(module, call, None) != getattr(exercise, call)]
    if wrong:
        lines = "; ".join(f"{call} = {exercise.name}.{call}" for call in wrong)
        raise RegistryError(f"{where} does not expose {', '.join(wrong)}: end the module with {lines}")


def table(registry: dict[str, Exercise]) -> str:
    """The registry as a reStructuredText table: exercise, what the learner gives, notebook."""
    rows = [(f"``{n}``", e.describe_answer(), f"``{e.notebook}``") for n, e in registry.items()]
    header = ("exercise", "the learner gives", "notebook")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(3)]
    rule = "  ".join("=" * w for w in widths)

    def line(row):
        return "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip()

    return "\n".join([rule, line(header), rule, *map(line, rows), rule])
