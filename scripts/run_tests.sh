#!/usr/bin/env bash
# Run the whole test suite: doctests, unit tests, agreement with the reference libraries,
# strict nbval over every notebook. The first run makes .venv and installs requirements.txt;
# later runs reuse it (see scripts/_venv.sh). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
SCRIPT_NAME=run_tests.sh
source scripts/_venv.sh
ensure_venv
# ${1+"$@"} is "$@" written so that no arguments also work under set -u in old bash (3.2, macOS).
exec "$VENV_BIN/python" -m pytest ${1+"$@"}
