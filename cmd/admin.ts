// `switchboard admin`: operators' commands. Each parses its flags, calls the domain in pkg/store,
// and prints one JSON object (--json) or a short text. Exit 2: usage or invalid input; 1: other errors.
import { writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Ctx } from '../pkg/context.js';
import { DomainError, Invalid } from '../pkg/errors.js';
import { bootstrapTenant } from '../pkg/tenants/bootstrap.js';
import { getTenant } from '../pkg/store/tenants.js';
import { createTenant, updateTenant, type TenantSettings } from '../pkg/tenants/settings.js';
import { listAgents } from '../pkg/store/agents.js';
import { agentView, createAgent, updateAgent, type AgentInput } from '../pkg/agent/settings.js';
import { createKey, listKeys, revokeKey } from '../pkg/store/keys.js';
import { balance, topUp } from '../pkg/store/credits.js';
import { addDoNotCall, listDoNotCall, removeDoNotCall } from '../pkg/store/do-not-call.js';
import { addNumber, listNumbers, removeNumber } from '../pkg/store/phone-numbers.js';
import { carrierSettings, clearCarrierAccount, setCarrierAccount } from '../pkg/voice/carrier-accounts.js';
import { requireE164 } from '../pkg/voice/numbers.js';
import { rotateWebhookSecret, webhookSecret } from '../pkg/webhooks/secret.js';
import { sendAgentTestMessage, sendTestMessage } from '../pkg/webhooks/test-message.js';
import { addUser, listUsers, type NewUser } from '../pkg/console/users.js';
import { draftInvoice, invoiceSummaryView, invoiceView } from '../pkg/billing/invoices.js';
import { issueCreditNote } from '../pkg/billing/finalize.js';
import { invoicePdf } from '../pkg/billing/documents.js';
import { formatMoney } from '../pkg/billing/money.js';
import { getInvoice } from '../pkg/store/invoices/get.js';
import { listInvoices } from '../pkg/store/invoices/list.js';
import type { Invoice } from '../pkg/store/invoices/row.js';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = { [flag: string]: string | boolean | undefined };
type Json = Record<string, unknown>;

interface Command {
  synopsis: string;
  about: string;
  options: Options;
  run(ctx: Ctx, v: Values): Promise<{ json: Json; text: string }>;
}

class UsageError extends Error {}

const str = { type: 'string' } as const;

const settingsOptions: Options = {
  timezone: str,
  features: str,
  'max-pending-jobs': str,
  'max-concurrent-jobs': str,
  'min-credits': str,
  billing: str,
  'requests-per-minute': str,
  'calls-per-minute': str,
  'allowed-countries': str,
  'max-calls-per-number-per-day': str,
  'max-calls-per-number-per-week': str,
};
const SETTINGS =
  '[--timezone TZ] [--features a,b] [--max-pending-jobs N] [--max-concurrent-jobs N|unlimited] [--min-credits N] [--billing prepaid|payg] [--requests-per-minute N] [--calls-per-minute N] [--allowed-countries US,CA|""] [--max-calls-per-number-per-day N] [--max-calls-per-number-per-week N]';
// Voice settings of an existing tenant ('' clears a URL or the default agent).
const voiceOptions: Options = {
  'events-url': str,
  'message-webhook-url': str,
  'max-concurrent-calls': str,
  'default-agent': str,
  country: str,
};
const VOICE = '[--events-url URL] [--message-webhook-url URL] [--max-concurrent-calls N] [--default-agent ID] [--country CC]';

const agentOptions: Options = {
  'system-prompt': str,
  model: str,
  tools: str,
  'handoff-roster': str,
  handoff: str,
  outcomes: str,
  'message-webhook-url': str,
  voice: str,
  verification: str,
};
const AGENT =
  '[--system-prompt TEXT] [--model MODEL] [--tools JSON] [--handoff-roster JSON] [--handoff on|off] [--outcomes a,b] [--message-webhook-url URL] [--voice ID] [--verification passcode|off]';

