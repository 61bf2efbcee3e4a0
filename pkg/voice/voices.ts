// The deployment's voice catalogue (GET /v1/voices): the voices a call may name.
interface Voice {
  id: string;
  name: string;
  language: string;
  gender: 'female' | 'male' | 'neutral';
  provider: string;
}

export const VOICES: readonly Voice[] = [
  { id: 'sim-ava', name: 'Ava', language: 'en-US', gender: 'female', provider: 'sim' },
  { id: 'sim-noah', name: 'Noah', language: 'en-US', gender: 'male', provider: 'sim' },
  { id: 'sim-olivia', name: 'Olivia', language: 'en-GB', gender: 'female', provider: 'sim' },
  { id: 'sim-leon', name: 'Leon', language: 'de-DE', gender: 'male', provider: 'sim' },
  { id: 'sim-camille', name: 'Camille', language: 'fr-FR', gender: 'female', provider: 'sim' },
  { id: 'sim-river', name: 'River', language: 'en-US', gender: 'neutral', provider: 'sim' },
];

export const isVoice = (id: string): boolean => VOICES.some((v) => v.id === id);
