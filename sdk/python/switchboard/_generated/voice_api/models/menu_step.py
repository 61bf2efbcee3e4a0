from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.ai_step import AiStep
    from ..models.menu_step_options import MenuStepOptions
    from ..models.queue_step import QueueStep
    from ..models.transfer_step import TransferStep
    from ..models.voicemail_step import VoicemailStep
    from ..models.webhook_step import WebhookStep


T = TypeVar("T", bound="MenuStep")


@_attrs_define
class MenuStep:
    type_: Literal["menu"]
    prompt: str
    """ Said to the caller, listing the options """
    options: MenuStepOptions
    """ Keypad key (0-9, *, #) to the step it leads to; the caller presses the key or says it """
    fallback: AiStep | MenuStep | QueueStep | TransferStep | VoicemailStep | WebhookStep
    timeout_sec: int | Unset = 5
    """ Seconds to wait for a key or a word """
    retries: int | Unset = 3
    """ Times the prompt is said again after no or an unknown answer """

    def to_dict(self) -> dict[str, Any]:
        from ..models.ai_step import AiStep
        from ..models.queue_step import QueueStep
        from ..models.transfer_step import TransferStep
        from ..models.voicemail_step import VoicemailStep

        type_ = self.type_

        prompt = self.prompt

        options = self.options.to_dict()

        fallback: dict[str, Any]
        if (
            isinstance(self.fallback, AiStep)
            or isinstance(self.fallback, MenuStep)
            or isinstance(self.fallback, QueueStep)
            or isinstance(self.fallback, VoicemailStep)
            or isinstance(self.fallback, TransferStep)
        ):
            fallback = self.fallback.to_dict()
        else:
            fallback = self.fallback.to_dict()

        timeout_sec = self.timeout_sec

        retries = self.retries

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "prompt": prompt,
                "options": options,
                "fallback": fallback,
            }
        )
        if timeout_sec is not UNSET:
            field_dict["timeout_sec"] = timeout_sec
        if retries is not UNSET:
            field_dict["retries"] = retries

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ai_step import AiStep
        from ..models.menu_step_options import MenuStepOptions
        from ..models.queue_step import QueueStep
        from ..models.transfer_step import TransferStep
        from ..models.voicemail_step import VoicemailStep
        from ..models.webhook_step import WebhookStep

        d = dict(src_dict)
        type_ = cast(Literal["menu"], d.pop("type"))
        if type_ != "menu":
            raise ValueError(f"type must match const 'menu', got '{type_}'")

        prompt = d.pop("prompt")

        options = MenuStepOptions.from_dict(d.pop("options"))

        def _parse_fallback(data: object) -> AiStep | MenuStep | QueueStep | TransferStep | VoicemailStep | WebhookStep:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_routing_step_type_0 = AiStep.from_dict(data)

                return componentsschemas_routing_step_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_routing_step_type_1 = MenuStep.from_dict(data)

                return componentsschemas_routing_step_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_routing_step_type_2 = QueueStep.from_dict(data)

                return componentsschemas_routing_step_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_routing_step_type_3 = VoicemailStep.from_dict(data)

                return componentsschemas_routing_step_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_routing_step_type_4 = TransferStep.from_dict(data)

                return componentsschemas_routing_step_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_routing_step_type_5 = WebhookStep.from_dict(data)

            return componentsschemas_routing_step_type_5

        fallback = _parse_fallback(d.pop("fallback"))

        timeout_sec = d.pop("timeout_sec", UNSET)

        retries = d.pop("retries", UNSET)

        menu_step = cls(
            type_=type_,
            prompt=prompt,
            options=options,
            fallback=fallback,
            timeout_sec=timeout_sec,
            retries=retries,
        )

        return menu_step