function required(v: Values, flag: string): string {
  const value = v[flag];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${flag} is required`);
  return value;
}

function numberFlag(v: Values, flag: string): number | undefined {
  const value = v[flag];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^-?\d+(\.\d+)?$/.test(value.trim()))
    throw new UsageError(`--${flag} must be a number, got "${value}"`);
  return Number(value);
}

function jsonFlag(v: Values, flag: string): unknown {
  const value = v[flag];
  if (typeof value !== 'string') return undefined;
  try {
    return JSON.parse(value);
  } catch (err) {
    throw new UsageError(`--${flag} is not valid JSON: ${(err as Error).message}`);
  }
}

/** The settings flags given, as domain input; the domain validates them. */
function settingsFrom(v: Values): TenantSettings {
  const s: TenantSettings = {};
  if (typeof v.name === 'string') s.name = v.name;
  if (typeof v.timezone === 'string') s.timezone = v.timezone;
  if (typeof v.features === 'string')
    s.features = v.features
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean) as TenantSettings['features'];
  s.maxPendingJobs = numberFlag(v, 'max-pending-jobs');
  s.maxConcurrentJobs = v['max-concurrent-jobs'] === 'unlimited' ? null : numberFlag(v, 'max-concurrent-jobs');
  s.minCredits = numberFlag(v, 'min-credits');
  if (typeof v.billing === 'string') s.billing = v.billing as TenantSettings['billing'];
  s.requestsPerMinute = numberFlag(v, 'requests-per-minute');
  s.callsPerMinute = numberFlag(v, 'calls-per-minute');
  // '' is back to the company's own country.
  if (typeof v['allowed-countries'] === 'string')
    s.allowedCountries = v['allowed-countries'].trim() === '' ? null : v['allowed-countries'].split(',').map((c) => c.trim());
  s.maxCallsPerNumberPerDay = numberFlag(v, 'max-calls-per-number-per-day');
  s.maxCallsPerNumberPerWeek = numberFlag(v, 'max-calls-per-number-per-week');
  if (typeof v['events-url'] === 'string') s.eventsUrl = v['events-url'];
  if (typeof v['message-webhook-url'] === 'string') s.messageWebhookUrl = v['message-webhook-url'];
  s.maxConcurrentCalls = numberFlag(v, 'max-concurrent-calls');
  if (typeof v['default-agent'] === 'string') s.defaultAgentId = v['default-agent'];
  if (typeof v.country === 'string') s.country = v.country;
  return s;
}

function agentInputFrom(v: Values): AgentInput {
  const a: AgentInput = {};
  if (typeof v.name === 'string') a.name = v.name;
  if (typeof v['system-prompt'] === 'string') a.systemPrompt = v['system-prompt'];
  // An empty model means the deployment's default.
  if (typeof v.model === 'string') a.model = v.model === '' ? null : v.model;
  a.tools = jsonFlag(v, 'tools') as AgentInput['tools'];
  a.handoffRoster = jsonFlag(v, 'handoff-roster') as AgentInput['handoffRoster'];
  if (v.handoff !== undefined) {
    if (v.handoff !== 'on' && v.handoff !== 'off') throw new UsageError(`--handoff must be on or off, got "${v.handoff}"`);
    a.handoffEnabled = v.handoff === 'on';
  }
  if (typeof v.outcomes === 'string') a.outcomes = v.outcomes.split(',').map((o) => o.trim());
  // '' clears it: the account's message webhook takes the agent's messages again.
  if (typeof v['message-webhook-url'] === 'string') a.messageWebhookUrl = v['message-webhook-url'];
  if (v.verification !== undefined) {
    if (v.verification !== 'passcode' && v.verification !== 'off')
      throw new UsageError(`--verification must be passcode or off, got "${v.verification}"`);
    a.verification = v.verification === 'passcode' ? { required: true, method: 'passcode', deliver_to: 'webhook' } : null;
  }
  // '' clears it: the deployment's default voice.
  if (typeof v.voice === 'string') a.voice = v.voice;
  return a;
}

/** The --tenant and its --number in E.164 (national numbers read in its country). */
async function tenantAndNumber(ctx: Ctx, v: Values) {
  const tenant = await getTenant(ctx, required(v, 'tenant'));
  return { tenant, number: requireE164(required(v, 'number'), tenant.country) };
}

function nothingToChange(input: object, what: string): void {
  if (Object.values(input).every((x) => x === undefined)) throw new UsageError(`nothing to update: give at least one ${what} flag`);
}

/** The carrier auth token: from the variable `envName` names, else the first line on stdin (argv shows in `ps`). */
async function authTokenInput(envName: string | undefined): Promise<string> {
  if (envName !== undefined) {
    const token = process.env[envName];
    if (!token) throw new UsageError(`the environment variable ${envName} (--auth-token-env) is not set`);
    return token.trim();
  }
  const lines = createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) {
    lines.close();
    return line.trim();
  }
  throw new UsageError('the auth token is read from stdin (one line), or give --auth-token-env NAME');
}

/** `key: value` lines; nested values as one line of JSON. */
function fields(obj: Json): string {
  const width = Math.max(...Object.keys(obj).map((k) => k.length)) + 2;
  return Object.entries(obj)
    .map(([k, v]) => `${`${k}:`.padEnd(width)}${typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
    .join('\n');
}

/** How a test message went, in a line. */
const sentText = (sent: Awaited<ReturnType<typeof sendTestMessage>>): string =>
  sent.delivered
    ? `${sent.eventId} delivered to ${sent.url} (HTTP ${sent.status})`
    : `${sent.eventId} not delivered to ${sent.url}: ${sent.error}`;

/** An invoice in a few lines: what it is, then one line per line of it, then the total. */
function invoiceText(i: Invoice): string {
  const money = (minor: number) => formatMoney(minor, i.currency);
  const head = `${i.number ?? 'draft'}  ${i.kind}  ${i.status}  ${i.month} (${i.timezone})${i.creditsNumber ? `  corrects ${i.creditsNumber}` : ''}`;
  const lines = i.lines.map((l) => `  ${l.description}  ${l.quantity} x ${money(l.unitPrice)} = ${money(l.amount)}`);
  return [head, ...lines, `  total ${money(i.total)}`].join('\n');
}

const commands: Record<string, Command> = {
  bootstrap: {
    synopsis: '--name NAME [--credits N]',
    about: 'a company with one agent and one API key; pay-as-you-go, or prepaid with N credits',
    options: { name: str, credits: str },
    async run(ctx, v) {
      const made = await bootstrapTenant(ctx, { name: required(v, 'name'), credits: numberFlag(v, 'credits') });
      return {
        json: { ...made },
        text: `Created tenant ${made.tenantId} with agent ${made.agentId}.\nAPI key ${made.keyId} (shown once, keep it now): ${made.apiKey}`,
      };
    },
  },
  'tenant create': {
    synopsis: `--name NAME ${SETTINGS}`,
    about: 'create a company',
    options: { name: str, ...settingsOptions },
    async run(ctx, v) {
      const tenant = await createTenant(ctx, { ...settingsFrom(v), name: required(v, 'name') });
      return { json: { tenantId: tenant.id, ...tenant }, text: fields({ ...tenant }) };
    },
  },
  'tenant update': {
    synopsis: `--tenant ID [--name NAME] ${SETTINGS} ${VOICE}`,
    about:
      "change a company's settings (--default-agent: answers placed calls that name no agent; --country: reads national-format numbers)",
    options: { tenant: str, name: str, ...settingsOptions, ...voiceOptions },
    async run(ctx, v) {
      const id = required(v, 'tenant');
      const settings = settingsFrom(v);
      nothingToChange(settings, 'setting');
      const tenant = await updateTenant(ctx, id, settings);
      return { json: { tenantId: tenant.id, ...tenant }, text: fields({ ...tenant }) };
    },
  },
  'tenant show': {
    synopsis: '--tenant ID',
    about: "a company's settings, credit balance and webhook secret (the console's view; API keys never see it)",
    options: { tenant: str },
    async run(ctx, v) {
      const tenant = await getTenant(ctx, required(v, 'tenant'));
      const extra = { creditBalance: await balance(ctx, tenant.id), webhookSecret: await webhookSecret(ctx, tenant.id) };
      return { json: { tenantId: tenant.id, ...tenant, ...extra }, text: fields({ ...tenant, ...extra }) };
    },
  },
  'tenant rotate-webhook-secret': {
    synopsis: '--tenant ID',
    about: 'replace the webhook secret at once: the next webhook is signed with the new one (tenant show shows it)',
    options: { tenant: str },
    async run(ctx, v) {
      const tenantId = required(v, 'tenant');
      await rotateWebhookSecret(ctx, tenantId);
      return {
        json: { tenantId, rotated: true },
        text: `Webhook secret of ${tenantId} replaced; see it with: switchboard admin tenant show --tenant ${tenantId}`,
      };
    },
  },
  'tenant test-message-webhook': {
    synopsis: '--tenant ID',
    about: 'send a signed sample message.test to the message webhook now, once, and report how it answered',
    options: { tenant: str },
    async run(ctx, v) {
      const sent = await sendTestMessage(ctx, required(v, 'tenant'));
      return { json: { ...sent }, text: sentText(sent) };
    },
  },
  'agent create': {
    synopsis: `--tenant ID --name NAME ${AGENT}`,
    about:
      "add an agent to a company (--tools: custom tools as JSON, credentials encrypted at rest; --handoff-roster: [{roleName, agentId, greeting}]; --outcomes: what it may end calls with; --message-webhook-url: receives the messages it takes instead of the company's; --voice: the voice of its calls that name none, from GET /v1/voices)",
    options: { tenant: str, name: str, ...agentOptions },
    async run(ctx, v) {
      const agent = await createAgent(ctx, required(v, 'tenant'), { ...agentInputFrom(v), name: required(v, 'name') });
      const view = agentView(agent);
      return { json: { agentId: view.id, ...view }, text: fields({ ...view }) };
    },
  },
  'agent update': {
    synopsis: `--agent ID [--name NAME] ${AGENT}`,
    about: 'change an agent (given flags only; --tools and --handoff-roster replace the whole list)',
    options: { agent: str, name: str, ...agentOptions },
    async run(ctx, v) {
      const id = required(v, 'agent');
      const input = agentInputFrom(v);
      nothingToChange(input, 'agent');
      const view = agentView(await updateAgent(ctx, id, input));
      return { json: { agentId: view.id, ...view }, text: fields({ ...view }) };
    },
  },
  'agent test-message-webhook': {
    synopsis: '--agent ID',
    about: "send a signed sample message.test to the agent's own message webhook now, once, and report how it answered",
    options: { agent: str },
    async run(ctx, v) {
      const sent = await sendAgentTestMessage(ctx, required(v, 'agent'));
      return { json: { ...sent }, text: sentText(sent) };
    },
  },
  'agent list': {
    synopsis: '--tenant ID',
    about: "a company's agents (credentials never shown)",
    options: { tenant: str },
    async run(ctx, v) {
      const tenant = await getTenant(ctx, required(v, 'tenant'));
      const agents = (await listAgents(ctx, tenant.id)).map(agentView);
      const text = agents.map((a) => `${a.id}  ${a.name}  tools: ${a.tools.length}  handoff: ${a.handoffEnabled ? 'on' : 'off'}`);
      return { json: { agents }, text: text.join('\n') || 'no agents' };
    },
  },
  'key create': {
    synopsis: '--tenant ID --name NAME',
    about: 'a new API key; the raw key is printed once',
    options: { tenant: str, name: str },
    async run(ctx, v) {
      const { key, apiKey } = await createKey(ctx, required(v, 'tenant'), required(v, 'name'));
      return { json: { keyId: key.id, apiKey, ...key }, text: `API key ${key.id} (shown once, keep it now): ${apiKey}` };
    },
  },
  'key list': {
    synopsis: '--tenant ID',
    about: "a company's API keys (never the keys themselves)",
    options: { tenant: str },
    async run(ctx, v) {
      const tenant = await getTenant(ctx, required(v, 'tenant'));
      const keys = await listKeys(ctx, tenant.id);
      const text = keys.map((k) => `${k.id}  ${k.name}  ${k.prefix}…  ${k.revoked ? `revoked ${k.revokedAt}` : 'active'}`);
      return { json: { keys }, text: text.join('\n') || 'no keys' };
    },
  },
  'key revoke': {
    synopsis: '--key ID',
    about: 'revoke an API key; effective on the next request',
    options: { key: str },
    async run(ctx, v) {
      const key = await revokeKey(ctx, required(v, 'key'));
      return { json: { keyId: key.id, ...key }, text: `API key ${key.id} revoked at ${key.revokedAt}` };
    },
  },
  'credits add': {
    synopsis: '--tenant ID --amount N',
    about: "top up a company's AI credits",
    options: { tenant: str, amount: str },
    async run(ctx, v) {
      const tenantId = required(v, 'tenant');
      const amount = numberFlag(v, 'amount');
      if (amount === undefined) throw new UsageError('--amount is required');
      const total = await topUp(ctx, tenantId, amount);
      return { json: { tenantId, balance: total }, text: `Credit balance of ${tenantId}: ${total}` };
    },
  },
  'carrier set': {
    synopsis: '--tenant ID --carrier twilio|telnyx --account-sid SID [--connection-id ID --public-key KEY] [--auth-token-env NAME]',
    about:
      "give a company its own carrier account (its calls and numbers go through it): Twilio's account SID, or Telnyx's account id with its TeXML application (--connection-id) and public key; the auth token (Telnyx: API key) is read from stdin, or from the environment variable --auth-token-env names, never from the command line",
    options: { tenant: str, carrier: str, 'account-sid': str, 'connection-id': str, 'public-key': str, 'auth-token-env': str },
    async run(ctx, v) {
      const tenantId = required(v, 'tenant');
      const settings = await setCarrierAccount(ctx, tenantId, {
        carrier: required(v, 'carrier'),
        accountSid: required(v, 'account-sid'),
        connectionId: v['connection-id'] as string | undefined,
        publicKey: v['public-key'] as string | undefined,
        authToken: await authTokenInput(v['auth-token-env'] as string | undefined),
      });
      return { json: { tenantId, ...settings }, text: fields({ tenantId, ...settings }) };
    },
  },
  'carrier show': {
    synopsis: '--tenant ID',
    about:
      "the carrier a company's calls go through: its own account's SID and whether its token is set (never the token), or the deployment's",
    options: { tenant: str },
    async run(ctx, v) {
      const tenant = await getTenant(ctx, required(v, 'tenant'));
      const settings = await carrierSettings(ctx, tenant.id);
      return { json: { tenantId: tenant.id, ...settings }, text: fields({ tenantId: tenant.id, ...settings }) };
    },
  },
  'carrier clear': {
    synopsis: '--tenant ID',
    about: "remove a company's own carrier account: its calls go through the deployment's carrier again",
    options: { tenant: str },
    async run(ctx, v) {
      const tenantId = required(v, 'tenant');
      const cleared = await clearCarrierAccount(ctx, tenantId);
      return {
        json: { tenantId, cleared },
        text: cleared ? `${tenantId} uses the deployment's carrier` : `${tenantId} had no carrier account of its own`,
      };
    },
  },
  'number add': {
    synopsis: '--tenant ID --number N [--default]',
    about: 'assign a phone number to a company (its first one, or one added --default, is the from of calls that name none)',
    options: { tenant: str, number: str, default: { type: 'boolean' } },
    async run(ctx, v) {
      const { tenant, number } = await tenantAndNumber(ctx, v);
      const added = await addNumber(ctx, tenant.id, number, v.default === true);
      return { json: { ...added }, text: `${added.number} is a number of ${tenant.id}${added.isDefault ? ' (its default)' : ''}` };
    },
  },
  'number remove': {
    synopsis: '--tenant ID --number N',
    about: 'take a number from a company; its calls are no longer answered (a removed default passes to its oldest number)',
    options: { tenant: str, number: str },
    async run(ctx, v) {
      const { tenant, number } = await tenantAndNumber(ctx, v);
      const removed = await removeNumber(ctx, tenant.id, number);
      return {
        json: { tenantId: tenant.id, number, removed },
        text: removed ? `${number} removed` : `${number} was not a number of ${tenant.id}`,
      };
    },
  },
  'number list': {
    synopsis: '--tenant ID',
    about: "a company's phone numbers and their routing",
    options: { tenant: str },
    async run(ctx, v) {
      const tenant = await getTenant(ctx, required(v, 'tenant'));
      const numbers = await listNumbers(ctx, tenant.id);
      const text = numbers.map(
        (n) => `${n.number}  ${n.isDefault ? 'default  ' : ''}${n.name}  ${n.routing ? n.routing.type : 'not routed'}`,
      );
      return { json: { tenantId: tenant.id, numbers }, text: text.join('\n') || 'no numbers' };
    },
  },
  'user add': {
    synopsis: '--tenant ID --email EMAIL [--name NAME] [--role owner|admin|member|viewer]',
    about:
      'add a console user to a company (default role owner: its first owner) and print their one-time sign-in link (good for 24 hours)',
    options: { tenant: str, email: str, name: str, role: str },
    async run(ctx, v) {
      const input = { email: required(v, 'email'), name: v.name, role: v.role ?? 'owner' } as NewUser;
      const { user, signInUrl } = await addUser(ctx, { tenantId: required(v, 'tenant'), user: null }, input);
      return {
        json: { ...user, signInUrl },
        text: `Console user ${user.id} (${user.email}, ${user.role}) added to ${user.tenantId}.\nOne-time sign-in link (shown once, good for 24 hours): ${signInUrl}`,
      };
    },
  },
  'user list': {
    synopsis: '--tenant ID',
    about: "a company's console users and their roles",
    options: { tenant: str },
    async run(ctx, v) {
      const tenant = await getTenant(ctx, required(v, 'tenant'));
      const users = await listUsers(ctx, tenant.id);
      const text = users.map((u) => `${u.id}  ${u.email}  ${u.role}${u.passwordSet ? '' : '  (no password yet)'}`);
      return { json: { tenantId: tenant.id, users }, text: text.join('\n') || 'no users' };
    },
  },
  'invoice list': {
    synopsis: '--tenant ID',
    about: "a pay-as-you-go company's finalized invoices and credit notes, newest first",
    options: { tenant: str },
    async run(ctx, v) {
      const tenant = await getTenant(ctx, required(v, 'tenant'));
      const invoices = (await listInvoices(ctx, tenant.id)).map(invoiceSummaryView);
      const text = invoices.map((i) => `${i.number}  ${i.kind}  ${i.month}  ${formatMoney(i.total, i.currency)}  issued ${i.issued_at}`);
      return { json: { tenantId: tenant.id, billing: tenant.billing, invoices }, text: text.join('\n') || 'no invoices' };
    },
  },
  'invoice show': {
    synopsis: '--invoice NUMBER | --tenant ID',
    about: "an invoice or credit note with its lines (amounts in minor units); --tenant: the running month's draft, so far",
    options: { invoice: str, tenant: str },
    async run(ctx, v) {
      const invoice = typeof v.invoice === 'string' ? await getInvoice(ctx, v.invoice) : await draftInvoice(ctx, required(v, 'tenant'));
      return { json: invoiceView(invoice), text: invoiceText(invoice) };
    },
  },
  'invoice pdf': {
    synopsis: '--invoice NUMBER --out FILE',
    about: 'write an invoice or credit note as a PDF to FILE',
    options: { invoice: str, out: str },
    async run(ctx, v) {
      const invoice = await getInvoice(ctx, required(v, 'invoice'));
      const out = required(v, 'out');
      const tenant = await getTenant(ctx, invoice.tenantId);
      const pdf = await invoicePdf(invoice, tenant.name);
      await writeFile(out, pdf);
      return {
        json: { number: invoice.number, file: out, bytes: pdf.length },
        text: `${invoice.number} written to ${out} (${pdf.length} bytes)`,
      };
    },
  },
  'invoice credit-note': {
    synopsis: '--invoice NUMBER --amount MINOR_UNITS --reason TEXT',
    about:
      'correct a finalized invoice: a credit note of the amount (integer minor units, at most what is left of its total) referencing it',
    options: { invoice: str, amount: str, reason: str },
    async run(ctx, v) {
      const amount = numberFlag(v, 'amount');
      if (amount === undefined) throw new UsageError('--amount is required');
      const note = await issueCreditNote(ctx, required(v, 'invoice'), { amount, reason: required(v, 'reason') });
      return { json: invoiceView(note), text: invoiceText(note) };
    },
  },
  'dnc add': {
    synopsis: '--tenant ID --number N [--reason TEXT]',
    about: "put a number on a company's do-not-call list (E.164, or national in the company's country)",
    options: { tenant: str, number: str, reason: str },
    async run(ctx, v) {
      const tenant = await getTenant(ctx, required(v, 'tenant'));
      const entry = await addDoNotCall(
        ctx,
        tenant.id,
        requireE164(required(v, 'number'), tenant.country),
        (v.reason as string | undefined) ?? null,
      );
      return { json: { tenantId: tenant.id, ...entry }, text: `${entry.number} is on the do-not-call list of ${tenant.id}` };
    },
  },
  'dnc remove': {
    synopsis: '--tenant ID --number N',
    about: "take a number off a company's do-not-call list",
    options: { tenant: str, number: str },
    async run(ctx, v) {
      const { tenant, number } = await tenantAndNumber(ctx, v);
      const removed = await removeDoNotCall(ctx, tenant.id, number);
      return { json: { tenantId: tenant.id, number, removed }, text: removed ? `${number} removed` : `${number} was not on the list` };
    },
  },
  'dnc list': {
    synopsis: '--tenant ID',
    about: "a company's do-not-call list",
    options: { tenant: str },
    async run(ctx, v) {
      const tenant = await getTenant(ctx, required(v, 'tenant'));
      const numbers = await listDoNotCall(ctx, tenant.id);
      return {
        json: { tenantId: tenant.id, numbers },
        text: numbers.map((n) => `${n.number}  ${n.reason ?? ''}`).join('\n') || 'no numbers',
      };
    },
  },
};

const usage = (name: string) => `switchboard admin ${name} ${commands[name]!.synopsis} [--json]`;

const HELP = `usage: switchboard admin <command> [flags] [--json]

${Object.entries(commands)
  .map(([name, c]) => `  ${name} ${c.synopsis}\n      ${c.about}`)
  .join('\n')}

--json prints exactly one JSON object on stdout. Errors are one line on stderr; exit 2 for usage or
invalid values, 1 otherwise (for example an unknown tenant).`;

/** `args`: what follows `switchboard admin`. Returns the exit code. */
export async function runAdmin(ctx: Ctx, args: string[]): Promise<number> {
  if (args[0] === '--help' || args[0] === '-h' || args[0] === 'help') {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (args.length === 0) return fail(2, 'missing command (see switchboard admin --help)');
  const words = args[0] === 'bootstrap' ? 1 : 2;
  const name = args.slice(0, words).join(' ');
  const command = commands[name];
  if (!command) return fail(2, `unknown admin command "${name}" (see switchboard admin --help)`);
  try {
    const { values } = parseArgs({
      args: args.slice(words),
      options: { ...command.options, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    });
    if (values.help) {
      process.stdout.write(`usage: ${usage(name)}\n  ${command.about}\n`);
      return 0;
    }
    const out = await command.run(ctx, values as Values);
    process.stdout.write(values.json ? `${JSON.stringify(out.json, null, 2)}\n` : `${out.text}\n`);
    return 0;
  } catch (err) {
    const e = err as Error & { code?: string };
    if (err instanceof UsageError || e.code?.startsWith('ERR_PARSE_ARGS')) return fail(2, `${e.message} (usage: ${usage(name)})`);
    if (err instanceof Invalid) return fail(2, e.message);
    if (err instanceof DomainError) return fail(1, e.message);
    return fail(1, `${name} failed: ${e.message}`);
  }
}

function fail(code: number, message: string): number {
  process.stderr.write(`error: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
  return code;
}
