# Switchboard. `make run` starts everything on embedded defaults; `make test` runs the whole suite.
SHELL := /bin/bash
TLS_DIR := .switchboard/test-tls
MOCHA := NODE_EXTRA_CA_CERTS=$(TLS_DIR)/cert.pem npx mocha

.PHONY: install build docs lint format run test bench drill openapi migrate clean manifests chart-check image e2e

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

install: node_modules/.installed

# The server (tsc), then the console and the interactive API reference (api/console/web, type-checked,
# bundled by Vite into dist/console), then the documentation site.
build: install
	@rm -rf dist
	npx tsc -p tsconfig.json
	npx tsc -p api/console/web/tsconfig.json
	npx vite build --config api/console/web/vite.config.ts --logLevel warn
	$(MAKE) --no-print-directory docs

# The documentation site (docs/, VitePress) into dist/docs-site, served at /docs; fails on a broken link.
docs: install
	npx tsc -p docs/tsconfig.json
	npx vitepress build docs

run: build
	node dist/cmd/switchboard.js dev

# Formatting and lint (Biome, biome.json): `make test` fails on either; `make format` fixes the layout.
lint: install
	npx biome ci --error-on-warnings --colors=off .

format: install
	npx biome format --write .

migrate: build
	node dist/cmd/switchboard.js migrate

# The suite runs against DATABASE_URL / REDIS_URL when set, else against a Postgres and a Redis that
# test/support/setup.sh starts (after installing what the suite needs from Debian's packages).
test: build lint
	@node dist/test/support/make-cert.js $(TLS_DIR)
	test/support/setup.sh env $(MOCHA)

bench: build
	@node dist/test/support/make-cert.js $(TLS_DIR)
	NODE_EXTRA_CA_CERTS=$(TLS_DIR)/cert.pem node dist/test/bench/run.js && NODE_EXTRA_CA_CERTS=$(TLS_DIR)/cert.pem node dist/test/bench/jobs.js && NODE_EXTRA_CA_CERTS=$(TLS_DIR)/cert.pem node dist/test/bench/fairness.js && NODE_EXTRA_CA_CERTS=$(TLS_DIR)/cert.pem node dist/test/bench/voice.js && NODE_EXTRA_CA_CERTS=$(TLS_DIR)/cert.pem node dist/test/bench/campaigns.js && NODE_EXTRA_CA_CERTS=$(TLS_DIR)/cert.pem node dist/test/bench/inbound.js && NODE_EXTRA_CA_CERTS=$(TLS_DIR)/cert.pem node dist/test/bench/relay.js && NODE_EXTRA_CA_CERTS=$(TLS_DIR)/cert.pem node dist/test/bench/webhooks.js && NODE_EXTRA_CA_CERTS=$(TLS_DIR)/cert.pem node dist/test/bench/inflight.js && NODE_EXTRA_CA_CERTS=$(TLS_DIR)/cert.pem node dist/test/bench/wakes.js && NODE_EXTRA_CA_CERTS=$(TLS_DIR)/cert.pem node dist/test/bench/cost.js

# Drills on the real app, Postgres and Redis, each writing its figures as a section of test/drill/results.md:
# the fuzz of every endpoint of the Agent API, the Voice API and MCP (FUZZ_COUNT requests, default 20,000),
# then the fault drills (test/drill/faults.ts; DRILL_ONLY=controllers,calls,receivers,campaigns,clock,disk,api,postgres,redis,model picks some).
drill: build
	@node dist/test/support/make-cert.js $(TLS_DIR)
	test/support/setup.sh env NODE_EXTRA_CA_CERTS=$(TLS_DIR)/cert.pem node dist/test/fuzz/drill.js
	test/support/setup.sh env NODE_EXTRA_CA_CERTS=$(TLS_DIR)/cert.pem node dist/test/drill/faults.js

openapi: build
	@mkdir -p openapi
	node dist/cmd/switchboard.js openapi > openapi/agent-api.json
	node dist/cmd/switchboard.js openapi voice > openapi/voice-api.json
	@echo "wrote openapi/agent-api.json and openapi/voice-api.json"

# Both SDKs regenerated from the documents in openapi/ (the single source; `make openapi` first when
# the API changed). Each SDK's test fails when its checked-in generated code falls behind them.
.PHONY: sdk
sdk: sdk-typescript sdk-python

# The TypeScript SDK's types (sdk/typescript/src/generated) from openapi/*.json, by openapi-typescript.
.PHONY: sdk-typescript
sdk-typescript: install
	sdk/typescript/generate.sh

# The Python SDK's generated code (sdk/python/switchboard/_generated) from openapi/*.json, by the pinned
# openapi-python-client in the venv test/support/sdk-python.ts makes; a test fails when it falls behind.
.PHONY: sdk-python
sdk-python: build
	node dist/test/support/sdk-python.js

# The chart's CRD templates from crds/*.yaml (the single source); the chart test fails on drift.
manifests: build
	node dist/test/charts/manifests.js

# The chart linted and rendered by helm with default and all-options values, checked, and dry-run
# applied to the tests' kube-apiserver (also part of `make test`).
chart-check: build
	@node dist/test/support/make-cert.js $(TLS_DIR)
	test/support/setup.sh env $(MOCHA) --no-config --require dist/test/support/hooks.js --exit dist/test/charts/chart.test.js

IMAGE ?= switchboard:$(shell node -p "require('./package.json').version")
# buildah where there is one (no daemon needed), else docker.
IMAGE_BUILD ?= $(if $(shell command -v buildah),buildah bud,docker build)
image:
	$(IMAGE_BUILD) -t $(IMAGE) .

# The chart installed into a single-node cluster this machine runs (test/e2e/): the image built by
# buildah, helm install, the API used through the api Service, a rolling upgrade and a controller
# deleted mid-job. Needs root (a kubelet, containerd, a bridge); see the README for its times.
e2e: build
	@node dist/test/support/make-cert.js $(TLS_DIR)
	SWITCHBOARD_E2E=1 test/support/setup.sh env $(MOCHA) --no-config --bail --exit --timeout 600000 --slow 60000 dist/test/e2e/install.e2e.js

clean:
	rm -rf dist .switchboard/test-tls
