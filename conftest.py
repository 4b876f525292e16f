"""Repository-wide pytest setup.

1. No test and no notebook ever reaches a language model.

``ragmetrics_lite.triad.llm`` builds a real LLM judge when the environment names an endpoint
(notebooks 12-14 each have a cell that uses one if it exists). pytest imports this file before
collecting anything, and nbval's kernels inherit this process's environment, so removing the
variables here keeps ``python -m pytest`` and strict nbval deterministic on a machine where
they are set. ``tests/test_triad_llm.py`` checks both, and that these names match the module's.

2. Parallel runs: ``scripts/run_tests.sh`` runs pytest-xdist (``-n auto --dist loadscope``), and the
scheduler below decides what must stay in one worker process; the units are spread over the cores.

- strict nbval: the cells of one notebook share one kernel, so a notebook is one unit;
- ``tests/test_parameter_sets.py``: the sets of one file run in one kernel (cached), so each set
  file is one unit, and the 15-odd files, the slowest part of the suite, spread over the cores;
- ``tests/test_launch.py``: each test makes its own repository and venv (the slowest tests of
  the suite, with no shared fixture), so each test is one unit;
- any other test module is one unit, so a module-scoped fixture (the exported handouts, the
  JupyterLab server, a parsed font) is built once.

(xdist's own ``--dist loadgroup`` marks do not work with pytest 9: xdist 3.8 renames
``item._nodeid``, which pytest 9 no longer reads.) Without xdist (``pytest`` alone, or ``-n 0``)
the scheduler is not used.
"""
from __future__ import annotations

import os

import pytest


LLM_ENVIRONMENT_VARIABLES = ("RAGMETRICS_LLM_BASE_URL", "RAGMETRICS_LLM_MODEL", "RAGMETRICS_LLM_API_KEY")

for _variable in LLM_ENVIRONMENT_VARIABLES:
    os.environ.pop(_variable, None)


PARAMETER_SETS = "tests/test_parameter_sets.py"
ONE_UNIT_PER_TEST = {"tests/test_launch.py"}


def scope(nodeid: str) -> str:
    """The unit of work a test belongs to.

    >>> scope("notebooks/07_ndcg.ipynb::Cell 12")
    'notebooks/07_ndcg.ipynb'
    >>> scope("tests/test_parameter_sets.py::test_notebook_runs_without_error_on_the_set[07_ndcg[K = 3]]")
    'tests/test_parameter_sets.py::07_ndcg'
    >>> scope("tests/test_rouge.py::test_lcs[a-b]")
    'tests/test_rouge.py'
    >>> scope("tests/test_launch.py::test_install_once_skip_when_unchanged_update_when_changed")
    'tests/test_launch.py::test_install_once_skip_when_unchanged_update_when_changed'
    """
    module, _, rest = nodeid.partition("::")
    if module in ONE_UNIT_PER_TEST:
        return nodeid
    if module == PARAMETER_SETS and rest.startswith("test_notebook_runs_without_error_on_the_set["):
        return f"{module}::{rest.split('[')[1]}"
    return module


@pytest.hookimpl(optionalhook=True)  # without xdist (-p no:xdist) the hook is simply unused
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadscope":
        return None  # another --dist: xdist's own scheduler
    from xdist.scheduler import LoadScopeScheduling

    class SuiteScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return scope(nodeid)

    return SuiteScheduling(config, log)
