#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A link joining takes the id of a link that left: it must not inherit
# what the receiver knew of the old link (newest frame, delay, skew).
source "$(dirname "$0")/lib.sh"
require_vm

stripe_load || exit 1
tb_setup 3
tb_shape 1 100mbit 3ms
tb_shape 2 100mbit
tb_shape 3 100mbit
tb_stripe 2
for ns in $GW $BL; do
	tc -n $ns qdisc change dev stripe0 root stripe reorder on
done
ip netns exec $GW ping -q -c 100 -i 0.01 -W 1 10.9.0.2 >/dev/null
skew=$(link_stat $BL b1 rx_skew_us)
log "b1 (link id 0) skew as measured by bl: $skew us"
check "the receiver measured b1's skew" test "${skew:-0}" -ge 2000
check "b1 leaves" tc -n $BL qdisc del dev b1 root
check "b3 joins, with b1's id" tc -n $BL qdisc add dev b3 root stripe master stripe0
skew=$(link_stat $BL b3 rx_skew_us)
log "b3 skew right after joining, before any frame on it: ${skew:-none} us"
check "b3 has no skew of its own yet" test "${skew:-0}" = 0
# gw swaps its links the same way: link 3 replaces link 1 on both ends.
tc -n $GW qdisc del dev g1 root
tc -n $GW qdisc add dev g3 root stripe master stripe0
check "traffic flows over the new link" \
	ip netns exec $GW ping -c 20 -i 0.05 -W 2 10.9.0.2
# As for b1: a hundred pings 10 ms apart, so that b3 carries a few of
# them.  (On the debug kernel the 20 above put one frame on it, the first,
# which waited for g3's neighbour entry: 4 to 16 ms of "skew".)
ip netns exec $GW ping -q -c 100 -i 0.01 -W 1 10.9.0.2 >/dev/null
skew=$(link_stat $BL b3 rx_skew_us)
log "b3 skew once it carried frames: ${skew:-none} us (gw sent $(link_stat $GW g3 tx_packets) frames on g3)"
check "b3's skew is its own (no added delay: under 1 ms)" \
	test "${skew:-0}" -lt 1000
tap_done
