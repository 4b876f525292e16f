"""openai_compatible_complete and llm_judge_from_environment against a scripted chat server on 127.0.0.1.

Every test talks to a real HTTP server in a thread of this process (``ScriptedServer``); connections
anywhere else fail, as in every triad test. What is checked: the request sent, one deadline per call
(a server dribbling bytes cannot stretch it), errors in one line, credentials never shown or stored,
token usage summed, the reply cache, and the messages of a half-set configuration.
"""
from __future__ import annotations

import http.server
import json
import os
import socket
import stat
import threading
import time
from pathlib import Path

import pytest

import ragmetrics_lite.triad.endpoint as endpoint
import ragmetrics_lite.triad.llm as llm
from ragmetrics_lite.triad import LLMEndpointError, LLMJudge, Verdict

VARIABLES = ("RAGMETRICS_LLM_BASE_URL", "RAGMETRICS_LLM_MODEL", "RAGMETRICS_LLM_API_KEY")
KEY = "sk-test-Abc123Def456Ghi789"
REAL_CREATE_CONNECTION = socket.create_connection


def chat(content, usage=None) -> dict:
    body = {"id": "x", "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}
    return body if usage is None else {**body, "usage": usage}


class ScriptedServer(http.server.ThreadingHTTPServer):
    """Answers each POST with the next of ``answers``: ``(status, body)`` (a dict is sent as JSON) or a
    function of the request handler that writes the answer itself. Records every request."""

    daemon_threads = True

    def __init__(self):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.answers: list = []
        self.requests: list[dict] = []
        self.url = f"http://127.0.0.1:{self.server_address[1]}/v1"


class _Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):  # quiet
        pass

    def do_POST(self):  # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.server.requests.append({"path": self.path, "headers": dict(self.headers), "json": json.loads(body)})
        answer = self.server.answers.pop(0) if self.server.answers else (200, chat('{"verdicts": []}'))
        if callable(answer):
            return answer(self)
        status, content = answer
        data = (json.dumps(content, ensure_ascii=False) if isinstance(content, dict) else content).encode()
        self.send_response(status)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def server(monkeypatch):
    """The scripted server; connecting anywhere but to it fails the test."""
    running = ScriptedServer()
    allowed = running.server_address

    def connect_here_only(address, *args, **kwargs):
        if tuple(address[:2]) != allowed:
            raise AssertionError(f"a test tried to connect to {address}")
        return REAL_CREATE_CONNECTION(address, *args, **kwargs)

    monkeypatch.setattr(socket, "create_connection", connect_here_only)
    for name in (*VARIABLES, "RAGMETRICS_LLM_CACHE"):
        monkeypatch.delenv(name, raising=False)
    thread = threading.Thread(target=running.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield running
    running.shutdown()
    running.server_close()


def client(server, **kwargs):
    return endpoint.openai_compatible_complete(server.url, kwargs.pop("model", "qwen2.5:7b"),
                                               **{"cache": False, **kwargs})


# ------------------------------------------------------------------------------ the request
def test_complete_posts_a_chat_completion_and_returns_the_content(server):
    server.answers.append((200, chat("这是回答")))
    complete = client(server, api_key=KEY, temperature=0)
    assert server.requests == []  # building it sends nothing
    assert complete("你好，世界") == "这是回答"
    (request,) = server.requests
    assert request["path"] == "/v1/chat/completions"
    assert request["json"] == {"model": "qwen2.5:7b", "messages": [{"role": "user", "content": "你好，世界"}],
                               "temperature": 0}
    assert request["headers"]["Authorization"] == f"Bearer {KEY}"


def test_complete_reads_the_environment_and_sends_no_key_or_temperature_when_none(server, monkeypatch):
    monkeypatch.setenv("RAGMETRICS_LLM_BASE_URL", server.url + "/")
    monkeypatch.setenv("RAGMETRICS_LLM_MODEL", "llama3.2")
    assert endpoint.openai_compatible_complete(cache=False)("hi") == '{"verdicts": []}'
    (request,) = server.requests
    assert request["path"] == "/v1/chat/completions" and request["json"]["model"] == "llama3.2"
    assert "Authorization" not in request["headers"] and "temperature" not in request["json"]
    monkeypatch.setenv("RAGMETRICS_LLM_API_KEY", "from-env-key")
    endpoint.openai_compatible_complete(model="other", cache=False)("hi")
    assert server.requests[1]["headers"]["Authorization"] == "Bearer from-env-key"
    assert server.requests[1]["json"]["model"] == "other"  # an argument beats the variable


@pytest.mark.parametrize("given, missing", [
    ({}, "RAGMETRICS_LLM_BASE_URL"),
    ({"RAGMETRICS_LLM_BASE_URL": "http://localhost:11434/v1"}, "RAGMETRICS_LLM_MODEL"),
    ({"RAGMETRICS_LLM_BASE_URL": "  ", "RAGMETRICS_LLM_MODEL": "m"}, "RAGMETRICS_LLM_BASE_URL"),
    ({"RAGMETRICS_LLM_MODEL": "m"}, "RAGMETRICS_LLM_BASE_URL"),
])
def test_missing_base_url_or_model_names_the_variable(monkeypatch, given, missing):
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name, value in given.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ValueError, match=f"set the environment variable {missing}"):
        endpoint.openai_compatible_complete()


