#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A hostile stripe-perf client, for tests/hostile.sh.

Runs one UDP test against a server the way an attacker would: it states
a test, then sends datagrams that are well formed but jump the sequence
number ahead by the most a receiver accepts, datagrams carrying another
test's cookie, datagrams with the right cookie from another address, and
garbage. "Slowloris" control connections never finish their request, or
send a megabyte without a message end.

Then it opens the slowloris connections and holds them for --hold seconds,
for an honest client to run past.

With --bidir it instead states a TCP test in both directions (--bidir),
which makes the server accept twice the data connections and send on the
second half: it greets with ids past the last, an id taken twice, another
test's cookie and garbage, then sends garbage on its own streams and
resets the ones the server sends on.

With --idle-data it states a TCP test of two streams and, during the
setup, opens as many data connections as the server has slots that never
greet (some send half a greeting), then greets one stream: the server
must evict the oldest idle one to make room, and the rest once they have
been silent for its greeting timeout, so the second stream, greeted after
that, gets in too and the test starts.

It speaks protocol version 2 (cookie in every datagram) and falls back to
version 1 (no cookie) if the server asks for it, so the same attack runs
against an old server.

Prints one JSON object: what it sent and what the server reported back.
"""
import argparse
import json
import os
import socket
import struct
import sys
import time

JUMP = 1 << 24          # the largest jump ahead a receiver accepts


def fnv1a(data):
    h = 2166136261
    for b in data:
        h ^= b
        h = (h * 16777619) & 0xffffffff
    return h


def datagram(version, cookie, sid, seq):
    """A header-only datagram (no payload, so no pattern to get right)."""
    if version == 1:
        hdr = struct.pack(">4sIQQI", b"SPU1", sid, seq, time.time_ns(), 32)
        return hdr + struct.pack(">I", fnv1a(hdr))
    hdr = struct.pack(">4sIQQI16s", b"SPU2", sid, seq, time.time_ns(), 48,
                      cookie)
    return hdr + struct.pack(">I", fnv1a(hdr))


def msg(verb, kv):
    return (verb + "\n" + "".join("%s %s\n" % (k, v) for k, v in kv) +
            "\n").encode()


def read_msg(sock, buf, deadline):
    while b"\n\n" not in buf[0]:
        sock.settimeout(max(0.01, deadline - time.time()))
        data = sock.recv(65536)
        if not data:
            raise EOFError("server closed the control connection")
        buf[0] += data
    text, buf[0] = buf[0].split(b"\n\n", 1)
    lines = text.decode().split("\n")
    kv = {}
    for line in lines[1:]:
        k, _, v = line.partition(" ")
        kv[k] = v
    return lines[0], kv


def slowloris(port, n, junk):
    """Control connections that never finish a request."""
    held = []
    for i in range(n):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=2)
        except OSError:
            break
        s.setblocking(False)
        try:
            if i < junk:
                s.send(b"PARAMS\n" + b"x" * (1 << 20))
            else:
                s.send(b"PARAMS\nversion 2\n")
        except OSError:
            pass
        held.append(s)
    return held


def attack(port, version, streams, jumps):
    cookie = os.urandom(16)
    ctrl = socket.create_connection(("127.0.0.1", port), timeout=5)
    buf = [b""]
    ctrl.sendall(msg("PARAMS", [
        ("version", version), ("protocol", "udp"), ("mptcp", 0),
        ("reverse", 0), ("streams", streams), ("duration", "3.0"),
        ("interval", "0.1"), ("length", 48 if version == 2 else 32),
        ("rate", 0), ("udp_port", 0), ("cookie", cookie.hex())]))
    verb, kv = read_msg(ctrl, buf, time.time() + 5)
    if verb == "ERROR":
        ctrl.close()
        return None, kv.get("msg", "")
    uport = int(kv["udp_port"])
    verb, kv = read_msg(ctrl, buf, time.time() + 5)
    assert verb == "START", verb

    honest = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    honest.bind(("127.0.0.1", 0))
    honest.connect(("127.0.0.1", uport))
    other = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    other.bind(("127.0.0.2", 0))
    other.connect(("127.0.0.1", uport))
    sent = {"jump": 0, "wrong_cookie": 0, "other_address": 0, "garbage": 0}
    for sid in range(streams):
        # the sequence number climbs by the largest accepted jump
        for k in range(1, jumps + 1):
            honest.send(datagram(version, cookie, sid, k * JUMP - 1))
            sent["jump"] += 1
        for k in range(8):
            honest.send(datagram(version, os.urandom(16), sid, 1 << 40))
            sent["wrong_cookie"] += 1
            other.send(datagram(version, cookie, sid, 3 + k))
            sent["other_address"] += 1
            honest.send(os.urandom(48))
            sent["garbage"] += 1
        time.sleep(0.001)
    time.sleep(0.3)
    done = []
    for sid in range(streams):
        done += [("s%u.sent" % sid, jumps), ("s%u.bytes" % sid, 0)]
    ctrl.sendall(msg("DONE", done))
    verb, kv = read_msg(ctrl, buf, time.time() + 20)
    ctrl.close()
    return {"sent": sent, "results": verb, "server": kv}, None


def greet(port, cookie, sid):
    """A data connection with the greeting for stream sid."""
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(b"SPD1" + cookie + struct.pack(">I", sid))
    return s


def closed_by_server(sock, timeout):
    """Has the server closed this connection within timeout seconds?

    Timeout 0 asks without waiting (the socket is non-blocking then);
    3 gives the server time to refuse a data connection (after 'busy').
    """
    sock.settimeout(timeout)
    try:
        while sock.recv(4096):
            pass
        return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except OSError:         # timed out, or (timeout 0) BlockingIOError
        return False


def tcp_test(port, streams, duration, bidir=False):
    """States a TCP test on a new control connection.

    Returns the test's cookie, the control connection, its read buffer
    and the server's answer (verb, keys).
    """
    cookie = os.urandom(16)
    ctrl = socket.create_connection(("127.0.0.1", port), timeout=5)
    buf = [b""]
    params = [("version", 2), ("protocol", "tcp"), ("mptcp", 0),
              ("reverse", 0)]
    if bidir:
        params.append(("bidir", 1))
    params += [("streams", streams), ("duration", duration),
               ("interval", "0"), ("length", 65536), ("rate", 0),
               ("udp_port", 0), ("cookie", cookie.hex())]
    ctrl.sendall(msg("PARAMS", params))
    verb, kv = read_msg(ctrl, buf, time.time() + 5)
    return cookie, ctrl, buf, verb, kv


def attack_bidir(port, streams):
    cookie, ctrl, buf, verb, kv = tcp_test(port, streams, "1.0", bidir=True)
    if verb != "ACCEPT" or kv.get("bidir") != "1":
        return {"error": "no --bidir ACCEPT: %s %s" % (verb, kv)}
    bad = [greet(port, cookie, 2 * streams),      # one past the last id
           greet(port, cookie, 0xffffffff),
           greet(port, os.urandom(16), 0)]        # another test's cookie
    junk = socket.create_connection(("127.0.0.1", port), timeout=5)
    junk.sendall(os.urandom(24))
    bad.append(junk)
    good = [greet(port, cookie, i) for i in range(2 * streams)]
    verb, kv = read_msg(ctrl, buf, time.time() + 5)
    out = {"start": verb}
    bad.append(greet(port, cookie, streams))      # a reverse id taken
    out["bad"] = len(bad)
    out["refused"] = sum(closed_by_server(b, 3) for b in bad)
    # garbage on ours; theirs reset after a little
    for s in good[:streams]:
        s.sendall(os.urandom(1 << 16))
        s.shutdown(socket.SHUT_WR)
    for s in good[streams:]:
        s.recv(65536)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                     struct.pack("ii", 1, 0))
        s.close()
    done = []
    for sid in range(streams):
        done += [("s%u.sent" % sid, 0), ("s%u.bytes" % sid, 1 << 16)]
    try:
        ctrl.sendall(msg("DONE", done))
    except OSError:
        pass
    verbs = []
    try:
        while len(verbs) < 4:
            verb, kv = read_msg(ctrl, buf, time.time() + 20)
            verbs.append(verb)
            if verb == "RESULTS" and "t.corrupt_bytes" in kv:
                out["corrupt_bytes"] = int(kv["t.corrupt_bytes"])
    except (EOFError, OSError):
        pass
    out["verbs"] = verbs
    for s in good[:streams] + bad:
        s.close()
    ctrl.close()
    return out


SLOTS = 128             # the server's data connections during setup


def attack_idle_data(port, wait):
    cookie, ctrl, buf, verb, kv = tcp_test(port, 2, "0.2")
    if verb != "ACCEPT":
        return {"error": "no ACCEPT: %s %s" % (verb, kv)}
    idle = []
    for i in range(SLOTS):
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        if i % 4 == 0:
            s.sendall(b"SPD1" + cookie[:8])     # half a greeting
        idle.append(s)
    time.sleep(0.2)
    out = {"idle": len(idle)}
    good = [greet(port, cookie, 0)]
    time.sleep(0.2)
    out["closed_for_room"] = sum(closed_by_server(s, 0) for s in idle)
    time.sleep(wait)
    out["closed_after_wait"] = sum(closed_by_server(s, 0) for s in idle)
    good.append(greet(port, cookie, 1))
    try:
        verb, kv = read_msg(ctrl, buf, time.time() + 5)
    except (EOFError, OSError) as e:
        verb = str(e)
    out["start"] = verb
    for s in good:
        s.close()
    try:
        ctrl.sendall(msg("DONE", [("s0.sent", 0), ("s0.bytes", 0),
                                  ("s1.sent", 0), ("s1.bytes", 0)]))
        out["results"] = read_msg(ctrl, buf, time.time() + 5)[0]
    except (EOFError, OSError):
        pass
    for s in idle:
        s.close()
    ctrl.close()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("port", type=int)
    ap.add_argument("--streams", type=int, default=4)
    ap.add_argument("--jumps", type=int, default=127)
    ap.add_argument("--slowloris", type=int, default=100)
    ap.add_argument("--junk", type=int, default=8)
    ap.add_argument("--hold", type=float, default=0,
                    help="keep the slowloris connections this long")
    ap.add_argument("--bidir", action="store_true",
                    help="the --bidir attack instead")
    ap.add_argument("--idle-data", type=float, metavar="SEC",
                    help="the idle data connection attack instead, "
                    "waiting SEC for the server to evict them")
    a = ap.parse_args()

    if a.idle_data is not None:
        print(json.dumps(attack_idle_data(a.port, a.idle_data)), flush=True)
        return 0

    if a.bidir:
        print(json.dumps(attack_bidir(a.port, 2)), flush=True)
        return 0
    out, err = attack(a.port, 2, a.streams, a.jumps)
    version = 2
    if out is None and "protocol version" in err:
        version = 1
        out, err = attack(a.port, 1, a.streams, a.jumps)
    if out is None:
        print(json.dumps({"error": err}))
        return 1
    # then tie up the control port for whoever comes next
    held = slowloris(a.port, a.slowloris, a.junk)
    out["version"] = version
    out["slowloris_held"] = len(held)
    print(json.dumps(out), flush=True)
    time.sleep(a.hold)
    for s in held:
        s.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
