from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.call_result_transcript_item_speaker import (
    CallResultTranscriptItemSpeaker,
    check_call_result_transcript_item_speaker,
)

T = TypeVar("T", bound="CallResultTranscriptItem")


@_attrs_define
class CallResultTranscriptItem:
    speaker: CallResultTranscriptItemSpeaker
    text: str

    def to_dict(self) -> dict[str, Any]:
        speaker: str = self.speaker

        text = self.text

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "speaker": speaker,
                "text": text,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        speaker = check_call_result_transcript_item_speaker(d.pop("speaker"))

        text = d.pop("text")

        call_result_transcript_item = cls(
            speaker=speaker,
            text=text,
        )

        return call_result_transcript_item
