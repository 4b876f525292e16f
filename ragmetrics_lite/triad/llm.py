"""An LLM as the judge of the RAG triad: :class:`LLMJudge` wraps any ``complete(prompt) -> str``.

Used in ``notebooks/12_context_relevancy.ipynb``, ``13_faithfulness.ipynb`` and
``14_answer_relevancy.ipynb``, each of which has one cell that calls
:func:`llm_judge_from_environment` and scores its example with a real model when one is configured.

The design follows the judges of the libraries that notebook 13 compares:

- **What is asked.** ragas' faithfulness NLI step: every statement of the answer is judged in
  *one* call against all the contexts together, and "supported" means stated in, or directly
  inferable from, the context (not DeepEval's "not contradicted"). Context relevance and answer
  relevance ask the same kind of question of the question-passage and question-statement pairs,
  as DeepEval's contextual-relevancy and answer-relevancy verdicts do.
- **The reply format** is DeepEval's: JSON ``{"verdicts": [{"verdict": "yes"|"no", "reason": "..."}]}``,
  one verdict per numbered item, in order; binary, without DeepEval's "idk".
- **Chinese.** ragas and DeepEval send English instructions by default, whatever the language,
  and early ragas escaped Chinese as ``\\uXXXX`` inside its prompts (ragas PR #1494 set
  ``ensure_ascii=False``). Here every prompt exists in Chinese and in English, chosen from the
  inputs (``language="auto"``), and the items are embedded with
  ``json.dumps(text, ensure_ascii=False)``, so Chinese stays Chinese. The JSON keys and the
  ``yes``/``no`` values stay English in both prompts: translated keys are what broke ragas'
  ``adapt()`` (ragas #774, #804).

The prompts are the constants ``*_PROMPT_EN`` / ``*_PROMPT_ZH`` of :mod:`~ragmetrics_lite.triad.prompts`
(:class:`string.Template` text with ``$`` placeholders), also importable from here:
``print(SUPPORT_PROMPT_ZH)`` shows one.

What is *not* here, on purpose: retries, temperature, seeds and caching. A judge's reply
changes between runs and sometimes is not JSON; the caller decides what to do about it (wrap
``complete``, catch :class:`LLMReplyError` and ask again, average several runs). This module
raises an error that quotes the reply, and never guesses a verdict.

:func:`openai_compatible_complete` builds a ``complete`` for any OpenAI-compatible
``/chat/completions`` endpoint (OpenAI, a local Ollama or vLLM server), configured by the
environment variables ``RAGMETRICS_LLM_BASE_URL``, ``RAGMETRICS_LLM_MODEL`` and
``RAGMETRICS_LLM_API_KEY``. The repository's ``conftest.py`` removes them, so that tests and
strict nbval never reach a model.
"""
from __future__ import annotations

import json
import os
import re
import textwrap
from collections.abc import Callable, Sequence
from string import Template

from ..text.tokenization import CJK_IDEOGRAPH
from .judges import Judge, Verdict
from .prompts import (
    ANSWER_RELEVANCE_PROMPT_EN,
    ANSWER_RELEVANCE_PROMPT_ZH,
    CONTEXT_RELEVANCE_PROMPT_EN,
    CONTEXT_RELEVANCE_PROMPT_ZH,
    NO_CONTEXT,
    PROMPTS,
    SUPPORT_PROMPT_EN,
    SUPPORT_PROMPT_ZH,
)

__all__ = [
    "LLMJudge",
    "LLMReplyError",
    "openai_compatible_complete",
    "llm_judge_from_environment",
    "LLM_ENVIRONMENT_VARIABLES",
    "SUPPORT_PROMPT_EN",
    "SUPPORT_PROMPT_ZH",
    "CONTEXT_RELEVANCE_PROMPT_EN",
    "CONTEXT_RELEVANCE_PROMPT_ZH",
    "ANSWER_RELEVANCE_PROMPT_EN",
    "ANSWER_RELEVANCE_PROMPT_ZH",
]

ENV_BASE_URL = "RAGMETRICS_LLM_BASE_URL"
ENV_MODEL = "RAGMETRICS_LLM_MODEL"
ENV_API_KEY = "RAGMETRICS_LLM_API_KEY"
LLM_ENVIRONMENT_VARIABLES = (ENV_BASE_URL, ENV_MODEL, ENV_API_KEY)

