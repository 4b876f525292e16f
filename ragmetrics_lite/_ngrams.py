"""N-gram counting over a whole batch of token lists at once, with numpy.

The batch paths of the text metrics (``corpus_bleu``, ``rouge_scores``) use
this instead of one ``Counter`` per sentence. Each token becomes an integer id
(one hash per token); each n-gram becomes an exact integer code, built order by
order: the code of an (n-1)-gram combined with the id of the next token,
renumbered. Counting is then ``np.unique`` on ``sentence * codes + code``.
No hashing of tuples, so no collisions: the counts equal ``ngram_counts``.
"""
from __future__ import annotations

from itertools import chain
from typing import NamedTuple

import numpy as np
import pandas as pd


class Tokens(NamedTuple):
    """Every sentence of a batch as one stream of token ids."""

    ids: np.ndarray  # token ids, sentence after sentence
    lengths: np.ndarray  # tokens per sentence
    sentence: np.ndarray  # per token: its sentence
    position: np.ndarray  # per token: its position within the sentence


def token_stream(sentences: list[list[str]]) -> Tokens:
    """Token ids shared by every sentence of the batch (equal tokens, equal ids)."""
    lengths = np.fromiter(map(len, sentences), dtype=np.int64, count=len(sentences))
    flat = np.fromiter(chain.from_iterable(sentences), dtype=object, count=int(lengths.sum()))
    ids = pd.factorize(flat)[0].astype(np.int64) if len(flat) else np.zeros(0, np.int64)
    sentence = np.repeat(np.arange(len(sentences)), lengths)
    starts = np.cumsum(lengths) - lengths
    return Tokens(ids, lengths, sentence, np.arange(len(ids)) - starts[sentence])


def ngram_codes(tokens: Tokens, max_n: int):
    """For n = 1..max_n: ``(sentence, code)`` of every n-gram; equal n-grams share a code."""
    code = tokens.ids
    for n in range(1, max_n + 1):
        if n > 1:
            # code[t] is the (n-1)-gram starting at t; extend it by token t + n - 1
            nxt = np.zeros_like(tokens.ids)  # past the end: 0, never part of a valid n-gram
            nxt[: max(len(nxt) - (n - 1), 0)] = tokens.ids[n - 1:]
            width = int(tokens.ids.max(initial=0)) + 1
            code = pd.factorize(code * width + nxt)[0].astype(np.int64)
        starts = tokens.position <= tokens.lengths[tokens.sentence] - n
        yield n, tokens.sentence[starts], code[starts]


def counts(sentence: np.ndarray, code: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct ``(sentence, code)`` pairs with how often each occurs, sorted by (sentence, code)."""
    if len(code) == 0:
        return sentence, code, np.zeros(0, np.int64)
    width = int(code.max()) + 1
    keys, count = np.unique(sentence * width + code, return_counts=True)
    return keys // width, keys % width, count
