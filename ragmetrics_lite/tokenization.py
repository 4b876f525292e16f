r"""Tokenization (分词) for the text metrics: jieba's precise mode, kept private and quiet.

Reference replicated: jieba 0.42.1 precise mode with its HMM for unknown words,
followed by dropping whitespace and (by default) punctuation and symbols. With
``word_list=False`` the equivalent call is::

    [t for t in jieba.lcut(text)
     if t.strip() and not all(unicodedata.category(c)[0] in "PS" for c in t)]

With the default ``word_list=True`` the only change is the small word list in
``ragmetrics_lite/data/jieba_words.txt`` (see :func:`word_list_entries`). It
removes two compounds from the dictionary, 法国巴黎 and 旅游景点, so that they
are cut into 法国 / 巴黎 and 旅游 / 景点 as in the course's worked examples.

jieba keeps decimals (330.5) and percentages (95.5%) whole, but cuts at a
hyphen (GPT-4o gives GPT, 4o), so a minus sign is dropped with the punctuation.

How the tokenizer stays out of the way:

* It is a private ``jieba.Tokenizer``; the global ``jieba.dt`` behind
  ``jieba.lcut`` is never touched, so a learner's own jieba set-up is unchanged.
* Its dictionary is built in memory the first time :func:`tokenize` runs
  (about half a second). jieba's own start-up would log "Building prefix
  dict ..." to stderr and write a cache file to the temporary directory; this
  path logs nothing and writes no file.
* A removed word is set to frequency 0 in the private dictionary only.
  (``jieba.del_word`` would also add it to a module-wide set of the HMM.)

Metrics work on lists of tokens; :func:`ngrams` lists the n-grams they count.
Notebook ``08_bleu.ipynb`` derives both on the worked example.
"""
from __future__ import annotations

import threading
import unicodedata
import warnings
from collections import Counter
from importlib import resources

from ._validation import as_tokens, check_k

__all__ = ["tokenize", "word_list_entries", "ngrams", "ngram_counts"]

_WORD_LIST_FILE = "jieba_words.txt"
_LOCK = threading.Lock()
_TOKENIZERS: dict[bool, object] = {}


def word_list_entries() -> list[tuple[str, int | None]]:
    """The shipped word list as ``(word, frequency)`` pairs.

    Frequency ``None`` adds the word with the frequency jieba suggests; ``0``
    removes a compound so that it is cut into its parts. Shown in ``08_bleu.ipynb``.

    >>> word_list_entries()
    [('法国巴黎', 0), ('旅游景点', 0)]
    """
    text = resources.files(__package__).joinpath("data", _WORD_LIST_FILE).read_text(encoding="utf-8")
    entries = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word, *rest = line.split()
        entries.append((word, int(rest[0]) if rest else None))
    return entries


def _build_tokenizers() -> None:
    """Build both private jieba tokenizers from one in-memory read of jieba's dictionary."""
    with warnings.catch_warnings():  # importing jieba can warn (pkg_resources, invalid escapes)
        warnings.simplefilter("ignore")
        import jieba  # imported here so that ``import ragmetrics_lite`` stays fast

    loader = jieba.Tokenizer()
    freq, total = loader.gen_pfdict(loader.get_dict_file())  # no logging, no cache file
    for word_list in (False, True):
        tokenizer = jieba.Tokenizer()
        tokenizer.FREQ, tokenizer.total, tokenizer.initialized = dict(freq), total, True
        if word_list:
            for word, frequency in word_list_entries():
                if frequency == 0:
                    tokenizer.FREQ[word] = 0  # still a prefix, never a word
                else:
                    tokenizer.add_word(word, frequency)
        _TOKENIZERS[word_list] = tokenizer


def _tokenizer(word_list: bool):
    with _LOCK:
        if not _TOKENIZERS:
            _build_tokenizers()
    return _TOKENIZERS[word_list]


def _is_punct_or_symbol(token: str) -> bool:
    """True when every character is punctuation (P*) or a symbol (S*) in Unicode."""
    return all(unicodedata.category(char)[0] in "PS" for char in token)


def tokenize(text: str, *, keep_punct: bool = False, word_list: bool = True) -> list[str]:
    """Cut Chinese, English and numbers into tokens with jieba's precise mode.

    Whitespace is dropped, and so are tokens made only of punctuation or
    symbols (Unicode categories P* and S*) unless ``keep_punct=True``.
    ``word_list=False`` skips the shipped word list: that is plain
    ``jieba.lcut``, to show how the default segmentation changes a score.
    Derived in ``08_bleu.ipynb``.

    >>> tokenize("埃菲尔铁塔高 330 米，是法国巴黎的标志性建筑")
    ['埃菲尔铁塔', '高', '330', '米', '是', '法国', '巴黎', '的', '标志性', '建筑']
    >>> tokenize("法国巴黎", word_list=False)
    ['法国巴黎']
    >>> tokenize("BLEU = 0.71, ROUGE-L 0.45！", keep_punct=True)
    ['BLEU', '=', '0.71', ',', 'ROUGE', '-', 'L', '0.45', '！']
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    words = _tokenizer(bool(word_list)).lcut(text)
    return [w for w in words if w.strip() and (keep_punct or not _is_punct_or_symbol(w))]


_as_tokens = as_tokens  # the old private name, kept for code that imported it


def ngram_counts(tokens: list[str], n: int, up_to: bool = False) -> Counter:
    """How often each n-gram (a tuple of n tokens) occurs; with ``up_to``, every order 1..n.

    >>> ngram_counts(["a", "b", "a", "b"], 2)
    Counter({('a', 'b'): 2, ('b', 'a'): 1})
    """
    orders = range(1, n + 1) if up_to else (n,)
    return Counter([tuple(tokens[i : i + k]) for k in orders for i in range(len(tokens) - k + 1)])


_ngram_counts = ngram_counts  # the old private name, kept for code that imported it


def ngrams(tokens: list[str], n: int) -> list[tuple[str, ...]]:
    """The n-grams (n 元组) of a token list, in order: ``len(tokens) - n + 1`` of them.

    Derived in ``08_bleu.ipynb`` and ``09_rouge_n.ipynb``.

    >>> ngrams(["埃菲尔铁塔", "的", "高度"], 2)
    [('埃菲尔铁塔', '的'), ('的', '高度')]
    >>> ngrams(["米"], 2)
    []
    """
    tokens = as_tokens(tokens, "tokens")
    n = check_k(n, name="n")
    return [tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)]
