#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The plain data path (reorder off): traffic both ways over six links, IPv4
# and IPv6, TCP and UDP; weights; failover; links joining and leaving under
# load; deleting masters and namespaces under load; every validation rule.
source "$(dirname "$0")/lib.sh"
require_vm
stripe_load || exit 1
tb_setup 6
tb_stripe 6

iperf_server() {	# iperf_server NS -- one-shot iperf3 server
	ip netns exec "$1" iperf3 -s -1 -D -p "${2:-5201}"
	wait_for listening "$1" "${2:-5201}"
}

# iperf NS ARGS... -- run an iperf3 client, print received bits/s
iperf() {
	local ns=$1
	shift
	ip netns exec "$ns" iperf3 -J "$@" 2>/dev/null | python3 -c '
import json, sys
r = json.load(sys.stdin)
e = r.get("end", {})
s = e.get("sum_received") or e.get("sum") or {}
print(int(s.get("bits_per_second", 0)))'
}

positive() { [ -n "$1" ] && [ "$1" -gt 0 ] 2>/dev/null; }

# link_bytes NS DIR -- tx_bytes of every link, in order, from the master
link_bytes() {
	tc -n "$1" -s -j qdisc show dev stripe0 | python3 -c '
import json, sys
for q in json.load(sys.stdin):
    print(" ".join(str(l["tx_bytes"]) for l in q.get("links", [])))'
}

# shares_ok BEFORE AFTER WEIGHTS... -- each link's share of the bytes sent
# between two snapshots is within 10 % of its share of the weights
shares_ok() {
	python3 - "$@" <<'PY'
import sys
before = [int(x) for x in sys.argv[1].split()]
after = [int(x) for x in sys.argv[2].split()]
w = [int(x) for x in sys.argv[3:]]
d = [a - b for a, b in zip(after, before)]
tot, wt = sum(d), sum(w)
print("# bytes per link:", d)
if tot <= 0:
    sys.exit(1)
# SRR splits to within a frame or two: 300 KB is plenty to judge, and a
# slow (debug, busy) kernel may carry no more than that in 2 s
if tot < 300000:
    print("# too little traffic to judge")
    sys.exit(1)
# 10 % of the link's share, and never less than two full frames
bad = [i for i in range(len(w))
       if abs(d[i] - tot * w[i] / wt) > max(0.1 * tot * w[i] / wt, 2 * 1514)]
sys.exit(1 if bad else 0)
PY
}

# --- connectivity, both directions, both families ---
check "ping gw -> bl over stripe0 (IPv4)" \
	ip netns exec $GW ping -c 3 -i 0.2 -W 2 10.9.0.2
check "ping bl -> gw over stripe0 (IPv6)" \
	ip netns exec $BL ping -6 -c 3 -i 0.2 -W 2 fd09::1

iperf_server $BL
bps=$(iperf $GW -c 10.9.0.2 -t 2)
positive "$bps" && tap_ok "TCP gw -> bl, IPv4 ($bps bit/s)" || tap_fail "TCP gw -> bl, IPv4"
iperf_server $GW
bps=$(iperf $BL -6 -c fd09::1 -t 2)
positive "$bps" && tap_ok "TCP bl -> gw, IPv6 ($bps bit/s)" || tap_fail "TCP bl -> gw, IPv6"
iperf_server $BL
bps=$(iperf $GW -u -b 50M -c 10.9.0.2 -t 2)
positive "$bps" && tap_ok "UDP gw -> bl, IPv4 ($bps bit/s)" || tap_fail "UDP gw -> bl, IPv4"
iperf_server $GW
bps=$(iperf $BL -6 -u -b 50M -c fd09::1 -t 2)
positive "$bps" && tap_ok "UDP bl -> gw, IPv6 ($bps bit/s)" || tap_fail "UDP bl -> gw, IPv6"

check "the receiver counts what arrived on every link" \
	bash -c "[ \$(tc -n $BL -s -j qdisc show dev stripe0 | python3 -c '
