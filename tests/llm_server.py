"""A tiny OpenAI-compatible chat-completions server for tests: real HTTP on 127.0.0.1, scripted replies.

Each request to ``POST /v1/chat/completions`` takes the next entry of the script (or asks ``responder``
when the script is empty); ``GET /v1/models`` lists ``models`` (what :mod:`relguard.llm.discover` asks).
An entry is a reply text, or a dict: ``{"content": str}``, ``{"status": 429, "headers": {...}}`` for an
error, ``{"delay": s, ...}`` to answer late (client timeouts), ``{"finish_reason": "length", ...}`` for a
reply cut off at ``max_tokens``. Every request body is kept in ``requests`` so tests can assert what the
backend sent.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Entry = str | dict[str, Any]


class ScriptedLLM:
    def __init__(
        self,
        script: list[Entry] | None = None,
        responder: Callable[[dict], Entry] | None = None,
        models: tuple[str, ...] = ("test-model",),
    ):
        self.script: deque[Entry] = deque(script or [])
        self.models = models
        self.responder = responder
        self.requests: list[dict] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
        server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        server.daemon_threads = True
        self.server = server
        self.thread = threading.Thread(target=server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> ScriptedLLM:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def add(self, *entries: Entry) -> None:
        with self._lock:
            self.script.extend(entries)

    def _next(self, body: dict) -> Entry:
        with self._lock:
            self.requests.append(body)
            if self.script:
                return self.script.popleft()
        if self.responder is None:
            return {"status": 500, "content": "script exhausted"}
        return self.responder(body)

    def _handler(self):
        llm = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_GET(self) -> None:
                if self.path.rstrip("/") != "/v1/models":
                    return self._send(404, {"error": {"message": f"no route {self.path}"}})
                self._send(200, {"object": "list", "data": [{"id": m, "object": "model"} for m in llm.models]})

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                if self.path.rstrip("/") != "/v1/chat/completions":
                    return self._send(404, {"error": {"message": f"no route {self.path}"}})
                with llm._lock:
                    llm.in_flight += 1
                    llm.max_in_flight = max(llm.max_in_flight, llm.in_flight)
                try:
                    self._answer(body)
                finally:
                    with llm._lock:
                        llm.in_flight -= 1

            def _answer(self, body: dict) -> None:
                entry = llm._next(body)
                if isinstance(entry, str):
                    entry = {"content": entry}
                if entry.get("delay"):
                    time.sleep(entry["delay"])
                status = entry.get("status", 200)
                if status != 200:
                    error = {"error": {"message": entry.get("content", "error"), "type": "test", "code": status}}
                    return self._send(status, error, entry.get("headers", {}))
                content = entry["content"]
                prompt = sum(len(m.get("content") or "") for m in body.get("messages", []))
                reply = {
                    "id": f"chatcmpl-{len(llm.requests)}",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": body.get("model", "test"),
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": content},
                            "finish_reason": entry.get("finish_reason", "stop"),
                        }
                    ],
                    "usage": {
                        "prompt_tokens": prompt // 4,
                        "completion_tokens": len(content) // 4 + 1,
                        "total_tokens": prompt // 4 + len(content) // 4 + 1,
                    },
                }
                self._send(200, reply)

            def _send(self, status: int, payload: dict, headers: dict | None = None) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    for key, value in (headers or {}).items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        return Handler


def system_prompt(body: dict) -> str:
    return next((m["content"] for m in body["messages"] if m["role"] == "system"), "")


def user_text(body: dict) -> str:
    return "\n".join(m["content"] for m in body["messages"] if m["role"] == "user")


_FENCE = re.compile(r"<<<DATA (\w+)>>>\n(.*?)\n<<<END DATA \1>>>", re.DOTALL)


def fenced_data(text: str) -> str:
    """The data a prompt fenced (relguard.llm.fence): the content between the last pair of matching markers."""
    found = _FENCE.findall(text)
    assert found, f"no fenced data in {text[:200]!r}"
    return found[-1][1]
