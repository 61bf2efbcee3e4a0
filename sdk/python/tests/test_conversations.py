"""Turns answered whole and streamed, sync and async."""

from __future__ import annotations

from conftest import Recording, Server

from switchboard import AsyncSwitchboard, Switchboard
from switchboard._generated.agent_api.models import StreamContent, StreamDone


def test_a_synchronous_turn(sb: Switchboard, server: Server) -> None:
    conversation = sb.conversations.create(agent_id=server.agent_id, metadata={"source": "sdk"})
    reply = sb.messages.send(conversation.conversation_id, message="Hello!")
    assert reply.conversation_id == conversation.conversation_id
    assert reply.message.content == "You said: Hello!"
    stored = sb.conversations.get(conversation.conversation_id, include="all")
    assert [m.content for m in stored.messages] == ["Hello!", "You said: Hello!"]


def test_a_streamed_turn(sb: Switchboard, server: Server) -> None:
    conversation = sb.conversations.create(agent_id=server.agent_id)
    events = list(sb.messages.stream(conversation.conversation_id, message="Stream it"))
    text = "".join(e.content for e in events if isinstance(e, StreamContent))
    assert text == "You said: Stream it"
    done = events[-1]
    assert isinstance(done, StreamDone)
    assert done.conversation_id == conversation.conversation_id
    assert done.usage.total_tokens >= 0


def test_a_stream_left_early_closes_its_response(server: Server) -> None:
    network = Recording()
    with Switchboard(base_url=server.url, api_key=server.api_key, transport=network) as sb:
        conversation = sb.conversations.create(agent_id=server.agent_id)
        with sb.messages.stream(conversation.conversation_id, message="Just the first") as events:
            first = next(events)
            assert isinstance(first, StreamContent)
            assert not network.responses[-1].is_closed
        assert network.responses[-1].is_closed


async def test_a_streamed_turn_async(server: Server) -> None:
    async with AsyncSwitchboard(base_url=server.url, api_key=server.api_key) as sb:
        conversation = await sb.conversations.create(agent_id=server.agent_id)
        text = ""
        last = None
        async for event in sb.messages.stream(conversation.conversation_id, message="Async stream"):
            if isinstance(event, StreamContent):
                text += event.content
            last = event
        assert text == "You said: Async stream"
        assert isinstance(last, StreamDone)
        reply = await sb.messages.send(conversation.conversation_id, message="And whole")
        assert reply.message.content == "You said: And whole"
