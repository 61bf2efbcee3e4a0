"""Contains all the data models used in inputs/outputs"""

from .cancel_trigger_request import CancelTriggerRequest
from .contact_hints import ContactHints
from .conversation import Conversation
from .conversation_created import ConversationCreated
from .conversation_metadata import ConversationMetadata
from .conversation_status import ConversationStatus
from .conversation_trigger_request import ConversationTriggerRequest
from .conversation_trigger_request_metadata import ConversationTriggerRequestMetadata
from .create_conversation_request import CreateConversationRequest
from .create_conversation_request_memory_scope import (
    CreateConversationRequestMemoryScope,
)
from .create_conversation_request_metadata import CreateConversationRequestMetadata
from .create_trigger_request import CreateTriggerRequest
from .create_trigger_request_business_keys import CreateTriggerRequestBusinessKeys
from .create_trigger_request_metadata import CreateTriggerRequestMetadata
from .custom_tool import CustomTool
from .custom_tool_auth_config_type_0 import CustomToolAuthConfigType0
from .custom_tool_auth_config_type_1 import CustomToolAuthConfigType1
from .custom_tool_auth_config_type_2 import CustomToolAuthConfigType2
from .custom_tool_auth_type import CustomToolAuthType
from .custom_tool_method import CustomToolMethod
from .custom_tool_parameters_item import CustomToolParametersItem
from .custom_tool_parameters_item_type import CustomToolParametersItemType
from .end_conversation_request import EndConversationRequest
from .end_reply import EndReply
from .error import Error
from .error_details_item import ErrorDetailsItem
from .get_conversation_include import GetConversationInclude
from .get_open_api_document_response_200 import GetOpenApiDocumentResponse200
from .handoff import Handoff
from .legacy_job import LegacyJob
from .legacy_job_business_keys import LegacyJobBusinessKeys
from .legacy_job_human_reply_type_0 import LegacyJobHumanReplyType0
from .legacy_job_metadata import LegacyJobMetadata
from .legacy_job_status import LegacyJobStatus
from .legacy_job_trigger_type import LegacyJobTriggerType
from .legacy_job_wait_payload_type_0 import LegacyJobWaitPayloadType0
from .manual_message_reply import ManualMessageReply
from .manual_message_request import ManualMessageRequest
from .manual_message_request_metadata import ManualMessageRequestMetadata
from .message_entry import MessageEntry
from .message_entry_metadata import MessageEntryMetadata
from .message_entry_role import MessageEntryRole
from .message_reply import MessageReply
from .message_reply_message import MessageReplyMessage
from .message_reply_messages_item import MessageReplyMessagesItem
from .metadata_reply import MetadataReply
from .metadata_reply_metadata import MetadataReplyMetadata
from .replace_metadata_request import ReplaceMetadataRequest
from .replace_metadata_request_metadata import ReplaceMetadataRequestMetadata
from .reply_trigger_request import ReplyTriggerRequest
from .reply_trigger_request_decision import ReplyTriggerRequestDecision
from .resume_error import ResumeError
from .send_message_request import SendMessageRequest
from .send_message_request_memory_scope import SendMessageRequestMemoryScope
from .stream_content import StreamContent
from .stream_done import StreamDone
from .stream_error import StreamError
from .stream_handoff import StreamHandoff
from .stream_new_message import StreamNewMessage
from .stream_tool import StreamTool
from .trigger import Trigger
from .trigger_accepted import TriggerAccepted
from .trigger_accepted_status import TriggerAcceptedStatus
from .trigger_business_keys import TriggerBusinessKeys
from .trigger_list import TriggerList
from .trigger_list_triggers_item import TriggerListTriggersItem
from .trigger_list_triggers_item_status import TriggerListTriggersItemStatus
from .trigger_metadata import TriggerMetadata
from .trigger_status import TriggerStatus
from .trigger_wait_payload_type_0 import TriggerWaitPayloadType0
from .usage import Usage
from .verification_requested_event import VerificationRequestedEvent
from .verification_requested_event_data import VerificationRequestedEventData
from .verify_contact_request import VerifyContactRequest
from .verify_reply import VerifyReply

__all__ = (
    "CancelTriggerRequest",
    "ContactHints",
    "Conversation",
    "ConversationCreated",
    "ConversationMetadata",
    "ConversationStatus",
    "ConversationTriggerRequest",
    "ConversationTriggerRequestMetadata",
    "CreateConversationRequest",
    "CreateConversationRequestMemoryScope",
    "CreateConversationRequestMetadata",
    "CreateTriggerRequest",
    "CreateTriggerRequestBusinessKeys",
    "CreateTriggerRequestMetadata",
    "CustomTool",
    "CustomToolAuthConfigType0",
    "CustomToolAuthConfigType1",
    "CustomToolAuthConfigType2",
    "CustomToolAuthType",
    "CustomToolMethod",
    "CustomToolParametersItem",
    "CustomToolParametersItemType",
    "EndConversationRequest",
    "EndReply",
    "Error",
    "ErrorDetailsItem",
    "GetConversationInclude",
    "GetOpenApiDocumentResponse200",
    "Handoff",
    "LegacyJob",
    "LegacyJobBusinessKeys",
    "LegacyJobHumanReplyType0",
    "LegacyJobMetadata",
    "LegacyJobStatus",
    "LegacyJobTriggerType",
    "LegacyJobWaitPayloadType0",
    "ManualMessageReply",
    "ManualMessageRequest",
    "ManualMessageRequestMetadata",
    "MessageEntry",
    "MessageEntryMetadata",
    "MessageEntryRole",
    "MessageReply",
    "MessageReplyMessage",
    "MessageReplyMessagesItem",
    "MetadataReply",
    "MetadataReplyMetadata",
    "ReplaceMetadataRequest",
    "ReplaceMetadataRequestMetadata",
    "ReplyTriggerRequest",
    "ReplyTriggerRequestDecision",
    "ResumeError",
    "SendMessageRequest",
    "SendMessageRequestMemoryScope",
    "StreamContent",
    "StreamDone",
    "StreamError",
    "StreamHandoff",
    "StreamNewMessage",
    "StreamTool",
    "Trigger",
    "TriggerAccepted",
    "TriggerAcceptedStatus",
    "TriggerBusinessKeys",
    "TriggerList",
    "TriggerListTriggersItem",
    "TriggerListTriggersItemStatus",
    "TriggerMetadata",
    "TriggerStatus",
    "TriggerWaitPayloadType0",
    "Usage",
    "VerificationRequestedEvent",
    "VerificationRequestedEventData",
    "VerifyContactRequest",
    "VerifyReply",
)
