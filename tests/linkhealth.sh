#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Link health from the peer's feedback (kernel/feedback.c), defaults
# (only "reorder on" typed), veth offloads as they come, six 100 Mbit
# links, MTU 9000:
#  - a link black-holed (carrier up) in the data direction, then the ACK
#    direction, then both, under one TCP stream with verified payload: the
#    stream completes intact, the side whose frames are lost leaves the
#    link, within 50 ms of its last delivery, and the goodput from a
#    second after the hole on is >= 5/6 of the clean run's;
#  - the same under one UDP flow (one-way traffic: only the feedback can
#    tell the sender);
#  - a link flapping every 200 ms: the stream completes; the hysteresis
#    keeps the link out rather than back and forth;
#  - ten black holes in a row: the failover times, median and worst;
#  - FULL=1 only: a link slowed to a quarter mid-stream, no weights typed:
#    the shares follow (adaptive shares), against the same with the
#    weights pinned; a link that loses 1 % of what it carries, no weights
#    typed: it is given the least share, and retransmits less than with
#    the weights pinned.
# Ratios and kernel counters only; times that depend on the emulated CPU
# are checked with check_timing (not on the debug kernel).
source "$(dirname "$0")/lib.sh"
require_vm
stripe_load || exit 1
export TB_OFFLOADS=default
tb_setup 6 9000
for i in 1 2 3 4 5 6; do tb_shape "$i" 100mbit; done
tb_stripe 6
for ns in $GW $BL; do
	tc -n "$ns" qdisc change dev stripe0 root stripe reorder on
done
wait_for ip netns exec $GW ping -c 1 -W 1 10.9.0.2
SP=$TOP/tools/stripe-perf
OUT=$TOP/build/linkhealth.$$
mkdir -p "$TOP/build"
trap 'rm -f "$OUT".*; tb_cleanup' EXIT

