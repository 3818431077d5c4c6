#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# One UDP flow near the links' rate with the options a person types
# (reorder on, nothing else): what backup, replication and video streams
# do for hours.  Traffic flows one way: the only frames back are stripe's
# own reports, and every link's queue is close to full, so now and then
# one overflows.  Issue 27: the sender took each link that lost frames off
# its full queue for a lossy link, gave its share to the others, whose
# queues then overflowed in turn; one flow at 95 % of six links fell to
# one link and 0 Mbit/s for seconds (kernel/share.c, stripe_share_room).
#
# Six links, delays 0..500 us, MTU 9000, netem's own queue of 1000 frames
# (a queue that overflows, as a real link's does, rather than grow for
# seconds), iperf3 -u at 95 % of the links' rate for 10 s, its datagrams
# of the size it picks (one per frame).  The links run at 20 Mbit/s: under
# TCG iperf3 cannot offer 570 Mbit/s of datagrams (it reached 230-460),
# and at 40 the guest's CPU, not the links, drops frames.  Its sockets get
# 8 MB buffers (-w): the receiving iperf3 is not what is measured.
#  1. reorder off, then on: every second's goodput (95 % of the offer)
#     and the loss against reorder off's; the sender keeps every link at
#     half its share or more, and the links' queues overflow no more than
#     with reorder off.
#  2. reorder on, a flow each way.
#  3. teql on the same links, for the record (it keeps no order: no check).
# (Datagrams sized for the links, -l 8972, are two IP fragments each
# through a master with reorder on, whose MTU is 24 bytes less: a few
# hundred lost frames then fill IP reassembly with halves, and every
# datagram is refused for seconds -- with reorder off too when the
# datagrams fragment.  Documentation/design.rst, "MTU".)
source "$(dirname "$0")/lib.sh"
require_vm
stripe_load || exit 1
OUT=$TOP/build/udp-rate.$$
mkdir -p "$TOP/build"
trap 'rm -f "$OUT".*; tb_cleanup' EXIT
LINK=20			# Mbit/s of each link
OFFER=$((LINK * 6 * 95 / 100))	# Mbit/s: 95 % of the links' rate
export TB_LIMIT=1000
sysctl -qw net.core.rmem_max=33554432 net.core.wmem_max=33554432

# links -- a new testbed: six links, delays 0..500 us
links() {
	local i
	tb_cleanup
	tb_setup 6 9000
	for i in 1 2 3 4 5 6; do
		tb_shape "$i" ${LINK}mbit "$(( (i - 1) * 100 ))us"
	done
}

# bundle REORDER -- the links under stripe0 at both ends, reorder REORDER
bundle() {
	links
	tb_stripe 6 &&
	tc -n $GW qdisc change dev stripe0 root stripe reorder "$1" &&
	tc -n $BL qdisc change dev stripe0 root stripe reorder "$1" &&
	wait_for ip netns exec $GW ping -c 1 -W 1 10.9.0.2
}

# teql_bundle -- the links under teql0 at gw, teql1 at bl
teql_bundle() {
	local i
	links
	modprobe sch_teql max_equalizers=2 &&
	ip link set teql0 netns $GW && ip link set teql1 netns $BL || return 1
	for i in 1 2 3 4 5 6; do
		tc -n $GW qdisc add dev "g$i" root teql0 &&
		tc -n $BL qdisc add dev "b$i" root teql1 || return 1
	done
	ip -n $GW addr add 10.11.0.1/24 dev teql0 &&
	ip -n $BL addr add 10.11.0.2/24 dev teql1 &&
	ip -n $GW link set teql0 mtu 9000 up &&
	ip -n $BL link set teql1 mtu 9000 up &&
	wait_for ip netns exec $GW ping -c 1 -W 1 10.11.0.2
}

# flow NAME FROM TO ADDR PORT -- iperf3 -u for 10 s in the background,
# with the receiver's report in its JSON, in $OUT.NAME
flow() {
	local name=$1 from=$2 to=$3 addr=$4 port=$5
	ip netns exec "$to" iperf3 -s -1 -J -p "$port" >/dev/null 2>&1 &
	wait_for ip netns exec "$to" ss -Hlun "sport = :$port"
	ip netns exec "$from" iperf3 -c "$addr" -p "$port" -u -b ${OFFER}M \
		-w 8M -t 10 -J --get-server-output \
		>"$OUT.$name" 2>/dev/null &
}

