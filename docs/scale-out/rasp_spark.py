#!/usr/bin/env python3
"""Replay a keyed event log on Apache Spark with rasp, for logs too big for one machine.

The lines are partitioned by their key -- every line of a key lands in the same partition,
in the log's order -- and each partition is piped through one rasp:

    rasp replay --key-by PATH --final [--log-format NAME]

Keys are independent, so each partition's rasp prints the final state of each of its keys
exactly as one rasp over the whole log would. The driver then merges the partitions' lines in
the order rasp prints keys (jq's sort order), so that the output is byte for byte what one
rasp on one machine prints. See docs/scale-out.md.

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


def key_of(line, path):
    """The key of a line: the value at a dotted path ('device', 'payload.deviceId'), as
    canonical JSON; 'null' when the line has none. Lines of one rasp key get one key here."""
    try:
        value = json.loads(line)
    except ValueError:
        return "null"  # a bad line: rasp reports it, whichever partition reads it
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            return "null"
        value = value[part]
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


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
        return (3, value)
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
    parser.add_argument("rasp_options", nargs="*", help="more rasp options, after --")
    arguments = parser.parse_args()

    conf = SparkConf().setAppName("rasp replay").set("spark.ui.enabled", "false")
    if arguments.master:
        conf = conf.setMaster(arguments.master)
    context = SparkContext(conf=conf)
    context.setLogLevel("ERROR")
    path = arguments.key_by
    partitions = arguments.partitions

    # Each line with its key and its place in the log; partitioned by key alone, and sorted
    # within a partition by key, then place: each key's lines stay in the log's order.
    lines = context.textFile(arguments.log).zipWithIndex()
    keyed = lines.map(lambda pair: ((key_of(pair[0], path), pair[1]), pair[0]))
    ordered = keyed.repartitionAndSortWithinPartitions(
        partitions, partitionFunc=lambda key: portable_hash(key[0]))
    command = [arguments.rasp, "replay", "--key-by", path, "--final", "--on-error", "skip"]
    command += arguments.rasp_options
    finals = ordered.values().pipe(" ".join(shlex.quote(part) for part in command))

    # The partitions' final states, merged in rasp's order of keys.
    records = finals.collect()
    records.sort(key=lambda record: jq_order(json.loads(record)["key"]))
    output = sys.stdout.buffer
    for record in records:
        output.write(record.encode("utf-8") + b"\n")
    context.stop()


if __name__ == "__main__":
    main()
