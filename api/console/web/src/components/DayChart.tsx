// A bar chart of one number per day, with the same numbers as a table for screen readers and keyboards.
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Card, Text, Title } from '@mantine/core';
import { DataTable } from './DataTable';

export function DayChart<K extends string>({
  title,
  days,
  field,
}: {
  title: string;
  days: ({ day: string } & Record<K, number>)[];
  field: K;
}) {
  const id = `chart-${field}`;
  const total = days.reduce((sum, d) => sum + d[field], 0);
  return (
    <Card withBorder component="section" aria-labelledby={id}>
      <Title order={3} size="h5" id={id}>
        {title}
      </Title>
      <Text size="sm" data-testid={`${field}-total`}>
        {total.toLocaleString('en')} in the last {days.length} days
      </Text>
      <div aria-hidden="true">
        <ResponsiveContainer width="100%" height={160}>
          <BarChart data={days} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="day" tickFormatter={(d: string) => d.slice(5)} fontSize={11} />
            <YAxis allowDecimals={false} width={40} fontSize={11} />
            <Tooltip />
            <Bar dataKey={field} name={title} fill="#1864ab" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <details>
        <summary>{title} as a table</summary>
        <DataTable
          caption={`${title} by day (UTC)`}
          rows={days.filter((d) => d[field] !== 0)}
          rowKey={(d) => d.day}
          empty="None in this period."
          columns={[
            { label: 'Day', cell: (d) => d.day },
            { label: title, cell: (d) => d[field].toLocaleString('en'), numeric: true },
          ]}
        />
      </details>
    </Card>
  );
}
