#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# One gateway master talking to four hosts, each with its own master, over
# the same six links (the report's cluster gateway): next hops are resolved
# per link, so every peer is reached on every link; the gateway shows one
# line per host it hears (tc -s); markers go to the hosts data went to on
# a link, not to every host on it.
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
OUT=$(mktemp -d)
hosts_cleanup() {
	# (and host 5, made for the made-up senders' flood)
	for h in $(seq 1 $((HOSTS + 1))); do ip netns del "h$h-$$" 2>/dev/null; done
	rm -rf "$OUT"
	tb_cleanup
}
trap hosts_cleanup EXIT
for h in $(seq 1 $HOSTS); do
	tb_host "$h" $N br
done
for h in $(seq 1 $HOSTS); do
	check "gateway reaches host $h (IPv4)" \
		ip netns exec $GW ping -c 3 -i 0.2 -W 2 "10.9.0.$((10 + h))"
	check "gateway reaches host $h (IPv6)" \
		ip netns exec $GW ping -6 -c 3 -i 0.2 -W 2 "fd09::$((10 + h))"
done
for h in $(seq 1 $HOSTS); do
	ip netns exec "h$h-$$" iperf3 -s -1 -D
	wait_for listening "h$h-$$" 5201
done
for h in $(seq 1 $HOSTS); do
	timeout 20 ip netns exec $GW iperf3 -c "10.9.0.$((10 + h))" -t 2 >/dev/null 2>&1 &
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
# --- markers go to the peers data went to on a link, not to every host ---
# reorder on everywhere; light traffic to hosts 1 and 3: a ping to each
# every 10 ms takes one link at a time, the other five lag and get
# markers.  Host 2, on the same segments but not talked to, must not get
# them.  (Before, markers went to the one host reporting on a link, and
# were broadcast when two did: here every host got every marker.)
rx_markers() {	# rx_markers NS [KEY] -- a counter of NS's master
	tc -n "$1" -s -j qdisc show dev stripe0 | python3 -c '
import json, sys; print(json.load(sys.stdin)[0]["master"].get(sys.argv[1], 0))' "${2:-rx_markers}"
}
# Frames of any kind NS's links received: a master without state for the
# gateway does not count its markers, its links still get them
rx_frames() {	# rx_frames NS
	ip -n "$1" -s -j link show | python3 -c '
import json, sys
print(sum(l["stats64"]["rx"]["packets"] for l in json.load(sys.stdin)
          if l["ifname"].startswith("h")))'
}
for ns in $GW $(for h in $(seq 1 $HOSTS); do echo "h$h-$$"; done); do
	tc -n "$ns" qdisc change dev stripe0 root stripe reorder on
done
ip netns exec $GW ping -q -c 50 -i 0.01 10.9.0.11 >/dev/null
m1=$(rx_markers h1-$$)
m2=$(rx_frames h2-$$)
m3=$(rx_markers h3-$$)
d2=$(rx_markers h2-$$ rx_in_order)
f2=$(rx_markers h2-$$ tx_feedback)
ip netns exec $GW ping -q -c 200 -i 0.01 10.9.0.13 >/dev/null &
ping3=$!
ip netns exec $GW ping -q -c 200 -i 0.01 10.9.0.11 >/dev/null
wait $ping3
m1=$(( $(rx_markers h1-$$) - m1 ))
m2=$(( $(rx_frames h2-$$) - m2 ))
m3=$(( $(rx_markers h3-$$) - m3 ))
d2=$(( $(rx_markers h2-$$ rx_in_order) - d2 ))
f2=$(( $(rx_markers h2-$$ tx_feedback) - f2 ))
log "markers received during 200 pings each to hosts 1 and 3: host 1 $m1, host 3 $m3; host 2's links $m2 frames" \
    "(host 2 meanwhile: $d2 data frames in order, $f2 reports sent);" \
    "the gateway sent $(tc -n $GW -s -j qdisc show dev stripe0 | python3 -c '
import json, sys; print(json.load(sys.stdin)[0]["master"].get("tx_markers", 0))') in all;" \
    "the gateway so far: $(tc -n $GW -s -j qdisc show dev stripe0 | python3 -c '
import json, sys
q = json.load(sys.stdin)[0]
m = q["master"]
print("links left %d back %d, for a peer left %d back %d, reports not taken (unsent) %d" % (
      sum(l.get("left", 0) for l in q["links"]), sum(l.get("back", 0) for l in q["links"]),
      m.get("tx_peer_left", 0), m.get("tx_peer_back", 0), m.get("rx_feedback_unsent", 0)))')"
check "markers: hosts 1 and 3, talked to, get the gateway's markers ($m1, $m3)" \
	test "$m1" -ge 100 -a "$m3" -ge 100
