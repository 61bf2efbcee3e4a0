from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SteerCallRequest")


@_attrs_define
class SteerCallRequest:
    instruction: str | Unset = UNSET
    """ Joins the agent's context before its next turn """
    say: str | Unset = UNSET
    """ Spoken next """

    def to_dict(self) -> dict[str, Any]:
        instruction = self.instruction

        say = self.say

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if instruction is not UNSET:
            field_dict["instruction"] = instruction
        if say is not UNSET:
            field_dict["say"] = say

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        instruction = d.pop("instruction", UNSET)

        say = d.pop("say", UNSET)

        steer_call_request = cls(
            instruction=instruction,
            say=say,
        )

        return steer_call_request
