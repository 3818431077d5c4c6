#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# reorder on as users run it: the options a person types (reorder on, no
# hold-max, no weights), veth offloads as they come (TSO on, GRO off), and
# multiqueue links; then what users do to a bundle: a packet tap on a link,
# a tunnel link whose underlay is the master itself, masters stacked on
# each other, IPv4 via an IPv6 next hop, deleting and unloading at once.
#
# Phase A, veth defaults, six 100 Mbit links, MTU 9000, one TCP stream each:
#   skew 0..2 ms; a link black-holed one way mid-stream; two links at a
#   quarter of the rate, which with no weights typed only adaptive shares
#   serve.  Before the receive path owned its frames, each
#   of these crashed the kernel (BUG in skb_shift() under TCP's SACK code:
#   GRO emptied the fragments of the sender's own retransmit queue).
# Phase B, multiqueue veths (4 queues, XPS over the CPUs, GRO on): 4 streams
#   from both CPUs, then one stream whose sender moves between CPUs.  Every
#   stripe frame of a link must leave on one ring, or the link is not FIFO.
source "$(dirname "$0")/lib.sh"
require_vm
stripe_load || exit 1
SP=$TOP/tools/stripe-perf
OUT=$TOP/build/realworld.$$
mkdir -p "$TOP/build"


# bundle -- the testbed's six links, stripe0 at both ends with reorder on
# and nothing else typed
bundle() {
	tb_setup 6 9000
	for i in 1 2 3 4 5 6; do
		tb_shape "$i" 100mbit "${SKEW:+$(( (i - 1) * SKEW ))us}"
	done
	tb_stripe 6 &&
	tc -n $GW qdisc change dev stripe0 root stripe reorder on &&
	tc -n $BL qdisc change dev stripe0 root stripe reorder on &&
	wait_for ip netns exec $GW ping -c 1 -W 1 10.9.0.2
}
# stream SECS NAME [ARGS] -- stripe-perf gw -> bl in the background
stream() {
	local secs=$1 name=$2
	shift 2
	ip netns exec $BL "$SP" -s -1 -i 0 >/dev/null 2>&1 &
	wait_for listening $BL 5301
	ip netns exec $GW "$SP" -c 10.9.0.2 -t "$secs" -i 0 -J "$@" \
		>"$OUT.$name" 2>&1 &
	STREAM_PID=$!
}
settled() {	# settled NAME FROM -- Mbit/s the receiver got from second FROM on
	python3 - "$OUT.$1" "$2" <<'PY' 2>/dev/null
import json, sys
d = json.load(open(sys.argv[1]))
rcv = [d["summary"][k] for k in ("local", "remote") if d["summary"][k].get("role") == "receiver"][0]
rows = [r for r in rcv["intervals"] if r["start"] >= float(sys.argv[2]) - 1e-6]
secs = sum(r["end"] - r["start"] for r in rows)
print(int(sum(r["bytes"] for r in rows) * 8 / secs / 1e6) if secs else 0)
PY
}
goodput() {	# goodput NAME -- Mbit/s of a finished stream, empty if it failed
	python3 -c "import json; print(int(json.load(open('$OUT.$1'))['end']['sum_received']['bits_per_second'] / 1e6))" 2>/dev/null ||
		sed 's/^/# stripe-perf: /' "$OUT.$1" | head -5 >&2
}
nstat_ofo() {	# the receiver's out-of-order segments since the last call
	ip netns exec $BL nstat -z TcpExtTCPOFOQueue | awk '/TCPOFOQueue/ {print $2}'
}
reseq_line() {
	echo "resequenced $(master_field $BL rx_resequenced) lost_link $(master_field $BL rx_lost_link)" \
	     "lost_timeout $(master_field $BL rx_lost_timeout) late $(master_field $BL rx_late)" \
	     "link_reordered $(master_field $BL rx_link_reordered)" \
	     "hold bound $(master_field $BL rx_hold_us) us"
}
link_paces() {	# each of gw's links' pace, in % of its weight's share
	tc -n $GW -s -j qdisc show dev stripe0 |
		python3 -c "import json,sys; print(*[l.get('pace', 0) * 100 // 1024 for l in json.load(sys.stdin)[0]['links']])"
}
# ceiling SECS -- the paths' ceiling now, in Mbit/s: one stream per link,
# all at once, with stripe taken off the links (as make bench's ceiling)
ceiling() {
	local i pids=() sum=0 g
	for i in 1 2 3 4 5 6; do
		tc -n $GW qdisc del dev "g$i" root
		tc -n $BL qdisc del dev "b$i" root
		ip -n $GW addr add "10.10.$i.1/24" dev "g$i"
		ip -n $BL addr add "10.10.$i.2/24" dev "b$i"
		ip netns exec $BL "$SP" -s -1 -i 0 -p $((5400 + i)) \
			>/dev/null 2>&1 &
	done
	for i in 1 2 3 4 5 6; do
		wait_for listening $BL $((5400 + i))
	done
	for i in 1 2 3 4 5 6; do
		ip netns exec $GW "$SP" -c "10.10.$i.2" -p $((5400 + i)) \
			-t "$1" -i 0 -J >"$OUT.ceil$i" 2>&1 &
		pids+=($!)
	done
	wait "${pids[@]}"
	for i in 1 2 3 4 5 6; do
		g=$(goodput "ceil$i")
		sum=$((sum + ${g:-0}))
	done
	echo "$sum"
}
# run_stream SECS NAME [ARGS] -- a stream to its end; logs what it got
run_stream() {
	nstat_ofo >/dev/null
	stream "$@"
	wait $STREAM_PID
	log "$2: $(goodput "$2") Mbit/s, receiver OFO $(nstat_ofo); $(reseq_line)"
}

