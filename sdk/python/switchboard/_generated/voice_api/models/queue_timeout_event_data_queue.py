from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.queue_timeout_event_data_queue_reason import (
    QueueTimeoutEventDataQueueReason,
    check_queue_timeout_event_data_queue_reason,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.queue_timeout_event_data_queue_answered_by import (
        QueueTimeoutEventDataQueueAnsweredBy,
    )


T = TypeVar("T", bound="QueueTimeoutEventDataQueue")


@_attrs_define
class QueueTimeoutEventDataQueue:
    """The queue the caller left, why, and how long it waited"""

    id: str
    name: str
    reason: QueueTimeoutEventDataQueueReason
    wait_sec: int
    answered_by: QueueTimeoutEventDataQueueAnsweredBy | Unset = UNSET
    """ With reason answered """

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        reason: str = self.reason

        wait_sec = self.wait_sec

        answered_by: dict[str, Any] | Unset = UNSET
        if not isinstance(self.answered_by, Unset):
            answered_by = self.answered_by.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "reason": reason,
                "wait_sec": wait_sec,
            }
        )
        if answered_by is not UNSET:
            field_dict["answered_by"] = answered_by

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.queue_timeout_event_data_queue_answered_by import (
            QueueTimeoutEventDataQueueAnsweredBy,
        )

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        reason = check_queue_timeout_event_data_queue_reason(d.pop("reason"))

        wait_sec = d.pop("wait_sec")

        _answered_by = d.pop("answered_by", UNSET)
        answered_by: QueueTimeoutEventDataQueueAnsweredBy | Unset
        if isinstance(_answered_by, Unset):
            answered_by = UNSET
        else:
            answered_by = QueueTimeoutEventDataQueueAnsweredBy.from_dict(_answered_by)

        queue_timeout_event_data_queue = cls(
            id=id,
            name=name,
            reason=reason,
            wait_sec=wait_sec,
            answered_by=answered_by,
        )

        return queue_timeout_event_data_queue
