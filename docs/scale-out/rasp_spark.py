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

Usage:
    spark-submit rasp_spark.py --rasp /usr/local/bin/rasp --key-by device events.jsonl
    python3 rasp_spark.py --master local[2] --rasp .build/release/rasp --key-by device log
"""

import argparse
import json
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
    parser.add_argument("rasp_options", nargs="*", help="more rasp options, after --")
    arguments = parser.parse_args()

    conf = SparkConf().setAppName("rasp replay").set("spark.ui.enabled", "false")
    if arguments.master:
        conf = conf.setMaster(arguments.master)
    context = SparkContext(conf=conf)
    context.setLogLevel("ERROR")
    path = arguments.key_by
    inner = arguments.inner
    partitions = arguments.partitions

    # Each line with its key and its place in the log; partitioned by key alone, and sorted
    # within a partition by key, then place: each key's lines stay in the log's order.
    lines = context.textFile(arguments.log).zipWithIndex()
    keyed = lines.map(lambda pair: ((key_of(pair[0], path, inner), pair[1]), pair[0]))
    ordered = keyed.repartitionAndSortWithinPartitions(
        partitions, partitionFunc=lambda key: portable_hash(key[0]))
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
