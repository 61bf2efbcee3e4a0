from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.voice_error_error import VoiceErrorError


T = TypeVar("T", bound="VoiceError")


@_attrs_define
class VoiceError:
    error: VoiceErrorError

    def to_dict(self) -> dict[str, Any]:
        error = self.error.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "error": error,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.voice_error_error import VoiceErrorError

        d = dict(src_dict)
        error = VoiceErrorError.from_dict(d.pop("error"))

        voice_error = cls(
            error=error,
        )

        return voice_error
