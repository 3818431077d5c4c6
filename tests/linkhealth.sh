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
#  - ten black holes in a row: the failover times, median and worst.
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

link_field() {	# link_field NS LINK FIELD -- a link's entry in tc -s -j
	tc -n "$1" -s -j qdisc show dev stripe0 | python3 -c '
import json, sys
for l in json.load(sys.stdin)[0].get("links", []):
    if l.get("name") == sys.argv[1]:
        v = l.get(sys.argv[2], 0)
        print(" ".join(v) if isinstance(v, list) else v)' "$2" "$3"
}
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
# result NAME KEY -- from a finished stream's summary; rate FROM: Mbit/s
# received from second FROM on (its intervals)
result() {
	python3 - "$OUT.$1" "$2" <<'PY' 2>/dev/null
import json, sys
d = json.load(open(sys.argv[1]))
key = sys.argv[2]
if key.startswith("rate"):
    start = float(key[4:])
    side = [d[k] for k in ("local", "remote") if d[k].get("role") == "receiver"][0]
    rows = [r for r in side["intervals"] if r["start"] >= start - 1e-6]
    secs = sum(r["end"] - r["start"] for r in rows)
    print(int(sum(r["bytes"] for r in rows) * 8 / secs / 1e6) if secs else 0)
elif key == "trace":
    # each half second: received Mbit/s, sender's retransmits/cwnd/rtt
    rcv = [d[k] for k in ("local", "remote") if d[k].get("role") == "receiver"][0]
    snd = [d[k] for k in ("local", "remote") if d[k].get("role") == "sender"][0]
    out = []
    for r, t in zip(rcv["intervals"], snd["intervals"]):
        out.append("%.1f:%d/%d/%d/%d" % (r["start"], r["bits_per_second"] / 1e6,
                   t.get("retransmits", 0), t.get("cwnd", 0), t.get("rtt_us", 0)))
    print(" ".join(out))
else:
    v = d["summary"]
    for k in key.split("."):
        v = v[k]
    print(str(v).lower())
PY
}

# --- the clean reference ---
stream clean 4
wait $STREAM_PID
clean=$(result clean goodput_bps)
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
	sleep 1.5
	hole $l $dir
	wait $STREAM_PID
	kill $MON_PID 2>/dev/null
	wait $MON_PID 2>/dev/null
	mon=$(grep -c ": $dev[@:]" "$OUT.mon-$dir")
	left=$(( $(link_field $ns $dev left) - left0 ))
	after=$(link_field $ns $dev left_after_ms)
	flags=$(link_field $ns $dev flags)
	late=$(result "tcp-$dir" rate2.5)
	log "$dir direction black at 1.5 s: $(result "tcp-$dir" goodput_bps | cut -d. -f1) bit/s," \
	    "from 2.5 s on $late Mbit/s (clean $clean); $dev left $left time(s)," \
	    "${after:-?} ms after its last delivery; flags: $flags"
	log "$dir direction black, per half second from: Mbit/s/retransmits/cwnd/rtt us:" \
	    "$(result "tcp-$dir" trace)"
	check "$dir direction black: the stream completes, every byte intact" \
		test "$(result "tcp-$dir" integrity_ok)" = true
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
recv=$(result udp udp.received)
lost=$(result udp udp.lost)
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
log "link 5 black 15 times for 200 ms: $(result flap goodput_bps | cut -d. -f1) bit/s; left $left, back $back"
check "flapping link: the stream completes, every byte intact" \
	test "$(result flap integrity_ok)" = true
# Each return that is followed by a loss within 10 s doubles the wait for
# the next (50, 100, 200 ms ...): after three the link's 200 ms up phases
# no longer bring it back, so it leaves at most a few times, not 15.
check "flapping link: left at least once, returned no more often than left" \
	test "$left" -ge 1 -a "$back" -le "$left"
check_timing "flapping link: the hysteresis keeps it out (left $left <= 6 of 15)" \
	test "$left" -le 6

# --- failover times: ten black holes in a row, links 1 to 6 in turn ---
times=""
# (each round takes some 3 s of tc and python under emulation: the stream
# outlasts them and is stopped after)
stream times 60 -u -b 300M -l 8000
sleep 1
for k in $(seq 0 9); do
	i=$(( k % 6 + 1 ))
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
tap_done
