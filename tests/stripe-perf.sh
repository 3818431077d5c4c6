#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# stripe-perf against a reference and a known path: over one veth pair
# between two namespaces of our own, its TCP and UDP goodput is within 10 %
# of iperf3's through the same netem bottleneck (measured back to back);
# through a netem link that reorders it reports reordering, through a plain
# link none, and no loss or corruption; -J output carries the figures a
# benchmark reads.
source "$(dirname "$0")/lib.sh"
require_vm

SP=$TOP/tools/stripe-perf
for t in iperf3 python3 tc ip ss taskset; do
	command -v $t >/dev/null || { echo "# $t missing"; exit $KSFT_SKIP; }
done
if [ ! -x "$SP" ] && ! make -s -C "$TOP/tools" stripe-perf >/dev/null 2>&1; then
	echo "# $SP missing and does not build"
	exit $KSFT_SKIP
fi

NA=spa-$$		# the sender's namespace
NZ=spz-$$		# the receiver's namespace
ADDR=10.77.0.2		# the receiver, on vz
T=$(mktemp -d /tmp/stripe-perf-test.XXXXXX)
PIDS=()
RMEM_MAX=$(sysctl -n net.core.rmem_max)
WMEM_MAX=$(sysctl -n net.core.wmem_max)

cleanup() {
	local p
	for p in "${PIDS[@]}"; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	ip netns del $NA 2>/dev/null
	ip netns del $NZ 2>/dev/null
	sysctl -qw net.core.rmem_max="$RMEM_MAX" net.core.wmem_max="$WMEM_MAX"
	rm -rf "$T"
	return 0
}
trap cleanup EXIT

# One veth pair va (sender) -- vz (receiver).  MTU 9000: the UDP comparison
# uses 8 KiB datagrams so that under TCG neither netem's per-packet timer
# nor iperf3's one-recv-per-datagram receiver is what limits the rate.
ip netns add $NA && ip netns add $NZ || exit 1
ip link add va netns $NA mtu 9000 type veth peer vz netns $NZ mtu 9000 || exit 1
ip -n $NA addr add 10.77.0.1/24 dev va
ip -n $NZ addr add $ADDR/24 dev vz
for ns in $NA $NZ; do
	ip -n $ns link set lo up
done
ip -n $NA link set va up
ip -n $NZ link set vz up

# The bottleneck: TCP fills it; UDP at 200M stays 20 % below it, room for
# a sender to catch up after a TCG stall (at the bottleneck's own rate a
# stalled sender never does, and the comparison measures vCPU scheduling).
if ! tc -n $NA qdisc add dev va root netem rate 250mbit limit 10000 2>"$T/tc.err"; then
	echo "# netem unavailable: $(cat "$T/tc.err")"
	exit $KSFT_SKIP
fi

# iperf3 -w must get the 4 MiB receive buffer stripe-perf forces for itself,
# or its UDP receiver drops at the socket whenever TCG stalls it.
sysctl -qw net.core.rmem_max=$((8 << 20)) net.core.wmem_max=$((8 << 20))

# servers for the whole test, each in the receiver's namespace
ip netns exec $NZ "$SP" -s -i 0 >"$T/sp-server.out" 2>&1 &
PIDS+=($!)
ip netns exec $NZ iperf3 -s -p 5201 >"$T/iperf3-server.out" 2>&1 &
PIDS+=($!)
listening() {
	ip netns exec $NZ ss -ltnH | grep -q ":5301 " &&
	ip netns exec $NZ ss -ltnH | grep -q ":5201 "
}
if ! wait_for listening; then
	tap_fail "servers listen" "$(cat "$T/sp-server.out" "$T/iperf3-server.out")"
	tap_done
	exit 1
fi

# jq FILE EXPR -- print the Python expression EXPR over d = the JSON in FILE
jq() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))' "$1" "$2" 2>/dev/null
}

# sp NAME ARGS... -- stripe-perf client to the receiver, JSON in $T/NAME.json
sp() {
	local name=$1
	shift
	# shellcheck disable=SC2086
	ip netns exec $NA ${SP_CPU:-} "$SP" -c $ADDR -i 0 -J "$@" \
		>"$T/$name.json" 2>"$T/$name.err"
}

# ip3 NAME ARGS... -- iperf3 client to the receiver, JSON in $T/NAME.json
ip3() {
	local name=$1
	shift
	ip netns exec $NA iperf3 -c $ADDR -p 5201 -J "$@" \
		>"$T/$name.json" 2>"$T/$name.err"
}

# iperf3's receiver rate (bit/s); UDP: received, not sent
ip3_bps() {
	jq "$1" '(d["end"].get("sum_received") or d["end"]["sum"])["bits_per_second"]'
}

