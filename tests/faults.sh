#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Faults under load (issue #6).  While a TCP stream and a UDP flood run
# gw -> bl through stripe0 with reorder on:
#   A  1000 link flaps (down/up) of one link on each side
#   B  links removed (qdisc deleted) and re-added, on both sides
#   C  the receive buffer driven to its limit by a forged sender that never
#      fills a gap (tests/inject.py): rx_held stays <= buffer-limit and
#      returns to 0 after hold-max
#   D  both masters deleted (bl's while it holds frames) and re-created
#   E  the namespace holding bl's master and links deleted
#   F  everything gone: the module unloads, memory comes back, kmemleak
#      (debug kernel) has nothing of ours
#   G  the module again: buffer-limit and flow-limit lowered at run time
#      below what is held, then more frames to hold
# After each phase: no new kernel report in the log, what could survive did,
# memory (unreclaimable slab, skbuff objects) back within a tolerance.
# STRIPE_FAULTS_FLAPS (200; FULL=1 1000, 300 on the debug kernel), STRIPE_FAULTS_UDP (default 30M);
# STRIPE_FAULTS_ONLY_A=1 stops after phase A (to study the flaps).
source "$(dirname "$0")/lib.sh"
require_vm

# The debug kernel flaps a link some ten times slower: 300 flaps there
# still run every path of a flap many times over, in the time CI has; make
# check's quick form flaps 200 times, FULL=1 1000 (300 on the debug kernel).
FLAPS=200
full && FLAPS=1000
full && debug_kernel && FLAPS=300
FLAPS=${STRIPE_FAULTS_FLAPS:-$FLAPS}
UDP_RATE=${STRIPE_FAULTS_UDP:-30M}
INJECT="python3 $TOP/tests/inject.py"
IPERF_LOG=$(mktemp /tmp/faults-iperf.XXXXXX)	# .cli, .srv: shown on failure
# The debug kernel is several times slower: longer polls, not weaker checks.
SLOW=1
debug_kernel && SLOW=3
# Memory tolerances: a leak of the frames held in phase C, D or E (2000
# skbs of 1 KB each time) exceeds them; so would a link or master per flap.
TOL_KB=${STRIPE_FAULTS_TOL_KB:-6144}
TOL_SKB=${STRIPE_FAULTS_TOL_SKB:-1000}
# KASAN's quarantine keeps freed objects in the slab for a while (measured
# +9.7 MB after phase F, with kmemleak finding nothing): there the skb count
# and kmemleak are the leak checks, the slab bound only catches gross leaks.
debug_kernel && TOL_KB=${STRIPE_FAULTS_TOL_KB:-32768}

# The patterns scripts/vm-run fails a run on, checked per phase here.
REPORT='(Oops|BUG:|kernel BUG|WARNING:|general protection fault|KASAN|UBSAN|'
REPORT+='possible (circular|recursive) locking|suspicious RCU usage|'
REPORT+='inconsistent lock state|unreferenced object|refcount_t:|'
REPORT+='list_(add|del) corruption|stack-protector|Kernel panic|'
REPORT+='unregister_netdevice: waiting|scheduling while atomic|'
REPORT+='sleeping function called from invalid context|soft lockup|'
REPORT+='hung_task|rcu_sched self-detected|Call Trace:)'
KREPORTS=$(dmesg | grep -cE "$REPORT")

kernel_clean() {	# kernel_clean PHASE -- no new kernel report since the last call
	local n
	n=$(dmesg | grep -cE "$REPORT")
	if [ "$n" -gt "$KREPORTS" ]; then
		tap_fail "$1: no kernel report in the log" \
			"$(dmesg | grep -E "$REPORT" | tail -n +$((KREPORTS + 1)) | head -5)"
	else
		tap_ok "$1: no kernel report in the log"
	fi
	KREPORTS=$n
}

