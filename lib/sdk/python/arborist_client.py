"""Arborist's Python client: stream your own tree search into Arborist while it runs, and take steering back.

One file, standard library only (urllib, json, threading), Python 3.9+: copy it next to your code or into a notebook,
or install it (`pip install ./lib/sdk/python`, which needs no package index: README.md says how).
It speaks the ingest API (lib/contract/ingest.ts in the Arborist repository) with the same rules as the
TypeScript SDK (lib/sdk):

    from arborist_client import Arborist, BUILTIN_COMMANDS

    arborist = Arborist("http://127.0.0.1:3000")            # api_key="..." for a server with accounts
    run = arborist.start_run("4 9 10 13", task="game24", commands=BUILTIN_COMMANDS)
    run.node("root", None, thought="4 9 10 13")
    run.node("a", "root", thought="13 - 9 = 4", score=0.8, scores={"value": 20}, metadata={"left": "4 4 10"})
    if run.checkpoint() and not run.is_pruned("a"):
        ...
    run.finish(output="(10 - 4) * (13 - 9) = 24", best="a", success=True, verified=True)

What it promises: no call blocks the search (every method queues and returns; only checkpoint(), flush() and
finish() wait, and finish() ends by its deadline whatever the server does) and nothing raises into your program.
Items are sent in numbered batches from a background thread; a retried batch carries the same numbers, so the
server stores it once. Network errors, time limits, 5xx and 429 retry with exponential backoff and jitter. While the
server is down, up to max_buffered items wait; beyond that the NEWEST are dropped, counted, with one warning: the
buffered beginning of the search is what later items refer to, so the page keeps a consistent tree up to the
outage (later items about a dropped node are dropped with it). A 400 drops the items it names and resends the rest;
a 409 gap resends from the server's expectedSeq. A heartbeat shows the program is alive; when it stops (the program
was killed) the server marks the run interrupted. At exit, what is buffered is sent (atexit, once).

Steering: commands= declares what the program takes (none: steering shows as unavailable on the page). With
on_command(command, run) every command goes to your function: return None to apply it, a string to refuse it with
that reason, or raise. Without it, the built-in handling applies prune, pause, resume, step and abort for a loop
that calls run.checkpoint() before each step (blocks while paused; False once aborted) and skips nodes for which
run.is_pruned(id) is true. Each command is acknowledged (applied, or refused with the reason).

Breakpoints: start_run(breakpoints=[...]) (or a person, on the page) sets conditions the server judges against each
item the program sends; on a hit it sends a pause command with the hit (command["hit"]: breakpointId, condition,
seq, eventType, nodeId, detail; None for a person's command) as soon as the program polls. The built-in handling
pauses as for a person's pause and keeps the hit (run.breakpoint_hit) until the search goes on.

Values: items go as JSON, checked when queued, so a bad value is named at the call that gave it and never stops the
run. Values JSON lacks are converted where a number or text says the same: Fraction and Decimal -> float (the nearest
one; a whole one -> int), an int beyond 2**53 -> its digits as a string (JavaScript would round it), datetime, date and
time -> ISO 8601 text, tuple and set -> list (a set sorted), non-text dict keys -> text as json.dumps writes them. An
item holding NaN, Infinity or any other object (and later items about its node) is not sent, with a warning naming the
item and the field. The server checks the rest (a score within 0..1, a parent that exists); each item it refuses gets
a warning with its reason, at most warning_limit lines per warning_interval seconds, then a count of the others.

finish(reason=...) says why the search ended (FINISH_REASONS, as lib/contract/vocabulary.ts): "terminated" (it reached
its answer; the default with success=True), "frontier-empty" (nothing left to explore; the default otherwise),
"node-limit" (it hit its node budget), "iteration-limit" (an MCTS search ran all its iterations), "timeout" (out of
time), "budget" (out of money or tokens), "aborted" (stopped on request; the default once a person aborted), "error"
(the program failed).

Not responsible for the search itself, nor for the server's checks.
"""

from __future__ import annotations

import atexit
import datetime
import json
import math
import numbers
import random
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from decimal import Decimal
from typing import Any, Callable, Dict, List, Optional

__all__ = ["Arborist", "Run", "CommandRefused", "BUILTIN_COMMANDS", "ALL_COMMANDS", "FINISH_REASONS", "retry_delay"]

BUILTIN_COMMANDS = ("prune", "pause", "resume", "step", "abort")
ALL_COMMANDS = ("prune", "expand", "pause", "resume", "step", "abort")
_CRITICAL = ("ack", "finish")
# why a search ended, as the server takes them (finishReasonSchema in lib/contract/vocabulary.ts); the module's
# docstring and the README say what each means
FINISH_REASONS = ("terminated", "frontier-empty", "node-limit", "iteration-limit", "timeout", "budget", "aborted", "error")


class CommandRefused(Exception):
    """Raise from on_command (or the built-in handling raises it) to refuse a command; its text is the reason."""


def retry_delay(attempt: int, base: float, maximum: float, retry_after: Optional[float] = None) -> float:
    """Seconds before retry number `attempt` (1, 2, ...): base * 2^(attempt-1) capped at maximum, a random half kept."""
    ceiling = min(maximum, base * (2 ** max(0, attempt - 1)))
    return max(ceiling / 2 + random.random() * ceiling / 2, retry_after or 0.0)


def _created(item: Dict[str, Any]):
    """(id, parent) of the node an item creates, or None."""
    if item.get("op") == "node":
        return item["id"], item.get("parent")
    if item.get("type") == "node.created":
        payload = item.get("payload") or {}
        if isinstance(payload.get("nodeId"), str):
            return payload["nodeId"], payload.get("parentId")
    return None


