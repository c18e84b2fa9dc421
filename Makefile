# rasp — common tasks. `make` alone lists them.
SWIFT ?= swift
# make install: where to (PREFIX), and DESTDIR, a folder the whole tree goes under, for
# packaging (make install DESTDIR=pkg PREFIX=/usr puts rasp in pkg/usr/bin). make uninstall
# takes the same two.
PREFIX ?= /usr/local
DESTDIR ?=
# Where release builds go, and where make install takes rasp from (BUILD_DIR=.build-mine keeps
# them out of the .build that swift build uses). They link Swift's standard library into rasp
# (--static-swift-stdlib), so the installed rasp runs where no Swift toolchain is installed.
BUILD_DIR ?= .build
SWIFT_RELEASE = $(SWIFT) build -c release --static-swift-stdlib --scratch-path $(BUILD_DIR)
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
.PHONY: help build release run test test-tsan test-stress test-spark test-install example bench fuzz format lint \
  install uninstall clean browser screenshot bench-report

help: ## List the targets.
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  make %-12s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

build: ## Build everything in debug mode.
	$(SWIFT) build

release: ## Build the rasp command in release mode, Swift's libraries linked in.
	$(SWIFT_RELEASE) --product rasp

run: release ## Replay the bundled example log and print every snapshot.
	$(BUILD_DIR)/release/rasp replay fixtures/example/events.jsonl
	@echo "make run: rasp is $(BUILD_DIR)/release/rasp; to run it as rasp in this shell:" \
	  "export PATH=\"$(abspath $(BUILD_DIR))/release:\$$PATH\" (or make install, for good)" >&2

test: ## Run the whole test suite (unit tests, golden fixtures, docs examples, reports in chromium when it is installed), then its threaded suites under TSan.
	$(SWIFT) test
	$(MAKE) test-tsan

# The browser that rasp report's tests open reports in, headless: Debian's chromium.
CHROMIUM ?= chromium

browser: ## Install Debian's chromium, which the report tests run in, when it is missing.
	@command -v $(CHROMIUM) > /dev/null && echo "browser: $$(command -v $(CHROMIUM))" || { \
	  command -v apt-get > /dev/null || { echo "browser: install chromium (no apt-get here)" >&2; exit 1; }; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends chromium; }

# The screenshots of the example log's report in docs/, light and dark, at one event.
SCREENSHOT_EVENT ?= 13
SCREENSHOT_FLAGS = --headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync \
  --host-resolver-rules='MAP * ~NOTFOUND' --virtual-time-budget=10000 --window-size=1280,2200

screenshot: ## Write the example log's report and its screenshots, light and dark, into docs/report/.
	$(SWIFT) build --product rasp
	mkdir -p docs/report
	$$($(SWIFT) build --show-bin-path)/rasp report fixtures/example/events.jsonl -o docs/report/example.html
	$(CHROMIUM) $(SCREENSHOT_FLAGS) --user-data-dir=$$(mktemp -d) --screenshot=$(CURDIR)/docs/report/example.png \
	  "file://$(CURDIR)/docs/report/example.html#event=$(SCREENSHOT_EVENT)"
	$(CHROMIUM) $(SCREENSHOT_FLAGS) --user-data-dir=$$(mktemp -d) --force-dark-mode \
	  --blink-settings=preferredColorScheme=0 --screenshot=$(CURDIR)/docs/report/example-dark.png \
	  "file://$(CURDIR)/docs/report/example.html#event=$(SCREENSHOT_EVENT)"

# make test-spark: the pinned pyspark, installed into a virtual environment of its own, and the
# generated log's size (its keys are its devices).
PYSPARK_VERSION ?= 3.5.3
SPARK_DIR := .build-spark
SPARK_EVENTS ?= 1000000
SPARK_KEYS ?= 100000

