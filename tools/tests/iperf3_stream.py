#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check stripe-perf's --json-stream events against its -J document of
the same test, as iperf3 3.17 writes its events.

    iperf3_stream.py [--lead SEC] STREAM JSON
    iperf3_stream.py STREAM -

STREAM holds the lines as a reader got them, each "SECONDS<TAB>LINE",
SECONDS when the line arrived. Every line is one JSON object with just
"event" and "data". With a JSON document (another run of the same test):
the events are start, interval (one or more), error (when the document
has one), summary, end; each data has the keys and kinds of the part of
the document of that name, start, an element of intervals, summary, end,
down to the leaves; a sender's interval sums add up to its total in the
end event (sum_sent; a receiver's to at most its sum_received: what
arrives after its last interval is in the total only), and there is one
for each of the summary's local intervals (TCP; a --bidir row alone may
add zero sums); the first interval arrived at
least --lead seconds (default 0.5) before the end, as a reader following
the stream sees them. With "-": a test that never ran, an error and an
empty end. Exit 1 on a mismatch, each on a line.
"""
import json
import sys

from jsoncheck import errors, fail, kind


def shape(v):
    """Keys and kinds down to the leaves; a list by its elements' shapes"""
    if isinstance(v, dict):
        return {k: shape(x) for k, x in v.items()}
    if isinstance(v, list):
        return sorted({json.dumps(shape(x), sort_keys=True) for x in v})
    return kind(v)


def diff(a, b, path):
    """Where shapes a (events) and b (-J) differ"""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(a.keys() | b.keys()):
            if k not in b:
                fail(f"{path}/{k}: only in the events")
            elif k not in a:
                fail(f"{path}/{k}: only in -J")
            else:
                diff(a[k], b[k], f"{path}/{k}")
    elif isinstance(a, list) and isinstance(b, list):
        # an empty list (none of that yet) matches any
        if a and b and a != b:
            fail(f"{path}[]: elements differ: {a} / {b}")
    elif a != b:
        fail(f"{path}: {a} in the events, {b} in -J")


def read_events(path):
    events = []
    for n, line in enumerate(open(path), 1):
        when, _, text = line.rstrip("\n").partition("\t")
        try:
            e = json.loads(text)
        except ValueError as ex:
            fail(f"line {n}: not JSON ({ex}): {text[:80]}")
            continue
        if not isinstance(e, dict) or sorted(e) != ["data", "event"]:
            fail(f"line {n}: not an object of event and data: {text[:80]}")
            continue
        events.append((float(when), e["event"], e["data"]))
    return events


def check_sums(events, summary, end):
    """A sender's sums add up to its total in end: no interval is
    missing, none twice (a receiver's to at most its total: what arrives
    after the last interval is in none); one for each of the summary's
    local intervals, and what else they have is a zero row of a --bidir
    direction without one"""
    rows = [d for _, e, d in events if e == "interval"]
    for key, suffix, side in (
            ("sum", "", summary),
            ("sum_bidir_reverse", "_bidir_reverse",
             summary.get("bidir_reverse"))):
        if not side or not rows or key not in rows[0]:
            continue
        got = [r[key] for r in rows]
        total = "%s%s" % ("sum_sent" if got[0]["sender"] else
                          "sum_received", suffix)
        counted = sum(g["bytes"] for g in got if not g["omitted"])
        if total not in end or counted > end[total]["bytes"] or \
                got[0]["sender"] and counted != end[total]["bytes"]:
            fail(f"interval {key}: {counted} bytes in all, end {total} "
                 f"{end.get(total, {}).get('bytes')}")
        want = len(side.get("local", {}).get("intervals", []))
        if want and not want <= len(got) or \
                want and sum(1 for g in got if g["bytes"]) > want:
            fail(f"interval {key}: {len(got)} events, the summary has "
                 f"{want} local intervals")


def main():
    args = sys.argv[1:]
    lead = 0.5
    if args[:1] == ["--lead"]:
        lead = float(args[1])
        args = args[2:]
    if len(args) != 2:
        sys.exit(__doc__)
    events = read_events(args[0])
    names = [e for _, e, _ in events]

    if args[1] == "-":
        if names != ["error", "end"] or events[1][2] != {} or \
                not isinstance(events[0][2], str) or not events[0][2]:
            fail(f"a test that never ran: events {names}, want error, end")
        return

    doc = json.load(open(args[1]))
    n = names.count("interval")
    want = ["start"] + ["interval"] * n + \
        (["error"] if "error" in doc else []) + ["summary", "end"]
    if not n or names != want:
        fail(f"events {names}, want start, interval x N (N >= 1), "
             "[error,] summary, end")
    first = {}
    for when, e, d in events:
        first.setdefault(e, (when, d))
    for name, part in (("start", doc.get("start")),
                       ("interval", (doc.get("intervals") or [None])[0]),
                       ("summary", doc.get("summary")),
                       ("end", doc.get("end"))):
        if name in first and part is not None:
            diff(shape(first[name][1]), shape(part), name)
    if "summary" in first and "end" in first:
        check_sums(events, first["summary"][1], first["end"][1])
    if "interval" in first and "end" in first and \
            first["end"][0] - first["interval"][0] < lead:
        fail(f"the first interval came {first['end'][0] - first['interval'][0]:.3f} s "
             f"before the end, not {lead} s: not as it happened")
    if not errors:
        print(f"{len(events)} events: start, {n} intervals, "
              f"{', '.join(names[n + 1:])}; data as -J's")


if __name__ == "__main__":
    main()
    for e in errors:
        print(e)
    sys.exit(1 if errors else 0)
