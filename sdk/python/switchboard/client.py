"""`Switchboard` and `AsyncSwitchboard`: the hand-written surface over the generated clients."""

from __future__ import annotations

import math
import uuid
from collections.abc import Mapping
from time import monotonic
from typing import Any, Generic, Literal, Protocol, Self, TypeVar, cast
from uuid import UUID

import httpx

from ._generated.agent_api import AuthenticatedClient as AgentClient
from ._generated.agent_api.api.conversations import create_conversation, get_conversation, send_message
from ._generated.agent_api.api.jobs import (
    cancel_trigger,
    create_trigger,
    get_trigger,
    list_conversation_triggers,
    reply_to_trigger,
)
from ._generated.agent_api.models import (
    CancelTriggerRequest,
    Conversation,
    ConversationCreated,
    CreateConversationRequest,
    CreateTriggerRequest,
    MessageReply,
    ReplyTriggerRequest,
    ReplyTriggerRequestDecision,
    SendMessageRequest,
    Trigger,
    TriggerAccepted,
    TriggerList,
)
from ._generated.agent_api.types import UNSET
from ._generated.voice_api import AuthenticatedClient as VoiceClient
from ._generated.voice_api.api.calls import get_call, get_call_result, hang_up_call, list_calls, place_call, steer_call
from ._generated.voice_api.models import (
    CallList,
    Call,
    CallResult,
    PlaceCallRequest,
    SteerAccepted,
    SteerCallRequest,
)
from ._generated.voice_api.types import UNSET as VOICE_UNSET
from ._retry import AsyncRetryTransport, RetryPolicy, RetryTransport
from .errors import Api, error_of
from .streaming import AsyncEventStream, EventStream

T = TypeVar("T")
U = TypeVar("U")
M = TypeVar("M")
Tr = TypeVar("Tr", httpx.BaseTransport, httpx.AsyncBaseTransport)

# A job's statuses after which it never changes again (Agent API spec, "Jobs").
FINAL_JOB_STATUSES = frozenset({"succeeded", "failed", "expired", "cancelled"})
# GET /triggers/{id}?wait= and GET /v1/calls/{id}/result?wait= hold at most this many seconds.
MAX_WAIT = 60


class _Answer(Protocol):
    @property
    def status_code(self) -> int: ...
    @property
    def content(self) -> bytes: ...
    @property
    def headers(self) -> Mapping[str, str]: ...
    @property
    def parsed(self) -> object: ...


def _ok(api: Api, answer: _Answer, expected: type[T]) -> T:
    """The parsed 2xx body, or the API's typed error."""
    if 200 <= answer.status_code < 300 and isinstance(answer.parsed, expected):
        return answer.parsed
    raise error_of(api, answer.status_code, answer.content, answer.headers)


class _Wire:
    """A request body as the API spells it, sent as given: the server judges every field, none is dropped unseen."""

    def __init__(self, fields: dict[str, Any]) -> None:
        self._fields = fields

    def to_dict(self) -> dict[str, Any]:
        return self._fields


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def _agent_body(model: type[M], fields: Mapping[str, Any]) -> M:
    """An Agent API body of `model` from Python names (`agent_id`); nested values as the API spells them."""
    # The generated function only calls to_dict() on it; the models would drop a field they do not know.
    return cast(M, _Wire({_camel(k): v for k, v in fields.items() if v is not None}))


def _voice_body(model: type[M], fields: Mapping[str, Any]) -> M:
    """A Voice API body of `model` from Python names (`from_` is `from`); nested values as the API spells them."""
    return cast(M, _Wire({k.removesuffix("_"): v for k, v in fields.items() if v is not None}))


def _uuid(value: str | UUID) -> UUID:
    return value if isinstance(value, UUID) else UUID(value)


def _or(value: T | None, unset: U) -> T | U:
    """`value`, or the generated package's UNSET for None."""
    return unset if value is None else value


