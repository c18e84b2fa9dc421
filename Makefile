# rasp — common tasks. `make` alone lists them.
SWIFT ?= swift
PREFIX ?= /usr/local
JQ ?= jq
# make bench: events in the log, its seed, runs per tool (best counts), keys of the keyed log,
# and BENCH_LONG=1 to also replay a log ten times longer for peak memory (about 1 GB in
# bench-output/).
BENCH_EVENTS ?= 1000000
BENCH_SEED ?= 7
BENCH_RUNS ?= 3
BENCH_KEYS ?= 100000
BENCH_LONG ?=
BENCH_DIR := bench-output
# make fuzz: executions per job, parallel jobs (each a process; more than 1 logs to
# .build-fuzz/fuzz-<n>.log), the longest input in bytes, seconds before an input counts as a
# hang, and any other libFuzzer flags (such as -seed=1 or -max_total_time=600). The corpus
# libFuzzer grows is .build-fuzz/corpus; crashing inputs land in .build-fuzz/artifacts.
FUZZ_RUNS ?= 10000000
FUZZ_JOBS ?= 1
FUZZ_MAX_LEN ?= 4096
FUZZ_TIMEOUT ?= 10
FUZZ_FLAGS ?=
FUZZ_DIR := .build-fuzz

.DEFAULT_GOAL := help
.PHONY: help build release run test test-tsan test-spark example bench fuzz format install clean

help: ## List the targets.
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  make %-10s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

build: ## Build everything in debug mode.
	$(SWIFT) build

release: ## Build the rasp command in release mode.
	$(SWIFT) build -c release --product rasp

run: release ## Replay the bundled example log and print every snapshot.
	.build/release/rasp replay fixtures/example/events.jsonl

test: ## Run the whole test suite (unit tests, golden fixtures, docs examples), then under TSan.
	$(SWIFT) test
	$(MAKE) test-tsan

# make test-spark: the pinned pyspark, installed into a virtual environment of its own, and the
# generated log's size (its keys are its devices).
PYSPARK_VERSION ?= 3.5.3
SPARK_DIR := .build-spark
SPARK_EVENTS ?= 1000000
SPARK_KEYS ?= 100000

test-spark: release ## Replay a log of 100,000 keys on Spark (local[2]) and compare with one rasp, byte for byte.
	$(SWIFT) build -c release --product rasp-bench
	mkdir -p $(SPARK_DIR)
	test -x $(SPARK_DIR)/venv/bin/python || python3 -m venv $(SPARK_DIR)/venv
	$(SPARK_DIR)/venv/bin/pip install --quiet --disable-pip-version-check pyspark==$(PYSPARK_VERSION)
	.build/release/rasp-bench generate --events $(SPARK_EVENTS) --keys $(SPARK_KEYS) --seed 7 > $(SPARK_DIR)/events.jsonl
	.build/release/rasp replay --key-by device --final --on-error skip $(SPARK_DIR)/events.jsonl > $(SPARK_DIR)/one-rasp.jsonl
	$(SPARK_DIR)/venv/bin/python docs/scale-out/rasp_spark.py --master 'local[2]' \
	  --rasp .build/release/rasp --key-by device --partitions 8 $(SPARK_DIR)/events.jsonl \
	  > $(SPARK_DIR)/spark.jsonl 2> $(SPARK_DIR)/spark.log || { tail -20 $(SPARK_DIR)/spark.log; exit 1; }
	cmp $(SPARK_DIR)/one-rasp.jsonl $(SPARK_DIR)/spark.jsonl
	@echo "test-spark: $$(wc -l < $(SPARK_DIR)/spark.jsonl) keys, the same bytes from Spark (local[2], 8 partitions) as from one rasp"
	.build/release/rasp replay --key-by k --final --on-error skip fixtures/spark-edge/keys.jsonl > $(SPARK_DIR)/edge-one.jsonl
	$(SPARK_DIR)/venv/bin/python docs/scale-out/rasp_spark.py --master 'local[2]' \
	  --rasp .build/release/rasp --key-by k --partitions 4 fixtures/spark-edge/keys.jsonl \
	  > $(SPARK_DIR)/edge-spark.jsonl 2>> $(SPARK_DIR)/spark.log
	cmp $(SPARK_DIR)/edge-one.jsonl $(SPARK_DIR)/edge-spark.jsonl
	.build/release/rasp replay --log-format kcat --key-by key --final --on-error skip fixtures/spark-edge/messages.jsonl > $(SPARK_DIR)/kcat-one.jsonl
	$(SPARK_DIR)/venv/bin/python docs/scale-out/rasp_spark.py --master 'local[2]' \
	  --rasp .build/release/rasp --key-by key --inner payload --partitions 3 \
	  fixtures/spark-edge/messages.jsonl -- --log-format kcat > $(SPARK_DIR)/kcat-spark.jsonl 2>> $(SPARK_DIR)/spark.log
	cmp $(SPARK_DIR)/kcat-one.jsonl $(SPARK_DIR)/kcat-spark.jsonl
	@echo "test-spark: keys written two ways and Kafka events' own keys: the same bytes too"

