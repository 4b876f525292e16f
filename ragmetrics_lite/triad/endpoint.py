"""An OpenAI-compatible chat endpoint as the ``complete(prompt) -> str`` an ``LLMJudge`` asks.

:func:`openai_compatible_complete` POSTs one chat completion per prompt to ``{base_url}/chat/completions``
(OpenAI, a local Ollama or vLLM server) with the standard library. A judge run is many calls, so:

* ``timeout`` bounds the whole call, connecting and every read (a timeout per read, ``requests``'
  kind, let a server sending a byte a second hold a call for minutes); answers over
  ``MAX_RESPONSE_BYTES`` are refused.
* A failure (down, too slow, an HTTP error, not a chat completion) is one line, an
  :class:`LLMEndpointError` quoting the start of the body with the API key and anything that looks
  like a credential masked; nothing prints, quotes or writes the key.
* ``complete.stats`` sums the requests sent, the replies taken from the cache and the tokens the
  replies' ``usage`` reports.
* Replies are cached on disk, one file each (the reply text only), keyed by the SHA-256 of base URL,
  model, temperature and prompt, so a run repeated costs nothing: ``cache=`` a folder or False, else
  ``RAGMETRICS_LLM_CACHE`` (a folder, or ``off``), else ``llm`` in the package's cache folder.

Proxies named by ``http_proxy``, ``https_proxy`` and ``no_proxy`` are used. Retries are the caller's.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import socket
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path

__all__ = ["LLMEndpointError", "openai_compatible_complete"]

ENV_BASE_URL, ENV_MODEL, ENV_API_KEY = "RAGMETRICS_LLM_BASE_URL", "RAGMETRICS_LLM_MODEL", "RAGMETRICS_LLM_API_KEY"
LLM_ENVIRONMENT_VARIABLES = (ENV_BASE_URL, ENV_MODEL, ENV_API_KEY)
MAX_RESPONSE_BYTES = 4 * 2**20
QUOTE_LIMIT = 300  # characters of a reply or a response an error message quotes
USAGE_FIELDS = ("prompt_tokens", "completion_tokens", "total_tokens")
# A credential: the value after bearer, api_key, authorization, password ...; keys starting as OpenAI's,
# Groq's, GitHub's, Slack's and Google's do. Only ever run on a bounded prefix of a text.
_CREDENTIAL = re.compile(r"(?i)(\b(?:bearer|basic|token|api[-_]?key|authorization|password|secret)[\"']?\s*"
                         r"[:=]?\s*[\"']?)[^\s\"',;}]{4,}"
                         r"|\b(?:sk|pk|rk|gsk|ghp|xox[abp])[-_][\w-]{12,}|\bAIza[\w-]{20,}")


class LLMEndpointError(RuntimeError):
    """The endpoint gave no usable reply; the one-line message names it (without user, password or query)."""


def quote(text: str, *secrets: str) -> str:
    """``text`` as a one-line repr cut to ``QUOTE_LIMIT`` characters, ``secrets`` and anything that looks
    like a credential masked (masked before it is cut, so that no part of a secret is left): an echoed
    ``"Authorization": "Bearer sk-..."`` is quoted as ``"Authorization": "*** ***"``.
    """
    shown = text[:QUOTE_LIMIT + 100]
    for secret in filter(None, secrets):
        shown = shown.replace(secret, "***")
    shown = _CREDENTIAL.sub(lambda found: (found.group(1) or "") + "***", shown)
    return repr(shown) if len(text) <= QUOTE_LIMIT else f"{shown[:QUOTE_LIMIT]!r}... ({len(text)} characters in all)"


def _setting(value: str | None, variable: str) -> str | None:
    """An argument, else the environment variable (blank counts as unset)."""
    return (os.environ.get(variable, "") if value is None else value).strip() or None


def _cache_folder(cache) -> Path | None:
    """The folder replies are cached in (module docstring), or None for no cache."""
    if cache is None:
        cache = os.environ.get("RAGMETRICS_LLM_CACHE", "").strip() or True
    if cache is False or str(cache).lower() in ("off", "0", "no", "false"):
        return None
    if cache is not True:
        return Path(cache)
    import platformdirs  # the package's cache folder, as the tokenizer's dictionary cache finds it

    base = os.environ.get("RAGMETRICS_LITE_CACHE_DIR", platformdirs.user_cache_dir("ragmetrics_lite", appauthor=False))
    return Path(base) / "llm" if base else None


def _store(folder: Path, key: str, reply: str) -> None:
    """Write a reply atomically (a private temporary file renamed into place); a failure only costs the cache."""
    with contextlib.suppress(OSError):
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, delete=False) as file:
            file.write(reply)
        try:
            os.replace(file.name, folder / f"{key}.txt")  # replaces a planted link, never writes through it
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(file.name)


def _connection(url: str, timeout: float):
    """An http.client connection to the server, or to the proxy the environment names, and the target."""
    import http.client
    import urllib.request

    parts = urllib.parse.urlsplit(url)
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    target = urllib.parse.urlunsplit(("", "", parts.path, parts.query, ""))
    proxy = urllib.request.getproxies().get(parts.scheme)
    if not proxy or urllib.request.proxy_bypass(parts.hostname or ""):
        return kind(parts.hostname, parts.port, timeout=timeout), target
    via = urllib.parse.urlsplit(proxy if "://" in proxy else "http://" + proxy)
    if parts.scheme == "http":  # a plain HTTP proxy takes the whole URL as the target
        return http.client.HTTPConnection(via.hostname, via.port, timeout=timeout), url
    connection = kind(via.hostname, via.port, timeout=timeout)
    connection.set_tunnel(parts.hostname, parts.port)  # HTTPS through the proxy's CONNECT
    return connection, target


def _post(url: str, shown: str, body: bytes, headers: dict, timeout: float) -> tuple[int, bytes]:
    """POST ``body``: (status, response body), the whole exchange within ``timeout`` seconds. The socket's
    timeout bounds connecting; a timer then shuts the socket at the deadline, ending any read still waiting."""
    import http.client

    deadline = time.monotonic() + timeout
    connection, target = _connection(url, timeout)
    expired, timer = threading.Event(), None

    def expire(sock: socket.socket) -> None:  # the socket itself: the connection lets go of it early
        expired.set()
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)

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
        content = data = None
    if not isinstance(content, str):
        raise LLMEndpointError(f"{shown}: the response is not a chat completion with a str at "
                               f"choices[0].message.content: {quote(text, api_key)}")
    usage = data["usage"] if isinstance(data.get("usage"), dict) else {}
    return content, {name: usage[name] for name in USAGE_FIELDS if type(usage.get(name)) is int and usage[name] >= 0}


def openai_compatible_complete(base_url: str | None = None, model: str | None = None,
                               api_key: str | None = None, *, timeout: float = 60.0,
                               temperature: float | None = None, cache=None) -> Callable[[str], str]:
    """A ``complete(prompt) -> str`` that asks an OpenAI-compatible chat endpoint (module docstring).

    It POSTs ``{"model": model, "messages": [{"role": "user", "content": prompt}]}`` (and ``temperature``
    when given; else the server's default applies) and returns ``choices[0].message.content``. Arguments
    left out come from ``RAGMETRICS_LLM_BASE_URL`` (e.g. ``http://localhost:11434/v1`` for a local Ollama
    server), ``RAGMETRICS_LLM_MODEL`` and ``RAGMETRICS_LLM_API_KEY`` (optional, sent as ``Authorization:
    Bearer ...``). Used by :func:`~ragmetrics_lite.triad.llm.llm_judge_from_environment` (notebooks 12-14).
    Building it sends nothing; each call is one request, or none when the reply is cached:

    >>> complete = openai_compatible_complete("http://localhost:11434/v1", "qwen2.5:7b", cache=False)
    >>> complete.__name__
    'openai_compatible_complete[qwen2.5:7b]'
    >>> complete.stats
    {'requests': 0, 'cached': 0, 'prompt_tokens': 0, 'completion_tokens': 0, 'total_tokens': 0}
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
        with contextlib.suppress(OSError, UnicodeDecodeError, TypeError):
            reply = (folder / f"{key}.txt").read_text(encoding="utf-8")  # TypeError: no folder, no cache
            complete.stats["cached"] += 1
            return reply
        payload = {"model": model, "messages": [{"role": "user", "content": prompt}],
                   **({} if temperature is None else {"temperature": temperature})}
        status, body = _post(url, shown, json.dumps(payload).encode("utf-8"), headers, timeout)
        complete.stats["requests"] += 1
        reply, usage = _chat_content(status, body, shown, api_key)
        for field, tokens in usage.items():
            complete.stats[field] += tokens
        if folder is not None:
            _store(folder, key, reply)
        return reply

    complete.__name__ = f"openai_compatible_complete[{model}]"
    complete.stats = dict.fromkeys(("requests", "cached", *USAGE_FIELDS), 0)
    return complete