def _headers(api_key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {api_key}", "User-Agent": "switchboard-sdk-python/0.1.0"}


def _poll_seconds(deadline: float) -> int | None:
    """The next long poll's wait (1-60 s) until `deadline`, or None once it is spent."""
    remaining = deadline - monotonic()
    return min(MAX_WAIT, math.ceil(remaining)) if remaining > 0 else None


def _wait_seconds(deadline: float) -> int:
    poll = _poll_seconds(deadline)
    if poll is None:
        raise TimeoutError("the job did not finish in time")
    return poll


class _Base(Generic[Tr]):
    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        max_retries: int = 2,
        max_retry_wait: float = 60.0,
        # Above the server's turn timeout (SWITCHBOARD_TURN_TIMEOUT_SEC, 120 s): a stream sends no keepalive.
        timeout: float = 180.0,
        transport: Tr | None = None,
    ) -> None:
        """
        `base_url` is the server's root (the APIs are below it at /api/v1 and /v1); 429 and 503 are
        tried again `max_retries` times where safe (switchboard._retry) when Retry-After is at most
        `max_retry_wait` seconds; `timeout` bounds each read; `transport` is httpx's (default: the network).
        """
        agent_url, voice_url = f"{base_url.rstrip('/')}/api/v1", f"{base_url.rstrip('/')}/v1"
        self._policy = RetryPolicy(max_retries=max_retries, max_wait=max_retry_wait)
        self._options: dict[str, Any] = {"headers": _headers(api_key), "timeout": httpx.Timeout(timeout, connect=10.0)}
        #: The generated Agent API client (switchboard._generated.agent_api): every operation's function takes it.
        self.agent = AgentClient(base_url=agent_url, token=api_key)
        #: The generated Voice API client (switchboard._generated.voice_api).
        self.voice = VoiceClient(base_url=voice_url, token=api_key)
        self._urls = ((self.agent, agent_url), (self.voice, voice_url))
        self._connect(transport)

    def _connect(self, transport: Tr | None) -> None:
        """Gives both generated clients their httpx client, over `transport` with retries."""
        raise NotImplementedError


class Switchboard(_Base[httpx.BaseTransport]):
    """The Agent API and the Voice API of one Switchboard, with one API key. Close it, or use it in `with`."""

    def _connect(self, transport: httpx.BaseTransport | None) -> None:
        retrying = RetryTransport(transport or httpx.HTTPTransport(), self._policy)
        for generated, url in self._urls:
            generated.set_httpx_client(httpx.Client(base_url=url, transport=retrying, **self._options))
        self.conversations = Conversations(self.agent)
        self.messages = Messages(self.agent)
        self.jobs = Jobs(self.agent)
        self.calls = Calls(self.voice)

    def close(self) -> None:
        self.agent.get_httpx_client().close()
        self.voice.get_httpx_client().close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *args: object) -> None:
        self.close()


class AsyncSwitchboard(_Base[httpx.AsyncBaseTransport]):
    """As Switchboard, with coroutines and async iterators. Close it (`await aclose()`), or use `async with`."""

    def _connect(self, transport: httpx.AsyncBaseTransport | None) -> None:
        retrying = AsyncRetryTransport(transport or httpx.AsyncHTTPTransport(), self._policy)
        for generated, url in self._urls:
            generated.set_async_httpx_client(httpx.AsyncClient(base_url=url, transport=retrying, **self._options))
        self.conversations = AsyncConversations(self.agent)
        self.messages = AsyncMessages(self.agent)
        self.jobs = AsyncJobs(self.agent)
        self.calls = AsyncCalls(self.voice)

    async def aclose(self) -> None:
        await self.agent.get_async_httpx_client().aclose()
        await self.voice.get_async_httpx_client().aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *args: object) -> None:
        await self.aclose()