PHASES=${STRIPE_RW_PHASES:-ABC}
if [[ $PHASES == *A* ]]; then
# --- A: veth offloads as they come ---
export TB_OFFLOADS=default
SKEW=400 bundle
check "A: defaults: the master is up (reorder on, veth TSO on / GRO off)" \
	test "$(ip netns exec $GW ethtool -k g1 | awk '/^generic-receive-offload/ {print $2}')" = off
# A packet tap makes every frame of b1 shared: the receive path must
# still own what it hands to GRO.
ip netns exec $BL tcpdump -Z root -i b1 -s 128 -w "$OUT.pcap" -c 100000 >/dev/null 2>&1 &
tap=$!
run_stream 4 skew
kill $tap 2>/dev/null
wait $tap 2>/dev/null
skew=$(goodput skew)
tapped=$(stat -c %s "$OUT.pcap" 2>/dev/null)
check "A: skew 0..2 ms, a tap on a link: the stream completes (${skew:-none} Mbit/s)" \
	test -n "$skew" -a "${skew:-0}" -gt 0
check "A: ... and the tap saw its frames (${tapped:-no} bytes of capture)" \
	test "${tapped:-0}" -gt 100000

# One link black-holed in the data direction, carrier up, 2 s into 5 s.
stream 5 hole
sleep 2
tc -n $SW qdisc change dev sb3 root netem rate 100mbit loss 100% limit 10000
wait $STREAM_PID
hole=$(goodput hole)
log "hole: ${hole:-none} Mbit/s; $(reseq_line)"
check "A: a link black-holed one way mid-stream: the stream goes on (${hole:-none} Mbit/s)" \
	test -n "$hole" -a "${hole:-0}" -gt 0

# Two links at a quarter of the rate: their queues overflow.
for i in 1 2 3 4 5 6; do tb_shape "$i" 100mbit; done
tb_shape 1 25mbit
tb_shape 2 25mbit
nstat_ofo >/dev/null
stream 8 unequal -i 0.5
sleep 4
paces=$(link_paces)	# while the stream runs
wait $STREAM_PID
unequal=$(goodput unequal)
unequal_settled=$(settled unequal 2)
log "unequal: $unequal Mbit/s, from 2 s on $unequal_settled, receiver OFO $(nstat_ofo); $(reseq_line)"
log "unequal: pace per link 4 s in (% of its weight's share): $paces"
check "A: two links at a quarter of the rate: the stream completes (${unequal:-none} Mbit/s)" \
	test -n "$unequal" -a "${unequal:-0}" -gt 0
