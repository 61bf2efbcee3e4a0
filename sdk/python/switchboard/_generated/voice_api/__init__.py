"""A client library for accessing Switchboard Voice Calling API"""

from .client import AuthenticatedClient, Client

__all__ = (
    "AuthenticatedClient",
    "Client",
)
