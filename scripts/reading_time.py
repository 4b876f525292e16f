"""How long each notebook takes to read, and the README's notebook table built from it.

The house style gives every notebook a main path that reads in at most 28 minutes (the capstone,
18, 55), then an optional "Going further" section. Reading time counts what a reader spends
time on, in minutes:

    prose and code comments:   English words / 200 + Chinese characters / 400
    code (non-comment lines):  non-blank characters / 300
    outputs shown:             text at English words / 250 + Chinese characters / 500,
                               an HTML table at <td> cells / 60, a picture 0.5

Prose is every markdown cell (``<details>`` blocks included); a code line whose first non-blank
character is ``#`` is a comment, every other line is code, counted by its characters so that
packing statements into one line saves nothing. Outputs are the stored outputs of code cells: a
stream or a plain-text result is read as text, a result with HTML counts its table cells (and
nothing else), an image counts half a minute, an error nothing. The main path is every cell
before the first markdown heading saying "Going further" (or "appendix", 深入, 附录); the total is
the whole notebook. The counting is the project's notebook hygiene checker's (its ``minutes()``),
and a test checks that the two agree.

    python scripts/reading_time.py            # print each notebook's minutes, rewrite the README table
    python scripts/reading_time.py --check    # exit 1 if the README table is stale (what the tests run)

The table sits in README.md between the lines ``<!-- notebook-table:begin -->`` and
``<!-- notebook-table:end -->``; everything between them is generated, so edit this script (the
``TEACHES`` and ``COMING`` lists), never the table.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from repo_files import replace_file  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BUDGET_MINUTES = 28
CAPSTONE_MINUTES = 55  # the capstone strings the whole course together
BUDGETS = {"18": CAPSTONE_MINUTES}


def budget_minutes(path: Path) -> int:
    """The main-path budget of a notebook: 28 minutes, the capstone's 55."""
    return BUDGETS.get(Path(path).name[:2], BUDGET_MINUTES)


CHINESE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'\u2019.-]*")
TABLE_CELL = re.compile(r"<td")
GOING_FURTHER = re.compile(r"^#+\s.*(going further|appendix|深入|附录)", re.I | re.M)
HEADING = re.compile(r"^#+\s+(.+?)\s*#*\s*$", re.M)
NOTEBOOK_NAME = re.compile(r"^(\d{2})_[a-z0-9_]+\.ipynb$")
BEGIN, END = "<!-- notebook-table:begin -->", "<!-- notebook-table:end -->"

# What each notebook teaches, one line each, for the README table. A new notebook adds its line.
TEACHES = {
    "00": "what to measure where, and a first `evaluate`",
    "01": "how many of the relevant documents made the top K?",
    "02": "did the top K contain anything relevant at all?",
    "03": "how much of the top K is relevant?",
    "04": "how high is the first relevant result?",
    "05": "are all relevant documents near the top?",
    "06": "how much graded gain, discounted by rank?",
    "07": "how close to the ideal ordering?",
    "08": "how many of the answer's n-grams appear in the reference?",
    "09": "how many of the reference's n-grams does the answer cover?",
    "10": "how long is the longest in-order overlap?",
    "11": "unigram matches weighted to recall, with a word-order penalty",
    "12": "is the retrieved context about the question? Context relevancy, context precision, and how far a judge can be trusted",
    "13": "is every statement of the answer backed by the retrieved context, and how far can a judge be trusted?",
    "14": "does the answer address the question? DeepEval's statement ratio, ragas' back-written questions, the triad's diagnosis order",
    "15": "how long do typical and slowest requests take (P50/P95/P99)?",
    "16": "is system B's gain real, and how many queries does it take to tell?",
    "17": "how far do annotators agree beyond chance, and can their grades flip a verdict?",
    "18": "which of two retrievers is better on a real golden set, is the gain real, and why do both still fail?",
    "19": "do metrics and judges agree with people? Published tables reproduced; a judged mean with an interval (PPI)",
}
# Notebooks still to write, in reading order; the table lists those not yet in notebooks/.
COMING: dict[str, str] = {}


