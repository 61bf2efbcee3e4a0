"""Each API's error shape as a typed error, and 429 retried after Retry-After."""

from __future__ import annotations

import uuid

import pytest
from conftest import Recording, Server

from switchboard import AgentApiError, Switchboard, SwitchboardError, VoiceApiError


def test_401_of_each_api(server: Server) -> None:
    with Switchboard(base_url=server.url, api_key="sk_not_a_key") as sb:
        with pytest.raises(AgentApiError) as agent:
            sb.conversations.create(agent_id=server.agent_id)
        assert agent.value.status == 401
        assert agent.value.code == "unauthorized"
        assert agent.value.message == agent.value.body["error"]
        with pytest.raises(VoiceApiError) as voice:
            sb.calls.get("cal_01J00000000000000000000000")
        assert (voice.value.status, voice.value.code) == (401, "unauthorized")
        assert voice.value.body["error"]["code"] == "unauthorized"


def test_404_of_each_api(sb: Switchboard) -> None:
    with pytest.raises(AgentApiError) as agent:
        sb.conversations.get(uuid.uuid4())
    assert (agent.value.status, agent.value.code) == (404, "not_found")
    with pytest.raises(VoiceApiError) as voice:
        sb.calls.get("cal_01J00000000000000000000000")
    assert voice.value.status == 404
    assert voice.value.code == voice.value.body["error"]["code"]
    assert isinstance(voice.value, SwitchboardError)


def test_400_of_the_agent_api_names_the_field(sb: Switchboard, server: Server) -> None:
    conversation = sb.conversations.create(agent_id=server.agent_id)
    with pytest.raises(AgentApiError) as refused:
        sb.messages.send(conversation.conversation_id, message="")
    assert refused.value.status == 400
    assert [d["path"] for d in refused.value.details] == ["message"]


def test_400_and_422_of_the_voice_api(sb: Switchboard) -> None:
    with pytest.raises(VoiceApiError) as refused:
        sb.calls.create(to="call me maybe")
    assert (refused.value.status, refused.value.code) == (422, "invalid_to")
    with pytest.raises(VoiceApiError) as unread:
        sb.calls.create(to="+12025550110", not_a_field=1)
    assert (unread.value.status, unread.value.code) == (400, "invalid_json")


def test_429_is_retried_after_retry_after(server: Server) -> None:
    # The limited key may make two requests a minute: the third is refused until the minute ends.
    network = Recording()
    with Switchboard(base_url=server.url, api_key=server.limited_api_key, transport=network) as sb:
        first = sb.calls.list()
        sb.calls.list()
        with (
            Switchboard(base_url=server.url, api_key=server.limited_api_key, max_retries=0) as once,
            pytest.raises(VoiceApiError) as limited,
        ):
            once.calls.list()
        assert limited.value.status == 429
        assert limited.value.retry_after is not None and 1 <= limited.value.retry_after <= 60
        again = sb.calls.list()
        assert network.statuses == [200, 200, 429, 200]
        assert again.data == first.data
