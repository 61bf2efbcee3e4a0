"""Retries of 429 and 503 after Retry-After, below every request the SDK sends (its own and the generated clients')."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

import httpx

from .errors import retry_after_of

RETRIED_STATUSES = frozenset({429, 503})
# A POST is retried only with an Idempotency-Key: the server answers its repeat as the first.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to wait: `max_retries` tries after the first, each wait at most `max_wait` seconds."""

    max_retries: int = 2
    max_wait: float = 60.0

    def delay(self, request: httpx.Request, response: httpx.Response, retries: int) -> float | None:
        """Seconds to wait before trying `request` again, or None to give its answer to the caller."""
        if response.status_code not in RETRIED_STATUSES or retries >= self.max_retries:
            return None
        if request.method not in SAFE_METHODS and "idempotency-key" not in request.headers:
            return None
        wait = retry_after_of(response.headers)
        if wait is None:
            wait = 0.5 * 2**retries
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
