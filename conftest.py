"""Repository-wide pytest setup: no test and no notebook ever reaches a language model.

``ragmetrics_lite.triad.llm`` builds a real LLM judge when the environment names an endpoint
(notebooks 12-14 each have a cell that uses one if it exists). pytest imports this file before
collecting anything, and nbval's kernels inherit this process's environment, so removing the
variables here keeps ``python -m pytest`` and strict nbval deterministic on a machine where
they are set. ``tests/test_triad_llm.py`` checks both, and that these names match the module's.
"""
import os

LLM_ENVIRONMENT_VARIABLES = ("RAGMETRICS_LLM_BASE_URL", "RAGMETRICS_LLM_MODEL", "RAGMETRICS_LLM_API_KEY")

for _variable in LLM_ENVIRONMENT_VARIABLES:
    os.environ.pop(_variable, None)