class Conversations:
    def __init__(self, client: AgentClient) -> None:
        self._client = client

    def create(self, *, agent_id: str | UUID, **fields: Any) -> ConversationCreated:
        """POST /conversations; `fields` as CreateConversationRequest's (contact, metadata, ...)."""
        body = _agent_body(CreateConversationRequest, {"agent_id": str(agent_id), **fields})
        return _ok("agent", create_conversation.sync_detailed(client=self._client, body=body), ConversationCreated)

    def get(self, conversation_id: str | UUID, *, include: Literal["all"] | None = None) -> Conversation:
        answer = get_conversation.sync_detailed(
            _uuid(conversation_id), client=self._client, include=_or(include, UNSET)
        )
        return _ok("agent", answer, Conversation)


class AsyncConversations:
    def __init__(self, client: AgentClient) -> None:
        self._client = client

    async def create(self, *, agent_id: str | UUID, **fields: Any) -> ConversationCreated:
        body = _agent_body(CreateConversationRequest, {"agent_id": str(agent_id), **fields})
        answer = await create_conversation.asyncio_detailed(client=self._client, body=body)
        return _ok("agent", answer, ConversationCreated)

    async def get(self, conversation_id: str | UUID, *, include: Literal["all"] | None = None) -> Conversation:
        answer = await get_conversation.asyncio_detailed(
            _uuid(conversation_id), client=self._client, include=_or(include, UNSET)
        )
        return _ok("agent", answer, Conversation)


def _stream_request(
    http: httpx.Client | httpx.AsyncClient, conversation_id: str | UUID, fields: Mapping[str, Any]
) -> httpx.Request:
    body = _agent_body(SendMessageRequest, {**fields, "stream": True})
    request = http.build_request(**send_message._get_kwargs(_uuid(conversation_id), body=body))
    request.headers["Accept"] = "text/event-stream"
    return request


class Messages:
    def __init__(self, client: AgentClient) -> None:
        self._client = client

    def send(self, conversation_id: str | UUID, *, message: str, **fields: Any) -> MessageReply:
        """A turn answered whole: POST /conversations/{id}/messages."""
        body = _agent_body(SendMessageRequest, {**fields, "message": message, "stream": False})
        answer = send_message.sync_detailed(_uuid(conversation_id), client=self._client, body=body)
        return _ok("agent", answer, MessageReply)

    def stream(self, conversation_id: str | UUID, *, message: str, **fields: Any) -> EventStream:
        """A streamed turn: iterate for its events (StreamContent, ..., StreamDone)."""
        http = self._client.get_httpx_client()
        return EventStream(http, _stream_request(http, conversation_id, {**fields, "message": message}))


class AsyncMessages:
    def __init__(self, client: AgentClient) -> None:
        self._client = client

    async def send(self, conversation_id: str | UUID, *, message: str, **fields: Any) -> MessageReply:
        body = _agent_body(SendMessageRequest, {**fields, "message": message, "stream": False})
        answer = await send_message.asyncio_detailed(_uuid(conversation_id), client=self._client, body=body)
        return _ok("agent", answer, MessageReply)

    def stream(self, conversation_id: str | UUID, *, message: str, **fields: Any) -> AsyncEventStream:
        """`async for` its events; the request is sent at the first one."""
        http = self._client.get_async_httpx_client()
        return AsyncEventStream(http, _stream_request(http, conversation_id, {**fields, "message": message}))


def _job_body(task: str, idempotency_key: str | None, fields: Mapping[str, Any]) -> CreateTriggerRequest:
    key = idempotency_key or str(uuid.uuid4())
    return _agent_body(CreateTriggerRequest, {**fields, "task": task, "idempotency_key": key})


