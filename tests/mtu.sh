#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The master's MTU: the user's value survives link events and reorder
# toggles while the links allow it; no link MTU may leave the master below
# IPv6's 1280; deleting a master touches no MTU of a device on its way out.
source "$(dirname "$0")/lib.sh"
require_vm

NS=mtu-$$
trap 'ip netns del $NS 2>/dev/null' EXIT
stripe_load || exit 1
ip netns add $NS
nsx() { ip netns exec $NS "$@"; }

# mtu_is DEV N -- the MTU of DEV in the namespace is N
mtu_is() {
	local got
	got=$(nsx cat "/sys/class/net/$1/mtu")
	[ "$got" = "$2" ] || { echo "$1 has MTU $got, expected $2"; return 1; }
}

for i in 1 2 3; do
	ip -n $NS link add "v${i}a" type veth peer "v${i}b"
	ip -n $NS link set "v${i}a" up
	ip -n $NS link set "v${i}b" up
done
ip -n $NS link add stripe0 type stripe
tc -n $NS qdisc add dev stripe0 root stripe
tc -n $NS qdisc add dev v1a root stripe master stripe0
tc -n $NS qdisc add dev v2a root stripe master stripe0
ip -n $NS link set stripe0 up

check "the master takes its links' MTU" mtu_is stripe0 1500
check "the user lowers the master's MTU" ip -n $NS link set stripe0 mtu 1400
carrier_bounce() {
	ip -n $NS link set v1b down && ip -n $NS link set v1b up &&
		sleep 0.5 && mtu_is stripe0 1400
}
feature_change() {
	nsx ethtool -K v1a gro on >/dev/null
	nsx ethtool -K v1a gro off >/dev/null
	mtu_is stripe0 1400
}
reorder_set() {	# reorder_set on|off MTU
	tc -n $NS qdisc change dev stripe0 root stripe reorder "$1" &&
		mtu_is stripe0 "$2"
}
link_mtu_set() {	# link_mtu_set MTU MASTER_MTU
	ip -n $NS link set v1a mtu "$1" && mtu_is stripe0 "$2"
}
check "... and it stays through a link's carrier going down and up" \
	carrier_bounce
check "... through a link's feature change" feature_change
check "... through reorder on" reorder_set on 1400
check "... and reorder off" reorder_set off 1400
check "a link MTU below the user's bounds the master" link_mtu_set 1350 1350
check "... and the user's MTU comes back with the link's" \
	link_mtu_set 1500 1400
check "a master MTU above the links' is refused" \
	bash -c "! ip -n $NS link set stripe0 mtu 1600 2>/dev/null"

# IPv6 needs 1280 on the master; reorder on costs the links 24 bytes.
check "reorder on" tc -n $NS qdisc change dev stripe0 root stripe reorder on
# The core gives MTU notifiers no extack: the reason is in the kernel log.
check_fails "a link MTU that would leave the master below 1280 is refused" \
	"" ip -n $NS link set v2a mtu 1290
check "... and the kernel log says why" \
	bash -c "dmesg | tail -5 | grep -q 'MTU 1290 of link v2a refused: a link needs 1304'"
check "... and the link keeps its MTU" mtu_is v2a 1500
check "... and the master keeps IPv6's minimum at least" \
	test "$(nsx cat /sys/class/net/stripe0/mtu)" -ge 1280
check "a link MTU of 1304 is taken" ip -n $NS link set v2a mtu 1304
check "... and the master gets 1280" mtu_is stripe0 1280
ip -n $NS link set v3a mtu 1290
check_fails "a 1290 link cannot join a master with reorder on" \
	"1304" tc -n $NS qdisc add dev v3a root stripe master stripe0
check "reorder off" tc -n $NS qdisc change dev stripe0 root stripe reorder off
check "a 1290 link joins a master with reorder off" \
	tc -n $NS qdisc add dev v3a root stripe master stripe0
check_fails "reorder on is refused while a link has MTU 1290" \
	"1304" tc -n $NS qdisc change dev stripe0 root stripe reorder on
check "... and reorder stays off" \
	bash -c "tc -n $NS qdisc show dev stripe0 | grep -q 'reorder off'"

# A master whose links' MTUs differ: as each link leaves during the
# master's deletion, the links' bound rises.  The master must not be given
# an MTU then: its NETDEV_UNREGISTER has run, and the MTU notifiers would
# reach protocols that already let go of it.  A kprobe on dev_set_mtu
# sees every call.
ip -n $NS link add stripe1 type stripe
for i in 4 5; do
	ip -n $NS link add "v${i}a" type veth peer "v${i}b"
done
ip -n $NS link set v5a mtu 9000
tc -n $NS qdisc add dev v4a root stripe master stripe1
tc -n $NS qdisc add dev v5a root stripe master stripe1
ip -n $NS link set stripe1 up
check "a master over links of MTU 1500 and 9000 has 1500" mtu_is stripe1 1500
T=/sys/kernel/tracing
[ -e $T/kprobe_events ] || mount -t tracefs nodev $T 2>/dev/null
PROBE=stripe_mtu_$$
if echo "p:$PROBE dev_set_mtu name=+0(%di):string mtu=%si:s32" \
	>>$T/kprobe_events 2>/dev/null; then
	echo >$T/trace
	echo 1 >$T/events/kprobes/$PROBE/enable
	check "deleting that master" ip -n $NS link del stripe1
	echo 0 >$T/events/kprobes/$PROBE/enable
	calls=$(grep "$PROBE" $T/trace | grep -c 'name="stripe1"')
	grep "$PROBE" $T/trace | sed 's/^/#   /'
	echo "-:$PROBE" >>$T/kprobe_events
	check "no MTU was set on the master while it was deleted" \
		test "$calls" = 0
else
	check "deleting that master" ip -n $NS link del stripe1
	tap_skip "no MTU was set on the master while it was deleted" \
		"no kprobes in this kernel"
fi
check "the links are left with their own MTUs" \
	eval "mtu_is v4a 1500 && mtu_is v5a 9000"
tap_done
