#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Raw rtnetlink stress for the stripe qdisc (used by netlink-stress.sh).

  nlstress.py stress SEED ITERS   random RTM_NEWQDISC / RTM_NEWLINK requests
  nlstress.py expect MSG DEV OP ATTR...
                                  one request; exit 0 if refused with an
                                  extack containing MSG
  nlstress.py check               tc -s -j qdisc show of every device parses
                                  and is consistent

ATTR is NAME:TYPE:VALUE with NAME a TCA_STRIPE_* suffix (or a number) and
TYPE u8, u32 or str.  No external modules: a plain NETLINK_ROUTE socket.
Run in the test's network namespace (ip netns exec).
"""
import json
import os
import random
import socket
import struct
import subprocess
import sys

NETLINK_ROUTE = 0
SOL_NETLINK = 270
NETLINK_CAP_ACK = 10
NETLINK_EXT_ACK = 11

NLMSG_ERROR = 2
NLM_F_REQUEST, NLM_F_ACK = 1, 4
NLM_F_REPLACE, NLM_F_EXCL, NLM_F_CREATE = 0x100, 0x200, 0x400
NLM_F_ACK_TLVS = 0x200
NLMSGERR_ATTR_MSG = 1
NLA_F_NESTED, NLA_F_NET_BYTEORDER = 0x8000, 0x4000

RTM_NEWLINK, RTM_DELLINK = 16, 17
RTM_NEWQDISC, RTM_DELQDISC = 36, 37
TCA_KIND, TCA_OPTIONS = 1, 2
IFLA_IFNAME, IFLA_LINKINFO = 3, 18
IFLA_INFO_KIND, IFLA_INFO_DATA = 1, 2
TC_H_ROOT, TC_H_INGRESS = 0xFFFFFFFF, 0xFFFFFFF1

# include/uapi/linux/stripe.h
ATTRS = ["UNSPEC", "MASTER", "WEIGHT", "LIMIT", "QUANTUM", "REORDER",
         "HOLD_MAX_US", "FLOW_LIMIT", "BUFFER_LIMIT", "STRIPE_MIN",
         "HOLD_AUTO", "PROBE_TARGET", "PROBE_INTERVAL_US", "PROBE_TARGET6"]
TCA_STRIPE_MAX = len(ATTRS) - 1
MAXV = {"WEIGHT": 1000, "LIMIT": 1 << 20, "QUANTUM": 1 << 20, "REORDER": 1,
        "HOLD_MAX_US": 1000000, "FLOW_LIMIT": 1 << 20,
        "BUFFER_LIMIT": 1 << 20, "STRIPE_MIN": 0xffffffff, "HOLD_AUTO": 1,
        "PROBE_INTERVAL_US": 60000000}
IFNAMSIZ = 16
LENGTHS = [0, 1, 3, 4, 8, 17, IFNAMSIZ, 64]
# STRIPE_NL_BADLEN=0: only well-sized payloads without NLA_F_NESTED for the
# attributes with a validation function (WEIGHT..BUFFER_LIMIT).  On 6.1 the
# core's refusal of those ("invalid attribute length", "NLA_F_NESTED not
# expected") makes netlink_ack() dump the attribute's policy, whose union
# holds the function pointer as s16 min/max: WARN in
# nla_get_range_unsigned() (a panic with panic_on_warn).  Lets the rest run
# on the debug kernel until the module stops using NLA_POLICY_VALIDATE_FN.
BADLEN = os.environ.get("STRIPE_NL_BADLEN", "1") != "0"
VALIDATE_FN = range(2, 9)

# The devices netlink-stress.sh makes: masters, veth links, a veth with a
# prio root (parent 1:1 exists) and lo (not Ethernet-like).
MASTERS = ["sm0", "sm1"]
LINKS = ["v0", "v1", "v2", "v3"]
PRIO_DEV = "pv0"


def attr(atype, data):
    n = 4 + len(data)
    return struct.pack("=HH", n, atype) + data + b"\0" * ((4 - n % 4) % 4)


class Rtnl:
    def __init__(self):
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                               NETLINK_ROUTE)
        self.s.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.s.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        self.s.settimeout(10)
        self.s.bind((0, 0))
        self.seq = 0

    def request(self, mtype, flags, body):
        """Send one request; return (errno, extack message or None).
        Raises TimeoutError if the kernel never answers."""
        self.seq += 1
        hdr = struct.pack("=LHHLL", 16 + len(body), mtype,
                          flags | NLM_F_REQUEST | NLM_F_ACK, self.seq, 0)
        self.s.send(hdr + body)
        while True:
            buf = self.s.recv(65536)
            off = 0
            while off + 16 <= len(buf):
                ln, t, fl, seq, _ = struct.unpack_from("=LHHLL", buf, off)
                if ln < 16:
                    break
                if t == NLMSG_ERROR and seq == self.seq:
                    return self._error(buf[off:off + ln], fl)
                off += (ln + 3) & ~3

    @staticmethod
    def _error(msg, flags):
        err = -struct.unpack_from("=i", msg, 16)[0]
        # NETLINK_CAP_ACK: only the request's header, then the TLVs
        off = 16 + 4 + 16
        text = None
        if flags & NLM_F_ACK_TLVS:
            while off + 4 <= len(msg):
                ln, t = struct.unpack_from("=HH", msg, off)
                if ln < 4:
                    break
                if t == NLMSGERR_ATTR_MSG:
                    text = msg[off + 4:off + ln].rstrip(b"\0").decode(
                        errors="replace")
                off += (ln + 3) & ~3
        return err, text


def ifindex(name):
    try:
        return socket.if_nametoindex(name)
    except OSError:
        return 0


def tcmsg(dev, parent=TC_H_ROOT, handle=0):
    return struct.pack("=BBHiIII", 0, 0, 0, ifindex(dev), handle, parent, 0)


def qdisc_body(dev, options, parent=TC_H_ROOT, kind=b"stripe\0"):
    body = tcmsg(dev, parent) + attr(TCA_KIND, kind)
    if options is not None:
        body += options
    return body


def newlink_body(name, data):
    info = attr(IFLA_INFO_KIND, b"stripe\0")
    if data is not None:
        info += data
    return (struct.pack("=BBHiII", 0, 0, 0, 0, 0, 0) +
            attr(IFLA_IFNAME, name.encode() + b"\0") +
            attr(IFLA_LINKINFO | NLA_F_NESTED, info))


# --- random TCA_OPTIONS ---------------------------------------------------

def rand_value(r, name):
    mx = MAXV.get(name, 0xffffffff)
    lo = 256 if name == "QUANTUM" else 1
    return r.choice([0, 1, mx, (mx + 1) & 0xffffffff, 0xffffffff, lo - 1, lo,
                     r.getrandbits(32), r.randint(0, 2000)])


def rand_payload(r, atype):
    name = ATTRS[atype] if atype <= TCA_STRIPE_MAX else "?"
    k = r.random()
    if name == "MASTER" and k < 0.7:
        s = r.choice([b"sm0", b"sm1", b"nosuch", b"v1", b"lo", b"pv0", b"",
                      b"a" * 15, b"b" * 16, b"c" * 64, b"sm0\0junk",
                      b"../x", b"s:m"])
        return s + (b"\0" if r.random() < 0.8 else b"")
    if not BADLEN and atype in VALIDATE_FN:
        k = 0
    if k < 0.6:  # a number, usually of the right size
        size = 1 if name in ("REORDER", "HOLD_AUTO") else 4
        if r.random() < 0.3 and (BADLEN or atype not in VALIDATE_FN):
            size = r.choice(LENGTHS)
        v = rand_value(r, name)
        return (v & ((1 << (8 * size)) - 1)).to_bytes(size, "little") \
            if size <= 8 else v.to_bytes(4, "little") + os.urandom(size - 4)
    if k < 0.8:  # nested garbage: attributes inside a scalar
        return b"".join(attr(r.randint(0, TCA_STRIPE_MAX + 3),
                             bytes(r.getrandbits(8)
                                   for _ in range(r.choice(LENGTHS))))
                        for _ in range(r.randint(0, 3)))
    return bytes(r.getrandbits(8) for _ in range(r.choice(LENGTHS)))


def rand_options(r):
    """TCA_OPTIONS (or nothing): returns bytes or None"""
    k = r.random()
    if k < 0.05:
        return None
    if k < 0.10 and BADLEN:  # raw garbage as the nest payload
        return attr(TCA_OPTIONS | (NLA_F_NESTED if r.random() < 0.7 else 0),
                    bytes(r.getrandbits(8) for _ in range(r.choice(LENGTHS))))
    attrs = []
    for _ in range(r.randint(0, 4)):
        t = r.randint(0, TCA_STRIPE_MAX + 3)
        if r.random() < 0.1 and (BADLEN or t not in VALIDATE_FN):
            t |= NLA_F_NESTED
        if r.random() < 0.03:
            t |= NLA_F_NET_BYTEORDER
        a = attr(t, rand_payload(r, t & 0x3fff))
        attrs.append(a)
        if r.random() < 0.15:  # duplicate
            attrs.append(a if r.random() < 0.5 else
                         attr(t, rand_payload(r, t & 0x3fff)))
    payload = b"".join(attrs)
    if payload and r.random() < 0.05 and BADLEN:  # lie about a length
        cut = r.randint(0, len(payload) - 1)
        payload = payload[:cut] + payload[cut + 1:]
    nested = NLA_F_NESTED if r.random() < 0.85 else 0
    return attr(TCA_OPTIONS | nested, payload)


def valid_join(r):
    opts = attr(1, r.choice([b"sm0\0", b"sm1\0"]))
    if r.random() < 0.5:
        opts += attr(2, struct.pack("=I", r.randint(1, 1000)))
    if r.random() < 0.3:
        opts += attr(3, struct.pack("=I", r.randint(1, 5000)))
    return attr(TCA_OPTIONS | NLA_F_NESTED, opts)


def stress(seed, iters):
    r = random.Random(seed)
    nl = Rtnl()
    st = {"requests": 0, "ok": 0, "errors": 0, "with_extack": 0,
          "without_extack": 0, "by_errno": {}, "no_extack": {}}

    def send(what, mtype, flags, body):
        st["requests"] += 1
        try:
            err, msg = nl.request(mtype, flags, body)
        except (TimeoutError, socket.timeout):
            print("# no answer to request %d (%s): kernel hang?" %
                  (st["requests"], what))
            print(json.dumps(st))
            sys.exit(2)
        if err == 0:
            st["ok"] += 1
            return
        st["errors"] += 1
        name = os.strerror(err)
        st["by_errno"][name] = st["by_errno"].get(name, 0) + 1
        if msg:
            st["with_extack"] += 1
        else:
            st["without_extack"] += 1
            key = "%s %s" % (what, name)
            st["no_extack"][key] = st["no_extack"].get(key, 0) + 1

    for i in range(iters):
        k = r.random()
        dev = r.choice(LINKS + MASTERS + ["lo", PRIO_DEV])
        if k < 0.05:  # a link leaves
            send("delqdisc", RTM_DELQDISC, 0, tcmsg(r.choice(LINKS)))
        elif k < 0.12:  # a well-formed join or weight change
            send("join", RTM_NEWQDISC,
                 r.choice([NLM_F_CREATE | NLM_F_REPLACE, 0]),
                 qdisc_body(r.choice(LINKS), valid_join(r)))
        elif k < 0.14:  # sm1 goes away (its links stay, masterless)
            send("dellink", RTM_DELLINK, 0,
                 struct.pack("=BBHiII", 0, 0, 0, ifindex("sm1"), 0, 0))
        elif k < 0.22:  # RTM_NEWLINK kind stripe, garbage IFLA_INFO_DATA
            data = None
            if r.random() < 0.9:
                data = attr(IFLA_INFO_DATA |
                            (NLA_F_NESTED if r.random() < 0.5 else 0),
                            rand_payload(r, r.randint(0, TCA_STRIPE_MAX + 3))
                            if r.random() < 0.5 else
                            rand_options(r) or b"")
            name = r.choice(["sm1", "sm1", "sm2", "sm0"])
            send("newlink", RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL,
                 newlink_body(name, data))
            if name == "sm2":
                send("dellink", RTM_DELLINK, 0,
                     struct.pack("=BBHiII", 0, 0, 0, ifindex("sm2"), 0, 0))
        elif k < 0.30:  # not the root: under prio, or ingress
            parent = r.choice([0x10001, 0x10002, TC_H_INGRESS, 0x50001, 0])
            d = PRIO_DEV if parent & 0xffff0000 == 0x10000 else dev
            send("nonroot" + ("" if ifindex(d) else "(gone)"), RTM_NEWQDISC,
                 NLM_F_CREATE | NLM_F_EXCL,
                 qdisc_body(d, rand_options(r), parent))
        else:
            op, flags = r.choice([("create", NLM_F_CREATE | NLM_F_EXCL),
                                  ("replace", NLM_F_CREATE | NLM_F_REPLACE),
                                  ("change", 0)])
            role = "master" if dev in MASTERS else \
                "link" if dev in LINKS else dev
            if not ifindex(dev):
                role += "(gone)"
            send("%s/%s" % (op, role), RTM_NEWQDISC, flags,
                 qdisc_body(dev, rand_options(r)))
        if ifindex("sm1") == 0 and r.random() < 0.5:
            send("newlink", RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL,
                 newlink_body("sm1", None))
        if (i + 1) % 500 == 0:
            problems = check()
            if problems:
                print("# after %d iterations:" % (i + 1))
                for p in problems:
                    print("#   " + p)
                print(json.dumps(st))
                sys.exit(3)
    print(json.dumps(st))
    return 0


# --- one request, expecting a refusal --------------------------------------

def parse_attr(spec):
    name, typ, val = spec.split(":", 2)
    t = ATTRS.index(name) if name in ATTRS else int(name, 0)
    if typ == "u8":
        data = struct.pack("=B", int(val, 0))
    elif typ == "u32":
        data = struct.pack("=I", int(val, 0))
    elif typ == "u64":
        data = struct.pack("=Q", int(val, 0))
    elif typ == "str":
        data = val.encode() + b"\0"
    else:
        raise SystemExit("bad type " + typ)
    return attr(t, data)


def expect(msg, dev, op, specs):
    flags = {"create": NLM_F_CREATE | NLM_F_EXCL,
             "replace": NLM_F_CREATE | NLM_F_REPLACE, "change": 0}[op]
    opts = attr(TCA_OPTIONS | NLA_F_NESTED,
                b"".join(parse_attr(s) for s in specs))
    err, text = Rtnl().request(RTM_NEWQDISC, flags, qdisc_body(dev, opts))
    print("# %s %s %s: %s, extack %r" % (op, dev, " ".join(specs),
                                         os.strerror(err) if err else "ok",
                                         text))
    return 0 if err and text and msg in text else 1


# --- consistency of what tc shows ------------------------------------------

def check():
    problems = []
    links = json.loads(subprocess.run(
        ["ip", "-d", "-j", "link", "show"], capture_output=True,
        check=True, text=True).stdout)
    kind = {l["ifname"]: l.get("linkinfo", {}).get("info_kind")
            for l in links}
    qd = {}
    for dev in kind:
        p = subprocess.run(["tc", "-s", "-j", "qdisc", "show", "dev", dev],
                           capture_output=True, text=True)
        if p.returncode:
            problems.append("tc qdisc show dev %s: %s" % (dev, p.stderr))
            continue
        try:
            qd[dev] = json.loads(p.stdout)
        except ValueError as e:
            problems.append("dev %s: not JSON (%s): %r" % (dev, e,
                                                           p.stdout[:200]))
    members = {}  # master -> set of links by the master's statistics
    claims = {}   # link -> master by the link's own qdisc
    for dev, qs in qd.items():
        for q in qs:
            if q.get("kind") != "stripe":
                continue
            if not q.get("root"):
                problems.append("%s: stripe qdisc not at the root" % dev)
            o = q.get("options", {})
            w = o.get("weight")
            if w is not None and not 1 <= w <= 1000:
                problems.append("%s: weight %s" % (dev, w))
            for l in q.get("links", []):
                if not 1 <= l.get("weight", 0) <= 1000:
                    problems.append("%s: link %s weight in force %s" %
                                    (dev, l.get("name"), l.get("weight")))
            if kind.get(dev) == "stripe":
                if "master" in o:
                    problems.append("master %s shows a master option" % dev)
                names = {l.get("name") for l in q.get("links", [])}
                members[dev] = names
                n = q.get("master", {}).get("links")
                if n is not None and n != len(names):
                    problems.append("master %s: links %s but %d listed" %
                                    (dev, n, len(names)))
            elif "master" in o:
                claims[dev] = o["master"]
    for l, m in claims.items():
        if kind.get(m) != "stripe":
            problems.append("link %s names master %s, which is no stripe "
                            "master (kind %s)" % (l, m, kind.get(m)))
        elif m in members and l not in members[m]:
            problems.append("link %s claims %s, not in its links %s" %
                            (l, m, sorted(members[m])))
    for m, names in members.items():
        for l in names:
            if claims.get(l) != m:
                problems.append("master %s lists %s, whose qdisc says %s" %
                                (m, l, claims.get(l)))
    return problems


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "stress":
        return stress(int(sys.argv[2]), int(sys.argv[3]))
    if len(sys.argv) >= 5 and sys.argv[1] == "expect":
        return expect(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:])
    if len(sys.argv) == 2 and sys.argv[1] == "check":
        problems = check()
        for p in problems:
            print("# " + p)
        return 1 if problems else 0
    print(__doc__, file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main())
