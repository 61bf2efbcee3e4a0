from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.call_result_result_type_0_answers import CallResultResultType0Answers


T = TypeVar("T", bound="CallResultResultType0")


@_attrs_define
class CallResultResultType0:
    outcome: str
    answers: CallResultResultType0Answers
    note: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        outcome = self.outcome

        answers = self.answers.to_dict()

        note = self.note

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
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

        call_result_result_type_0.additional_properties = d
        return call_result_result_type_0

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
