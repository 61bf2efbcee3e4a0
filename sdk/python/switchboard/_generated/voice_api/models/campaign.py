from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.campaign_calling_hours import CampaignCallingHours
    from ..models.campaign_questions_item import CampaignQuestionsItem
    from ..models.campaign_schedule_type_0 import CampaignScheduleType0


T = TypeVar("T", bound="Campaign")


@_attrs_define
class Campaign:
    id: str
    name: str
    agent_id: str
    connection_id: str
    task: None | str
    greeting: None | str
    questions: list[CampaignQuestionsItem]
    outcomes: list[str] | None
    from_: None | str
    schedule: CampaignScheduleType0 | None
    timezone: str
    calling_hours: CampaignCallingHours
    max_attempts: int
    retry_after_minutes: int
    concurrency: int
    leave_voicemail: bool
    next_start_at: None | str
    archived: bool
    created_at: str
    """ RFC 3339 """
    updated_at: str
    """ RFC 3339 """

    def to_dict(self) -> dict[str, Any]:
        from ..models.campaign_schedule_type_0 import CampaignScheduleType0

        id = self.id

        name = self.name

        agent_id = self.agent_id

        connection_id = self.connection_id

        task: None | str
        task = self.task

        greeting: None | str
        greeting = self.greeting

        questions = []
        for questions_item_data in self.questions:
            questions_item = questions_item_data.to_dict()
            questions.append(questions_item)

        outcomes: list[str] | None
        if isinstance(self.outcomes, list):
            outcomes = self.outcomes

        else:
            outcomes = self.outcomes

        from_: None | str
        from_ = self.from_

        schedule: dict[str, Any] | None
        if isinstance(self.schedule, CampaignScheduleType0):
            schedule = self.schedule.to_dict()
        else:
            schedule = self.schedule

        timezone = self.timezone

        calling_hours = self.calling_hours.to_dict()

        max_attempts = self.max_attempts

        retry_after_minutes = self.retry_after_minutes

        concurrency = self.concurrency

        leave_voicemail = self.leave_voicemail

        next_start_at: None | str
        next_start_at = self.next_start_at

        archived = self.archived

        created_at = self.created_at

        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "agent_id": agent_id,
                "connection_id": connection_id,
                "task": task,
                "greeting": greeting,
                "questions": questions,
                "outcomes": outcomes,
                "from": from_,
                "schedule": schedule,
                "timezone": timezone,
                "calling_hours": calling_hours,
                "max_attempts": max_attempts,
                "retry_after_minutes": retry_after_minutes,
                "concurrency": concurrency,
                "leave_voicemail": leave_voicemail,
                "next_start_at": next_start_at,
                "archived": archived,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.campaign_calling_hours import CampaignCallingHours
        from ..models.campaign_questions_item import CampaignQuestionsItem
        from ..models.campaign_schedule_type_0 import CampaignScheduleType0

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        agent_id = d.pop("agent_id")

        connection_id = d.pop("connection_id")

        def _parse_task(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        task = _parse_task(d.pop("task"))

        def _parse_greeting(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        greeting = _parse_greeting(d.pop("greeting"))

        questions = []
        _questions = d.pop("questions")
        for questions_item_data in _questions:
            questions_item = CampaignQuestionsItem.from_dict(questions_item_data)

            questions.append(questions_item)

        def _parse_outcomes(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                outcomes_type_0 = cast(list[str], data)

                return outcomes_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        outcomes = _parse_outcomes(d.pop("outcomes"))

        def _parse_from_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        from_ = _parse_from_(d.pop("from"))

        def _parse_schedule(data: object) -> CampaignScheduleType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                schedule_type_0 = CampaignScheduleType0.from_dict(data)

                return schedule_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CampaignScheduleType0 | None, data)

        schedule = _parse_schedule(d.pop("schedule"))

        timezone = d.pop("timezone")

        calling_hours = CampaignCallingHours.from_dict(d.pop("calling_hours"))

        max_attempts = d.pop("max_attempts")

        retry_after_minutes = d.pop("retry_after_minutes")

        concurrency = d.pop("concurrency")

        leave_voicemail = d.pop("leave_voicemail")

        def _parse_next_start_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_start_at = _parse_next_start_at(d.pop("next_start_at"))

        archived = d.pop("archived")

        created_at = d.pop("created_at")

        updated_at = d.pop("updated_at")

        campaign = cls(
            id=id,
            name=name,
            agent_id=agent_id,
            connection_id=connection_id,
            task=task,
            greeting=greeting,
            questions=questions,
            outcomes=outcomes,
            from_=from_,
            schedule=schedule,
            timezone=timezone,
            calling_hours=calling_hours,
            max_attempts=max_attempts,
            retry_after_minutes=retry_after_minutes,
            concurrency=concurrency,
            leave_voicemail=leave_voicemail,
            next_start_at=next_start_at,
            archived=archived,
            created_at=created_at,
            updated_at=updated_at,
        )

        return campaign
