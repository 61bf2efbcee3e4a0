from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.call_result_result_type_0_answers import CallResultResultType0Answers


T = TypeVar("T", bound="CallResultResultType0")


@_attrs_define
class CallResultResultType0:
    outcome: str
    answers: CallResultResultType0Answers
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
        from ..models.call_result_result_type_0_answers import (
            CallResultResultType0Answers,
        )

        d = dict(src_dict)
        outcome = d.pop("outcome")

        answers = CallResultResultType0Answers.from_dict(d.pop("answers"))

        note = d.pop("note")

        call_result_result_type_0 = cls(
            outcome=outcome,
            answers=answers,
            note=note,
        )

        return call_result_result_type_0
