#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The module loads and unloads; masters are created in any namespace, any
# number of them, and go away with their namespace; tc reaches the qdisc.
source "$(dirname "$0")/lib.sh"
require_vm

check "module loads" stripe_load
check "link type registered: ip link add in a namespace" \
	bash -c "ip netns add a-$$ && ip -n a-$$ link add stripe0 type stripe"
check "several masters in one namespace" \
	bash -c "ip -n a-$$ link add stripe1 type stripe &&
		 ip -n a-$$ link add stripe2 type stripe"
check "a master with the same name in another namespace" \
	bash -c "ip netns add b-$$ && ip -n b-$$ link add stripe0 type stripe"
check "master is an L3 device without ARP and without a queue" \
	bash -c "ip -n a-$$ -d link show stripe0 | grep -q NOARP &&
		 ip -n a-$$ -d link show stripe0 | grep -q 'link/none' &&
		 ip -n a-$$ -d link show stripe0 | grep -q 'stripe'"
# rtnetlink by hand, whatever ip knows: an option out of its range
newlink_with_data() {	# NS NAME -- RTM_NEWLINK kind stripe, reorder 7 (u32)
	ip netns exec "$1" python3 - "$2" <<'PY'
import socket, struct, sys
def attr(t, p):
    return struct.pack("=HH", 4 + len(p), t) + p + bytes(-len(p) % 4)
name = sys.argv[1].encode() + b"\0"
info = attr(1, b"stripe\0") + attr(2 | 0x8000, attr(1, struct.pack("=I", 7)))
body = struct.pack("=BBHiII", 0, 0, 0, 0, 0, 0) + attr(3, name) + attr(18 | 0x8000, info)
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
s.setsockopt(270, 11, 1)	# NETLINK_EXT_ACK
hdr = struct.pack("=IHHII", 16 + len(body), 16, 0x405, 1, 0)	# NEWLINK, REQUEST|ACK|CREATE|EXCL
s.send(hdr + body)
r = s.recv(65536)
err = struct.unpack_from("=i", r, 16)[0]
print(err, r[36:].decode(errors="replace"))
sys.exit(0 if err == 0 else 1)
PY
}
check_fails "an option out of range on ip link add is refused with a message" \
	"out of range" newlink_with_data a-$$ stripe3
check "... and no master is made" bash -c "! ip -n a-$$ link show stripe3 2>/dev/null"
check "ip link del removes a master" \
	bash -c "ip -n a-$$ link del stripe2 && ! ip -n a-$$ link show stripe2"
ip -n a-$$ link add v0 type veth peer v1
check "tc qdisc add on the master is accepted" \
	tc -n a-$$ qdisc add dev stripe0 root stripe
check "tc qdisc add ... master stripe0 joins a link" \
	tc -n a-$$ qdisc add dev v0 root stripe master stripe0
check "the link shows its master" \
	bash -c "ip -n a-$$ link show v0 | grep -q 'master stripe0' &&
		 tc -n a-$$ qdisc show dev v0 | grep -q 'master stripe0'"
check "the master's statistics list the link" \
	bash -c "tc -n a-$$ -s -j qdisc show dev stripe0 |
		 python3 -c 'import json,sys; q=json.load(sys.stdin)[0]; assert [l[\"name\"] for l in q[\"links\"]] == [\"v0\"], q'"
ip netns del a-$$
ip netns del b-$$
# The qdiscs hold the module; their release shows the devices are gone.
check "deleting a namespace destroys its masters and links" \
	wait_for bash -c "[ \$(awk '\$1 == \"sch_stripe\" {print \$3}' /proc/modules) = 0 ]"
check "rmmod with no qdisc left" rmmod sch_stripe
check "module loads again" stripe_load
ip link add stripe9 type stripe
check "rmmod with a master present deletes it" \
	bash -c "rmmod sch_stripe && ! ip link show stripe9 2>/dev/null"
tap_done
