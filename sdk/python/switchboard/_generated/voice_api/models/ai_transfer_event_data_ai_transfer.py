from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="AiTransferEventDataAiTransfer")


@_attrs_define
class AiTransferEventDataAiTransfer:
    target: str
    """ E.164 """
    name: None | str
    status: str
    """ How the transfer went: dialing, answered, or the status its line ended in """

    def to_dict(self) -> dict[str, Any]:
        target = self.target

        name: None | str
        name = self.name

        status = self.status

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "target": target,
                "name": name,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        target = d.pop("target")

        def _parse_name(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        name = _parse_name(d.pop("name"))

        status = d.pop("status")

        ai_transfer_event_data_ai_transfer = cls(
            target=target,
            name=name,
            status=status,
        )

        return ai_transfer_event_data_ai_transfer
