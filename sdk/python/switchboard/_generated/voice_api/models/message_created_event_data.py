from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.message import Message
    from ..models.message_created_event_data_call import MessageCreatedEventDataCall


T = TypeVar("T", bound="MessageCreatedEventData")


@_attrs_define
class MessageCreatedEventData:
    message: Message
    call: MessageCreatedEventDataCall

    def to_dict(self) -> dict[str, Any]:
        message = self.message.to_dict()

        call = self.call.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "message": message,
                "call": call,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.message import Message
        from ..models.message_created_event_data_call import MessageCreatedEventDataCall

        d = dict(src_dict)
        message = Message.from_dict(d.pop("message"))

        call = MessageCreatedEventDataCall.from_dict(d.pop("call"))

        message_created_event_data = cls(
            message=message,
            call=call,
        )

        return message_created_event_data
