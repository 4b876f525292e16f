"""An OpenAI-compatible chat endpoint as the ``complete(prompt) -> str`` an ``LLMJudge`` asks.

:func:`openai_compatible_complete` POSTs one chat completion per prompt to ``{base_url}/chat/completions``
(OpenAI, a local Ollama or vLLM server) with the standard library's ``http.client``. A judge run is
many calls, so it takes care of what goes wrong in many calls:

* **One deadline per call.** ``timeout`` bounds the whole call: connecting, sending and every read. A
  timeout per read (``requests``' kind) let a server sending a byte a second hold a call for minutes.
* **Bounded answers.** A response over ``MAX_RESPONSE_BYTES`` is refused before it fills memory.
* **Errors in one line.** A server that is down or too slow, an HTTP error, or an answer that is not
  a chat completion raises :class:`LLMEndpointError` with a one-line message that quotes at most
  ``QUOTE_LIMIT`` characters of the body, with the API key and anything that looks like a credential
  masked (a gateway may echo the request's ``Authorization`` header). The key is never printed,
  quoted or written anywhere.
* **Token usage.** ``complete.stats`` counts the requests sent, the replies taken from the cache and
  the ``usage`` tokens the replies report (prompt, completion, total), summed over the run.
* **A reply cache on disk,** one file per reply, keyed by the SHA-256 of base URL, model, temperature
  and prompt, so running a judge again costs nothing. The file holds the reply text only. The folder:
  ``cache=`` (a path, or False for none), else ``RAGMETRICS_LLM_CACHE`` (a path, or ``off``), else
  ``llm`` in the package's cache folder (``RAGMETRICS_LITE_CACHE_DIR``, else the user cache folder).
  Turn it off to sample a model's replies afresh.

Proxies named by the usual ``http_proxy`` / ``https_proxy`` / ``no_proxy`` variables are used.
Retries are the caller's: wrap ``complete``.
"""
from __future__ import annotations

import contextlib
import hashlib
import http.client
import json
import os
import re
import socket
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path

__all__ = ["LLMEndpointError", "openai_compatible_complete", "LLM_ENVIRONMENT_VARIABLES", "quote"]

ENV_BASE_URL = "RAGMETRICS_LLM_BASE_URL"
ENV_MODEL = "RAGMETRICS_LLM_MODEL"
ENV_API_KEY = "RAGMETRICS_LLM_API_KEY"
ENV_CACHE = "RAGMETRICS_LLM_CACHE"
LLM_ENVIRONMENT_VARIABLES = (ENV_BASE_URL, ENV_MODEL, ENV_API_KEY)
MAX_RESPONSE_BYTES = 4 * 2**20
QUOTE_LIMIT = 300  # characters of a reply or response body an error message quotes
USAGE_FIELDS = ("prompt_tokens", "completion_tokens", "total_tokens")
# What a credential looks like: a value after bearer, api_key, authorization, password ...; keys that
# start the way OpenAI's, Groq's, GitHub's, Slack's and Google's do. Only ever run on a bounded prefix.
_CREDENTIAL = re.compile(r"(?i)(\b(?:bearer|basic|token|api[-_]?key|authorization|password|secret)[\"']?\s*"
                         r"[:=]?\s*[\"']?)[^\s\"',;}]{4,}"
                         r"|\b(?:sk|pk|rk|gsk|ghp|xox[abp])[-_][\w-]{12,}|\bAIza[\w-]{20,}")


class LLMEndpointError(RuntimeError):
    """The endpoint gave no usable reply: down, too slow, an HTTP error, or not a chat completion.

    The message is one line and names the endpoint (without any user name, password or query string).
    """


def quote(text: str, *secrets: str) -> str:
    """``text`` as a one-line repr cut to ``QUOTE_LIMIT`` characters, ``secrets`` and anything that looks
    like a credential masked as ``***`` (Chinese stays readable).

    >>> print(quote('{"error": "bad key", "headers": {"Authorization": "Bearer sk-abcdefghijklmnop"}}'))
    '{"error": "bad key", "headers": {"Authorization": "*** ***"}}'
    """
    shown = text[:QUOTE_LIMIT + 100]  # masked before it is cut, so that no part of a secret is left
    for secret in secrets:
        if secret:
            shown = shown.replace(secret, "***")
    shown = _CREDENTIAL.sub(lambda found: (found.group(1) or "") + "***", shown)
    if len(text) <= QUOTE_LIMIT:
        return repr(shown)
    return f"{shown[:QUOTE_LIMIT]!r}... ({len(text)} characters in all)"


