"""What every test gets: the harness's values (test/sdk/python.test.ts) and clients built from them."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest

from switchboard import Switchboard


@dataclass(frozen=True)
class Server:
    url: str
    api_key: str
    agent_id: str
    account_id: str
    webhook_secret: str
    #: A key of another account, allowed two requests a minute.
    limited_api_key: str
    #: A number the simulated network answers.
    callee: str
    #: What the callee says first when it answers.
    callee_first_line: str
    #: A number the simulated network answers and stays on the line.
    live_callee: str
    tls_cert: str
    tls_key: str


@pytest.fixture(scope="session")
def server() -> Server:
    env = os.environ
    return Server(
        url=env["SWITCHBOARD_URL"],
        api_key=env["SWITCHBOARD_API_KEY"],
        agent_id=env["AGENT_ID"],
        account_id=env["SWITCHBOARD_ACCOUNT_ID"],
        webhook_secret=env["SWITCHBOARD_WEBHOOK_SECRET"],
        limited_api_key=env["SWITCHBOARD_LIMITED_API_KEY"],
        callee=env["SWITCHBOARD_SIM_NUMBER"],
        callee_first_line=env["SWITCHBOARD_SIM_FIRST_LINE"],
        live_callee=env["SWITCHBOARD_SIM_LIVE_NUMBER"],
        tls_cert=env["SWITCHBOARD_TLS_CERT"],
        tls_key=env["SWITCHBOARD_TLS_KEY"],
    )


@pytest.fixture
def sb(server: Server) -> Iterator[Switchboard]:
    with Switchboard(base_url=server.url, api_key=server.api_key) as client:
        yield client


class Recording(httpx.HTTPTransport):
    """The network, with every response it gave kept in order (status codes and the responses)."""

    def __init__(self) -> None:
        super().__init__()
        self.responses: list[httpx.Response] = []
        self.requests: list[httpx.Request] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        self.requests.append(request)
        self.responses.append(response)
        return response

    @property
    def statuses(self) -> list[int]:
        return [r.status_code for r in self.responses]


class AnswerLost(Recording):
    """The network losing the server's first answer to a POST to `path` (a proxy's 503 instead): the SDK must try again."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self._path = path
        self._lost = False

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        if request.method == "POST" and request.url.path.endswith(self._path) and not self._lost:
            self._lost = True
            response.read()
            response.close()
            return httpx.Response(503, headers={"retry-after": "0"}, request=request)
        return response
