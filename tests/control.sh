#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The netdev-native control plane: a bundle made and changed with ip link
# alone (master options, enslave and release, per-link weight), garbage
# options refused, shaping qdiscs on the master while traffic flows,
# ethtool, and link notifications.
source "$(dirname "$0")/lib.sh"
require_vm

stripe_load || exit 1
# ip finds link_stripe.so and link_stripe_slave.so here
export IP_LIB_DIR=$TOP/ip-plugin
tb_setup 2
tb_shape 1 50mbit
tb_shape 2 50mbit

gw() { ip -n $GW "$@"; }
bl() { ip -n $BL "$@"; }
# details NS DEV -- "ip -d link show", one line
details() { ip -n "$1" -d -o link show "$2"; }
has() {	# has NS DEV TEXT -- the details of DEV contain TEXT
	local out
	out=$(details "$1" "$2")
	grep -qF -- "$3" <<<"$out" || { echo "$out"; return 1; }
}

# --- master options ---
check "ip link add with options" \
	gw link add stripe0 type stripe reorder on hold-max 10ms quantum 3000
check "ip -d link shows them (as tc shows options)" \
	has $GW stripe0 "reorder on quantum 3000 hold-max 10ms flow-limit 1024 buffer-limit 8192 memory-limit 67108864 stripe-min 0 hold-auto on"
check "ip link set ... type stripe changes some, keeps the others" \
	gw link set stripe0 type stripe hold-max 20ms flow-limit 64 reorder off
check "... as ip -d link shows" \
	has $GW stripe0 "reorder off quantum 3000 hold-max 20ms flow-limit 64"
check "ip link sets memory-limit, and tc shows it" \
	bash -c "ip -n $GW link set stripe0 type stripe memory-limit 1048576 &&
		 ip -n $GW -d link show stripe0 | grep -q 'memory-limit 1048576 ' &&
		 tc -n $GW qdisc add dev stripe0 root stripe &&
		 tc -n $GW qdisc show dev stripe0 | grep -q 'memory-limit 1048576 ' &&
		 tc -n $GW qdisc del dev stripe0 root &&
		 ip -n $GW link set stripe0 type stripe memory-limit 67108864"
check_fails "memory-limit below 64 KiB is refused by ip with its range" \
	'invalid memory-limit "4096": must be 65536..2147483648' \
	gw link set stripe0 type stripe memory-limit 4096
check "tc sees the same options (one configuration)" \
	bash -c "tc -n $GW qdisc add dev stripe0 root stripe &&
		 tc -n $GW qdisc show dev stripe0 | grep -q 'quantum 3000' &&
		 tc -n $GW qdisc del dev stripe0 root"
check_fails "a bad value is refused by ip with the option's range" \
	"invalid quantum \"100\": must be 256..1048576" \
	gw link set stripe0 type stripe quantum 100
check_fails "an unknown option is refused by ip" \
	'unknown option "reorderr"' gw link set stripe0 type stripe reorderr on

# Raw rtnetlink, as a tool that does not check would send it
# rtnl_raw NS newlink NAME HEXDATA -- RTM_NEWLINK kind stripe, IFLA_INFO_DATA
# rtnl_raw NS setmaster DEV MASTER -- RTM_SETLINK IFLA_MASTER ("ip link set
#   DEV master MASTER")
# One request in raw rtnetlink, as a tool that does not check would send
# it: prints the errno (negative) and the extack message
rtnl_raw() {
	ip netns exec "$1" python3 - "${@:2}" <<'PY'
import socket, struct, sys
def attr(t, p):
    return struct.pack("=HH", 4 + len(p), t) + p + bytes(-len(p) % 4)
mode, a, b = sys.argv[1:4]
if mode == "newlink":
    data = bytes.fromhex(b)
    info = attr(1, b"stripe\0") + struct.pack("=HH", 4 + len(data), 2 | 0x8000) + data
    body = struct.pack("=BBHiII", 0, 0, 0, 0, 0, 0) + attr(3, a.encode() + b"\0") + attr(18 | 0x8000, info)
    msg_type, msg_flags = 16, 0x605	# NEWLINK, REQUEST|ACK|CREATE|EXCL
else:
    dev, master = socket.if_nametoindex(a), socket.if_nametoindex(b)
    body = struct.pack("=BBHiII", 0, 0, 0, dev, 0, 0) + attr(10, struct.pack("=I", master))
    msg_type, msg_flags = 19, 0x5	# SETLINK, REQUEST|ACK
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
s.setsockopt(270, 11, 1)	# NETLINK_EXT_ACK
s.setsockopt(270, 10, 1)	# NETLINK_CAP_ACK: the error echoes the header only
s.send(struct.pack("=IHHII", 16 + len(body), msg_type, msg_flags, 1, 0) + body)
r = s.recv(65536)
err = struct.unpack_from("=i", r, 16)[0]
# the extack message: NLMSGERR_ATTR_MSG (1) after the echoed header
off, msg = 16 + 4 + 16, ""
while off + 4 <= len(r):
    l, t = struct.unpack_from("=HH", r, off)
    if l < 4: break
    if t == 1: msg = r[off + 4:off + l].split(b"\0")[0].decode()
    off += (l + 3) & ~3
print(err, msg)
sys.exit(0 if err == 0 else 1)
PY
}
newlink_raw() { rtnl_raw "$1" newlink "$2" "$3"; }
setmaster_raw() { rtnl_raw "$1" setmaster "$2" "$3"; }
# attribute 99 (unknown), u32 7
check_fails "an unknown attribute is refused" "Unknown attribute type" \
	newlink_raw $GW stripe9 0800630007000000
