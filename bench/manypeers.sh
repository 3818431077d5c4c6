#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A gateway and 16 hosts, each its own master, over the same six links (one
# bridge per link), every host taking a TCP stream from the gateway at
# once: issue 11's cluster.  Each link's 100 Mbit is a trunk inside sw
# between the gateway's side of the bridge and the hosts', so the hosts
# share it.  With reorder on, the streams together must get what they get
# with reorder off in the same run (the ceiling here), share it fairly
# (Jain's index), and no host may give up on a gap: the trunks lose
# nothing, so a gap given up would be one that another host's frames made.
#
# Not in the suite: its checks fail today.  2026-12-08, one boot each:
# reorder off 497 Mbit/s in all (Jain 0.965), reorder on 550 but one host
# took 543 of it and fifteen starved (Jain 0.064); the gateway, which gets
# the sixteen ACK streams, had learnt a 108 ms hold bound (hold-auto, one
# bound for all its peers) and held frames up to 648 ms.  Run it with
#   scripts/vm-run --timeout 900 -- bash tests/run-netns bench/manypeers.sh
source "$(dirname "$0")/../tests/lib.sh"
require_vm
stripe_load || exit 1
N=6
HOSTS=16
MTU=9000
SECS=5
hosts_cleanup() {
	local h
	for h in $(seq 1 $HOSTS); do
		ip netns pids "h$h-$$" 2>/dev/null | xargs -r kill 2>/dev/null
		ip netns del "h$h-$$" 2>/dev/null
	done
	tb_cleanup
}
trap hosts_cleanup EXIT
for ns in $GW $SW; do
	ip netns add "$ns"
	ip -n "$ns" link set lo up
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.accept_dad=0 \
		net.ipv6.conf.default.accept_dad=0
done
ip netns exec $GW sysctl -qw net.ipv4.conf.all.rp_filter=0
gl=""
for i in $(seq 1 $N); do
	ip -n $SW link add "brg$i" mtu $MTU type bridge
	ip -n $SW link add "brh$i" mtu $MTU type bridge
	ip -n $SW link add "tg$i" mtu $MTU type veth peer "th$i" mtu $MTU
	ip -n $SW link set "tg$i" master "brg$i" up
	ip -n $SW link set "th$i" master "brh$i" up
	# the trunk: 100 Mbit each way, a queue no stream fills
	for d in "tg$i" "th$i"; do
		tc -n $SW qdisc replace dev "$d" root netem rate 100mbit limit 20000
	done
	ip link add "g$i" netns $GW mtu $MTU type veth peer "sg$i" netns $SW mtu $MTU
	ip -n $SW link set "sg$i" master "brg$i" up
	ip -n $SW link set "brg$i" up
	ip -n $SW link set "brh$i" up
	ip -n $GW link set "g$i" up
	gl="$gl g$i"
done
# shellcheck disable=SC2086
stripe_master $GW stripe0 10.9.0.1/24 fd09::1/64 $gl
for h in $(seq 1 $HOSTS); do
	tb_host "$h" $N brh $MTU
done
# NAPI (GRO) on every veth, as tb_offloads does for the suite: without it
# a veth is not FIFO (each sending CPU's backlog), and the hosts counted
# some 2300 frames each out of their link's order
for ns in $GW $SW $(for h in $(seq 1 $HOSTS); do echo "h$h-$$"; done); do
	for d in $(ip -n "$ns" -j link show type veth | jq -r '.[].ifname'); do
		ip netns exec "$ns" ethtool -K "$d" gro on tso off >/dev/null
	done
done
check "the gateway reaches all $HOSTS hosts" \
	bash -c "for h in \$(seq 1 $HOSTS); do
		ip netns exec $GW ping -c 2 -i 0.2 -W 2 10.9.0.\$((10 + h)) >/dev/null || exit 1
	done"

# master_sum KEY -- KEY of every host's master, one line, host 1 first
master_all() {
	local h
	for h in $(seq 1 $HOSTS); do
		tc -n "h$h-$$" -s -j qdisc show dev stripe0 | python3 -c '
import json, sys
m = json.load(sys.stdin)[0]["master"]
print(sum(m.get(k, 0) for k in sys.argv[1:]))' "$@"
	done | tr '\n' ' '
}
# streams MODE -- every host a stream from the gateway at once, reorder
# MODE on every master; prints each host's Mbit/s received
streams() {
	local h out=$TOP/build/manypeers.$$
	for ns in $GW $(for h in $(seq 1 $HOSTS); do echo "h$h-$$"; done); do
		tc -n "$ns" qdisc change dev stripe0 root stripe reorder "$1"
	done
	for h in $(seq 1 $HOSTS); do
		ip netns exec "h$h-$$" iperf3 -s -1 -D
	done
	for h in $(seq 1 $HOSTS); do
		wait_for listening "h$h-$$" 5201
	done
	for h in $(seq 1 $HOSTS); do
		ip netns exec $GW iperf3 -c "10.9.0.$((10 + h))" -t $SECS -J \
			>"$out.$h" 2>/dev/null &
	done
	wait
	for h in $(seq 1 $HOSTS); do
		python3 -c "import json,sys
try: print(int(json.load(open(sys.argv[1]))['end']['sum_received']['bits_per_second'] / 1e6))
except Exception: print(0)" "$out.$h"
		rm -f "$out.$h"
	done | tr '\n' ' '
}
sum() { echo "$@" | tr ' ' '\n' | awk '{s += $1} END {print s + 0}'; }
jain() { echo "$@" | tr ' ' '\n' | awk 'NF {s += $1; q += $1 * $1; n++}
	END {printf "%.3f\n", q ? s * s / (n * q) : 0}'; }

off=$(streams off)
gaps0=$(master_all rx_lost_link rx_lost_timeout rx_lost_limit)
on=$(streams on)
gaps1=$(master_all rx_lost_link rx_lost_timeout rx_lost_limit)
gaps=$(python3 -c 'import sys; a, b = sys.argv[1].split(), sys.argv[2].split()
print(" ".join(str(int(y) - int(x)) for x, y in zip(a, b)))' "$gaps0" "$gaps1")
late=$(master_all rx_late)
log "reorder off, Mbit/s per host: $off (sum $(sum $off), Jain $(jain $off))"
log "reorder on,  Mbit/s per host: $on (sum $(sum $on), Jain $(jain $on))"
log "reorder on, gaps each host gave up on: $gaps; late frames: $late"
log "the gateway: $(tc -n $GW -s qdisc show dev stripe0 | sed -n 4p | tr -s ' ')"
check "reorder on: every host's stream got through" \
	bash -c "for x in $on; do [ \"\$x\" -gt 0 ] || exit 1; done"
check_timing "reorder on: the $HOSTS streams get >= 95 % of what they get with reorder off ($(sum $on) vs $(sum $off) Mbit/s)" \
	test $(( $(sum $on) * 100 )) -ge $(( $(sum $off) * 95 ))
check_timing "reorder on: the hosts share fairly (Jain's index $(jain $on) >= 0.95)" \
	python3 -c "import sys; sys.exit(float('$(jain $on)') < 0.95)"
check "reorder on: no host gave up on a gap (the trunks lose nothing): $gaps" \
	test "$(sum $gaps)" = 0
tap_done