# mem_now -- "SUnreclaim_kB skbuffs": unreclaimable slab, and the active
# objects of the skb caches where /proc/slabinfo exists (else -1)
mem_now() {
	python3 - <<'PY'
m = {}
for line in open("/proc/meminfo"):
    k, v = line.split(":")
    m[k] = int(v.split()[0])
skb = -1
try:
    for line in open("/proc/slabinfo"):
        f = line.split()
        if f[0] in ("skbuff_head_cache", "skbuff_fclone_cache"):
            skb = max(skb, 0) + int(f[1])
except OSError:
    pass
print(m["SUnreclaim"], skb)
PY
}

# mem_back DESC BASE -- memory returns to BASE (a mem_now) within the
# tolerances; polls while RCU callbacks and namespace cleanup run
mem_back() {
	local desc=$1 base=$2 now i dk ds
	set -- $base
	local kb0=$1 skb0=$2
	for i in $(seq 1 $((20 * SLOW))); do
		now=$(mem_now)
		set -- $now
		dk=$(($1 - kb0))
		ds=$(($2 - skb0))
		[ "$skb0" -lt 0 ] && ds=0
		[ "$dk" -le "$TOL_KB" ] && [ "$ds" -le "$TOL_SKB" ] && break
		sleep 1
	done
	log "$desc: SUnreclaim $kb0 -> $1 kB ($dk), skbuffs $skb0 -> $2 ($ds)"
	if [ "$dk" -le "$TOL_KB" ] && [ "$ds" -le "$TOL_SKB" ]; then
		tap_ok "$desc: memory comes back (slab +${dk} kB <= $TOL_KB, skbs +$ds <= $TOL_SKB)"
	else
		tap_fail "$desc: memory comes back" \
			"unreclaimable slab +$dk kB (tolerance $TOL_KB), skbs +$ds (tolerance $TOL_SKB)"
	fi
}

held_none() { [ "$(master_field $BL rx_held)" = 0 ]; }	# bl holds no frame

modref() {	# the module's reference count (its qdiscs), or "gone"
	awk '$1 == "sch_stripe" {print $3; f=1} END {if (!f) print "gone"}' /proc/modules
}

tcp_rx() {	# tcp_rx NS PORT -- bytes received by TCP sockets on local PORT
	ip netns exec "$1" ss -tinH state established "( sport = :$2 )" 2>/dev/null |
		grep -o 'bytes_received:[0-9]*' | awk -F: '{s += $2} END {printf "%.0f\n", s}'
}

sender_sockets() {	# the TCP stream's sockets at gw, on one line
	ip netns exec $GW ss -tinH "( dport = :5201 )" 2>&1 | tr -s ' \n' ' '
}

link_flags() {	# link_flags NS -- each link of stripe0: name, flags, tx_packets
	tc -n "$1" -s -j qdisc show dev stripe0 2>/dev/null | python3 -c '
import json, sys
q = json.load(sys.stdin)[0]
print(" ".join("%s:%s:%s" % (l.get("name"), ",".join(l.get("flags", [])),
      l.get("tx_packets")) for l in q.get("links", [])))' 2>&1
}

# stream_alive DESC -- the TCP stream (bl port 5201) still makes progress:
# 256 KB more within 150 s of wall time (a stream in RTO backoff after the
# faults resumes within TCP_RTO_MAX, 120 s; a dead one never moves)
stream_alive() {
	local b0 b1 t0 t
	b0=$(tcp_rx $BL 5201)
	b1=$b0
	t0=$(date +%s)
	while :; do
		t=$(( $(date +%s) - t0 ))
		[ $((b1 - b0)) -ge 262144 ] || [ "$t" -gt 150 ] && break
		sleep 0.5
		b1=$(tcp_rx $BL 5201)
	done
	if [ $((b1 - b0)) -ge 262144 ] && kill -0 "$CLI_T" 2>/dev/null; then
		tap_ok "$1: the TCP stream is alive ($b0 -> $b1 bytes in $t s)"
	else
		tap_fail "$1: the TCP stream is alive" \
			"received $((b1 - b0)) bytes in $t s; client $(kill -0 "$CLI_T" 2>/dev/null && echo running || echo gone)" \
			"sender's sockets: $(sender_sockets)" \
			"links (flags, tx packets) at gw: $(link_flags $GW); at bl: $(link_flags $BL)" \
			"iperf3 client: $(tail -n 3 "$IPERF_LOG.cli" 2>&1 | tr '\n' '|')" \
			"iperf3 server: $(tail -n 3 "$IPERF_LOG.srv" 2>&1 | tr '\n' '|')"
	fi
}

