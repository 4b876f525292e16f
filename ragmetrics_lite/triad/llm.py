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

The prompts are data (:mod:`~ragmetrics_lite.triad.prompts`, also importable from here):
``print(SUPPORT_PROMPT_ZH)`` shows one.

What is *not* here, on purpose: retries and seeds. A judge's reply changes between runs and
sometimes is not JSON; the caller decides what to do about it (wrap ``complete``, catch
:class:`LLMReplyError` and ask again, average several runs). This module raises an error that
quotes the start of the reply (credentials masked), and never guesses a verdict. A reply is read
in linear time whatever it holds, and one over ``MAX_REPLY_CHARACTERS`` is refused unread.

:func:`~ragmetrics_lite.triad.endpoint.openai_compatible_complete` builds a ``complete`` for any
OpenAI-compatible endpoint named by the ``RAGMETRICS_LLM_*`` environment variables; the repository's
``conftest.py`` removes them, so that tests and strict nbval never reach a model.
"""
from __future__ import annotations

import json
import string
import textwrap
from collections.abc import Callable, Sequence
from string import Template

from ..text.tokenization import CJK_IDEOGRAPH
from . import prompts
from .endpoint import (ENV_API_KEY, ENV_BASE_URL, ENV_MODEL, LLM_ENVIRONMENT_VARIABLES, LLMEndpointError,  # noqa: F401
                       _setting, openai_compatible_complete, quote)
from .judges import Judge, Verdict
from .prompts import *  # noqa: F401,F403  (the prompts, importable from here too)

__all__ = ["LLMJudge", "LLMReplyError", "llm_judge_from_environment"]

_LANGUAGES = ("auto", "zh", "en")
MAX_REPLY_CHARACTERS = 200_000  # some 500 verdicts with their reasons; a longer reply is not read


class LLMReplyError(ValueError):
    """The judge's reply could not be read as the verdicts asked for.

    ``reply`` holds the whole reply and ``problem`` what was wrong with it; the message quotes its start.
    """

    def __init__(self, where: str, problem: str, reply: str):
        self.where, self.problem, self.reply = where, problem, reply
        super().__init__(f"{where}: {problem}. The reply was: {quote(reply)}")

    def __reduce__(self):  # survives pickling (multiprocessing, pytest-xdist) with its fields
        return type(self), (self.where, self.problem, self.reply)


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


def _unfenced(text: str) -> str:
    """What a ```json ... ``` fence around ``text`` holds (the fence's language letters and the
    whitespace inside dropped), else ``text``: string operations in linear time, where a regular
    expression backtracked cubically on a fence that never closes."""
    if len(text) < 6 or not (text.startswith("```") and text.endswith("```")):
        return text
    return text[3:-3].lstrip(string.ascii_letters).strip()


def _parse_verdicts(reply: object, count: int, where: str) -> list[Verdict]:
    """The ``count`` verdicts of a reply, or LLMReplyError saying what is wrong with it.

    Accepted: the JSON object alone, or inside a ```json fence, with whitespace around.
    """
    if not isinstance(reply, str):
        raise TypeError(f"{where}: complete() must return a str, got {type(reply).__name__}")
    if len(reply) > MAX_REPLY_CHARACTERS:
        raise LLMReplyError(where, f"the reply is {len(reply):,} characters, over the limit of "
                                   f"{MAX_REPLY_CHARACTERS:,}", reply)
    try:
        data = json.loads(_unfenced(reply.strip()))
    except json.JSONDecodeError as error:
        raise LLMReplyError(where, f"the reply is not JSON ({error.msg} at character {error.pos})",
                            reply) from None
    except (ValueError, RecursionError) as error:  # a number over 4,300 digits; nesting deeper than Python's stack
        problem = "nested too deeply" if isinstance(error, RecursionError) else str(error).split(";")[0]
        raise LLMReplyError(where, f"the reply is not JSON that can be read ({problem})", reply) from None
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
    an empty list; the prompt asks for one yes/no verdict with a reason per numbered item. A reply
    that is not that JSON raises :class:`LLMReplyError` quoting it (one that is not a str, TypeError).
    Retries, temperature, seeds and caching go in ``complete``. Notebooks 12-14 use it through
    :func:`llm_judge_from_environment`.

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
        context = _numbered(contexts, "[{}] {}") or prompts.NO_CONTEXT[language]
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
        prompt = Template(prompts.PROMPTS[task, language]).substitute(
            fields, items=_numbered(items, "{}. {}"), count=len(items))
        return _parse_verdicts(self.complete(prompt), len(items), where)


# ----------------------------------------------------------------------------- a real model
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
    short paragraph naming the variables and returns None, after a line naming the missing variable
    when only some are set. Notebooks 12-14 call it in one cell::

        llm_judge = rml.triad.llm_judge_from_environment()
        if llm_judge is not None:
            ...  # score the notebook's example with it

    The repository's ``conftest.py`` unsets the variables, so under pytest this prints:

    >>> llm_judge_from_environment() is None  # doctest: +ELLIPSIS
    No LLM judge is configured, so nothing is sent to a model. To judge with one, set
    ...
    True
    """
    given = [name for name in LLM_ENVIRONMENT_VARIABLES if _setting(None, name)]
    missing = [name for name in (ENV_BASE_URL, ENV_MODEL) if name not in given]
    if not missing:
        return LLMJudge(openai_compatible_complete())
    if given:  # half set: say what is missing before how to set it
        print(f"{' and '.join(given)} {'is' if len(given) == 1 else 'are'} set, but {' and '.join(missing)} "
              f"{'is' if len(missing) == 1 else 'are'} not.")
    print(textwrap.fill(_HOW_TO_ENABLE, width=96))
    return None