# hole I DIR [LOSS] -- netem on link I's port in sw: DIR data (towards
# bl), ack (towards gw) or both; LOSS 100% (default) or 0% to heal
hole() {
	local loss=${3:-100%}
	case $2 in data|both)
		tc -n $SW qdisc change dev "sb$1" root netem rate 100mbit loss "$loss" limit 10000 ;;
	esac
	case $2 in ack|both)
		tc -n $SW qdisc change dev "sg$1" root netem rate 100mbit loss "$loss" limit 10000 ;;
	esac
}
# stream NAME SECS [ARGS] -- stripe-perf gw -> bl in the background
stream() {
	local name=$1 secs=$2
	shift 2
	ip netns exec $BL "$SP" -s -1 -i 0 >/dev/null 2>&1 &
	wait_for listening $BL 5301
	ip netns exec $GW "$SP" -c 10.9.0.2 -t "$secs" -i 0.5 -J "$@" \
		>"$OUT.$name" 2>&1 &
	STREAM_PID=$!
}
# watch NAME -- tc -s -j of gw's stripe0 every 0.2 s, in the background,
# till unwatch; least_pace NAME DEV: the least pace (%) any link but DEV
# had in it, and which
watch() {
	while :; do
		tc -n $GW -s -j qdisc show dev stripe0
		echo
		sleep 0.2
	done >"$OUT.watch-$1" 2>/dev/null &
	WATCH_PID=$!
}
unwatch() {
	kill $WATCH_PID 2>/dev/null
	wait $WATCH_PID 2>/dev/null
}
least_pace() {
	python3 - "$OUT.watch-$1" "$2" <<'PY' 2>/dev/null
import json, sys
least = (100, "none")
for line in open(sys.argv[1]):
    try:
        links = json.loads(line)[0].get("links", [])
    except ValueError:
        continue
    for l in links:
        if l.get("name") != sys.argv[2] and "pace" in l:
            least = min(least, (l["pace"] * 100 // 1024, l["name"]))
print("%d %s" % least)
PY
}
# result NAME KEY -- from a finished stream's -J document: KEY a dotted
# path in it (end.sum_received.bits_per_second, summary.integrity_ok);
# rate FROM: Mbit/s received from second FROM on (its intervals), retr
# FROM: the half-seconds from then on in which the sender retransmitted
result() {
	python3 - "$OUT.$1" "$2" <<'PY' 2>/dev/null
import json, sys
d = json.load(open(sys.argv[1]))
key = sys.argv[2]
s = d["summary"]
def rows(role):
    # a side's interval sums, by its role, with iperf3's keys: this end's
    # are iperf3's intervals[].sum, the peer's are in the summary
    if s["local"]["role"] == role:
        return [i["sum"] for i in d["intervals"]]
    return s["remote"]["intervals"]
def sender_tcp():
    # each interval's cwnd (segments, all streams) and rtt (us, mean)
    if s["local"]["role"] != "sender":
        return [(r.get("cwnd", 0), r.get("rtt_us", 0)) for r in rows("sender")]
    mss = max([st["tcp"]["mss"] for st in s["local"]["streams"] if "tcp" in st] + [1])
    return [(sum(x.get("snd_cwnd", 0) for x in i["streams"]) // mss,
             sum(x.get("rtt", 0) for x in i["streams"]) // max(len(i["streams"]), 1))
            for i in d["intervals"]]
if key.startswith("rate"):
    start = float(key[4:])
    rcv = [r for r in rows("receiver") if r["start"] >= start - 1e-6]
    secs = sum(r["end"] - r["start"] for r in rcv)
    print(int(sum(r["bytes"] for r in rcv) * 8 / secs / 1e6) if secs else 0)
elif key.startswith("least"):
    # the least half-second's Mbit/s received from second FROM on
    start = float(key[5:])
    print(min(int(r["bits_per_second"] / 1e6) for r in rows("receiver")
              if r["start"] >= start - 1e-6))
elif key.startswith("retr"):
    # the half-seconds from second FROM on in which the sender retransmitted
    start = float(key[4:])
    print(sum(1 for r in rows("sender")
              if r["start"] >= start - 1e-6 and r.get("retransmits", 0)))
elif key == "trace":
    # each half second: received Mbit/s, sender's retransmits/cwnd/rtt
    out = []
    for r, t, (cwnd, rtt) in zip(rows("receiver"), rows("sender"), sender_tcp()):
        out.append("%.1f:%d/%d/%d/%d" % (r["start"], r["bits_per_second"] / 1e6,
                   t.get("retransmits", 0), cwnd, rtt))
    print(" ".join(out))
else:
    v = d
    for k in key.split("."):
        v = v[k]
    print(str(v).lower())
PY
}

# --- the clean reference ---
stream clean 4
wait $STREAM_PID
clean=$(result clean end.sum_received.bits_per_second)
clean=$(( ${clean%.*} / 1000000 ))
log "clean: $clean Mbit/s"
check "a clean stream runs (reference)" test "${clean:-0}" -gt 0

# --- one link black-holed, three ways, under TCP ---
# LOSER: the side whose frames link 3 loses, which must leave it
# (a link each: the hysteresis of one does not carry over to the next)
for dir in data ack both; do
	case $dir in
	data) ns=$GW; dev=g3; l=3 ;;
	ack) ns=$BL; dev=b4; l=4 ;;
	both) ns=$GW; dev=g6; l=6 ;;
	esac
	left0=$(link_field $ns $dev left)
	# What "ip monitor link" shows of the link meanwhile: nothing else
	# changes it, so any message is the announcement of it leaving.
	ip -n "$ns" monitor link >"$OUT.mon-$dir" 2>&1 &
	MON_PID=$!
	stream "tcp-$dir" 6
	watch "$dir"
	sleep 1.5
	hole $l $dir
	wait $STREAM_PID
	unwatch
	read -r least least_dev < <(least_pace "$dir" "g$l")
	kill $MON_PID 2>/dev/null
	wait $MON_PID 2>/dev/null
	mon=$(grep -c ": $dev[@:]" "$OUT.mon-$dir")
	left=$(( $(link_field $ns $dev left) - left0 ))
	after=$(link_field $ns $dev left_after_ms)
	flags=$(link_field $ns $dev flags)
	late=$(result "tcp-$dir" rate2.5)
	log "$dir direction black at 1.5 s: $(result "tcp-$dir" end.sum_received.bits_per_second | cut -d. -f1) bit/s," \
	    "from 2.5 s on $late Mbit/s (clean $clean); $dev left $left time(s)," \
	    "${after:-?} ms after its last delivery; flags: $flags"
	log "$dir direction black, per half second from: Mbit/s/retransmits/cwnd/rtt us:" \
	    "$(result "tcp-$dir" trace)"
	check "$dir direction black: the stream completes, every byte intact" \
		test "$(result "tcp-$dir" summary.integrity_ok)" = true
	check "$dir direction black: $dev leaves rotation on the peer's report" \
		bash -c "[ $left -ge 1 ] && [[ ' $flags ' == *' lost '* ]]"
	check "$dir direction black: ip monitor link announces it ($mon messages of $dev)" \
		test "$mon" -ge 1
	# (cut both ways, the sender's own silence rule may leave the link
	# first; the report then comes later and its time says little)
	[ $dir = both ] ||
	check_timing "$dir direction black: out within 50 ms of its last delivery (${after:-?} ms)" \
		test "${after:-999}" -le 50
	check_timing "$dir direction black: a second on, >= 5/6 of clean ($late of $clean Mbit/s)" \
		test $(( ${late:-0} * 6 )) -ge $(( clean * 5 * 95 / 100 ))
	# The other links lose a frame now and then when TCP's window
	# overflows a queue; none of them is lossy for it (share.c).  (On the
	# debug kernel the CPU, not the links, drops frames, on any link.)
	check_timing "$dir direction black: the other links keep their share (least pace ${least:-none} %, $least_dev)" \
		test "${least:-0}" -ge 50
	# Back once it delivers again: the peer reports only while traffic
	# flows, so a short stream follows the healing.
	hole $l $dir 0%
	stream "heal-$dir" 2
	wait $STREAM_PID
	flags=$(link_field $ns $dev flags)
	log "$dir direction healed: $dev flags: $flags; back $(link_field $ns $dev back) time(s)"
	check "$dir direction healed: $dev back in rotation" \
		bash -c "[[ ' $flags ' != *' lost '* ]] && [ $(link_field $ns $dev back) -ge 1 ]"
