# rasp — common tasks. `make` alone lists them.
SWIFT ?= swift
PREFIX ?= /usr/local
JQ ?= jq
# make bench: events in the log, its seed, runs per tool (best counts), and BENCH_LONG=1 to
# also replay a log ten times longer for peak memory (about 1 GB in bench-output/).
BENCH_EVENTS ?= 1000000
BENCH_SEED ?= 7
BENCH_RUNS ?= 3
BENCH_LONG ?=
BENCH_DIR := bench-output

.DEFAULT_GOAL := help
.PHONY: help build release run test test-tsan example bench fuzz format install clean

help: ## List the targets.
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  make %-10s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

build: ## Build everything in debug mode.
	$(SWIFT) build

release: ## Build the rasp command in release mode.
	$(SWIFT) build -c release --product rasp

run: release ## Replay the bundled example log and print every snapshot.
	.build/release/rasp replay fixtures/example/events.jsonl

test: ## Run the whole test suite (unit tests, golden fixtures, docs examples).
	$(SWIFT) test

test-tsan: ## Run the core's tests under ThreadSanitizer.
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan --filter RaspTests

example: ## Build the custom-domain example package and replay its events with cart-rasp.
	$(SWIFT) build --package-path Examples/custom-domain --scratch-path .build-examples
	.build-examples/debug/cart-rasp replay --domain cart Examples/custom-domain/events.jsonl

bench: ## Benchmark rasp against jq on a generated log (release build); see docs/benchmarks.md.
	$(SWIFT) build -c release --product rasp
	$(SWIFT) build -c release --product rasp-bench
	mkdir -p $(BENCH_DIR)
	.build/release/rasp-bench generate --events $(BENCH_EVENTS) --seed $(BENCH_SEED) > $(BENCH_DIR)/events.jsonl
	$(if $(BENCH_LONG),.build/release/rasp-bench generate --events $$(( $(BENCH_EVENTS) * 10 )) --seed $(BENCH_SEED) > $(BENCH_DIR)/events-long.jsonl)
	.build/release/rasp-bench replay --log $(BENCH_DIR)/events.jsonl $(if $(BENCH_LONG),--long-log $(BENCH_DIR)/events-long.jsonl) \
	  --runs $(BENCH_RUNS) --rasp .build/release/rasp --jq $(JQ) --programs fixtures/bench \
	  --scratch $(BENCH_DIR) --commit "$$(git rev-parse --short HEAD 2>/dev/null)$$(git diff --quiet HEAD -- Sources fixtures Package.swift 2>/dev/null || echo ' with local changes')"

fuzz: ## Fuzz the JSON-lines reader and replay with libFuzzer.
	@echo "not yet"

format: ## Format the sources with swift-format (ships with the toolchain).
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

install: release ## Install rasp into $(PREFIX)/bin.
	install -d $(PREFIX)/bin
	install .build/release/rasp $(PREFIX)/bin/rasp

clean: ## Remove build products.
	rm -rf .build .build-tsan .build-fuzz .build-examples
