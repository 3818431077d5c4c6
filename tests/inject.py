#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Forge stripe frames (reorder on) from a packet socket, for the netns suite.

  inject.py hold IF1 MAC1 IF2 MAC2 [--sender ID] [--flows N] [--per-flow N]
                 [--first-flow F] [--size BYTES] [--fseq-base Q]
      A sender that never fills a gap.  On IF2 one frame of flow 255 with a
      low gseq makes IF2's link "behind" at the receiver, so no gap can be
      declared lost by the every-link rule (only hold-max or a limit ends
      it).  Then on IF1, for each of N flows: one frame that starts the flow
      (delivered at once), and PER-FLOW frames after a one-frame gap, which
      the receiver must hold (with --descending, the last first: each is
      then the least the flow holds, gseq still rising on the link).
      With --refresh K, every K frames one on IF2 keeps link 2 heard (and
      still behind): a flood longer than 4 x hold-max stays held.  With
      --sndbuf BYTES, the send buffer of IF1's socket (see Port).
      Prints the number of frames meant to be held.
      Then, in order, each --step: "tc:ARGS" is a line for a tc batch of
      namespace --ns ("qdisc show ..." lines print one JSON line to --out),
      "ip:ARGS" a line for an ip batch of --ns ("ip:netns del X" too).  Both
      batches are started before the first frame: hold-max is at most 1 s,
      and under emulation starting a process can take most of it.  Last,
      --trigger-flow F sends flow F's start and one frame after a gap.
      "sleep:S" waits S seconds.

  inject.py frame IF MAC --sender ID --flow F --gseq G --fseq Q [--size B]
      One frame.

  inject.py senders IF MAC --first N --count C [--etype T]
      Made-up senders, 1000 a second: data frames, each under a new sender
      id (0x0F100000 + n) from a new source address (02:66 and n), flow,
      gseq and fseq at random.  With another --etype the same frames, which
      stripe never sees: what the sender itself costs the guest.

