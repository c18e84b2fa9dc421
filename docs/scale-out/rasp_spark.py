#!/usr/bin/env python3
"""Replay a keyed event log on Apache Spark with rasp, for logs too big for one machine.

The lines are partitioned by their key -- every line of a key lands in the same partition,
in the log's order -- and each partition is piped through one rasp:

    rasp replay --key-by PATH --final [--log-format NAME]

Keys are independent, so each partition's rasp prints the final state of each of its keys
exactly as one rasp over the whole log would. The driver then merges the partitions' lines in
the order rasp prints keys (jq's sort order), so that the output is byte for byte what one
rasp on one machine prints with the same options (`--on-error skip`: a bad line is skipped,
wherever it is). Each line must hold one event: split batch lines (CloudEvents, Segment,
OTLP) first. See docs/scale-out.md.

With --assert or --assert-final, it checks instead, as

    rasp check --key-by PATH --assert EXPR ... [--max-failures N] [--format json]

does on one machine: each partition is piped through `rasp check ... --format json
--applied-lines`, and the driver merges the partitions' reports into the one report, the
summary and the exit status that one rasp gives over the whole file -- the violations in its
order, --max-failures over all of them, each event numbered and placed as in the file.

Usage:
    spark-submit rasp_spark.py --rasp /usr/local/bin/rasp --key-by device events.jsonl
    python3 rasp_spark.py --master local[2] --rasp .build/release/rasp --key-by device log
    spark-submit rasp_spark.py --rasp rasp --key-by device --assert '.geo.heading >= 0' log
"""

import argparse
import bisect
import functools
import json
import re
import shlex
import sys

from pyspark import SparkConf, SparkContext
from pyspark.rdd import portable_hash