@pytest.mark.parametrize("kwargs, phrase", [({"timeout": 0}, "timeout"), ({"timeout": True}, "timeout"),
                                            ({"base_url": "ftp://h/v1"}, "http:// or https://")])
def test_bad_settings_are_refused_when_built(kwargs, phrase):
    with pytest.raises(ValueError, match=phrase):
        endpoint.openai_compatible_complete(**{"base_url": "http://h/v1", "model": "m", **kwargs})


# ------------------------------------------------------------------------------ errors in one line
def one_line_error(complete) -> str:
    with pytest.raises(LLMEndpointError) as caught:
        complete("hi")
    message = str(caught.value)
    assert "\n" not in message  # and no chained traceback (the 230 lines of urllib3 and requests):
    assert caught.value.__cause__ is None and (caught.value.__context__ is None or caught.value.__suppress_context__)
    return message


def test_a_server_that_is_down_is_one_line(server):
    url = server.url
    server.shutdown()
    server.server_close()  # nothing listens on the port any more
    message = one_line_error(endpoint.openai_compatible_complete(url, "m", cache=False))
    assert message.startswith(f"{url}/chat/completions: no answer (") and "refused" in message


def test_an_http_error_is_one_line_with_the_status_and_credentials_masked(server):
    echoed = {"error": "unauthorized", "echo": {"Authorization": f"Bearer {KEY}", "x-api-key": "zzzz9999"}}
    server.answers.append((401, echoed))
    message = one_line_error(client(server, api_key=KEY))
    assert f"{server.url}/chat/completions answered HTTP 401: " in message and "unauthorized" in message
    for secret in (KEY, "Abc123", "zzzz9999"):
        assert secret not in message


def test_a_long_error_body_is_quoted_cut(server):
    server.answers.append((500, "<html>" + "x" * 5000 + "</html>"))
    message = one_line_error(client(server))
    assert "HTTP 500" in message and "(5013 characters in all)" in message and len(message) < 500


@pytest.mark.parametrize("body, phrase", [
    ("not json at all", "not a chat completion"),
    ({"choices": []}, "not a chat completion"),
    ({"error": "overloaded"}, "not a chat completion"),
    ("[" * 100_000, "not a chat completion"),
    (chat(None), "with a str at choices[0].message.content"),
])
def test_an_answer_without_text_content_is_one_line(server, body, phrase):
    server.answers.append((200, body))
    assert phrase in one_line_error(client(server))


def test_an_answer_over_the_size_limit_is_refused(server, monkeypatch):
    monkeypatch.setattr(endpoint, "MAX_RESPONSE_BYTES", 1000)
    server.answers.append((200, chat("x" * 5000)))
    assert "over 1,000 bytes" in one_line_error(client(server))


ANSWER = json.dumps(chat('{"verdicts": []}')).encode()


