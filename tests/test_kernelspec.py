"""Stored notebooks carry the kernelspec this environment provides.

JupyterLab rewrites a notebook's ``metadata.kernelspec`` with the running kernel's spec; when
the stored one differs (``"Python 3"`` against ipykernel's ``"Python 3 (ipykernel)"``), every
notebook shows as modified the moment it opens and saving it makes a git diff.
``scripts/execute_notebooks.py`` stores the environment's spec; this test compares.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import load_script

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


execute_notebooks = load_script(ROOT / "scripts" / "execute_notebooks.py")


@pytest.fixture(scope="module")
def environment_spec() -> dict[str, str]:
    """What `jupyter kernelspec list --json` of this environment reports for python3."""
    listing = subprocess.run([sys.executable, "-m", "jupyter", "kernelspec", "list", "--json"],
                             capture_output=True, text=True, check=True)
    spec = json.loads(listing.stdout)["kernelspecs"]["python3"]["spec"]
    return {"display_name": spec["display_name"], "language": spec["language"], "name": "python3"}


def test_the_execute_script_stores_what_jupyter_reports(environment_spec):
    assert execute_notebooks.environment_kernelspec() == environment_spec


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_stored_kernelspec_is_the_environments(path, environment_spec):
    stored = json.loads(path.read_text(encoding="utf-8"))["metadata"].get("kernelspec")
    assert stored == environment_spec, (
        f"{path.name} stores kernelspec {stored}, this environment provides {environment_spec}: "
        f"re-execute it with `.venv/bin/python scripts/execute_notebooks.py {path.relative_to(ROOT)}`")
