#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that a stripe-perf -J document's "summary" holds only stripe-perf's
own figures, each once (review U2): no figure of iperf3's tree again.

    summary_own.py JSON...

Every leaf of summary must be one of the keys below, in its place: a
side's intervals have iperf3's keys (start, end, bytes, ...) only on the
peer's side, whose intervals iperf3's tree does not have; this end's are
intervals[].sum. And no byte count, rate or duration of iperf3's intervals
and end may appear in summary, but in the peer's intervals (paced UDP: the
peer sent what this end received, the same figure measured twice).
Exit 1 on a mismatch, each on a line.
"""
import json
import sys

from jsoncheck import errors, fail

HIST = {"min", "max", "count"}
# a UDP receiver's own: iperf3's end.sum and end.streams[].udp have sent
# (packets), lost (lost_packets), the loss ratio (lost_percent),
# reordered (out_of_order) and jitter (jitter_ms)
UDP = {"received": None, "duplicates": None, "corrupt": None,
       "foreign": None, "reordered_ratio": None, "max_extent": None,
       "extent_hist": HIST, "degree_hist": HIST, "rbd_hist": HIST,
       "n_reordering": {"n", "count", "ratio"},
       "rbd_max": None, "rbd_lost": None, "rbd_late": None,
       "owd_us": {"count", "min", "mean", "p50", "p90", "p99", "max",
                  "negative", "clocks_synced"},
       "pdv_us": {"p50", "p90", "p99", "max"}}
# TCP_INFO at a stream's end; a sender's retransmits are iperf3's
TCP = {"retransmits", "bytes_retrans", "reordering", "reord_seen",
       "dsack_dups", "rcv_ooopack", "lost", "rtt_us", "rttvar_us",
       "min_rtt_us", "cwnd", "mss", "pmtu", "mptcp_subflows",
       "mptcp_fallback"}
# a side's interval sums: this end's lack what iperf3's intervals[].sum
# (and its streams' rtt, snd_cwnd) have
IVAL_OWN = {"reord_seen", "reordering", "rcv_ooopack"}
IVAL_PEER = IVAL_OWN | {"start", "end", "bytes", "bits_per_second",
                        "retransmits", "packets", "rtt_us", "cwnd",
                        "omitted"}
DIRECTION = {"integrity_ok", "udp", "local", "remote"}
TOP = DIRECTION | {"host", "family", "interval", "mptcp", "bidir_reverse",
                   "stripe", "remote_stripe"}


def keys(obj, allowed, path):
    if not isinstance(obj, dict):
        fail("%s: not an object" % path)
        return {}
    for k in sorted(set(obj) - set(allowed)):
        fail("%s/%s: not stripe-perf's own (iperf3's tree has it, or "
             "it is there twice)" % (path, k))
    return obj


def leaves(obj, allowed, path):
    """obj's members: each in allowed, a leaf (allowed[k] None) or an
    object or list of objects of the keys allowed[k]"""
    for k, v in keys(obj, allowed, path).items():
        sub = allowed.get(k) if isinstance(allowed, dict) else None
        if sub is None:
            if isinstance(v, (dict, list)):
                fail("%s/%s: not a leaf" % (path, k))
        elif isinstance(v, list):
            for n, e in enumerate(v):
                keys(e, sub, "%s/%s[%d]" % (path, k, n))
        else:
            keys(v, sub, "%s/%s" % (path, k))


def side(s, peer, udp, path):
    keys(s, {"role", "streams", "intervals"}, path)
    sender = s.get("role") == "sender"
    for n, st in enumerate(s.get("streams", [])):
        p = "%s/streams[%d]" % (path, n)
        keys(st, {"id", "corrupt_bytes", "first_corrupt_offset", "tcp",
                  "udp"}, p)
        if "tcp" in st:
            keys(st["tcp"], TCP - ({"retransmits"} if sender else set()),
                 p + "/tcp")
        if "udp" in st:
            leaves(st["udp"], UDP, p + "/udp")
            if len(s["streams"]) < 2:
                fail("%s/udp: one stream's figures are the summary's "
                     "udp" % p)
    if not peer and udp and "intervals" in s:
        fail("%s/intervals: a UDP side's own are all iperf3's" % path)
    for n, iv in enumerate(s.get("intervals", [])):
        keys(iv, IVAL_PEER if peer else IVAL_OWN,
             "%s/intervals[%d]" % (path, n))


def direction(d, udp, path):
    keys(d, DIRECTION, path)
    if "udp" in d:
        leaves(d["udp"], UDP, path + "/udp")
    if "local" in d:
        side(d["local"], False, udp, path + "/local")
    if "remote" in d:
        side(d["remote"], True, udp, path + "/remote")


# iperf3's figures of an amount: the same gauge (pmtu, mss) read by both
# ends, or a count of 0, is no repetition
AMOUNTS = {"bytes", "bits_per_second", "seconds"}


def amounts(obj):
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in AMOUNTS and isinstance(v, (int, float)) and \
                    not isinstance(v, bool) and \
                    (v != int(v) or abs(v) >= 1000):
                yield v
            else:
                yield from amounts(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from amounts(v)


def figures(obj, path, found):
    """(path, value) of obj's numbers that are in found"""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from figures(v, "%s/%s" % (path, k), found)
    elif isinstance(obj, list):
        for n, v in enumerate(obj):
            yield from figures(v, "%s[%d]" % (path, n), found)
    elif isinstance(obj, (int, float)) and not isinstance(obj, bool) and \
            obj in found:
        yield path, obj


def check(path):
    d = json.load(open(path))
    s = d["summary"]
    udp = d["start"]["test_start"]["protocol"] == "UDP"
    keys(s, TOP, "summary")
    direction({k: v for k, v in s.items() if k in DIRECTION}, udp,
              "summary")
    if "bidir_reverse" in s:
        direction(s["bidir_reverse"], udp, "summary/bidir_reverse")
    i3 = set(amounts([d["intervals"], d["end"]]))
    found = []
    # all but the peer's intervals, the interval asked for and the
    # device counters
    skip = ("interval", "bidir_reverse", "remote", "stripe", "remote_stripe")
    for path, o in (("summary", s),
                    ("summary/bidir_reverse", s.get("bidir_reverse", {}))):
        own = {k: v for k, v in o.items() if k not in skip}
        if "remote" in o:
            own["remote"] = {"streams": o["remote"].get("streams", [])}
        found.extend(figures(own, path, i3))
    for p, v in found:
        fail("%s: %s is a figure of iperf3's tree" % (p, v))


def main(paths):
    for p in paths:
        n = len(errors)
        check(p)
        for e in errors[n:]:
            print("%s: %s" % (p, e))
    if not errors:
        print("%d documents: summary has stripe-perf's own figures, each "
              "once" % len(paths))
    return 1 if errors else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (KeyError, IndexError, TypeError, ValueError) as e:
        for m in errors:
            print(m)
        print("%s: %s" % (type(e).__name__, e))
        sys.exit(1)