_LANGUAGES = ("auto", "zh", "en")
_FENCE = re.compile(r"^```[A-Za-z]*\s*(.*?)\s*```$", re.DOTALL)
_QUOTE_LIMIT = 300  # characters of the reply an error message quotes


class LLMReplyError(ValueError):
    """The judge's reply could not be read as the verdicts asked for.

    ``reply`` holds the whole reply and ``problem`` what was wrong with it; the message quotes
    the start of the reply. Catch it to retry: this module never retries on its own.
    """

    def __init__(self, where: str, problem: str, reply: str):
        self.where, self.problem, self.reply = where, problem, reply
        super().__init__(f"{where}: {problem}. The reply was: {_quote(reply)}")

    def __reduce__(self):  # survives pickling (multiprocessing, pytest-xdist) with its fields
        return type(self), (self.where, self.problem, self.reply)


def _quote(reply: str) -> str:
    """The reply as a one-line repr, cut to a readable length (Chinese stays readable)."""
    if len(reply) <= _QUOTE_LIMIT:
        return repr(reply)
    return f"{reply[:_QUOTE_LIMIT]!r}... ({len(reply)} characters in all)"


def _texts(values: object, name: str, where: str) -> list[str]:
    """``values`` as a list of str: a bare str, None or a non-str item is a TypeError."""
    if values is None or isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise TypeError(f"{where}: {name} must be a list of str, got {type(values).__name__}")
    for i, value in enumerate(values):
        if not isinstance(value, str):
            raise TypeError(f"{where}: {name}[{i}] must be a str, got {type(value).__name__}")
    return list(values)


def _numbered(items: list[str], style: str) -> str:
    """One line per item, each quoted as JSON with ensure_ascii=False (newlines escaped)."""
    return "\n".join(style.format(i, json.dumps(item, ensure_ascii=False))
                     for i, item in enumerate(items, start=1))


def _parse_verdicts(reply: object, count: int, where: str) -> list[Verdict]:
    """The ``count`` verdicts of a reply, or LLMReplyError saying what is wrong with it.

    Accepted: the JSON object alone, or inside a ```json fence, with whitespace around.
    """
    if not isinstance(reply, str):
        raise TypeError(f"{where}: complete() must return a str, got {type(reply).__name__}")
    text = reply.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1).strip()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise LLMReplyError(where, f"the reply is not JSON ({error.msg} at character {error.pos})",
                            reply) from None
    if not isinstance(data, dict) or "verdicts" not in data:
        raise LLMReplyError(where, 'the reply is not a JSON object with the key "verdicts"', reply)
    verdicts = data["verdicts"]
    if not isinstance(verdicts, list):
        raise LLMReplyError(where, f'"verdicts" must be a list, got {type(verdicts).__name__}', reply)
    if len(verdicts) != count:
        raise LLMReplyError(where, f"expected {count} verdicts (one per item), got {len(verdicts)}",
                            reply)
    out = []
    for i, entry in enumerate(verdicts, start=1):
        if not isinstance(entry, dict) or "verdict" not in entry or "reason" not in entry:
            raise LLMReplyError(where, f'verdict {i} is not an object with the keys "verdict" and '
                                       f'"reason"', reply)
        verdict, reason = entry["verdict"], entry["reason"]
        word = verdict.strip().lower() if isinstance(verdict, str) else None
        if word not in ("yes", "no"):
            raise LLMReplyError(where, f'verdict {i} is {verdict!r}, expected "yes" or "no"', reply)
        if not isinstance(reason, str):
            raise LLMReplyError(where, f"the reason of verdict {i} is {type(reason).__name__}, "
                                       f"expected a str", reply)
        out.append(Verdict(word == "yes", reason.strip()))
    return out