done

# --- one-way UDP: only the feedback tells the sender ---
left0=$(link_field $GW g2 left)
stream udp 6 -u -b 300M -l 8000
sleep 2
hole 2 data
wait $STREAM_PID
hole 2 data 0%
left=$(( $(link_field $GW g2 left) - left0 ))
after=$(link_field $GW g2 left_after_ms)
recv=$(result udp summary.udp.received)
lost=$(result udp end.sum.lost_packets)
log "UDP, link 2 black at 2 s: received $recv, lost $lost datagrams; g2 left $left time(s), ${after:-?} ms after its last delivery"
check "one-way UDP: the sender leaves the black link" test "$left" -ge 1
check_timing "one-way UDP: out within 50 ms (${after:-?} ms)" test "${after:-999}" -le 50
check_timing "one-way UDP: under 1 % lost ($lost of $recv)" \
	test $(( ${lost:-999999} * 100 )) -lt "${recv:-0}"

# --- a link flapping every 200 ms ---
left0=$(link_field $GW g5 left) back0=$(link_field $GW g5 back)
stream flap 12
sleep 1
# 15 times black for 200 ms, then up for 200 ms (plus what tc itself takes
# under emulation: the period is measured and logged)
t0=$(date +%s%N)
for _ in $(seq 1 15); do
	hole 5 data
	sleep 0.2
	hole 5 data 0%
	sleep 0.2
done
log "15 flaps took $(( ($(date +%s%N) - t0) / 15000000 )) ms each"
wait $STREAM_PID
left=$(( $(link_field $GW g5 left) - left0 ))
back=$(( $(link_field $GW g5 back) - back0 ))
log "link 5 black 15 times for 200 ms: $(result flap end.sum_received.bits_per_second | cut -d. -f1) bit/s; left $left, back $back"
check "flapping link: the stream completes, every byte intact" \
	test "$(result flap summary.integrity_ok)" = true
