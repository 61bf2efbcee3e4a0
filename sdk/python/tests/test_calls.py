"""A placed simulated call, its result with wait, and placement that rings once however often it is retried."""

from __future__ import annotations

import time

import pytest
from conftest import AnswerLost, Server

from switchboard import AsyncSwitchboard, Switchboard, VoiceApiError


def test_a_placed_call_and_its_result_with_wait(sb: Switchboard, server: Server) -> None:
    call = sb.calls.create(to=server.callee, task="Say hello", metadata={"order": 42})
    assert call.status == "queued"
    result = sb.calls.result(call.id, wait=120)
    assert result.final
    assert result.call_id == call.id
    assert result.status == "completed"
    assert [line.text for line in result.transcript if line.speaker == "caller"][:1] == [server.callee_first_line]
    assert sb.calls.get(call.id).status == "completed"
    assert call.id in [c.id for c in sb.calls.list(limit=100).data]


def test_a_retried_placement_rings_once(server: Server) -> None:
    network = AnswerLost("/v1/calls")
    with Switchboard(base_url=server.url, api_key=server.api_key, transport=network) as sb:
        before = {c.id for c in sb.calls.list(limit=100).data}
        network.requests.clear()
        network.responses.clear()
        call = sb.calls.create(to=server.callee, task="Ring once")
        sent = [r for r in network.requests if r.method == "POST"]
        assert len(sent) == 2
        keys = {r.headers["idempotency-key"] for r in sent}
        assert len(keys) == 1
        assert network.statuses[0] == 201
        assert {c.id for c in sb.calls.list(limit=100).data} - before == {call.id}


def test_the_same_idempotency_key_places_one_call(sb: Switchboard, server: Server) -> None:
    first = sb.calls.create(to=server.callee, task="Once", idempotency_key="sdk-call-once")
    again = sb.calls.create(to=server.callee, task="Once", idempotency_key="sdk-call-once")
    assert again.id == first.id
    assert sum(1 for c in sb.calls.list(limit=100).data if c.id == first.id) == 1


async def test_a_call_placed_and_awaited_async(server: Server) -> None:
    async with AsyncSwitchboard(base_url=server.url, api_key=server.api_key) as sb:
        call = await sb.calls.create(to=server.callee, task="Async hello")
        result = await sb.calls.result(call.id, wait=120)
        assert result.status == "completed"
        assert (await sb.calls.get(call.id)).status == "completed"


def test_a_live_call_steered_then_hung_up(sb: Switchboard, server: Server) -> None:
    call = sb.calls.create(to=server.live_callee, task="Stay on the line")
    deadline = time.monotonic() + 30
    while sb.calls.get(call.id).status != "in-progress":
        assert time.monotonic() < deadline, "the call was never answered"
        time.sleep(0.05)
    steered = sb.calls.steer(call.id, instruction="Offer ten percent off", say="One moment, please.")
    assert (steered.call_id, steered.accepted) == (call.id, True)
    ended = sb.calls.hangup(call.id)
    assert (ended.status, ended.hangup_cause) == ("completed", "api_hangup")
    assert sb.calls.result(call.id, wait=30).final
    with pytest.raises(VoiceApiError) as refused:
        sb.calls.steer(call.id, say="Hi")
    assert (refused.value.status, refused.value.code) == (409, "call_ended")
