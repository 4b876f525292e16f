"""The course machinery around the library: what the notebooks need and users of the metrics do not.

* ``notes``: checks of a notebook's figures against the source notes, and the notes' examples as
  data (``notes_examples/``);
* ``exercises``: the self-checked exercises, one module per notebook exercise;
* ``plotting``: the plot style and the bundled Chinese font (``fonts/``);
* ``playground``: notebook 07's rank playground;
* ``search``: the capstone's BM25 retriever;
* ``paths``: ``data_path``, the repository's ``data/`` found from the package, whichever folder a
  notebook runs in (``rml.course.data_path("triad")``);
* ``published``: notebook 19's readers of the published human-judged sets in ``data/external/``.

Modules here may import the library; no library module imports them. ``ragmetrics_lite``
re-exports the few course names a notebook calls as ``rml.…`` (``notes_check``, ``notes_claim``,
``on_notes_example``, ``same_inputs``, ``rank_playground``).
"""

from .paths import data_dir, data_path  # noqa: F401  (rml.course.data_path in the notebooks)