traffic_start() {	# TCP stream (5201) and UDP flood (5202), gw -> bl
	# In RTO backoff after the faults, a stream may not move for up to
	# TCP_RTO_MAX (120 s), iperf3's default receive timeout, after which
	# iperf3 would end a stream that TCP still recovers.
	ip netns exec $BL iperf3 -s -1 -p 5201 --rcv-timeout 900000 \
		>"$IPERF_LOG.srv" 2>&1 &
	SRV_T=$!
	ip netns exec $BL iperf3 -s -1 -p 5202 >/dev/null 2>&1 &
	SRV_U=$!
	wait_for listening $BL 5201
	wait_for listening $BL 5202
	ip netns exec $GW iperf3 -c 10.9.0.2 -p 5201 -t 900 --forceflush \
		>"$IPERF_LOG.cli" 2>&1 &
	CLI_T=$!
	ip netns exec $GW iperf3 -c 10.9.0.2 -p 5202 -u -b "$UDP_RATE" -l 1200 \
		-t 900 >/dev/null 2>&1 &
	CLI_U=$!
	sleep $((2 * SLOW))
}

traffic_stop() {
	kill $CLI_T $CLI_U 2>/dev/null
	sleep 1
	kill $SRV_T $SRV_U 2>/dev/null
	wait $CLI_T $CLI_U $SRV_T $SRV_U 2>/dev/null
	return 0
}

master_opts() {	# master_opts NS OPTS... -- tc qdisc change on stripe0
	local ns=$1
	shift
	tc -n "$ns" qdisc change dev stripe0 root stripe "$@"
}

held_in() {	# held_in FILE -- the most rx_held of the tc -s -j lines of FILE
	python3 -c "import json,sys; print(max(json.loads(l)[0]['master'].get('rx_held', 0) for l in open(sys.argv[1])))" \
		"$1" 2>/dev/null
	rm -f "$1"
}

mac_of() { ip -n "$1" link show "$2" | awk '/link\/ether/ {print $2}'; }

# remaster NS PREFIX ADDR4 ADDR6 -- stripe0 again, links PREFIX1..6 rejoin
remaster() {
	local ns=$1 p=$2 i
	ip -n "$ns" link add stripe0 type stripe || return 1
	tc -n "$ns" qdisc add dev stripe0 root stripe reorder on hold-max 50ms || return 1
	for i in 1 2 3 4 5 6; do
		# A link whose master is gone keeps its qdisc: delete, add.
		tc -n "$ns" qdisc del dev "$p$i" root 2>/dev/null
		tc -n "$ns" qdisc add dev "$p$i" root stripe master stripe0 || return 1
	done
	ip -n "$ns" addr add "$3" dev stripe0 &&
	ip -n "$ns" addr add "$4" dev stripe0 nodad &&
	ip -n "$ns" link set stripe0 up
}

links_active() {	# links_active NS N -- stripe0 has N links, all active
	[ "$(master_field "$1" links)" = "$2" ] && [ "$(master_field "$1" active)" = "$2" ]
}
all_active() { links_active $GW 6 && links_active $BL 6; }	# both masters

# =====================================================================
MEM_BASE=$(mem_now)
check "module loads" stripe_load
tb_setup 6
# Short link queues (300 packets, 36 ms at 100 Mbit/s): forged frames sent
# under traffic must arrive in the order the tests send them, not seconds
# apart behind whatever TCP queued on each link.
export TB_LIMIT=300
for i in 1 2 3 4 5 6; do
	tb_shape "$i" 100mbit "$(( (i - 1) * 100 ))us"	# skew 0..500 us
