"""``python -m ragmetrics_lite evaluate QRELS RUN ...``: see ``ragmetrics_lite.cli``."""
import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
