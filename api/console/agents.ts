// The account's agents for the console: read by everyone, changed by members through the same
// updateAgent as `switchboard admin agent update`; tool credentials are write-only. Members send the
// agent's own message webhook a `message.test`.
import { Router } from 'express';
import type { Ctx } from '../../pkg/context.js';
import { audit, inTransaction } from '../../pkg/console/audit.js';
import { Invalid } from '../../pkg/errors.js';
import { getOwnAgent, listAgents } from '../../pkg/store/agents.js';
import { agentView, keepStoredSecrets, updateAgent } from '../../pkg/agent/settings.js';
import { sendAgentTestMessage } from '../../pkg/webhooks/test-message.js';
import { defaultVoice, listVoices } from '../../pkg/voice/voices.js';
import { principalOf, requireSession } from './session.js';
import { testMessageAnswer } from './test-message.js';

export function agentsRouter(ctx: Ctx): Router {
  const r = Router();

  r.get('/agents', requireSession(ctx), async (req, res) => {
    res.json({ agents: (await listAgents(ctx, principalOf(req).tenantId)).map(agentView) });
  });

  // With the voice catalogue its calls may speak with, for the agent's form.
  r.get('/agents/:id', requireSession(ctx), async (req, res) => {
    const agent = agentView(await getOwnAgent(ctx, principalOf(req).tenantId, req.params.id as string));
    res.json({ agent, voices: listVoices(ctx.config).data, default_voice: defaultVoice(ctx.config).id });
  });

  r.patch('/agents/:id', requireSession(ctx, 'member'), async (req, res) => {
    const who = principalOf(req);
    const agent = await getOwnAgent(ctx, who.tenantId, req.params.id as string);
    const fields = Object.keys(req.body);
    if (!fields.length) throw new Invalid('Nothing to change');
    // Sharing an agent with every account is the operator's decision, not the account's.
    if ('isPublic' in req.body)
      throw new Invalid('isPublic is set by the operator', [{ path: 'isPublic', message: 'not changeable in the console' }]);
    const input = 'tools' in req.body ? { ...req.body, tools: keepStoredSecrets(ctx, agent, req.body.tools) } : req.body;
    const updated = await inTransaction(ctx, async (tx) => {
      const changed = await updateAgent(tx, agent.id, input);
      // Field names only: a tool's credentials never reach the log.
      await audit(tx, who, 'agent.updated', agent.id, { fields });
      return changed;
    });
    res.json({ agent: agentView(updated) });
  });

  // Whoever may set the agent's message webhook may try it, as `switchboard admin agent test-message-webhook` does.
  r.post('/agents/:id/test-message', requireSession(ctx, 'member'), async (req, res) => {
    const me = principalOf(req);
    const agent = await getOwnAgent(ctx, me.tenantId, req.params.id as string);
    res.json(await testMessageAnswer(ctx, me, 'agent.webhook_tested', agent.id, () => sendAgentTestMessage(ctx, agent.id)));
  });
  return r;
}
