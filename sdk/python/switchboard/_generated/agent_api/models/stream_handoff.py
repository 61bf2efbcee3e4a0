from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="StreamHandoff")


@_attrs_define
class StreamHandoff:
    type_: Literal["handoff"]
    role_name: str
    greeting: str
    agent_id: UUID

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        role_name = self.role_name

        greeting = self.greeting

        agent_id = str(self.agent_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "roleName": role_name,
                "greeting": greeting,
                "agentId": agent_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["handoff"], d.pop("type"))
        if type_ != "handoff":
            raise ValueError(f"type must match const 'handoff', got '{type_}'")

        role_name = d.pop("roleName")

        greeting = d.pop("greeting")

        agent_id = UUID(d.pop("agentId"))

        stream_handoff = cls(
            type_=type_,
            role_name=role_name,
            greeting=greeting,
            agent_id=agent_id,
        )

        return stream_handoff
