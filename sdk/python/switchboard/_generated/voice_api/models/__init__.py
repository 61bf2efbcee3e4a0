"""Contains all the data models used in inputs/outputs"""

from .account_settings import AccountSettings
from .account_settings_request import AccountSettingsRequest
from .ai_step import AiStep
from .api_key import ApiKey
from .api_key_created import ApiKeyCreated
from .api_key_list import ApiKeyList
from .call import Call
from .call_ai_type_0 import CallAiType0
from .call_campaign import CallCampaign
from .call_direction import CallDirection
from .call_list import CallList
from .call_metadata import CallMetadata
from .call_queue_type_0 import CallQueueType0
from .call_result import CallResult
from .call_result_metadata import CallResultMetadata
from .call_result_result_type_0 import CallResultResultType0
from .call_result_result_type_0_answers import CallResultResultType0Answers
from .call_result_status import CallResultStatus
from .call_result_transcript_item import CallResultTranscriptItem
from .call_result_transcript_item_speaker import CallResultTranscriptItemSpeaker
from .call_status import CallStatus
from .campaign import Campaign
from .campaign_calling_hours import CampaignCallingHours
from .campaign_list import CampaignList
from .campaign_questions_item import CampaignQuestionsItem
from .campaign_result_list import CampaignResultList
from .campaign_result_list_data_item import CampaignResultListDataItem
from .campaign_run import CampaignRun
from .campaign_run_contacts import CampaignRunContacts
from .campaign_run_list import CampaignRunList
from .campaign_run_outcomes import CampaignRunOutcomes
from .campaign_run_status import CampaignRunStatus
from .campaign_schedule_type_0 import CampaignScheduleType0
from .campaign_schedule_type_0_days_item import CampaignScheduleType0DaysItem
from .carrier_settings import CarrierSettings
from .carrier_settings_carrier import CarrierSettingsCarrier
from .carrier_settings_source import CarrierSettingsSource
from .connection import Connection
from .connection_list import ConnectionList
from .connection_sign_in_header_type_0 import ConnectionSignInHeaderType0
from .create_api_key_request import CreateApiKeyRequest
from .create_campaign_request import CreateCampaignRequest
from .create_campaign_request_calling_hours import CreateCampaignRequestCallingHours
from .create_campaign_request_questions_item import CreateCampaignRequestQuestionsItem
from .create_campaign_request_schedule_type_0 import CreateCampaignRequestScheduleType0
from .create_campaign_request_schedule_type_0_days_item import (
    CreateCampaignRequestScheduleType0DaysItem,
)
from .create_connection_request import CreateConnectionRequest
from .create_connection_request_sign_in_header_type_0 import (
    CreateConnectionRequestSignInHeaderType0,
)
from .create_mailbox_request import CreateMailboxRequest
from .create_queue_request import CreateQueueRequest
from .create_queue_request_members_item import CreateQueueRequestMembersItem
from .get_open_api_document_response_200 import GetOpenApiDocumentResponse200
from .hangup_call_request import HangupCallRequest
from .list_calls_direction import ListCallsDirection
from .list_calls_status import ListCallsStatus
from .list_messages_status import ListMessagesStatus
from .list_messages_type import ListMessagesType
from .mailbox import Mailbox
from .mailbox_list import MailboxList
from .menu_step import MenuStep
from .menu_step_options import MenuStepOptions
from .menu_step_output import MenuStepOutput
from .menu_step_output_options import MenuStepOutputOptions
from .message import Message
from .message_details import MessageDetails
from .message_kind import MessageKind
from .message_list import MessageList
from .message_patch import MessagePatch
from .message_patch_status import MessagePatchStatus
from .message_status import MessageStatus
from .number_patch import NumberPatch
from .phone_number import PhoneNumber
from .phone_number_list import PhoneNumberList
from .place_call_request import PlaceCallRequest
from .place_call_request_context import PlaceCallRequestContext
from .place_call_request_metadata import PlaceCallRequestMetadata
from .place_call_request_questions_item import PlaceCallRequestQuestionsItem
from .queue import Queue
from .queue_list import QueueList
from .queue_members_item import QueueMembersItem
from .queue_patch import QueuePatch
from .queue_patch_members_item import QueuePatchMembersItem
from .queue_step import QueueStep
from .sim_call_request import SimCallRequest
from .start_run_request import StartRunRequest
from .steer_accepted import SteerAccepted
from .steer_call_request import SteerCallRequest
from .stop_run_request import StopRunRequest
from .transfer_step import TransferStep
from .update_campaign_request import UpdateCampaignRequest
from .update_campaign_request_calling_hours import UpdateCampaignRequestCallingHours
from .update_campaign_request_questions_item import UpdateCampaignRequestQuestionsItem
from .update_campaign_request_schedule_type_0 import UpdateCampaignRequestScheduleType0
from .update_campaign_request_schedule_type_0_days_item import (
    UpdateCampaignRequestScheduleType0DaysItem,
)
from .update_connection_request import UpdateConnectionRequest
from .update_connection_request_sign_in_header_type_0 import (
    UpdateConnectionRequestSignInHeaderType0,
)
from .usage_report import UsageReport
from .usage_report_group_by_item import UsageReportGroupByItem
from .usage_row import UsageRow
from .usage_row_channel import UsageRowChannel
from .voice_error import VoiceError
from .voice_error_error import VoiceErrorError
from .voice_list import VoiceList
from .voice_list_data_item import VoiceListDataItem
from .voice_list_data_item_gender import VoiceListDataItemGender
from .voice_list_data_item_provider import VoiceListDataItemProvider
from .voicemail_step import VoicemailStep
from .webhook_step import WebhookStep
from .webhook_step_output import WebhookStepOutput

