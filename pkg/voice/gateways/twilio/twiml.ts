// The TwiML Switchboard answers Twilio with (https://www.twilio.com/docs/voice/twiml): an answered
// call connected to the relay socket (<Connect><ConversationRelay>), or hung up.

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

export const hangUp = (): string => document('<Hangup/>');
