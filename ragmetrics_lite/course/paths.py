"""Where the course's data sets are, whichever folder a notebook runs from.

The notebooks read the repository's ``data/`` folder (the triad labels in 12-14, the golden set in
18). A path written as ``"../data/triad"`` holds only for a kernel started in ``notebooks/``; the
Chinese edition runs the same code from ``notebooks/zh/``, and a learner may copy a notebook
anywhere. ``data_path`` finds ``data/`` from this package instead: the suite installs it in
editable mode (``pip install -e .``), so the package sits in the repository beside ``data/``.

>>> data_path("triad").relative_to(data_dir()).as_posix()
'triad'
>>> (data_path("golden_set") / "README.md").is_file()
True
>>> data_path("/tmp/my_golden_set").as_posix()   # a folder of one's own, given in full, is kept
'/tmp/my_golden_set'
"""
from __future__ import annotations

import os
from pathlib import Path

__all__ = ["data_dir", "data_path"]

REPOSITORY = Path(__file__).resolve().parents[2]
MARKER = Path("data") / "README.md"  # the file that says a folder is the suite's data/


def data_dir() -> Path:
    """The repository's ``data/`` folder: beside the package, else above the working folder.

    The second place serves a copy of the package installed without ``-e`` and run from inside a
    clone of the repository. Anywhere else there is no data to find, and the error says so.
    """
    here = Path.cwd().resolve()
    for folder in (REPOSITORY, here, *here.parents):
        if (folder / MARKER).is_file():
            return folder / "data"
    raise FileNotFoundError(f"the suite's data/ folder is neither beside {REPOSITORY} nor above "
                            f"{Path.cwd()}: install the package from a clone of the repository "
                            "(pip install -e .) or run from inside one")


def data_path(name: str | os.PathLike = "") -> Path:
    """``data/<name>`` of the repository; a path given in full (``/…`` or ``~/…``) is returned as it is.

    ``name`` is relative to ``data/``: ``data_path("triad")``, ``data_path("golden_set/qrels.txt")``.
    """
    path = Path(name).expanduser()
    return path if path.is_absolute() else data_dir() / path
