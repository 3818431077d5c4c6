# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# Shared helpers of the netns suite: TAP reporting, the module and tc plugin,
# and the standard testbed.  Source it from a test; run tests in the VM
# (scripts/vm-run), never on a host that has other traffic.
#
# The testbed:  gw ==== sw ==== bl  joined by N links.
#   gw: g1..gN   veth to sw          (stripe links of the gateway)
#   sw: sgI, sbI in bridge brI       (one bridge per link, the bottleneck)
#   bl: b1..bN   veth to sw          (stripe links of the far side)
# Each link's bottleneck (netem rate, delay, loss) is on sw's two ports of
# that link, so it applies in both directions.  Namespaces carry the test's
# PID so tests never collide; tb_cleanup removes everything.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KSFT_SKIP=4
TAP_N=0
TAP_FAIL=0

GW=gw-$$
SW=sw-$$
BL=bl-$$

tap_ok() {	# tap_ok DESCRIPTION -- record a pass
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $*"
}

tap_fail() {	# tap_fail DESCRIPTION [DETAIL...]
	TAP_N=$((TAP_N + 1))
	TAP_FAIL=$((TAP_FAIL + 1))
	echo "not ok $TAP_N - $1"
	shift
	[ $# -gt 0 ] && printf '#   %s\n' "$@"
	return 0
}

tap_skip() {	# tap_skip DESCRIPTION REASON
	TAP_N=$((TAP_N + 1))
	echo "ok $TAP_N - $1 # SKIP $2"
}

# check DESCRIPTION CMD... -- pass if CMD succeeds
check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		tap_ok "$desc"
	else
		tap_fail "$desc" "command: $*" "$(echo "$out" | tail -5)"
	fi
}

# check_fails DESCRIPTION MESSAGE CMD... -- pass if CMD fails and its output
# contains MESSAGE (the extack text the user sees)
check_fails() {
	local desc=$1 msg=$2 out
	shift 2
	if out=$("$@" 2>&1); then
		tap_fail "$desc" "command unexpectedly succeeded: $*"
	elif [ -n "$msg" ] && ! grep -qF -- "$msg" <<<"$out"; then
		tap_fail "$desc" "expected message: $msg" "got: $out"
	else
		tap_ok "$desc"
	fi
}

tap_done() {
	echo "# $TAP_N checks, $TAP_FAIL failed"
	[ "$TAP_FAIL" = 0 ]
}

log() { echo "# $*"; }

# --- module and plugin ---

stripe_load() {
	if ! lsmod | grep -q '^sch_stripe '; then
		insmod "${STRIPE_KO:-$TOP/kernel/sch_stripe.ko}" || return 1
	fi
	# tc finds q_stripe.so in its own plugin directory (guest overlay).
	local dir=/usr/lib/x86_64-linux-gnu/tc
	if [ ! -e "$dir/q_stripe.so" ]; then
		mkdir -p "$dir" && cp "$TOP/tc-plugin/q_stripe.so" "$dir/"
	fi
}

# The debug kernel (KASAN, lockdep) is many times slower: rates mean little.
debug_kernel() {
	case "$(uname -r)" in *-stripe-debug*) return 0 ;; esac
	return 1
}

# full -- true under FULL=1 (make check FULL=1): a long test runs its whole
# form; make check runs the quick one, which keeps every kind of check
full() {
	[ "${FULL:-0}" = 1 ]
}

# A host that takes this many percent of the times the suite's tests were
# measured in (STRIPE_HOST_SLOWDOWN, set by scripts/suite-lib from the tests
# already run) runs the guest's timers and datapath so much slower that its
# rates and delays say nothing of the module: seen here, the same host at
# 210-250 % of its morning's times failed 16 timing checks of make check,
# every one of them, and no other check.
TIMING_SLOWDOWN_MAX=150

# check_timing DESCRIPTION CMD... -- a check about speed or delay: skipped
# on the debug kernel, where everything is many times slower, and on a host
# running at under two thirds of its measured speed
check_timing() {
	local failed=$TAP_FAIL slow=${STRIPE_HOST_SLOWDOWN:-100}
	if debug_kernel; then
		tap_skip "$1" "timing means little on the debug kernel"
		return
	fi
	if [ "$slow" -ge "$TIMING_SLOWDOWN_MAX" ]; then
		tap_skip "$1" "this host takes ${slow} % of the measured times: timing means little"
		return
	fi
	check "$@"
	# scripts/run-tests runs a test again whose only failures are these
	[ "$TAP_FAIL" = "$failed" ] || echo "# (a timing check)"
}

# listening NS PORT -- true once a TCP listener is up on PORT in NS
listening() {
	ip netns exec "$1" ss -Hltn "sport = :$2" | grep -q LISTEN
}

require_vm() {
	if [ -z "${STRIPE_IN_VM:-}" ]; then
		echo "# run me in the VM: scripts/vm-run -- $0"
		exit $KSFT_SKIP
	fi
}

# --- testbed ---

