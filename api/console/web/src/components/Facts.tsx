// Named values as a description list, in columns that fold on a phone.
import type { ReactNode } from 'react';
import { SimpleGrid, Text } from '@mantine/core';

export function Facts({ facts, cols = 3 }: { facts: [string, ReactNode][]; cols?: number }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: cols }} component="dl" m={0} my="md">
      {facts.map(([name, value]) => (
        <div key={name}>
          <Text component="dt" size="sm" fw={700}>
            {name}
          </Text>
          <Text component="dd" m={0} size="sm" data-fact={name} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            {value}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}