class Jobs:
    def __init__(self, client: AgentClient) -> None:
        self._client = client

    def create(self, *, task: str, idempotency_key: str | None = None, **fields: Any) -> TriggerAccepted:
        """
        POST /triggers; `fields` as CreateTriggerRequest's (agent_id, conversation_id, ...). An
        idempotency key is made unless given, so a retried request never makes a second job.
        """
        body = _job_body(task, idempotency_key, fields)
        return _ok("agent", create_trigger.sync_detailed(client=self._client, body=body), TriggerAccepted)

    def get(self, trigger_id: str | UUID, *, wait: int | None = None) -> Trigger:
        """GET /triggers/{id}; with `wait` (seconds, at most 60) held until its status changes."""
        answer = get_trigger.sync_detailed(_uuid(trigger_id), client=self._client, wait=_or(wait, UNSET))
        return _ok("agent", answer, Trigger)

    def list(self, conversation_id: str | UUID, *, limit: int | None = None, offset: int | None = None) -> TriggerList:
        answer = list_conversation_triggers.sync_detailed(
            _uuid(conversation_id), client=self._client, limit=_or(limit, UNSET), offset=_or(offset, UNSET)
        )
        return _ok("agent", answer, TriggerList)

    def cancel(self, trigger_id: str | UUID, *, reason: str | None = None) -> Trigger:
        body = _agent_body(CancelTriggerRequest, {"reason": reason})
        return _ok("agent", cancel_trigger.sync_detailed(_uuid(trigger_id), client=self._client, body=body), Trigger)

    def reply(
        self, trigger_id: str | UUID, *, decision: ReplyTriggerRequestDecision, reason: str | None = None
    ) -> Trigger:
        """Answers a job waiting for a reply, which resumes it."""
        body = _agent_body(ReplyTriggerRequest, {"decision": decision, "reason": reason})
        return _ok("agent", reply_to_trigger.sync_detailed(_uuid(trigger_id), client=self._client, body=body), Trigger)

    def wait_for(self, trigger_id: str | UUID, *, timeout: float = 300.0) -> Trigger:
        """The job once its status is final (succeeded, failed, expired, cancelled); TimeoutError after `timeout` seconds."""
        deadline = monotonic() + timeout
        job = self.get(trigger_id)
        while job.status not in FINAL_JOB_STATUSES:
            job = self.get(trigger_id, wait=_wait_seconds(deadline))
        return job


class AsyncJobs:
    def __init__(self, client: AgentClient) -> None:
        self._client = client

    async def create(self, *, task: str, idempotency_key: str | None = None, **fields: Any) -> TriggerAccepted:
        body = _job_body(task, idempotency_key, fields)
        return _ok("agent", await create_trigger.asyncio_detailed(client=self._client, body=body), TriggerAccepted)

    async def get(self, trigger_id: str | UUID, *, wait: int | None = None) -> Trigger:
        answer = await get_trigger.asyncio_detailed(_uuid(trigger_id), client=self._client, wait=_or(wait, UNSET))
        return _ok("agent", answer, Trigger)

    async def list(
        self, conversation_id: str | UUID, *, limit: int | None = None, offset: int | None = None
    ) -> TriggerList:
        answer = await list_conversation_triggers.asyncio_detailed(
            _uuid(conversation_id), client=self._client, limit=_or(limit, UNSET), offset=_or(offset, UNSET)
        )
        return _ok("agent", answer, TriggerList)

    async def cancel(self, trigger_id: str | UUID, *, reason: str | None = None) -> Trigger:
        body = _agent_body(CancelTriggerRequest, {"reason": reason})
        answer = await cancel_trigger.asyncio_detailed(_uuid(trigger_id), client=self._client, body=body)
        return _ok("agent", answer, Trigger)

    async def reply(
        self, trigger_id: str | UUID, *, decision: ReplyTriggerRequestDecision, reason: str | None = None
    ) -> Trigger:
        body = _agent_body(ReplyTriggerRequest, {"decision": decision, "reason": reason})
        answer = await reply_to_trigger.asyncio_detailed(_uuid(trigger_id), client=self._client, body=body)
        return _ok("agent", answer, Trigger)

    async def wait_for(self, trigger_id: str | UUID, *, timeout: float = 300.0) -> Trigger:
        deadline = monotonic() + timeout
        job = await self.get(trigger_id)
        while job.status not in FINAL_JOB_STATUSES:
            job = await self.get(trigger_id, wait=_wait_seconds(deadline))
        return job


