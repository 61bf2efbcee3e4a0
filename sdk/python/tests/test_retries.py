"""The retry rule shared with the TypeScript SDK (a job retried against the server), and long polls of a result."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
from conftest import AnswerLost, Server

import switchboard.client
from switchboard import AgentApiError, AsyncSwitchboard, Switchboard, VoiceApiError


def scripted(*answers: httpx.Response) -> tuple[httpx.MockTransport, list[httpx.Request]]:
    """A network giving `answers` in order, keeping the requests it was sent."""
    sent: list[httpx.Request] = []
    queue = iter(answers)

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return next(queue)

    return httpx.MockTransport(answer), sent


VOICE_UNAVAILABLE = {"error": {"code": "unavailable", "message": "Try again"}}


def call_gone() -> httpx.Response:
    return httpx.Response(404, json={"error": {"code": "not_found", "message": "No such call"}})


def test_a_429_of_a_post_without_a_key_is_retried() -> None:
    limited = httpx.Response(429, headers={"retry-after": "0"}, json={"error": "Too many requests"})
    network, sent = scripted(limited, httpx.Response(404, json={"error": "No such agent"}))
    with (
        Switchboard(base_url="http://sb.test", api_key="sk", transport=network) as sb,
        pytest.raises(AgentApiError) as answered,
    ):
        sb.conversations.create(agent_id="a5f1c5a4-9f5e-4f8e-8f55-0a2b0f0e6d11")
    assert (answered.value.status, [r.method for r in sent]) == (404, ["POST", "POST"])


def test_a_503_is_retried_only_with_retry_after_and_a_post_only_with_a_key() -> None:
    network, sent = scripted(httpx.Response(503, json=VOICE_UNAVAILABLE))
    with (
        Switchboard(base_url="http://sb.test", api_key="sk", transport=network) as sb,
        pytest.raises(VoiceApiError) as refused,
    ):
        sb.calls.get("cal_01J00000000000000000000000")
    assert (refused.value.status, len(sent)) == (503, 1)

    network, sent = scripted(httpx.Response(503, headers={"retry-after": "0"}, json=VOICE_UNAVAILABLE), call_gone())
    with (
        Switchboard(base_url="http://sb.test", api_key="sk", transport=network) as sb,
        pytest.raises(VoiceApiError) as gone,
    ):
        sb.calls.get("cal_01J00000000000000000000000")
    assert (gone.value.status, len(sent)) == (404, 2)

    network, sent = scripted(httpx.Response(503, headers={"retry-after": "0"}, json={"error": "Try again"}))
    with (
        Switchboard(base_url="http://sb.test", api_key="sk", transport=network) as sb,
        pytest.raises(AgentApiError) as refused_post,
    ):
        sb.conversations.create(agent_id="a5f1c5a4-9f5e-4f8e-8f55-0a2b0f0e6d11")
    assert (refused_post.value.status, len(sent)) == (503, 1)


def test_a_retry_after_above_max_retry_wait_is_not_waited_for() -> None:
    network, sent = scripted(httpx.Response(429, headers={"retry-after": "61"}, json=VOICE_UNAVAILABLE))
    with (
        Switchboard(base_url="http://sb.test", api_key="sk", transport=network, max_retry_wait=60) as sb,
        pytest.raises(VoiceApiError) as limited,
    ):
        sb.calls.get("cal_01J00000000000000000000000")
    assert (limited.value.status, limited.value.retry_after, len(sent)) == (429, 61, 1)


def test_the_default_timeout_outlasts_a_turn() -> None:
    with Switchboard(base_url="http://sb.test", api_key="sk") as sb:
        assert sb.agent.get_httpx_client().timeout == httpx.Timeout(180.0, connect=10.0)


def test_a_job_retried_after_a_503_is_made_once(server: Server) -> None:
    network = AnswerLost("/triggers")
    with Switchboard(base_url=server.url, api_key=server.api_key, transport=network) as sb:
        conversation = sb.conversations.create(agent_id=server.agent_id)
        accepted = sb.jobs.create(conversation_id=str(conversation.conversation_id), task="Made once")
        posts = [r for r in network.requests if r.method == "POST" and r.url.path.endswith("/triggers")]
        keys = {json.loads(r.content)["idempotencyKey"] for r in posts}
        assert (len(posts), len(keys)) == (2, 1)
        listed = sb.jobs.list(conversation.conversation_id)
        assert [t.trigger_id for t in listed.triggers] == [accepted.trigger_id]


def call_result(final: bool) -> dict[str, object]:
    return {
        "call_id": "cal_01J00000000000000000000000",
        "status": "completed" if final else "in-progress",
        "final": final,
        "from": "+12025550100",
        "to": "+12025550110",
        "duration_sec": 1,
        "outcome": None,
        "result": None,
        "summary": None,
        "transcript": [],
        "metadata": {},
    }


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """switchboard.client's monotonic clock, moved on by the scripted server as it holds each poll."""
    now = [1000.0]
    monkeypatch.setattr(switchboard.client, "monotonic", lambda: now[0])
    yield now


def holding(clock: list[float], final_at: int | None) -> tuple[httpx.MockTransport, list[str | None]]:
    """A server holding each long poll its whole wait, final from request `final_at` (1-based) on."""
    waits: list[str | None] = []

    def answer(request: httpx.Request) -> httpx.Response:
        wait = request.url.params.get("wait")
        waits.append(wait)
        final = final_at is not None and len(waits) >= final_at
        if not final and wait is not None:
            clock[0] += int(wait)
        return httpx.Response(200, json=call_result(final))

    return httpx.MockTransport(answer), waits


def test_a_result_waited_for_beyond_60_s_is_long_polled_until_the_wait_is_spent(clock: list[float]) -> None:
    network, waits = holding(clock, final_at=None)
    with Switchboard(base_url="http://sb.test", api_key="sk", transport=network) as sb:
        result = sb.calls.result("cal_01J00000000000000000000000", wait=150)
    assert (result.final, waits) == (False, ["60", "60", "30"])


async def test_a_result_waited_for_async_stops_once_final(clock: list[float]) -> None:
    network, waits = holding(clock, final_at=2)
    async with AsyncSwitchboard(base_url="http://sb.test", api_key="sk", transport=network) as sb:
        result = await sb.calls.result("cal_01J00000000000000000000000", wait=300)
        assert (result.final, waits) == (True, ["60", "60"])
        assert (await sb.calls.result("cal_01J00000000000000000000000")).final
        assert waits == ["60", "60", None]
