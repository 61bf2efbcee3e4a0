from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.ai_transfer_event_data_ai_transfer import AiTransferEventDataAiTransfer


T = TypeVar("T", bound="AiTransferEventDataAi")


@_attrs_define
class AiTransferEventDataAi:
    agent_id: str
    transfer: AiTransferEventDataAiTransfer
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agent_id = self.agent_id

        transfer = self.transfer.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agent_id": agent_id,
                "transfer": transfer,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ai_transfer_event_data_ai_transfer import (
            AiTransferEventDataAiTransfer,
        )

        d = dict(src_dict)
        agent_id = d.pop("agent_id")

        transfer = AiTransferEventDataAiTransfer.from_dict(d.pop("transfer"))

        ai_transfer_event_data_ai = cls(
            agent_id=agent_id,
            transfer=transfer,
        )

        ai_transfer_event_data_ai.additional_properties = d
        return ai_transfer_event_data_ai

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
