# Galley's commands. `make help` lists them.
#
# `sam build` also uses this file: for each function of template.yaml
# (Metadata: BuildMethod: makefile) it runs `make build-<LogicalId>` with
# ARTIFACTS_DIR set, and packages $(ARTIFACTS_DIR)/bootstrap.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

GO ?= go
# Where make test-deps installs the test components (the Python venv with
# moto, sam and cfn-lint; DynamoDB Local; Keycloak); shared/testenv reads
# the same.
GALLEY_CACHE ?= $(HOME)/.cache/galley
export GALLEY_CACHE
VENV := $(GALLEY_CACHE)/venv
SAM := $(VENV)/bin/sam
# The reader's browser assets (the mermaid npm package pinned in
# shared/reader/mermaid.go), fetched once by functions/assets; local mode
# and the reader function serve them from there (docs/reader.md, "Diagrams").
READER_ASSETS ?= $(GALLEY_CACHE)/assets
export READER_ASSETS
# Where `make test` builds the SAM application (ignored by git).
SAM_BUILD_DIR ?= .aws-sam/build

# SAM runs offline here: no telemetry, a region for the linter and the
# builders, and no instance-metadata lookups for credentials it never needs.
SAM_ENV := SAM_CLI_TELEMETRY=0 AWS_DEFAULT_REGION=us-east-1 AWS_REGION=us-east-1 AWS_EC2_METADATA_DISABLED=true

# The Lambda functions: logical id in template.yaml -> functions/<dir>.
# Keep in step with shared/app/families (infra/template_test.go checks the
# template against it; `sam build` fails on a function without a target).
LAMBDA_FUNCTIONS := UsersFunction OrganizationsFunction SpacesFunction
dir_UsersFunction := users
dir_OrganizationsFunction := orgs
dir_SpacesFunction := spaces
LAMBDA_FUNCTIONS += CollectionsFunction
dir_CollectionsFunction := collections
LAMBDA_FUNCTIONS += CustomFieldsFunction
dir_CustomFieldsFunction := customfields
LAMBDA_FUNCTIONS += SitesFunction
dir_SitesFunction := sites
LAMBDA_FUNCTIONS += ContentFunction
dir_ContentFunction := content
LAMBDA_FUNCTIONS += ChangeRequestsFunction
dir_ChangeRequestsFunction := changerequests
LAMBDA_FUNCTIONS += SearchFunction
dir_SearchFunction := search
LAMBDA_FUNCTIONS += SSOFunction
dir_SSOFunction := sso
LAMBDA_FUNCTIONS += CommentsFunction
dir_CommentsFunction := comments
LAMBDA_FUNCTIONS += OpenAPIFunction
dir_OpenAPIFunction := openapi
# Workers (shared/app.Workers()): SQS-fed, no routes.
LAMBDA_FUNCTIONS += OpenAPIWorkerFunction
dir_OpenAPIWorkerFunction := openapiworker
LAMBDA_FUNCTIONS += GitFunction
dir_GitFunction := git
LAMBDA_FUNCTIONS += GitWorkerFunction
dir_GitWorkerFunction := gitworker
LAMBDA_FUNCTIONS += ImportsFunction
dir_ImportsFunction := imports
LAMBDA_FUNCTIONS += ReaderFunction
dir_ReaderFunction := reader
LAMBDA_FUNCTIONS += WebhookWorkerFunction
dir_WebhookWorkerFunction := webhookworker
LAMBDA_FUNCTIONS += InsightsWorkerFunction
dir_InsightsWorkerFunction := insightsworker

.PHONY: help run assets build test test-deps go-test sam-check sam-validate sam-build soak bench fmt vet routes \
	$(addprefix build-,$(LAMBDA_FUNCTIONS))

help:
	@echo "make run        serve the whole API locally (ADDR, DATA_DIR, BOOTSTRAP_TOKEN)"
	@echo "make assets     fetch the reader's browser assets (mermaid) into $(READER_ASSETS)"
	@echo "make build      go build ./..."
	@echo "make test       test-deps, go test (emulators required), sam validate --lint, sam build"
	@echo "make test-deps  install the test components into $(GALLEY_CACHE)"
	@echo "make soak       the soak: SOAK_DURATION (default 3m) of mixed load a rig, faults injected (docs/faults.md)"
	@echo "make bench      run the benchmarks"
	@echo "make fmt        gofmt the Go code"
	@echo "make vet        go vet ./..."
	@echo "make routes     rewrite template.yaml's Events sections and shared/apidoc/openapi.json from the code"
	@echo "make build-<Function>  one Lambda bootstrap (run by sam build): $(LAMBDA_FUNCTIONS)"

# ADDR, DATA_DIR and BOOTSTRAP_TOKEN pass through, from the environment or
# the command line (make run ADDR=127.0.0.1:9000); see README.md.
# Without the assets (no registry reachable) the server still runs: diagrams
# show their source.
run:
	@$(MAKE) --no-print-directory assets || echo "make run: the reader's assets are missing: diagrams show their source" >&2
	$(GO) run ./functions/local

assets:
	$(GO) run ./functions/assets -dir "$(READER_ASSETS)"

build:
	$(GO) build ./...