test-tsan: ## Run the test suite under ThreadSanitizer (the example package's build is left to 'test').
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan --skip ExamplePackageTests

example: ## Build the custom-domain example package and replay its events with cart-rasp.
	$(SWIFT) build --package-path Examples/custom-domain --scratch-path .build-examples
	.build-examples/debug/cart-rasp replay --domain cart Examples/custom-domain/events.jsonl

bench: BENCH_COMMIT = $$(git rev-parse --short HEAD 2>/dev/null)$$(git diff --quiet HEAD -- Sources fixtures Package.swift 2>/dev/null || echo ' with local changes')
bench: ## Benchmark rasp against jq, live input's latency, other log formats and keyed state; see docs/benchmarks.md.
	$(SWIFT) build -c release --product rasp
	$(SWIFT) build -c release --product rasp-bench
	mkdir -p $(BENCH_DIR)
	.build/release/rasp-bench generate --events $(BENCH_EVENTS) --seed $(BENCH_SEED) > $(BENCH_DIR)/events.jsonl
	$(if $(BENCH_LONG),.build/release/rasp-bench generate --events $$(( $(BENCH_EVENTS) * 10 )) --seed $(BENCH_SEED) > $(BENCH_DIR)/events-long.jsonl)
	.build/release/rasp-bench replay --log $(BENCH_DIR)/events.jsonl $(if $(BENCH_LONG),--long-log $(BENCH_DIR)/events-long.jsonl) \
	  --runs $(BENCH_RUNS) --rasp .build/release/rasp --jq $(JQ) --programs fixtures/bench \
	  --scratch $(BENCH_DIR) --commit "$(BENCH_COMMIT)"
	.build/release/rasp-bench latency --rasp .build/release/rasp --seed $(BENCH_SEED) > $(BENCH_DIR)/latency.md
	cat $(BENCH_DIR)/latency.md
	.build/release/rasp-bench formats --log $(BENCH_DIR)/events.jsonl --runs $(BENCH_RUNS) --rasp .build/release/rasp \
	  --jq $(JQ) --programs fixtures/bench --scratch $(BENCH_DIR) --commit "$(BENCH_COMMIT)"
	.build/release/rasp-bench generate --events $(BENCH_EVENTS) --keys $(BENCH_KEYS) --seed $(BENCH_SEED) > $(BENCH_DIR)/events-keyed.jsonl
	.build/release/rasp-bench keyed --log $(BENCH_DIR)/events-keyed.jsonl --key-by device --runs $(BENCH_RUNS) \
	  --rasp .build/release/rasp --jq $(JQ) --scratch $(BENCH_DIR) --commit "$(BENCH_COMMIT)"

fuzz: ## Fuzz the JSON-lines reader and replay with libFuzzer (see Fuzz/README.md).
	$(SWIFT) build --package-path Fuzz -c release --sanitize=fuzzer --scratch-path $(FUZZ_DIR)
	rm -rf $(FUZZ_DIR)/seeds
	mkdir -p $(FUZZ_DIR)/seeds $(FUZZ_DIR)/corpus $(FUZZ_DIR)/artifacts
	find fixtures -name '*.jsonl' ! -name 'expected*' ! -name 'golden*' \
	  | while read -r log; do cp "$$log" "$(FUZZ_DIR)/seeds/$$(echo "$$log" | tr / _)"; done
	cd $(FUZZ_DIR) && SWIFT_BACKTRACE=enable=no ./release/rasp-fuzz corpus seeds \
	  -runs=$(FUZZ_RUNS) -max_len=$(FUZZ_MAX_LEN) -rss_limit_mb=2048 -timeout=$(FUZZ_TIMEOUT) \
	  -artifact_prefix=artifacts/ -print_final_stats=1 \
	  $(if $(filter-out 1,$(FUZZ_JOBS)),-jobs=$(FUZZ_JOBS) -workers=$(FUZZ_JOBS)) $(FUZZ_FLAGS)

format: ## Format the sources with swift-format (ships with the toolchain).
	$(SWIFT) format --in-place --recursive Sources Tests Package.swift

install: release ## Install rasp into $(PREFIX)/bin.
	install -d $(PREFIX)/bin
	install .build/release/rasp $(PREFIX)/bin/rasp

clean: ## Remove build products.
	rm -rf .build .build-tsan .build-fuzz .build-examples .build-spark