test-spark: release ## Replay a log of 100,000 keys on Spark (local[2]), and check assertions per key partition, and compare with one rasp, byte for byte.
	$(SWIFT_RELEASE) --product rasp-bench
	mkdir -p $(SPARK_DIR)
	test -x $(SPARK_DIR)/venv/bin/python || python3 -m venv $(SPARK_DIR)/venv
	$(SPARK_DIR)/venv/bin/pip install --quiet --disable-pip-version-check pyspark==$(PYSPARK_VERSION)
	$(BUILD_DIR)/release/rasp-bench generate --events $(SPARK_EVENTS) --keys $(SPARK_KEYS) --seed 7 > $(SPARK_DIR)/events.jsonl
	$(BUILD_DIR)/release/rasp replay --key-by device --final --on-error skip $(SPARK_DIR)/events.jsonl > $(SPARK_DIR)/one-rasp.jsonl
	$(SPARK_DIR)/venv/bin/python docs/scale-out/rasp_spark.py --master 'local[2]' \
	  --rasp $(BUILD_DIR)/release/rasp --key-by device --partitions 8 $(SPARK_DIR)/events.jsonl \
	  > $(SPARK_DIR)/spark.jsonl 2> $(SPARK_DIR)/spark.log || { tail -20 $(SPARK_DIR)/spark.log; exit 1; }
	cmp $(SPARK_DIR)/one-rasp.jsonl $(SPARK_DIR)/spark.jsonl
	@echo "test-spark: $$(wc -l < $(SPARK_DIR)/spark.jsonl) keys, the same bytes from Spark (local[2], 8 partitions) as from one rasp"
	$(BUILD_DIR)/release/rasp replay --key-by k --final --on-error skip fixtures/spark-edge/keys.jsonl > $(SPARK_DIR)/edge-one.jsonl
	$(SPARK_DIR)/venv/bin/python docs/scale-out/rasp_spark.py --master 'local[2]' \
	  --rasp $(BUILD_DIR)/release/rasp --key-by k --partitions 4 fixtures/spark-edge/keys.jsonl \
	  > $(SPARK_DIR)/edge-spark.jsonl 2>> $(SPARK_DIR)/spark.log
	cmp $(SPARK_DIR)/edge-one.jsonl $(SPARK_DIR)/edge-spark.jsonl
	$(BUILD_DIR)/release/rasp replay --log-format kcat --key-by key --final --on-error skip fixtures/spark-edge/messages.jsonl > $(SPARK_DIR)/kcat-one.jsonl
	$(SPARK_DIR)/venv/bin/python docs/scale-out/rasp_spark.py --master 'local[2]' \
	  --rasp $(BUILD_DIR)/release/rasp --key-by key --inner payload --partitions 3 \
	  fixtures/spark-edge/messages.jsonl -- --log-format kcat > $(SPARK_DIR)/kcat-spark.jsonl 2>> $(SPARK_DIR)/spark.log
	cmp $(SPARK_DIR)/kcat-one.jsonl $(SPARK_DIR)/kcat-spark.jsonl
	@echo "test-spark: keys written two ways and Kafka events' own keys: the same bytes too"
	RASP=$(BUILD_DIR)/release/rasp RASP_BENCH=$(BUILD_DIR)/release/rasp-bench \
	  PYTHON=$(SPARK_DIR)/venv/bin/python DIR=$(SPARK_DIR) .ci/test-spark-check.sh

# make test-tsan: the suites ThreadSanitizer has something to find in are those whose code runs
# on more than one thread of the test process: the aggregator, its sources and subscriptions
# (RaspTests), the replay's read-ahead, merge and parallel kernel (RaspReplayTests), the
# recorder's writer thread (RaspRecordingTests) and the command line's in-process replays, with
# -j, progress, checkpoints and interruptions (RaspCLITests). It skips the parsers and reducers,
# which run on one thread (RaspJSONTests, RaspDomainsTests), the benchmark's own programs
# (RaspBenchTests), and the suites that only run child processes or a browser and look at what
# they print (the example package's build, the binary, the report in chromium, the completion
# scripts in their shells, the manual page, --version): 'swift test' runs all of those already,
# and under TSan they would time a sanitized rasp, not look for races in this process.
TSAN_SKIP ?= RaspJSONTests|RaspDomainsTests|RaspBenchTests|ExamplePackageTests|ReportBrowserTests|BinaryTests|CompletionScriptTests|RaspManualPageTests|VersionTests|ProgressTerminalTests
# make test-stress: the suites it runs under load (the core and the replay), and how many busy
# processes load the machine (twice its cores).
STRESS_FILTER ?= RaspTests|RaspReplayTests
STRESS_LOAD ?= $$(( $$(nproc) * 2 ))

# The core's suites (RaspTests) run first, in a process of their own: beside the others, each
# of their asynchronous tests waited behind them all for its turn on the cooperative pool, as
# long as the whole run (8 to 9 minutes under TSan), though alone the 114 of them take a second.
TSAN_CORE ?= ^RaspTests\.

