// Reads a TwiML document into elements, as the carrier stand-in executes it. Only XML's plain
// subset (elements, attributes, text, entities, declaration, comments); Twilio rejects a document
// that does not parse or whose root is not <Response> (error 12100).
// Sources:
//   https://www.twilio.com/docs/voice/twiml
//   https://www.twilio.com/docs/api/errors/12100
export interface TwimlElement {
  name: string;
  attributes: Record<string, string>;
  children: TwimlElement[];
  /** The element's own text (a <Say>'s words). */
  text: string;
}

export class TwimlInvalid extends Error {}

const TOKEN =
  /<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<\/([A-Za-z][\w.-]*)\s*>|<([A-Za-z][\w.-]*)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/gy;
const ATTRIBUTE = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const ENTITY = /&(?:#(\d+)|#x([0-9a-fA-F]+)|(lt|gt|amp|quot|apos));/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(ENTITY, (_, dec, hex, name) => (name ? NAMED[name] : String.fromCodePoint(dec ? Number(dec) : parseInt(hex, 16))));
}

/** The document's <Response> element; throws TwimlInvalid when it is not well-formed TwiML. */
export function parseTwiml(xml: string): TwimlElement {
  const root: TwimlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const open: TwimlElement[] = [root];
  TOKEN.lastIndex = 0;
  for (let at = 0; at < xml.length; at = TOKEN.lastIndex) {
    const match = TOKEN.exec(xml);
    if (!match) throw new TwimlInvalid(`malformed TwiML at character ${at}`);
    const [, closing, opening, attributeText, selfClosing, text] = match;
    const current = open.at(-1)!;
    if (closing) {
      if (current.name !== closing) throw new TwimlInvalid(`</${closing}> closes <${current.name}>`);
      open.pop();
    } else if (opening) {
      const attributes: Record<string, string> = {};
      for (const [, name, double, single] of (attributeText ?? '').matchAll(ATTRIBUTE)) attributes[name] = decode(double ?? single);
      const element: TwimlElement = { name: opening, attributes, children: [], text: '' };
      current.children.push(element);
      if (!selfClosing) open.push(element);
    } else if (text !== undefined) {
      current.text += decode(text).trim();
    }
  }
  if (open.length !== 1) throw new TwimlInvalid(`<${open.at(-1)!.name}> is not closed`);
  const [response, ...rest] = root.children;
  if (response?.name !== 'Response' || rest.length > 0) throw new TwimlInvalid('the document element must be a single <Response>');
  return response;
}
