from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.reply_trigger_request_decision import (
    ReplyTriggerRequestDecision,
    check_reply_trigger_request_decision,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="ReplyTriggerRequest")


@_attrs_define
class ReplyTriggerRequest:
    decision: ReplyTriggerRequestDecision
    reason: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        decision: str = self.decision

        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "decision": decision,
            }
        )
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        decision = check_reply_trigger_request_decision(d.pop("decision"))

        reason = d.pop("reason", UNSET)

        reply_trigger_request = cls(
            decision=decision,
            reason=reason,
        )

        return reply_trigger_request
