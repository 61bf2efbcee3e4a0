from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="AccountSettings")


@_attrs_define
class AccountSettings:
    account_id: str
    name: str
    events_url: None | str
    features: list[str]
    max_concurrent_calls: int
    """ Calls live at once; more answer 429 tenant_busy """
    requests_per_minute: int
    """ API requests a minute, per key and per connected app; more answer 429 rate_limited """
    calls_per_minute: int
    """ Calls placed a minute, API and MCP together; more answer 429 rate_limited """
    max_concurrent_jobs: int | None
    """ Agent jobs running at once; others wait their turn. null: no cap """
    max_calls_per_number_per_day: int
    """ Outbound calls to one number in a rolling day (API, MCP and campaigns count); a campaign skips a number at
    it (outside_limits) """
    max_calls_per_number_per_week: int
    """ The same over a rolling seven days """
    allowed_countries: list[str]
    """ ISO 3166-1 alpha-2 codes outbound calls may go to (default: the account's country); a call elsewhere answers
    422 country_not_allowed, a campaign skips the number (not_allowed) """
    default_agent_id: None | str
    """ agt_ id of the agent placed calls use when they name none """
    country: str
    """ ISO 3166-1 alpha-2: national-format numbers are read in it """

    def to_dict(self) -> dict[str, Any]:
        account_id = self.account_id

        name = self.name

        events_url: None | str
        events_url = self.events_url

        features = self.features

        max_concurrent_calls = self.max_concurrent_calls

        requests_per_minute = self.requests_per_minute

        calls_per_minute = self.calls_per_minute

        max_concurrent_jobs: int | None
        max_concurrent_jobs = self.max_concurrent_jobs

        max_calls_per_number_per_day = self.max_calls_per_number_per_day

        max_calls_per_number_per_week = self.max_calls_per_number_per_week

        allowed_countries = self.allowed_countries

        default_agent_id: None | str
        default_agent_id = self.default_agent_id

        country = self.country

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "account_id": account_id,
                "name": name,
                "events_url": events_url,
                "features": features,
                "max_concurrent_calls": max_concurrent_calls,
                "requests_per_minute": requests_per_minute,
                "calls_per_minute": calls_per_minute,
                "max_concurrent_jobs": max_concurrent_jobs,
                "max_calls_per_number_per_day": max_calls_per_number_per_day,
                "max_calls_per_number_per_week": max_calls_per_number_per_week,
                "allowed_countries": allowed_countries,
                "default_agent_id": default_agent_id,
                "country": country,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        account_id = d.pop("account_id")

        name = d.pop("name")

        def _parse_events_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        events_url = _parse_events_url(d.pop("events_url"))

        features = cast(list[str], d.pop("features"))

        max_concurrent_calls = d.pop("max_concurrent_calls")

        requests_per_minute = d.pop("requests_per_minute")

        calls_per_minute = d.pop("calls_per_minute")

        def _parse_max_concurrent_jobs(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_concurrent_jobs = _parse_max_concurrent_jobs(d.pop("max_concurrent_jobs"))

        max_calls_per_number_per_day = d.pop("max_calls_per_number_per_day")

        max_calls_per_number_per_week = d.pop("max_calls_per_number_per_week")

        allowed_countries = cast(list[str], d.pop("allowed_countries"))

        def _parse_default_agent_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        default_agent_id = _parse_default_agent_id(d.pop("default_agent_id"))

        country = d.pop("country")

        account_settings = cls(
            account_id=account_id,
            name=name,
            events_url=events_url,
            features=features,
            max_concurrent_calls=max_concurrent_calls,
            requests_per_minute=requests_per_minute,
            calls_per_minute=calls_per_minute,
            max_concurrent_jobs=max_concurrent_jobs,
            max_calls_per_number_per_day=max_calls_per_number_per_day,
            max_calls_per_number_per_week=max_calls_per_number_per_week,
            allowed_countries=allowed_countries,
            default_agent_id=default_agent_id,
            country=country,
        )

        return account_settings
