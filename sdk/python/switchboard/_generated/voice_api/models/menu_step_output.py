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

if TYPE_CHECKING:
    from ..models.ai_step import AiStep
    from ..models.menu_step_output_options import MenuStepOutputOptions
    from ..models.queue_step import QueueStep
    from ..models.transfer_step import TransferStep
    from ..models.voicemail_step import VoicemailStep
    from ..models.webhook_step_output import WebhookStepOutput


T = TypeVar("T", bound="MenuStepOutput")


@_attrs_define
class MenuStepOutput:
    type_: Literal["menu"]
    prompt: str
    """ Said to the caller, listing the options """
    options: MenuStepOutputOptions
    """ Keypad key (0-9, *, #) to the step it leads to; the caller presses the key or says it """
    fallback: AiStep | MenuStepOutput | QueueStep | TransferStep | VoicemailStep | WebhookStepOutput
    timeout_sec: int = 5
    """ Seconds to wait for a key or a word """
    retries: int = 3
    """ Times the prompt is said again after no or an unknown answer """

    def to_dict(self) -> dict[str, Any]:
        from ..models.ai_step import AiStep
        from ..models.queue_step import QueueStep
        from ..models.transfer_step import TransferStep
        from ..models.voicemail_step import VoicemailStep

        type_ = self.type_

        prompt = self.prompt

        options = self.options.to_dict()

        timeout_sec = self.timeout_sec

        retries = self.retries

        fallback: dict[str, Any]
        if (
            isinstance(self.fallback, AiStep)
            or isinstance(self.fallback, MenuStepOutput)
            or isinstance(self.fallback, QueueStep)
            or isinstance(self.fallback, VoicemailStep)
            or isinstance(self.fallback, TransferStep)
        ):
            fallback = self.fallback.to_dict()
        else:
            fallback = self.fallback.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "prompt": prompt,
                "options": options,
                "timeout_sec": timeout_sec,
                "retries": retries,
                "fallback": fallback,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ai_step import AiStep
        from ..models.menu_step_output_options import MenuStepOutputOptions
        from ..models.queue_step import QueueStep
        from ..models.transfer_step import TransferStep
        from ..models.voicemail_step import VoicemailStep
        from ..models.webhook_step_output import WebhookStepOutput

        d = dict(src_dict)
        type_ = cast(Literal["menu"], d.pop("type"))
        if type_ != "menu":
            raise ValueError(f"type must match const 'menu', got '{type_}'")

        prompt = d.pop("prompt")

        options = MenuStepOutputOptions.from_dict(d.pop("options"))

        timeout_sec = d.pop("timeout_sec")

        retries = d.pop("retries")

        def _parse_fallback(
            data: object,
        ) -> AiStep | MenuStepOutput | QueueStep | TransferStep | VoicemailStep | WebhookStepOutput:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_routing_step_output_type_0 = AiStep.from_dict(data)

                return componentsschemas_routing_step_output_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_routing_step_output_type_1 = MenuStepOutput.from_dict(data)

                return componentsschemas_routing_step_output_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_routing_step_output_type_2 = QueueStep.from_dict(data)

                return componentsschemas_routing_step_output_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_routing_step_output_type_3 = VoicemailStep.from_dict(data)

                return componentsschemas_routing_step_output_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_routing_step_output_type_4 = TransferStep.from_dict(data)

                return componentsschemas_routing_step_output_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_routing_step_output_type_5 = WebhookStepOutput.from_dict(data)

            return componentsschemas_routing_step_output_type_5

        fallback = _parse_fallback(d.pop("fallback"))

        menu_step_output = cls(
            type_=type_,
            prompt=prompt,
            options=options,
            timeout_sec=timeout_sec,
            retries=retries,
            fallback=fallback,
        )

        return menu_step_output
