from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.ai_message_event_data_direction import (
    AiMessageEventDataDirection,
    check_ai_message_event_data_direction,
)
from ..models.ai_message_event_data_status import (
    AiMessageEventDataStatus,
    check_ai_message_event_data_status,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.ai_message_event_data_ai import AiMessageEventDataAi
    from ..models.ai_message_event_data_campaign import AiMessageEventDataCampaign
    from ..models.ai_message_event_data_metadata import AiMessageEventDataMetadata
    from ..models.ai_message_event_data_queue_type_0 import AiMessageEventDataQueueType0


T = TypeVar("T", bound="AiMessageEventData")


@_attrs_define
class AiMessageEventData:
    id: str
    tenant_id: str
    direction: AiMessageEventDataDirection
    from_: str
    to: str
    status: AiMessageEventDataStatus
    duration_sec: int
    created_at: str
    answered_at: None | str
    ended_at: None | str
    hangup_cause: None | str
    handler: None | str
    ai: AiMessageEventDataAi
    queue: AiMessageEventDataQueueType0 | None
    """ The queue an inbound caller waits in, while it waits """
    max_duration_sec: int
    metadata: AiMessageEventDataMetadata
    campaign: AiMessageEventDataCampaign | Unset = UNSET
    """ Present on calls of a campaign run """

    def to_dict(self) -> dict[str, Any]:
        from ..models.ai_message_event_data_queue_type_0 import (
            AiMessageEventDataQueueType0,
        )

        id = self.id

        tenant_id = self.tenant_id

        direction: str = self.direction

        from_ = self.from_

        to = self.to

        status: str = self.status

        duration_sec = self.duration_sec

        created_at = self.created_at

        answered_at: None | str
        answered_at = self.answered_at

        ended_at: None | str
        ended_at = self.ended_at

        hangup_cause: None | str
        hangup_cause = self.hangup_cause

        handler: None | str
        handler = self.handler

        ai = self.ai.to_dict()

        queue: dict[str, Any] | None
        if isinstance(self.queue, AiMessageEventDataQueueType0):
            queue = self.queue.to_dict()
        else:
            queue = self.queue

        max_duration_sec = self.max_duration_sec

        metadata = self.metadata.to_dict()

        campaign: dict[str, Any] | Unset = UNSET
        if not isinstance(self.campaign, Unset):
            campaign = self.campaign.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "tenant_id": tenant_id,
                "direction": direction,
                "from": from_,
                "to": to,
                "status": status,
                "duration_sec": duration_sec,
                "created_at": created_at,
                "answered_at": answered_at,
                "ended_at": ended_at,
                "hangup_cause": hangup_cause,
                "handler": handler,
                "ai": ai,
                "queue": queue,
                "max_duration_sec": max_duration_sec,
                "metadata": metadata,
            }
        )
        if campaign is not UNSET:
            field_dict["campaign"] = campaign

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ai_message_event_data_ai import AiMessageEventDataAi
        from ..models.ai_message_event_data_campaign import AiMessageEventDataCampaign
        from ..models.ai_message_event_data_metadata import AiMessageEventDataMetadata
        from ..models.ai_message_event_data_queue_type_0 import (
            AiMessageEventDataQueueType0,
        )

        d = dict(src_dict)
        id = d.pop("id")

        tenant_id = d.pop("tenant_id")

        direction = check_ai_message_event_data_direction(d.pop("direction"))

        from_ = d.pop("from")

        to = d.pop("to")

        status = check_ai_message_event_data_status(d.pop("status"))

        duration_sec = d.pop("duration_sec")

        created_at = d.pop("created_at")

        def _parse_answered_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        answered_at = _parse_answered_at(d.pop("answered_at"))

        def _parse_ended_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        ended_at = _parse_ended_at(d.pop("ended_at"))

        def _parse_hangup_cause(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        hangup_cause = _parse_hangup_cause(d.pop("hangup_cause"))

        def _parse_handler(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        handler = _parse_handler(d.pop("handler"))

        ai = AiMessageEventDataAi.from_dict(d.pop("ai"))

        def _parse_queue(data: object) -> AiMessageEventDataQueueType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                queue_type_0 = AiMessageEventDataQueueType0.from_dict(data)

                return queue_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AiMessageEventDataQueueType0 | None, data)

        queue = _parse_queue(d.pop("queue"))

        max_duration_sec = d.pop("max_duration_sec")

        metadata = AiMessageEventDataMetadata.from_dict(d.pop("metadata"))

        _campaign = d.pop("campaign", UNSET)
        campaign: AiMessageEventDataCampaign | Unset
        if isinstance(_campaign, Unset):
            campaign = UNSET
        else:
            campaign = AiMessageEventDataCampaign.from_dict(_campaign)

        ai_message_event_data = cls(
            id=id,
            tenant_id=tenant_id,
            direction=direction,
            from_=from_,
            to=to,
            status=status,
            duration_sec=duration_sec,
            created_at=created_at,
            answered_at=answered_at,
            ended_at=ended_at,
            hangup_cause=hangup_cause,
            handler=handler,
            ai=ai,
            queue=queue,
            max_duration_sec=max_duration_sec,
            metadata=metadata,
            campaign=campaign,
        )

        return ai_message_event_data