check_fails "quantum 100 (below 256) is refused" "integer out of range" \
	newlink_raw $GW stripe9 0800040064000000
check_fails "a u32 option sent as 2 bytes is refused" "" \
	newlink_raw $GW stripe9 060004000001
check_fails "bytes that are no attribute are refused" "" \
	newlink_raw $GW stripe9 0102
check "... and none of them made a master" \
	bash -c "! ip -n $GW link show stripe9 2>/dev/null"

# --- links with ip link only ---
check "ip link set g1 master stripe0" gw link set g1 master stripe0
check "... puts stripe's FIFO on the link, as tc would" \
	bash -c "tc -n $GW qdisc show dev g1 | grep -q 'qdisc stripe .* root .*master stripe0'"
check "ip link set g2 master stripe0" gw link set g2 master stripe0
check "ip -d link shows the link's details" \
	has $GW g1 "stripe_slave weight auto weight-used 100 limit 1000 id 0"
check "per-link weight with ip link" \
	gw link set g2 type stripe_slave weight 3
check "... shown" has $GW g2 "weight 3 weight-used 3"
check "weight auto again" gw link set g2 type stripe_slave weight auto
check_fails "a weight out of range is refused" 'invalid weight "0"' \
	gw link set g2 type stripe_slave weight 0
gw link add stripe1 type stripe
check_fails "a master cannot be a link" "cannot be a link" \
	gw link set stripe1 master stripe0
gw link del stripe1
# The kernel's reason reaches the caller: EBUSY for a device that has a
# receive handler already (the lower device of a macvlan), not EINVAL
gw link add g9 type dummy
gw link add mv9 link g9 type macvlan
check_fails "a device with a receive handler is refused with EBUSY" \
	"-16 sch_stripe: the link has a receive handler" setmaster_raw $GW g9 stripe0
check "... and has its own qdisc back" \
	bash -c "! tc -n $GW qdisc show dev g9 | grep -q stripe"
gw link del mv9
gw link del g9
# A default_qdisc sysctl naming stripe: a device that queues gets a plain
# FIFO joined to no master (not noop, which drops all), shown and refused
# options; "ip link set DEV master" then joins it as always
# (the sysctl is the host's, in the first namespace only; the debug
# kernel has no tun)
dflt=$(sysctl -n net.core.default_qdisc)
sysctl -qw net.core.default_qdisc=stripe
modprobe tun 2>/dev/null
if ip netns exec $GW ip tuntap add mode tap name tap9 2>/dev/null; then
	gw link set tap9 up
	sysctl -qw net.core.default_qdisc="$dflt"
	check "default_qdisc stripe: a FIFO joined to no master" \
		bash -c "tc -n $GW qdisc show dev tap9 | grep -Eq 'qdisc stripe 0: root .*limit [0-9]+'"
	check "... and that ip link set master replaces" \
		bash -c "ip -n $GW link set tap9 master stripe0 &&
			 tc -n $GW qdisc show dev tap9 | grep -q 'master stripe0' &&
			 ip -n $GW link set tap9 nomaster"
	gw link del tap9
else
	sysctl -qw net.core.default_qdisc="$dflt"
	tap_skip "default_qdisc stripe: a FIFO joined to no master" \
		"no tap device in this kernel (CONFIG_TUN)"
fi
check "the far side, with ip link only" \
	bash -c "ip -n $BL link add stripe0 type stripe reorder on &&
		 ip -n $BL link set b1 master stripe0 &&
		 ip -n $BL link set b2 master stripe0"
