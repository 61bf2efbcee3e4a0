from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.update_campaign_request_schedule_type_0_days_item import (
    UpdateCampaignRequestScheduleType0DaysItem,
    check_update_campaign_request_schedule_type_0_days_item,
)

T = TypeVar("T", bound="UpdateCampaignRequestScheduleType0")


@_attrs_define
class UpdateCampaignRequestScheduleType0:
    days: list[UpdateCampaignRequestScheduleType0DaysItem]
    start_time: str
    timezone: str

    def to_dict(self) -> dict[str, Any]:
        days = []
        for days_item_data in self.days:
            days_item: str = days_item_data
            days.append(days_item)

        start_time = self.start_time

        timezone = self.timezone

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "days": days,
                "start_time": start_time,
                "timezone": timezone,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        days = []
        _days = d.pop("days")
        for days_item_data in _days:
            days_item = check_update_campaign_request_schedule_type_0_days_item(days_item_data)

            days.append(days_item)

        start_time = d.pop("start_time")

        timezone = d.pop("timezone")

        update_campaign_request_schedule_type_0 = cls(
            days=days,
            start_time=start_time,
            timezone=timezone,
        )

        return update_campaign_request_schedule_type_0
