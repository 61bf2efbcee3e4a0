from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.ai_summary_event_data_result_answers import (
        AiSummaryEventDataResultAnswers,
    )


T = TypeVar("T", bound="AiSummaryEventDataResult")


@_attrs_define
class AiSummaryEventDataResult:
    outcome: str
    answers: AiSummaryEventDataResultAnswers
    note: str

    def to_dict(self) -> dict[str, Any]:
        outcome = self.outcome

        answers = self.answers.to_dict()

        note = self.note

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "outcome": outcome,
                "answers": answers,
                "note": note,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ai_summary_event_data_result_answers import (
            AiSummaryEventDataResultAnswers,
        )

        d = dict(src_dict)
        outcome = d.pop("outcome")

        answers = AiSummaryEventDataResultAnswers.from_dict(d.pop("answers"))

        note = d.pop("note")

        ai_summary_event_data_result = cls(
            outcome=outcome,
            answers=answers,
            note=note,
        )

        return ai_summary_event_data_result
