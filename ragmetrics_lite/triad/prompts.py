"""The LLM judge's prompts, one per question and language (English and Chinese).

:class:`string.Template` text with ``$`` placeholders: ``$question``, ``$context``,
``$context_count``, ``$items`` (one numbered line per item, each item JSON-quoted with
``ensure_ascii=False``) and ``$count`` (how many items, so how many verdicts). The JSON keys and the
``yes``/``no`` values stay English in both languages. :mod:`~ragmetrics_lite.triad.llm` fills them;
``print(SUPPORT_PROMPT_ZH)`` shows one.
"""
from __future__ import annotations

__all__ = [
    "SUPPORT_PROMPT_EN",
    "SUPPORT_PROMPT_ZH",
    "CONTEXT_RELEVANCE_PROMPT_EN",
    "CONTEXT_RELEVANCE_PROMPT_ZH",
    "ANSWER_RELEVANCE_PROMPT_EN",
    "ANSWER_RELEVANCE_PROMPT_ZH",
    "PROMPTS",
    "NO_CONTEXT",
]

_REPLY_FORMAT_EN = """
Reply with JSON only, no other text, in this shape:
{"verdicts": [{"verdict": "yes", "reason": "..."}, {"verdict": "no", "reason": "..."}]}
The list must hold exactly $count: one object per numbered item above, in the same order.
"verdict" is "yes" or "no"; "reason" is one short sentence.
"""

_REPLY_FORMAT_ZH = """
只输出 JSON，不要输出其他文字，格式如下：
{"verdicts": [{"verdict": "yes", "reason": "……"}, {"verdict": "no", "reason": "……"}]}
列表中恰好 $count 项，与上面的编号一一对应，顺序相同。
"verdict" 只能是英文小写的 "yes" 或 "no"；"reason" 用一句中文简短说明理由。键名保持英文，不要翻译。
"""

SUPPORT_PROMPT_EN = """\
Task: for each numbered statement below, decide whether the context supports it.

A statement is supported ("yes") when the context states it, in the same or in other words, or
when it follows directly from what the context states. It is not supported ("no") when the
context contradicts it, says something different (another number, date, condition or a
negation), or does not mention it, even if the statement is true in the real world. If only
part of a statement is supported, answer "no". Use only the context, not your own knowledge.

Context (number of passages: $context_count; read them together):
$context

Statements ($count):
$items
""" + _REPLY_FORMAT_EN

SUPPORT_PROMPT_ZH = """\
任务：逐条判断下面编号的陈述是否得到上下文的支持。

“支持”（yes）：上下文说了这件事（措辞可以不同），或者能从上下文直接推出。
“不支持”（no）：上下文与陈述矛盾、说法不同（数字、日期、条件或否定不一致），或者上下文没有提到，
即使这条陈述在现实中是对的。陈述只有一部分得到支持时，判为 no。只根据上下文判断，不要使用你自己的知识。

上下文（共 $context_count 段，合起来阅读）：
$context

陈述（共 $count 条）：
$items
""" + _REPLY_FORMAT_ZH

CONTEXT_RELEVANCE_PROMPT_EN = """\
Task: for each numbered passage below, decide whether it is relevant to the question.

A passage is relevant ("yes") when it contains information that helps answer the question,
fully or in part. It is not relevant ("no") when it is about something else, or only shares a
topic or some words with the question without helping to answer it. Judge each passage on its
own, and do not answer the question yourself.

Question: $question

Passages ($count):
$items
""" + _REPLY_FORMAT_EN

CONTEXT_RELEVANCE_PROMPT_ZH = """\
任务：逐条判断下面编号的文本片段是否与问题相关。

“相关”（yes）：片段包含有助于回答这个问题的信息，能回答全部或一部分。
“不相关”（no）：片段讲的是别的事，或者只是和问题话题相近、用词相同，却不能帮助回答这个问题。
每个片段单独判断，不要自己回答问题。

问题：$question

片段（共 $count 个）：
$items
""" + _REPLY_FORMAT_ZH

ANSWER_RELEVANCE_PROMPT_EN = """\
Task: the numbered statements below come from an answer to the question. For each one, decide
whether it addresses the question.

A statement addresses the question ("yes") when it answers it, or gives something the asker
needs for it, such as a step, a condition or a limit. It does not ("no") when it talks about
something else, such as background, history or advertising that does not help answer this
question, even if it is true. Do not judge whether a statement is true; judge only whether it
responds to the question.

Question: $question

Statements ($count):
$items
""" + _REPLY_FORMAT_EN

ANSWER_RELEVANCE_PROMPT_ZH = """\
任务：下面编号的陈述来自对这个问题的回答。逐条判断它是否回应了问题。

“回应了”（yes）：陈述回答了问题，或者给出提问者需要的内容，比如步骤、条件或期限。
“没有回应”（no）：陈述讲的是别的事，比如与这个问题无关的背景、历史或宣传，即使它是真的。
不要判断陈述是否真实，只判断它是否回应了问题。

问题：$question

陈述（共 $count 条）：
$items
""" + _REPLY_FORMAT_ZH

#: The prompt of each (question, language).
PROMPTS = {
    ("support", "en"): SUPPORT_PROMPT_EN,
    ("support", "zh"): SUPPORT_PROMPT_ZH,
    ("context_relevance", "en"): CONTEXT_RELEVANCE_PROMPT_EN,
    ("context_relevance", "zh"): CONTEXT_RELEVANCE_PROMPT_ZH,
    ("answer_relevance", "en"): ANSWER_RELEVANCE_PROMPT_EN,
    ("answer_relevance", "zh"): ANSWER_RELEVANCE_PROMPT_ZH,
}
#: What stands for the context when there is none.
NO_CONTEXT = {"en": "(no context given)", "zh": "（没有提供上下文）"}
