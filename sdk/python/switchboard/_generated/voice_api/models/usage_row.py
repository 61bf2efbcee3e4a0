from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.usage_row_channel import UsageRowChannel, check_usage_row_channel
from ..types import UNSET, Unset

T = TypeVar("T", bound="UsageRow")


@_attrs_define
class UsageRow:
    requests: int
    """ Authenticated requests made, including those over the limit """
    requests_over_limit: int
    """ Requests refused with 429 rate_limited """
    calls_placed: int
    key_id: str | Unset = UNSET
    app: None | str | Unset = UNSET
    """ The connected app; null for requests that named none """
    channel: UsageRowChannel | Unset = UNSET
    day: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        requests = self.requests

        requests_over_limit = self.requests_over_limit

        calls_placed = self.calls_placed

        key_id = self.key_id

        app: None | str | Unset
        if isinstance(self.app, Unset):
            app = UNSET
        else:
            app = self.app

        channel: str | Unset = UNSET
        if not isinstance(self.channel, Unset):
            channel = self.channel

        day = self.day

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "requests": requests,
                "requests_over_limit": requests_over_limit,
                "calls_placed": calls_placed,
            }
        )
        if key_id is not UNSET:
            field_dict["key_id"] = key_id
        if app is not UNSET:
            field_dict["app"] = app
        if channel is not UNSET:
            field_dict["channel"] = channel
        if day is not UNSET:
            field_dict["day"] = day

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        requests = d.pop("requests")

        requests_over_limit = d.pop("requests_over_limit")

        calls_placed = d.pop("calls_placed")

        key_id = d.pop("key_id", UNSET)

        def _parse_app(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        app = _parse_app(d.pop("app", UNSET))

        _channel = d.pop("channel", UNSET)
        channel: UsageRowChannel | Unset
        if isinstance(_channel, Unset):
            channel = UNSET
        else:
            channel = check_usage_row_channel(_channel)

        day = d.pop("day", UNSET)

        usage_row = cls(
            requests=requests,
            requests_over_limit=requests_over_limit,
            calls_placed=calls_placed,
            key_id=key_id,
            app=app,
            channel=channel,
            day=day,
        )

        return usage_row