# tb_setup N [MTU] -- build the three namespaces and N plain links.
# TB_OFFLOADS=tuned (the default here) sets GRO on / TSO off on every veth
# end (a veth is FIFO only when its receiver uses NAPI); TB_OFFLOADS=default
# leaves them as they come (TSO on, GRO off: each sending CPU's backlog),
# as a user's veths are.  TB_QUEUES=N makes multiqueue veths (N tx and rx
# queues, XPS spreading the tx queues over the CPUs, GRO on so each rx
# queue has its NAPI), as real NICs are.
tb_setup() {
	local n=$1 mtu=${2:-1500} i q=${TB_QUEUES:-1} ns
	TB_N=$n
	trap tb_cleanup EXIT
	# Each command, and each "ip netns exec" above all, costs a process
	# and under TCG a noticeable time: the links are made in batches,
	# one per namespace.
	for ns in $GW $SW $BL; do
		ip netns add "$ns"
		ip -n "$ns" link set lo up
		# No duplicate address detection: links resolve at once.
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.accept_dad=0 \
			net.ipv6.conf.default.accept_dad=0 \
			net.ipv4.conf.all.rp_filter=0 \
			net.ipv4.conf.default.rp_filter=0
	done
	for i in $(seq 1 "$n"); do
		echo "link add g$i netns $GW mtu $mtu numtxqueues $q" \
			"numrxqueues $q type veth peer sg$i netns $SW" \
			"mtu $mtu numtxqueues $q numrxqueues $q"
		echo "link add b$i netns $BL mtu $mtu numtxqueues $q" \
			"numrxqueues $q type veth peer sb$i netns $SW" \
			"mtu $mtu numtxqueues $q numrxqueues $q"
	done | ip -batch - || return 1
	for i in $(seq 1 "$n"); do
		echo "link add br$i type bridge"
		echo "link set br$i mtu $mtu up"
		echo "link set sg$i master br$i up"
		echo "link set sb$i master br$i up"
	done | ip -n $SW -batch - || return 1
	for i in $(seq 1 "$n"); do echo "link set g$i up"; done |
		ip -n $GW -batch - || return 1
	for i in $(seq 1 "$n"); do echo "link set b$i up"; done |
		ip -n $BL -batch - || return 1
	# shellcheck disable=SC2046
	tb_offloads $(seq 1 "$n")
}

# tb_offloads I... -- links I's veth ends as TB_OFFLOADS and TB_QUEUES
# say, with one shell per namespace
tb_offloads() {
	local spec
	for spec in "$GW g" "$BL b" "$SW sg sb"; do
		# shellcheck disable=SC2086,SC2016
		ip netns exec ${spec%% *} sh -c '
		prefixes=$1 queues=$2 offloads=$3 cpus=$(nproc)
		shift 3
		for i in "$@"; do
			for p in $prefixes; do
				dev=$p$i
				if [ "$queues" -gt 1 ]; then
					# NAPI on every rx queue (veth skips it
					# for TSO frames)
					ethtool -K "$dev" gro on tso off
					# XPS at the hosts: tx queue q to CPU
					# q mod nproc.  sw is a switch, which
					# keeps each port FIFO: all on queue 0.
					q=0
					while [ $q -lt "$queues" ]; do
						mask=$((1 << (q % cpus)))
						[ "$prefixes" = "sg sb" ] &&
						mask=$((q ? 0 : (1 << cpus) - 1))
						printf %x $mask \
						>/sys/class/net/$dev/queues/tx-$q/xps_cpus
						q=$((q + 1))
					done
				elif [ "$offloads" = tuned ]; then
					ethtool -K "$dev" gro on tso off
				fi
			done
		done' sh "${spec#* }" "${TB_QUEUES:-1}" "${TB_OFFLOADS:-tuned}" "$@"
	done
}

# tb_shape I RATE [DELAY] [LOSS] -- bottleneck of link I, both directions.
# netem's own rate is accurate under TCG (tbf is not).  DELAY is one-way.
# TB_LIMIT packets of queue (default 10000: a TCP stream fills it).
tb_shape() {
	local i=$1 rate=$2 delay=${3:-0us} loss=${4:-0%} dev
	for dev in "sb$i" "sg$i"; do
		tc -n $SW qdisc replace dev "$dev" root netem \
			rate "$rate" delay "$delay" loss "$loss" \
			limit "${TB_LIMIT:-10000}"
	done
}

tb_cleanup() {
	local ns pids
	# A process left in a namespace keeps it, and its devices, alive.
	for ns in $GW $SW $BL; do
		pids=$(ip netns pids "$ns" 2>/dev/null)
		# shellcheck disable=SC2086
		[ -n "$pids" ] && kill $pids 2>/dev/null
		ip netns del "$ns" 2>/dev/null
	done
	return 0
}

# stripe_master NS NAME ADDR4 ADDR6 LINK... -- a master with these links
stripe_master() {
	local ns=$1 name=$2 a4=$3 a6=$4 l
	shift 4
	ip -n "$ns" link add "$name" type stripe || return 1
	{
		echo "qdisc add dev $name root stripe"
		for l in "$@"; do
			echo "qdisc add dev $l root stripe master $name"
		done
	} | tc -n "$ns" -batch - || return 1
	printf '%s\n' "addr add $a4 dev $name" "addr add $a6 dev $name nodad" \
		"link set $name up" | ip -n "$ns" -batch -
}