# (on the debug kernel CPU stalls take links out, and the probes of a cut
# link go to the hosts that had data on it within 10 s: host 2 too)
check_timing "markers: host 2, not talked to, gets next to none ($m2 frames, under 5 % of host 1's markers)" \
	test $(( m2 * 20 )) -lt "$m1"
# Per-peer state: the gateway shows one line per host it heard within the
# last second, read while the pings to all of them go on.  Read every
# 0.2 s while they last and keep the reading with the most hosts: the
# pings start at different times (each resolves its host first), on the
# debug kernel a second apart.
for h in $(seq 1 $HOSTS); do
	ip netns exec $GW ping -q -c 250 -i 0.02 "10.9.0.$((10 + h))" >/dev/null &
done
peers="0 0"
for _ in $(seq 1 25); do
	sleep 0.2
	now=$(tc -n $GW -s -j qdisc show dev stripe0 | python3 -c '
import json, sys
p = json.load(sys.stdin)[0].get("peers", [])
print(len(p), min([q.get("frames", 0) for q in p] or [0]),
      " ".join("%08x:%d/%d" % (q.get("id", 0), q.get("frames", 0), q.get("links", 0)) for q in p))')
	read -r n_now least_now _ <<<"$now"
	read -r n_best least_best _ <<<"$peers"
	if [ "$n_now" -gt "$n_best" ] ||
	   { [ "$n_now" = "$n_best" ] && [ "$least_now" -gt "$least_best" ]; }; then
		peers=$now
	fi
done
wait
log "the gateway's peers, the fullest reading during the pings (count, least frames, id:frames/links): $peers"
check "peers: the gateway shows each of the $HOSTS hosts it hears, each with frames" \
	bash -c "read -r n least _ <<<'$peers'; [ \"\$n\" = $HOSTS ] && [ \"\$least\" -ge 1 ]"
# (five seconds of pings every 20 ms: up to 250 replies each; the debug
# kernel sends and drops a part of them)
check_timing "peers: ... at least 10 of its replies each" \
	bash -c "read -r n least _ <<<'$peers'; [ \"\$least\" -ge 10 ]"
# --- a host reports as lost only frames that were sent to it ---
# A receiver counts the link sequence numbers (lseq) it missed on a link
# and reports them lost; the gateway takes a link that loses for lossy
# and gives it less.  A TCP stream to host 1 beside pings to host 2 every
# 10 ms over the same links: before each destination had its own count on
# a link, host 1 reported every frame sent to host 2 as lost (about 95 %
# of the pings, and a link's pace fell to 1/1024 within 10 s).
frames_lost() {	# frames_lost -- reported lost on all of gw's links
	tc -n $GW -s -j qdisc show dev stripe0 | python3 -c '
import json, sys
print(sum(l.get("frames_lost", 0) for l in json.load(sys.stdin)[0]["links"]))'
}
# Frames the kernel itself dropped (backlog_drops) are reported lost,
# rightly; the debug kernel drops thousands in these sections (the check
# failed there with 121 and 134 reported).
ip netns exec h1-$$ iperf3 -s -1 -D
wait_for listening h1-$$ 5201
lost=$(frames_lost) drops=$(backlog_drops)
ip netns exec $GW ping -q -c 300 -i 0.01 10.9.0.12 >/dev/null &
timeout 20 ip netns exec $GW iperf3 -c 10.9.0.11 -t 3 >/dev/null 2>&1
wait
lost=$(( $(frames_lost) - lost )) drops=$(( $(backlog_drops) - drops ))
log "frames host 1 reported lost on the gateway's links during a 3 s stream beside 300 pings to host 2: $lost" \
    "(frames the kernel dropped on its backlogs meanwhile: $drops)"
check "loss reports: host 1 counts no frame sent to host 2 as lost ($lost reported, under 30 more than the $drops dropped)" \
	test "$lost" -lt $((30 + drops))
# --- flows to two hosts do not wait for each other's frames ---
# A receiver restores the order of each flow bucket (fseq) and takes a
# missing number for a frame still on its way; a frame of its bucket that
# went to another peer never comes, and the gap waits for every link to
# pass it (the link rule), then counts as lost.  64 UDP flows from gw to
# each of hosts 1 and 2 at once, 20 datagrams a second each: with one
# fseq space for all next hops, some 30 buckets carried flows to both,
# and each host gave up 546 gaps; now none, and on the debug kernel a few
# whose frames a stalled CPU held past the hold bound (4 to 8).
gaps() {	# gaps NS -- the gaps NS's master gave up on, by any rule, and
	# the frames that came after their gap was given up (late)
	tc -n "$1" -s -j qdisc show dev stripe0 | python3 -c '
import json, sys
m = json.load(sys.stdin)[0]["master"]
print(sum(m.get(k, 0) for k in ("rx_lost_link", "rx_lost_timeout", "rx_lost_limit")),
      m.get("rx_late", 0))'
}
read -r g1 late1 <<<"$(gaps h1-$$)"
read -r g2 late2 <<<"$(gaps h2-$$)"
drops=$(backlog_drops)
ip netns exec $GW python3 - 10.9.0.11 10.9.0.12 <<'PY'
import socket, sys, time
socks = [(socket.socket(socket.AF_INET, socket.SOCK_DGRAM), dst)
         for dst in sys.argv[1:] for _ in range(64)]
end = time.time() + 3
while time.time() < end:
    for s, dst in socks:
        s.sendto(b"x" * 100, (dst, 9))
    time.sleep(0.05)
PY
read -r g1b late1b <<<"$(gaps h1-$$)"
read -r g2b late2b <<<"$(gaps h2-$$)"
g1=$((g1b - g1)) late1=$((late1b - late1)) g2=$((g2b - g2)) late2=$((late2b - late2))
drops=$(( $(backlog_drops) - drops ))
# A gap for a frame sent to the other host is never filled: its frame
# never comes.  One given up because a stalled CPU held its frame past
# the hold bound is, late; one the kernel dropped is lost, rightly (on
# the debug kernel: 74 and 79 gaps): those count apart.
never1=$((g1 > late1 ? g1 - late1 : 0)) never2=$((g2 > late2 ? g2 - late2 : 0))
log "gaps given up during 64 flows to each of hosts 1 and 2: host 1 $g1 ($late1 frames came late)," \
    "host 2 $g2 ($late2 late); frames the kernel dropped on its backlogs meanwhile: $drops"
check "fseq: a host's flows wait for no frame sent to the other ($never1, $never2 gaps given up whose frames never came, under 50 more than the $drops dropped)" \
	test "$never1" -lt $((50 + drops)) -a "$never2" -lt $((50 + drops))
# --- a link cut towards one host is left for that host alone ---
# Host 2's port on link 3 stops passing frames to it (its cable on the
# switch side, say) while TCP streams run to hosts 1 and 2; host 1 still
# gets all six links.  Host 2 reports link 3 lost, host 1 reports it
# delivering: the gateway leaves it for host 2's next hop alone, and
# probes it there.  Before, the gateway believed host 1 and sent host 2's
# share of its stream into the cut (host 2: 36 Mbit/s, seconds at 0,
# against 93 now), or, when host 1 had not reported lately, took the link
# from every host, and it flapped.  (10 ports at 20 Mbit/s: the links,
# not the CPU, set the pace.)
for h in 1 2; do
	for i in $(seq 1 $N); do
		echo "qdisc replace dev sh${h}x$i root netem rate 20mbit limit 100"
	done
done | tc -n $SW -batch -
host_rx() {	# host_rx NS -- bytes NS's master received on each link
	tc -n "$1" -s -j qdisc show dev stripe0 |
		jq -r '[.[0].links[].rx_bytes] | map(tostring) | join(" ")'
}
g3_left() {	# times the gateway took link 3 out of rotation for all
	tc -n $GW -s -j qdisc show dev stripe0 |
		jq -r '.[0].links[] | select(.name == "g3") | .left // 0'
}
for h in 1 2; do
	ip netns exec "h$h-$$" iperf3 -s -1 -D
	wait_for listening "h$h-$$" 5201
done
# (bounded: on the debug kernel one such run once never ended)
for h in 1 2; do
	timeout 30 ip netns exec $GW iperf3 -c "10.9.0.1$h" -t 8 -J >"$OUT/cut-$h.json" 2>&1 &
done
sleep 2
peer_left0=$(master_field $GW tx_peer_left)
tc -n $SW qdisc change dev sh2x3 root netem rate 20mbit limit 100 loss 100%
sleep 1
rx0=$(host_rx h1-$$) left0=$(g3_left)
wait
rx1=$(host_rx h1-$$) left1=$(g3_left)
peer_left1=$(master_field $GW tx_peer_left)
# The streams are over and the cut stays: a second on, host 2 is a peer
# the gateway no longer talks to (its reports are not taken), so it is
# probed no more.  Before, the link stayed left for it and it was probed
# on link 3 every 8 marker intervals for as long as the gateway
# remembered sending it data there (a host not talked to heard them).
g3_markers() {
	tc -n $GW -s -j qdisc show dev stripe0 |
		jq -r '.[0].links[] | select(.name == "g3") | .tx_markers // 0'
}
sleep 1.5
probes0=$(g3_markers)
sleep 1
probes=$(( $(g3_markers) - probes0 ))
tc -n $SW qdisc change dev sh2x3 root netem rate 20mbit limit 100
# Host 1's bytes on link 3 in the last 5 s, in % of its other links' mean
share3=$(python3 -c '
import sys
a = [int(x) for x in sys.argv[1].split()]
b = [int(x) for x in sys.argv[2].split()]
d = [y - x for x, y in zip(a, b)]
rest = (sum(d) - d[2]) / 5
print(int(100 * d[2] / rest) if rest > 0 else 0)' "$rx0" "$rx1")
rates=$(python3 -c '
import json, sys
for f in sys.argv[1:]:
    iv = json.load(open(f))["intervals"]
    r = [i["sum"]["bits_per_second"] / 1e6 for i in iv]
    print("%.0f %.0f" % (sum(r) / len(r), min(r[3:] or [0])), end=" ")' \
	"$OUT/cut-1.json" "$OUT/cut-2.json" 2>/dev/null)
read -r mean1 _ mean2 min2 <<<"${rates:-0 0 0 0}"
for h in 1 2; do	# what iperf3 said when it gave no figures
	jq -e .intervals "$OUT/cut-$h.json" >/dev/null 2>&1 ||
		log "host $h's stream: $(tail -c 300 "$OUT/cut-$h.json" | tr '\n' ' ')"
done
log "link 3 cut towards host 2: host 1's link 3 carried $share3 % of its other links' mean;" \
    "streams host 1 $mean1 Mbit/s, host 2 $mean2 (its slowest second after the cut $min2);" \
    "gw left link 3 for all $((left1 - left0)) times, for one host $((peer_left1 - peer_left0))"
check "cut towards host 2: the gateway leaves link 3 for host 2 alone ($((peer_left1 - peer_left0)) times)" \
	test "$((peer_left1 - peer_left0))" -ge 1
check "cut towards host 2: host 1 keeps its share on link 3 ($share3 % of its other links', at least 70 %)" \
	test "$share3" -ge 70
check "cut towards host 2: once it gets no data, the gateway stops probing it ($probes frames on link 3 in a second, under 10)" \
	test "$probes" -lt 10
# (On the debug kernel both streams crawl: a second says little there.)
check_timing "cut towards host 2: host 2's stream runs on the other five (slowest second $min2 Mbit/s, host 1's mean $mean1)" \
	test "$mean1" -gt 0 -a "$((min2 * 4))" -ge "$mean1"
# --- a new peer while made-up senders flood a host ---
# Host 3 floods host 1's link 1 with data frames, each under a new sender
# id from a new source address, 1000 a second for 6 s (the issue's 1000
# made-up ids a second): host 1's table of 1024 fills, and the flood then
# takes the places of its own senders as they go quiet.  Three seconds
# in, a fifth host comes up on the six segments (a new master, a sender
# id nobody heard) and starts a TCP stream to host 1: from a second on,
# host 1 must keep order for it (a place of its own), not send its frames
# up unordered (rx_no_state) for want of one.  The flood's own frames
# count there too, a tenth of the stream's at most; tc -s shows the peers
# that fit its message, not one among a thousand.  With no place given
# up to a new sender (places kept 10 s), 26762 of its 37412 went up
# unordered.
h1_mac=$(ip -n h1-$$ -j link show dev h1 | jq -r '.[0].address')
ip netns exec h3-$$ python3 "$TOP/tests/inject.py" senders h1 "$h1_mac" \
	--first 100000 --count 6000 &
flood=$!
ip netns exec h1-$$ iperf3 -s -1 -D
wait_for listening h1-$$ 5201
sleep 3
senders=$(master_field h1-$$ rx_senders)
tb_host 5 $N br
tc -n h5-$$ qdisc change dev stripe0 root stripe reorder on
timeout 20 ip netns exec h5-$$ iperf3 -c 10.9.0.11 -t 3 >/dev/null 2>&1 &
stream=$!
sleep 1
sent0=$(master_field h5-$$ tx_packets) nstate0=$(master_field h1-$$ rx_no_state)
wait $stream
sent=$(( $(master_field h5-$$ tx_packets) - sent0 ))
nstate=$(( $(master_field h1-$$ rx_no_state) - nstate0 ))
wait $flood
log "a new peer during 1000 made-up senders a second: host 1 kept $senders senders when host 5" \
    "came up; from a second into its stream, host 5 sent $sent frames, host 1 sent $nstate up unordered"
check "made-up senders: a new peer gets a place within a second ($nstate frames up unordered from a second in, under a tenth of its $sent)" \
	test "$sent" -gt 0 -a $((nstate * 10)) -lt "$sent"
tap_done