# near DESC SP IPERF3 CAP -- stripe-perf drives and measures at least 90 %
# of what iperf3 did, and never more than CAP (+5 %), what the path can
# carry. Only a floor against iperf3: run one after the other on a shared
# host, iperf3 was once starved to 112 of 250 Mbit/s while stripe-perf
# measured 164, and a ceiling is what catches counting too much.
near() {
	local desc=$1 a=$2 b=$3 cap=$4
	if debug_kernel; then
		tap_skip "$desc" "rates mean little on the debug kernel"
		return
	fi
	if python3 -c 'import sys
a, b, cap = map(float, sys.argv[1:4])
sys.exit(0 if b > 0 and 0.9 * b <= a <= 1.05 * cap else 1)' \
		"$a" "$b" "$cap" 2>/dev/null; then
		tap_ok "$desc (stripe-perf $a, iperf3 $b bit/s)"
	else
		tap_fail "$desc" "stripe-perf: ${a:-none} bit/s, iperf3: ${b:-none} bit/s, at most $cap"
	fi
}

# jcheck DESC FILE EXPR -- pass if EXPR holds for d = the JSON in FILE;
# the failure shows iperf3's end sums and stripe-perf's own summary
jcheck() {
	local desc=$1 file=$2 expr=$3
	if python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)' "$file" "$expr" 2>/dev/null; then
		tap_ok "$desc"
	else
		tap_fail "$desc" "expected: $expr" \
			"$(jq "$file" 'json.dumps({k: v for k, v in d["end"].items() if k.startswith("sum")})')" \
			"$(jq "$file" 'json.dumps({k: v for k, v in d["summary"].items() if k not in ("udp", "local", "remote")})')" \
			"$(jq "$file" 'json.dumps({k: v for k, v in d["summary"].get("udp", {}).items() if "hist" not in k})')" \
			"$(head -c 300 "${file%.json}.err")"
	fi
}

# --- TCP through the 250 Mbit/s bottleneck --------------------------------
ip3 tcp-iperf3 -t 2
sp tcp-sp -t 2
log "TCP: stripe-perf rc $?, $(jq "$T/tcp-sp.json" 'json.dumps({k: d["end"][k] for k in ("sum_sent", "sum_received")})'), summary $(jq "$T/tcp-sp.json" 'json.dumps(d["summary"])')"
near "TCP goodput at least 90 % of iperf3's through netem 250mbit" \
	"$(jq "$T/tcp-sp.json" 'd["end"]["sum_received"]["bits_per_second"]')" \
	"$(ip3_bps "$T/tcp-iperf3.json")" 250e6
jcheck "TCP: every byte arrives, none corrupt" "$T/tcp-sp.json" \
	'd["summary"]["integrity_ok"] is True and
	 all(s["corrupt_bytes"] == 0 for s in d["summary"]["remote"]["streams"]) and
	 d["end"]["sum_received"]["bytes"] == d["end"]["sum_sent"]["bytes"] > 0'

# --- UDP at 200M through the same bottleneck -------------------------------
ip3 udp-iperf3 -u -b 200M -l 8192 -w 4M -t 2
sp udp-sp -u -b 200M -l 8192 -t 2
log "UDP: iperf3 sent $(jq "$T/udp-iperf3.json" 'round(d["end"]["sum"]["bits_per_second"])') bit/s," \
    "lost $(jq "$T/udp-iperf3.json" 'd["end"]["sum"]["lost_packets"]');" \
    "stripe-perf sent $(jq "$T/udp-sp.json" 'round(d["end"]["sum_sent"]["bits_per_second"])') bit/s," \
    "lost $(jq "$T/udp-sp.json" 'd["end"]["sum"]["lost_packets"]')"
# iperf3 is the reference only when it offered what it was asked: on a
# loaded host its sender may fall short (133 of 200 Mbit/s seen), and then
# the offered rate is the reference
if python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) >= 180e6 else 1)' \
	"$(jq "$T/udp-iperf3.json" 'd["end"]["sum"]["bits_per_second"]')" \
	2>/dev/null; then
	near "UDP 200M goodput at least 90 % of iperf3's through netem 250mbit" \
		"$(jq "$T/udp-sp.json" 'd["end"]["sum_received"]["bits_per_second"]')" \
		"$(ip3_bps "$T/udp-iperf3.json")" 200e6
else
	near "UDP 200M goodput within 10 % of the offered 200M (iperf3 fell short)" \
		"$(jq "$T/udp-sp.json" 'd["end"]["sum_received"]["bits_per_second"]')" 200e6 200e6
fi

