from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.ai_step import AiStep
    from ..models.menu_step_output import MenuStepOutput
    from ..models.queue_step import QueueStep
    from ..models.transfer_step import TransferStep
    from ..models.voicemail_step import VoicemailStep
    from ..models.webhook_step_output import WebhookStepOutput


T = TypeVar("T", bound="MenuStepOutputOptions")


@_attrs_define
class MenuStepOutputOptions:
    """Keypad key (0-9, *, #) to the step it leads to; the caller presses the key or says it"""

    additional_properties: dict[
        str, AiStep | MenuStepOutput | QueueStep | TransferStep | VoicemailStep | WebhookStepOutput
    ] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.ai_step import AiStep
        from ..models.menu_step_output import MenuStepOutput
        from ..models.queue_step import QueueStep
        from ..models.transfer_step import TransferStep
        from ..models.voicemail_step import VoicemailStep

        field_dict: dict[str, Any] = {}
        for prop_name, prop in self.additional_properties.items():
            if (
                isinstance(prop, AiStep)
                or isinstance(prop, MenuStepOutput)
                or isinstance(prop, QueueStep)
                or isinstance(prop, VoicemailStep)
                or isinstance(prop, TransferStep)
            ):
                field_dict[prop_name] = prop.to_dict()
            else:
                field_dict[prop_name] = prop.to_dict()

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.ai_step import AiStep
        from ..models.menu_step_output import MenuStepOutput
        from ..models.queue_step import QueueStep
        from ..models.transfer_step import TransferStep
        from ..models.voicemail_step import VoicemailStep
        from ..models.webhook_step_output import WebhookStepOutput

        d = dict(src_dict)
        menu_step_output_options = cls()

        additional_properties = {}
        for prop_name, prop_dict in d.items():

            def _parse_additional_property(
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

            additional_property = _parse_additional_property(prop_dict)

            additional_properties[prop_name] = additional_property

        menu_step_output_options.additional_properties = additional_properties
        return menu_step_output_options

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(
        self, key: str
    ) -> AiStep | MenuStepOutput | QueueStep | TransferStep | VoicemailStep | WebhookStepOutput:
        return self.additional_properties[key]

    def __setitem__(
        self, key: str, value: AiStep | MenuStepOutput | QueueStep | TransferStep | VoicemailStep | WebhookStepOutput
    ) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
