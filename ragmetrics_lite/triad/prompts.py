"""The LLM judge's prompts, one per question and language (English and Chinese), kept as data.

``data/prompts/<question>.<language>.txt`` holds each prompt as :class:`string.Template` text with
``$`` placeholders: ``$question``, ``$context``, ``$context_count``, ``$items`` (one numbered line
per item, each item JSON-quoted with ``ensure_ascii=False``) and ``$count`` (how many items, so how
many verdicts). Each ends with the reply format it asks for; the JSON keys and the ``yes``/``no``
values stay English in both languages. :mod:`~ragmetrics_lite.triad.llm` fills them;
``print(SUPPORT_PROMPT_ZH)`` shows one.

>>> sorted(PROMPTS) == [(q, lang) for q in QUESTIONS for lang in ("en", "zh")]
True
>>> "$items" in SUPPORT_PROMPT_EN and "$count" in ANSWER_RELEVANCE_PROMPT_ZH
True
"""
from __future__ import annotations

from pathlib import Path

__all__ = ["SUPPORT_PROMPT_EN", "SUPPORT_PROMPT_ZH", "CONTEXT_RELEVANCE_PROMPT_EN", "CONTEXT_RELEVANCE_PROMPT_ZH",
           "ANSWER_RELEVANCE_PROMPT_EN", "ANSWER_RELEVANCE_PROMPT_ZH", "PROMPTS", "NO_CONTEXT"]

FOLDER = Path(__file__).resolve().parents[1] / "data" / "prompts"
QUESTIONS = ("answer_relevance", "context_relevance", "support")

#: The prompt of each (question, language).
PROMPTS = {(question, language): (FOLDER / f"{question}.{language}.txt").read_text(encoding="utf-8")
           for question in QUESTIONS for language in ("en", "zh")}
SUPPORT_PROMPT_EN = PROMPTS["support", "en"]
SUPPORT_PROMPT_ZH = PROMPTS["support", "zh"]
CONTEXT_RELEVANCE_PROMPT_EN = PROMPTS["context_relevance", "en"]
CONTEXT_RELEVANCE_PROMPT_ZH = PROMPTS["context_relevance", "zh"]
ANSWER_RELEVANCE_PROMPT_EN = PROMPTS["answer_relevance", "en"]
ANSWER_RELEVANCE_PROMPT_ZH = PROMPTS["answer_relevance", "zh"]
#: What stands for the context when there is none.
NO_CONTEXT = {"en": "(no context given)", "zh": "（没有提供上下文）"}
