from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CreateCampaignRequestQuestionsItem")


@_attrs_define
class CreateCampaignRequestQuestionsItem:
    key: str
    question: str

    def to_dict(self) -> dict[str, Any]:
        key = self.key

        question = self.question

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "key": key,
                "question": question,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        key = d.pop("key")

        question = d.pop("question")

        create_campaign_request_questions_item = cls(
            key=key,
            question=question,
        )

        return create_campaign_request_questions_item
