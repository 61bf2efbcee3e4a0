"""
Retries of 429 and 503 below every request the SDK sends (its own and the generated clients'), by the
rule the TypeScript SDK shares: a 429 of this server is decided before any work (api/http/limits.ts,
pkg/voice/place.ts), so any method is tried again; a 503 only with Retry-After, and a POST only when it
carries an idempotency key (the Idempotency-Key header, or a job's JSON `idempotencyKey`).
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass

import httpx

from .errors import retry_after_of


def _idempotent(request: httpx.Request) -> bool:
    """Whether the server answers a repeat of `request` as the first."""
    if request.method != "POST" or "idempotency-key" in request.headers:
        return True
    try:
        body = json.loads(request.content)
    except (ValueError, httpx.RequestNotRead):
        return False
    return isinstance(body, dict) and isinstance(body.get("idempotencyKey"), str)


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to wait: `max_retries` tries after the first, each wait at most `max_wait` seconds."""

    max_retries: int = 2
    max_wait: float = 60.0

    def delay(self, request: httpx.Request, response: httpx.Response, retries: int) -> float | None:
        """Seconds to wait before trying `request` again, or None to give its answer to the caller."""
        if retries >= self.max_retries:
            return None
        wait = retry_after_of(response.headers)
        if response.status_code == 429:
            wait = 0.5 * 2**retries if wait is None else wait
        elif response.status_code != 503 or wait is None or not _idempotent(request):
            return None
        return wait if wait <= self.max_wait else None


class RetryTransport(httpx.BaseTransport):
    def __init__(self, inner: httpx.BaseTransport, policy: RetryPolicy) -> None:
        self._inner = inner
        self._policy = policy

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        retries = 0
        while True:
            response = self._inner.handle_request(request)
            wait = self._policy.delay(request, response, retries)
            if wait is None:
                return response
            response.read()
            response.close()
            time.sleep(wait)
            retries += 1

    def close(self) -> None:
        self._inner.close()


class AsyncRetryTransport(httpx.AsyncBaseTransport):
    def __init__(self, inner: httpx.AsyncBaseTransport, policy: RetryPolicy) -> None:
        self._inner = inner
        self._policy = policy

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        retries = 0
        while True:
            response = await self._inner.handle_async_request(request)
            wait = self._policy.delay(request, response, retries)
            if wait is None:
                return response
            await response.aread()
            await response.aclose()
            await asyncio.sleep(wait)
            retries += 1

    async def aclose(self) -> None:
        await self._inner.aclose()