# The stream below wants order restored: reorder on at both ends
gw link set stripe0 type stripe reorder on quantum 1514
gw addr add 10.9.0.1/24 dev stripe0
gw addr add fd09::1/64 dev stripe0 nodad
bl addr add 10.9.0.2/24 dev stripe0
bl addr add fd09::2/64 dev stripe0 nodad
gw link set stripe0 up
bl link set stripe0 up
check "ping over a bundle made with ip link" \
	ip netns exec $GW ping -c 3 -i 0.2 -W 2 10.9.0.2
check "ping6 too" ip netns exec $GW ping -6 -c 3 -i 0.2 -W 2 fd09::2

# --- ethtool ---
check "ethtool -i: driver stripe" \
	bash -c "ip netns exec $GW ethtool -i stripe0 | grep -q '^driver: stripe'"
check "ethtool: speed is the sum of the active links'" \
	bash -c "ip netns exec $GW ethtool stripe0 | grep -q 'Speed: 20000Mb/s'"

# --- a stream, and shaping on the master while it flows ---
iperf_server() {
	ip netns exec "$1" iperf3 -s -1 -D -p "$2"
	wait_for listening "$1" "$2"
}
iperf_rate() {	# NS ARGS... -- received bits/s
	local ns=$1
	shift
	ip netns exec "$ns" iperf3 -J "$@" 2>/dev/null | python3 -c '
import json, sys
r = json.load(sys.stdin)
e = r.get("end", {})
s = e.get("sum_received") or e.get("sum") or {}
print(int(s.get("bits_per_second", 0)))'
}
iperf_server $BL 5301
b1=$(link_stat $GW g1 tx_bytes)
b2=$(link_stat $GW g2 tx_bytes)
rate=$(iperf_rate $GW -c 10.9.0.2 -p 5301 -t 4)
b1=$(( $(link_stat $GW g1 tx_bytes) - b1 ))
b2=$(( $(link_stat $GW g2 tx_bytes) - b2 ))
log "one stream over 2 x 50 Mbit/s: $((rate / 1000000)) Mbit/s; g1 $b1 B, g2 $b2 B"
check "the stream went over both links, evenly (each 40..60 %)" \
	python3 -c "import sys; a, b = $b1, $b2; f = a / (a + b); sys.exit(not (a + b > 1e6 and 0.4 < f < 0.6))"
check "ip -s -d link shows the master's and each link's counters, as tc -s" \
	bash -c "ip -n $GW -s -d link show stripe0 | grep -q '^    master stripe0 links 2 active 2 sender 0x[0-9a-f]\\{8\\} tx [1-9][0-9]* pkts' &&
		 ip -n $GW -s -d link show stripe0 | grep -q '^    link g2 weight 100 flags up,carrier,active tx [1-9]'"

# tc -s -j and ip -s -d -j print one master alike (review U3): ip's
# info_xstats is tc's role, master and links (peers are tc's alone), keys,
# types and values, and each option tc prints ip prints the same.  Dumped
# tc, ip, tc: a counter that moved between the tc dumps means try again.
same_json() {	# same_json NS -- exit 0 alike, 1 not, 2 counters moved
	local tc1 ip1 tc2
	tc1=$(tc -n "$1" -s -j qdisc show dev stripe0) &&
		ip1=$(ip -n "$1" -s -d -j link show stripe0) &&
		tc2=$(tc -n "$1" -s -j qdisc show dev stripe0) || return 1
	python3 - "$tc1" "$ip1" "$tc2" <<'PY'
import json, sys

def stripe(out):
    return [q for q in json.loads(out) if q.get("kind") == "stripe"][0]

def same(a, b):	# types too: 1 is not "1", true is not 1
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)

tc1, tc2 = stripe(sys.argv[1]), stripe(sys.argv[3])
info = json.loads(sys.argv[2])[0]["linkinfo"]
want = {k: tc1.get(k) for k in ("role", "master", "links")}
if not same(want, {k: tc2.get(k) for k in want}):
    print("the counters moved between the two tc dumps")
    sys.exit(2)
got = info.get("info_xstats", {})
bad = ["%s: tc %s, ip %s" % (k, json.dumps(want.get(k)), json.dumps(got.get(k)))
       for k in sorted(set(want) | set(got))
       if not same(want.get(k), got.get(k))]
data = info.get("info_data", {})
bad += ["option %s: tc %s, ip %s" % (k, json.dumps(v), json.dumps(data.get(k)))
        for k, v in sorted(tc1.get("options", {}).items())
        if not same(v, data.get(k))]
if bad:
    print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
}
same_json_settled() {	# same_json_settled NS -- same_json once counters stand
	local i out rc
	for i in $(seq 1 20); do
		out=$(same_json "$1")
		rc=$?
		[ $rc = 2 ] || break
		sleep 0.5
	done
	echo "$out"
	return $rc
}
tc -n $GW qdisc add dev stripe0 root stripe
check "tc -s -j and ip -s -d -j print stripe0's statistics and options alike" \
	same_json_settled $GW