done
tb_stripe 6
check "reorder on, hold-max 50ms on both masters" \
	bash -c "tc -n $GW qdisc change dev stripe0 root stripe reorder on hold-max 50ms &&
		 tc -n $BL qdisc change dev stripe0 root stripe reorder on hold-max 50ms"
# Sockets whose path is cut must not keep a namespace (and so its links and
# the module) alive for minutes.
for ns in $GW $BL; do
	ip netns exec "$ns" sysctl -qw net.ipv4.tcp_orphan_retries=1 \
		net.ipv4.tcp_fin_timeout=3
done
check "ping over reorder on" ip netns exec $GW ping -c 3 -i 0.2 -W 2 10.9.0.2
MEM0=$(mem_now)

# --- A: link flaps under load ---
traffic_start
stream_alive "A: before the flaps"
for i in $(seq 1 "$FLAPS"); do
	echo "link set g6 down"
	echo "link set g6 up"
done >"$TOP/build/flap-gw.$$"
sed 's/g6/b5/' "$TOP/build/flap-gw.$$" >"$TOP/build/flap-bl.$$"
t0=$(date +%s)
ip -n $GW -batch "$TOP/build/flap-gw.$$" &
p1=$!
ip -n $BL -batch "$TOP/build/flap-bl.$$"
r2=$?
wait $p1
r1=$?
rm -f "$TOP/build/flap-gw.$$" "$TOP/build/flap-bl.$$"
log "A: $FLAPS flaps of gw's g6 and bl's b5 took $(( $(date +%s) - t0 )) s"
check "A: $FLAPS flaps of a link on each side ran" test "$r1$r2" = 00
check "A: all six links active again on both masters" \
	wait_for all_active
log "A: sender's sockets after the flaps: $(sender_sockets)"
log "A: links (flags, tx packets) at gw: $(link_flags $GW); at bl: $(link_flags $BL)"
stream_alive "A: after the flaps"
kernel_clean "A"
if [ "${STRIPE_FAULTS_ONLY_A:-0}" = 1 ]; then
	traffic_stop
	tap_done
	exit
fi

# --- B: links removed and re-added under load ---
ok=0
for _ in 1 2 3 4 5 6 7 8 9 10; do
	tc -n $GW qdisc del dev g5 root && tc -n $GW qdisc del dev g6 root &&
	tc -n $BL qdisc del dev b4 root && tc -n $BL qdisc del dev b6 root &&
	sleep 0.2 &&
	tc -n $GW qdisc add dev g5 root stripe master stripe0 &&
	tc -n $GW qdisc add dev g6 root stripe master stripe0 weight 2 &&
	tc -n $BL qdisc add dev b4 root stripe master stripe0 &&
	tc -n $BL qdisc add dev b6 root stripe master stripe0 &&
	ok=$((ok + 1))
	sleep 0.2
done
check "B: two links on each side removed and re-added 10 times ($ok)" test "$ok" = 10
check "B: six links on each master again" \
	wait_for all_active
stream_alive "B: after the removals"
kernel_clean "B"

# --- C: the receive buffer driven to its limit ---
LIMIT=300
HOLD_MS=1000
check "C: buffer-limit $LIMIT, flow-limit 100, hold-max ${HOLD_MS}ms on bl" \
	master_opts $BL buffer-limit $LIMIT flow-limit 100 hold-max ${HOLD_MS}ms
ll0=$(master_field $BL rx_lost_limit)
# Sample rx_held while the forged frames arrive, and right after them (from
# inside the injector: hold-max, at most 1 s, leaves no time to start tc).
(
	for i in $(seq 1 $((8 * SLOW))); do
		master_field $BL rx_held
		sleep 0.1
	done
) >"$TOP/build/held.$$" &
sampler=$!
held=$(ip netns exec $GW $INJECT hold g1 "$(mac_of $BL b1)" g2 "$(mac_of $BL b2)" \
	--flows 8 --per-flow 80 \
	--ns $BL --out $TOP/build/held-json.$$ --step "tc:qdisc show dev stripe0")