class LLMJudge(Judge):
    """A judge that asks a language model, through any ``complete(prompt: str) -> str``.

    Each method makes exactly one ``complete`` call, whatever the number of items, and none for
    an empty list. The prompt (Chinese or English, see the module docstring and the
    ``*_PROMPT_*`` constants) asks for one yes/no verdict with a reason per numbered item; a
    reply that is not that JSON raises :class:`LLMReplyError` quoting it, and a reply that is
    not a str raises TypeError. Retries, temperature, seeds and caching are the caller's: put
    them in ``complete``. Notebooks 12-14 use it through :func:`llm_judge_from_environment`.

    ``language``: ``"auto"`` (the Chinese prompt when any input contains a CJK ideograph, else
    English), ``"zh"`` or ``"en"``.

    A scripted ``complete`` stands in for a model (this is how the tests drive it):

    >>> prompts = []
    >>> def scripted(prompt):
    ...     prompts.append(prompt)
    ...     return '''```json
    ... {"verdicts": [{"verdict": "yes", "reason": "上下文写明 7 天退款"},
    ...               {"verdict": "no", "reason": "上下文没有提到 30 天"}]}
    ... ```'''
    >>> judge = LLMJudge(scripted)
    >>> judge.support(["产品支持 7 天退款。", "产品支持 30 天无理由退款。"], ["产品支持 7 天退款。"])
    [Verdict(verdict=True, reason='上下文写明 7 天退款'), Verdict(verdict=False, reason='上下文没有提到 30 天')]
    >>> print(prompts[0].splitlines()[0])
    任务：逐条判断下面编号的陈述是否得到上下文的支持。
    >>> [line for line in prompts[0].splitlines() if line.startswith("2. ")]
    ['2. "产品支持 30 天无理由退款。"']
    >>> judge.answer_relevance("怎么申请退款？", [])   # nothing to judge: no call
    []
    >>> len(prompts)
    1
    """

    name = "llm"

    def __init__(self, complete: Callable[[str], str], *, language: str = "auto"):
        if not callable(complete):
            raise TypeError(f"LLMJudge: complete must be a callable complete(prompt) -> str, "
                            f"got {type(complete).__name__}")
        if language not in _LANGUAGES:
            raise ValueError(f"LLMJudge: language must be one of {_LANGUAGES}, got {language!r}")
        self.complete = complete
        self.language = language

    def __repr__(self) -> str:
        return f"LLMJudge({getattr(self.complete, '__name__', type(self.complete).__name__)}, " \
               f"language={self.language!r})"

    def support(self, statements: list[str], contexts: list[str]) -> list[Verdict]:
        """Is each statement stated in, or directly inferable from, the contexts taken together?"""
        where = "LLMJudge.support"
        statements = _texts(statements, "statements", where)
        contexts = _texts(contexts, "contexts", where)
        language = self._language(statements + contexts)
        context = _numbered(contexts, "[{}] {}") or NO_CONTEXT[language]
        return self._ask("support", language, where, statements, context=context,
                         context_count=len(contexts))

    def context_relevance(self, question: str, texts: list[str]) -> list[Verdict]:
        """Does each context sentence or chunk contain information that helps answer the question?"""
        where = "LLMJudge.context_relevance"
        question, texts = self._question(question, where), _texts(texts, "texts", where)
        return self._ask("context_relevance", self._language([question, *texts]), where, texts,
                         question=json.dumps(question, ensure_ascii=False))

    def answer_relevance(self, question: str, statements: list[str]) -> list[Verdict]:
        """Does each answer statement address the question (rather than something else)?"""
        where = "LLMJudge.answer_relevance"
        question = self._question(question, where)
        statements = _texts(statements, "statements", where)
        return self._ask("answer_relevance", self._language([question, *statements]), where,
                         statements, question=json.dumps(question, ensure_ascii=False))

    # -------------------------------------------------------------------------- the machinery
    def _language(self, inputs: list[str]) -> str:
        if self.language != "auto":
            return self.language
        return "zh" if any(CJK_IDEOGRAPH.search(text) for text in inputs) else "en"

    @staticmethod
    def _question(question: object, where: str) -> str:
        if not isinstance(question, str):
            raise TypeError(f"{where}: question must be a str, got {type(question).__name__}")
        return question

    def _ask(self, task: str, language: str, where: str, items: list[str], **fields) -> list[Verdict]:
        """Render the prompt, make the one call, parse one verdict per item ([] without a call)."""
        if not items:
            return []
        prompt = Template(PROMPTS[task, language]).substitute(
            fields, items=_numbered(items, "{}. {}"), count=len(items))
        return _parse_verdicts(self.complete(prompt), len(items), where)


# ----------------------------------------------------------------------------- a real model
def _setting(value: str | None, variable: str) -> str | None:
    """An argument, else the environment variable (blank counts as unset)."""
    if value is None:
        value = os.environ.get(variable, "")
    return value.strip() or None


