"""Re-execute notebooks in place, in order, each in a fresh kernel started in its own folder.

Maintainer command (run it after any change to the helper or a notebook, then commit the
notebooks): ``.venv/bin/python scripts/execute_notebooks.py`` for every notebook, or name some:
``.venv/bin/python scripts/execute_notebooks.py notebooks/07_ndcg.ipynb``.

Stored outputs then come from one clean top-to-bottom run, which is what strict nbval
compares against. No timing metadata is written, so an unchanged notebook re-executes to
an identical file. The notebook's kernelspec becomes the one this environment provides
(``jupyter kernelspec list`` of the README's ``.venv``), so opening it in JupyterLab started by
``scripts/open_lab.sh`` marks nothing as modified (``tests/test_kernelspec.py`` checks).
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from nbclient import NotebookClient

sys.path.insert(0, str(Path(__file__).resolve().parent))
from repo_files import replace_file  # noqa: E402
from run_parameter_sets import retry_kernel_start  # noqa: E402  (the sibling script)

ROOT = Path(__file__).resolve().parents[1]
KERNEL_NAME = "python3"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


# A real LLM judge set up in the shell (notebooks 12-14, see ragmetrics_lite/triad/llm.py) would
# store its replies; stored outputs come from the offline judge only, as under pytest (conftest.py).
# RAGMETRICS_LANG=zh would print the exercises in Chinese: the stored outputs are English.
for _name in ("RAGMETRICS_LLM_BASE_URL", "RAGMETRICS_LLM_MODEL", "RAGMETRICS_LLM_API_KEY", "RAGMETRICS_LANG"):
    os.environ.pop(_name, None)


def environment_kernelspec(name: str = KERNEL_NAME) -> dict[str, str]:
    """The kernelspec metadata JupyterLab writes into a notebook run on kernel ``name`` here."""
    spec = KernelSpecManager().get_kernel_spec(name)
    return {"display_name": spec.display_name, "language": spec.language, "name": name}


def merge_streams(outputs: list) -> list:
    """Join consecutive stdout (or stderr) chunks: the kernel may split one print into two
    messages depending on timing, which would make the stored file differ between runs."""
    merged = []
    for output in outputs:
        previous = merged[-1] if merged else None
        if (output.output_type == "stream" and previous is not None
                and previous.output_type == "stream" and previous.name == output.name):
            previous.text += output.text
        else:
            merged.append(output)
    return merged


def _run(path: Path, timeout: int):
    """Read the notebook afresh and run it in a new kernel started in its folder."""
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(
        notebook,
        timeout=timeout,
        kernel_name=KERNEL_NAME,
        resources={"metadata": {"path": str(path.parent)}},
        record_timing=False,
        store_widget_state=False,  # widget state holds random model ids; a handout would load a CDN
    ).execute()
    return notebook


def execute(path: Path, timeout: int = 600) -> float:
    """Run one notebook top to bottom in a new kernel and save it; returns seconds taken. A kernel
    that dies or stays silent at start-up (its port taken by another process) is started once more."""
    start = time.perf_counter()
    notebook = retry_kernel_start(lambda: _run(path, timeout))
    notebook.metadata["kernelspec"] = environment_kernelspec()
    notebook.metadata.pop("widgets", None)  # state an earlier run or a JupyterLab save left behind
    for cell in notebook.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            cell.outputs = merge_streams(cell.outputs)
            for output in cell.outputs:  # a widget view names a random model id: keep its text/plain
                output.get("data", {}).pop(WIDGET_VIEW, None)
    text = nbformat.writes(notebook)
    replace_file(path, text if text.endswith("\n") else text + "\n")  # as nbformat.write, never through a link
    return time.perf_counter() - start


def main(argv: list[str]) -> int:
    paths = [Path(a).resolve() for a in argv] or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    for path in paths:
        seconds = execute(path)
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        print(f"{shown}: executed in {seconds:.1f} s")
    # the Chinese edition copies the new outputs; an English text without its translation is listed
    from zh_edition import main as build_chinese_edition
    if build_chinese_edition([]):
        print("notebooks/zh/: the pages listed above keep their old outputs until their catalogues are updated")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
