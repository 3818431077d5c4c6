#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A consumer of iperf3 -J output, written against iperf3's documented
shape and nothing of stripe-perf's: tests/smoke.sh feeds it stripe-perf
-J runs (TCP and UDP) to show that tools reading iperf3 read them too.

Prints one line per run: protocol, streams, sender and receiver rates,
and retransmits (TCP) or jitter and loss (UDP). Exit 1 if a field an
iperf3 consumer relies on is missing or of the wrong type.
"""
import json
import sys


def num(d, *path):
    for k in path:
        d = d[k]
    if isinstance(d, bool) or not isinstance(d, (int, float)):
        raise TypeError("%s is not a number" % "/".join(path))
    return d


def main(path):
    d = json.load(open(path))
    start, end = d["start"], d["end"]
    ts = start["test_start"]
    proto = ts["protocol"]
    conn = start["connected"][0]
    assert isinstance(conn["local_host"], str), "connected.local_host"
    num(conn, "remote_port")
    num(start, "timestamp", "timesecs")
    streams = num(ts, "num_streams")
    # --bidir (iperf3 3.13 and later say so in test_start too): as many
    # streams again the other way, summed under the *_bidir_reverse keys
    bidir = bool(ts.get("bidir", 0)) or "sum_sent_bidir_reverse" in end
    sums = ["sum"] + (["sum_bidir_reverse"] if bidir else [])
    measured = 0
    for iv in d["intervals"]:
        for k in sums:
            num(iv, k, "bits_per_second")
            num(iv, k, "seconds")
            assert isinstance(iv[k]["omitted"], bool), "omitted"
        for s in iv["streams"]:
            num(s, "bytes")
            assert isinstance(s["omitted"], bool), "omitted"
            assert isinstance(s["sender"], bool), "sender"
        measured += not iv["sum"]["omitted"]
    assert len(end["streams"]) == streams * (1 + bidir), "end.streams"
    sent = num(end, "sum_sent", "bits_per_second")
    recv = num(end, "sum_received", "bits_per_second")
    if bidir:
        extra_rev = ", reverse received %.1f Mbit/s" % (
            num(end, "sum_received_bidir_reverse", "bits_per_second") / 1e6)
        num(end, "sum_sent_bidir_reverse", "bytes")
    else:
        extra_rev = ""
    if proto == "TCP":
        extra = "retransmits %d" % num(end, "sum_sent", "retransmits")
        for s in end["streams"]:
            num(s, "sender", "bytes")
            num(s, "receiver", "bytes")
    else:
        extra = "jitter %.3f ms, lost %d/%d (%.2f%%)" % (
            num(end, "sum", "jitter_ms"), num(end, "sum", "lost_packets"),
            num(end, "sum", "packets"), num(end, "sum", "lost_percent"))
        for s in end["streams"]:
            num(s, "udp", "bits_per_second")
        if bidir:
            num(end, "sum_bidir_reverse", "lost_packets")
    print("%s %d stream(s)%s, %d intervals (%d omitted): sent %.1f "
          "Mbit/s, received %.1f Mbit/s, %s%s" % (
              proto, streams, " each way" if bidir else "",
              len(d["intervals"]), len(d["intervals"]) - measured,
              sent / 1e6, recv / 1e6, extra, extra_rev))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1]))
    except (KeyError, IndexError, TypeError, AssertionError,
            ValueError) as e:
        print("not an iperf3 document: %s: %s" % (type(e).__name__, e))
        sys.exit(1)
