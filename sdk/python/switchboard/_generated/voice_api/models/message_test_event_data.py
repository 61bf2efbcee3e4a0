from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.message import Message
    from ..models.message_test_event_data_call import MessageTestEventDataCall


T = TypeVar("T", bound="MessageTestEventData")


@_attrs_define
class MessageTestEventData:
    message: Message
    call: MessageTestEventDataCall

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
        from ..models.message_test_event_data_call import MessageTestEventDataCall

        d = dict(src_dict)
        message = Message.from_dict(d.pop("message"))

        call = MessageTestEventDataCall.from_dict(d.pop("call"))

        message_test_event_data = cls(
            message=message,
            call=call,
        )

        return message_test_event_data
