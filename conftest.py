"""Parallel runs: ``scripts/run_tests.sh`` runs pytest-xdist with ``--dist loadgroup``, which keeps
the tests of one ``xdist_group`` in one worker process and spreads the groups over the cores.

- strict nbval: the cells of one notebook share one kernel, so each notebook is one group;
- ``tests/test_parameter_sets.py``: the sets of one file run in one kernel (cached), so each set
  file is one group, and the 15-odd files, the slowest part of the suite, spread over the cores;
- any other test module is one group, so a module-scoped fixture (the exported handouts, the
  JupyterLab server, a parsed font) is built once.

Without xdist (``pytest`` alone, or ``-n 0``) the marks change nothing.
"""
from __future__ import annotations

from pathlib import Path

import pytest


def _group(item) -> str:
    module = item.nodeid.split("::")[0]  # notebooks/07_ndcg.ipynb, tests/test_rouge.py ...
    callspec = getattr(item, "callspec", None)
    if module.endswith("test_parameter_sets.py") and callspec is not None and "path" in callspec.params:
        return f"{module}:{Path(callspec.params['path']).name}"
    return module


def pytest_collection_modifyitems(config, items):
    for item in items:
        if not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group(_group(item)))
