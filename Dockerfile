# Switchboard: one image for every command (api, controllers, migrate, admin, dev). `make image`.
ARG NODE_IMAGE=node:20-slim

# Compile the TypeScript with every dependency.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json ./
COPY cmd cmd
COPY api api
COPY controllers controllers
COPY pkg pkg
RUN npx tsc -p tsconfig.json
# The console and the interactive reference, bundled into dist/console, and the documentation site
# (docs/, its API reference from openapi/) into dist/docs-site: the image needs none of their packages.
RUN npx tsc -p api/console/web/tsconfig.json \
    && npx vite build --config api/console/web/vite.config.ts --logLevel warn
COPY docs docs
COPY openapi openapi
RUN npx tsc -p docs/tsconfig.json && npx vitepress build docs

# Production dependencies only. The optional embedded-Postgres binaries stay out: a container
# always gets DATABASE_URL.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --omit=optional --no-audit --no-fund --ignore-scripts \
    && npm cache clean --force

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    SWITCHBOARD_DATA_DIR=/tmp/switchboard
WORKDIR /app
# package.json says "type": "module", which the compiled ESM needs.
COPY package.json ./
COPY --from=deps /app/node_modules node_modules
COPY --from=build /app/dist dist
# The image's `node` user, by number so Kubernetes can check runAsNonRoot.
USER 1000:1000
EXPOSE 8080
ENTRYPOINT ["node", "dist/cmd/switchboard.js"]
CMD ["api"]
