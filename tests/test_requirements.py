"""requirements.txt pins the whole environment the suite runs in, dependencies included.

A package that arrives unpinned (a new dependency of a pinned one) makes a fresh install differ
from the one the stored notebook outputs came from; ``pip check`` catches pins that contradict
each other.
"""
from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?==([^\s#]+)")


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pinned() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines():
        match = PIN.match(line.strip())
        if match:
            pins[canonical(match[1])] = match[2]
    return pins


def installed() -> dict[str, str]:
    """What ``pip freeze`` lists, read in this process: every distribution but the packaging tools
    (pip, setuptools, wheel, as pip freeze leaves them out) and this package itself (``-e .``)."""
    skipped = {"pip", "setuptools", "wheel", "distribute", "ragmetrics-lite"}
    versions = {}
    for distribution in importlib.metadata.distributions():
        name = canonical(distribution.metadata["Name"])
        if name not in skipped:
            versions[name] = distribution.version
    return versions


def test_every_installed_package_is_pinned_at_its_installed_version():
    pins, have = pinned(), installed()
    unpinned = sorted(set(have) - set(pins))
    assert not unpinned, f"installed but not pinned in requirements.txt: {unpinned}"
    differ = {name: (pins[name], have[name]) for name in pins if name in have and pins[name] != have[name]}
    assert not differ, f"pinned version != installed version: {differ}"
    missing = sorted(set(pins) - set(have))
    assert not missing, f"pinned but not installed: {missing}"


def test_pip_check_finds_no_broken_requirement():
    done = subprocess.run([sys.executable, "-m", "pip", "check"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
