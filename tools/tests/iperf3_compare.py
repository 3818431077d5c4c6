#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare a stripe-perf -J document with an iperf3 -J document of the
same test (TCP, client, -P N): iperf3's tree must have the same keys and
types in both, and the values iperf3's meaning and units.

    iperf3_compare.py STRIPE_PERF_JSON IPERF3_JSON

Checks, on both documents where they are identities of iperf3's own:
start.connected has one entry per stream; snd_cwnd is in bytes (the same
order of magnitude as iperf3's); an end stream's max_snd_cwnd, max_rtt,
min_rtt and mean_rtt are the max, min and mean over its interval samples;
cpu_utilization_percent is there, total = user + system. Rates within a
generous factor of iperf3's on loopback. Outside iperf3's tree
stripe-perf has one object of its own, "summary". Exit 1 on a mismatch,
each on a line.
"""
import json
import math
import sys

from jsoncheck import errors, fail, kind

# keys stripe-perf writes in iperf3's tree that iperf3 3.12 does not: as
# iperf3 3.13 and later write them
NEWER = {"start/test_start/bidir"}
# stripe-perf's own, outside iperf3's tree; iperf3 too writes "error"
OWN = {"summary", "error"}
RATE_FACTOR = 20	# loopback rates vary with the host and its load
CWND_FACTOR = 10	# same order of magnitude


def shape(sp, i3, path):
    """Same keys and types under path; lists element by element."""
    if kind(sp) != kind(i3):
        fail("%s: %s here, %s in iperf3" % (path, kind(sp), kind(i3)))
        return
    if isinstance(i3, dict):
        for k in sorted(set(i3) - set(sp)):
            fail("%s/%s: missing (iperf3 has it)" % (path, k))
        for k in sorted(set(sp) - set(i3)):
            if "%s/%s" % (path, k) not in NEWER:
                fail("%s/%s: not in iperf3's tree" % (path, k))
        for k in sorted(set(sp) & set(i3)):
            shape(sp[k], i3[k], "%s/%s" % (path, k))
    elif isinstance(i3, list):
        if len(sp) != len(i3):
            fail("%s: %d entries, iperf3 %d" % (path, len(sp), len(i3)))
        for n, (a, b) in enumerate(zip(sp, i3)):
            shape(a, b, "%s[%d]" % (path, n))


def identities(d, who):
    """What iperf3's own figures mean, checked on one document."""
    start, end = d["start"], d["end"]
    n = start["test_start"]["num_streams"]
    if len(start["connected"]) != n:
        fail("%s: %d connected entries for %d streams" %
             (who, len(start["connected"]), n))
    socks = [c["socket"] for c in start["connected"]]
    for e in end["streams"]:
        s = e["sender"]
        if s["socket"] not in socks:
            fail("%s: end stream socket %s not connected" %
                 (who, s["socket"]))
        iv = [x for i in d["intervals"] for x in i["streams"]
              if x["socket"] == s["socket"] and not x["omitted"]]
        if not iv:
            fail("%s: socket %s has no intervals" % (who, s["socket"]))
            continue
        rtt = [x["rtt"] for x in iv]
        want = {"max_rtt": max(rtt), "min_rtt": min(rtt),
                "max_snd_cwnd": max(x["snd_cwnd"] for x in iv),
                "max_snd_wnd": max(x.get("snd_wnd", -1) for x in iv)}
        for k, v in want.items():
            if s.get(k) != v:
                fail("%s: socket %s %s %s, its samples' is %s" %
                     (who, s["socket"], k, s.get(k), v))
        if not s["max_rtt"] >= s["mean_rtt"] >= s["min_rtt"]:
            fail("%s: socket %s max_rtt %s >= mean_rtt %s >= min_rtt %s"
                 " does not hold" % (who, s["socket"], s["max_rtt"],
                                     s["mean_rtt"], s["min_rtt"]))
        if abs(s["mean_rtt"] - sum(rtt) / len(rtt)) > 1:
            fail("%s: socket %s mean_rtt %s, its samples' %.1f" %
                 (who, s["socket"], s["mean_rtt"], sum(rtt) / len(rtt)))
    cpu = end.get("cpu_utilization_percent")
    if not isinstance(cpu, dict):
        fail("%s: no end.cpu_utilization_percent" % who)
        return
    for side in ("host", "remote"):
        t, u, s = (cpu.get("%s_%s" % (side, k), -1)
                   for k in ("total", "user", "system"))
        # iperf3 takes the total from its own clock reading: near only
        if not (0 <= u and 0 <= s and abs(t - u - s) <= 0.01 * t + 0.01 and
                0 < t < 100 * 1024):
            fail("%s: cpu %s total %s user %s system %s" %
                 (who, side, t, u, s))


def order(a, b, factor):
    return a > 0 and b > 0 and abs(math.log10(a / b)) < math.log10(factor)


def values(sp, i3):
    for k in ("sum_sent", "sum_received"):
        a = sp["end"][k]["bits_per_second"]
        b = i3["end"][k]["bits_per_second"]
        if not order(a, b, RATE_FACTOR):
            fail("end/%s/bits_per_second %.3g, iperf3 %.3g" % (k, a, b))
        if sp["end"][k]["bytes"] <= 0:
            fail("end/%s/bytes is 0" % k)
    cw = sorted(x["snd_cwnd"] for d in (sp, i3) for i in d["intervals"]
                for x in i["streams"])
    a = [x["snd_cwnd"] for i in sp["intervals"] for x in i["streams"]]
    b = [x["snd_cwnd"] for i in i3["intervals"] for x in i["streams"]]
    ma, mb = sorted(a)[len(a) // 2], sorted(b)[len(b) // 2]
    if cw and not order(ma, mb, CWND_FACTOR):
        fail("snd_cwnd %s (median), iperf3 %s: not bytes?" % (ma, mb))


def main(sp_path, i3_path):
    sp = json.load(open(sp_path))
    i3 = json.load(open(i3_path))
    if i3["start"]["test_start"]["protocol"] != "TCP":
        fail("iperf3 document: not a TCP test")
    for k in sorted(set(i3) - set(sp)):
        fail("/%s: missing (iperf3 has it)" % k)
    own = set(sp) - set(i3)
    if not own <= OWN or "summary" not in own:
        fail("outside iperf3's tree: %s, want only summary" % sorted(own))
    for k in sorted(set(sp) & set(i3)):
        shape(sp[k], i3[k], k)
    identities(i3, "iperf3")
    identities(sp, "stripe-perf")
    values(sp, i3)
    for e in errors:
        print(e)
    print("%d mismatches (%s: %d bytes, iperf3 %s: %d bytes)" % (
        len(errors), sp["start"]["version"], len(open(sp_path).read()),
        i3["start"]["version"], len(open(i3_path).read())))
    return 1 if errors else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1], sys.argv[2]))
    except (KeyError, IndexError, TypeError, ValueError) as e:
        for m in errors:
            print(m)
        print("%s: %s" % (type(e).__name__, e))
        sys.exit(1)
