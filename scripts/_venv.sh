# Shared by open_lab.sh and run_tests.sh, which source it from the repository root.
# ensure_venv: check the Python, make (or remake) .venv with it, and install the pinned
# requirements only when they changed since the last successful install.
# Sets VENV_BIN (.venv/bin, or .venv/Scripts with Git Bash on Windows).
#
# PYTHON=/path/to/python3.12 picks the interpreter (default: python3, else python).

VENV=.venv
STAMP="$VENV/.requirements-stamp"  # what was installed: hash of the requirements, location
SUPPORTED="3.11, 3.12 or 3.13"

say() { printf '%s\n' "$*" >&2; }

# The interpreter to build .venv with: sets BASE_PYTHON and BASE_VERSION (e.g. 3.12.4) or exits.
find_python() {
  local how_to="install one of those (python.org, your package manager or pyenv) and rerun, or point to it: PYTHON=python3.12 bash scripts/$SCRIPT_NAME"
  if [ -n "${PYTHON:-}" ]; then
    BASE_PYTHON=$PYTHON
  elif command -v python3 >/dev/null 2>&1; then
    BASE_PYTHON=python3
  elif command -v python >/dev/null 2>&1; then
    BASE_PYTHON=python
  else
    say "This suite needs Python $SUPPORTED and no python3 was found on PATH: $how_to."
    exit 1
  fi
  BASE_VERSION=$("$BASE_PYTHON" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])' 2>/dev/null) || BASE_VERSION=""
  case "$BASE_VERSION" in
    3.11.* | 3.12.* | 3.13.*) ;;
    "")
      say "This suite needs Python $SUPPORTED, but '$BASE_PYTHON' did not run: $how_to."
      exit 1 ;;
    *)
      say "This suite needs Python $SUPPORTED, but $BASE_PYTHON is Python $BASE_VERSION: $how_to."
      exit 1 ;;
  esac
}

# Packages installed in .venv so far (a rough gauge of pip's progress while it installs).
installed_count() {
  local found
  found=$(ls -d "$VENV"/lib/python*/site-packages/*.dist-info "$VENV"/Lib/site-packages/*.dist-info 2>/dev/null | wc -l)
  echo $((found))
}

# with_heartbeat WHAT COMMAND...: run COMMAND, copying its output to stderr line by line, and say
# "WHAT: still working" whenever it has printed nothing for HEARTBEAT seconds (default 10), so
# the first run never sits silent for minutes (pip prints nothing while it installs, and making a
# venv takes half a minute). The exit status is COMMAND's.
with_heartbeat() {
  local what=$1 started=$SECONDS line status=0
  shift
  { "$@" 2>&1; echo "__status__ $?"; } | {
    while :; do
      if IFS= read -r -t "${HEARTBEAT:-10}" line; then
        case $line in
          "__status__ "*) exit "${line#__status__ }" ;;
          *) printf '%s\n' "$line" >&2 ;;
        esac
      elif [ $? -gt 128 ]; then
        say "$what: still working ($((SECONDS - started)) s so far, $(installed_count) packages in $VENV)."
      else
        exit 1  # the command's output ended without its status: it was killed
      fi
    done
  } || status=$?
  return $status
}

venv_bin() {
  if [ -d "$VENV/Scripts" ] && [ ! -d "$VENV/bin" ]; then echo "$VENV/Scripts"; else echo "$VENV/bin"; fi
}

# "sha256 <hash of requirements.txt and pyproject.toml>" and "location <repository>", two lines.
requirements_stamp() {
  "$1" -c 'import hashlib, os, sys
digest = hashlib.sha256()
for name in ("requirements.txt", "pyproject.toml"):
    with open(name, "rb") as f:
        digest.update(name.encode() + b"\0" + f.read() + b"\0")
print("sha256", digest.hexdigest())
print("location", os.getcwd())'
}

ensure_venv() {
  find_python
  VENV_BIN=$(venv_bin)
  local venv_python="$VENV_BIN/python" wanted="" made_by=""
  if [ -d "$VENV" ]; then
    made_by=$("$venv_python" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])' 2>/dev/null) || made_by=""
    if [ -z "$made_by" ]; then
      say "Rebuilding $VENV: its Python no longer runs; making it again with $BASE_PYTHON (Python $BASE_VERSION)."
      rm -rf "$VENV"
    elif [ "${made_by%.*}" != "${BASE_VERSION%.*}" ]; then
      say "Rebuilding $VENV: it was made by Python $made_by, and $BASE_PYTHON is Python $BASE_VERSION."
      rm -rf "$VENV"
    elif [ -f "$STAMP" ] && [ "$(sed -n 's/^location //p' "$STAMP")" != "$(requirements_stamp "$venv_python" | sed -n 's/^location //p')" ]; then
      say "Rebuilding $VENV: it was installed in $(sed -n 's/^location //p' "$STAMP"), and its scripts point there."
      rm -rf "$VENV"
    fi
  fi
  if [ ! -d "$VENV" ]; then
    say "Making the virtual environment $VENV with $BASE_PYTHON (Python $BASE_VERSION); this takes up to half a minute."
    if ! with_heartbeat "Making $VENV" "$BASE_PYTHON" -m venv "$VENV"; then
      rm -rf "$VENV"
      say "Could not create $VENV with $BASE_PYTHON (Python $BASE_VERSION); on Debian or Ubuntu install the venv module first: sudo apt install python3-venv (or python${BASE_VERSION%.*}-venv)."
      exit 1
    fi
    VENV_BIN=$(venv_bin)
    venv_python="$VENV_BIN/python"
  fi
  wanted=$(requirements_stamp "$venv_python")
  if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$wanted" ]; then
    return 0  # installed and unchanged: nothing to do
  fi
  if [ -f "$STAMP" ]; then
    say "requirements.txt or pyproject.toml changed since the last install: updating $VENV (pip's progress follows)."
  else
    say "First run: installing the 133 pinned packages of requirements.txt into $VENV (about 260 MB to"
    say "download, 1 GB on disk). The download alone takes about 3.5 minutes at 10 Mbit/s, seconds on a fast"
    say "network; pip's progress follows. Later runs skip this step until requirements.txt changes."
  fi
  if ! with_heartbeat "Installing" "$venv_python" -m pip install --disable-pip-version-check -r requirements.txt; then
    say "pip could not finish (its message is above): fix the cause and rerun; what was installed stays."
    exit 1
  fi
  printf '%s\n' "$wanted" > "$STAMP"
  say "Installed; $VENV is ready."
}