def _referenced(item: Dict[str, Any]) -> List[str]:
    """The node ids an item names, so it can be dropped along with a node it depends on."""
    op = item.get("op")
    if op == "node":
        ids = [item.get("id"), item.get("parent")]
    elif op == "backtrack":
        ids = [item.get("from"), item.get("to")]
    elif op in ("finish", "ack"):
        ids = []
    elif op is not None:
        ids = [item.get("node")]
    else:
        payload = item.get("payload") or {}
        ids = [payload.get(k) for k in ("nodeId", "parentId", "fromId", "toId")] + list(payload.get("childIds") or [])
    return [i for i in ids if isinstance(i, str)]


class _Outcome:
    __slots__ = ("kind", "status", "body", "message", "retry_after")

    def __init__(self, kind, status=None, body=None, message="", retry_after=None):
        self.kind, self.status, self.body, self.message, self.retry_after = kind, status, body, message, retry_after


class Arborist:
    """The client's settings; start_run() attaches one search."""

    def __init__(
        self,
        server: str,
        api_key: Optional[str] = None,
        batch_size: int = 200,
        flush_interval: float = 0.25,
        max_buffered: int = 10_000,
        retry_base: float = 0.25,
        retry_max: float = 10.0,
        request_timeout: float = 15.0,
        poll_wait: float = 20.0,
        finish_timeout: float = 30.0,
        on_warning: Optional[Callable[[str, str], None]] = None,
        warning_limit: int = 10,
        warning_interval: float = 10.0,
    ):
        self.server = str(server).rstrip("/")
        self.api_key = api_key
        self.batch_size = max(1, min(5000, int(batch_size)))
        self.flush_interval = flush_interval
        self.max_buffered = max_buffered
        self.retry_base = retry_base
        self.retry_max = retry_max
        self.request_timeout = request_timeout
        self.poll_wait = poll_wait
        self.finish_timeout = finish_timeout
        self.on_warning = on_warning or (lambda kind, message: print(f"arborist: {message}", file=sys.stderr))
        # refused items are explained one line each, but a burst (a thousand orphans) must not bury the program's output
        self.warning_limit = max(1, int(warning_limit))
        self.warning_interval = warning_interval

    def start_run(
        self,
        goal: str,
        task: Optional[str] = None,
        config: Optional[Dict[str, Any]] = None,
        model: Optional[str] = None,
        agent: Optional[str] = None,
        commands: Optional[Any] = None,
        on_command: Optional[Callable[[Dict[str, Any], "Run"], Optional[str]]] = None,
        breakpoints: Optional[List[Dict[str, Any]]] = None,
    ) -> "Run":
        """Returns at once; the run is created in the background (run.wait_ready() waits for its id and page).

        breakpoints: the run's first breakpoints ({"id", "enabled", "condition": {"kind", ...}}, as
        lib/contract/breakpoints.ts defines them); a hit pauses the program, so commands must include "pause".
        """
        return Run(self, goal, task, config, model, agent, commands, on_command, breakpoints)

    # one JSON request; never raises
    def _request(self, method: str, path: str, body: Any = None, timeout: Optional[float] = None) -> _Outcome:
        try:
            # allow_nan=False: json.dumps would write NaN, which is not JSON, and the server would refuse the batch
            data = None if body is None else json.dumps(body, allow_nan=False).encode("utf-8")
        except (TypeError, ValueError) as error:  # items are converted when queued; this is the last guard
            return _Outcome("unencodable", None, None, str(error))
        headers = {"accept": "application/json"}
        if data is not None:
            headers["content-type"] = "application/json"
        if self.api_key:
            headers["authorization"] = f"Bearer {self.api_key}"
        req = urllib.request.Request(self.server + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(req, timeout=timeout or self.request_timeout) as response:
                text = response.read().decode("utf-8")
                return _Outcome("ok", response.status, json.loads(text) if text else None)
        except urllib.error.HTTPError as error:
            try:
                text = error.read().decode("utf-8")
                parsed = json.loads(text) if text else None
            except Exception:
                parsed = None
            message = _refusal_message(error.code, parsed)
            if error.code >= 500 or error.code in (408, 429):
                retry_after = error.headers.get("retry-after") if error.headers else None
                try:
                    seconds = float(retry_after) if retry_after else None
                except ValueError:
                    seconds = None
                return _Outcome("retry", error.code, parsed, message, seconds)
            return _Outcome("refused", error.code, parsed, message)
        except Exception as error:  # URLError, timeouts, connection resets: the server is unreachable
            reason = getattr(error, "reason", None) or error
            return _Outcome("retry", None, None, str(reason) or type(error).__name__)


def _refusal_message(status: int, body: Any) -> str:
    if isinstance(body, dict):
        text = body.get("message") or body.get("error") or ""
        issues = "; ".join(f"{i.get('path', '')}: {i.get('message', '')}" for i in (body.get("issues") or [])[:3])
        joined = ": ".join(p for p in (str(text), issues) if p)
        if joined:
            return joined
    return f"HTTP {status}"


_open_runs: "set[Run]" = set()


@atexit.register
def _flush_at_exit() -> None:
    for run in list(_open_runs):
        run._flush_before_exit()


class Run:
    """One search attached to Arborist. Every method returns at once and never raises."""

    def __init__(self, client: Arborist, goal, task, config, model, agent, commands, on_command, breakpoints=None):
        self._client = client
        self._on_command = on_command
        if commands is None:
            commands = ALL_COMMANDS if on_command else ()
        self._declared = tuple(commands)
        self._lock = threading.Condition()
        self._phase = "creating"  # creating | open | closed
        self.id: Optional[str] = None
        self.url: Optional[str] = None
        self._ready = threading.Event()
        self._closed = threading.Event()
        self._queue: List[Dict[str, Any]] = []
        self._first_queued_at: Optional[float] = None
        self._in_flight: Optional[List[Dict[str, Any]]] = None
        self._next_seq = 1
        self._history: List[Dict[str, Any]] = []
        self._dropped_nodes: set = set()
        self._dropped = {"overflow": 0, "invalid": 0, "dependent": 0, "closed": 0, "unsent": 0, "lost": 0}
        self._sent = self._duplicates = self._retried = self._commands = 0
        self._warned: set = set()
        # per-item warnings: this window's lines and the ones not shown (a lock of their own: both threads warn)
        self._warn_lock = threading.Lock()
        self._window_start = -math.inf
        self._window_lines = 0
        self._unshown = 0
        self._unshown_kind = ""
        self._unshown_timer: Optional[threading.Timer] = None
        self._queued_count = 0  # items the program queued, from 1: how a warning names one that never got a seq
        self._flush_now = False
        self._heartbeat = 0.0
        self._last_request = 0.0
        self._finish_stored = False
        self._finishing = False
        self._summary: Optional[Dict[str, Any]] = None
        self._exit_flush_tried = False
        self._last_command = 0
        # built-in steering
        self._paused = False
        self._stepping = False
        self._step_taken = False
        self._aborted_by: Optional[str] = None
        self._hit: Optional[Dict[str, Any]] = None
        self._pruned: set = set()
        self._parents: Dict[str, Optional[str]] = {}
        create = {"goal": goal, "commands": list(self._declared)}
        if breakpoints:
            create["breakpoints"] = list(breakpoints)
        for key, value in (("task", task), ("config", config), ("model", model), ("agent", agent)):
            if value is not None:
                create[key] = value
        create = self._json_create(create)
        _open_runs.add(self)
        threading.Thread(target=self._sender, args=(create,), name="arborist-sender", daemon=True).start()

    # --- what the search says ----------------------------------------------------------------------------------

    def node(self, id: str, parent: Optional[str], thought: str = "", score: Optional[float] = None,
             scores: Optional[Dict[str, Optional[float]]] = None, metadata: Optional[Dict[str, Any]] = None,
             mcts: Optional[Dict[str, Any]] = None, action: Optional[Dict[str, Any]] = None) -> None:
        """A node under `parent` (None: the root, the goal itself; one per run). score: 0..1, orders and colours."""
        self._enqueue(_clean({"op": "node", "id": id, "parent": parent, "thought": thought, "score": score,
                              "scores": scores, "metadata": metadata, "mcts": mcts, "action": action}, keep=("parent",)))

    def annotate(self, node: str, scores=None, metadata=None, mcts=None) -> None:
        """Named scores, metadata (None as a value removes a key) and MCTS stats (q, n, uct), merged into earlier ones."""
        self._enqueue(_clean({"op": "annotate", "node": node, "scores": scores, "metadata": metadata, "mcts": mcts}))

    def start(self, node: str, mode: str = "execute") -> None:
        """The node runs ('execute') or grows its children ('expand')."""
        self._enqueue({"op": "start", "node": node, "mode": mode})

    def call(self, node: Optional[str], purpose: str = "execute", model: Optional[str] = None,
             messages: Optional[List[Dict[str, str]]] = None, response: Optional[str] = None,
             error: Optional[str] = None, input_tokens: int = 0, output_tokens: int = 0,
             cost: Optional[float] = None, latency_ms: float = 0) -> None:
        """A model call made for `node` (None: for the search as a whole); cost in dollars, None when unpriced."""
        self._enqueue(_clean({"op": "call", "node": node, "purpose": purpose, "model": model,
                              "messages": messages or [], "response": response, "error": error,
                              "inputTokens": int(input_tokens), "outputTokens": int(output_tokens), "cost": cost,
                              "latencyMs": latency_ms}, keep=("node", "response", "error", "cost")))

    def complete(self, node: str, response: str, answer: bool = False) -> None:
        self._enqueue({"op": "complete", "node": node, "response": response, "answer": bool(answer)})

    def answer(self, node: str, response: str) -> None:
        """The node's result is a final answer to the goal."""
        self.complete(node, response, answer=True)

    def verify(self, node: str, passed: bool, trace: str = "") -> None:
        self._enqueue({"op": "verify", "node": node, "passed": bool(passed), "trace": trace})

    def fail(self, node: str, reason: str) -> None:
        self._enqueue({"op": "fail", "node": node, "reason": reason})

    def prune(self, node: str, reason: Optional[str] = None) -> None:
        """The search pruned the node (and its subtree) by its own rule."""
        with self._lock:
            self._pruned.add(node)
        self._enqueue(_clean({"op": "prune", "node": node, "reason": reason}))

    def backtrack(self, from_: str, to: Optional[str], reason: str = "") -> None:
        self._enqueue({"op": "backtrack", "from": from_, "to": to, "reason": reason})

    def event(self, type: str, payload: Dict[str, Any]) -> None:
        """A canonical Arborist event (type + payload), for programs that write those themselves."""
        self._enqueue({"type": type, "payload": payload})

    # --- steering ----------------------------------------------------------------------------------------------

    def checkpoint(self) -> bool:
        """Call before each step: blocks while paused, lets one step through after `step`; False once aborted."""
        try:
            with self._lock:
                if self._stepping and self._step_taken:
                    self._stepping = self._step_taken = False
                    self._paused = True
                    self._enqueue_locked({"type": "run.paused", "payload": {"reason": "step"}})
                while self._paused and self._aborted_by is None and not self._finishing:
                    self._lock.wait()
                if self._aborted_by is not None:
                    return False
                if self._stepping:
                    self._step_taken = True
                return True
        except Exception:
            return True

    def is_pruned(self, id: str) -> bool:
        """True when a person (or the search) pruned this node or an ancestor: skip it."""
        with self._lock:
            return self._is_pruned_locked(id)

    @property
    def paused(self) -> bool:
        return self._paused

    @property
    def aborted_by(self) -> Optional[str]:
        return self._aborted_by

    @property
    def breakpoint_hit(self) -> Optional[Dict[str, Any]]:
        """The breakpoint hit the built-in steering is paused at (its "detail" says why), until the search goes on."""
        return self._hit

    def apply_builtin(self, command: Dict[str, Any]) -> None:
        """The built-in handling of a command (for an on_command that takes some kinds itself); raises to refuse."""
        kind, actor, node = command.get("kind"), command.get("actor", "person"), command.get("nodeId")
        with self._lock:
            if self._aborted_by is not None:
                raise CommandRefused(f"the run was aborted by {self._aborted_by}")
            if kind == "prune":
                if node is None or node not in self._parents:
                    raise CommandRefused(f"no node {node} in this run")
                if self._parents[node] is None:
                    raise CommandRefused("the root cannot be pruned; abort the run instead")
                if self._is_pruned_locked(node):
                    raise CommandRefused(f"node {node} is already pruned")
                self._pruned.add(node)
                self._enqueue_locked({"type": "steer.prune", "payload": {"nodeId": node, "actor": actor}})
            elif kind == "pause":
                if self._paused:
                    raise CommandRefused("the run is already paused")
                # a breakpoint's pause is a person's pause (actor "breakpoint"), with the hit kept to say why
                self._paused, self._stepping, self._hit = True, False, command.get("hit")
                self._enqueue_locked({"type": "steer.pause", "payload": {"actor": actor}})
            elif kind == "resume":
                if not self._paused:
                    raise CommandRefused("the run is not paused")
                self._paused, self._stepping, self._hit = False, False, None
                self._enqueue_locked({"type": "steer.resume", "payload": {"actor": actor}})
            elif kind == "step":
                self._paused, self._stepping, self._step_taken, self._hit = False, True, False, None
                self._enqueue_locked({"type": "steer.step", "payload": {"actor": actor}})
            elif kind == "abort":
                self._aborted_by, self._hit = actor, None
                self._enqueue_locked({"type": "steer.abort", "payload": {"actor": actor}})
            else:
                raise CommandRefused(f"this program does not {kind} nodes on request (it gave no on_command)")
            self._lock.notify_all()

    def _is_pruned_locked(self, id: str) -> bool:
        """is_pruned with the lock already held: the node or an ancestor is in the pruned set."""
        at: Optional[str] = id
        seen = set()
        while at is not None and at not in seen:
            if at in self._pruned:
                return True
            seen.add(at)
            at = self._parents.get(at)
        return False

    # --- the end -----------------------------------------------------------------------------------------------

    def wait_ready(self, timeout: Optional[float] = None) -> Optional[Dict[str, str]]:
        """Waits until the server created the run: {'runId', 'url'}, or None (not yet, or never)."""
        self._ready.wait(timeout)
        return {"runId": self.id, "url": self.url} if self.id else None

    def flush(self, timeout: Optional[float] = None) -> bool:
        """Sends what is buffered; True when nothing is left (False at the deadline)."""
        deadline = time.monotonic() + (self._client.finish_timeout if timeout is None else timeout)
        with self._lock:
            self._flush_now = True
            self._lock.notify_all()
            while (self._queue or self._in_flight) and self._phase != "closed":
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._lock.wait(left)
            return not self._queue and not self._in_flight

    def finish(self, output: str = "", best: Optional[str] = None, success: bool = False,
               reason: Optional[str] = None, detail: Optional[str] = None, verified: Optional[bool] = None,
               timeout: Optional[float] = None) -> Dict[str, Any]:
        """Ends the run (run.finished), sends everything left; returns {runId, url, finished, stats} by the deadline.

        reason, why the search ended (FINISH_REASONS): "terminated" (it reached its answer), "frontier-empty" (nothing
        left to explore), "node-limit" (its node budget), "iteration-limit" (an MCTS search's iterations), "timeout"
        (out of time), "budget" (out of money or tokens),
        "aborted" (stopped on request), "error" (the program failed). Without one: "aborted" once a person aborted,
        else "terminated" with success=True, else "frontier-empty". Another word is replaced by that default, with a
        warning (the server would refuse the finish, and the run would never read as finished); put it in detail.
        """
        try:
            with self._lock:
                if self._summary is not None or self._finishing:
                    return self._summary or {"runId": self.id, "url": self.url, "finished": False, "stats": self.stats()}
                self._finishing = True
                aborted_by = self._aborted_by
                self._lock.notify_all()  # releases a checkpoint() waiting
                if best is not None and best in self._dropped_nodes:
                    best = None
                default = "aborted" if aborted_by else ("terminated" if success else "frontier-empty")
                if detail is None and aborted_by:
                    detail = f"aborted by {aborted_by}"
                if reason is not None and reason not in FINISH_REASONS:
                    self._emit("finish-reason", f'the finish reason "{reason}" is not one of '
                               f'{", ".join(FINISH_REASONS)}; sent as {default}')
                    reason = None
                # the finish is what makes the run read as finished: its fields are made what the server takes
                self._enqueue_locked({
                    "op": "finish", "output": "" if output is None else str(output),
                    "best": None if best is None else str(best), "success": bool(success),
                    "reason": reason or default,
                    "detail": None if detail is None else str(detail),
                    "verified": None if verified is None else bool(verified),
                })
            wait = self._client.finish_timeout if timeout is None else timeout
            drained = self.flush(wait)
            if not drained:
                left = len(self._queue) + len(self._in_flight or [])
                self._warn("unsent", f"gave up after {wait} s with {left} items unsent" if self.id else
                           f"the server at {self._client.server} never created the run; {left} items dropped")
            self._close("closed" if drained else "unsent")
            self._summary = {"runId": self.id, "url": self.url, "finished": self._finish_stored, "stats": self.stats()}
            return self._summary
        except Exception as error:  # never into the host
            self._warn("bug", f"finish failed: {error}")
            return {"runId": self.id, "url": self.url, "finished": False, "stats": self.stats()}

    def stats(self) -> Dict[str, Any]:
        """sent, duplicates, retried, dropped (and dropped_by reason), buffered, commands."""
        return {
            "sent": self._sent, "duplicates": self._duplicates, "retried": self._retried,
            "dropped": sum(self._dropped.values()), "dropped_by": dict(self._dropped),
            "buffered": len(self._queue) + len(self._in_flight or []), "commands": self._commands,
        }

    def _flush_before_exit(self) -> None:
        """At exit: one try per batch, no backoff, so a program whose server is down exits at once, with a warning."""
        if self._exit_flush_tried or self._phase == "closed":
            return
        self._exit_flush_tried = True
        left = len(self._queue) + len(self._in_flight or [])
        if not left:
            return
        if self._phase != "open":
            self._warn("unsent", f"the program exited before the server created the run: {left} items unsent")
            return self._close("unsent")
        if not self.flush(self._client.request_timeout):
            self._warn("unsent", f"the program exited with {self.stats()['buffered']} items unsent")
        self._flush_warnings()

    # --- queueing ----------------------------------------------------------------------------------------------

    def _json_create(self, create: Dict[str, Any]) -> Dict[str, Any]:
        """The create body as JSON; a value that cannot go is left out (one config key, or the field), with a warning,
        rather than losing the whole run over it."""
        out: Dict[str, Any] = {}
        for key, value in create.items():
            entries = list(value.items()) if key == "config" and isinstance(value, Mapping) else [(None, value)]
            for name, inner in entries:
                try:
                    if name is None:
                        out[key] = _json_value(inner, key, set())
                    else:
                        label = _json_key(name, key)
                        out.setdefault(key, {})[label] = _json_value(inner, f"{key}.{label}", set())
                except (_NotJson, RecursionError) as error:
                    path, problem = (error.path, error.problem) if isinstance(error, _NotJson) \
                        else (key, "is nested too deeply for JSON")
                    self._warn_item("unsendable", f"start_run: {path} {problem}; left out of the run's {key}")
        return out

    def _enqueue(self, item: Dict[str, Any]) -> None:
        try:
            self._queued_count += 1
            number = self._queued_count
            try:
                # checked here, on the caller's thread, so the warning names the caller's item and a bad value can
                # never reach (and fail) a batch of good ones
                converted = _json_item(item)
            except _NotJson as error:
                return self._refuse_locally(item, error, number)
            with self._lock:
                self._enqueue_locked(converted)
        except Exception:
            pass  # never into the host

    def _refuse_locally(self, item: Dict[str, Any], error: _NotJson, number: int) -> None:
        with self._lock:
            if self._phase == "closed":
                return self._drop("closed", [item])
            if any(i in self._dropped_nodes for i in _referenced(item)):
                return self._drop("dependent", [item])  # its node's own refusal already said why
            self._drop("invalid", [item])
        self._warn_item("unsendable", f"{_describe(item)} (item {number}) was not sent: {error.path} {error.problem}"
                        f"{_dependents_note(item)}")

    def _enqueue_locked(self, item: Dict[str, Any]) -> None:
        item.setdefault("ts", int(time.time() * 1000))
        created = _created(item)
        if created and created[0] not in self._parents:
            self._parents[created[0]] = created[1]
        if self._phase == "closed":
            return self._drop("closed", [item])
        if any(i in self._dropped_nodes for i in _referenced(item)):
            return self._drop("dependent", [item])
        critical = item.get("op") in _CRITICAL
        if not critical and len(self._queue) >= self._client.max_buffered:
            self._drop("overflow", [item])
            self._warn("overflow", f"the server is not taking items and the buffer is full "
                       f"({self._client.max_buffered}): dropping the newest items (and later ones about their nodes) "
                       "until it drains, so the page keeps a consistent tree up to here")
            return
        if not self._queue:
            self._first_queued_at = time.monotonic()
        self._queue.append(item)
        self._lock.notify_all()

    def _drop(self, reason: str, items: List[Dict[str, Any]]) -> None:
        self._dropped[reason] += len(items)
        for item in items:
            created = _created(item)
            if created:
                self._dropped_nodes.add(created[0])

    def _warn(self, kind: str, message: str) -> None:
        """A warning about the run's state (unreachable, overflow, ...): once until it clears."""
        if kind in self._warned:
            return
        self._warned.add(kind)
        self._emit(kind, message)

    def _warn_item(self, kind: str, message: str) -> None:
        """A warning about one item: each gets its line (which call to fix is what the author needs), up to
        warning_limit per warning_interval, since a search gone wrong makes thousands; the others are counted and
        summed up in one line when the window ends (or the run does)."""
        client = self._client
        lines = []
        with self._warn_lock:
            now = time.monotonic()
            if now - self._window_start >= client.warning_interval:
                lines.extend(self._unshown_line_locked())
                self._window_start, self._window_lines = now, 0
            if self._window_lines < client.warning_limit:
                self._window_lines += 1
                lines.append((kind, message))
            else:
                self._unshown += 1
                self._unshown_kind = self._unshown_kind or kind
                if self._unshown_timer is None:
                    left = max(0.0, self._window_start + client.warning_interval - now)
                    self._unshown_timer = threading.Timer(left, self._flush_warnings)
                    self._unshown_timer.daemon = True
                    self._unshown_timer.start()
        for line in lines:
            self._emit(*line)

    def _unshown_line_locked(self) -> List[Any]:
        if self._unshown_timer is not None:
            self._unshown_timer.cancel()
            self._unshown_timer = None
        if not self._unshown:
            return []
        line = (self._unshown_kind, f"... and {self._unshown} more refused items (not each said; see "
                "stats()['dropped_by'])")
        self._unshown, self._unshown_kind = 0, ""
        return [line]

    def _flush_warnings(self) -> None:
        with self._warn_lock:
            lines = self._unshown_line_locked()
        for line in lines:
            self._emit(*line)

    def _emit(self, kind: str, message: str) -> None:
        try:
            self._client.on_warning(kind, message)
        except Exception:
            pass  # a warning handler that raises must not reach the host either

    def _close(self, reason: str) -> None:
        with self._lock:
            if self._phase == "closed":
                return
            self._phase = "closed"
            left = self._queue + [_strip(i) for i in (self._in_flight or [])]
            self._queue, self._in_flight = [], None
            self._drop(reason, left)
            self._finishing = True
            self._lock.notify_all()
        _open_runs.discard(self)
        self._closed.set()
        self._ready.set()
        self._flush_warnings()

    # --- the server (the sender thread) --------------------------------------------------------------------------

    def _request(self, method: str, path: str, body: Any = None, timeout: Optional[float] = None) -> _Outcome:
        self._last_request = time.monotonic()
        return self._client._request(method, path, body, timeout)

    def _sleep(self, seconds: float) -> None:
        # its own event, not the queue's condition: new items must not cut a backoff short; closing does
        self._closed.wait(seconds)

    def _sender(self, create: Dict[str, Any]) -> None:
        try:
            if self._create(create):
                self._send_loop()
        except Exception as error:  # a bug must not kill the host; the run stops sending
            self._warn("bug", f"the sender stopped: {error!r}")
            self._close("closed")

    def _create(self, body: Dict[str, Any]) -> bool:
        attempt = 0
        while self._phase == "creating":
            outcome = self._request("POST", "/api/ingest/runs", body)
            if self._phase != "creating":
                return False
            if outcome.kind == "ok":
                created = outcome.body or {}
                with self._lock:
                    self.id = created.get("runId")
                    self.url = self._client.server + str(created.get("url", ""))
                    self._next_seq = int(created.get("nextSeq") or 1)
                    self._heartbeat = float(created.get("heartbeatMs") or 0) / 1000
                    self._phase = "open"
                    self._warned.discard("unreachable")
                    self._lock.notify_all()
                self._ready.set()
                if self._declared:
                    threading.Thread(target=self._poller, name="arborist-commands", daemon=True).start()
                return True
            if outcome.kind in ("refused", "unencodable"):
                self._warn("refused", f"the server refused to create the run: {outcome.message}; nothing will be sent")
                self._close("closed")
                return False
            attempt += 1
            self._retried += 1
            self._warn("unreachable", f"cannot reach {self._client.server} ({outcome.message}); retrying")
            self._sleep(retry_delay(attempt, self._client.retry_base, self._client.retry_max, outcome.retry_after))
        return False

    def _send_loop(self) -> None:
        client = self._client
        while True:
            with self._lock:
                while self._phase == "open" and self._in_flight is None:
                    now = time.monotonic()
                    due = self._first_queued_at is not None and now - self._first_queued_at >= client.flush_interval
                    if self._queue and (len(self._queue) >= client.batch_size or due or self._flush_now
                                        or self._finishing):
                        batch = self._queue[: client.batch_size]
                        del self._queue[: client.batch_size]
                        self._first_queued_at = now if self._queue else None
                        self._in_flight = [dict(item, seq=self._next_seq + i) for i, item in enumerate(batch)]
                        break
                    if not self._queue:
                        self._flush_now = False
                        self._lock.notify_all()  # flush() waits for an empty queue
                    if self._heartbeat and now - self._last_request >= self._heartbeat * 0.8:
                        break  # beat, outside the lock
                    waits = [client.flush_interval if self._queue else 1.0]
                    if self._heartbeat:
                        waits.append(max(0.01, self._heartbeat * 0.8 - (now - self._last_request)))
                    self._lock.wait(min(waits))
                if self._phase != "open":
                    return
                batch = self._in_flight
            if batch is None:
                self._request("POST", f"/api/ingest/runs/{self.id}/heartbeat", {})
                continue
            self._send_batch()
            with self._lock:
                self._lock.notify_all()

    def _send_batch(self) -> None:
        attempt = conflicts = 0
        while self._phase == "open" and self._in_flight:
            batch = self._in_flight
            outcome = self._request("POST", f"/api/ingest/runs/{self.id}/events", batch)
            if self._phase != "open":
                return
            error = outcome.body if isinstance(outcome.body, dict) else {}
            if outcome.kind == "refused" and outcome.status == 409 and error.get("error") == "closed" \
                    and isinstance(error.get("expectedSeq"), int) and error["expectedSeq"] > batch[-1]["seq"]:
                # the server has all of this batch (it ended the run with it, or after it): delivered
                outcome = _Outcome("ok", 200, {"accepted": 0, "duplicates": len(batch), "nextSeq": error["expectedSeq"]})
            if outcome.kind == "ok":
                body = outcome.body or {}
                with self._lock:
                    self._sent += int(body.get("accepted", 0)) + int(body.get("duplicates", 0))
                    self._duplicates += int(body.get("duplicates", 0))
                    self._next_seq = max(batch[-1]["seq"] + 1, int(body.get("nextSeq") or 0))
                    self._history = (self._history + batch)[-2 * self._client.batch_size:]
                    self._in_flight = None
                    self._warned.discard("unreachable")
                    if any(i.get("op") == "finish" for i in batch):
                        self._finish_stored = True
                return
            if outcome.kind == "unencodable":  # cannot happen (items are converted when queued); never stops the sender
                with self._lock:
                    self._drop_unencodable(batch)
                continue
            if outcome.kind == "retry" and self._exit_flush_tried:
                self._warn("unsent", f"the program exited while the server did not answer ({outcome.message})")
                self._close("unsent")
                return
            if outcome.kind == "retry":
                attempt += 1
                self._retried += 1
                self._warn("unreachable", f"cannot send to {self._client.server} ({outcome.message}); "
                           "retrying with backoff, buffering meanwhile")
                self._sleep(retry_delay(attempt, self._client.retry_base, self._client.retry_max, outcome.retry_after))
                continue
            expected = error.get("expectedSeq")
            with self._lock:
                if outcome.status == 400:
                    self._drop_invalid(batch, error, outcome.message)
                elif outcome.status == 409 and error.get("error") == "gap" and isinstance(expected, int):
                    self._resend_from(batch, expected)
                elif outcome.status == 409 and error.get("error") == "conflict" and isinstance(expected, int) \
                        and conflicts < 3:
                    conflicts += 1
                    self._warn("resequenced", f"the server holds other items at these numbers ({outcome.message})")
                    self._renumber([_strip(i) for i in batch], expected)
                elif outcome.status in (401, 403, 404, 409):
                    self._warn("closed", f"the server no longer takes items for run {self.id}: {outcome.message}")
                    self._close("closed")  # the condition's lock is reentrant
                    return
                else:
                    self._warn_item("invalid", f"the server refused a batch of {len(batch)} items: {outcome.message}; "
                                    "dropped them")
                    self._drop("invalid", [_strip(i) for i in batch])
                    self._in_flight = None

    def _drop_invalid(self, batch, error, message) -> None:
        # each refused item gets its line with the server's reasons: "items[3].score: ..." names item 3's score
        reasons: Dict[int, List[str]] = {}
        for issue in error.get("issues") or []:
            if not isinstance(issue, dict):
                continue
            path = str(issue.get("path", ""))
            digits = path.split("[", 1)[1].split("]", 1)[0] if "[" in path else ""
            if (path.startswith("items[") or path.startswith("[")) and digits.isdigit() and int(digits) < len(batch):
                field = path.split("]", 1)[1].lstrip(".")
                text = str(issue.get("message", "")) or "invalid"
                reasons.setdefault(int(digits), []).append(f"{field}: {text}" if field else text)
        if reasons:
            bad = [i for n, i in enumerate(batch) if n in reasons]
            for n in sorted(reasons):
                item = batch[n]
                self._warn_item("invalid", f"the server refused {_describe(item)} (seq {item['seq']}): "
                                f"{'; '.join(reasons[n])}{_dependents_note(item)}")
        else:
            bad = list(batch)
            self._warn_item("invalid", f"the server refused a batch of {len(bad)} items ({message}); dropped them")
        self._drop("invalid", [_strip(i) for i in bad])
        rest = []
        for item in batch:
            if any(item is b for b in bad):
                continue
            plain = _strip(item)
            if any(i in self._dropped_nodes for i in _referenced(plain)):
                self._drop("dependent", [plain])
            else:
                rest.append(plain)
        self._renumber(rest, batch[0]["seq"])

    def _drop_unencodable(self, batch) -> None:
        rest = []
        for item in batch:
            plain = _strip(item)
            try:
                json.dumps(plain, allow_nan=False)
            except (TypeError, ValueError) as error:
                self._drop("invalid", [plain])
                self._warn_item("unsendable", f"{_describe(plain)} was not sent: {error}{_dependents_note(plain)}")
                continue
            if any(i in self._dropped_nodes for i in _referenced(plain)):
                self._drop("dependent", [plain])
            else:
                rest.append(plain)
        self._renumber(rest, batch[0]["seq"])

    def _resend_from(self, batch, expected: int) -> None:
        first = batch[0]["seq"]
        if expected > first:
            rest = [i for i in batch if i["seq"] >= expected]
            self._in_flight = rest or None
            if not rest:
                self._next_seq = expected
            return
        kept = [i for i in self._history if expected <= i["seq"] < first]
        if len(kept) == first - expected:
            self._in_flight = kept + batch
            return
        self._warn("resequenced", f"the server lost items {expected}..{first - 1}; renumbering from {expected}")
        self._dropped["lost"] += first - expected
        self._renumber([_strip(i) for i in batch], expected)

    def _renumber(self, items, start: int) -> None:
        self._next_seq = start
        self._in_flight = [dict(item, seq=start + n) for n, item in enumerate(items)] or None

    # --- commands (the poller thread) --------------------------------------------------------------------------

    def _poller(self) -> None:
        attempt = 0
        client = self._client
        try:
            while self._phase == "open" and not self._finishing:
                wait_ms = int(client.poll_wait * 1000)
                outcome = self._request(
                    "GET", f"/api/ingest/runs/{self.id}/commands?after={self._last_command}&waitMs={wait_ms}",
                    timeout=client.poll_wait + client.request_timeout)
                if self._phase != "open" or self._finishing:
                    return
                if outcome.kind == "ok":
                    attempt = 0
                    body = outcome.body or {}
                    for command in sorted(body.get("commands") or [], key=lambda c: c["seq"]):
                        if command["seq"] <= self._last_command:
                            continue
                        self._last_command = command["seq"]
                        self._handle(command)
                    if body.get("status") in ("finished", "failed"):
                        return
                elif outcome.kind == "retry":
                    attempt += 1
                    self._sleep(retry_delay(attempt, client.retry_base, client.retry_max, outcome.retry_after))
                else:
                    self._warn("refused", f"the server refused the commands request: {outcome.message}; steering stops")
                    return
        except Exception as error:
            self._warn("bug", f"steering stopped: {error!r}")

    def _handle(self, command: Dict[str, Any]) -> None:
        self._commands += 1
        outcome, reason = "applied", None
        try:
            if command.get("kind") not in self._declared:
                raise CommandRefused(f"this program does not take {command.get('kind')}")
            if self._on_command is not None:
                result = self._on_command(command, self)
                if isinstance(result, str):
                    outcome, reason = "refused", result
            else:
                self.apply_builtin(command)
        except Exception as error:
            outcome, reason = "refused", str(error) or type(error).__name__
        self._enqueue({"op": "ack", "command": command["seq"], "outcome": outcome, "reason": reason})


def _strip(item: Dict[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in item.items() if k != "seq"}


def _clean(item: Dict[str, Any], keep=()) -> Dict[str, Any]:
    """Leaves out the fields not given (None), except those where None means something (a root's parent)."""
    return {k: v for k, v in item.items() if v is not None or k in keep}


# --- values as JSON ----------------------------------------------------------------------------------------------

# beyond 2**53 a JSON number loses digits where it is read (JavaScript: the server, the page), so such ints go as text
_SAFE_INT = 2 ** 53


class _NotJson(Exception):
    """A value JSON cannot carry, at `path` in an item ("metadata.scores[2]")."""

    def __init__(self, path: str, problem: str):
        super().__init__(f"{path} {problem}")
        self.path, self.problem = path, problem


def _json_item(item: Dict[str, Any]) -> Dict[str, Any]:
    """A copy of the item holding JSON values only (converted as the module's docstring says), or _NotJson.

    A copy, so that what is sent (and resent, identically, on a retry) is what the call was given, even if the
    caller changes its dicts afterwards.
    """
    converted = {}
    for key, value in item.items():
        try:
            converted[key] = _json_value(value, key, set())
        except RecursionError:
            raise _NotJson(key, "is nested too deeply for JSON") from None
    return converted


def _json_value(value: Any, path: str, open_containers: set) -> Any:
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, float):  # float and its subclasses (numpy.float64)
        return _finite(float(value), path)
    if isinstance(value, numbers.Integral):  # int, IntEnum, numpy integers
        return _integer(int(value))
    if isinstance(value, Decimal):
        if value.is_nan():
            raise _NotJson(path, "is NaN, which JSON cannot carry")
        if value.is_infinite():
            raise _NotJson(path, f"is {'-' if value < 0 else ''}Infinity, which JSON cannot carry")
        if value == value.to_integral_value():
            return _integer(int(value))
        return _finite(float(value), path)
    if isinstance(value, numbers.Rational):  # Fraction: a person reading metadata wants a number, not "7/3"
        if value.denominator == 1:
            return _integer(int(value))
        try:
            return _finite(float(value), path)
        except OverflowError:
            raise _NotJson(path, "is too large for a JSON number") from None
    if isinstance(value, numbers.Real):  # numpy.float32 and other real numbers
        return _finite(float(value), path)
    if isinstance(value, (datetime.date, datetime.time)):  # datetime is a date
        return value.isoformat()
    if isinstance(value, (Mapping, list, tuple, set, frozenset)):
        if id(value) in open_containers:
            raise _NotJson(path, "contains itself")
        open_containers.add(id(value))
        try:
            if isinstance(value, Mapping):
                out = {}
                for key, inner in value.items():
                    name = _json_key(key, path)
                    out[name] = _json_value(inner, f"{path}.{name}" if path else name, open_containers)
                return out
            elements = list(value)
            if isinstance(value, (set, frozenset)):
                try:
                    elements = sorted(elements)  # a set has no order; sorted reads (and diffs) the same every time
                except TypeError:
                    pass
            return [_json_value(inner, f"{path}[{n}]", open_containers) for n, inner in enumerate(elements)]
        finally:
            open_containers.discard(id(value))
    kind = type(value)
    name = kind.__qualname__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__qualname__}"
    raise _NotJson(path, f"is of type {name}, which JSON cannot carry (pass str(), a number, or a dict or list)")