def openai_compatible_complete(base_url: str | None = None, model: str | None = None,
                               api_key: str | None = None, *,
                               timeout: float = 60.0) -> Callable[[str], str]:
    """A ``complete(prompt) -> str`` that asks an OpenAI-compatible chat endpoint.

    It POSTs ``{"model": model, "messages": [{"role": "user", "content": prompt}]}`` to
    ``{base_url}/chat/completions`` and returns ``choices[0].message.content``. Arguments left
    out come from ``RAGMETRICS_LLM_BASE_URL`` (e.g. ``http://localhost:11434/v1`` for a local
    Ollama server), ``RAGMETRICS_LLM_MODEL`` and ``RAGMETRICS_LLM_API_KEY`` (optional, sent as
    ``Authorization: Bearer ...`` when set). No temperature or seed is sent, so the server's
    defaults apply: wrap the function to change that, or to retry. An HTTP error raises
    ``requests.HTTPError`` with the status and the start of the body. Used by
    :func:`llm_judge_from_environment` in notebooks 12-14.

    Building it sends nothing; each call is one request:

    >>> complete = openai_compatible_complete("http://localhost:11434/v1", "qwen2.5:7b")
    >>> complete.__name__
    'openai_compatible_complete[qwen2.5:7b]'
    """
    import requests

    base_url = _setting(base_url, ENV_BASE_URL)
    model = _setting(model, ENV_MODEL)
    api_key = _setting(api_key, ENV_API_KEY)
    for value, what, variable in ((base_url, "base_url", ENV_BASE_URL), (model, "model", ENV_MODEL)):
        if value is None:
            raise ValueError(f"openai_compatible_complete: no {what}: pass {what}=... or set the "
                             f"environment variable {variable}")
    url = base_url.rstrip("/") + "/chat/completions"
    headers = {"Content-Type": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"

    def complete(prompt: str) -> str:
        if not isinstance(prompt, str):
            raise TypeError(f"complete: prompt must be a str, got {type(prompt).__name__}")
        payload = {"model": model, "messages": [{"role": "user", "content": prompt}]}
        response = requests.post(url, json=payload, headers=headers, timeout=timeout)
        if response.status_code >= 400:
            raise requests.HTTPError(f"{url} answered HTTP {response.status_code}: "
                                     f"{_quote(response.text)}", response=response)
        try:
            content = response.json()["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise ValueError(f"{url}: the response is not a chat completion with "
                             f"choices[0].message.content: {_quote(response.text)}") from None
        if not isinstance(content, str):
            raise ValueError(f"{url}: choices[0].message.content is {type(content).__name__}, "
                             f"expected a str: {_quote(response.text)}")
        return content

    complete.__name__ = f"openai_compatible_complete[{model}]"
    return complete


_HOW_TO_ENABLE = (
    "No LLM judge is configured, so nothing is sent to a model. To judge with one, set "
    f"{ENV_BASE_URL} and {ENV_MODEL} (and {ENV_API_KEY} if the server needs a key) for any "
    "OpenAI-compatible endpoint before starting Jupyter; for a local Ollama server, for example, "
    f"{ENV_BASE_URL}=http://localhost:11434/v1 and {ENV_MODEL}=qwen2.5:7b."
)


def llm_judge_from_environment() -> LLMJudge | None:
    """An :class:`LLMJudge` on the endpoint the environment names, or None after saying how to set one.

    With ``RAGMETRICS_LLM_BASE_URL`` and ``RAGMETRICS_LLM_MODEL`` set (``RAGMETRICS_LLM_API_KEY``
    optional) it returns ``LLMJudge(openai_compatible_complete())``; otherwise it prints one
    short paragraph naming the variables and returns None. Notebooks 12-14 call it in one cell::

        llm_judge = rml.triad.llm_judge_from_environment()
        if llm_judge is not None:
            ...  # score the notebook's example with it

    The repository's ``conftest.py`` unsets the variables, so under pytest this prints:

    >>> llm_judge_from_environment() is None  # doctest: +ELLIPSIS
    No LLM judge is configured, so nothing is sent to a model. To judge with one, set
    ...
    True
    """
    if _setting(None, ENV_BASE_URL) and _setting(None, ENV_MODEL):
        return LLMJudge(openai_compatible_complete())
    print(textwrap.fill(_HOW_TO_ENABLE, width=96))
    return None