# --- JSON -----------------------------------------------------------------
for f in tcp udp; do
	jcheck "-J output of the $f run parses as JSON with the benchmark's fields" \
		"$T/$f-sp.json" "$(cat <<PY
all(isinstance(d["end"][s][k], (int, float)) for s in ("sum_sent", "sum_received")
    for k in ("seconds", "bytes", "bits_per_second"))
and d["summary"]["mptcp"] is False and d["start"]["test_start"]["protocol"].lower() == "$f"
and isinstance(d["summary"]["integrity_ok"], bool)
and d["end"]["sum_received"]["bits_per_second"] > 0 and 1.5 < d["end"]["sum_received"]["seconds"] < 4
and ("$f" != "tcp" or isinstance(d["end"]["sum_sent"]["retransmits"], int) and
     all(isinstance(s["tcp"][k], (int, float)) for s in d["summary"]["local"]["streams"] for k in
         ["reord_seen", "reordering", "dsack_dups", "rtt_us", "min_rtt_us", "cwnd"]) and
     all(isinstance(s["tcp"]["rcv_ooopack"], int) and isinstance(s["corrupt_bytes"], int)
         for s in d["summary"]["remote"]["streams"]))
and ("$f" != "udp" or all(isinstance(d["end"]["sum"][k], (int, float)) for k in
         ["packets", "lost_packets", "lost_percent", "out_of_order", "jitter_ms"]) and
     all(isinstance(d["summary"]["udp"][k], (int, float)) for k in
         ["received", "duplicates", "corrupt", "reordered_ratio", "max_extent", "rbd_max"]) and
     isinstance(d["summary"]["udp"]["owd_us"]["p99"], (int, float)))
and d["summary"]["local"]["role"] == "sender" and d["summary"]["remote"]["role"] == "receiver"
PY
)"
done

# --- UDP through a plain link: nothing lost, reordered or damaged -----------
# The sender is pinned to one CPU: veth hands each packet to the backlog of
# the CPU that sends it, and a sender migrating between CPUs can reorder
# the path itself.
tc -n $NA qdisc del dev va root
SP_CPU="taskset -c 0" sp udp-plain -u -b 100M -t 1
log "UDP plain link: $(jq "$T/udp-plain.json" 'json.dumps(dict({k: v for k, v in d["end"]["sum"].items() if k in ("packets", "lost_packets", "out_of_order")}, **{k: v for k, v in d["summary"]["udp"].items() if k in ("received", "duplicates", "corrupt", "max_extent")}))')"
jcheck "UDP through a plain link: no reordering" "$T/udp-plain.json" \
	'd["end"]["sum"]["out_of_order"] == 0 and d["summary"]["udp"]["reordered_ratio"] == 0 and
	 d["summary"]["udp"]["max_extent"] == 0 and d["summary"]["udp"]["received"] > 0'
jcheck "UDP through a plain link: no loss, no duplicates" "$T/udp-plain.json" \
	'd["end"]["sum"]["lost_packets"] == 0 and d["summary"]["udp"]["duplicates"] == 0 and
	 d["summary"]["udp"]["received"] == d["end"]["sum"]["packets"] > 0'
jcheck "UDP through a plain link: no corrupt datagrams, integrity_ok" "$T/udp-plain.json" \
	'd["summary"]["udp"]["corrupt"] == 0 and d["summary"]["integrity_ok"] is True'

# --- UDP through a reordering link ------------------------------------------
# netem sends 25 % of the packets (correlated 50 %) at once and delays the
# rest by 1 ms: those overtake the delayed ones.
tc -n $NA qdisc add dev va root netem delay 1ms reorder 25% 50%
sp udp-reorder -u -b 50M -t 1
log "UDP reordering link: $(jq "$T/udp-reorder.json" 'json.dumps(dict({k: v for k, v in d["end"]["sum"].items() if k in ("packets", "lost_packets", "out_of_order")}, **{k: v for k, v in d["summary"]["udp"].items() if k in ("received", "reordered_ratio", "max_extent", "rbd_max")}))')"
jcheck "UDP through netem reorder: reordered ratio > 0" "$T/udp-reorder.json" \
	'd["end"]["sum"]["out_of_order"] > 0 and 0 < d["summary"]["udp"]["reordered_ratio"] < 1'
jcheck "UDP through netem reorder: reordering extent > 0" "$T/udp-reorder.json" \
	'd["summary"]["udp"]["max_extent"] > 0 and len(d["summary"]["udp"]["extent_hist"]) > 0'
jcheck "UDP through netem reorder: nothing lost or corrupt" "$T/udp-reorder.json" \
	'd["end"]["sum"]["lost_packets"] == 0 and d["summary"]["udp"]["corrupt"] == 0'

tap_done
