from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.api_key_created import ApiKeyCreated
from ...models.create_api_key_request import CreateApiKeyRequest
from ...models.voice_error import VoiceError
from ...types import Response


def _get_kwargs(
    account_id: str,
    *,
    body: CreateApiKeyRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/tenants/{account_id}/api-keys".format(
            account_id=quote(str(account_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ApiKeyCreated | VoiceError | None:
    if response.status_code == 201:
        response_201 = ApiKeyCreated.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = VoiceError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = VoiceError.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = VoiceError.from_dict(response.json())

        return response_404

    if response.status_code == 413:
        response_413 = VoiceError.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = VoiceError.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = VoiceError.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = VoiceError.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = VoiceError.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = VoiceError.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ApiKeyCreated | VoiceError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    account_id: str,
    *,
    client: AuthenticatedClient,
    body: CreateApiKeyRequest,
) -> Response[ApiKeyCreated | VoiceError]:
    """Create an API key; the key is in this reply only

    Args:
        account_id (str): The account's id (tnt_…); any other answers 404
        body (CreateApiKeyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiKeyCreated | VoiceError]
    """

    kwargs = _get_kwargs(
        account_id=account_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    account_id: str,
    *,
    client: AuthenticatedClient,
    body: CreateApiKeyRequest,
) -> ApiKeyCreated | VoiceError | None:
    """Create an API key; the key is in this reply only

    Args:
        account_id (str): The account's id (tnt_…); any other answers 404
        body (CreateApiKeyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiKeyCreated | VoiceError
    """

    return sync_detailed(
        account_id=account_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    account_id: str,
    *,
    client: AuthenticatedClient,
    body: CreateApiKeyRequest,
) -> Response[ApiKeyCreated | VoiceError]:
    """Create an API key; the key is in this reply only

    Args:
        account_id (str): The account's id (tnt_…); any other answers 404
        body (CreateApiKeyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiKeyCreated | VoiceError]
    """

    kwargs = _get_kwargs(
        account_id=account_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    account_id: str,
    *,
    client: AuthenticatedClient,
    body: CreateApiKeyRequest,
) -> ApiKeyCreated | VoiceError | None:
    """Create an API key; the key is in this reply only

    Args:
        account_id (str): The account's id (tnt_…); any other answers 404
        body (CreateApiKeyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiKeyCreated | VoiceError
    """

    return (
        await asyncio_detailed(
            account_id=account_id,
            client=client,
            body=body,
        )
    ).parsed