def normalized(value):
    """A JSON value with every number as a double: 1, 1.0 and 1e0 are one key to rasp, and
    must be in one partition. Whole numbers past 2**53, which rasp tells apart exactly, may
    be one here: they only share a partition."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        number = float(value)
        return int(number) if number.is_integer() and abs(number) < 2**53 else number
    if isinstance(value, list):
        return [normalized(item) for item in value]
    return {key: normalized(item) for key, item in value.items()}


def key_of(line, path, inner=None):
    """The key of a line: the value at a dotted path ('device', 'payload.deviceId'), as
    JSON text; 'null' when the line has none. Every line of one rasp key gets one key here.
    With `inner` (a Kafka message's 'payload'), the event held in that field is looked in
    first, as rasp reads a key: the event's own field, then the message's."""
    try:
        value = json.loads(line)
    except ValueError:
        return "null"  # a bad line: rasp reports it, whichever partition reads it
    if isinstance(value, list):
        raise ValueError("a batch line holds several events: split it first")
    roots = [value]
    if inner and isinstance(value, dict):
        event = value.get(inner)
        if isinstance(event, str):
            try:
                event = json.loads(event)
            except ValueError:
                event = None
        if isinstance(event, dict):
            roots.insert(0, event)
    for root in roots:
        found = root
        for part in path.split("."):
            if not isinstance(found, dict) or part not in found:
                found = None
                break
            found = found[part]
        if found is not None:
            return json.dumps(
                normalized(found), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "null"


def jq_order(value):
    """A sort key that orders JSON values as jq's sort does, as rasp prints keys: null,
    false, true, numbers, strings (by their UTF-8 bytes), arrays, objects."""
    if value is None:
        return (0,)
    if value is False:
        return (1,)
    if value is True:
        return (2,)
    if isinstance(value, (int, float)):
        return (3, value)  # Python compares an int and a float exactly, as rasp does
    if isinstance(value, str):
        return (4, value.encode("utf-8"))
    if isinstance(value, list):
        return (5, [jq_order(item) for item in value])
    keys = sorted(value, key=lambda key: key.encode("utf-8"))
    return (6, [key.encode("utf-8") for key in keys], [jq_order(value[key]) for key in keys])


def as_double(number):
    """A number as the double rasp compares it as."""
    try:
        return float(number)
    except OverflowError:
        return float("inf") if number > 0 else float("-inf")


def predicate_order(a, b):
    """-1, 0 or 1 as `a` is before, equal to or after `b` in the order of rasp check's
    predicates (PredicateOrder), by which it checks final assertions key by key: jq's order
    of types, whole numbers exactly when both are, other numbers as doubles (so that
    12345678901234567890 and 1.2345678901234567e19 are equal, and rasp keeps them in the
    order it met them), strings and object keys by their UTF-8 bytes."""
    def rank(value):
        if value is None:
            return 0
        if value is False:
            return 1
        if value is True:
            return 2
        if isinstance(value, (int, float)):
            return 3
        if isinstance(value, str):
            return 4
        return 5 if isinstance(value, list) else 6

    def sign(x, y):
        return -1 if x < y else 1 if x > y else 0

    rank_a, rank_b = rank(a), rank(b)
    if rank_a != rank_b:
        return sign(rank_a, rank_b)
    if rank_a == 3:
        if isinstance(a, int) and isinstance(b, int):
            return sign(a, b)
        return sign(as_double(a), as_double(b))
    if rank_a == 4:
        return sign(a.encode("utf-8"), b.encode("utf-8"))
    if rank_a == 5:
        for x, y in zip(a, b):
            result = predicate_order(x, y)
            if result:
                return result
        return sign(len(a), len(b))
    if rank_a == 6:
        keys_a = sorted(a, key=lambda key: key.encode("utf-8"))
        keys_b = sorted(b, key=lambda key: key.encode("utf-8"))
        result = predicate_order(keys_a, keys_b)
        if result:
            return result
        for key in keys_a:
            result = predicate_order(a[key], b[key])
            if result:
                return result
    return 0


def json_string(text):
    """A string as rasp's JSON writer writes it: '"', '\\' and control characters escaped
    (DEL as \\u007f), every other character as itself."""
    short = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t",
             "\b": "\\b", "\f": "\\f"}
    out = []
    for character in text:
        if character in short:
            out.append(short[character])
        elif ord(character) < 0x20 or ord(character) == 0x7F:
            out.append("\\u%04x" % ord(character))
        else:
            out.append(character)
    return '"' + "".join(out) + '"'


def raw_members(text, start=0):
    """The members of the JSON object at `start` of `text` (compact, as rasp writes it), in
    order: (name, its value's text exactly as written), and where the object ends."""
    decoder = json.JSONDecoder()
    members = []
    position = start + 1
    while text[position] != "}":
        name, position = decoder.raw_decode(text, position)
        value_start = position + 1  # after ':'
        _, position = decoder.raw_decode(text, value_start)
        members.append((name, text[value_start:position]))
        if text[position] == ",":
            position += 1
    return members, position + 1


def raw_elements(text):
    """The elements of the JSON array `text`, each as written."""
    decoder = json.JSONDecoder()
    elements = []
    position = 1
    while text[position] != "]":
        _, end = decoder.raw_decode(text, position)
        elements.append(text[position:end])
        position = end + (text[end] == ",")
    return elements


# What an assertion may read of $event on Spark: a partition's rasp numbers its own lines and
# events, and reads standard input, so $event.seq, $event.line and $event.file are not the
# file's.
EVENT_READ = re.compile(r"\$event(?!\s*\.\s*(?:type|payload|ts)\b)")


def count(number, noun):
    """'1 violation', '2 violations', as rasp counts."""
    return "1 " + noun if number == 1 else "%d %ss" % (number, noun)


def partial_report(pair):
    """One partition's report, from its lines' places in the log and what its rasp printed
    (the report, then the status): the counts, the violations with their places, and the
    places of the lines whose events were applied, sorted."""
    places, output = pair
    status = int(output[-1]) if output and output[-1].strip().isdigit() else 70
    if len(output) != 2:
        return {"status": status, "report": False}
    text = output[0]
    report = json.loads(text)
    members, _ = raw_members(text)
    violations = []
    for index, violation_text in enumerate(raw_elements(dict(members)["violations"])):
        violation, _ = raw_members(violation_text)
        fields = dict(violation)
        line = json.loads(fields["line"])
        violations.append({
            "members": violation,
            "final": fields["final"] == "true",
            "place": None if line is None else places[line - 1],
            "key": fields["key"],
            "index": index,
        })
    applied = []
    for run in report["appliedLines"][0]["runs"] if report["appliedLines"] else []:
        applied.extend(places[line - 1] for line in range(run[0], run[1] + 1))
    applied.sort()
    return {
        "status": status, "report": True, "assertions": report["assertions"],
        "events": report["events"], "violationCount": report["violationCount"],
        "violations": violations, "applied": applied,
    }


def violation_text(violation, seq, name, line):
    """A violation's lines, as rasp check prints them for people."""
    fields = {member: json.loads(text) for member, text in violation["members"]}
    raw = dict(violation["members"])
    place = []
    if seq is not None:
        place.append("event %d" % seq)
    if line is not None:
        place.append("%s:%d" % (name, line))
    place.append("key " + raw["key"])  # under --key-by, every violation has its key
    place_text = " (" + ", ".join(place) + ")"
    if violation["final"]:
        lines = ["final assertion failed: " + fields["assertion"] + place_text]
    else:
        lines = ["assertion failed: " + fields["assertion"] + place_text,
                 "  event: " + raw["event"]]
    paths_text = raw["paths"]
    for path_text in raw_elements(paths_text):
        path = dict(raw_members(path_text)[0])
        label = json.loads(path["path"])
        if violation["final"] or path["before"] == path["after"]:
            lines.append("    %s: %s" % (label, path["after"]))
        else:
            lines.append("  - %s: %s" % (label, path["before"]))
            lines.append("  + %s: %s" % (label, path["after"]))
    return "\n".join(lines) + "\n"


def violation_json(violation, seq, name, line):
    """A violation as rasp check writes it in its JSON report, placed in the file."""
    replaced = {"seq": "null" if seq is None else str(seq),
                "file": "null" if line is None else json_string(name),
                "line": "null" if line is None else str(line)}
    return "{" + ",".join(json_string(member) + ":" + replaced.get(member, text)
                          for member, text in violation["members"]) + "}"


def check(context, ordered, arguments):
    """Checks the assertions per partition and prints the merged report; returns the summary
    for standard error (None after an error) and the status, those of one rasp check over
    the whole file."""
    command = [arguments.rasp, "check", "--key-by", arguments.key_by, "--on-error", "skip",
               "--format", "json", "--applied-lines",
               "--max-failures", str(arguments.max_failures)]
    for text in arguments.assertions:
        command += ["--assert", text]
    for text in arguments.final_assertions:
        command += ["--assert-final", text]
    command += arguments.rasp_options
    # Each partition prints its report, then rasp's status on a line of its own. Its
    # diagnostics go on to standard error, but for its one-line summary: the driver prints the
    # whole log's.
    script = (
        'err=$(mktemp) || exit 70; '
        + " ".join(shlex.quote(part) for part in command) + ' 2> "$err"; status=$?; '
        + "if tail -n 1 \"$err\" | grep -Eq "
        + shlex.quote("^rasp: [0-9]+ (assertions? holds? over|violations? of) ")
        + '; then sed \'$d\' "$err" >&2; else cat "$err" >&2; fi; '
        + 'rm -f "$err"; echo "$status"')
    places = ordered.keys().map(lambda key: key[1]).glom()
    outputs = ordered.values().pipe("sh -c " + shlex.quote(script)).glom()
    partials = places.zip(outputs).map(partial_report).cache()
    reports = partials.map(
        lambda partial: {name: value for name, value in partial.items() if name != "applied"}
    ).collect()
    failed = [report["status"] for report in reports if not report["report"]]
    if failed:
        sys.stderr.write("rasp_spark: error: a partition's rasp check failed with status %d "
                         "(its error is above)\n" % failed[0])
        partials.unpersist()
        return None, failed[0] if failed[0] != 0 else 70

    # One rasp reports the violations after events in the order of the events (each
    # partition's are in that order already), then the final ones in the order of the keys,
    # at most --max-failures of them.
    checked = [v for report in reports for v in report["violations"] if not v["final"]]
    checked.sort(key=lambda v: (v["place"], v["index"]))
    # Keys equal in that order are equal as doubles, so in one partition, whose rasp kept
    # them in the order it met them, as one rasp does: the partition's order breaks the tie.
    finals = [(number, v) for number, report in enumerate(reports)
              for v in report["violations"] if v["final"]]

    def final_order(left, right):
        result = predicate_order(json.loads(left[1]["key"]), json.loads(right[1]["key"]))
        if result:
            return result
        return -1 if (left[0], left[1]["index"]) < (right[0], right[1]["index"]) else 1

    finals = [v for _, v in sorted(finals, key=functools.cmp_to_key(final_order))]
    shown = checked + finals
    if arguments.max_failures > 0:
        shown = shown[:arguments.max_failures]
    violation_count = sum(report["violationCount"] for report in reports)
    assertions = reports[0]["assertions"]
    events = sum(report["events"] for report in reports)

    # An event's number is how many events were applied up to it, in every partition.
    candidates = sorted({v["place"] for v in shown if v["place"] is not None})
    seqs = {}
    if candidates:
        wanted = context.broadcast(candidates)
        counts = partials.map(
            lambda partial: [bisect.bisect_right(partial["applied"], place)
                             for place in wanted.value]
        ).reduce(lambda left, right: [a + b for a, b in zip(left, right)])
        seqs = dict(zip(candidates, counts))
    partials.unpersist()

    name = arguments.name if arguments.name is not None else arguments.log
    def placed(v):
        if v["place"] is None:
            return None, None
        return seqs[v["place"]], v["place"] + 1

    output = sys.stdout.buffer
    if arguments.format == "json":
        documents = []
        for v in shown:
            seq, line = placed(v)
            documents.append(violation_json(v, seq, name, line))
        output.write(("{\"assertions\":%d,\"events\":%d,\"holds\":%s,\"violationCount\":%d,"
                      "\"violations\":[%s]}\n" % (
                          assertions, events, "true" if violation_count == 0 else "false",
                          violation_count, ",".join(documents))).encode("utf-8"))
    else:
        blocks = []
        for v in shown:
            seq, line = placed(v)
            blocks.append(violation_text(v, seq, name, line))
        text = "\n".join(blocks)
        more = violation_count - len(shown)
        if more > 0:
            text += "\n%s not shown (see --max-failures)\n" % count(more, "more violation")
        output.write(text.encode("utf-8"))
    output.flush()

    assertions_text = count(assertions, "assertion")
    over = "over " + count(events, "event")
    if violation_count == 0:
        summary = "rasp: %s %s %s\n" % (assertions_text,
                                          "holds" if assertions == 1 else "hold", over)
    else:
        summary = "rasp: %s of %s %s" % (count(violation_count, "violation"), assertions_text,
                                          over)
        if shown:
            if shown[0]["final"]:
                summary += ", the first on the last state"
            elif shown[0]["place"] is not None:
                summary += ", the first at event %d" % placed(shown[0])[0]
        summary += "\n"
    # A partition that skipped a bad line says so with status 2, as one rasp does.
    if any(report["status"] == 2 for report in reports):
        status = 2
    elif violation_count:
        status = 1
    else:
        status = 0
    return summary, status


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("log", help="the event log (a path Spark reads: file, HDFS, S3)")
    parser.add_argument("--rasp", default="rasp", help="the rasp command on every worker")
    parser.add_argument("--key-by", required=True, help="the key's path, as rasp's --key-by")
    parser.add_argument("--partitions", type=int, default=8, help="how many partitions")
    parser.add_argument("--master", default=None, help="Spark's master, such as local[2]")
    parser.add_argument(
        "--inner", default=None,
        help="the field that holds each line's event, for --log-format kcat: payload")
    parser.add_argument(
        "--assert", dest="assertions", action="append", default=[], metavar="EXPR",
        help="check that every state satisfies EXPR, as rasp check --assert (repeatable)")
    parser.add_argument(
        "--assert-final", dest="final_assertions", action="append", default=[],
        metavar="EXPR", help="check that each key's last state satisfies EXPR (repeatable)")
    parser.add_argument(
        "--max-failures", type=int, default=1,
        help="report at most this many violations (1 by default; 0 reports all)")
    parser.add_argument(
        "--format", choices=["text", "json"], default="text", help="the report's format")
    parser.add_argument(
        "--name", default=None,
        help="the log's name in the report (the log's path as given, by default)")
    parser.add_argument("rasp_options", nargs="*", help="more rasp options, after --")
    arguments = parser.parse_args()
    checking = bool(arguments.assertions or arguments.final_assertions)
    if arguments.max_failures < 0:
        parser.error("--max-failures: expected a whole number from 0")
    for text in arguments.assertions + arguments.final_assertions:
        if EVENT_READ.search(text):
            parser.error(
                "the assertion '%s' reads $event but for its type, payload or ts: each "
                "partition's rasp numbers its own lines and events" % text)

    conf = SparkConf().setAppName("rasp check" if checking else "rasp replay")
    conf = conf.set("spark.ui.enabled", "false").set("spark.ui.showConsoleProgress", "false")
    if arguments.master:
        conf = conf.setMaster(arguments.master)
    context = SparkContext(conf=conf)
    context.setLogLevel("ERROR")
    path = arguments.key_by
    inner = arguments.inner
    partitions = arguments.partitions

    # Each line with its key and its place in the log; partitioned by key alone, and sorted
    # within a partition by key, then place: each key's lines stay in the log's order. A
    # check sorts them by place alone, so that each partition's rasp finds its violations in
    # the log's order.
    lines = context.textFile(arguments.log).zipWithIndex()
    keyed = lines.map(lambda pair: ((key_of(pair[0], path, inner), pair[1]), pair[0]))
    ordered = keyed.repartitionAndSortWithinPartitions(
        partitions, partitionFunc=lambda key: portable_hash(key[0]),
        keyfunc=(lambda key: key[1]) if checking else (lambda key: key))
    if checking:
        summary, status = check(context, ordered, arguments)
        context.stop()
        if summary is not None:
            sys.stderr.write(summary)
            sys.stderr.flush()
        sys.exit(status)
    command = [arguments.rasp, "replay", "--key-by", path, "--final", "--on-error", "skip"]
    command += arguments.rasp_options
    # rasp's status is 2 when it skipped a bad line, which it reported: the partition's keys
    # are all there. Any other failure (a usage error, 64) fails the job.
    script = " ".join(shlex.quote(part) for part in command)
    script += "; status=$?; [ $status -le 2 ] || exit $status"
    finals = ordered.values().pipe("sh -c " + shlex.quote(script), checkCode=True)

    # The partitions' final states, merged in rasp's order of keys: by value, numbers exactly,
    # and between equal values by the key's text, as rasp breaks ties.
    def order(record):
        value, end = json.JSONDecoder().raw_decode(record, len('{"key":'))
        return (jq_order(value), record[len('{"key":'):end].encode("utf-8"))

    records = finals.collect()
    records.sort(key=order)
    output = sys.stdout.buffer
    for record in records:
        output.write(record.encode("utf-8") + b"\n")
    context.stop()


if __name__ == "__main__":
    main()
