#!/usr/bin/env bash
# Open the suite in JupyterLab, rooted at the repository, on notebook 00 (--zh: the Chinese edition's,
# notebooks/zh/, which scripts/zh_edition.py builds). The first run makes
# .venv and installs requirements.txt; later runs reuse it (see scripts/_venv.sh), so JupyterLab
# starts in seconds. Extra arguments go to JupyterLab, e.g. --no-browser or --port=8890.
#
# JupyterLab reads its settings from jupyter_config/ (not ~/.jupyter): custom/custom.css there
# draws the notebooks' Chinese with the bundled font, so it renders on machines without a CJK font.
# labconfig/page_config.json turns off JupyterLab's announcements (its "Jupyter news?" prompt and
# update check), which would pop up over a projected notebook and look for the internet.
set -euo pipefail
cd "$(dirname "$0")/.."
SCRIPT_NAME=open_lab.sh
source scripts/_venv.sh
ensure_venv

FIRST_NOTEBOOK=notebooks/00_rag_evaluation_map.ipynb
if [ "${1-}" = --zh ]; then
  shift
  FIRST_NOTEBOOK=notebooks/zh/00_rag_evaluation_map.ipynb
  export RAGMETRICS_LANG=zh  # JupyterLab's kernels inherit it: the exercises print in Chinese where translated
  if [ ! -f "$FIRST_NOTEBOOK" ]; then
    say "The Chinese edition has no $FIRST_NOTEBOOK yet (i18n/zh_CN/pending.txt lists what is still to translate)."
    exit 1
  fi
fi
FONT=ragmetrics_lite/course/fonts/RagMetricsNotoSansSC-Regular.ttf
export JUPYTER_CONFIG_DIR="$PWD/jupyter_config"
# A real copy: JupyterLab refuses to serve a symlink that leads out of the folder.
cmp -s "$FONT" "$JUPYTER_CONFIG_DIR/custom/${FONT##*/}" || cp "$FONT" "$JUPYTER_CONFIG_DIR/custom/"

options=(--ServerApp.root_dir="$PWD" --LabApp.default_url="/lab/tree/$FIRST_NOTEBOOK" --custom-css)
if [ "$(id -u 2>/dev/null || echo 1)" = 0 ] && [[ " ${*-} " != *" --allow-root "* ]]; then
  options+=(--allow-root)  # running as root (a container, CI): JupyterLab refuses to start without it
fi
say "Starting JupyterLab at $PWD on $FIRST_NOTEBOOK; stop it with Ctrl+C (twice)."
exec "$VENV_BIN/jupyter" lab "${options[@]}" ${1+"$@"}  # ${1+"$@"}: "$@", see run_tests.sh