import json,sys; q=json.load(sys.stdin)[0]
print(sum(1 for l in q[\"links\"] if l[\"rx_packets\"] > 0))') = 6 ]"

# --- weights ---
b0=$(link_bytes $GW)
iperf_server $BL
iperf $GW -c 10.9.0.2 -t 2 >/dev/null
b1=$(link_bytes $GW)
check "equal weights: bytes split 1:1:1:1:1:1 within 10 %" \
	shares_ok "$b0" "$b1" 1 1 1 1 1 1
tc -n $GW qdisc change dev g1 root stripe master stripe0 weight 4
tc -n $GW qdisc change dev g2 root stripe master stripe0 weight 2
for i in 3 4 5 6; do
	tc -n $GW qdisc change dev g$i root stripe master stripe0 weight 1
done
b0=$(link_bytes $GW)
iperf_server $BL
iperf $GW -c 10.9.0.2 -t 2 >/dev/null
b1=$(link_bytes $GW)
check "weights 4:2:1:1:1:1: bytes split in proportion within 10 %" \
	shares_ok "$b0" "$b1" 4 2 1 1 1 1
check "the weight shows in tc -s" \
	bash -c "tc -n $GW -s qdisc show dev stripe0 | grep -q 'link g1 weight 4'"
for i in 1 2 3 4 5 6; do
	tc -n $GW qdisc change dev g$i root stripe master stripe0 weight 1
done

# --- failover: a link that loses carrier is skipped, and comes back ---
# A cut link: both ends lose carrier (one-sided failures need the peer
# detection of reorder on).
ip -n $SW link set sg3 down
ip -n $SW link set sb3 down
check "carrier loss shows on the link" \
	bash -c "tc -n $GW -s qdisc show dev stripe0 | grep -q 'link g3 weight 1 flags up '"
b0=$(link_bytes $GW)
iperf_server $BL
bps=$(iperf $GW -c 10.9.0.2 -t 2)
b1=$(link_bytes $GW)
positive "$bps" && tap_ok "traffic continues without link 3 ($bps bit/s)" ||
	tap_fail "traffic continues without link 3"
check "no byte goes to the link without carrier" \
	shares_ok "$b0" "$b1" 1 1 0 1 1 1
ip -n $SW link set sg3 up
ip -n $SW link set sb3 up
ip -n $GW link set g4 down
ip -n $BL link set b4 down
b0=$(link_bytes $GW)
iperf_server $BL
iperf $GW -c 10.9.0.2 -t 2 >/dev/null
b1=$(link_bytes $GW)
check "link 3 rejoins when its carrier returns; a link set down is skipped" \
	shares_ok "$b0" "$b1" 1 1 1 0 1 1
ip -n $GW link set g4 up
ip -n $BL link set b4 up

# --- links joining and leaving under a running stream ---
iperf_server $BL
ip netns exec $GW iperf3 -c 10.9.0.2 -t 4 -J >"$TOP/build/jl.$$" 2>&1 &
pid=$!
sleep 1
tc -n $GW qdisc del dev g6 root
tc -n $GW qdisc del dev g5 root
sleep 1
tc -n $GW qdisc add dev g6 root stripe master stripe0
tc -n $GW qdisc add dev g5 root stripe master stripe0 weight 2
wait $pid
check "a stream survives links leaving and joining" \
	python3 -c "import json; r=json.load(open('$TOP/build/jl.$$')); assert r['end']['sum_received']['bytes'] > 0"
rm -f "$TOP/build/jl.$$"
check "the master has six links again" \
	bash -c "tc -n $GW -s -j qdisc show dev stripe0 | grep -q '\"links\":6'"

# --- validation: each bad request is refused with a message ---
ip -n $GW link add stripe1 type stripe
ip -n $BL link add stripe7 type stripe
ip -n $GW link add v0 type veth peer v1
check_fails "unknown master" "no master of that name" \
	tc -n $GW qdisc add dev v0 root stripe master nosuch0
check_fails "master in another namespace" "no master of that name" \
	tc -n $GW qdisc add dev v0 root stripe master stripe7
check_fails "a device that is not a stripe master" "not a stripe master" \
	tc -n $GW qdisc add dev v0 root stripe master v1
check_fails "link already in another master" "already belongs to another master" \
	tc -n $GW qdisc change dev g1 root stripe master stripe1
check_fails "the master itself as a link" "cannot be a link" \
	tc -n $GW qdisc replace dev stripe0 root stripe master stripe0
check_fails "another stripe master as a link" "cannot be a link" \
	tc -n $GW qdisc add dev stripe1 root stripe master stripe0
check_fails "a link that is not Ethernet-like" "Ethernet-like" \
	tc -n $GW qdisc add dev lo root stripe master stripe0
check_fails "weight 0" "weight" \
	tc -n $GW qdisc add dev v0 root stripe master stripe0 weight 0
check_fails "weight out of range" "weight" \
	tc -n $GW qdisc add dev v0 root stripe master stripe0 weight 1001
ip -n $GW link set v0 mtu 1000
check_fails "a link MTU too small" "MTU of 1280" \
	tc -n $GW qdisc add dev v0 root stripe master stripe0
ip -n $GW link set v0 mtu 1500
check_fails "a master option on a link" "option of the master" \
	tc -n $GW qdisc add dev v0 root stripe master stripe0 quantum 3000
tc -n $GW qdisc add dev v0 root handle 1: prio
check_fails "not the root qdisc" "root qdisc" \
	tc -n $GW qdisc add dev v0 parent 1:1 stripe master stripe0
tc -n $GW qdisc del dev v0 root
check_fails "a link cannot shrink its MTU below 1280 while joined" "" \
	ip -n $GW link set g1 mtu 1000
check "a refused request changed nothing" \
	bash -c "tc -n $GW -s -j qdisc show dev stripe0 | grep -q '\"links\":6' &&
		 ! tc -n $GW qdisc show dev v0 | grep -q stripe"

# --- teardown under load ---
iperf_server $BL
timeout 8 ip netns exec $GW iperf3 -c 10.9.0.2 -t 3 >/dev/null 2>&1 &
sleep 1
check "delete a master with links and traffic" ip -n $GW link del stripe0
check "its links stay, as plain qdiscs without a master" \
	bash -c "tc -n $GW qdisc show dev g1 | grep -q 'qdisc stripe' &&
		 ! ip -n $GW link show g1 | grep -q 'master stripe0'"
wait
for i in 1 2 3; do
	tc -n $BL qdisc replace dev b$i root stripe master stripe0
done
iperf_server $BL
timeout 8 ip netns exec $BL iperf3 -c 127.0.0.1 -t 3 >/dev/null 2>&1 &
sleep 1
# A namespace lives while a process is in it: end them, then delete.
ip netns pids $BL | xargs -r kill
check "delete a namespace with a master, links and traffic" ip netns del $BL
wait
check "rmmod is refused while a link qdisc holds the module" \
	bash -c "! rmmod sch_stripe 2>/dev/null"
# No rmmod here: the TCP sockets orphaned by deleting their path keep their
# namespace (and so its links) until they time out; foundation.sh covers
# unloading.
tap_done
