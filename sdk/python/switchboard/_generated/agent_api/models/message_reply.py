from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.handoff import Handoff
    from ..models.message_reply_message import MessageReplyMessage
    from ..models.message_reply_messages_item import MessageReplyMessagesItem
    from ..models.resume_error import ResumeError
    from ..models.usage import Usage


T = TypeVar("T", bound="MessageReply")


@_attrs_define
class MessageReply:
    conversation_id: UUID
    contact_id: int | None
    message: MessageReplyMessage
    messages: list[MessageReplyMessagesItem]
    tool_calls: list[str]
    usage: Usage
    handoff: Handoff | Unset = UNSET
    agent_id: UUID | Unset = UNSET
    resumed_trigger_id: UUID | Unset = UNSET
    resumed_status: str | Unset = UNSET
    resume_error: ResumeError | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        conversation_id = str(self.conversation_id)

        contact_id: int | None
        contact_id = self.contact_id

        message = self.message.to_dict()

        messages = []
        for messages_item_data in self.messages:
            messages_item = messages_item_data.to_dict()
            messages.append(messages_item)

        tool_calls = self.tool_calls

        usage = self.usage.to_dict()

        handoff: dict[str, Any] | Unset = UNSET
        if not isinstance(self.handoff, Unset):
            handoff = self.handoff.to_dict()

        agent_id: str | Unset = UNSET
        if not isinstance(self.agent_id, Unset):
            agent_id = str(self.agent_id)

        resumed_trigger_id: str | Unset = UNSET
        if not isinstance(self.resumed_trigger_id, Unset):
            resumed_trigger_id = str(self.resumed_trigger_id)

        resumed_status = self.resumed_status

        resume_error: dict[str, Any] | Unset = UNSET
        if not isinstance(self.resume_error, Unset):
            resume_error = self.resume_error.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "conversationId": conversation_id,
                "contactId": contact_id,
                "message": message,
                "messages": messages,
                "toolCalls": tool_calls,
                "usage": usage,
            }
        )
        if handoff is not UNSET:
            field_dict["handoff"] = handoff
        if agent_id is not UNSET:
            field_dict["agentId"] = agent_id
        if resumed_trigger_id is not UNSET:
            field_dict["resumedTriggerId"] = resumed_trigger_id
        if resumed_status is not UNSET:
            field_dict["resumedStatus"] = resumed_status
        if resume_error is not UNSET:
            field_dict["resumeError"] = resume_error

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.handoff import Handoff
        from ..models.message_reply_message import MessageReplyMessage
        from ..models.message_reply_messages_item import MessageReplyMessagesItem
        from ..models.resume_error import ResumeError
        from ..models.usage import Usage

        d = dict(src_dict)
        conversation_id = UUID(d.pop("conversationId"))

        def _parse_contact_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        contact_id = _parse_contact_id(d.pop("contactId"))

        message = MessageReplyMessage.from_dict(d.pop("message"))

        messages = []
        _messages = d.pop("messages")
        for messages_item_data in _messages:
            messages_item = MessageReplyMessagesItem.from_dict(messages_item_data)

            messages.append(messages_item)

        tool_calls = cast(list[str], d.pop("toolCalls"))

        usage = Usage.from_dict(d.pop("usage"))

        _handoff = d.pop("handoff", UNSET)
        handoff: Handoff | Unset
        if isinstance(_handoff, Unset):
            handoff = UNSET
        else:
            handoff = Handoff.from_dict(_handoff)

        _agent_id = d.pop("agentId", UNSET)
        agent_id: UUID | Unset
        if isinstance(_agent_id, Unset):
            agent_id = UNSET
        else:
            agent_id = UUID(_agent_id)

        _resumed_trigger_id = d.pop("resumedTriggerId", UNSET)
        resumed_trigger_id: UUID | Unset
        if isinstance(_resumed_trigger_id, Unset):
            resumed_trigger_id = UNSET
        else:
            resumed_trigger_id = UUID(_resumed_trigger_id)

        resumed_status = d.pop("resumedStatus", UNSET)

        _resume_error = d.pop("resumeError", UNSET)
        resume_error: ResumeError | Unset
        if isinstance(_resume_error, Unset):
            resume_error = UNSET
        else:
            resume_error = ResumeError.from_dict(_resume_error)

        message_reply = cls(
            conversation_id=conversation_id,
            contact_id=contact_id,
            message=message,
            messages=messages,
            tool_calls=tool_calls,
            usage=usage,
            handoff=handoff,
            agent_id=agent_id,
            resumed_trigger_id=resumed_trigger_id,
            resumed_status=resumed_status,
            resume_error=resume_error,
        )

        return message_reply
