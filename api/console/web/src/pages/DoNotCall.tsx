import { useState } from 'react';
import { Button, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { mayAct } from '../api';
import { access, type DoNotCall as Entry } from '../api/access';
import { Loaded, useLoaded } from '../components/Loaded';
import { DataTable, when } from '../components/DataTable';
import { DangerButton, InlineForm, useChange } from '../components/Change';
import { useSignedIn } from '../session';

export function DoNotCall() {
  useDocumentTitle('Do-not-call list · Switchboard');
  const { user } = useSignedIn();
  const load = useLoaded(access.doNotCall);
  const change = useChange(load.reload);
  const [number, setNumber] = useState('');
  const [reason, setReason] = useState('');
  const remove = mayAct(user.role, 'admin');
  const add = () =>
    change.run(async () => {
      await access.addDoNotCall(number, reason);
      setNumber('');
      setReason('');
    });
  return (
    <>
      <Title order={1} mb="md">
        Do-not-call list
      </Title>
      <Text mb="md">No call is placed to these numbers.</Text>
      {mayAct(user.role, 'member') && (
        <InlineForm onSubmit={add}>
          <TextInput label="Phone number" name="number" required value={number} onChange={(e) => setNumber(e.currentTarget.value)} />
          <TextInput label="Reason" name="reason" value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
          <Button type="submit" loading={change.busy}>
            Add number
          </Button>
        </InlineForm>
      )}
      {change.alert}
      <Loaded load={load} what="the do-not-call list">
        {(numbers) => (
          <DataTable<Entry>
            caption="Do-not-call list"
            rows={numbers}
            rowKey={(n) => n.number}
            empty="No numbers on the list."
            columns={[
              { label: 'Number', cell: (n) => n.number },
              { label: 'Reason', cell: (n) => n.reason ?? '—' },
              { label: 'Added', cell: (n) => when(n.createdAt) },
              ...(remove
                ? [
                    {
                      label: 'Remove',
                      cell: (n: Entry) => (
                        <DangerButton
                          action="Remove"
                          target={n.number}
                          onClick={() => change.run(() => access.removeDoNotCall(n.number))}
                        />
                      ),
                    },
                  ]
                : []),
            ]}
          />
        )}
      </Loaded>
    </>
  );
}