def _finite(number: float, path: str) -> float:
    if math.isnan(number):
        raise _NotJson(path, "is NaN, which JSON cannot carry")
    if math.isinf(number):
        raise _NotJson(path, f"is {'-' if number < 0 else ''}Infinity, which JSON cannot carry")
    return number


def _integer(number: int) -> Any:
    return number if -_SAFE_INT <= number <= _SAFE_INT else str(number)


def _json_key(key: Any, path: str) -> str:
    """A dict key as JSON text, the way json.dumps writes one (3 -> "3", True -> "true", None -> "null")."""
    if isinstance(key, str):
        return key
    if isinstance(key, bool):
        return "true" if key else "false"
    if key is None:
        return "null"
    if isinstance(key, numbers.Integral):
        return str(int(key))
    if isinstance(key, float) and math.isfinite(key):
        return repr(float(key))
    raise _NotJson(path or "(the item)", f"has the key {key!r}, and a JSON key is text")


def _describe(item: Dict[str, Any]) -> str:
    """The item as the caller wrote it: 'node "a"', 'annotate of node "a"', 'event node.pruned of node "a"'."""
    op = item.get("op")
    if op == "node":
        return f'node "{item.get("id")}"'
    if op == "backtrack":
        return f'backtrack from "{item.get("from")}"'
    if op == "ack":
        return f"ack of command {item.get('command')}"
    if op == "finish":
        return "finish"
    if op == "call" and item.get("node") is None:
        return "call (for the whole search)"
    if op is not None:
        return f'{op} of node "{item.get("node")}"'
    payload = item.get("payload")
    node = payload.get("nodeId") if isinstance(payload, dict) else None
    return f"event {item.get('type')}" + (f' of node "{node}"' if isinstance(node, str) else "")


def _dependents_note(item: Dict[str, Any]) -> str:
    created = _created(item)
    return f"; later items about node {created[0]} are dropped with it" if created else ""