def dribble(handler, headers_too: bool):
    """The answer one byte every 50 ms (some 3 s in all), after the headers sent at once or dribbled too."""
    head = f"HTTP/1.0 200 OK\r\nContent-Length: {len(ANSWER)}\r\n\r\n".encode()
    if not headers_too:
        handler.wfile.write(head)
    for byte in (head + ANSWER if headers_too else ANSWER):
        try:
            handler.wfile.write(bytes([byte]))
            handler.wfile.flush()
        except OSError:
            return
        time.sleep(0.05)


@pytest.mark.parametrize("headers_too", [False, True])
def test_the_timeout_bounds_the_whole_call_not_each_read(server, headers_too):
    """With requests' timeout, a server sending a byte a second kept a timeout=5 call running for 100 s."""
    server.answers.append(lambda handler: dribble(handler, headers_too))
    start = time.perf_counter()
    message = one_line_error(client(server, timeout=0.5))
    assert time.perf_counter() - start < 2.0  # the answer would take some 3 s; the call ends at 0.5 s
    assert "no complete answer within the timeout of 0.5 s" in message


# ------------------------------------------------------------------------------ usage and cache
def test_token_usage_is_summed_over_the_run(server):
    server.answers += [(200, chat("a", {"prompt_tokens": 10, "completion_tokens": 3, "total_tokens": 13})),
                       (200, chat("b", {"prompt_tokens": 7, "completion_tokens": 2, "total_tokens": 9})),
                       (200, chat("c")), (200, chat("d", {"prompt_tokens": "many", "total_tokens": -1}))]
    complete = client(server)
    assert [complete(p) for p in ("1", "2", "3", "4")] == ["a", "b", "c", "d"]
    assert complete.stats == {"requests": 4, "cached": 0, "prompt_tokens": 17, "completion_tokens": 5,
                              "total_tokens": 22}


def test_replies_are_cached_by_base_url_model_temperature_and_prompt(server, tmp_path):
    server.answers += [(200, chat(f"reply {i}", {"total_tokens": 5})) for i in range(1, 5)]
    folder = tmp_path / "cache"
    complete = client(server, cache=folder, api_key=KEY)
    assert complete("p") == "reply 1" and complete("p") == "reply 1"  # the second costs nothing
    assert complete.stats["requests"] == 1 and complete.stats["cached"] == 1 and complete.stats["total_tokens"] == 5
    assert client(server, cache=folder, api_key=KEY)("p") == "reply 1"  # a new run, the same settings
    assert client(server, cache=folder, model="other")("p") == "reply 2"
    assert client(server, cache=folder, temperature=0.0)("p") == "reply 3"
    assert client(server, cache=folder)("q") == "reply 4"
    assert len(server.requests) == 4
    files = sorted(folder.iterdir())
    assert len(files) == 4 and stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert sorted(f.read_text(encoding="utf-8") for f in files) == ["reply 1", "reply 2", "reply 3", "reply 4"]


def test_the_cache_is_turned_off_by_argument_or_variable(server, tmp_path, monkeypatch):
    monkeypatch.setenv("RAGMETRICS_LITE_CACHE_DIR", str(tmp_path))
    default = client(server, cache=None)
    default("p")
    assert default("p") == '{"verdicts": []}' and default.stats["cached"] == 1
    assert len(list((tmp_path / "llm").iterdir())) == 1  # the default folder: llm in the package's cache
    monkeypatch.setenv("RAGMETRICS_LLM_CACHE", "off")
    switched_off = client(server, cache=None)
    switched_off("p")
    assert switched_off.stats == {**switched_off.stats, "requests": 1, "cached": 0}
    monkeypatch.setenv("RAGMETRICS_LLM_CACHE", str(tmp_path / "elsewhere"))
    client(server, cache=None)("p")
    assert len(list((tmp_path / "elsewhere").iterdir())) == 1
    assert len(server.requests) == 3


