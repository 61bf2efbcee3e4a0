"""A streamed turn: the `text/event-stream` reply of POST /conversations/{id}/messages as typed events."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from types import TracebackType
from typing import Any, Self, get_args

import httpx

from ._generated.agent_api.models import (
    StreamContent,
    StreamDone,
    StreamError,
    StreamHandoff,
    StreamNewMessage,
    StreamTool,
)
from .errors import error_of

StreamEvent = StreamContent | StreamNewMessage | StreamTool | StreamHandoff | StreamDone | StreamError


def stream_event(data: dict[str, Any]) -> StreamEvent:
    """One `data:` payload as the variant whose `type` it has (each model refuses another type)."""
    for variant in get_args(StreamEvent):
        try:
            event: StreamEvent = variant.from_dict(data)
            return event
        except (KeyError, ValueError):
            continue
    raise ValueError(f"not a stream event: {data!r}")


class _Events:
    """Server-sent events from lines: each event's `data` lines joined, dispatched at a blank line."""

    def __init__(self) -> None:
        self._data: list[str] = []

    def line(self, line: str) -> StreamEvent | None:
        if line:
            field, _, value = line.partition(":")
            if field == "data":
                self._data.append(value.removeprefix(" "))
            return None
        if not self._data:
            return None
        data, self._data = "\n".join(self._data), []
        return stream_event(json.loads(data))


class EventStream(Iterator[StreamEvent]):
    """Iterate for the events; the response closes at the end, on `close()`, or leaving a `with` block."""

    def __init__(self, client: httpx.Client, request: httpx.Request) -> None:
        self._client = client
        self._request = request
        self._response: httpx.Response | None = None
        self._lines: Iterator[str] | None = None
        self._events = _Events()

    def _open(self) -> Iterator[str]:
        if self._lines is None:
            response = self._client.send(self._request, stream=True)
            self._response = response
            if response.status_code >= 300:
                response.read()
                self.close()
                raise error_of("agent", response.status_code, response.content, response.headers)
            self._lines = response.iter_lines()
        return self._lines

    def __next__(self) -> StreamEvent:
        lines = self._open()
        for line in lines:
            event = self._events.line(line)
            if event is not None:
                return event
        self.close()
        raise StopIteration

    def close(self) -> None:
        if self._response is not None:
            self._response.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


class AsyncEventStream(AsyncIterator[StreamEvent]):
    """`async for` the events; the response closes at the end, on `aclose()`, or leaving an `async with` block."""

    def __init__(self, client: httpx.AsyncClient, request: httpx.Request) -> None:
        self._client = client
        self._request = request
        self._response: httpx.Response | None = None
        self._lines: AsyncIterator[str] | None = None
        self._events = _Events()

    async def _open(self) -> AsyncIterator[str]:
        if self._lines is None:
            response = await self._client.send(self._request, stream=True)
            self._response = response
            if response.status_code >= 300:
                await response.aread()
                await self.aclose()
                raise error_of("agent", response.status_code, response.content, response.headers)
            self._lines = response.aiter_lines()
        return self._lines

    async def __anext__(self) -> StreamEvent:
        lines = await self._open()
        async for line in lines:
            event = self._events.line(line)
            if event is not None:
                return event
        await self.aclose()
        raise StopAsyncIteration

    async def aclose(self) -> None:
        if self._response is not None:
            await self._response.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()
