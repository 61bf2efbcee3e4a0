from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SimCallRequest")


@_attrs_define
class SimCallRequest:
    to: str
    """ One of the account's numbers: the one the simulated caller rings """
    from_: str
    """ The caller's number, E.164 (or national in the account's country) """
    lines: list[str] | Unset = UNSET
    """ What the caller says, one line after each thing it hears once its presses are spent ('' stays silent); it
    hangs up after the last """
    presses: list[str] | Unset = UNSET
    """ Keys the caller presses, one entry after each thing it hears, before it says any line ('' stays silent) """

    def to_dict(self) -> dict[str, Any]:
        to = self.to

        from_ = self.from_

        lines: list[str] | Unset = UNSET
        if not isinstance(self.lines, Unset):
            lines = self.lines

        presses: list[str] | Unset = UNSET
        if not isinstance(self.presses, Unset):
            presses = self.presses

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "to": to,
                "from": from_,
            }
        )
        if lines is not UNSET:
            field_dict["lines"] = lines
        if presses is not UNSET:
            field_dict["presses"] = presses

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        to = d.pop("to")

        from_ = d.pop("from")

        lines = cast(list[str], d.pop("lines", UNSET))

        presses = cast(list[str], d.pop("presses", UNSET))

        sim_call_request = cls(
            to=to,
            from_=from_,
            lines=lines,
            presses=presses,
        )

        return sim_call_request