h_after=$(held_in "$TOP/build/held-json.$$")
wait $sampler
samples=$(tr '\n' ' ' <"$TOP/build/held.$$")
rm -f "$TOP/build/held.$$"
max=$(echo "$samples $h_after" | tr ' ' '\n' | sort -n | tail -1)
ll1=$(master_field $BL rx_lost_limit)
log "C: forged $held frames behind gaps; rx_held samples: $samples; after: $h_after; lost_limit +$((ll1 - ll0))"
check_timing "C: the forged sender drove rx_held up to the limit (max $max >= $((LIMIT / 2)))" \
	test "${max:-0}" -ge $((LIMIT / 2))
check "C: rx_held never above buffer-limit (max $max <= $LIMIT)" \
	test "${max:-999999}" -le $LIMIT
# How many depends on how far the load spreads the forged frames out in
# time (flows that time out first never meet the limit): more than none,
# where the frames come fast enough to meet it (not on the debug kernel).
check_timing "C: the limit gave up on gaps (lost_limit +$((ll1 - ll0)) > 0)" \
	test $((ll1 - ll0)) -gt 0
stream_alive "C: with the buffer at its limit"
traffic_stop
# Traffic stopped: a forged sender alone, under the default limits, 1200
# frames behind gaps in 8 flows (python must send them well within
# hold-max, 1 s: 2000 took it 0.7 s once, and a flow timed out before the
# count).  Nothing will fill the gaps and link 2
# stays "behind", so only hold-max (1 s; the timer runs every hold-max/4)
# may release them: held now, not released by a limit, gone after hold-max.
# (Link 2's frame leads by 0.1 s, not 0.5: with no traffic it is not
# queued, and its silence counts from it -- 0.5 s plus the time python
# takes to send 2000 frames under emulation came near the 1 s after which
# link 2 is silent, and the link rule then released every gap at once.)
# The first gap to reach hold-max takes link 2 out of the loss rule (it
# passed nothing in all that time), so the other flows' gaps then go by
# the link rule: one timeout at least, and one gap per flow in all.
master_opts $BL buffer-limit 8192 flow-limit 1024
wait_for held_none
lt0=$(master_field $BL rx_lost_timeout)
ll0=$(master_field $BL rx_lost_limit)
lk0=$(master_field $BL rx_lost_link)
held=$(ip netns exec $GW $INJECT hold g1 "$(mac_of $BL b1)" g2 "$(mac_of $BL b2)" \
	--sender 0x5EED0C02 --flows 8 --per-flow 150 --step sleep:0.3 --lead 0.1 \
	--ns $BL --out $TOP/build/held-json.$$ --step "tc:qdisc show dev stripe0")
t0=$(date +%s%N)
h=$(held_in "$TOP/build/held-json.$$")
# Counts of forged frames held: on the debug kernel they may not all arrive
# within hold-max, so these are timing checks (check_timing).
check_timing "C: $held forged frames held, traffic stopped ($h >= $((held * 9 / 10)))" \
	test "${h:-0}" -ge $((held * 9 / 10))
for i in $(seq 1 $((60 * SLOW))); do
	[ "$(master_field $BL rx_held)" = 0 ] && break
	sleep 0.25
done
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
lt1=$(master_field $BL rx_lost_timeout)
ll1=$(master_field $BL rx_lost_limit)
lk1=$(master_field $BL rx_lost_link)
log "C: rx_held $(master_field $BL rx_held) after $ms ms; lost_timeout +$((lt1 - lt0)), lost_link +$((lk1 - lk0)), lost_limit +$((ll1 - ll0))"
check "C: rx_held returns to 0 after hold-max (${ms} ms <= $((HOLD_MS + 10000 * SLOW)))" \
	test "$(master_field $BL rx_held)" = 0 -a "$ms" -le $((HOLD_MS + 10000 * SLOW))
check_timing "C: released by hold-max, one gap per flow (lost_timeout +$((lt1 - lt0)) >= 1, with lost_link +$((lk1 - lk0)) >= 8), not by a limit (+$((ll1 - ll0)))" \
	test $((lt1 - lt0)) -ge 1 -a $((lt1 - lt0 + lk1 - lk0)) -ge 8 -a $((ll1 - ll0)) = 0
