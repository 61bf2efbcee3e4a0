from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.ai_transfer_event_data_ai_transfer import AiTransferEventDataAiTransfer


T = TypeVar("T", bound="AiTransferEventDataAi")


@_attrs_define
class AiTransferEventDataAi:
    agent_id: str
    transfer: AiTransferEventDataAiTransfer

    def to_dict(self) -> dict[str, Any]:
        agent_id = self.agent_id

        transfer = self.transfer.to_dict()

        field_dict: dict[str, Any] = {}

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

        return ai_transfer_event_data_ai
