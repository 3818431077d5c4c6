#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# reorder on, links failing under one TCP stream (gw -> bl, six links):
#  - loss on one link: the stream goes on, gaps close by the link rule;
#  - a link cut both ways mid-stream: the stream survives, both ends leave
#    the link, and take it back once it heals;
#  - a link taken down at the sender: the stream survives, and the
#    receiver's resequencer does not stall on it;
#  - one-way traffic calls no healthy link silent;
#  - every usable link looks cut: the sender still sends.
# Ratios only: each phase is compared with a clean run of the same length.
source "$(dirname "$0")/lib.sh"
require_vm
stripe_load || exit 1
tb_setup 6 9000
for i in 1 2 3 4 5 6; do
	tb_shape "$i" 100mbit "$(( (i - 1) * 100 ))us"	# skew 0..500 us
done
tb_stripe 6
for ns in $GW $BL; do
	tc -n "$ns" qdisc change dev stripe0 root stripe reorder on hold-max 50ms
done
SP=$TOP/tools/stripe-perf
OUT=$TOP/build/failover.$$
mkdir -p "$TOP/build"
trap 'rm -f "$OUT".*; tb_cleanup' EXIT

# stream SECS NAME -- a TCP stream in the background; results in $OUT.NAME
stream() {
	ip netns exec $BL "$SP" -s -1 -i 0 >/dev/null 2>&1 &
	wait_for listening $BL 5301
	ip netns exec $GW "$SP" -c 10.9.0.2 -t "$1" -i 0 -J >"$OUT.$2" 2>&1 &
	STREAM_PID=$!
}
goodput() {	# goodput NAME -- Mbit/s of a finished stream, empty if it failed
	python3 -c "import json; print(int(json.load(open('$OUT.$1'))['end']['sum_received']['bits_per_second'] / 1e6))" 2>/dev/null ||
		sed 's/^/# stripe-perf: /' "$OUT.$1" | head -5 >&2
}
# links_flagged (lib.sh) flags: "silent": left, for its silence here or
# the peer's report; "lost": the peer reports it lost; silent but not lost:
# left for the silence here alone.
silent_links() { links_flagged "$1" silent; }	# silent_links NS

stream 6 clean
wait $STREAM_PID
clean=$(goodput clean)
log "clean: $clean Mbit/s"
check "a clean stream runs (reference)" test "${clean:-0}" -gt 0

# --- 1 % loss on link 3 -----------------------------------------------------
tb_shape 3 100mbit 200us 1%
ll0=$(master_field $BL rx_lost_link) lt0=$(master_field $BL rx_lost_timeout)
stream 6 lossy
wait $STREAM_PID
lossy=$(goodput lossy)
ll=$(( $(master_field $BL rx_lost_link) - ll0 )) lt=$(( $(master_field $BL rx_lost_timeout) - lt0 ))
log "1% loss on link 3: $lossy Mbit/s; gaps closed by the link rule $ll, by timeout $lt"
# TCP halves its window at each of these real losses: it slows, not stops.
check "loss on one link: the stream keeps going (>= 25 % of clean)" \
	at_least "$lossy" "$clean" 25
check "loss on one link: gaps close by the link rule" test "$ll" -gt 0
# (a receiver CPU stalled past the hold bound times a gap out: on the
# debug kernel one of three did)
check_timing "loss on one link: ... not by the hold bound ($lt timeouts <= $ll / 4)" \
	test "$lt" -le $(( ll / 4 ))
tb_shape 3 100mbit 200us

# --- link 4 cut both ways mid-stream, healed later ----------------------------
tx0=$(link_field $GW g4 tx_packets)
stream 10 cut
sleep 2
tb_shape 4 100mbit 300us 100%
sleep 3
silent_gw=$(link_field $GW g4 tx_packets)
sleep 1
silent_gw2=$(link_field $GW g4 tx_packets)
tb_shape 4 100mbit 300us
wait $STREAM_PID
cut=$(goodput cut)
sleep 1
stream 3 healed
wait $STREAM_PID
healed_tx=$(( $(link_field $GW g4 tx_packets) - silent_gw2 ))
log "link 4 cut at 2 s, healed at 6 s: $cut Mbit/s over 10 s;" \
    "gw sent on g4 $((silent_gw - tx0)) before/while cut, $((silent_gw2 - silent_gw)) in the last second cut," \
    "$healed_tx after healing; markers sent by gw $(link_field $GW g4 tx_markers)"
check "cut link: the connection survives (stream ended with goodput)" \
	test "${cut:-0}" -gt 0
check "cut link: the sender leaves it (under 100 frames in a second while cut)" \
	test $(( silent_gw2 - silent_gw )) -lt 100
check "cut link: the sender takes it back once healed" test "$healed_tx" -gt 0
# (the peer's reports bring it back after 50 ms of it delivering, longer if
# it was lost again soon after a return: at debug-kernel speed, later)
check_timing "cut link: ... at once (over 100 frames in the 3 s after: $healed_tx)" \
	test "$healed_tx" -gt 100
# (a rate: on the debug kernel the CPU sets it, and recovery is slower)
check_timing "cut link: 4 s of 10 on five links keep most of the rate (>= 70 % of clean)" \
	at_least "$cut" "$clean" 70

# --- link 5 down at the sender mid-stream -------------------------------------
lt0=$(master_field $BL rx_lost_timeout)
stream 6 down
sleep 2
ip -n $GW link set g5 down
wait $STREAM_PID
down=$(goodput down)
lt=$(( $(master_field $BL rx_lost_timeout) - lt0 ))
log "g5 down at 2 s: $down Mbit/s; gaps closed by timeout $lt"
check "link down at the sender: the stream survives (ended with goodput: ${down:-none} Mbit/s)" \
	test "${down:-0}" -gt 0