def _setting(value: str | None, variable: str) -> str | None:
    """An argument, else the environment variable (blank counts as unset)."""
    if value is None:
        value = os.environ.get(variable, "")
    return value.strip() or None


def _cache_folder(cache) -> Path | None:
    """Where replies are cached (module docstring), or None for no cache."""
    if cache is False:
        return None
    if cache is not None and cache is not True:
        return Path(cache)
    setting = "" if cache is True else os.environ.get(ENV_CACHE, "").strip()
    if setting.lower() in ("off", "0", "no", "false"):
        return None
    if setting:
        return Path(setting)
    base = os.environ.get("RAGMETRICS_LITE_CACHE_DIR")
    if base is None:
        import platformdirs

        base = platformdirs.user_cache_dir("ragmetrics_lite", appauthor=False)
    return Path(base) / "llm" if base else None


def _cached(folder: Path | None, key: str) -> str | None:
    if folder is None:
        return None
    with contextlib.suppress(OSError, UnicodeDecodeError):
        return (folder / f"{key}.txt").read_text(encoding="utf-8")
    return None


def _store(folder: Path | None, key: str, reply: str) -> None:
    """Write the reply atomically (a private temporary file, then a rename); a failure only costs the cache."""
    if folder is None:
        return
    temporary = None
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, prefix=".reply-", delete=False) as file:
            temporary = file.name
            file.write(reply)
        os.replace(temporary, folder / f"{key}.txt")  # replaces a planted link, never writes through it
    except OSError:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


def _connection(parts: urllib.parse.SplitResult, timeout: float) -> tuple[http.client.HTTPConnection, str]:
    """A connection to the server (or to the proxy the environment names for it) and the request target."""
    https = parts.scheme == "https"
    kind = http.client.HTTPSConnection if https else http.client.HTTPConnection
    target = urllib.parse.urlunsplit(("", "", parts.path or "/", parts.query, ""))
    proxy = urllib.request.getproxies().get(parts.scheme)
    if not proxy or urllib.request.proxy_bypass(parts.hostname or ""):
        return kind(parts.hostname, parts.port, timeout=timeout), target
    via = urllib.parse.urlsplit(proxy if "://" in proxy else "http://" + proxy)
    if not https:  # a plain HTTP proxy takes the whole URL as the target
        return http.client.HTTPConnection(via.hostname, via.port, timeout=timeout), parts.geturl()
    connection = kind(via.hostname, via.port, timeout=timeout)
    connection.set_tunnel(parts.hostname, parts.port)
    return connection, target


def _post(url: str, shown: str, body: bytes, headers: dict, timeout: float) -> tuple[int, bytes]:
    """POST ``body``: (status, response body), the whole exchange within ``timeout`` seconds.

    The socket's timeout bounds connecting and each read; a timer shuts the socket at the deadline,
    which ends any read still waiting, so no server can stretch the call past ``timeout``.
    """
    deadline = time.monotonic() + timeout
    connection, target = _connection(urllib.parse.urlsplit(url), timeout)
    expired = threading.Event()

    def expire(sock: socket.socket) -> None:  # the socket itself: the connection lets go of it early
        expired.set()
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)

    timer = None
    try:
        connection.connect()
        timer = threading.Timer(max(deadline - time.monotonic(), 0.0), expire, (connection.sock,))
        timer.start()
        connection.request("POST", target, body, headers)
        response = connection.getresponse()
        data = response.read(MAX_RESPONSE_BYTES + 1)
    except (OSError, http.client.HTTPException) as error:  # past the deadline: the timeout error below
        if not expired.is_set() and time.monotonic() < deadline:
            reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
            raise LLMEndpointError(f"{shown}: no answer ({reason})") from None
    finally:
        if timer is not None:
            timer.cancel()
        connection.close()
    if expired.is_set() or time.monotonic() >= deadline:
        raise LLMEndpointError(f"{shown}: no complete answer within the timeout of {timeout:g} s")
    if len(data) > MAX_RESPONSE_BYTES:
        raise LLMEndpointError(f"{shown}: the response is over {MAX_RESPONSE_BYTES:,} bytes")
    return response.status, data


