from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.message import Message
    from ..models.message_created_event_data_call import MessageCreatedEventDataCall


T = TypeVar("T", bound="MessageCreatedEventData")


@_attrs_define
class MessageCreatedEventData:
    message: Message
    call: MessageCreatedEventDataCall
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        message = self.message.to_dict()

        call = self.call.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
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

        message_created_event_data.additional_properties = d
        return message_created_event_data

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
