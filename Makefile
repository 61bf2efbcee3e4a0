# Switchboard. `make run` starts everything on embedded defaults; `make test` runs the whole suite.
SHELL := /bin/bash
TLS_DIR := .switchboard/test-tls
MOCHA := NODE_EXTRA_CA_CERTS=$(TLS_DIR)/cert.pem npx mocha

.PHONY: install build run test bench openapi migrate clean

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

install: node_modules/.installed

build: install
	@rm -rf dist
	npx tsc -p tsconfig.json

run: build
	node dist/cmd/switchboard.js dev

migrate: build
	node dist/cmd/switchboard.js migrate

# The suite runs against DATABASE_URL / REDIS_URL when set, else a throwaway embedded Postgres.
test: build
	@node dist/test/support/make-cert.js $(TLS_DIR)
	$(MOCHA)

bench: build
	@node dist/test/support/make-cert.js $(TLS_DIR)
	NODE_EXTRA_CA_CERTS=$(TLS_DIR)/cert.pem node dist/test/bench/run.js

openapi: build
	@mkdir -p openapi
	node dist/cmd/switchboard.js openapi > openapi/agent-api.json
	@echo "wrote openapi/agent-api.json"

clean:
	rm -rf dist .switchboard/test-tls