def _chat_content(status: int, body: bytes, shown: str, api_key: str | None) -> tuple[str, dict]:
    """``choices[0].message.content`` of a chat completion and its token ``usage``, or LLMEndpointError."""
    text = body.decode("utf-8", errors="replace")
    if status >= 400:
        raise LLMEndpointError(f"{shown} answered HTTP {status}: {quote(text, api_key)}")
    try:
        data = json.loads(text)
        content = data["choices"][0]["message"]["content"]
    except (ValueError, RecursionError, KeyError, IndexError, TypeError):
        raise LLMEndpointError(f"{shown}: the response is not a chat completion with "
                               f"choices[0].message.content: {quote(text, api_key)}") from None
    if not isinstance(content, str):
        raise LLMEndpointError(f"{shown}: choices[0].message.content is {type(content).__name__}, "
                               f"expected a str: {quote(text, api_key)}")
    usage = data.get("usage") if isinstance(data.get("usage"), dict) else {}
    return content, {field: usage[field] for field in USAGE_FIELDS
                     if type(usage.get(field)) is int and usage[field] >= 0}


def openai_compatible_complete(base_url: str | None = None, model: str | None = None,
                               api_key: str | None = None, *, timeout: float = 60.0,
                               temperature: float | None = None, cache=None) -> Callable[[str], str]:
    """A ``complete(prompt) -> str`` that asks an OpenAI-compatible chat endpoint (module docstring).

    It POSTs ``{"model": model, "messages": [{"role": "user", "content": prompt}]}`` (with
    ``temperature`` when given; else the server's default applies) to ``{base_url}/chat/completions``
    and returns ``choices[0].message.content``. Arguments left out come from ``RAGMETRICS_LLM_BASE_URL``
    (e.g. ``http://localhost:11434/v1`` for a local Ollama server), ``RAGMETRICS_LLM_MODEL`` and
    ``RAGMETRICS_LLM_API_KEY`` (optional, sent as ``Authorization: Bearer ...``). ``timeout``: seconds
    for the whole call. ``cache``: a folder, False for none, None for the default. Used by
    :func:`~ragmetrics_lite.triad.llm.llm_judge_from_environment` in notebooks 12-14.

    Building it sends nothing; each call is one request, or none when the reply is cached:

    >>> complete = openai_compatible_complete("http://localhost:11434/v1", "qwen2.5:7b", cache=False)
    >>> complete.__name__, complete.stats["requests"]
    ('openai_compatible_complete[qwen2.5:7b]', 0)
    """
    base_url, model = _setting(base_url, ENV_BASE_URL), _setting(model, ENV_MODEL)
    api_key = _setting(api_key, ENV_API_KEY)
    for value, what, variable in ((base_url, "base_url", ENV_BASE_URL), (model, "model", ENV_MODEL)):
        if value is None:
            raise ValueError(f"openai_compatible_complete: no {what}: pass {what}=... or set the "
                             f"environment variable {variable}")
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout < float("inf"):
        raise ValueError(f"openai_compatible_complete: timeout must be a positive number of seconds, got {timeout!r}")
    url = base_url.rstrip("/") + "/chat/completions"
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("openai_compatible_complete: base_url must be an http:// or https:// URL with a host")
    shown = f"{parts.scheme}://{parts.hostname}{f':{parts.port}' if parts.port else ''}{parts.path}"
    folder = _cache_folder(cache)
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {api_key}"} if api_key else {})}

    def complete(prompt: str) -> str:
        if not isinstance(prompt, str):
            raise TypeError(f"complete: prompt must be a str, got {type(prompt).__name__}")
        key = hashlib.sha256(json.dumps([url, model, temperature, prompt]).encode("utf-8")).hexdigest()
        reply = _cached(folder, key)
        if reply is not None:
            complete.stats["cached"] += 1
            return reply
        payload = {"model": model, "messages": [{"role": "user", "content": prompt}],
                   **({} if temperature is None else {"temperature": temperature})}
        status, body = _post(url, shown, json.dumps(payload).encode("utf-8"), headers, timeout)
        complete.stats["requests"] += 1
        reply, usage = _chat_content(status, body, shown, api_key)
        for field, tokens in usage.items():
            complete.stats[field] += tokens
        _store(folder, key, reply)
        return reply

    complete.__name__ = f"openai_compatible_complete[{model}]"
    complete.stats = dict.fromkeys(("requests", "cached", *USAGE_FIELDS), 0)
    return complete