# The same stream with the right weights typed (what a person who knew the
# paths would type): what the shares should find.
for i in 1 2 3 4 5 6; do
	tc -n $GW qdisc change dev "g$i" root stripe master stripe0 \
		weight $(( i <= 2 ? 1 : 4 ))
done
run_stream 8 typed -i 0.5
typed_settled=$(settled typed 2)
log "unequal: weights 1 1 4 4 4 4 typed: $(goodput typed) Mbit/s, from 2 s on $typed_settled"
# What these paths carry, measured now (one stream per link at once,
# stripe off the links): about 446 of the 450 Mbit/s netem lets through.
ceil=$(ceiling 4)
log "unequal: the paths' ceiling now: $ceil Mbit/s"
# No weights typed, and veth says 10 Gbit/s for every link: only the peer's
# reports of each link's queueing tell the sender what the paths take
# (adaptive shares).  Equal shares got 146 Mbit/s here, cuts by the queue
# alone 385-397, cuts by the delivered rates 425-430.  The whole stream,
# with the first second or two in which the shares find the paths (10
# runs: 91-96 % of the ceiling); once they have, as much as with the right
# weights typed.  (From 2 s on, the shares got 407-441 Mbit/s in 7 runs
# and typed weights 413-415 in 2: one stream over these paths, whose
# netem queues let TCP's RTT grow to 30-60 ms, does not reach the
# six streams' ceiling either way; issue 12 asks 95 % of it.)  The bars
# below leave a shared 2-CPU host its noise (the 90 % bar was missed with
# 91-96 % typical); make bench PROFILES=unequal-auto keeps the strict
# figure.
check_timing "A: ... with no weights typed, the shares follow the paths: >= 85 % of the ceiling measured now (${unequal:-none} of ${ceil:-none} Mbit/s)" \
	test $(( ${unequal:-0} * 100 )) -ge $(( ${ceil:-9999} * 85 ))
check_timing "A: ... once they found them (from 2 s on), >= 90 % of the right weights typed (${unequal_settled:-none} vs ${typed_settled:-none} Mbit/s; ceiling $ceil)" \
	test $(( ${unequal_settled:-0} * 100 )) -ge $(( ${typed_settled:-9999} * 90 ))
check_timing "A: ... the two slow links take under half their share, the others over 80 % ($paces)" \
	python3 -c "import sys; p = [int(x) for x in sys.argv[1:]]; sys.exit(not (max(p[:2]) < 50 and min(p[2:]) > 80))" $paces
tb_cleanup
unset TB_OFFLOADS
fi

# --- B: multiqueue links (C runs on them too) ---
export TB_QUEUES=4
SKEW=100 bundle
check "B: multiqueue links have 4 tx queues with XPS" \
	test "$(ip netns exec $GW sh -c 'ls -d /sys/class/net/g1/queues/tx-* | wc -l')" = 4
# A frame sent in the first moments of a bundle's traffic may have waited
# for a neighbour entry and been overtaken by a marker (design.rst): a
# one-second stream first brings every link's neighbour up both ways, and
# the checks count only what the streams add after it.
run_stream 1 warmup
reord0=$(master_field $BL rx_link_reordered)
log "warm-up: link_reordered $reord0"
run_stream 4 four -P 4
reord4=$(( $(master_field $BL rx_link_reordered) - reord0 ))
check "B: 4 streams from both CPUs complete ($(goodput four) Mbit/s)" \
	test -n "$(goodput four)"
# Each link carries its frames in the order they were numbered, whatever
# CPU sent them: no frame arrives behind a later one of its link.
check "B: 4 streams over multiqueue links: every link stays FIFO (link_reordered $reord4)" \
	test "${reord4:-1}" = 0
stream 5 migrate
pid=$(ip netns pids $GW | head -1)
for k in $(seq 1 8); do
	taskset -a -p -c $((k % $(nproc))) "$pid" >/dev/null 2>&1
	sleep 0.5
done
wait $STREAM_PID
log "migrate: $(goodput migrate) Mbit/s; $(reseq_line)"
reord=$(( $(master_field $BL rx_link_reordered) - reord0 ))
check "B: one stream whose sender moves between CPUs completes" \
	test -n "$(goodput migrate)"
