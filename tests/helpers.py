"""Shared test utilities."""
from __future__ import annotations

import subprocess
import sys
import textwrap

REFERENCE_LIBRARIES = ("pytrec_eval", "sacrebleu", "rouge_score", "nltk")

_BLOCKER = """
import sys
class _Blocked:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {blocked!r}:
            raise ImportError(f"{{name}} is blocked in this test")
        return None
sys.meta_path.insert(0, _Blocked())
for _name in list(sys.modules):
    if _name.split(".")[0] in {blocked!r}:
        del sys.modules[_name]
"""


def run_with_blocked(code: str, blocked: tuple[str, ...] = REFERENCE_LIBRARIES) -> str:
    """Run ``code`` in a fresh interpreter where importing any of ``blocked`` fails.

    Returns the interpreter's stdout; raises AssertionError with stderr if it fails.
    """
    program = _BLOCKER.format(blocked=set(blocked)) + textwrap.dedent(code)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"failed with the references blocked:\n{done.stderr}"
    return done.stdout
