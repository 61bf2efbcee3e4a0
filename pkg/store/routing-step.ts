// The shape a number's routing is stored in (phone_numbers.routing) and a carried call's current step
// (calls.carrier_step): one step, which may lead on to others. pkg/voice/routing/steps.ts validates it.

/** Keys of a phone's keypad: what a menu's options are keyed by. */
export const MENU_KEYS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '#'] as const;
export type MenuKey = (typeof MENU_KEYS)[number];

export type RoutingStep =
  | { type: 'ai'; agent_id: string; greeting?: string; voice?: string }
  | {
      type: 'menu';
      prompt: string;
      options: Partial<Record<MenuKey, RoutingStep>>;
      timeout_sec: number;
      retries: number;
      fallback: RoutingStep;
    }
  | { type: 'queue'; queue_id: string }
  | { type: 'voicemail'; mailbox_id: string }
  | { type: 'transfer'; to: string }
  | { type: 'webhook'; url: string; fallback: RoutingStep };