tc -n $GW qdisc del dev stripe0 root

check "ethtool -S counts it" \
	bash -c "ip netns exec $GW ethtool -S stripe0 | awk '/tx_packets:/ {exit !(\$2 > 1000)}'"

iperf_server $BL 5302
ip netns exec $GW iperf3 -c 10.9.0.2 -p 5302 -t 6 -J >/tmp/ctl-iperf.$$ 2>/dev/null &
IPERF=$!
sleep 1.5
check "fq_codel on the master while traffic flows" \
	tc -n $GW qdisc add dev stripe0 root fq_codel
sleep 1.5
check "... and it carries the traffic" \
	bash -c "tc -n $GW -s qdisc show dev stripe0 | grep -A2 fq_codel | grep -q 'Sent [1-9][0-9]\{6,\} bytes'"
wait $IPERF
rate=$(python3 -c '
import json, sys
e = json.load(open(sys.argv[1])).get("end", {})
print(int((e.get("sum_received") or {}).get("bits_per_second", 0)))' /tmp/ctl-iperf.$$)
rm -f /tmp/ctl-iperf.$$
log "stream across the qdisc change: $((rate / 1000000)) Mbit/s"
check "... and the stream went on" test "${rate:-0}" -gt 0
check_timing "... at more than 10 Mbit/s" test "${rate:-0}" -gt 10000000
if modprobe sch_cake 2>/dev/null; then
	check "cake on the master" \
		tc -n $GW qdisc replace dev stripe0 root cake bandwidth 30mbit
	iperf_server $BL 5303
	rate=$(iperf_rate $GW -c 10.9.0.2 -p 5303 -t 4)
	log "through cake at 30 Mbit/s: $((rate / 1000000)) Mbit/s"
	check_timing "cake shapes the bundle (15..32 Mbit/s)" \
		bash -c "[ ${rate:-0} -gt 15000000 ] && [ ${rate:-0} -lt 32000000 ]"
else
	tap_skip "cake on the master" "no sch_cake in this kernel"
fi
tc -n $GW qdisc del dev stripe0 root 2>/dev/null

# --- release, and notifications ---
ip netns exec $GW ip -o monitor link >/tmp/ctl-mon.$$ 2>&1 &
MON=$!
monitor_ready() {
	gw link set lo up
	grep -q ': lo:' /tmp/ctl-mon.$$
}
gw link set lo down
wait_for monitor_ready
check "ip link set g2 nomaster" gw link set g2 nomaster
check "... gives the link its default qdisc back" \
	bash -c "! tc -n $GW qdisc show dev g2 | grep -q stripe"
check "... and the master has one link" \
	test "$(ip -n $GW -o link show master stripe0 | wc -l)" = 1
# bl still stripes its replies over b2 until gw's feedback stops
# mentioning that link (gw forgot it): ping gets through over g1 within
# seconds.  (Before feedback noticed omitted links: 29 s.)
t0=$(date +%s%N)
check "ping still goes, over g1" \
	wait_for ip netns exec $GW ping -c 1 -W 1 10.9.0.2
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
log "ping through again after $ms ms"
check_timing "... within 5 s ($ms ms): bl left b2 on gw's feedback" \
	test "$ms" -lt 5000
check "g2 joins again" gw link set g2 master stripe0
check "the link carrier going down is told" \
	bash -c "ip -n $SW link set sg2 down; sleep 1; ip -n $SW link set sg2 up; sleep 1"
kill $MON 2>/dev/null
wait $MON 2>/dev/null
log "ip monitor link:"
sed 's/^/#   /' /tmp/ctl-mon.$$ | grep -v ': lo:'
check "RTM_NEWLINK when a link leaves" \
	bash -c "grep -v 'master stripe0' /tmp/ctl-mon.$$ | grep -q ': g2@'"
check "RTM_NEWLINK when a link joins" \
	bash -c "grep -q ': g2@.*master stripe0' /tmp/ctl-mon.$$"
check "RTM_NEWLINK when a link's state changes" \
	bash -c "grep -q ': g2@.*NO-CARRIER.*master stripe0' /tmp/ctl-mon.$$"
rm -f /tmp/ctl-mon.$$
check "tc qdisc del removes a link joined with ip link" \
	bash -c "tc -n $GW qdisc del dev g2 root && ! ip -n $GW link show g2 | grep -q 'master stripe0'"
check "deleting the master gives a link joined with ip link its default qdisc" \
	bash -c "ip -n $GW link del stripe0 && ! tc -n $GW qdisc show dev g1 | grep -q stripe"
tap_done
