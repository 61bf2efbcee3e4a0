"""A client library for accessing Switchboard Agent Conversation and Autonomous Job API"""

from .client import AuthenticatedClient, Client

__all__ = (
    "AuthenticatedClient",
    "Client",
)
