// The console's client for the account's numbers (/console/api/numbers).
import { api } from '../api';

export interface PhoneNumber {
  number: string;
  name: string;
  default: boolean;
  routing: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

export const numbersApi = {
  list: () => api.get<{ data: PhoneNumber[] }>('/numbers').then((r) => r.data),
  update: (number: string, patch: { name?: string; routing?: unknown }) =>
    api.patch<PhoneNumber>(`/numbers/${encodeURIComponent(number)}`, patch),
};