__all__ = (
    "AccountSettings",
    "AccountSettingsRequest",
    "AiStep",
    "ApiKey",
    "ApiKeyCreated",
    "ApiKeyList",
    "Call",
    "CallAiType0",
    "CallCampaign",
    "CallDirection",
    "CallList",
    "CallMetadata",
    "CallQueueType0",
    "CallResult",
    "CallResultMetadata",
    "CallResultResultType0",
    "CallResultResultType0Answers",
    "CallResultStatus",
    "CallResultTranscriptItem",
    "CallResultTranscriptItemSpeaker",
    "CallStatus",
    "Campaign",
    "CampaignCallingHours",
    "CampaignList",
    "CampaignQuestionsItem",
    "CampaignResultList",
    "CampaignResultListDataItem",
    "CampaignRun",
    "CampaignRunContacts",
    "CampaignRunList",
    "CampaignRunOutcomes",
    "CampaignRunStatus",
    "CampaignScheduleType0",
    "CampaignScheduleType0DaysItem",
    "CarrierSettings",
    "CarrierSettingsCarrier",
    "CarrierSettingsSource",
    "Connection",
    "ConnectionList",
    "ConnectionSignInHeaderType0",
    "CreateApiKeyRequest",
    "CreateCampaignRequest",
    "CreateCampaignRequestCallingHours",
    "CreateCampaignRequestQuestionsItem",
    "CreateCampaignRequestScheduleType0",
    "CreateCampaignRequestScheduleType0DaysItem",
    "CreateConnectionRequest",
    "CreateConnectionRequestSignInHeaderType0",
    "CreateMailboxRequest",
    "CreateQueueRequest",
    "CreateQueueRequestMembersItem",
    "GetOpenApiDocumentResponse200",
    "HangupCallRequest",
    "ListCallsDirection",
    "ListCallsStatus",
    "ListMessagesStatus",
    "ListMessagesType",
    "Mailbox",
    "MailboxList",
    "MenuStep",
    "MenuStepOptions",
    "MenuStepOutput",
    "MenuStepOutputOptions",
    "Message",
    "MessageDetails",
    "MessageKind",
    "MessageList",
    "MessagePatch",
    "MessagePatchStatus",
    "MessageStatus",
    "NumberPatch",
    "PhoneNumber",
    "PhoneNumberList",
    "PlaceCallRequest",
    "PlaceCallRequestContext",
    "PlaceCallRequestMetadata",
    "PlaceCallRequestQuestionsItem",
    "Queue",
    "QueueList",
    "QueueMembersItem",
    "QueuePatch",
    "QueuePatchMembersItem",
    "QueueStep",
    "SimCallRequest",
    "StartRunRequest",
    "SteerAccepted",
    "SteerCallRequest",
    "StopRunRequest",
    "TransferStep",
    "UpdateCampaignRequest",
    "UpdateCampaignRequestCallingHours",
    "UpdateCampaignRequestQuestionsItem",
    "UpdateCampaignRequestScheduleType0",
    "UpdateCampaignRequestScheduleType0DaysItem",
    "UpdateConnectionRequest",
    "UpdateConnectionRequestSignInHeaderType0",
    "UsageReport",
    "UsageReportGroupByItem",
    "UsageRow",
    "UsageRowChannel",
    "VoiceError",
    "VoiceErrorError",
    "VoiceList",
    "VoiceListDataItem",
    "VoiceListDataItemGender",
    "VoiceListDataItemProvider",
    "VoicemailStep",
    "WebhookStep",
    "WebhookStepOutput",
)
