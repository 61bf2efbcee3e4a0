from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.carrier_settings import CarrierSettings
from ...models.voice_error import VoiceError
from ...types import Response


def _get_kwargs(
    account_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/tenants/{account_id}/carrier".format(
            account_id=quote(str(account_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CarrierSettings | VoiceError | None:
    if response.status_code == 200:
        response_200 = CarrierSettings.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = VoiceError.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = VoiceError.from_dict(response.json())

        return response_404

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
) -> Response[CarrierSettings | VoiceError]:
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
) -> Response[CarrierSettings | VoiceError]:
    """The carrier the account's calls go through; its auth token is never shown

    Args:
        account_id (str): The account's id (tnt_…); any other answers 404

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CarrierSettings | VoiceError]
    """

    kwargs = _get_kwargs(
        account_id=account_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    account_id: str,
    *,
    client: AuthenticatedClient,
) -> CarrierSettings | VoiceError | None:
    """The carrier the account's calls go through; its auth token is never shown

    Args:
        account_id (str): The account's id (tnt_…); any other answers 404

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CarrierSettings | VoiceError
    """

    return sync_detailed(
        account_id=account_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    account_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[CarrierSettings | VoiceError]:
    """The carrier the account's calls go through; its auth token is never shown

    Args:
        account_id (str): The account's id (tnt_…); any other answers 404

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CarrierSettings | VoiceError]
    """

    kwargs = _get_kwargs(
        account_id=account_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    account_id: str,
    *,
    client: AuthenticatedClient,
) -> CarrierSettings | VoiceError | None:
    """The carrier the account's calls go through; its auth token is never shown

    Args:
        account_id (str): The account's id (tnt_…); any other answers 404

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CarrierSettings | VoiceError
    """

    return (
        await asyncio_detailed(
            account_id=account_id,
            client=client,
        )
    ).parsed
