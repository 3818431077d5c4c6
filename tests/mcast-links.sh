#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# IPv6 over links that filter multicast (macvlan filters like most NICs):
# the peer's neighbour solicitation for a master address goes to that
# address's solicited-node group, which the link must receive although the
# group belongs to the master.
source "$(dirname "$0")/lib.sh"
require_vm

A=mca-$$
B=mcb-$$
trap 'ip netns del $A 2>/dev/null; ip netns del $B 2>/dev/null; ip link del br-$$ 2>/dev/null' EXIT
stripe_load || exit 1
# A kernel without macvlan (built in or as a module) cannot run this test.
if ! ip link add mvprobe-$$ type veth peer mvprobe2-$$ ||
   ! ip link add mvprobe3-$$ link mvprobe-$$ type macvlan 2>/dev/null; then
	ip link del mvprobe-$$ 2>/dev/null
	echo "# macvlan unavailable"
	exit $KSFT_SKIP
fi
ip link del mvprobe-$$
for ns in $A $B; do
	ip netns add $ns
	ip -n $ns link set lo up
	ip netns exec $ns sysctl -qw net.ipv6.conf.all.accept_dad=0 \
		net.ipv6.conf.default.accept_dad=0
done
# Each macvlan is made beside its lower device, then both move.
for side in a b; do
	ns=$A
	[ $side = b ] && ns=$B
	ip link add "v$side-$$" type veth peer "p$side-$$"
	# (not "ma": ip reads a name that prefixes "master" as the keyword)
	ip link add "mvl$side-$$" link "v$side-$$" type macvlan mode bridge
	ip link set "v$side-$$" netns $ns name "v$side"
	ip link set "mvl$side-$$" netns $ns name "mvl$side"
	ip -n $ns link set "v$side" up
	ip -n $ns link set "mvl$side" up
done
# The veth peers meet in a third place: the root namespace's bridge.
ip link add br-$$ type bridge mcast_snooping 0
for p in pa pb; do
	ip link set "$p-$$" master br-$$ up
done
ip link set br-$$ up
stripe_master $A stripe0 10.8.0.1/24 fd08::1/64 mvla
stripe_master $B stripe0 10.8.0.2/24 fd08::2/64 mvlb
# Two addresses: macvlan's filter is a 256-bit hash, so one group could
# pass by a collision with one of the link's own.
ip -n $B addr add fd08::3/64 dev stripe0 nodad

check "IPv4 over macvlan links (ARP is broadcast: no filter stops it)" \
	ip netns exec $A ping -c 1 -W 2 10.8.0.2
check "IPv6 resolves a master address over links that filter multicast" \
	ip netns exec $A ping -6 -c 1 -W 3 fd08::2
check "... and a second one" ip netns exec $A ping -6 -c 1 -W 3 fd08::3
check "... and the other way" ip netns exec $B ping -6 -c 1 -W 3 fd08::1
log "$(ip -n $A -6 neigh show dev mvla)"
# ip shows only the user's allmulti; sysfs shows the device's flags.
allmulti() {	# allmulti NS DEV -- IFF_ALLMULTI is set (status 2: no device)
	local flags
	flags=$(ip netns exec "$1" cat "/sys/class/net/$2/flags") || return 2
	(( flags & 0x200 ))
}
# no_allmulti NS DEV -- DEV exists and IFF_ALLMULTI is clear
no_allmulti() {
	allmulti "$@"
	[ $? -eq 1 ]
}
check "a link receives all multicast while it is a link" allmulti $B mvlb
tc -n $B qdisc del dev mvlb root
check "... and no longer once it left" no_allmulti $B mvlb
check "... nor its lower device" no_allmulti $B vb
tap_done
