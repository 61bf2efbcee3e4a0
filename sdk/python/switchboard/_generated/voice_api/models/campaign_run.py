from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.campaign_run_status import CampaignRunStatus, check_campaign_run_status

if TYPE_CHECKING:
    from ..models.campaign_run_contacts import CampaignRunContacts
    from ..models.campaign_run_outcomes import CampaignRunOutcomes


T = TypeVar("T", bound="CampaignRun")


@_attrs_define
class CampaignRun:
    id: str
    campaign_id: str
    test: bool
    status: CampaignRunStatus
    started_at: str
    """ RFC 3339 """
    ended_at: None | str
    error: None | str
    contacts: CampaignRunContacts
    outcomes: CampaignRunOutcomes
    results_not_taken: int

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        campaign_id = self.campaign_id

        test = self.test

        status: str = self.status

        started_at = self.started_at

        ended_at: None | str
        ended_at = self.ended_at

        error: None | str
        error = self.error

        contacts = self.contacts.to_dict()

        outcomes = self.outcomes.to_dict()

        results_not_taken = self.results_not_taken

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "campaign_id": campaign_id,
                "test": test,
                "status": status,
                "started_at": started_at,
                "ended_at": ended_at,
                "error": error,
                "contacts": contacts,
                "outcomes": outcomes,
                "results_not_taken": results_not_taken,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.campaign_run_contacts import CampaignRunContacts
        from ..models.campaign_run_outcomes import CampaignRunOutcomes

        d = dict(src_dict)
        id = d.pop("id")

        campaign_id = d.pop("campaign_id")

        test = d.pop("test")

        status = check_campaign_run_status(d.pop("status"))

        started_at = d.pop("started_at")

        def _parse_ended_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        ended_at = _parse_ended_at(d.pop("ended_at"))

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        contacts = CampaignRunContacts.from_dict(d.pop("contacts"))

        outcomes = CampaignRunOutcomes.from_dict(d.pop("outcomes"))

        results_not_taken = d.pop("results_not_taken")

        campaign_run = cls(
            id=id,
            campaign_id=campaign_id,
            test=test,
            status=status,
            started_at=started_at,
            ended_at=ended_at,
            error=error,
            contacts=contacts,
            outcomes=outcomes,
            results_not_taken=results_not_taken,
        )

        return campaign_run
