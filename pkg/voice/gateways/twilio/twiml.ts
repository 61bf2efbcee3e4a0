// The TwiML Switchboard answers Twilio with (https://www.twilio.com/docs/voice/twiml): an answered
// call connected to the relay socket (<Connect><ConversationRelay>), put through to another phone
// (<Dial>), hung up, or a ringing call refused (<Reject>).

const escapeXml = (s: string): string =>
  s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);

const document = (body: string): string => `<?xml version="1.0" encoding="UTF-8"?><Response>${body}</Response>`;

export interface RelayConnection {
  /** The wss:// address of the relay socket. */
  url: string;
  /** Sent back in the socket's `setup` message (customParameters). */
  parameters: Record<string, string>;
  /** Where Twilio reports the end of the relay session. */
  action: string;
}

export function connectToRelay(c: RelayConnection): string {
  const parameters = Object.entries(c.parameters)
    .map(([name, value]) => `<Parameter name="${escapeXml(name)}" value="${escapeXml(value)}"/>`)
    .join('');
  // DTMF reaches the socket; the caller's speech may interrupt the agent.
  return document(
    `<Connect action="${escapeXml(c.action)}"><ConversationRelay url="${escapeXml(c.url)}" dtmfDetection="true" interruptible="any">${parameters}</ConversationRelay></Connect>`,
  );
}

export interface DialTarget {
  to: string;
  /** The number the target sees calling: one of ours. */
  callerId: string;
  /** Seconds it rings before no-answer. */
  timeoutSec: number;
  /** Where Twilio reports how the dialled call went (DialCallStatus); without it the TwiML goes on after <Dial>. */
  action?: string;
}

/** https://www.twilio.com/docs/voice/twiml/dial */
export function dial(d: DialTarget): string {
  const action = d.action ? ` action="${escapeXml(d.action)}"` : '';
  return document(`<Dial callerId="${escapeXml(d.callerId)}" timeout="${d.timeoutSec}"${action}>${escapeXml(d.to)}</Dial>`);
}

export const hangUp = (): string => document('<Hangup/>');

/** A ringing call nobody takes, never answered (https://www.twilio.com/docs/voice/twiml/reject). */
export const reject = (): string => document('<Reject/>');