test-tsan: ## Run the suites whose code runs on several threads under ThreadSanitizer (see TSAN_SKIP), the core's first.
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan --filter '$(TSAN_CORE)'
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan --skip-build --skip '$(TSAN_CORE)|$(TSAN_SKIP)'

test-stress: ## Run the core and replay suites while twice as many busy processes as cores load the machine.
	$(SWIFT) build --build-tests
	@load=$(STRESS_LOAD); pids=; \
	  for i in $$(seq $$load); do yes > /dev/null & pids="$$pids $$!"; done; \
	  trap 'kill $$pids 2> /dev/null' EXIT INT TERM; \
	  echo "test-stress: $$load busy processes beside the tests ($(STRESS_FILTER))" >&2; \
	  $(SWIFT) test --skip-build --filter '$(STRESS_FILTER)'

example: ## Build the custom-domain example package and replay its events with cart-rasp.
	$(SWIFT) build --package-path Examples/custom-domain --scratch-path .build-examples
	.build-examples/debug/cart-rasp replay --domain cart Examples/custom-domain/events.jsonl

bench: BENCH_COMMIT = $$(git rev-parse --short HEAD 2>/dev/null)$$(git diff --quiet HEAD -- Sources fixtures Package.swift 2>/dev/null || echo ' with local changes')
bench: ## Benchmark rasp against jq, live input's latency, other log formats and keyed state; see docs/benchmarks.md.
	$(SWIFT_RELEASE) --product rasp
	$(SWIFT_RELEASE) --product rasp-bench
	mkdir -p $(BENCH_DIR)
	$(BUILD_DIR)/release/rasp-bench generate --events $(BENCH_EVENTS) --seed $(BENCH_SEED) > $(BENCH_DIR)/events.jsonl
	$(if $(BENCH_LONG),$(BUILD_DIR)/release/rasp-bench generate --events $$(( $(BENCH_EVENTS) * 10 )) --seed $(BENCH_SEED) > $(BENCH_DIR)/events-long.jsonl)
	$(BUILD_DIR)/release/rasp-bench replay --log $(BENCH_DIR)/events.jsonl $(if $(BENCH_LONG),--long-log $(BENCH_DIR)/events-long.jsonl) \
	  --runs $(BENCH_RUNS) --rasp $(BUILD_DIR)/release/rasp --jq $(JQ) --programs fixtures/bench \
	  --scratch $(BENCH_DIR) --commit "$(BENCH_COMMIT)"
	$(BUILD_DIR)/release/rasp-bench latency --rasp $(BUILD_DIR)/release/rasp --seed $(BENCH_SEED) > $(BENCH_DIR)/latency.md
	cat $(BENCH_DIR)/latency.md
	$(BUILD_DIR)/release/rasp-bench formats --log $(BENCH_DIR)/events.jsonl --runs $(BENCH_RUNS) --rasp $(BUILD_DIR)/release/rasp \
	  --jq $(JQ) --programs fixtures/bench --scratch $(BENCH_DIR) --commit "$(BENCH_COMMIT)"
	$(BUILD_DIR)/release/rasp-bench generate --events $(BENCH_EVENTS) --keys $(BENCH_KEYS) --seed $(BENCH_SEED) > $(BENCH_DIR)/events-keyed.jsonl
	$(BUILD_DIR)/release/rasp-bench keyed --log $(BENCH_DIR)/events-keyed.jsonl --key-by device --runs $(BENCH_RUNS) \
	  --rasp $(BUILD_DIR)/release/rasp --jq $(JQ) --scratch $(BENCH_DIR) --commit "$(BENCH_COMMIT)"
	$(BUILD_DIR)/release/rasp-bench shrink --rasp $(BUILD_DIR)/release/rasp --spec fixtures/shrink-vault/vault.json \
	  --events 100000 --keys 1000 --runs $(BENCH_RUNS) --scratch $(BENCH_DIR) --commit "$(BENCH_COMMIT)"

