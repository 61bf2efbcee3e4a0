from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.call_result_status import CallResultStatus, check_call_result_status

if TYPE_CHECKING:
    from ..models.call_result_metadata import CallResultMetadata
    from ..models.call_result_result_type_0 import CallResultResultType0
    from ..models.call_result_transcript_item import CallResultTranscriptItem


T = TypeVar("T", bound="CallResult")


@_attrs_define
class CallResult:
    call_id: str
    status: CallResultStatus
    final: bool
    from_: str
    to: str
    duration_sec: int
    outcome: str
    result: CallResultResultType0 | None
    summary: str
    transcript: list[CallResultTranscriptItem]
    metadata: CallResultMetadata

    def to_dict(self) -> dict[str, Any]:
        from ..models.call_result_result_type_0 import CallResultResultType0

        call_id = self.call_id

        status: str = self.status

        final = self.final

        from_ = self.from_

        to = self.to

        duration_sec = self.duration_sec

        outcome = self.outcome

        result: dict[str, Any] | None
        if isinstance(self.result, CallResultResultType0):
            result = self.result.to_dict()
        else:
            result = self.result

        summary = self.summary

        transcript = []
        for transcript_item_data in self.transcript:
            transcript_item = transcript_item_data.to_dict()
            transcript.append(transcript_item)

        metadata = self.metadata.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "call_id": call_id,
                "status": status,
                "final": final,
                "from": from_,
                "to": to,
                "duration_sec": duration_sec,
                "outcome": outcome,
                "result": result,
                "summary": summary,
                "transcript": transcript,
                "metadata": metadata,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.call_result_metadata import CallResultMetadata
        from ..models.call_result_result_type_0 import CallResultResultType0
        from ..models.call_result_transcript_item import CallResultTranscriptItem

        d = dict(src_dict)
        call_id = d.pop("call_id")

        status = check_call_result_status(d.pop("status"))

        final = d.pop("final")

        from_ = d.pop("from")

        to = d.pop("to")

        duration_sec = d.pop("duration_sec")

        outcome = d.pop("outcome")

        def _parse_result(data: object) -> CallResultResultType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                result_type_0 = CallResultResultType0.from_dict(data)

                return result_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CallResultResultType0 | None, data)

        result = _parse_result(d.pop("result"))

        summary = d.pop("summary")

        transcript = []
        _transcript = d.pop("transcript")
        for transcript_item_data in _transcript:
            transcript_item = CallResultTranscriptItem.from_dict(transcript_item_data)

            transcript.append(transcript_item)

        metadata = CallResultMetadata.from_dict(d.pop("metadata"))

        call_result = cls(
            call_id=call_id,
            status=status,
            final=final,
            from_=from_,
            to=to,
            duration_sec=duration_sec,
            outcome=outcome,
            result=result,
            summary=summary,
            transcript=transcript,
            metadata=metadata,
        )

        return call_result
