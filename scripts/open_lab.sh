#!/usr/bin/env bash
# Install everything into .venv (created if missing) and open the notebooks in JupyterLab.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
exec .venv/bin/jupyter lab notebooks/00_rag_evaluation_map.ipynb "$@"
