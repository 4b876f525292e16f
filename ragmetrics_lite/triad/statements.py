"""Statement splitting (陈述切分) for the judged metrics: Chinese and English sentences.

ragas and DeepEval ask an LLM to break an answer into statements; TruLens splits with NLTK's
``sent_tokenize``, which ends sentences only at ``. ? !`` and so leaves a Chinese answer in one
piece. This splitter is a rule anyone can read, used for answers and for context sentences
alike. Derived in ``13_faithfulness.ipynb``; used in ``12_context_relevancy.ipynb`` and
``14_answer_relevancy.ipynb``.

The rules:

* a sentence ends after any run of 。！？；!?; (full-width and ASCII);
* it ends after a full stop ``.`` (or ``...``) only when whitespace or the end of the text
  follows, so ``3.5``, ``v2.1`` and ``example.com`` are never cut;
* closing quotes and brackets right after the end mark stay with their sentence;
* each piece is stripped; empty pieces, and pieces with no letter or digit (a stray ``。``),
  are dropped.

Known ambiguity, kept on purpose: an abbreviation followed by a space ends a sentence,
so ``"The U.S. market grew."`` gives ``["The U.S.", "market grew."]``. Telling an abbreviation
from a sentence end needs a list of abbreviations or a trained model (NLTK's Punkt); a
teaching splitter stays a rule you can read, and the tests document the case.
"""
from __future__ import annotations

import re

__all__ = ["split_statements"]

_CLOSERS = "\"'”’」』）)\\]】》〉"
# A run of full stops is tried once, from its first dot ((?<!\.)) and whole (\.++ never gives dots
# back): the lookahead after a run does not depend on where in the run it started, so retrying every
# dot of a long run that is not a sentence end ("." * 16000 + "x") would only cost quadratic time.
_SENTENCE_END = re.compile(
    rf"(?:[。！？；!?;]+|(?<!\.)\.++(?=[{_CLOSERS}]*(?:\s|$)))[{_CLOSERS}]*"
)


def split_statements(text: str) -> list[str]:
    """Split Chinese and English text into sentences (statements), in order.

    Derived in ``13_faithfulness.ipynb``.

    >>> split_statements("产品支持 7 天退款。退款需提供订单号！Version 3.5 is out. See v2.1 notes")
    ['产品支持 7 天退款。', '退款需提供订单号！', 'Version 3.5 is out.', 'See v2.1 notes']
    >>> split_statements('他说：“可以退款。”然后挂了电话。')
    ['他说：“可以退款。”', '然后挂了电话。']
    >>> split_statements("   ")
    []
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__} {text!r}")
    pieces, start = [], 0
    for end_mark in _SENTENCE_END.finditer(text):
        pieces.append(text[start : end_mark.end()])
        start = end_mark.end()
    pieces.append(text[start:])
    return [piece.strip() for piece in pieces if any(char.isalnum() for char in piece)]
