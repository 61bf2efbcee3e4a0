"""Jobs created and waited for to their final status through ?wait=."""

from __future__ import annotations

import pytest
from conftest import Server

from switchboard import AgentApiError, AsyncSwitchboard, Switchboard


def test_a_job_waited_for_to_its_final_status(sb: Switchboard, server: Server) -> None:
    accepted = sb.jobs.create(agent_id=server.agent_id, task="Reconcile invoices", idempotency_key="sdk-job-1")
    finished = sb.jobs.wait_for(accepted.trigger_id, timeout=60)
    assert finished.status == "succeeded"
    assert finished.result_summary == "Done: Reconcile invoices"
    again = sb.jobs.create(agent_id=server.agent_id, task="Reconcile invoices", idempotency_key="sdk-job-1")
    assert again.trigger_id == accepted.trigger_id
    listed = sb.jobs.list(finished.conversation_id)
    assert [t.trigger_id for t in listed.triggers] == [accepted.trigger_id]


async def test_a_job_waited_for_async(server: Server) -> None:
    async with AsyncSwitchboard(base_url=server.url, api_key=server.api_key) as sb:
        accepted = await sb.jobs.create(agent_id=server.agent_id, task="Count the stock")
        finished = await sb.jobs.wait_for(accepted.trigger_id, timeout=60)
        assert finished.status == "succeeded"
        assert finished.result_summary == "Done: Count the stock"


def test_a_scheduled_job_cancelled_and_a_reply_refused(sb: Switchboard, server: Server) -> None:
    accepted = sb.jobs.create(agent_id=server.agent_id, task="Call back next hour", delay_minutes=60)
    assert sb.jobs.get(accepted.trigger_id).status == accepted.status
    cancelled = sb.jobs.cancel(accepted.trigger_id, reason="Not needed")
    assert cancelled.status == "cancelled"
    assert sb.jobs.wait_for(accepted.trigger_id, timeout=5).status == "cancelled"
    with pytest.raises(AgentApiError) as refused:
        sb.jobs.reply(accepted.trigger_id, decision="approved")
    assert refused.value.status == 409
