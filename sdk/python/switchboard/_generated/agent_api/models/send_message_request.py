from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.send_message_request_memory_scope import (
    SendMessageRequestMemoryScope,
    check_send_message_request_memory_scope,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.custom_tool import CustomTool


T = TypeVar("T", bound="SendMessageRequest")


@_attrs_define
class SendMessageRequest:
    message: str
    contact_id: int | Unset = UNSET
    custom_system_message: str | Unset = UNSET
    custom_tools: list[CustomTool] | Unset = UNSET
    stream: bool | Unset = False
    as_human_reply: bool | Unset = False
    memory_scope: SendMessageRequestMemoryScope | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        message = self.message

        contact_id = self.contact_id

        custom_system_message = self.custom_system_message

        custom_tools: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.custom_tools, Unset):
            custom_tools = []
            for custom_tools_item_data in self.custom_tools:
                custom_tools_item = custom_tools_item_data.to_dict()
                custom_tools.append(custom_tools_item)

        stream = self.stream

        as_human_reply = self.as_human_reply

        memory_scope: str | Unset = UNSET
        if not isinstance(self.memory_scope, Unset):
            memory_scope = self.memory_scope

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "message": message,
            }
        )
        if contact_id is not UNSET:
            field_dict["contactId"] = contact_id
        if custom_system_message is not UNSET:
            field_dict["customSystemMessage"] = custom_system_message
        if custom_tools is not UNSET:
            field_dict["customTools"] = custom_tools
        if stream is not UNSET:
            field_dict["stream"] = stream
        if as_human_reply is not UNSET:
            field_dict["asHumanReply"] = as_human_reply
        if memory_scope is not UNSET:
            field_dict["memoryScope"] = memory_scope

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.custom_tool import CustomTool

        d = dict(src_dict)
        message = d.pop("message")

        contact_id = d.pop("contactId", UNSET)

        custom_system_message = d.pop("customSystemMessage", UNSET)

        _custom_tools = d.pop("customTools", UNSET)
        custom_tools: list[CustomTool] | Unset = UNSET
        if _custom_tools is not UNSET:
            custom_tools = []
            for custom_tools_item_data in _custom_tools:
                custom_tools_item = CustomTool.from_dict(custom_tools_item_data)

                custom_tools.append(custom_tools_item)

        stream = d.pop("stream", UNSET)

        as_human_reply = d.pop("asHumanReply", UNSET)

        _memory_scope = d.pop("memoryScope", UNSET)
        memory_scope: SendMessageRequestMemoryScope | Unset
        if isinstance(_memory_scope, Unset):
            memory_scope = UNSET
        else:
            memory_scope = check_send_message_request_memory_scope(_memory_scope)

        send_message_request = cls(
            message=message,
            contact_id=contact_id,
            custom_system_message=custom_system_message,
            custom_tools=custom_tools,
            stream=stream,
            as_human_reply=as_human_reply,
            memory_scope=memory_scope,
        )

        return send_message_request
