from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="AccountSettingsRequest")


@_attrs_define
class AccountSettingsRequest:
    events_url: str | Unset = UNSET
    """ https address on the public internet that receives call.*, queue.* and ai.* events; "" clears it """

    def to_dict(self) -> dict[str, Any]:
        events_url = self.events_url

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if events_url is not UNSET:
            field_dict["events_url"] = events_url

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        events_url = d.pop("events_url", UNSET)

        account_settings_request = cls(
            events_url=events_url,
        )

        return account_settings_request
