r"""METEOR with exact matching (and an optional synonym table), agreeing with nltk.

Reference replicated: nltk 3.10.4 ``nltk.translate.meteor_score``, restricted
to exact matches: no stemming and no WordNet (whose data cannot be assumed to
be installed). The equivalent call is::

    class KeepWord:                      # a stemmer that changes nothing
        def stem(self, word):
            return word

    class NoSynonyms:                    # a WordNet without synonyms
        def synsets(self, word):
            return []

    meteor_score(references, candidate, stemmer=KeepWord(), wordnet=NoSynonyms(),
                 alpha=alpha, beta=beta, gamma=gamma)

Mind the order: nltk takes the references first. With ``synonyms``, the
second stage is nltk's WordNet stage with the table in WordNet's place.

Conventions, all nltk's:

* Tokens are lower-cased (``str.lower``) before matching.
* Alignment is greedy, from the candidate's last token to its first: each
  token takes the last still-unused reference position holding the same
  word. Synonym matches (if any) are made afterwards, on what is left, the
  same way, taking the last free position holding any of the token's synonyms.
* Chunks (匹配块) are runs of matches adjacent in both texts, in candidate order.
* No match, or an empty side, gives 0; several references give the maximum.

Deliberate differences: no Porter stemming and no WordNet; the synonym table
is lower-cased like the tokens, and (unlike WordNet lemmas) its entries are
not skipped when they contain "_"; alpha and gamma must lie in [0, 1] and
beta >= 0; ``count_chunks([])`` is 0 where nltk's helper says 1 (both
score 0 then).

Derived in ``notebooks/11_meteor.ipynb``.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from .._validation import as_references, as_tokens, check_finite

__all__ = ["meteor", "meteor_alignment", "count_chunks"]


def _as_synonyms(synonyms: object) -> dict[str, set[str]]:
    """The synonym table lower-cased, as ``{candidate word: set of reference words}``."""
    if synonyms is None:
        return {}
    if not isinstance(synonyms, Mapping):
        raise TypeError(f"synonyms must be a dict {{word: [synonyms]}}, got {type(synonyms).__name__}")
    table: dict[str, set[str]] = {}
    for word, words in synonyms.items():
        if not isinstance(word, str):
            raise TypeError(f"synonyms keys must be words (str), got {type(word).__name__} {word!r}")
        if isinstance(words, str) or not isinstance(words, Iterable):
            raise TypeError(f"synonyms[{word!r}] must be a list of words, got {words!r}")
        table.setdefault(word.lower(), set()).update(w.lower() for w in as_tokens(words, f"synonyms[{word!r}]"))
    return table


def _positions(words: list[str], free: Iterable[int]) -> dict[str, list[int]]:
    """Each word's free positions, ascending."""
    where: dict[str, list[int]] = {}
    for j in free:
        where.setdefault(words[j], []).append(j)
    return where


def _align(cand: list[str], ref: list[str], synonyms: dict[str, set[str]]) -> list[tuple[int, int]]:
    """Greedy alignment of lower-cased tokens: exact stage, then synonym stage."""
    pairs: list[tuple[int, int]] = []
    where = _positions(ref, range(len(ref)))
    for i in reversed(range(len(cand))):
        if where.get(cand[i]):
            pairs.append((i, where[cand[i]].pop()))
    if synonyms:
        used_cand, used_ref = {i for i, _ in pairs}, {j for _, j in pairs}
        where = _positions(ref, (j for j in range(len(ref)) if j not in used_ref))
        for i in reversed([i for i in range(len(cand)) if i not in used_cand]):
            options = [w for w in synonyms.get(cand[i], ()) if where.get(w)]
            if options:
                best = max(options, key=lambda w: where[w][-1])
                pairs.append((i, where[best].pop()))
    return sorted(pairs)


