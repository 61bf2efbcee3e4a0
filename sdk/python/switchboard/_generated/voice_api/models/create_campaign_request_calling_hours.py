from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CreateCampaignRequestCallingHours")


@_attrs_define
class CreateCampaignRequestCallingHours:
    """In each person's own timezone; default 09:00-20:00, within 08:00-21:00"""

    start: str
    end: str

    def to_dict(self) -> dict[str, Any]:
        start = self.start

        end = self.end

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "start": start,
                "end": end,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        start = d.pop("start")

        end = d.pop("end")

        create_campaign_request_calling_hours = cls(
            start=start,
            end=end,
        )

        return create_campaign_request_calling_hours
