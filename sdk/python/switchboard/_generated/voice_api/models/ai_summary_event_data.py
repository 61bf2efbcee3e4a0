from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.ai_summary_event_data_direction import (
    AiSummaryEventDataDirection,
    check_ai_summary_event_data_direction,
)
from ..models.ai_summary_event_data_status import (
    AiSummaryEventDataStatus,
    check_ai_summary_event_data_status,
)
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.ai_summary_event_data_ai_type_0 import AiSummaryEventDataAiType0
    from ..models.ai_summary_event_data_campaign import AiSummaryEventDataCampaign
    from ..models.ai_summary_event_data_metadata import AiSummaryEventDataMetadata
    from ..models.ai_summary_event_data_queue_type_0 import AiSummaryEventDataQueueType0
    from ..models.ai_summary_event_data_result import AiSummaryEventDataResult
    from ..models.ai_summary_event_data_transcript_item import (
        AiSummaryEventDataTranscriptItem,
    )


T = TypeVar("T", bound="AiSummaryEventData")


@_attrs_define
class AiSummaryEventData:
    id: str
    tenant_id: str
    direction: AiSummaryEventDataDirection
    from_: str
    to: str
    status: AiSummaryEventDataStatus
    duration_sec: int
    created_at: str
    answered_at: None | str
    ended_at: None | str
    hangup_cause: None | str
    handler: None | str
    ai: AiSummaryEventDataAiType0 | None
    queue: AiSummaryEventDataQueueType0 | None
    """ The queue an inbound caller waits in, while it waits """
    max_duration_sec: int
    metadata: AiSummaryEventDataMetadata
    summary: str
    transcript: list[AiSummaryEventDataTranscriptItem]
    outcome: str
    campaign: AiSummaryEventDataCampaign | Unset = UNSET
    """ Present on calls of a campaign run """
    result: AiSummaryEventDataResult | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.ai_summary_event_data_ai_type_0 import AiSummaryEventDataAiType0
        from ..models.ai_summary_event_data_queue_type_0 import (
            AiSummaryEventDataQueueType0,
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

        ai: dict[str, Any] | None
        if isinstance(self.ai, AiSummaryEventDataAiType0):
            ai = self.ai.to_dict()
        else:
            ai = self.ai

        queue: dict[str, Any] | None
        if isinstance(self.queue, AiSummaryEventDataQueueType0):
            queue = self.queue.to_dict()
        else:
            queue = self.queue

        max_duration_sec = self.max_duration_sec

        metadata = self.metadata.to_dict()

        summary = self.summary

        transcript = []
        for transcript_item_data in self.transcript:
            transcript_item = transcript_item_data.to_dict()
            transcript.append(transcript_item)

        outcome = self.outcome

        campaign: dict[str, Any] | Unset = UNSET
        if not isinstance(self.campaign, Unset):
            campaign = self.campaign.to_dict()

        result: dict[str, Any] | Unset = UNSET
        if not isinstance(self.result, Unset):
            result = self.result.to_dict()

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
                "summary": summary,
                "transcript": transcript,
                "outcome": outcome,
            }
        )
        if campaign is not UNSET:
            field_dict["campaign"] = campaign
        if result is not UNSET:
            field_dict["result"] = result

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ai_summary_event_data_ai_type_0 import AiSummaryEventDataAiType0
        from ..models.ai_summary_event_data_campaign import AiSummaryEventDataCampaign
        from ..models.ai_summary_event_data_metadata import AiSummaryEventDataMetadata
        from ..models.ai_summary_event_data_queue_type_0 import (
            AiSummaryEventDataQueueType0,
        )
        from ..models.ai_summary_event_data_result import AiSummaryEventDataResult
        from ..models.ai_summary_event_data_transcript_item import (
            AiSummaryEventDataTranscriptItem,
        )

        d = dict(src_dict)
        id = d.pop("id")

        tenant_id = d.pop("tenant_id")

        direction = check_ai_summary_event_data_direction(d.pop("direction"))

        from_ = d.pop("from")

        to = d.pop("to")

        status = check_ai_summary_event_data_status(d.pop("status"))

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

        def _parse_ai(data: object) -> AiSummaryEventDataAiType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                ai_type_0 = AiSummaryEventDataAiType0.from_dict(data)

                return ai_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AiSummaryEventDataAiType0 | None, data)

        ai = _parse_ai(d.pop("ai"))

        def _parse_queue(data: object) -> AiSummaryEventDataQueueType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                queue_type_0 = AiSummaryEventDataQueueType0.from_dict(data)

                return queue_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AiSummaryEventDataQueueType0 | None, data)

        queue = _parse_queue(d.pop("queue"))

        max_duration_sec = d.pop("max_duration_sec")

        metadata = AiSummaryEventDataMetadata.from_dict(d.pop("metadata"))

        summary = d.pop("summary")

        transcript = []
        _transcript = d.pop("transcript")
        for transcript_item_data in _transcript:
            transcript_item = AiSummaryEventDataTranscriptItem.from_dict(transcript_item_data)

            transcript.append(transcript_item)

        outcome = d.pop("outcome")

        _campaign = d.pop("campaign", UNSET)
        campaign: AiSummaryEventDataCampaign | Unset
        if isinstance(_campaign, Unset):
            campaign = UNSET
        else:
            campaign = AiSummaryEventDataCampaign.from_dict(_campaign)

        _result = d.pop("result", UNSET)
        result: AiSummaryEventDataResult | Unset
        if isinstance(_result, Unset):
            result = UNSET
        else:
            result = AiSummaryEventDataResult.from_dict(_result)

        ai_summary_event_data = cls(
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
            summary=summary,
            transcript=transcript,
            outcome=outcome,
            campaign=campaign,
            result=result,
        )

        return ai_summary_event_data
