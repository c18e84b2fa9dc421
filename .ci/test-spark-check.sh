#!/bin/sh
# make test-spark, its assertions: `rasp check --assert` per key partition on Spark
# (docs/scale-out/rasp_spark.py in local[2] mode), compared with one `rasp check` over the
# whole log: the report on standard output byte for byte, the summary (the last line of
# standard error) and the exit status. Each comparison names the status it expects, so that a
# run where nothing is violated, or everything fails alike, cannot pass for a merge.
#
# Environment: RASP and RASP_BENCH (the release binaries), PYTHON (the virtual environment's,
# with pyspark), DIR (where the logs and outputs go).
set -eu
: "${RASP:?}" "${RASP_BENCH:?}" "${PYTHON:?}" "${DIR:?}"
spark=docs/scale-out/rasp_spark.py
compared=0

# compare LABEL STATUS LOG PARTITIONS OPTION...: the options are both rasp check's and the
# driver's.
compare() {
  label=$1 expected=$2 log=$3 partitions=$4
  shift 4
  one=0
  "$RASP" check --on-error skip "$@" "$log" > "$DIR/check-one.out" 2> "$DIR/check-one.err" ||
    one=$?
  merged=0
  "$PYTHON" "$spark" --master 'local[2]' --rasp "$RASP" --partitions "$partitions" "$@" "$log" \
    > "$DIR/check-spark.out" 2> "$DIR/check-spark.err" || merged=$?
  if [ "$one" != "$expected" ] || [ "$merged" != "$one" ]; then
    tail -20 "$DIR/check-spark.err" >&2
    echo "test-spark: check $label: status $one from one rasp, $merged from Spark" \
      "($expected expected)" >&2
    exit 1
  fi
  if ! cmp "$DIR/check-one.out" "$DIR/check-spark.out"; then
    diff "$DIR/check-one.out" "$DIR/check-spark.out" | head -20 >&2
    echo "test-spark: check $label: the reports differ" >&2
    exit 1
  fi
  tail -n 1 "$DIR/check-one.err" > "$DIR/check-one.summary"
  tail -n 1 "$DIR/check-spark.err" > "$DIR/check-spark.summary"
  if ! cmp -s "$DIR/check-one.summary" "$DIR/check-spark.summary"; then
    diff "$DIR/check-one.summary" "$DIR/check-spark.summary" >&2
    echo "test-spark: check $label: the summaries differ" >&2
    exit 1
  fi
  compared=$((compared + 1))
  echo "test-spark: check $label over $partitions partitions: $(sed 's/^rasp: //' \
    "$DIR/check-one.summary"); status $one"
}

# A generated log of 20,000 devices, with faults planted after six lines, each in another
# device (and Spark partition): a push of the screen "debug-menu", then an event of an unknown
# type, and a blank line after every other one, so that events' numbers are not their lines;
# and two links to "/admin", one of an event without a device (key null).
"$RASP_BENCH" generate --events 200000 --keys 20000 --seed 7 | awk '
  BEGIN {
    split("1000 25000 60000 99999 150000 199000", lines, " ")
    split("d17 d4242 d9999 d12345 d777 d19999", devices, " ")
    for (i in lines) planted[lines[i]] = devices[i]
  }
  { print }
  NR in planted {
    printf "{\"device\":\"%s\",\"type\":\"nav.push\",\"payload\":{\"screen\":\"debug-menu\"}}\n",
      planted[NR]
    if (NR % 2 == 0) print ""
    printf "{\"device\":\"%s\",\"type\":\"debug.note\",\"payload\":{}}\n", planted[NR]
  }
  NR == 120000 || NR == 180000 {
    device = NR == 180000 ? "\"device\":\"d4242\"," : ""
    printf "{%s\"type\":\"rest.link\",", device
    print "\"payload\":{\"rel\":\"admin\",\"href\":\"/admin\"}}"
  }' > "$DIR/check.jsonl"

# The planted faults (6 + 2), stacks deeper than 5 (23 in the generated log), a transition
# ($event and $prev) that holds, and the last states' stacks (94 keys end deeper than 4).
set -- --key-by device --assert 'never .nav.stack[-1] == "debug-menu"' \
  --assert '.nav.stack | length < 6' \
  --assert '$event.type != "nav.pop" or (.nav.stack | length) < ($prev.nav.stack | length)' \
  --assert 'never (.rest.links | has("admin"))' --assert-final '.nav.stack | length < 5'
compare 'planted faults, text' 1 "$DIR/check.jsonl" 8 "$@"
compare 'planted faults, json' 1 "$DIR/check.jsonl" 8 "$@" --format json
compare 'planted faults, all, json' 1 "$DIR/check.jsonl" 8 "$@" --max-failures 0 --format json
compare 'assertions that hold' 0 "$DIR/check.jsonl" 8 --key-by device \
  --assert '.nav.stack | length < 20' --assert-final '.rest.links | length < 20'

# Keys written two ways and keys that sort as doubles (fixtures/spark-edge/keys.jsonl): one
# violation at each of nine events, of nine keys, and every key's last state.
set -- --key-by k --assert 'never (.geo.heading > 100 and .geo.heading < 110)' \
  --assert-final '.geo.heading < 0'
compare 'keys, all, json' 1 fixtures/spark-edge/keys.jsonl 4 "$@" --max-failures 0 --format json
compare 'keys, 12, text' 1 fixtures/spark-edge/keys.jsonl 4 "$@" --max-failures 12

# Blank and bad lines, an unknown type, events without the key, a key written 1, 1.0 and 1e0,
# and strings to escape (fixtures/spark-edge/checks.jsonl): the bad line is skipped, and the
# status is 2, with the whole report.
set -- --key-by user --assert 'never .nav.modal == "login"' --assert '.nav.stack | length < 2' \
  --assert '.nav.stack | all(. != "é")' --assert-final '.nav.stack == []'
compare 'bad lines, all, text' 2 fixtures/spark-edge/checks.jsonl 3 "$@" --max-failures 0
compare 'bad lines, 3, json' 2 fixtures/spark-edge/checks.jsonl 3 "$@" --max-failures 3 \
  --format json

echo "test-spark: $compared checks, the same reports, summaries and statuses from Spark as" \
  "from one rasp"
