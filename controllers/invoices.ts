// The invoices reconciler: when a pay-as-you-go company's month ends, its invoice is finalized (by
// whichever replica looks first; pkg/billing/finalize.ts makes it once). No rows are leased: the
// sweep does the work, and the claim only says when the next month ends.
import { CHANNELS } from '../pkg/db/notify.js';
import { finalizeDueInvoices, nextInvoiceDue } from '../pkg/billing/due.js';
import type { Reconciler } from './manager.js';

export const invoicesReconciler: Reconciler = {
  name: 'invoices',
  channel: CHANNELS.invoices,
  // The sweep finalizes only months that have ended.
  sweepsDueRowsOnly: true,
  sweep: finalizeDueInvoices,
  async claim(ctx) {
    return { claimed: [], nextDue: () => nextInvoiceDue(ctx) };
  },
  async heartbeat() {},
  async release() {},
};