# seconds NAME -- "R1 ... R10 loss L": the receiver's Mbit/s each second
seconds() {
	python3 - "$OUT.$1" <<'PY'
import json, sys
try:
    srv = json.load(open(sys.argv[1]))["server_output_json"]
except (ValueError, KeyError):
    print("none")
    sys.exit()
rates = [int(i["sum"]["bits_per_second"] / 1e6) for i in srv["intervals"]]
print(" ".join(map(str, rates[:10])), "loss %.2f" % srv["end"]["sum"]["lost_percent"])
PY
}
slowest() {	# slowest SECONDS -- the slowest second's Mbit/s (0: none)
	echo "$1" | awk '$1 == "none" {print 0; exit}
		{m = $1; for (i = 2; i <= NF - 2; i++) if ($i < m) m = $i; print m}'
}
median() {	# median SECONDS -- the median second's Mbit/s
	echo "$1" | awk '{for (i = 1; i <= NF - 2; i++) print $i}' | sort -n |
		awk '{v[NR] = $1} END {print NR ? v[int((NR + 1) / 2)] : 0}'
}
loss() { echo "$1" | awk '{print $1 == "none" ? 100 : $NF}'; }

# netem's drops on the data direction's ports (towards bl)
overflows() {
	tc -n $SW -s -j qdisc show | python3 -c '
import json, sys
print(sum(q.get("drops", 0) for q in json.load(sys.stdin)
          if q.get("kind") == "netem" and q.get("dev", "").startswith("sb")))'
}

# least_pace -- gw's links' paces each second for the 10 s the flow runs,
# their least (in 1/1024) into $OUT.pace.  One tc reads them all, and the
# loop starts no other process (read -t waits): under TCG every process
# the guest starts stalls the flows' sockets for tens of ms, with reorder
# off as much as on -- a sampler of five processes a second put one to
# three seconds of each run at 86-110 Mbit/s, and without it every second
# of six runs delivered 113-115 (2026-12-07, issue 27).
least_pace() {
	local i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		echo "qdisc show dev stripe0"
		read -rt 1 <>"$OUT.idle" || :
	done | tc -n $GW -s -j -batch - >"$OUT.paces"
	grep -o '"pace":[0-9]*' "$OUT.paces" | cut -d: -f2 | sort -n |
		head -1 >"$OUT.pace"
}
mkfifo "$OUT.idle"

# drop_counters -- where datagrams can be lost, one "name=count" each:
# netem's queues each way, each master's links' queues and resequencer
# limit, each end's UDP receive buffer
drop_counters() {
	local ns
	tc -n $SW -s -j qdisc show | python3 -c '
import json, sys
q = [q for q in json.load(sys.stdin) if q.get("kind") == "netem"]
for d, p in (("bl", "sb"), ("gw", "sg")):
    print("netem_to_%s=%d" % (d, sum(x.get("drops", 0) for x in q
                                     if x.get("dev", "").startswith(p))))'
	for ns in $GW $BL; do
		tc -n "$ns" -s -j qdisc show dev stripe0 | python3 -c '
import json, sys
m = json.load(sys.stdin)[0]["master"]
for k in ("tx_drops", "rx_lost_limit"):
    print("%s_%s=%d" % (sys.argv[1], k, m.get(k, 0)))' "${ns%%-*}"
		ip netns exec "$ns" nstat -asz UdpRcvbufErrors |
			awk -v n="${ns%%-*}" '$1 == "UdpRcvbufErrors" {print n "_udp_rcvbuf=" $2}'
	done | tr '\n' ' '
}
# drops_since BEFORE -- the counters that moved since BEFORE
drops_since() {
	python3 - "$1" "$(drop_counters)" <<'PY'
import sys
a = dict(x.split("=") for x in sys.argv[1].split())
b = dict(x.split("=") for x in sys.argv[2].split())
d = ["%s %d" % (k, int(v) - int(a.get(k, 0))) for k, v in b.items()
     if int(v) != int(a.get(k, 0))]
print(", ".join(d) or "none")
PY
}

