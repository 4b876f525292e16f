"""Repository-wide pytest setup.

1. No test and no notebook ever reaches a language model.

``ragmetrics_lite.triad.llm`` builds a real LLM judge when the environment names an endpoint
(notebooks 12-14 each have a cell that uses one if it exists). pytest imports this file before
collecting anything, and nbval's kernels inherit this process's environment, so removing the
variables here keeps ``python -m pytest`` and strict nbval deterministic on a machine where
they are set. ``tests/test_triad_llm.py`` checks both, and that these names match the module's.

2. A kernel that nbval starts and that dies before its first reply is started once more
(``retrying_kernel_start``: two kernels starting at once can pick the same free port).

3. Parallel runs: ``scripts/run_tests.sh`` runs pytest-xdist (``-n auto --dist loadscope``), and the
scheduler below decides what must stay in one worker process, and in which order the units start.

- strict nbval: the cells of one notebook share one kernel, so a notebook is one unit;
- ``tests/test_parameter_sets.py``: the set files are split over three kernels
  (``tests.helpers.parameter_set_kernel``), each running its notebooks' sets in turn, so the sets
  of one kernel are one unit, and the three, the slowest part of the suite, spread over the cores;
- ``tests/test_launch.py``: each test makes its own repository and venv (no shared fixture), so
  each test is one unit;
- any other test module is one unit, so a module-scoped fixture (the exported handouts, the
  JupyterLab server, a parsed font) is built once.

The units start longest first (``ESTIMATED_SECONDS``, measured; an unlisted unit counts a tenth of
a second per test), so the workers are not left waiting at the end on one long unit started last.
(xdist's own ``--dist loadgroup`` marks do not work with pytest 9: xdist 3.8 renames
``item._nodeid``, which pytest 9 no longer reads.) Without xdist (``pytest`` alone, or ``-n 0``)
the scheduler is not used.

4. ``-n auto`` starts one worker more than there are cores (``pytest_xdist_auto_num_workers``): a
worker spends much of its time waiting for a kernel, Chromium or a subprocess, which run as other
processes, and the extra worker keeps every core busy meanwhile. Measured on 2 cores, machine
otherwise idle, the whole suite: 225 s with 2 workers, 193 s with 3, 214 s with 4.

5. While the workers collect (ten seconds or more, in which pytest prints nothing), the controller
says so every few seconds (``_CollectingHeartbeat``): a first run never looks stuck.
"""
from __future__ import annotations

import os

import pytest


def retrying_kernel_start(start, attempts: int = 2):
    """``start`` (nbval's ``start_new_kernel``), tried again when the kernel dies before answering.

    Each kernel takes five TCP ports that jupyter_client picks as free and then releases for the
    kernel to bind; two workers (or another program) starting kernels at the same moment can get
    the same port, and that kernel dies before its first reply ("Kernel died before replying to
    kernel_info"). A second start with fresh ports succeeds; a kernel that cannot start at all
    still fails, with the same error.

    >>> calls = []
    >>> def flaky(**kwargs):
    ...     calls.append(kwargs)
    ...     if len(calls) == 1:
    ...         raise RuntimeError("Kernel died before replying to kernel_info")
    ...     return "manager", "client"
    >>> retrying_kernel_start(flaky)(kernel_name="python3"), len(calls)
    (('manager', 'client'), 2)
    >>> def broken(**kwargs):
    ...     raise RuntimeError("Kernel died before replying to kernel_info")
    >>> retrying_kernel_start(broken)(kernel_name="python3")
    Traceback (most recent call last):
    RuntimeError: Kernel died before replying to kernel_info
    """
    def start_with_retry(**kwargs):
        for attempt in range(1, attempts + 1):
            try:
                return start(**kwargs)
            except RuntimeError as error:
                if attempt == attempts or "died before replying" not in str(error):
                    raise
    return start_with_retry


def pytest_configure(config):
    try:
        import nbval.kernel
    except ImportError:
        return
    if not getattr(nbval.kernel.start_new_kernel, "retries", False):
        nbval.kernel.start_new_kernel = retrying_kernel_start(nbval.kernel.start_new_kernel)
        nbval.kernel.start_new_kernel.retries = True


class _CollectingHeartbeat:
    """While the workers collect (each imports every test module: ten seconds or more, in which
    pytest prints nothing), the controller says so every ``SECONDS``, until the last has collected."""

    SECONDS = 6

    def __init__(self, reporter, workers: int):
        import threading

        self.reporter, self.waiting, self.stop = reporter, workers, threading.Event()
        threading.Thread(target=self._beat, daemon=True).start()

    def _beat(self) -> None:
        import time

        started = time.monotonic()
        while not self.stop.wait(self.SECONDS):
            self.reporter.write_line(f"collecting the tests in each worker ({time.monotonic() - started:.0f} s)")

    def collected(self) -> None:
        self.waiting -= 1
        if self.waiting <= 0:
            self.stop.set()