check "B: and every link stays FIFO (link_reordered $reord)" \
	test "${reord:-1}" = 0

[[ $PHASES == *C* ]] || { tb_cleanup; tap_done; exit; }
# --- C: stacking, RFC 5549, unload ---
# (on B's multiqueue bundle)
if ip -n $GW link add vxt type vxlan id 1 dstport 4792 2>/dev/null; then
ip -n $GW link del vxt
# A vxlan bound to the master cannot be its link: the core refuses the loop.
ip -n $GW link add vx9 type vxlan id 9 remote 10.9.0.2 dstport 4791 dev stripe0
check_fails "C: a vxlan bound to the master cannot join it" "" \
	tc -n $GW qdisc add dev vx9 root stripe master stripe0
ip -n $GW link del vx9
# A vxlan link whose underlay only routes through the master: frames
# striped onto it come back to the master, and may pick it again.
ip -n $GW link add vx0 type vxlan id 7 remote 10.9.0.2 local 10.9.0.1 \
	dstport 4789
ip -n $BL link add vx0 type vxlan id 7 remote 10.9.0.1 local 10.9.0.2 \
	dstport 4789
ip -n $GW link set vx0 up
ip -n $BL link set vx0 up
check "C: a vxlan routed over the master joins it as a link" \
	tc -n $GW qdisc add dev vx0 root stripe master stripe0
ip netns exec $GW timeout 20 ping -c 200 -i 0.01 -q -s 1000 10.9.0.2 >/dev/null 2>&1
check "C: the master still answers after frames looped through vx0" \
	wait_for ip netns exec $GW ping -c 1 -W 1 10.9.0.2
tc -n $GW qdisc del dev vx0 root
unset TB_QUEUES
# A second master whose link is a vxlan over the first: stacked masters.
ip -n $GW link add vx1 type vxlan id 8 remote 10.9.0.2 local 10.9.0.1 \
	dstport 4790 dev stripe0
ip -n $BL link add vx1 type vxlan id 8 remote 10.9.0.1 local 10.9.0.2 \
	dstport 4790 dev stripe0
stripe_master $GW stripe1 10.10.0.1/24 fd10::1/64 vx1
stripe_master $BL stripe1 10.10.0.2/24 fd10::2/64 vx1
for ns in $GW $BL; do
	ip -n $ns link set vx1 up
	tc -n $ns qdisc change dev stripe1 root stripe reorder on
done
check "C: stacked masters: a ping over stripe1, whose link runs over stripe0" \
	wait_for ip netns exec $GW ping -c 1 -W 1 10.10.0.2
ip netns exec $GW ping -c 50 -i 0.01 -q -s 3000 10.10.0.2 >/dev/null 2>&1

else
	tap_skip "C: tunnel links over the master" "no vxlan in this kernel"
	unset TB_QUEUES
fi
# IPv4 routed via an IPv6 next hop (RFC 5549), reorder off and on
ip -n $BL addr add 10.8.0.1/32 dev lo
for mode in off on; do
	for ns in $GW $BL; do
		tc -n $ns qdisc change dev stripe0 root stripe reorder $mode
	done
	ip -n $GW route replace 10.8.0.0/24 via inet6 fd09::2 dev stripe0
	check "C: IPv4 via an IPv6 next hop, reorder $mode" \
		wait_for ip netns exec $GW ping -c 1 -W 1 10.8.0.1
done
tb_cleanup

# Delete and unload back to back: links are freed after an RCU grace
# period, which module exit must wait for.
ok=0
for k in $(seq 1 20); do
	ip link add st-u type stripe &&
	ip link add ve-u type veth peer ve-p &&
	tc qdisc add dev ve-u root stripe master st-u &&
	tc qdisc del dev ve-u root &&
	ip link del ve-u && ip link del st-u &&
	rmmod sch_stripe && stripe_load && ok=$((ok + 1))
done
check "C: 20 rounds of delete then rmmod at once ($ok done)" test "$ok" = 20
rm -f "$OUT".*
tap_done