check "C: hold-max 50ms and the default limits back on bl" \
	master_opts $BL buffer-limit 8192 flow-limit 1024 hold-max 50ms
kernel_clean "C"
mem_back "A-C, traffic stopped" "$MEM0"

# --- D: masters deleted under load, bl's holding frames, and re-created ---
# (rx_held is sampled twice before the delete; link 2's frame leads by
# 0.1 s, more than the short link queues hold: its silence counts from it,
# and 0.5 s plus python's time to send 2000 frames under load reached the
# 1 s after which link 2 is silent and every gap goes at once)
traffic_start
master_opts $BL hold-max 1000ms
ip netns exec $GW $INJECT hold g1 "$(mac_of $BL b1)" g2 "$(mac_of $BL b2)" \
	--sender 0x5EED0D01 --flows 8 --per-flow 250 --step sleep:0.2 --lead 0.1 \
	--ns $BL --out $TOP/build/held-json.$$ --step "tc:qdisc show dev stripe0" \
	--step sleep:0.3 --step "tc:qdisc show dev stripe0" \
	--step "ip:link del stripe0" >/dev/null
r=$?
h=$(held_in "$TOP/build/held-json.$$")
# What matters is that frames are held when the master goes: at least some
# (how many of the 2000 depends on how fast python sends them under load).
check_timing "D: bl's master held forged frames ($h >= 100)" test "${h:-0}" -ge 100
check "D: delete bl's master (links, held frames, traffic)" test "$r" = 0
check "D: delete gw's master (links, traffic)" ip -n $GW link del stripe0
check "D: the links stay, as qdiscs without a master" \
	bash -c "tc -n $GW qdisc show dev g1 | grep -q 'qdisc stripe' &&
		 ! ip -n $BL link show b1 | grep -q 'master stripe0'"
traffic_stop
check "D: re-create gw's master with its six links" \
	remaster $GW g 10.9.0.1/24 fd09::1/64
check "D: re-create bl's master with its six links" \
	remaster $BL b 10.9.0.2/24 fd09::2/64
check "D: ping over the new masters" \
	ip netns exec $GW ping -c 3 -i 0.2 -W 2 10.9.0.2
traffic_start
stream_alive "D: a new stream over the new masters"
check "D: the new masters resequence (reorder on: rx_in_order > 0)" \
	test "$(master_field $BL rx_in_order)" -gt 0
traffic_stop
kernel_clean "D"
mem_back "D, traffic stopped" "$MEM0"

# --- E: the namespace holding bl's master and links deleted under load ---
traffic_start
master_opts $BL hold-max 1000ms
r0=$(modref)
# A namespace lives while a process is in it: end them, then delete it
# while the master holds forged frames.
kill $SRV_T $SRV_U 2>/dev/null
ip netns exec $GW $INJECT hold g1 "$(mac_of $BL b1)" g2 "$(mac_of $BL b2)" \
	--sender 0x5EED0E01 --flows 8 --per-flow 250 --step sleep:0.2 --lead 0.1 \
	--ns $BL --out $TOP/build/held-json.$$ --step "tc:qdisc show dev stripe0" \
	--step sleep:0.3 --step "tc:qdisc show dev stripe0" \
	--step "ip:netns del $BL" >/dev/null
