"""How maintainer scripts write: never through a symlink, and only inside the repository.

A script that regenerates a file (a run of the golden set, the study aids, the README's table, a
notebook, a font) writes it with :func:`replace_file`: the new content goes to a new file in the same
folder, which is then renamed over the old one, so a symlink planted where the file goes is replaced
by the file, never followed. A script whose output path is fixed uses :func:`write_in_repository`,
which also refuses a folder that leads outside the repository (a linked folder included); an output
path a user names on the command line is theirs. Scratch files go to a fresh private folder
(``tempfile.TemporaryDirectory()``, readable by its owner only), never to a fixed name in the
temporary directory, where another user could have planted a link first.

Scripts import it after ``sys.path.insert(0, str(Path(__file__).resolve().parent))``.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def replace_file(path: str | os.PathLike, content: str | bytes) -> Path:
    """Write ``content`` (str as UTF-8) to ``path`` as a new file renamed over the old one (mode 0644).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     target = Path(folder, "out.txt")
    ...     elsewhere = Path(folder, "elsewhere.txt")
    ...     _ = elsewhere.write_text("kept")
    ...     target.symlink_to(elsewhere)        # planted
    ...     _ = replace_file(target, "new")
    ...     target.is_symlink(), target.read_text(), elsewhere.read_text()
    (False, 'new', 'kept')
    """
    path = Path(path)
    data = content.encode("utf-8") if isinstance(content, str) else content
    with tempfile.NamedTemporaryFile("wb", dir=path.parent, prefix=f".{path.name}.", delete=False) as handle:
        handle.write(data)
    try:
        os.chmod(handle.name, 0o644)  # a committed file's mode, not the temporary file's 0600
        os.replace(handle.name, path)
    except OSError:
        os.unlink(handle.name)
        raise
    return path


def write_in_repository(path: str | os.PathLike, content: str | bytes, root: Path = ROOT) -> Path:
    """:func:`replace_file` for a file inside ``root``: a folder leading outside it is a ValueError."""
    path = Path(path)
    folder = path.parent.resolve()  # every link on the way followed: it must still be inside root
    if not folder.is_relative_to(Path(root).resolve()):
        raise ValueError(f"{path}: refusing to write outside {root} (the folder is {folder})")
    return replace_file(folder / path.name, content)
