#!/bin/sh
# The SDK's types generated from the OpenAPI documents (the single source) into $1, by default
# src/generated; test/sdk/typescript-generated.test.ts compares a fresh run with what is checked in.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/sdk/typescript/src/generated}
for api in agent voice; do
  "$root/node_modules/.bin/openapi-typescript" "$root/openapi/$api-api.json" --default-non-nullable false --output "$out/$api-api.ts"
done
