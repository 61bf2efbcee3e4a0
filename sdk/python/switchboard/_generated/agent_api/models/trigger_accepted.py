from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..models.trigger_accepted_status import (
    TriggerAcceptedStatus,
    check_trigger_accepted_status,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="TriggerAccepted")


@_attrs_define
class TriggerAccepted:
    conversation_id: UUID
    trigger_id: UUID
    status: TriggerAcceptedStatus
    next_run_at: datetime.datetime | Unset = UNSET
    idempotent: bool | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        conversation_id = str(self.conversation_id)

        trigger_id = str(self.trigger_id)

        status: str = self.status

        next_run_at: str | Unset = UNSET
        if not isinstance(self.next_run_at, Unset):
            next_run_at = self.next_run_at.isoformat()

        idempotent = self.idempotent

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "conversationId": conversation_id,
                "triggerId": trigger_id,
                "status": status,
            }
        )
        if next_run_at is not UNSET:
            field_dict["nextRunAt"] = next_run_at
        if idempotent is not UNSET:
            field_dict["idempotent"] = idempotent

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        conversation_id = UUID(d.pop("conversationId"))

        trigger_id = UUID(d.pop("triggerId"))

        status = check_trigger_accepted_status(d.pop("status"))

        _next_run_at = d.pop("nextRunAt", UNSET)
        next_run_at: datetime.datetime | Unset
        if isinstance(_next_run_at, Unset):
            next_run_at = UNSET
        else:
            next_run_at = datetime.datetime.fromisoformat(_next_run_at)

        idempotent = d.pop("idempotent", UNSET)

        trigger_accepted = cls(
            conversation_id=conversation_id,
            trigger_id=trigger_id,
            status=status,
            next_run_at=next_run_at,
            idempotent=idempotent,
        )

        return trigger_accepted
