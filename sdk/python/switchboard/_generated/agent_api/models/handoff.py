from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="Handoff")


@_attrs_define
class Handoff:
    role_name: str
    greeting: str
    agent_id: UUID

    def to_dict(self) -> dict[str, Any]:
        role_name = self.role_name

        greeting = self.greeting

        agent_id = str(self.agent_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "roleName": role_name,
                "greeting": greeting,
                "agentId": agent_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        role_name = d.pop("roleName")

        greeting = d.pop("greeting")

        agent_id = UUID(d.pop("agentId"))

        handoff = cls(
            role_name=role_name,
            greeting=greeting,
            agent_id=agent_id,
        )

        return handoff
