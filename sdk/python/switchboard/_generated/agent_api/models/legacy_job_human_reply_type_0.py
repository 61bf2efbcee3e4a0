from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="LegacyJobHumanReplyType0")


@_attrs_define
class LegacyJobHumanReplyType0:
    decision: str
    reason: None | str
    at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        decision = self.decision

        reason: None | str
        reason = self.reason

        at = self.at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "decision": decision,
                "reason": reason,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        decision = d.pop("decision")

        def _parse_reason(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reason = _parse_reason(d.pop("reason"))

        at = datetime.datetime.fromisoformat(d.pop("at"))

        legacy_job_human_reply_type_0 = cls(
            decision=decision,
            reason=reason,
            at=at,
        )

        return legacy_job_human_reply_type_0
