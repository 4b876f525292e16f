"""The course machinery around the library: what the notebooks need and users of the metrics do not.

Source-notes checks (``notes``), and, as the package is reorganised, the exercises, the plotting
setup and its fonts, the rank playground and the capstone's retriever. Modules here may import the
library; no library module imports them.
"""
