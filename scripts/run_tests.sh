#!/usr/bin/env bash
# Install everything into .venv (created if missing) and run the whole test suite:
# doctests, unit tests, agreement with the reference libraries, strict nbval over every notebook.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
exec .venv/bin/python -m pytest "$@"
