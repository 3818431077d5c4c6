#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A descending-fseq flood (issue 11): a sender, or a host forging its
# frames, sends one flow's frames last first behind a gap that never
# fills, so each is the least the receiver holds.  A resequencer that
# keeps a flow's frames in a sorted list walks every held frame for each
# one: O(n^2) softirq work under the receive lock (measured here before
# the fix, 32768 frames: 134-307 us of softirq a frame, 4-17 times what
# the same frames cost in ascending order, and frames lost while the
# receiver fell behind).  Kept in an rbtree they cost O(log n) each.
#
# tests/inject.py sends N frames of one flow from gw's link 1 to bl, in
# ascending and in descending order, twice each, interleaved; link 2 is
# kept "behind" (heard, never past the gap) so that only hold-max (1 s,
# hold-auto off) ends the gap, and bl's flow-limit and buffer-limit are
# raised past N so that every frame is held.  Checks: every frame that
# arrived is held and goes up in order (none late), none is left held,
# and the softirq time per frame arrived in descending order is at most
# twice that in ascending order (a timing check: the guest's /proc/stat).
# STRIPE_FLOOD_N: frames per flood (32768; 8192 on the debug kernel).
source "$(dirname "$0")/lib.sh"
require_vm

N=32768
debug_kernel && N=8192
N=${STRIPE_FLOOD_N:-$N}

stripe_load || exit 1
tb_setup 2
tb_stripe 2
for ns in $GW $BL; do
	tc -n $ns qdisc change dev stripe0 root stripe reorder on
done
check "bl holds up to $N frames of a flow for 1 s" \
	tc -n $BL qdisc change dev stripe0 root stripe flow-limit $((N * 2)) \
	buffer-limit $((N * 4)) hold-max 1s hold-auto off

mac_of() { ip -n "$1" link show "$2" | awk '/link\/ether/ {print $2}'; }
MAC1=$(mac_of $BL b1)
MAC2=$(mac_of $BL b2)
# cpu_jiffies -- the guest's busy and softirq time, in USER_HZ ticks
cpu_jiffies() { awk '/^cpu /{print $2 + $3 + $4 + $7 + $8 + $9, $8}' /proc/stat; }

held_none() { [ "$(master_field $BL rx_held)" = 0 ]; }

# flood ORDER SENDER -- N frames of one flow in ORDER (asc or desc); adds
# to BUSY_ORDER, SOFT_ORDER (jiffies) and FRAMES_ORDER (frames arrived)
declare -A BUSY SOFT FRAMES
flood() {
	local order=$1 sender=$2 flag="" r0 r1 q0 q1 l0 l1 b0 s0 b1 s1
	[ "$order" = desc ] && flag=--descending
	r0=$(link_stat $BL b1 rx_packets)
	q0=$(master_field $BL rx_resequenced)
	l0=$(master_field $BL rx_late)
	set -- $(cpu_jiffies)
	b0=$1 s0=$2
	ip netns exec $GW python3 "$TOP/tests/inject.py" hold g1 "$MAC1" g2 "$MAC2" \
		--sender "$sender" --flows 1 --per-flow "$N" --size 100 \
		--lead 0.1 --refresh 512 --sndbuf $((1 << 28)) $flag >/dev/null
	set -- $(cpu_jiffies)
	b1=$1 s1=$2
	# the last frames still in the guest's queues, then hold-max
	wait_for held_none
	r1=$(link_stat $BL b1 rx_packets)
	q1=$(master_field $BL rx_resequenced)
	l1=$(master_field $BL rx_late)
	log "$order: $((r1 - r0)) frames arrived of $((N + 1)), $((q1 - q0)) held," \
		"$((l1 - l0)) late; busy $((b1 - b0)), softirq $((s1 - s0)) jiffies"
	BUSY[$order]=$(( ${BUSY[$order]:-0} + b1 - b0 ))
	SOFT[$order]=$(( ${SOFT[$order]:-0} + s1 - s0 ))
	FRAMES[$order]=$(( ${FRAMES[$order]:-0} + r1 - r0 ))
	[ "$order" = desc ] || return 0
	# Descending, each frame is the flow's least: held until hold-max, and
	# then all go up in order (the first frame went up at once)
	# (b1 also counts gw's markers: a frame or two)
	check "desc: every frame that arrived was held ($((q1 - q0)) >= $((r1 - r0)) - 2)" \
		test $((q1 - q0)) -ge $((r1 - r0 - 2))
	check "desc: none went up late ($((l1 - l0)))" test $((l1 - l0)) = 0
}

flood asc 0x5EED0A01
flood desc 0x5EED0D01
flood asc 0x5EED0A02
flood desc 0x5EED0D02
check "nothing is left held" test "$(master_field $BL rx_held)" = 0

per_frame() {	# per_frame JIFFIES FRAMES -- ns a frame (USER_HZ 100)
	[ "${2:-0}" -gt 0 ] && echo $(( $1 * 10000000 / $2 )) || echo 0
}
asc=$(per_frame "${SOFT[asc]}" "${FRAMES[asc]}")
desc=$(per_frame "${SOFT[desc]}" "${FRAMES[desc]}")
log "softirq per frame arrived: ascending $asc ns, descending $desc ns;" \
	"busy: $(per_frame "${BUSY[asc]}" "${FRAMES[asc]}") and" \
	"$(per_frame "${BUSY[desc]}" "${FRAMES[desc]}") ns"
check_timing "the frames arrived (${FRAMES[asc]} and ${FRAMES[desc]}, of $((2 * N)) each)" \
	test $(( ${FRAMES[asc]} + ${FRAMES[desc]} )) -ge $((4 * N * 9 / 10))
check_timing "descending costs at most twice ascending in softirq ($desc <= 2 x $asc ns a frame)" \
	test "$desc" -le $((2 * asc))
tap_done