class Counts(NamedTuple):
    words: int            # English words of prose and code comments
    chinese: int          # Chinese characters of prose and code comments
    code_characters: int  # non-blank characters of code lines (comments excluded)
    output_words: int     # English words of text outputs
    output_chinese: int   # Chinese characters of text outputs
    table_cells: int      # <td> cells of HTML outputs
    pictures: int         # image outputs

    @property
    def minutes(self) -> float:
        return (self.words / 200 + self.chinese / 400 + self.code_characters / 300
                + self.output_words / 250 + self.output_chinese / 500
                + self.table_cells / 60 + self.pictures * 0.5)

    def __add__(self, other: "Counts") -> "Counts":  # type: ignore[override]
        return Counts(*(mine + theirs for mine, theirs in zip(self, other)))


NOTHING = Counts(0, 0, 0, 0, 0, 0, 0)


class ReadingTime(NamedTuple):
    main: Counts
    total: Counts


def source(cell: dict) -> str:
    text = cell.get("source", "")
    return "".join(text) if isinstance(text, list) else text


def _joined(text) -> str:
    return "".join(text) if isinstance(text, list) else text


def words_and_chinese(text: str) -> tuple[int, int]:
    """English words (letter or digit runs, apostrophes, dots and hyphens inside) and Chinese characters.

    >>> words_and_chinese("Recall@K isn't NDCG@10; 召回率 top-K")
    (6, 3)
    """
    return len(WORD.findall(CHINESE.sub(" ", text))), len(CHINESE.findall(text))


def count_output(output: dict) -> Counts:
    """What one stored output asks a reader to read.

    >>> count_output({"output_type": "stream", "name": "stdout", "text": "Recall@5 = 0.6667 召回\\n"})
    Counts(words=0, chinese=0, code_characters=0, output_words=3, output_chinese=2, table_cells=0, pictures=0)
    """
    if output.get("output_type") == "stream":
        words, chinese = words_and_chinese(_joined(output.get("text", "")))
        return NOTHING._replace(output_words=words, output_chinese=chinese)
    data = output.get("data", {})
    if "image/png" in data or "image/svg+xml" in data:
        return NOTHING._replace(pictures=1)
    if "text/html" in data:
        return NOTHING._replace(table_cells=len(TABLE_CELL.findall(_joined(data["text/html"]))))
    if "text/plain" in data:
        words, chinese = words_and_chinese(_joined(data["text/plain"]))
        return NOTHING._replace(output_words=words, output_chinese=chinese)
    return NOTHING


def count(cells: list[dict]) -> Counts:
    """Prose and comments by words, code by characters, outputs by what they show.

    >>> count([{"cell_type": "markdown", "source": "Recall@K 召回率"},
    ...        {"cell_type": "code", "source": ["k = 5\\n", "\\n", "# a comment\\n"], "outputs": []}])
    Counts(words=4, chinese=3, code_characters=3, output_words=0, output_chinese=0, table_cells=0, pictures=0)
    """
    total = NOTHING
    for cell in cells:
        text = source(cell)
        if cell.get("cell_type") == "markdown":
            words, chinese = words_and_chinese(text)
            total += NOTHING._replace(words=words, chinese=chinese)
        elif cell.get("cell_type") == "code":
            for line in text.splitlines():
                stripped = line.strip()
                if stripped.startswith("#"):
                    words, chinese = words_and_chinese(stripped)
                    total += NOTHING._replace(words=words, chinese=chinese)
                else:
                    total += NOTHING._replace(code_characters=len(re.sub(r"\s", "", stripped)))
            for output in cell.get("outputs", []):
                total += count_output(output)
    return total


def main_path(cells: list[dict]) -> list[dict]:
    """The cells before the first markdown heading "Going further" (all cells if there is none)."""
    for i, cell in enumerate(cells):
        if cell.get("cell_type") == "markdown" and GOING_FURTHER.search(source(cell)):
            return cells[:i]
    return cells