IFn is the sending device (in the namespace this runs in), MACn the
receiving link's address on the far side.  The header is struct
stripe_wire_hdr (include/uapi/linux/stripe.h), big-endian, 24 bytes; the
payload is an IPv4 header with a bad checksum, so whatever the receiver
delivers is dropped by IP and reaches no socket.
"""
import argparse
import errno
import random
import socket
import struct
import subprocess
import sys
import time

ETH_P_STRIPE = 0x88B5
VERSION = 4
HDR = "!BBHIHBBIII"	# version flags proto sender flow link lseq gseq fseq tstamp
assert struct.calcsize(HDR) == 24


def payload(size):
    ip = bytes.fromhex("45000014000000004011ffff0a0900010a090002")
    return ip + bytes(max(0, size - len(ip)))


class Port:
    def __init__(self, ifname, mac, sndbuf=0):
        self.s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
        self.s.bind((ifname, 0))
        # The send buffer paces the sender: frames held at the receiver
        # stay charged to it when nothing between orphans them (veth passes
        # the skb itself).  A flood to be held whole (tests/flood.sh) needs
        # room for all of it; tests/faults.sh's counts are measured with
        # the default (with 256 MiB, its phase C held 736 of 1200 once).
        if sndbuf:
            SO_SNDBUFFORCE = 32
            self.s.setsockopt(socket.SOL_SOCKET, SO_SNDBUFFORCE, sndbuf)
        # A host of its own on the segment: a made-up, locally administered
        # source address (the receiver keeps one sender per address on a
        # link, and the interface's own is the real sender's)
        src = bytes([0x02, 0x5E, 0xED]) + self.s.getsockname()[4][3:]
        dst = bytes.fromhex(mac.replace(":", ""))
        self.eth = dst + src + struct.pack("!H", ETH_P_STRIPE)

    def frame(self, sender, flow, gseq, fseq, size):
        h = struct.pack(HDR, VERSION, 0, 0x0800, sender, flow, 0, 0,
                        gseq & 0xffffffff, fseq & 0xffffffff, 0)
        return self.eth + h + payload(size)

    def send(self, sender, flow, gseq, fseq, size):
        self.send_frame(self.frame(sender, flow, gseq, fseq, size))

    def send_frame(self, frame):
        while True:
            try:
                self.s.send(frame)
                return
            except OSError as e:	# the link's queue is full: wait
                if e.errno != errno.ENOBUFS:
                    raise
                time.sleep(0.001)


def made_up_senders(ifname, mac, first, count, etype):
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    s.bind((ifname, 0))
    dst = bytes.fromhex(mac.replace(":", ""))
    rnd = random.Random(first)
    body = payload(20)
    t0 = time.monotonic()
    for i in range(count):
        n = first + i
        src = bytes([0x02, 0x66]) + struct.pack("!I", 0x00100000 + n)
        s.send(dst + src + struct.pack("!H", etype) +
               struct.pack(HDR, VERSION, 0, 0x0800, 0x0F100000 + n,
                           rnd.randrange(256), 0, 0, rnd.getrandbits(32),
                           rnd.getrandbits(32), 0) + body)
        if i % 10 == 9:
            time.sleep(max(0, t0 + (i + 1) / 1000 - time.monotonic()))


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    h = sub.add_parser("hold")
    h.add_argument("if1")
    h.add_argument("mac1")
    h.add_argument("if2")
    h.add_argument("mac2")
    h.add_argument("--sender", type=lambda x: int(x, 0), default=0x5EED0F17)
    h.add_argument("--flows", type=int, default=8)
    h.add_argument("--first-flow", type=int, default=0)
    h.add_argument("--per-flow", type=int, default=80)
    h.add_argument("--size", type=int, default=1000)
    h.add_argument("--fseq-base", type=int, default=1000)
    h.add_argument("--lead", type=float, default=0.5)
    h.add_argument("--step", action="append", default=[])
    h.add_argument("--ns")
    h.add_argument("--out")
    h.add_argument("--trigger-flow", type=int)
    h.add_argument("--descending", action="store_true")
    h.add_argument("--refresh", type=int, default=0)
    h.add_argument("--sndbuf", type=int, default=0)
    m = sub.add_parser("senders")
    m.add_argument("ifname")
    m.add_argument("mac")
    m.add_argument("--first", type=int, required=True)
    m.add_argument("--count", type=int, required=True)
    m.add_argument("--etype", type=lambda x: int(x, 0), default=ETH_P_STRIPE)
    f = sub.add_parser("frame")
    f.add_argument("ifname")
    f.add_argument("mac")
    f.add_argument("--sender", type=lambda x: int(x, 0), required=True)
    f.add_argument("--flow", type=int, required=True)
    f.add_argument("--gseq", type=int, required=True)
    f.add_argument("--fseq", type=int, required=True)
    f.add_argument("--size", type=int, default=1000)
    a = ap.parse_args()

    if a.cmd == "frame":
        Port(a.ifname, a.mac).send(a.sender, a.flow, a.gseq, a.fseq, a.size)
        return 0
    if a.cmd == "senders":
        made_up_senders(a.ifname, a.mac, a.first, a.count, a.etype)
        return 0

    p1, p2 = Port(a.if1, a.mac1, a.sndbuf), Port(a.if2, a.mac2)
    batch = {}
    ns = ["-n", a.ns] if a.ns else []
    for step in a.step:
        kind = step.split(":", 1)[0]
        if kind in batch or kind == "sleep":
            continue
        if kind == "tc":
            argv = ["stdbuf", "-oL", "tc"] + ns + ["-s", "-j", "-force", "-batch", "-"]
        elif kind == "ip":
            argv = ["ip"] + ([] if step.startswith("ip:netns ") else ns) + \
                ["-force", "-batch", "-"]
        else:
            sys.exit("unknown step " + step)
        batch[kind] = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, text=True)
    def flood():
        gseq = 100
        held = 0
        for flow in range(a.first_flow, a.first_flow + a.flows):
            q = a.fseq_base
            yield p1, p1.frame(a.sender, flow, gseq, q, a.size)	# up at once
            gseq += 1
            for k in range(a.per_flow):			# fseq q+1 never comes
                ahead = a.per_flow - 1 - k if a.descending else k
                yield p1, p1.frame(a.sender, flow, gseq, q + 2 + ahead,
                                   a.size)
                gseq += 1
                held += 1
                # Link 2 heard again, still behind (gseq < 100): not silent
                if a.refresh and held % a.refresh == 0:
                    n2 = held // a.refresh
                    assert n2 < 98, "--refresh too small for link 2's gseqs"
                    yield p2, p2.frame(a.sender, 255, 1 + n2, n2, a.size)

    held = a.flows * a.per_flow
    gseq = 100 + a.flows * (1 + a.per_flow)	# after the flood's
    frames = flood()
    if a.sndbuf:	# a flood to be held whole: made first, sent at once
        frames = list(frames)
    # Link 2 has delivered gseq 1 only: it is "behind" every frame below.
    p2.send(a.sender, 255, 1, 0, a.size)
    # It must be there before the frames of link 1 (a gap seen while link 2
    # is unknown is lost at once), and under load it waits in the link's
    # queue behind other traffic: --lead seconds (< 4 x hold-max, after
    # which the receiver would count link 2 as silent).
    time.sleep(a.lead)
    for port, frame in frames:
        port.send_frame(frame)
    out = open(a.out, "w") if a.out else None
    for step in a.step:
        kind, line = step.split(":", 1)
        if kind == "sleep":
            time.sleep(float(line))
            continue
        b = batch[kind]
        b.stdin.write(line + "\n")
        b.stdin.flush()
        if kind == "tc" and line.startswith("qdisc show"):
            res = b.stdout.readline()
            if out:
                out.write(res)
                out.flush()
    rc = 0
    for b in batch.values():
        b.stdin.close()
        b.stdout.read()
        rc = rc or b.wait()
    if a.trigger_flow is not None:
        p1.send(a.sender, a.trigger_flow, gseq, a.fseq_base, a.size)
        p1.send(a.sender, a.trigger_flow, gseq + 1, a.fseq_base + 2, a.size)
    print(held)
    return rc


if __name__ == "__main__":
    sys.exit(main())