# --- 1. one flow: reorder off, then on ---
bundle off || { tap_fail "udp-rate: the bundle comes up (reorder off)"; tap_done; exit; }
flow off $GW $BL 10.9.0.2 5201
wait
off=$(seconds off) off_drops=$(overflows)
log "reorder off, one flow at $OFFER Mbit/s: $off (Mbit/s each second); netem dropped $off_drops"

bundle on || { tap_fail "udp-rate: the bundle comes up (reorder on)"; tap_done; exit; }
flow on $GW $BL 10.9.0.2 5201
least_pace &
wait
on=$(seconds on) on_drops=$(overflows) least_raw=$(cat "$OUT.pace")
least=$(( ${least_raw:-0} * 100 / 1024 ))
log "reorder on, the same: $on; netem dropped $on_drops; least pace $least %"
tc -n $GW -s qdisc show dev stripe0 | grep -A1 '^ *g[1-6]' | sed 's/^/#   gw: /'
check "udp-rate: reorder on, one flow at 95 %: every second delivered (slowest $(slowest "$on") Mbit/s)" \
	test "$(slowest "$on")" -gt 0
# Issue 27's bar: every second 95 % of what is offered (reorder off:
# 112-114 of 114)
check_timing "udp-rate: ... the slowest second >= 95 % of the offer ($(slowest "$on") of $OFFER Mbit/s; reorder off's $(slowest "$off"))" \
	test $(( $(slowest "$on") * 100 )) -ge $(( OFFER * 95 ))
check "udp-rate: ... loss $(loss "$on") % <= reorder off's $(loss "$off") % + 1" \
	python3 -c "import sys; sys.exit(not $(loss "$on") <= $(loss "$off") + 1)"
# Both are timing checks: how far the queueing rule cuts a link depends on
# the receiver's CPU (on the debug kernel it, not the links, queues the
# frames, unevenly), and on a busy host a link is still taken for lossy
# now and then with nothing lost (CI, 2026-12-06: every second delivered,
# 83-119 Mbit/s): the receiver reports frames late on their own link as
# lost (issue 12, open).  Every second delivered (above) is issue 27's
# collapse.
check_timing "udp-rate: ... no link is taken for lossy (least pace ${least_raw:-none}/1024)" \
	test "${least_raw:-0}" -gt 1
check_timing "udp-rate: ... the sender keeps every link at half its share or more (least $least %)" \
	test "$least" -ge 50
check "udp-rate: ... its links' queues overflow no more than with reorder off ($on_drops frames, off $off_drops, + 1 %)" \
	test "$on_drops" -le $(( off_drops + OFFER * 10 * 1000 / 8 / 9000 / 100 ))

# --- 2. a flow each way ---
before=$(drop_counters)
flow fwd $GW $BL 10.9.0.2 5201
flow rev $BL $GW 10.9.0.1 5202
wait
fwd=$(seconds fwd) rev=$(seconds rev)
log "reorder on, a flow each way: gw->bl $fwd; bl->gw $rev; dropped: $(drops_since "$before")"
check "udp-rate: a flow each way: every second delivered both ways (slowest $(slowest "$fwd"), $(slowest "$rev") Mbit/s)" \
	test "$(slowest "$fwd")" -gt 0 -a "$(slowest "$rev")" -gt 0
# Timing checks, with the margin of a guest whose two CPUs carry both
# flows at the edge of what they take: on an idle host one second of 64
# Mbit/s and 1.14 % lost one way (distro kernel, 2026-12-06); on the debug
# kernel the CPU, not the links, drops 20 % one way
check_timing "udp-rate: ... the slowest seconds >= 1/2 of reorder off's median one way" \
	test $(( $(slowest "$fwd") * 2 )) -ge "$(median "$off")" -a \
		$(( $(slowest "$rev") * 2 )) -ge "$(median "$off")"
check_timing "udp-rate: ... loss $(loss "$fwd"), $(loss "$rev") % <= reorder off's one way + 2" \
	python3 -c "import sys; sys.exit(not max($(loss "$fwd"), $(loss "$rev")) <= $(loss "$off") + 2)"

# --- 3. teql, the same flow on the same links ---
if teql_bundle; then
	flow teql $GW $BL 10.11.0.2 5201
	wait
	log "teql, one flow at $OFFER Mbit/s: $(seconds teql); netem dropped $(overflows)"
else
	log "teql: not measured (its bundle did not come up)"
fi
tap_done