@pytest.hookimpl(optionalhook=True)  # xdist's controller only
def pytest_xdist_setupnodes(config, specs):
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        config._collecting_heartbeat = _CollectingHeartbeat(reporter, len(specs))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node, ids):
    heartbeat = getattr(node.config, "_collecting_heartbeat", None)
    if heartbeat is not None:
        heartbeat.collected()


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: the number of cores plus one (point 4 above)."""
    return (os.cpu_count() or 1) + 1


LLM_ENVIRONMENT_VARIABLES = ("RAGMETRICS_LLM_BASE_URL", "RAGMETRICS_LLM_MODEL", "RAGMETRICS_LLM_API_KEY")

# RAGMETRICS_LANG=zh makes the exercises print in Chinese (scripts/open_lab.sh --zh sets it): the stored
# outputs are English, so a value exported in the shell must not reach a test or a kernel either.
for _variable in (*LLM_ENVIRONMENT_VARIABLES, "RAGMETRICS_LANG"):
    os.environ.pop(_variable, None)


# notebooks/zh/ holds the Chinese edition: copies of the executed English notebooks that
# scripts/zh_edition.py writes (code and outputs unchanged), so nbval must not run them a second time.
collect_ignore = ["notebooks/zh"]

PARAMETER_SETS = "tests/test_parameter_sets.py"
ONE_UNIT_PER_TEST = {"tests/test_launch.py"}

# Seconds the slowest units took (the sum of their tests' durations from `--junitxml`, 2 workers on
# 2 cores, machine otherwise idle, 2026-12-02), rounded; only the order matters. Remeasure after
# a big change: `pytest -n 2 --dist loadscope --junitxml=FILE` and add up the units' test times.
ESTIMATED_SECONDS = {
    "tests/test_parameter_sets.py::kernel 0": 45,
    "tests/test_parameter_sets.py::kernel 2": 43,
    "tests/test_parameter_sets.py::kernel 1": 37,
    "tests/test_handouts.py": 32,
    "tests/test_browser_lab.py": 27,
    "tests/test_speed_tokenizer_cache.py": 21,
    "tests/test_parameter_sets.py": 14,
    "tests/test_exercise_registry.py": 8,
    "tests/test_plotting.py": 8,
    "tests/test_zh_edition.py": 7,
    "tests/test_launch.py::test_install_once_skip_when_unchanged_update_when_changed": 7,
    "tests/test_pytrec_eval_random.py": 6,
    "tests/test_agreement.py": 5,
    "tests/test_triad_embedding.py": 5,
    "tests/test_judge_agreement.py": 5,
    "notebooks/": 4,  # any notebook: a kernel and its cells
}


def scope(nodeid: str) -> str:
    """The unit of work a test belongs to.

    >>> scope("notebooks/07_ndcg.ipynb::Cell 12")
    'notebooks/07_ndcg.ipynb'
    >>> scope("tests/test_parameter_sets.py::test_notebook_runs_without_error_on_the_set[07_ndcg[K = 3]]")
    'tests/test_parameter_sets.py::kernel 1'
    >>> scope("tests/test_parameter_sets.py::test_notebook_runs_without_error_on_the_set[11_meteor[unreadable]]")
    'tests/test_parameter_sets.py::kernel 2'
    >>> scope("tests/test_rouge.py::test_lcs[a-b]")
    'tests/test_rouge.py'
    >>> scope("tests/test_launch.py::test_install_once_skip_when_unchanged_update_when_changed")
    'tests/test_launch.py::test_install_once_skip_when_unchanged_update_when_changed'
    """
    from tests.helpers import parameter_set_kernel

    module, _, rest = nodeid.partition("::")
    if module in ONE_UNIT_PER_TEST:
        return nodeid
    if module == PARAMETER_SETS and rest.startswith("test_notebook_runs_without_error_on_the_set["):
        return f"{module}::kernel {parameter_set_kernel(rest.split('[')[1])}"
    return module


def estimated_seconds(unit: str, tests: int) -> float:
    """How long a unit of ``tests`` tests takes: ``ESTIMATED_SECONDS``, else 0.1 s a test.

    >>> estimated_seconds("tests/test_handouts.py", 34), estimated_seconds("notebooks/07_ndcg.ipynb", 28)
    (32, 4)
    >>> estimated_seconds("tests/test_rouge.py", 34)
    3.4
    """
    if unit in ESTIMATED_SECONDS:
        return ESTIMATED_SECONDS[unit]
    if unit.startswith("notebooks/") and unit.endswith(".ipynb"):
        return ESTIMATED_SECONDS["notebooks/"]
    return round(0.1 * tests, 3)


def longest_first(units: dict[str, int]) -> list[str]:
    """The units ({unit: number of tests}) in the order they start: longest first, ties as collected.

    >>> longest_first({"tests/test_rouge.py": 34, "notebooks/00_map.ipynb": 17, "tests/test_handouts.py": 34,
    ...                "tests/test_x.py": 2, "tests/test_parameter_sets.py::kernel 2": 25})
    ['tests/test_parameter_sets.py::kernel 2', 'tests/test_handouts.py', 'notebooks/00_map.ipynb', 'tests/test_rouge.py', 'tests/test_x.py']
    """
    return sorted(units, key=lambda unit: -estimated_seconds(unit, units[unit]))


@pytest.hookimpl(optionalhook=True)  # without xdist (-p no:xdist) the hook is simply unused
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") != "loadscope":
        return None  # another --dist: xdist's own scheduler
    from xdist.scheduler import LoadScopeScheduling

    class SuiteScheduling(LoadScopeScheduling):
        _ordered = False

        def _split_scope(self, nodeid: str) -> str:
            return scope(nodeid)

        def _assign_work_unit(self, node) -> None:
            if not self._ordered:  # the queue is complete when the first unit is handed out
                queue = dict(self.workqueue)
                self.workqueue.clear()
                for unit in longest_first({unit: len(tests) for unit, tests in queue.items()}):
                    self.workqueue[unit] = queue[unit]
                self._ordered = True
            super()._assign_work_unit(node)

    return SuiteScheduling(config, log)
