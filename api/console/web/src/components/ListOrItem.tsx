// A page that is a list at its path and one item at `?id=`, so an item's page is a link without a route of its own.
import type { ComponentType } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Anchor } from '@mantine/core';

export function listOrItem(List: ComponentType, Item: ComponentType<{ id: string }>): ComponentType {
  return function ListOrItem() {
    const [params] = useSearchParams();
    const id = params.get('id');
    return id ? <Item id={id} /> : <List />;
  };
}

/** The way back from an item to its list. */
export function BackTo({ to, label }: { to: string; label: string }) {
  return (
    <Anchor component={Link} to={to}>
      {label}
    </Anchor>
  );
}
