from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ResumeError")


@_attrs_define
class ResumeError:
    status: int
    error: str

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        error = self.error

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
                "error": error,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        status = d.pop("status")

        error = d.pop("error")

        resume_error = cls(
            status=status,
            error=error,
        )

        return resume_error
