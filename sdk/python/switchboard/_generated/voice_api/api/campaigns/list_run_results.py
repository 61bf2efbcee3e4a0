from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.campaign_result_list import CampaignResultList
from ...models.voice_error import VoiceError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["cursor"] = cursor

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/campaign-runs/{id}/results".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CampaignResultList | VoiceError | None:
    if response.status_code == 200:
        response_200 = CampaignResultList.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = VoiceError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = VoiceError.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = VoiceError.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = VoiceError.from_dict(response.json())

        return response_404

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
) -> Response[CampaignResultList | VoiceError]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,
) -> Response[CampaignResultList | VoiceError]:
    """The run's results as sent, oldest first

     Needs the campaigns and ai_agents features (403 module_off names the missing one).

    Args:
        id (str): Campaign run id (run_…)
        limit (int | Unset):  Default: 50.
        cursor (str | Unset): next_cursor of the page before

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CampaignResultList | VoiceError]
    """

    kwargs = _get_kwargs(
        id=id,
        limit=limit,
        cursor=cursor,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,
) -> CampaignResultList | VoiceError | None:
    """The run's results as sent, oldest first

     Needs the campaigns and ai_agents features (403 module_off names the missing one).

    Args:
        id (str): Campaign run id (run_…)
        limit (int | Unset):  Default: 50.
        cursor (str | Unset): next_cursor of the page before

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CampaignResultList | VoiceError
    """

    return sync_detailed(
        id=id,
        client=client,
        limit=limit,
        cursor=cursor,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,
) -> Response[CampaignResultList | VoiceError]:
    """The run's results as sent, oldest first

     Needs the campaigns and ai_agents features (403 module_off names the missing one).

    Args:
        id (str): Campaign run id (run_…)
        limit (int | Unset):  Default: 50.
        cursor (str | Unset): next_cursor of the page before

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CampaignResultList | VoiceError]
    """

    kwargs = _get_kwargs(
        id=id,
        limit=limit,
        cursor=cursor,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,
) -> CampaignResultList | VoiceError | None:
    """The run's results as sent, oldest first

     Needs the campaigns and ai_agents features (403 module_off names the missing one).

    Args:
        id (str): Campaign run id (run_…)
        limit (int | Unset):  Default: 50.
        cursor (str | Unset): next_cursor of the page before

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CampaignResultList | VoiceError
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            limit=limit,
            cursor=cursor,
        )
    ).parsed
