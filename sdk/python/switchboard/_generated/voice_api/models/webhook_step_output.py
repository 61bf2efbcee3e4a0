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
    from ..models.menu_step_output import MenuStepOutput
    from ..models.queue_step import QueueStep
    from ..models.transfer_step import TransferStep
    from ..models.voicemail_step import VoicemailStep


T = TypeVar("T", bound="WebhookStepOutput")


@_attrs_define
class WebhookStepOutput:
    type_: Literal["webhook"]
    url: str
    """ https, public: receives the call record signed like webhooks, answers {step} within 3 s """
    fallback: AiStep | MenuStepOutput | QueueStep | TransferStep | VoicemailStep | WebhookStepOutput

    def to_dict(self) -> dict[str, Any]:
        from ..models.ai_step import AiStep
        from ..models.menu_step_output import MenuStepOutput
        from ..models.queue_step import QueueStep
        from ..models.transfer_step import TransferStep
        from ..models.voicemail_step import VoicemailStep

        type_ = self.type_

        url = self.url

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
                "url": url,
                "fallback": fallback,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ai_step import AiStep
        from ..models.menu_step_output import MenuStepOutput
        from ..models.queue_step import QueueStep
        from ..models.transfer_step import TransferStep
        from ..models.voicemail_step import VoicemailStep

        d = dict(src_dict)
        type_ = cast(Literal["webhook"], d.pop("type"))
        if type_ != "webhook":
            raise ValueError(f"type must match const 'webhook', got '{type_}'")

        url = d.pop("url")

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

        webhook_step_output = cls(
            type_=type_,
            url=url,
            fallback=fallback,
        )

        return webhook_step_output
