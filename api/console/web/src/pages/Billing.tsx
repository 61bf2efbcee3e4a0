// Billing: the company's billing mode; for pay-as-you-go, the running month's draft and the
// invoices and credit notes, each with its lines and its CSV and PDF. Owners and admins.
import { Link } from 'react-router';
import { Anchor, Badge, Group, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { billingApi, money, type InvoiceSummary } from '../api/billing';
import { DataTable, when } from '../components/DataTable';
import { Facts } from '../components/Facts';
import { BackTo, listOrItem } from '../components/ListOrItem';
import { Loaded, useLoaded } from '../components/Loaded';

const KIND = { invoice: 'Invoice', credit_note: 'Credit note' } as const;

function BillingList() {
  useDocumentTitle('Billing · Switchboard');
  const load = useLoaded(billingApi.billing);
  return (
    <>
      <Title order={1} mb="md">
        Billing
      </Title>
      <Loaded load={load} what="billing">
        {(b) =>
          b.billing === 'prepaid' ? (
            <Text data-testid="billing-mode">
              Prepaid: your turns spend the credits your operator tops up. Prepaid companies are not invoiced.
            </Text>
          ) : (
            <Stack>
              <Text data-testid="billing-mode">Pay as you go: invoiced each calendar month, in your company's timezone.</Text>
              {b.draft && (
                <Text>
                  This month so far ({b.draft.month}):{' '}
                  <Anchor component={Link} to="/billing?id=draft">
                    {money(b.draft.total, b.draft.currency)}, not final
                  </Anchor>
                </Text>
              )}
              <DataTable<InvoiceSummary>
                caption="Invoices and credit notes, newest first"
                rows={b.invoices}
                rowKey={(i) => i.number}
                empty="No invoices yet: the first comes when this month ends."
                columns={[
                  {
                    label: 'Number',
                    cell: (i) => (
                      <Anchor component={Link} to={`/billing?id=${encodeURIComponent(i.number)}`}>
                        {i.number}
                      </Anchor>
                    ),
                  },
                  { label: 'Kind', cell: (i) => KIND[i.kind] + (i.credits_number ? ` of ${i.credits_number}` : '') },
                  { label: 'Month', cell: (i) => i.month },
                  { label: 'Issued', cell: (i) => when(i.issued_at) },
                  { label: 'Total', cell: (i) => money(i.total, i.currency), numeric: true },
                ]}
              />
            </Stack>
          )
        }
      </Loaded>
    </>
  );
}

function InvoiceItem({ id }: { id: string }) {
  const load = useLoaded(() => billingApi.invoice(id), id);
  const name = id === 'draft' ? 'This month so far' : id;
  useDocumentTitle(`${name} · Billing · Switchboard`);
  return (
    <Stack gap="sm">
      <BackTo to="/billing" label="Back to billing" />
      <Loaded load={load} what={`invoice ${id}`}>
        {(i) => (
          <>
            <Group>
              <Title order={1}>{i.number ? `${KIND[i.kind]} ${i.number}` : `Draft invoice ${i.month}`}</Title>
              <Badge variant="light" color={i.status === 'draft' ? 'yellow' : 'green'} c="gray.9">
                {i.status}
              </Badge>
            </Group>
            <Facts
              facts={[
                ['Month', `${i.month} (${i.timezone})`],
                ['Period', `${when(i.period_start)} to ${when(i.period_end)}`],
                ['Issued', i.issued_at ? when(i.issued_at) : 'Not final: recomputed on each visit'],
                ...(i.credits_number
                  ? ([
                      ['Corrects', i.credits_number],
                      ['Reason', i.reason],
                    ] as [string, string][])
                  : []),
                ...(i.credit_notes.length
                  ? ([['Credit notes', i.credit_notes.map((n) => `${n.number} (${money(n.total, i.currency)})`).join(', ')]] as [
                      string,
                      string,
                    ][])
                  : []),
                [
                  'Total',
                  <span key="total" data-testid="invoice-total">
                    {money(i.total, i.currency)}
                  </span>,
                ],
              ]}
            />
            <DataTable
              caption={`Lines of ${i.number ?? 'the draft'}`}
              rows={i.lines}
              rowKey={(_, n) => String(n)}
              empty="No usage in this period."
              columns={[
                { label: 'Description', cell: (l) => l.description },
                { label: 'Quantity', cell: (l) => l.quantity.toLocaleString('en', { maximumFractionDigits: 6 }), numeric: true },
                { label: 'Unit price', cell: (l) => money(l.unit_price, i.currency), numeric: true },
                { label: 'Amount', cell: (l) => money(l.amount, i.currency), numeric: true },
              ]}
            />
            {i.number && (
              <Group>
                <Anchor href={billingApi.csvHref(i.number)} download>
                  Download CSV
                </Anchor>
                <Anchor href={billingApi.pdfHref(i.number)} download>
                  Download PDF
                </Anchor>
              </Group>
            )}
          </>
        )}
      </Loaded>
    </Stack>
  );
}

export const Billing = listOrItem(BillingList, InvoiceItem);