# One Lambda function, for provided.al2023 on arm64. SAM sets ARTIFACTS_DIR;
# by hand it defaults to bin/<Function>.
$(addprefix build-,$(LAMBDA_FUNCTIONS)): build-%:
	@echo "== build $* (functions/$(dir_$*), linux/arm64) -> $(or $(ARTIFACTS_DIR),bin/$*)/bootstrap"
	GOOS=linux GOARCH=arm64 CGO_ENABLED=0 $(GO) build -tags lambda.norpc -trimpath -ldflags='-s -w' \
		-o $(or $(ARTIFACTS_DIR),bin/$*)/bootstrap ./functions/$(dir_$*)
	$(call extra_$*,$(or $(ARTIFACTS_DIR),bin/$*))

# The reader function's package also holds the browser assets, in assets/
# (template.yaml: READER_ASSETS=/var/task/assets).
extra_ReaderFunction = $(MAKE) --no-print-directory assets && rm -rf "$(1)/assets" && mkdir -p "$(1)/assets" && \
	cp -R "$(READER_ASSETS)"/mermaid-* "$(1)/assets/"

test-deps:
	@echo "== test-deps: Python tools (moto server, aws-sam-cli, cfn-lint): infra/python/install.sh"
	@test -f infra/python/install.sh || { echo "test-deps: infra/python/install.sh is missing" >&2; exit 1; }
	bash infra/python/install.sh
	@echo "== test-deps: DynamoDB Local: infra/dynamodb-local/install.sh"
	@test -f infra/dynamodb-local/install.sh || { echo "test-deps: infra/dynamodb-local/install.sh is missing" >&2; exit 1; }
	bash infra/dynamodb-local/install.sh
	@echo "== test-deps: Keycloak (SAML identity provider of shared/sso's TestKeycloakSignIn; Java 21+): infra/keycloak/install.sh"
	@test -f infra/keycloak/install.sh || { echo "test-deps: infra/keycloak/install.sh is missing" >&2; exit 1; }
	bash infra/keycloak/install.sh
	@echo "== test-deps: npm packages (@gitbook/api, axe-core): infra/node/install.sh"
	@test -f infra/node/install.sh || { echo "test-deps: infra/node/install.sh is missing" >&2; exit 1; }
	bash infra/node/install.sh
	@echo "== test-deps: the reader's browser assets (mermaid, from the npm registry; the reader's browser test draws with them): make assets"
	$(MAKE) --no-print-directory assets
	@echo "== test-deps: Debian packages (poppler-utils, jq, curl, chromium, fonts-dejavu-core, python-flask-doc, python3.11-doc): infra/debian/install.sh"
	@test -f infra/debian/install.sh || { echo "test-deps: infra/debian/install.sh is missing" >&2; exit 1; }
	bash infra/debian/install.sh

# Each step names itself; a missing component fails the step that needs it,
# naming it.
# The three steps run even when one fails, so one run reports them all.
test: test-deps
	@failed=; \
	$(MAKE) --no-print-directory go-test || failed="$$failed go-test"; \
	$(MAKE) --no-print-directory sam-validate || failed="$$failed sam-validate"; \
	$(MAKE) --no-print-directory sam-build || failed="$$failed sam-build"; \
	if [[ -n $$failed ]]; then echo "== test: FAILED:$$failed" >&2; exit 1; fi; \
	echo "== test: go test, sam validate --lint and sam build passed"

go-test:
	@echo "== go test: every package, DynamoDB Local, moto and Keycloak required (GALLEY_REQUIRE_EMULATORS=1)"
	GALLEY_REQUIRE_EMULATORS=1 $(GO) test -p 2 -count=1 -timeout 30m ./...

sam-check:
	@test -x "$(SAM)" || { echo "AWS SAM CLI is missing: $(SAM) not found; run make test-deps" >&2; exit 1; }

sam-validate: sam-check
	@echo "== sam validate --lint (AWS SAM CLI $$($(SAM_ENV) $(SAM) --version | sed 's/.*version //'), cfn-lint)"
	$(SAM_ENV) $(SAM) validate --lint --template-file template.yaml

sam-build: sam-check
	@command -v make >/dev/null || { echo "sam build: make is not on PATH" >&2; exit 1; }
	@command -v $(GO) >/dev/null || { echo "sam build: $(GO) is not on PATH" >&2; exit 1; }
	@echo "== sam build: template.yaml -> $(SAM_BUILD_DIR) (make build-<Function> for $(LAMBDA_FUNCTIONS))"
	@start=$$(date +%s); \
	$(SAM_ENV) $(SAM) build --parallel --template-file template.yaml --build-dir $(SAM_BUILD_DIR) --build-in-source; \
	echo "== sam build: done in $$(( $$(date +%s) - start ))s"
	@for f in $(LAMBDA_FUNCTIONS); do \
		test -s "$(SAM_BUILD_DIR)/$$f/bootstrap" || { echo "sam build: $(SAM_BUILD_DIR)/$$f/bootstrap is missing" >&2; exit 1; }; \
	done

# The soak of issue 30 (docs/faults.md, "The soak"): SOAK_DURATION of
# load a rig (default 3m): local mode, then the AWS adapters with faults,
# then the functions' processes with faults and SIGKILLs.
SOAK_DURATION ?= 3m
soak:
	GALLEY_REQUIRE_EMULATORS=1 SOAK_DURATION=$(SOAK_DURATION) $(GO) test -count=1 -timeout 2h -run '^$$' -bench BenchmarkSoak -benchtime=1x ./shared/app/soak/

bench:
	$(GO) test ./... -run '^$$' -bench . -benchmem

fmt:
	$(GO) fmt ./...

vet:
	$(GO) vet ./...

routes:
	$(GO) run ./functions/routes -write template.yaml -openapi shared/apidoc/openapi.json
