"""Text metrics (notebooks 08-11): a generated answer compared with reference answers, word by word.

``tokenization`` cuts Chinese and English text into tokens (jieba's precise mode) and lists
n-grams; ``bleu`` (sentence and corpus BLEU, as sacrebleu), ``rouge`` (ROUGE-N and ROUGE-L, as
rouge-score) and ``meteor`` (METEOR with exact matches, as nltk) score token lists. The batch
functions ``corpus_bleu`` and ``rouge_scores`` count with ``ragmetrics_lite.fast.text``.
"""
# The modules under private names: the functions bleu and meteor take the public ones.
from . import bleu as _bleu, meteor as _meteor, rouge as _rouge, tokenization as _tokenization
from .bleu import *  # noqa: F401,F403  (the names of each module's __all__)
from .meteor import *  # noqa: F401,F403
from .rouge import *  # noqa: F401,F403
from .tokenization import *  # noqa: F401,F403

__all__ = [*_tokenization.__all__, *_bleu.__all__, *_rouge.__all__, *_meteor.__all__]
