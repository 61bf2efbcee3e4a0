from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.voice_error import VoiceError
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    group_by: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["from"] = from_

    params["to"] = to

    params["group_by"] = group_by

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/reports/api-usage.csv",
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> VoiceError | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 400:
        response_400 = VoiceError.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = VoiceError.from_dict(response.json())

        return response_401

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[VoiceError | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    group_by: str | Unset = UNSET,
) -> Response[VoiceError | str]:
    """The usage report as CSV: the same columns, with a header row

    Args:
        from_ (str | Unset): First day included, YYYY-MM-DD (UTC); default 29 days before `to`
        to (str | Unset): Last day included, YYYY-MM-DD (UTC); default today
        group_by (str | Unset): Comma-separated, any of key, app, channel, day; rows come in this
            order of columns. None: one row of totals

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[VoiceError | str]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        group_by=group_by,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    group_by: str | Unset = UNSET,
) -> VoiceError | str | None:
    """The usage report as CSV: the same columns, with a header row

    Args:
        from_ (str | Unset): First day included, YYYY-MM-DD (UTC); default 29 days before `to`
        to (str | Unset): Last day included, YYYY-MM-DD (UTC); default today
        group_by (str | Unset): Comma-separated, any of key, app, channel, day; rows come in this
            order of columns. None: one row of totals

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        VoiceError | str
    """

    return sync_detailed(
        client=client,
        from_=from_,
        to=to,
        group_by=group_by,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    group_by: str | Unset = UNSET,
) -> Response[VoiceError | str]:
    """The usage report as CSV: the same columns, with a header row

    Args:
        from_ (str | Unset): First day included, YYYY-MM-DD (UTC); default 29 days before `to`
        to (str | Unset): Last day included, YYYY-MM-DD (UTC); default today
        group_by (str | Unset): Comma-separated, any of key, app, channel, day; rows come in this
            order of columns. None: one row of totals

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[VoiceError | str]
    """

    kwargs = _get_kwargs(
        from_=from_,
        to=to,
        group_by=group_by,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    from_: str | Unset = UNSET,
    to: str | Unset = UNSET,
    group_by: str | Unset = UNSET,
) -> VoiceError | str | None:
    """The usage report as CSV: the same columns, with a header row

    Args:
        from_ (str | Unset): First day included, YYYY-MM-DD (UTC); default 29 days before `to`
        to (str | Unset): Last day included, YYYY-MM-DD (UTC); default today
        group_by (str | Unset): Comma-separated, any of key, app, channel, day; rows come in this
            order of columns. None: one row of totals

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        VoiceError | str
    """

    return (
        await asyncio_detailed(
            client=client,
            from_=from_,
            to=to,
            group_by=group_by,
        )
    ).parsed