# (a rate, as the cut link's above: on the debug kernel the CPU sets it --
# 11 of a clean 24 Mbit/s there once)
check_timing "link down at the sender: ... and keeps >= 50 % of clean ($down of $clean Mbit/s)" \
	at_least "$down" "$clean" 50
check "link down at the sender: at most a few gaps wait for the hold bound" \
	test "$lt" -le 20
ip -n $GW link set g5 up

# --- no false failover: one-way UDP, the peer sending only now and then ---
# (Regression: the link that carried the peer's last frame of a burst was
# called silent 50 ms after it, markers having come 1 ms later on the
# others; the sender then left a healthy link.)  Weight 4 keeps the peer's
# few frames on one link.
for i in 1 2 3 4 5 6; do
	tc -n $GW qdisc change dev "g$i" root stripe weight 4
	tc -n $BL qdisc change dev "b$i" root stripe weight 4
done
for i in 1 2 3 4 5 6; do tb_shape "$i" 100mbit; done
ip netns exec $BL "$SP" -s -1 -i 0 >/dev/null 2>&1 &
wait_for listening $BL 5301
ip netns exec $GW "$SP" -c 10.9.0.2 -u -b 450M -l 8000 -t 4 -i 0 -J >"$OUT.udp" 2>&1
wait
udp=$(python3 -c "import json; d=json.load(open('$OUT.udp')); print(d['summary']['udp']['received'], d['end']['sum']['lost_packets'])" 2>/dev/null)
silent=$(silent_links $GW)
log "one-way UDP at 75 % of the links: received, lost = $udp; links gw calls silent: ${silent:-none}"
set -- $udp
check "one-way traffic: no healthy link is called silent" test -z "$silent"
check_timing "one-way traffic: nothing lost (< 0.5 %)" \
	test "${1:-0}" -gt 0 -a $(( ${2:-1} * 200 )) -lt "${1:-0}"

# --- cut one way: the side that is not heard keeps sending ---
# bl -> gw drops on links 1-5 while gw -> bl works.  bl's reports say that
# gw's links deliver, so gw does not leave them for the silence it sees
# (before the reports counted, it did, and striped over one link of six);
# gw's reports say that bl's do not, so bl leaves them.
lost_links() { links_flagged "$1" lost; }	# lost_links NS
for i in 1 2 3 4 5; do	# bl -> gw only: sw's port towards gw drops
	tc -n $SW qdisc replace dev "sg$i" root netem loss 100%
done
# Large pings: the peer stripes them over all six links, gw answers those
# it gets, and so judges the links while bl is active.
ip netns exec $BL ping -c 60 -i 0.02 -s 8000 -W 1 10.9.0.1 >/dev/null
silent=$(links_flagged $GW silent lost) lost=$(lost_links $BL)
log "bl -> gw cut on links 1-5: links gw calls silent: ${silent:-none}; bl's links reported lost: ${lost:-none};" \
    "gw's links bl reports lost: $(lost_links $GW | sed 's/^$/none/')"
# (Its own silence: a link that bl reports lost, rightly or not, gw leaves
# for that report, which linkhealth asserts.  On the 2-vCPU guest bl has
# reported two or three of gw's links lost at once, for about 100 ms,
# while the pings ran here: 2 runs of 9, likely a vCPU the host held off,
# which stalls the links whose netem timers it runs -- issue 12.)
check "cut one way: gw keeps the links bl reports delivering (none silent here)" \
	test -z "$silent"
check "cut one way: bl leaves the links gw reports lost" \
	test "$lost" = "b1 b2 b3 b4 b5"

# --- every usable link looks cut: the sender still sends ---
# (Regression: a master whose usable links were all marked silent held
# back for good, since only the peer's frames clear the mark and a peer
# with nothing to answer stays quiet.)  Links 1-5 cut both ways: gw hears
# bl only on link 6 for a while, and calls links 1-5 silent; then link 6
# leaves gw's master, the cuts heal and bl falls quiet.
for i in 1 2 3 4 5; do
	tc -n $SW qdisc replace dev "sb$i" root netem loss 100%
done
ip netns exec $BL ping -c 60 -i 0.02 -s 8000 -W 1 10.9.0.1 >/dev/null
silent=$(silent_links $GW)
log "cut both ways on links 1-5: links gw calls silent: ${silent:-none}"
check "all cut but one: the receiver's side calls the cut links silent" \
	test "$silent" = "g1 g2 g3 g4 g5"
tc -n $GW qdisc del dev g6 root
for i in 1 2 3 4 5; do tb_shape "$i" 100mbit; done
sleep 1
# The peer answers once it takes its links back too (gw reported them lost
# while cut, and its link 6 left gw's master): pings until then, ~10 s at
# most; a sender that held back for good never hears back.
check "every link looks cut: the sender still sends, and hears back" \
	wait_for ip netns exec $GW ping -c 1 -W 1 10.9.0.2
# Back once heard again (and, for a link the peer reported lost, once its
# reports say it delivers for 50 ms): ping on until then, at most ~10 s.
back() {
	ip netns exec $GW ping -c 1 -W 1 10.9.0.2 >/dev/null
	[ -z "$(silent_links $GW)" ]
}
wait_for back
silent=$(silent_links $GW)
check "every link looked cut: once heard again, none is silent (${silent:-none})" \
	test -z "$silent"
tap_done
