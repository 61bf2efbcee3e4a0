from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="StartRunRequest")


@_attrs_define
class StartRunRequest:
    test: bool | Unset = UNSET
    """ A test run: only test_number is called, once, with the first contact's context """
    test_number: str | Unset = UNSET
    """ E.164 (+14155550100), or national format read in the account's country """

    def to_dict(self) -> dict[str, Any]:
        test = self.test

        test_number = self.test_number

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if test is not UNSET:
            field_dict["test"] = test
        if test_number is not UNSET:
            field_dict["test_number"] = test_number

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        test = d.pop("test", UNSET)

        test_number = d.pop("test_number", UNSET)

        start_run_request = cls(
            test=test,
            test_number=test_number,
        )

        return start_run_request
