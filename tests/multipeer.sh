#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# One gateway master talking to four hosts, each with its own master, over
# the same six links (the report's cluster gateway): next hops are resolved
# per link, so every peer is reached on every link.
source "$(dirname "$0")/lib.sh"
require_vm
stripe_load || exit 1
N=6
HOSTS=4
tb_setup $N
gl=""
for i in $(seq 1 $N); do gl="$gl g$i"; done
# shellcheck disable=SC2086
stripe_master $GW stripe0 10.9.0.1/24 fd09::1/64 $gl
hosts_cleanup() {
	for h in $(seq 1 $HOSTS); do ip netns del "h$h-$$" 2>/dev/null; done
	tb_cleanup
}
trap hosts_cleanup EXIT
for h in $(seq 1 $HOSTS); do
	ns=h$h-$$
	ip netns add "$ns"
	ip -n "$ns" link set lo up
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.accept_dad=0 \
		net.ipv6.conf.default.accept_dad=0
	links=""
	for i in $(seq 1 $N); do
		ip link add "h$i" netns "$ns" type veth peer "sh${h}x$i" netns $SW
		ip -n $SW link set "sh${h}x$i" master "br$i" up
		ip -n "$ns" link set "h$i" up
		links="$links h$i"
	done
	# shellcheck disable=SC2086
	stripe_master "$ns" stripe0 "10.9.0.$((10 + h))/24" "fd09::$((10 + h))/64" $links
done
for h in $(seq 1 $HOSTS); do
	check "gateway reaches host $h (IPv4)" \
		ip netns exec $GW ping -c 3 -i 0.2 -W 2 "10.9.0.$((10 + h))"
	check "gateway reaches host $h (IPv6)" \
		ip netns exec $GW ping -6 -c 3 -i 0.2 -W 2 "fd09::$((10 + h))"
done
for h in $(seq 1 $HOSTS); do
	ip netns exec "h$h-$$" iperf3 -s -1 -D
done
sleep 0.3
for h in $(seq 1 $HOSTS); do
	ip netns exec $GW iperf3 -c "10.9.0.$((10 + h))" -t 2 >/dev/null 2>&1 &
done
wait
for h in $(seq 1 $HOSTS); do
	log "host $h received per link: $(tc -n "h$h-$$" -s -j qdisc show dev stripe0 | python3 -c '
import json,sys; print(" ".join(str(l["rx_bytes"]) for l in json.load(sys.stdin)[0]["links"]))')"
done
# 20 KB a link: a share of the stream, not a stray frame (on the debug
# kernel four parallel 2 s streams may carry only a few hundred KB a host)
check "each host received on all six links" \
	bash -c "for h in \$(seq 1 $HOSTS); do
		n=\$(tc -n h\$h-$$ -s -j qdisc show dev stripe0 | python3 -c '
import json,sys; q=json.load(sys.stdin)[0]
print(sum(1 for l in q[\"links\"] if l[\"rx_bytes\"] > 20000))')
		[ \"\$n\" = 6 ] || exit 1
	done"
check "the gateway resolved every host on every link" \
	bash -c "[ \$(ip -n $GW neigh show | grep -c 'lladdr') -ge $((N * HOSTS)) ]"
tap_done
