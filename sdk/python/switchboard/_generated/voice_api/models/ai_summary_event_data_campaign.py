from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="AiSummaryEventDataCampaign")


@_attrs_define
class AiSummaryEventDataCampaign:
    """Present on calls of a campaign run"""

    id: str
    run_id: str
    contact_id: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        run_id = self.run_id

        contact_id = self.contact_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "run_id": run_id,
                "contact_id": contact_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        run_id = d.pop("run_id")

        contact_id = d.pop("contact_id")

        ai_summary_event_data_campaign = cls(
            id=id,
            run_id=run_id,
            contact_id=contact_id,
        )

        return ai_summary_event_data_campaign
