from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.trigger_list_triggers_item_status import (
    TriggerListTriggersItemStatus,
    check_trigger_list_triggers_item_status,
)

T = TypeVar("T", bound="TriggerListTriggersItem")


@_attrs_define
class TriggerListTriggersItem:
    trigger_id: UUID
    status: TriggerListTriggersItemStatus
    attempt_count: int
    result_summary: None | str
    completed_at: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        trigger_id = str(self.trigger_id)

        status: str = self.status

        attempt_count = self.attempt_count

        result_summary: None | str
        result_summary = self.result_summary

        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "triggerId": trigger_id,
                "status": status,
                "attemptCount": attempt_count,
                "resultSummary": result_summary,
                "completedAt": completed_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        trigger_id = UUID(d.pop("triggerId"))

        status = check_trigger_list_triggers_item_status(d.pop("status"))

        attempt_count = d.pop("attemptCount")

        def _parse_result_summary(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        result_summary = _parse_result_summary(d.pop("resultSummary"))

        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)

                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completedAt"))

        trigger_list_triggers_item = cls(
            trigger_id=trigger_id,
            status=status,
            attempt_count=attempt_count,
            result_summary=result_summary,
            completed_at=completed_at,
        )

        return trigger_list_triggers_item