def test_nothing_prints_or_stores_the_key(server, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("RAGMETRICS_LLM_BASE_URL", server.url)
    monkeypatch.setenv("RAGMETRICS_LLM_MODEL", "m")
    monkeypatch.setenv("RAGMETRICS_LLM_API_KEY", KEY)
    monkeypatch.setenv("RAGMETRICS_LLM_CACHE", str(tmp_path))
    server.answers += [(200, chat(json.dumps({"verdicts": [{"verdict": "yes", "reason": "r"}]}))),
                       (403, {"detail": f"key {KEY} is not allowed", "auth": f"Bearer {KEY}"})]
    judge = llm.llm_judge_from_environment()
    shown = [repr(judge), repr(judge.complete), str(vars(judge)), str(judge.complete.stats)]
    assert judge.support(["a."], ["a."]) == [Verdict(True, "r")]
    with pytest.raises(LLMEndpointError) as caught:
        judge.support(["b."], ["a."])
    shown += [str(caught.value), repr(caught.value), capsys.readouterr().out]
    shown += [path.read_text(encoding="utf-8") + path.name for path in tmp_path.rglob("*") if path.is_file()]
    assert all(KEY not in text and "Abc123" not in text for text in shown), shown


# ------------------------------------------------------------------------------ from the environment
def test_llm_judge_end_to_end_over_the_server(server):
    reply = "```json\n" + json.dumps({"verdicts": [{"verdict": "yes", "reason": "写明 7 天"},
                                                   {"verdict": "no", "reason": "没有 30 天"}]}, ensure_ascii=False)
    server.answers.append((200, chat(reply + "\n```")))
    judge = LLMJudge(client(server))
    statements = ["产品支持 7 天退款。", "产品支持 30 天无理由退款。"]
    assert judge.support(statements, ["产品支持 7 天退款。"]) == [Verdict(True, "写明 7 天"), Verdict(False, "没有 30 天")]
    sent = server.requests[0]["json"]["messages"][0]["content"]
    assert all(f'"{s}"' in sent for s in statements) and "\\u" not in sent


def test_without_the_variables_it_prints_how_and_returns_none(monkeypatch, capsys):
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    assert llm.llm_judge_from_environment() is None
    out, err = capsys.readouterr()
    assert err == ""
    assert all(name in out for name in VARIABLES)
    assert "http://localhost:11434/v1" in out and "OpenAI-compatible" in out
    assert "\n\n" not in out.strip() and len(out) < 600  # one short paragraph
    assert out.startswith("No LLM judge is configured")
    for machine_specific in (os.getcwd(), str(Path.home())):
        assert machine_specific not in out


@pytest.mark.parametrize("given, first_line", [
    (("RAGMETRICS_LLM_BASE_URL",), "RAGMETRICS_LLM_BASE_URL is set, but RAGMETRICS_LLM_MODEL is not."),
    (("RAGMETRICS_LLM_MODEL",), "RAGMETRICS_LLM_MODEL is set, but RAGMETRICS_LLM_BASE_URL is not."),
    (("RAGMETRICS_LLM_API_KEY",),
     "RAGMETRICS_LLM_API_KEY is set, but RAGMETRICS_LLM_BASE_URL and RAGMETRICS_LLM_MODEL are not."),
    (("RAGMETRICS_LLM_MODEL", "RAGMETRICS_LLM_API_KEY"),
     "RAGMETRICS_LLM_MODEL and RAGMETRICS_LLM_API_KEY are set, but RAGMETRICS_LLM_BASE_URL is not."),
])
def test_a_half_set_configuration_names_the_missing_variable(monkeypatch, capsys, given, first_line):
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    for name in given:
        monkeypatch.setenv(name, "http://localhost:11434/v1" if name.endswith("URL") else KEY)
    assert llm.llm_judge_from_environment() is None
    out = capsys.readouterr().out
    assert out.splitlines()[0] == first_line and KEY not in out


def test_quote_masks_an_echoed_authorization_header_before_cutting():
    echoed = '{"error": "bad key", "headers": {"Authorization": "Bearer sk-abcdefghijklmnop"}}'
    assert endpoint.quote(echoed) == repr('{"error": "bad key", "headers": {"Authorization": "*** ***"}}')
    cut = endpoint.quote("x" * 290 + " Bearer sk-abcdefghijklmnopqrstuvwxyz")  # the key straddles the cut
    assert "abcdef" not in cut and cut.endswith("(327 characters in all)")