def meteor_alignment(
    candidate: list[str], reference: list[str], synonyms: Mapping[str, Iterable[str]] | None = None
) -> list[tuple[int, int]]:
    """Matched (candidate index, reference index) pairs, sorted by candidate index.

    Greedy, as nltk (module docstring); ``synonyms`` maps a candidate word to reference words.
    Derived in ``11_meteor.ipynb``.

    >>> meteor_alignment(["the", "cat", "sat", "the"], ["The", "mat", "the", "cat"])
    [(0, 0), (1, 3), (3, 2)]
    """
    cand = [t.lower() for t in as_tokens(candidate, "candidate")]
    ref = [t.lower() for t in as_tokens(reference, "reference")]
    return _align(cand, ref, _as_synonyms(synonyms))


def count_chunks(alignment: list[tuple[int, int]]) -> int:
    r"""Fewest chunks: runs of matches adjacent in both texts (0 for no match).

    .. math:: \mathrm{chunks} = 1 + \#\{k : (i_{k+1}, j_{k+1}) \ne (i_k + 1, j_k + 1)\}

    Derived in ``11_meteor.ipynb``.

    >>> count_chunks([(0, 0), (1, 1), (2, 5), (4, 6)])
    3
    """
    pairs = sorted(alignment)
    breaks = sum(1 for (i, j), nxt in zip(pairs, pairs[1:]) if nxt != (i + 1, j + 1))
    return breaks + 1 if pairs else 0


def _check_parameters(alpha: float, beta: float, gamma: float) -> None:
    """alpha and gamma in [0, 1], beta >= 0: outside them the formula stops meaning anything."""
    for name, value in (("alpha", alpha), ("gamma", gamma)):
        if not 0 <= check_finite(value, name) <= 1:
            raise ValueError(f"{name} must be between 0 and 1, got {value}")
    if check_finite(beta, "beta") < 0:
        raise ValueError(f"beta must be >= 0, got {beta}")


def _single_meteor(cand, ref, alpha, beta, gamma, synonyms) -> float:
    pairs = _align(cand, ref, synonyms)
    if not pairs:
        return 0.0
    precision = float(len(pairs)) / len(cand)
    recall = float(len(pairs)) / len(ref)
    fmean = (precision * recall) / (alpha * precision + (1 - alpha) * recall)
    penalty = gamma * (float(count_chunks(pairs)) / len(pairs)) ** beta
    return (1 - penalty) * fmean


def meteor(
    candidate: list[str],
    references: list[list[str]],
    alpha: float = 0.9,
    beta: float = 3.0,
    gamma: float = 0.5,
    synonyms: Mapping[str, Iterable[str]] | None = None,
) -> float:
    r"""METEOR: a recall-weighted F-mean of unigram matches, cut by a fragmentation penalty.

    .. math:: F_{mean} = \frac{P R}{\alpha P + (1 - \alpha) R}, \quad
              \mathrm{Pen} = \gamma \left(\frac{\mathrm{chunks}}{m}\right)^{\beta}, \quad
              \mathrm{METEOR} = (1 - \mathrm{Pen})\, F_{mean}

    with m matched unigrams, P = m/|cand|, R = m/|ref|; the best over ``references``.
    Derived in ``11_meteor.ipynb``.

    >>> ref = ["埃菲尔铁塔", "的", "高度", "为", "330", "米"]
    >>> cand = ["埃菲尔铁塔", "的", "高度", "是", "330", "米"]
    >>> round(meteor(cand, [ref]), 4)  # m = 5, 2 chunks
    0.8067
    >>> round(meteor(cand, [ref], synonyms={"是": ["为"]}), 4)  # m = 6, 1 chunk
    0.9977
    """
    _check_parameters(alpha, beta, gamma)
    cand = [t.lower() for t in as_tokens(candidate, "candidate")]
    refs = [[t.lower() for t in ref] for ref in as_references(references)]
    table = _as_synonyms(synonyms)
    return max(_single_meteor(cand, ref, alpha, beta, gamma, table) for ref in refs)
