#!/usr/bin/env bash
# Run the whole test suite: doctests, unit tests, agreement with the reference libraries,
# strict nbval over every notebook, the handouts and the browser tests. The first run makes .venv
# and installs requirements.txt; later runs reuse it (see scripts/_venv.sh). Extra arguments go
# to pytest.
#
# --with-browser  first make sure headless Chromium is there for the browser tests: found on PATH
#                 (or at $RAGMETRICS_CHROMIUM), else installed with apt-get when run as root;
#                 otherwise a message says how, and the browser tests skip (fail under CI=true).
#
# The tests run in parallel, one worker per core plus one (pytest-xdist `-n auto --dist loadscope`; conftest.py
# keeps each notebook's cells, and each module's shared fixtures, in one process). Pass -n 0 to
# run in one process, or -n 4 for four.
set -euo pipefail
cd "$(dirname "$0")/.."
SCRIPT_NAME=run_tests.sh
source scripts/_venv.sh

with_browser=0
parallel=(-n auto --dist loadscope)
pytest_args=()
for argument in ${1+"$@"}; do  # ${1+"$@"} is "$@" written so that no arguments also work under set -u in old bash (3.2, macOS)
  case "$argument" in
    --with-browser) with_browser=1 ;;
    -n | -n* | --numprocesses* | --dist* | no:xdist) parallel=(); pytest_args+=("$argument") ;;
    *) pytest_args+=("$argument") ;;
  esac
done

ensure_venv

# The browser the tests would find (tests/browser.py looks in the same places), or nothing.
find_chromium() {
  if [ -n "${RAGMETRICS_CHROMIUM:-}" ]; then
    if [ -x "$RAGMETRICS_CHROMIUM" ]; then echo "$RAGMETRICS_CHROMIUM"; fi
    return 0
  fi
  local name
  for name in chromium chromium-browser google-chrome google-chrome-stable; do
    if command -v "$name" 2>/dev/null; then return 0; fi
  done
}

ensure_browser() {
  local found
  found=$(find_chromium)
  if [ -n "$found" ]; then
    say "Browser tests: using $found."
    return 0
  fi
  if [ "$(id -u 2>/dev/null || echo 1)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    say "Browser tests: no Chromium found; installing Debian's chromium with apt-get (about 100 MB)."
    if DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2 \
        && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >&2; then
      found=$(find_chromium)
      if [ -n "$found" ]; then
        say "Browser tests: installed; using $found."
        return 0
      fi
    fi
    say "Browser tests: apt-get could not install chromium (its message is above); the browser tests will skip (and fail under CI=true)."
  else
    say "Browser tests: no Chromium found, and installing it needs root and apt-get. Install it yourself (Debian: sudo apt-get install chromium) or point to one: RAGMETRICS_CHROMIUM=/path/to/chrome. The browser tests will skip (and fail under CI=true)."
  fi
}

if [ "$with_browser" = 1 ]; then
  ensure_browser
fi
say "Running the tests: a few minutes on two cores (each dot is a passed test; notebooks run cell by cell)."
# -u: unbuffered, so each dot shows as its test finishes even when the output goes to a pipe or a
# CI log (block-buffered otherwise: minutes without a line).
# ${a[@]+"${a[@]}"}: "${a[@]}" that also works for an empty array under set -u in old bash.
exec "$VENV_BIN/python" -u -m pytest ${parallel[@]+"${parallel[@]}"} ${pytest_args[@]+"${pytest_args[@]}"}
