import { useState } from 'react';
import { Alert, Button, Code, NativeSelect, Text, TextInput, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import type { Role } from '../api';
import { mayAct } from '../api';
import { access, type User } from '../api/access';
import { Loaded, useLoaded } from '../components/Loaded';
import { DataTable } from '../components/DataTable';
import { DangerButton, InlineForm, useChange } from '../components/Change';
import { useSignedIn } from '../session';

const ROLES: Role[] = ['owner', 'admin', 'member', 'viewer'];

export function Users() {
  useDocumentTitle('Users · Switchboard');
  const { user: me } = useSignedIn();
  const load = useLoaded(access.users);
  const change = useChange(load.reload);
  const owner = mayAct(me.role, 'owner');
  return (
    <>
      <Title order={1} mb="md">
        Users
      </Title>
      {owner && <Invite onInvited={load.reload} />}
      {change.alert}
      <Loaded load={load} what="users">
        {(users) => (
          <DataTable<User>
            caption="Users"
            rows={users}
            rowKey={(u) => u.id}
            empty="No users."
            columns={[
              { label: 'Name', cell: (u) => u.name || '—' },
              { label: 'Email', cell: (u) => u.email },
              {
                label: 'Role',
                cell: (u) =>
                  owner ? (
                    <NativeSelect
                      aria-label={`Role of ${u.email}`}
                      data={ROLES}
                      value={u.role}
                      onChange={(e) => change.run(() => access.changeRole(u.id, e.currentTarget.value as Role))}
                    />
                  ) : (
                    u.role
                  ),
              },
              { label: 'Signed in', cell: (u) => (u.password_set ? 'Yes' : 'Not yet') },
              ...(owner
                ? [
                    {
                      label: 'Remove',
                      cell: (u: User) => (
                        <DangerButton action="Remove" target={u.email} onClick={() => change.run(() => access.removeUser(u.id))} />
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

function Invite({ onInvited }: { onInvited(): void }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('member');
  // The one-time link, shown once: whoever holds it signs in as the new user.
  const [link, setLink] = useState<{ email: string; url: string }>();
  const change = useChange(onInvited);
  const invite = () =>
    change.run(async () => {
      const { user, sign_in_url } = await access.invite({ email, name, role });
      setLink({ email: user.email, url: sign_in_url });
      setEmail('');
      setName('');
    });
  return (
    <>
      <InlineForm onSubmit={invite}>
        <TextInput label="Email" type="email" name="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
        <TextInput label="Name" name="name" value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <NativeSelect label="Role" name="role" data={ROLES} value={role} onChange={(e) => setRole(e.currentTarget.value as Role)} />
        <Button type="submit" loading={change.busy}>
          Invite
        </Button>
      </InlineForm>
      {change.alert}
      {link && (
        <Alert role="status" color="green" variant="light" my="md">
          <Text fw={700}>{link.email} invited</Text>
          <Text size="sm">Send them this one-time sign-in link; it is not shown again.</Text>
          <Code block className="one-time" data-testid="invite-link">
            {link.url}
          </Code>
        </Alert>
      )}
    </>
  );
}