class Calls:
    def __init__(self, client: VoiceClient) -> None:
        self._client = client

    def create(self, *, to: str, idempotency_key: str | None = None, **fields: Any) -> Call:
        """POST /v1/calls with an Idempotency-Key (a new one unless given), the same on every retry: a call rings once."""
        body = _voice_body(PlaceCallRequest, {**fields, "to": to})
        key = idempotency_key or str(uuid.uuid4())
        return _ok("voice", place_call.sync_detailed(client=self._client, body=body, idempotency_key=key), Call)

    def get(self, call_id: str) -> Call:
        return _ok("voice", get_call.sync_detailed(call_id, client=self._client), Call)

    def list(self, **filters: Any) -> CallList:
        """GET /v1/calls; `filters` as list_calls takes them (status, direction, to, from_, limit, cursor, ...)."""
        return _ok("voice", list_calls.sync_detailed(client=self._client, **filters), CallList)

    def steer(self, call_id: str, **fields: Any) -> SteerAccepted:
        """POST /v1/calls/{id}/steer; `fields` as SteerCallRequest's (instruction, say)."""
        body = _voice_body(SteerCallRequest, fields)
        return _ok("voice", steer_call.sync_detailed(call_id, client=self._client, body=body), SteerAccepted)

    def hangup(self, call_id: str) -> Call:
        return _ok("voice", hang_up_call.sync_detailed(call_id, client=self._client), Call)

    def _result(self, call_id: str, wait: int | None) -> CallResult:
        answer = get_call_result.sync_detailed(call_id, client=self._client, wait=_or(wait, VOICE_UNSET))
        return _ok("voice", answer, CallResult)

    def result(self, call_id: str, *, wait: float | None = None) -> CallResult:
        """
        GET /v1/calls/{id}/result; with `wait` (seconds, any length) asked again in long polls of at
        most 60 s until it is final or `wait` is spent, then returned as it stands.
        """
        deadline = monotonic() + (wait or 0)
        result = self._result(call_id, _poll_seconds(deadline) if wait else None)
        while not result.final and (poll := _poll_seconds(deadline)) is not None:
            result = self._result(call_id, poll)
        return result


class AsyncCalls:
    def __init__(self, client: VoiceClient) -> None:
        self._client = client

    async def create(self, *, to: str, idempotency_key: str | None = None, **fields: Any) -> Call:
        body = _voice_body(PlaceCallRequest, {**fields, "to": to})
        key = idempotency_key or str(uuid.uuid4())
        answer = await place_call.asyncio_detailed(client=self._client, body=body, idempotency_key=key)
        return _ok("voice", answer, Call)

    async def get(self, call_id: str) -> Call:
        return _ok("voice", await get_call.asyncio_detailed(call_id, client=self._client), Call)

    async def list(self, **filters: Any) -> CallList:
        return _ok("voice", await list_calls.asyncio_detailed(client=self._client, **filters), CallList)

    async def steer(self, call_id: str, **fields: Any) -> SteerAccepted:
        body = _voice_body(SteerCallRequest, fields)
        return _ok("voice", await steer_call.asyncio_detailed(call_id, client=self._client, body=body), SteerAccepted)

    async def hangup(self, call_id: str) -> Call:
        return _ok("voice", await hang_up_call.asyncio_detailed(call_id, client=self._client), Call)

    async def _result(self, call_id: str, wait: int | None) -> CallResult:
        answer = await get_call_result.asyncio_detailed(call_id, client=self._client, wait=_or(wait, VOICE_UNSET))
        return _ok("voice", answer, CallResult)

    async def result(self, call_id: str, *, wait: float | None = None) -> CallResult:
        deadline = monotonic() + (wait or 0)
        result = await self._result(call_id, _poll_seconds(deadline) if wait else None)
        while not result.final and (poll := _poll_seconds(deadline)) is not None:
            result = await self._result(call_id, poll)
        return result