# Each return that is followed by a loss within 10 s doubles the wait for
# the next (50, 100, 200 ms ...): after three the link's 200 ms up phases
# no longer bring it back, so it leaves at most a few times, not 15.
check "flapping link: left at least once, returned no more often than left" \
	test "$left" -ge 1 -a "$back" -le "$left"
check_timing "flapping link: the hysteresis keeps it out (left $left <= 6 of 15)" \
	test "$left" -le 6

# --- failover times: ten black holes in a row, links 1 to 6 in turn ---
times=""
# (each round takes some 3 s of tc and python under emulation, more on a
# busy host: the stream outlasts them by far and is stopped after)
stream times 300 -u -b 300M -l 8000
sleep 1
for k in $(seq 0 9); do
	i=$(( k % 6 + 1 ))
	kill -0 $STREAM_PID 2>/dev/null || log "the stream ended before hole $((k + 1))"
	left0=$(link_field $GW g$i left)
	hole $i data
	sleep 0.8
	hole $i data 0%
	if [ "$(link_field $GW g$i left)" -gt "$left0" ]; then
		times="$times $(link_field $GW g$i left_after_ms)"
	else
		times="$times none"
		log "g$i did not leave: $(tc -n $GW -s qdisc show dev stripe0 | grep "link g$i ")"
	fi
	sleep 1.2
done
kill $STREAM_PID 2>/dev/null
wait
read -r median worst <<<"$(echo $times | tr ' ' '\n' | grep '^[0-9]' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)], v[NR] }')"
log "failover times (ms after the link's last delivery):$times; median $median, worst $worst"
n=$(echo $times | tr ' ' '\n' | grep -c '^[0-9]')
check "ten black holes: taken out ($n of 10)" test "$n" -ge 1
check_timing "ten black holes: each one taken out within its 0.8 s ($n of 10)" \
	test "$n" = 10
# Lost means quiet for 20 ms, or for twice the link's usual longest gap
# when that is longer, up to 256 ms (kernel/reseq.c): a typical failover
# is the former, none may take longer than the latter and a report.
check_timing "ten black holes: median failover within 50 ms ($median ms)" \
	test "${median:-999}" -le 50
check_timing "ten black holes: worst failover within 256 + 10 ms ($worst ms)" \
	test "${worst:-999}" -le 266
# --- a link slowed to a quarter mid-stream (adaptive shares) ---
# 2 s into a 7 s stream link 3's path drops to 25 Mbit/s both ways: the
# new ceiling is 525 of 600.  From a second after on, no weights typed,
# the stream must keep >= 90 % of the clean run scaled to it; the same
# with every weight typed (shares pinned: adaptation off) for comparison.
# Last: the weights stay typed.
slowed() {	# slowed NAME -- the stream, link 3 slowed 2 s in, healed after
	stream "$1" 7
	sleep 2
	tb_shape 3 25mbit
	wait $STREAM_PID
	tb_shape 3 100mbit
}
# lossy NAME -- a 10 s stream, link 4 losing 1 % towards bl from the start;
# LOSSY_TX: Mbit/s link 4 carried (its tx bytes over the stream).  The
# sender needs loss that stands out of the other links' in 4 of 16 windows
# of 64 frames on the link and on average over about 32 windows, at 6
# window ends in a row (share.c), some 600-2000 frames, which slow start
# and its first losses take 1 to 3.5 s to send (a first 1 % loss halves
# the window while it is small): the stream is judged from 4 s on.
lossy() {
	local tx0 tx1
	tc -n $SW qdisc change dev sb4 root netem rate 100mbit loss 1% limit 10000
	tx0=$(link_field $GW g4 tx_bytes)
	stream "$1" 10
	wait $STREAM_PID
	tx1=$(link_field $GW g4 tx_bytes)
	tb_shape 4 100mbit
	LOSSY_TX=$(( (tx1 - tx0) * 8 / 10 / 1000000 ))
}
if ! full; then
	# Rates of adaptive against pinned shares over a stream each way:
	# make bench PROFILES=slowed measures the same beside MPTCP and teql
	tap_skip "a link slowed to a quarter, a link losing 1 %" \
		"their long form: make check FULL=1 (and make bench PROFILES=slowed)"
	tap_done
	exit
