// The <ConversationRelay> nouns of the stand-ins against documents written here from each carrier's
// documentation: what one carrier takes, the other may refuse.
import { expect } from 'chai';
import { telnyxRelayNoun, twilioRelayNoun } from './conversation-relay.js';
import { parseTwiml } from './twiml.js';

const relay = (attributes: string, children = '') =>
  parseTwiml(
    `<Response><Connect><ConversationRelay url="wss://app.example.com/relay" ${attributes}>${children}</ConversationRelay></Connect></Response>`,
  ).children[0]!.children[0]!;

describe("The stand-ins' <ConversationRelay>", () => {
  it("takes Telnyx's noun on Telnyx: a voice as Provider.Model.VoiceId, no ttsProvider, lower-case transcription providers", () => {
    const telnyx = relay(
      'language="en-US" voice="Telnyx.NaturalHD.astra" transcriptionProvider="deepgram" dtmfDetection="true" interruptible="any"',
      '<Language code="de-DE" voice="AWS.Polly.Daniel-Neural" transcriptionProvider="deepgram"/>',
    );
    expect(telnyxRelayNoun.problems(telnyx)).to.deep.equal([]);
    expect(telnyxRelayNoun.speech(telnyx)).to.deep.equal({
      ttsLanguage: 'en-US',
      transcriptionLanguage: 'en-US',
      voices: { 'en-US': 'Telnyx.NaturalHD.astra', 'de-DE': 'AWS.Polly.Daniel-Neural' },
    });
    // Twilio's own spelling of the same is refused on Telnyx, and Telnyx's on Twilio.
    expect(telnyxRelayNoun.problems(relay('ttsProvider="Amazon" voice="Joanna-Neural" transcriptionProvider="Deepgram"'))).to.deep.equal([
      '<ConversationRelay> has no attribute ttsProvider on Telnyx',
      '<ConversationRelay> transcriptionProvider="Deepgram" is none of deepgram, google, telnyx',
      '<ConversationRelay> voice="Joanna-Neural" is not Provider.Model.VoiceId',
    ]);
    expect(twilioRelayNoun.problems(telnyx)).to.deep.equal([
      '<ConversationRelay> transcriptionProvider="deepgram" is none of Google, Deepgram',
      '<ConversationRelay> voice="Telnyx.NaturalHD.astra" is not a voice name of ElevenLabs',
      '<Language> transcriptionProvider="deepgram" is none of Google, Deepgram',
      '<Language> voice="AWS.Polly.Daniel-Neural" is not a voice name of ElevenLabs',
    ]);
  });

  it('refuses a <ConversationRelay> without url, and <Language>s without a code or declared twice', () => {
    const noUrl = parseTwiml('<Response><Connect><ConversationRelay language="en-US"/></Connect></Response>').children[0]!.children[0]!;
    expect(twilioRelayNoun.problems(noUrl)).to.deep.equal(['<ConversationRelay> has no url']);
    expect(
      telnyxRelayNoun.problems(relay('', '<Language voice="Telnyx.NaturalHD.astra"/><Language code="fr-FR"/><Language code="fr-FR"/>')),
    ).to.deep.equal(['<Language> has no code', '<Language> codes repeat']);
  });
});
