from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.create_campaign_request_calling_hours import (
        CreateCampaignRequestCallingHours,
    )
    from ..models.create_campaign_request_questions_item import (
        CreateCampaignRequestQuestionsItem,
    )
    from ..models.create_campaign_request_schedule_type_0 import (
        CreateCampaignRequestScheduleType0,
    )


T = TypeVar("T", bound="CreateCampaignRequest")


@_attrs_define
class CreateCampaignRequest:
    name: str
    connection_id: str
    agent_id: str | Unset = UNSET
    """ agt_ id; default the account's default voice agent, else its first agent """
    task: str | Unset = UNSET
    """ The brief for the agent """
    greeting: str | Unset = UNSET
    """ Said when the person answers; {{context.x}} placeholders, a missing value renders empty """
    questions: list[CreateCampaignRequestQuestionsItem] | Unset = UNSET
    """ Answers come back in result.answers under each key """
    outcomes: list[str] | Unset = UNSET
    """ Allowed outcome names; default the agent's list """
    from_: str | Unset = UNSET
    """ One of the account's numbers (GET /v1/numbers); default the account's default number """
    schedule: CreateCampaignRequestScheduleType0 | None | Unset = UNSET
    """ Runs start at start_time on these days in this timezone; absent or null: only when started """
    timezone: str | Unset = UNSET
    """ For people without one; default the account's """
    calling_hours: CreateCampaignRequestCallingHours | Unset = UNSET
    """ In each person's own timezone; default 09:00-20:00, within 08:00-21:00 """
    max_attempts: int | Unset = UNSET
    retry_after_minutes: int | Unset = UNSET
    concurrency: int | Unset = UNSET
    leave_voicemail: bool | Unset = UNSET
    """ On the last attempt only """

    def to_dict(self) -> dict[str, Any]:
        from ..models.create_campaign_request_schedule_type_0 import (
            CreateCampaignRequestScheduleType0,
        )

        name = self.name

        connection_id = self.connection_id

        agent_id = self.agent_id

        task = self.task

        greeting = self.greeting

        questions: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.questions, Unset):
            questions = []
            for questions_item_data in self.questions:
                questions_item = questions_item_data.to_dict()
                questions.append(questions_item)

        outcomes: list[str] | Unset = UNSET
        if not isinstance(self.outcomes, Unset):
            outcomes = self.outcomes

        from_ = self.from_

        schedule: dict[str, Any] | None | Unset
        if isinstance(self.schedule, Unset):
            schedule = UNSET
        elif isinstance(self.schedule, CreateCampaignRequestScheduleType0):
            schedule = self.schedule.to_dict()
        else:
            schedule = self.schedule

        timezone = self.timezone

        calling_hours: dict[str, Any] | Unset = UNSET
        if not isinstance(self.calling_hours, Unset):
            calling_hours = self.calling_hours.to_dict()

        max_attempts = self.max_attempts

        retry_after_minutes = self.retry_after_minutes

        concurrency = self.concurrency

        leave_voicemail = self.leave_voicemail

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "connection_id": connection_id,
            }
        )
        if agent_id is not UNSET:
            field_dict["agent_id"] = agent_id
        if task is not UNSET:
            field_dict["task"] = task
        if greeting is not UNSET:
            field_dict["greeting"] = greeting
        if questions is not UNSET:
            field_dict["questions"] = questions
        if outcomes is not UNSET:
            field_dict["outcomes"] = outcomes
        if from_ is not UNSET:
            field_dict["from"] = from_
        if schedule is not UNSET:
            field_dict["schedule"] = schedule
        if timezone is not UNSET:
            field_dict["timezone"] = timezone
        if calling_hours is not UNSET:
            field_dict["calling_hours"] = calling_hours
        if max_attempts is not UNSET:
            field_dict["max_attempts"] = max_attempts
        if retry_after_minutes is not UNSET:
            field_dict["retry_after_minutes"] = retry_after_minutes
        if concurrency is not UNSET:
            field_dict["concurrency"] = concurrency
        if leave_voicemail is not UNSET:
            field_dict["leave_voicemail"] = leave_voicemail

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.create_campaign_request_calling_hours import (
            CreateCampaignRequestCallingHours,
        )
        from ..models.create_campaign_request_questions_item import (
            CreateCampaignRequestQuestionsItem,
        )
        from ..models.create_campaign_request_schedule_type_0 import (
            CreateCampaignRequestScheduleType0,
        )

        d = dict(src_dict)
        name = d.pop("name")

        connection_id = d.pop("connection_id")

        agent_id = d.pop("agent_id", UNSET)

        task = d.pop("task", UNSET)

        greeting = d.pop("greeting", UNSET)

        _questions = d.pop("questions", UNSET)
        questions: list[CreateCampaignRequestQuestionsItem] | Unset = UNSET
        if _questions is not UNSET:
            questions = []
            for questions_item_data in _questions:
                questions_item = CreateCampaignRequestQuestionsItem.from_dict(questions_item_data)

                questions.append(questions_item)

        outcomes = cast(list[str], d.pop("outcomes", UNSET))

        from_ = d.pop("from", UNSET)

        def _parse_schedule(data: object) -> CreateCampaignRequestScheduleType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                schedule_type_0 = CreateCampaignRequestScheduleType0.from_dict(data)

                return schedule_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CreateCampaignRequestScheduleType0 | None | Unset, data)

        schedule = _parse_schedule(d.pop("schedule", UNSET))

        timezone = d.pop("timezone", UNSET)

        _calling_hours = d.pop("calling_hours", UNSET)
        calling_hours: CreateCampaignRequestCallingHours | Unset
        if isinstance(_calling_hours, Unset):
            calling_hours = UNSET
        else:
            calling_hours = CreateCampaignRequestCallingHours.from_dict(_calling_hours)

        max_attempts = d.pop("max_attempts", UNSET)

        retry_after_minutes = d.pop("retry_after_minutes", UNSET)

        concurrency = d.pop("concurrency", UNSET)

        leave_voicemail = d.pop("leave_voicemail", UNSET)

        create_campaign_request = cls(
            name=name,
            connection_id=connection_id,
            agent_id=agent_id,
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
        )

        return create_campaign_request
