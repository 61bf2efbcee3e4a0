from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="AiStep")


@_attrs_define
class AiStep:
    type_: Literal["ai"]
    agent_id: str
    """ agt_ id of one of the account's agents """
    greeting: str | Unset = UNSET
    """ Said first; else the agent opens """
    voice: str | Unset = UNSET
    """ A voice id from GET /v1/voices; else the agent's voice, else the deployment's default """

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        agent_id = self.agent_id

        greeting = self.greeting

        voice = self.voice

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "agent_id": agent_id,
            }
        )
        if greeting is not UNSET:
            field_dict["greeting"] = greeting
        if voice is not UNSET:
            field_dict["voice"] = voice

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = cast(Literal["ai"], d.pop("type"))
        if type_ != "ai":
            raise ValueError(f"type must match const 'ai', got '{type_}'")

        agent_id = d.pop("agent_id")

        greeting = d.pop("greeting", UNSET)

        voice = d.pop("voice", UNSET)

        ai_step = cls(
            type_=type_,
            agent_id=agent_id,
            greeting=greeting,
            voice=voice,
        )

        return ai_step
