from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ContactHints")


@_attrs_define
class ContactHints:
    phone: str | Unset = UNSET
    email: str | Unset = UNSET
    external_user_id: str | Unset = UNSET
    name: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        phone = self.phone

        email = self.email

        external_user_id = self.external_user_id

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if phone is not UNSET:
            field_dict["phone"] = phone
        if email is not UNSET:
            field_dict["email"] = email
        if external_user_id is not UNSET:
            field_dict["externalUserId"] = external_user_id
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        phone = d.pop("phone", UNSET)

        email = d.pop("email", UNSET)

        external_user_id = d.pop("externalUserId", UNSET)

        name = d.pop("name", UNSET)

        contact_hints = cls(
            phone=phone,
            email=email,
            external_user_id=external_user_id,
            name=name,
        )

        return contact_hints