fi
slowed slow-auto
auto=$(result slow-auto rate3)
auto_least=$(result slow-auto least2.5)
pace=$(( $(link_field $GW g3 pace) * 100 / 1024 ))
lossy lossy-auto
lossy_auto=$(result lossy-auto rate4) lossy_tx=$LOSSY_TX
lossy_auto_retr=$(result lossy-auto retr4)
lossy_pace=$(( $(link_field $GW g4 pace) * 100 / 1024 ))
frames_lost=$(link_field $GW g4 frames_lost)
for i in 1 2 3 4 5 6; do
	tc -n $GW qdisc change dev "g$i" root stripe master stripe0 weight 1
done
slowed slow-pinned
pinned=$(result slow-pinned rate3)
lossy lossy-pinned
lossy_pinned=$(result lossy-pinned rate4)
lossy_pinned_retr=$(result lossy-pinned retr4)
want=$(( clean * 525 / 600 * 90 / 100 ))
log "slowed: from 1 s after, ${auto:-none} Mbit/s adaptive (link 3 at pace $pace %), ${pinned:-none} pinned equal; clean $clean, bar $want"
log "slowed: $(result slow-auto trace)"
check_timing "a link slowed to a quarter: from a second after, >= 90 % of the new ceiling (${auto:-none} Mbit/s, bar $want)" \
	test "${auto:-0}" -ge "$want"
# The frames queued on the slowed path arrive late; what the sender puts
# there after the peer reported the queue must not be late beyond the
# hold (share.c drains it), or the stream's retransmits queue there too
# and it stalls on timeouts: 1 to 40 Mbit/s for a second in half the runs.
check_timing "... the stream does not stall: no half-second from 0.5 s after under a third of clean (least ${auto_least:-none} Mbit/s)" \
	test "${auto_least:-0}" -ge $(( clean / 3 ))
check_timing "... well above the same with the weights pinned (${auto:-none} vs ${pinned:-none} Mbit/s)" \
	test "${auto:-0}" -ge $(( ${pinned:-0} * 5 / 4 ))
# The other five links' part of the clean run, plus what link 4 carried
lossy_want=$(( (clean * 5 / 6 + lossy_tx) * 95 / 100 ))
log "lossy: from 4 s on, ${lossy_auto:-none} Mbit/s adaptive (link 4 carried $lossy_tx Mbit/s, pace $lossy_pace %, frames_lost ${frames_lost:-none}, retransmits in ${lossy_auto_retr:-none} half-seconds of 12), ${lossy_pinned:-none} pinned equal (in ${lossy_pinned_retr:-none}); bar $lossy_want"
log "lossy: $(result lossy-auto trace)"
check "a link losing 1 %: the peer's reports count its losses (frames_lost ${frames_lost:-none})" \
	test "${frames_lost:-0}" -gt 0
# (the CPU of the debug kernel drops frames on every link: link 4 does
# not stand out there)
check_timing "... and it is given the least share (pace $lossy_pace %)" \
	test "$lossy_pace" -le 2
check_timing "... the stream keeps >= 95 % of the other links plus what it carries (${lossy_auto:-none} Mbit/s, bar $lossy_want)" \
	test "${lossy_auto:-0}" -ge "$lossy_want"
# What the least share saves is the lost frames: at this RTT TCP keeps
# its rate through 1 % loss on a sixth of its frames (pinned: 450-540
# Mbit/s), but each loss costs a retransmit and halves the window.  Counted
# in half-seconds with a retransmit: a window that overflows a queue now
# and then (34 retransmits in one) is the same with either.
check_timing "... and it retransmits far less often than with the weights pinned (in ${lossy_auto_retr:-none} vs ${lossy_pinned_retr:-none} half-seconds from 4 s)" \
	test $(( ${lossy_auto_retr:-999} * 2 )) -le "${lossy_pinned_retr:-0}"

tap_done
