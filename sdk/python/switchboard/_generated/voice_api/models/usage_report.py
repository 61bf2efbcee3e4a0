from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.usage_report_group_by_item import (
    UsageReportGroupByItem,
    check_usage_report_group_by_item,
)

if TYPE_CHECKING:
    from ..models.usage_row import UsageRow


T = TypeVar("T", bound="UsageReport")


@_attrs_define
class UsageReport:
    from_: str
    to: str
    group_by: list[UsageReportGroupByItem]
    data: list[UsageRow]

    def to_dict(self) -> dict[str, Any]:
        from_ = self.from_

        to = self.to

        group_by = []
        for group_by_item_data in self.group_by:
            group_by_item: str = group_by_item_data
            group_by.append(group_by_item)

        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "from": from_,
                "to": to,
                "group_by": group_by,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.usage_row import UsageRow

        d = dict(src_dict)
        from_ = d.pop("from")

        to = d.pop("to")

        group_by = []
        _group_by = d.pop("group_by")
        for group_by_item_data in _group_by:
            group_by_item = check_usage_report_group_by_item(group_by_item_data)

            group_by.append(group_by_item)

        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = UsageRow.from_dict(data_item_data)

            data.append(data_item)

        usage_report = cls(
            from_=from_,
            to=to,
            group_by=group_by,
            data=data,
        )

        return usage_report
