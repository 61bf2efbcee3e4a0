from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.carrier_settings_carrier import (
    CarrierSettingsCarrier,
    check_carrier_settings_carrier,
)
from ..models.carrier_settings_source import (
    CarrierSettingsSource,
    check_carrier_settings_source,
)

T = TypeVar("T", bound="CarrierSettings")


@_attrs_define
class CarrierSettings:
    carrier: CarrierSettingsCarrier
    """ The network the account's calls go through: a real carrier, or the simulated one """
    source: CarrierSettingsSource
    """ account: the account's own carrier account (set by an operator); deployment: the deployment's """
    account_sid: None | str
    """ The account's own carrier account SID (Twilio's AC…, Telnyx's account id); null with the deployment's """
    connection_id: None | str
    """ Telnyx: the account's own TeXML application calls are placed through; null otherwise """
    auth_token_set: bool
    """ Whether its own auth token (Telnyx: API key) is stored (sealed; never shown) """

    def to_dict(self) -> dict[str, Any]:
        carrier: str = self.carrier

        source: str = self.source

        account_sid: None | str
        account_sid = self.account_sid

        connection_id: None | str
        connection_id = self.connection_id

        auth_token_set = self.auth_token_set

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "carrier": carrier,
                "source": source,
                "account_sid": account_sid,
                "connection_id": connection_id,
                "auth_token_set": auth_token_set,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        carrier = check_carrier_settings_carrier(d.pop("carrier"))

        source = check_carrier_settings_source(d.pop("source"))

        def _parse_account_sid(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        account_sid = _parse_account_sid(d.pop("account_sid"))

        def _parse_connection_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        connection_id = _parse_connection_id(d.pop("connection_id"))

        auth_token_set = d.pop("auth_token_set")

        carrier_settings = cls(
            carrier=carrier,
            source=source,
            account_sid=account_sid,
            connection_id=connection_id,
            auth_token_set=auth_token_set,
        )

        return carrier_settings
