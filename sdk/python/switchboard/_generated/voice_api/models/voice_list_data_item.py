from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.voice_list_data_item_gender import (
    VoiceListDataItemGender,
    check_voice_list_data_item_gender,
)
from ..models.voice_list_data_item_provider import (
    VoiceListDataItemProvider,
    check_voice_list_data_item_provider,
)

T = TypeVar("T", bound="VoiceListDataItem")


@_attrs_define
class VoiceListDataItem:
    id: str
    """ What a call's voice, an ai routing step's voice or an agent's voice names """
    name: str
    language: str
    """ The language tag the voice speaks (en-US): the relay session starts in it """
    gender: VoiceListDataItemGender
    provider: VoiceListDataItemProvider
    """ The text-to-speech provider, as ConversationRelay's ttsProvider names it """

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        language = self.language

        gender: str = self.gender

        provider: str = self.provider

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "language": language,
                "gender": gender,
                "provider": provider,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        language = d.pop("language")

        gender = check_voice_list_data_item_gender(d.pop("gender"))

        provider = check_voice_list_data_item_provider(d.pop("provider"))

        voice_list_data_item = cls(
            id=id,
            name=name,
            language=language,
            gender=gender,
            provider=provider,
        )

        return voice_list_data_item