r=$?
h=$(held_in "$TOP/build/held-json.$$")
check_timing "E: bl's master held forged frames ($h >= 100)" test "${h:-0}" -ge 100
check "E: delete bl's namespace (master, held frames, links, traffic)" test "$r" = 0
wait $SRV_T $SRV_U 2>/dev/null
# Its seven qdiscs (master and six links) release the module when the
# namespace is really gone (cleanup_net runs later, asynchronously).
check "E: the namespace's master and links are destroyed (module refs $r0 -> 7)" \
	bash -c "for i in \$(seq 1 $((60 * SLOW))); do
		 [ \"\$(awk '\$1 == \"sch_stripe\" {print \$3}' /proc/modules)\" = 7 ] && exit 0
		 sleep 1; done; exit 1"
check "E: gw's master goes on with its six links" links_active $GW 6
traffic_stop
kernel_clean "E"

# --- F: everything gone, the module unloads ---
tb_cleanup
trap - EXIT
check "F: the last qdisc released the module" \
	bash -c "for i in \$(seq 1 $((60 * SLOW))); do
		 [ \"\$(awk '\$1 == \"sch_stripe\" {print \$3}' /proc/modules)\" = 0 ] && exit 0
		 sleep 1; done; exit 1"
log "F: module refs $(modref)"
if [ -w /sys/kernel/debug/kmemleak ]; then
	# An object is reported once unreferenced in a scan and 5 s old.
	echo scan >/sys/kernel/debug/kmemleak
	sleep 6
	echo scan >/sys/kernel/debug/kmemleak
	leaks=$(cat /sys/kernel/debug/kmemleak)
	if grep -qE 'sch_stripe|stripe_' <<<"$leaks"; then
		tap_fail "F: kmemleak finds nothing of sch_stripe" \
			"$(grep -B12 -E 'sch_stripe|stripe_' <<<"$leaks" | head -30)"
	else
		tap_ok "F: kmemleak finds nothing of sch_stripe ($(grep -c 'unreferenced object' <<<"$leaks") reports in all)"
	fi
else
	tap_skip "F: kmemleak finds nothing of sch_stripe" "no kmemleak in this kernel"
fi
check "F: rmmod sch_stripe" rmmod sch_stripe
check "F: the module is gone" test "$(modref)" = gone
kernel_clean "F"
mem_back "F, all gone, module unloaded" "$MEM_BASE"

# --- G: limits lowered at run time below what is held ---
check "G: the module loads again" stripe_load
# The same shaped six links as above: on two bare veth links the forged
# frames were not held (not understood yet; see the final report of #6).
tb_setup 6
for i in 1 2 3 4 5 6; do
	tb_shape "$i" 100mbit "$(( (i - 1) * 100 ))us"
done
tb_stripe 6
check "G: reorder on, hold-max 1s, buffer-limit 1000, flow-limit 200" \
	bash -c "tc -n $GW qdisc change dev stripe0 root stripe reorder on &&
		 tc -n $BL qdisc change dev stripe0 root stripe reorder on hold-max 1000ms buffer-limit 1000 flow-limit 200"
check "G: ping over reorder on" ip netns exec $GW ping -c 2 -i 0.2 -W 2 10.9.0.2
# Within hold-max (1 s), from inside the injector: hold 640 frames, lower
# the limits below that, then one more flow with a gap, whose frame must
# bring rx_held within the new buffer-limit (not only its own flow's).
ip netns exec $GW $INJECT hold g1 "$(mac_of $BL b1)" g2 "$(mac_of $BL b2)" \
	--flows 8 --per-flow 80 \
	--ns $BL --out $TOP/build/held-json.$$ --step "tc:qdisc show dev stripe0" \
	--step "tc:qdisc change dev stripe0 root stripe buffer-limit 100 flow-limit 50" \
	--step "tc:qdisc show dev stripe0" \
	--trigger-flow 20 >/dev/null
r=$?
h=$(held_in "$TOP/build/held-json.$$")
[ "${h:-0}" -ge 300 ] || log "G: $(tc -n $BL -s qdisc show dev stripe0 | tr '\n' ' ')"
# Some may still be on the way through netem: 300 is three times the limit
# about to be set.
check_timing "G: forged frames held ($h >= 300 of 640)" test "${h:-0}" -ge 300
check "G: buffer-limit lowered to 100, flow-limit to 50 while they are held" test "$r" = 0
h=$(master_field $BL rx_held)
check "G: the master still answers; rx_held within the new limit ($h <= 100)" \
	test -n "$h" -a "${h:-999}" -le 100
check "G: rx_held returns to 0 after hold-max" \
	wait_for held_none
check "G: traffic still flows" ip netns exec $GW ping -c 3 -i 0.2 -W 2 10.9.0.2
kernel_clean "G"
tap_done