# tb_host H N BRIDGE [MTU] -- host H of a gateway's shared segments:
# namespace h$H-$$ with links h1..hN, veth whose other ends join sw's
# bridges BRIDGE1..BRIDGEN, and a master stripe0 over them at 10.9.0.(10+H)
tb_host() {
	local h=$1 n=$2 br=$3 mtu=${4:-1500} ns=h$1-$$ links i
	ip netns add "$ns"
	ip -n "$ns" link set lo up
	ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.accept_dad=0 \
		net.ipv6.conf.default.accept_dad=0 net.ipv4.conf.all.rp_filter=0
	for i in $(seq 1 "$n"); do
		echo "link add h$i netns $ns mtu $mtu type veth" \
			"peer sh${h}x$i netns $SW mtu $mtu"
	done | ip -batch - || return 1
	for i in $(seq 1 "$n"); do
		echo "link set sh${h}x$i master $br$i up"
	done | ip -n $SW -batch - || return 1
	for i in $(seq 1 "$n"); do
		echo "link set h$i up"
	done | ip -n "$ns" -batch - || return 1
	links=$(for i in $(seq 1 "$n"); do printf ' h%s' "$i"; done)
	# shellcheck disable=SC2086
	stripe_master "$ns" stripe0 "10.9.0.$((10 + h))/24" "fd09::$((10 + h))/64" $links
}

# tb_stripe [LINKS] -- stripe0 on both ends over links 1..LINKS:
# gw 10.9.0.1 / fd09::1, bl 10.9.0.2 / fd09::2
tb_stripe() {
	local n=${1:-$TB_N} gl="" bls="" i
	for i in $(seq 1 "$n"); do
		gl="$gl g$i"
		bls="$bls b$i"
	done
	# shellcheck disable=SC2086
	{
		stripe_master $GW stripe0 10.9.0.1/24 fd09::1/64 $gl &&
		stripe_master $BL stripe0 10.9.0.2/24 fd09::2/64 $bls
	}
}

# Fields of the statistics tc -s -j prints (jq: a python3 would take a
# second to start under TCG, and some tests read them in a loop).  A field
# that is absent reads 0; a list reads as its items joined by spaces.
JQ_FIELD='if has($f) then .[$f] else 0 end |
	if type == "array" then join(" ") else tostring end'
# master_field NS FIELD -- a field of NS's stripe0 master
master_field() {
	tc -n "$1" -s -j qdisc show dev stripe0 2>/dev/null |
		jq -r --arg f "$2" ".[0].master | $JQ_FIELD" 2>/dev/null
}
# link_field NS LINK FIELD -- LINK's entry in NS's stripe0 statistics
link_field() {
	tc -n "$1" -s -j qdisc show dev stripe0 2>/dev/null |
		jq -r --arg l "$2" --arg f "$3" \
			".[0].links[]? | select(.name == \$l) | $JQ_FIELD" 2>/dev/null
}
# link_stat NS LINK FIELD -- the same, from LINK's own qdisc
link_stat() {
	tc -n "$1" -s -j qdisc show dev "$2" 2>/dev/null |
		jq -r --arg f "$3" ".[0].links[0] | $JQ_FIELD" 2>/dev/null
}
# each_field NS LIST FIELD -- FIELD of every entry of NS's stripe0 LIST
# (links or peers), in order
each_field() {
	tc -n "$1" -s -j qdisc show dev stripe0 2>/dev/null |
		jq -r --arg f "$3" "[.[0].$2[]? | $JQ_FIELD] | join(\" \")" \
			2>/dev/null
}
# links_flagged NS FLAG [BUT_NOT] -- the names of NS's links flagged FLAG
# (and not BUT_NOT)
links_flagged() {
	tc -n "$1" -s -j qdisc show dev stripe0 |
		jq -r --arg f "$2" --arg n "${3:-}" '[.[0].links[] |
			select((.flags | index($f)) and
			       ($n == "" or (.flags | index($n) | not))) |
			.name] | join(" ")'
}
# at_least A B PCT -- A >= PCT % of B
at_least() { [ -n "$1" ] && [ -n "$2" ] && [ $(( $1 * 100 )) -ge $(( $2 * $3 )) ]; }

# backlog_drops -- frames the kernel dropped on its CPUs' backlogs so far
# (/proc/net/softnet_stat: over netdev_max_backlog; veth hands each frame
# to the receiving CPU's backlog, and the debug kernel drops thousands
# under load): lost before stripe sees them
backlog_drops() {
	local t=0 _a d _b
	while read -r _a d _b; do t=$((t + 0x$d)); done </proc/net/softnet_stat
	echo $t
}

# wait_for CMD... -- poll until CMD succeeds, up to 10 s
wait_for() {
	local i
	for i in $(seq 1 100); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}