def reading_time(path: Path) -> ReadingTime:
    cells = json.loads(Path(path).read_text(encoding="utf-8")).get("cells", [])
    return ReadingTime(count(main_path(cells)), count(cells))


def title(path: Path) -> str:
    """The notebook's first markdown heading, without a leading "NN · "."""
    cells = json.loads(Path(path).read_text(encoding="utf-8")).get("cells", [])
    for cell in cells:
        if cell.get("cell_type") == "markdown":
            match = HEADING.search(source(cell))
            if match:
                return re.sub(r"^\d{2}\s*·\s*", "", match.group(1))
    raise ValueError(f"{Path(path).name} has no markdown heading to take its title from")


def notebooks(folder: Path) -> list[Path]:
    return sorted(p for p in Path(folder).glob("*.ipynb") if NOTEBOOK_NAME.match(p.name))


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def table(folder: Path, link_prefix: str = "notebooks/") -> str:
    """The README's notebook table (Markdown), one row per notebook plus one for those to come."""
    rows = ["| # | notebook | what it teaches | main path | total |", "|---|---|---|--:|--:|"]
    written = {NOTEBOOK_NAME.match(path.name).group(1): path for path in notebooks(folder)}
    waiting: list[str] = []  # a run of consecutive notebooks still to write, shown as one row

    def flush() -> None:
        if waiting:
            span = waiting[0] if len(waiting) == 1 else f"{waiting[0]}–{waiting[-1]}"
            rows.append(f"| {span} | coming | {', '.join(COMING[n] for n in waiting)} | | |")
            waiting.clear()

    for number in sorted(set(written) | set(COMING)):
        if number not in written:
            waiting.append(number)
            continue
        flush()
        path = written[number]
        if number not in TEACHES:
            raise KeyError(f"{path.name}: add a line for {number!r} to TEACHES in scripts/reading_time.py")
        time = reading_time(path)
        rows.append(f"| {number} | [{_cell(title(path))}]({link_prefix}{path.name}) | "
                    f"{_cell(TEACHES[number])} | {time.main.minutes:.0f} min | {time.total.minutes:.0f} min |")
    flush()
    return "\n".join(rows) + "\n"


def replace_table(readme: str, new_table: str) -> str:
    """``readme`` with the text between the marker lines replaced by ``new_table``."""
    begin, end = readme.find(BEGIN), readme.find(END)
    if begin < 0 or end < begin:
        raise ValueError(f"README has no {BEGIN} ... {END} lines around the notebook table")
    start = readme.index("\n", begin) + 1
    return readme[:start] + new_table + readme[end:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the README table is stale; write nothing")
    parser.add_argument("--readme", type=Path, default=ROOT / "README.md")
    parser.add_argument("--notebooks", type=Path, default=ROOT / "notebooks")
    args = parser.parse_args(argv)

    readme = args.readme.read_text(encoding="utf-8")
    updated = replace_table(readme, table(args.notebooks))
    if args.check:
        if updated != readme:
            print(f"{args.readme.name}: the notebook table is stale; run python scripts/reading_time.py")
            return 1
        return 0
    for path in notebooks(args.notebooks):
        time = reading_time(path)
        budget = budget_minutes(path)
        flag = f"  OVER the {budget}-minute budget" if time.main.minutes > budget else ""
        main = time.main
        print(f"{path.name}: main path {main.minutes:.1f} min (prose {main.words} words and {main.chinese} "
              f"Chinese characters, code {main.code_characters} characters, outputs {main.output_words} words, "
              f"{main.output_chinese} Chinese characters, {main.table_cells} table cells, {main.pictures} "
              f"pictures), total {time.total.minutes:.1f} min{flag}")
    if updated != readme:
        replace_file(args.readme, updated)  # a new file renamed over the old: never through a link
        print(f"{args.readme.name}: notebook table updated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