bench-report: ## Time rasp report against rasp replay --emit diff on 1M events, and scrubbing in chromium.
	$(SWIFT_RELEASE) --product rasp
	$(SWIFT_RELEASE) --product rasp-bench
	RASP=$(BUILD_DIR)/release/rasp BENCH=$(BUILD_DIR)/release/rasp-bench DIR=$(BENCH_DIR) \
	  EVENTS=$(BENCH_EVENTS) RUNS=$(BENCH_RUNS) CHROMIUM=$(CHROMIUM) .ci/bench-report.sh

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

lint: ## Check the sources' style and doc comments with swift-format (.swift-format); CI runs it.
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift

# What make install installs, and make uninstall removes: the command, its manual page, made
# from the text of its --help, and its completions, where each shell looks for them.
BIN_DIR = $(DESTDIR)$(PREFIX)/bin
MAN_DIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASH_DIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSH_DIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISH_DIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
INSTALLED = $(BIN_DIR)/rasp $(MAN_DIR)/rasp.1 $(BASH_DIR)/rasp $(ZSH_DIR)/_rasp \
  $(FISH_DIR)/rasp.fish
INSTALL_DIRS = $(BIN_DIR) $(MAN_DIR) $(BASH_DIR) $(ZSH_DIR) $(FISH_DIR)
GENERATED = $(BUILD_DIR)/release/generated
# The folders make install created (those that did not exist before it), one a line, which
# make uninstall removes again once they are empty; kept in the build folder, as CMake keeps
# its install_manifest.txt (after make clean, uninstall removes the files only).
CREATED_DIRS = $(BUILD_DIR)/installed-directories

# The manual page is dated by the last commit, the same on every machine (today outside git).
install: release ## Install rasp, its manual page rasp(1) and its bash, zsh and fish completions.
	mkdir -p $(GENERATED)
	SOURCE_DATE_EPOCH=$${SOURCE_DATE_EPOCH:-$$(git log -1 --format=%ct 2>/dev/null)} \
	  $(BUILD_DIR)/release/rasp help --man > $(GENERATED)/rasp.1
	$(BUILD_DIR)/release/rasp completions bash > $(GENERATED)/rasp.bash
	$(BUILD_DIR)/release/rasp completions zsh > $(GENERATED)/_rasp
	$(BUILD_DIR)/release/rasp completions fish > $(GENERATED)/rasp.fish
	@for dir in $(INSTALL_DIRS); do \
	  while [ ! -d "$$dir" ]; do echo "$$dir"; dir=$$(dirname "$$dir"); done; \
	done | cat - $$( [ -f $(CREATED_DIRS) ] && echo $(CREATED_DIRS) ) | sort -u > $(CREATED_DIRS).new
	@mv $(CREATED_DIRS).new $(CREATED_DIRS)
	install -d $(INSTALL_DIRS)
	install -m 755 $(BUILD_DIR)/release/rasp $(BIN_DIR)/rasp
	install -m 644 $(GENERATED)/rasp.1 $(MAN_DIR)/rasp.1
	install -m 644 $(GENERATED)/rasp.bash $(BASH_DIR)/rasp
	install -m 644 $(GENERATED)/_rasp $(ZSH_DIR)/_rasp
	install -m 644 $(GENERATED)/rasp.fish $(FISH_DIR)/rasp.fish

uninstall: ## Remove what make install installed (give it the same PREFIX and DESTDIR).
	rm -f $(INSTALLED)
	@# The folders install created, deepest first, each if nothing else was put in it since.
	@# Only those on the way to this PREFIX's (and DESTDIR's) folders: not another install's.
	@if [ -f $(CREATED_DIRS) ]; then \
	  for dir in $$(sort -r $(CREATED_DIRS)); do \
	    for target in $(INSTALL_DIRS); do \
	      case "$$target/" in "$$dir/"*) \
	        [ -d "$$dir" ] && rmdir "$$dir" 2> /dev/null && echo "rmdir $$dir"; break ;; \
	      esac; \
	    done; \
	  done; \
	  for dir in $$(cat $(CREATED_DIRS)); do [ -d "$$dir" ] && echo "$$dir"; done \
	    > $(CREATED_DIRS).new; \
	  mv $(CREATED_DIRS).new $(CREATED_DIRS); \
	fi; true

test-install: ## Install into a temporary DESTDIR, run that rasp without the toolchain, uninstall.
	MAKE="$(MAKE)" .ci/test-install.sh

clean: ## Remove build products.
	rm -rf .build .build-tsan .build-fuzz .build-examples .build-spark $(BUILD_DIR)
