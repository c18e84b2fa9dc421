#!/usr/bin/env bash
# make bench-report: the time and size of `rasp report` on a generated log of $EVENTS events,
# beside `rasp replay --emit diff` on the same log (best of $RUNS, release build), and how a
# browser opens and scrubs the report of $BROWSER_EVENTS of them (#bench=200: 200 scrubs, the
# mean and slowest render). Figures for docs/benchmarks.md.
set -euo pipefail
RASP=${RASP:?} BENCH=${BENCH:?} DIR=${DIR:-bench-output}
EVENTS=${EVENTS:-1000000} BROWSER_EVENTS=${BROWSER_EVENTS:-100000} RUNS=${RUNS:-3}
CHROMIUM=${CHROMIUM:-chromium}
mkdir -p "$DIR"
"$BENCH" generate --events "$EVENTS" --seed 7 > "$DIR/report-events.jsonl"
best() { # the lowest of $RUNS wall-clock times of a command, in seconds
  local lowest=
  for _ in $(seq "$RUNS"); do
    local start end
    start=$(date +%s.%N); "$@" > /dev/null; end=$(date +%s.%N)
    lowest=$(echo "$start $end ${lowest:-}" | awk '{t = $2 - $1; if ($3 != "" && $3 < t) t = $3; printf "%.2f", t}')
  done
  echo "$lowest"
}
diff_time=$(best "$RASP" replay --emit diff "$DIR/report-events.jsonl")
report_time=$(best "$RASP" report "$DIR/report-events.jsonl" -o "$DIR/report.html")
size=$(wc -c < "$DIR/report.html")
echo "events: $EVENTS"
echo "rasp replay --emit diff: $diff_time s"
echo "rasp report: $report_time s ($(echo "$report_time $diff_time" | awk '{printf "%.2f", $1 / $2}')x), $size bytes"
head -n "$BROWSER_EVENTS" "$DIR/report-events.jsonl" > "$DIR/report-browser.jsonl"
"$RASP" report "$DIR/report-browser.jsonl" -o "$DIR/report-browser.html"
for file in report-browser report; do
  "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --host-resolver-rules='MAP * ~NOTFOUND' \
    --user-data-dir="$(mktemp -d)" --virtual-time-budget=60000 \
    --dump-dom "file://$(cd "$DIR" && pwd)/$file.html#event=1&bench=200" 2> /dev/null |
    grep -o '<body[^>]*>' | sed "s/^/$file.html: /"
done
