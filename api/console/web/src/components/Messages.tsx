// A conversation's messages: who said it, when, and tool calls by name only.
import { Badge, Card, Group, Stack, Text } from '@mantine/core';
import type { Message } from '../api/jobs';
import { when } from './DataTable';

const ROLE_LABEL: Record<string, string> = { user: 'User', assistant: 'Agent', admin: 'Manual', system: 'System', tool: 'Tool result' };

export function Messages({ messages }: { messages: Message[] }) {
  if (!messages.length) return <Text c="gray.8">No messages yet.</Text>;
  return (
    <Stack gap="xs" component="ol" p={0} style={{ listStyle: 'none' }} aria-label="Messages">
      {messages.map((m, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a transcript only grows, so a message's place is its identity.
        <Card key={i} component="li" withBorder padding="sm">
          <Group gap="xs" mb={4}>
            <Badge variant="filled" color="gray.8">
              {ROLE_LABEL[m.role] ?? m.role}
            </Badge>
            {m.metadata?.username && <Text size="sm">{m.metadata.username}</Text>}
            {m.metadata?.name && <Text size="sm">{m.metadata.name}</Text>}
            <Text size="xs" c="gray.7">
              {when(m.timestamp)}
            </Text>
          </Group>
          {m.metadata?.toolCalls && <Text size="sm">Calls {m.metadata.toolCalls.join(', ')}</Text>}
          {m.content && (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {m.content.length > 2000 ? `${m.content.slice(0, 2000)}…` : m.content}
            </Text>
          )}
        </Card>
      ))}
    </Stack>
  );
}
