#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Issue 25, a neighbour on a link must not steer the bundle.  A third host,
# fx, on link 2's segment (a veth into sw's bridge br2, no stripe of its
# own) forges stripe frames from its own MAC address, about 200 a second,
# beside one TCP stream gw -> bl over six 100 Mbit links (reorder on):
#  a) feedback under a made-up reporter id to gw's link 2, naming gw's
#     sender id, calling every other link LOST with 2 s of queueing: gw
#     takes no more reports than bl sent and counts the forged ones as
#     dropped (their reporter sends gw no data, gw sends fx none), its
#     links stay in rotation, and the goodput stays >= 80 % of the same
#     stream beside the same frames under an EtherType stripe never sees;
#  b) link 2 black-holed from gw to bl, markers under a made-up sender id
#     to bl's link 2: the link stays out of gw's rotation (no flap), the
#     goodput is that of the black hole beside the same frames under
#     another EtherType (within 20 %), and bl keeps no state for that
#     sender;
#  c) the same with gw's own sender id: bl refuses the markers for their
#     source address (rx_wrong_addr), nothing else moves;
#  d) every kind of forged frame (reports, markers, data, as gw and under
#     made-up ids), about 10 000 a second (issue 11's forger): gw's links
#     stay in rotation, bl refuses what comes as gw, and the goodput stays
#     within the noise of the same frames under another EtherType.
# Why: feedback and markers decide which links carry the bundle.  Our
# sender id is in every frame we send, so before the trust fixes (review
# K1-K3) one forged report from any host on a segment took links out of
# rotation, and markers undid a failover.
#
# fx learns the masters' sender ids from tc -s -j (master.sender_id) and the
# link addresses from ip link, not by sniffing: sw's bridge learned the
# masters' addresses at once, so their unicast frames (data, markers to a
# peer, feedback) never reach fx's port; only a left link's broadcast
# probes and multicast would, and not reliably.  Wire link ids: a link
# takes the first free id as it joins, so g$i is link i-1 (linkid.sh).
#
# The black hole: link 2's gw side goes through a second bridge in sw
# (g2 - sg2 in br2g - x2g == x2b in br2 - sb2 - b2), and netem loss 100 %
# on x2g drops what gw sends on link 2 and nothing else.  netem on sb2
# (towards bl) would drop fx's frames to bl too, and the debug kernel has
# no ingress filters (clsact, matchall) to drop at sg2 instead.
source "$(dirname "$0")/lib.sh"
require_vm
stripe_load || exit 1
tb_setup 6 9000
for i in 1 2 3 4 5 6; do tb_shape "$i" 100mbit; done
tb_stripe 6
for ns in $GW $BL; do
	tc -n "$ns" qdisc change dev stripe0 root stripe reorder on
done
FX=fx-$$
OUT=$TOP/build/trust.$$
mkdir -p "$TOP/build"
trust_cleanup() {
	local pids
	pids=$(ip netns pids "$FX" 2>/dev/null)
	# shellcheck disable=SC2086
	[ -n "$pids" ] && kill $pids 2>/dev/null
	ip netns del "$FX" 2>/dev/null
	rm -f "$OUT".*
	tb_cleanup
}
trap trust_cleanup EXIT

# --- link 2's gw side through br2g, where the black hole goes ---
ip -n "$SW" link add br2g type bridge
ip -n "$SW" link set br2g mtu 9000 up
ip -n "$SW" link add x2g mtu 9000 type veth peer x2b mtu 9000
ip -n "$SW" link set sg2 nomaster
ip -n "$SW" link set sg2 master br2g up
ip -n "$SW" link set x2g master br2g up
ip -n "$SW" link set x2b master br2 up
for dev in x2g x2b; do	# as tb_offloads: NAPI (GRO) keeps a veth FIFO
	ip netns exec "$SW" ethtool -K "$dev" gro on tso off >/dev/null
done

# --- fx: one veth on link 2's segment, no stripe, no addresses ---
ip netns add "$FX"
ip -n "$FX" link set lo up
ip netns exec "$FX" sysctl -qw net.ipv6.conf.all.disable_ipv6=1 \
	net.ipv6.conf.default.disable_ipv6=1
ip link add fx0 netns "$FX" mtu 9000 type veth peer sfx netns "$SW" mtu 9000
ip -n "$SW" link set sfx master br2 up
ip -n "$FX" link set fx0 up

check "ping over reorder on (link 2 spliced, fx on its segment)" \
	wait_for ip netns exec "$GW" ping -c 1 -W 1 10.9.0.2
ip netns exec "$GW" ping -q -c 30 -s 8000 -i 0.02 -W 1 10.9.0.2 >/dev/null

# --- helpers ---
# The counters of frames a master refuses, by reason
DROPS="rx_feedback_unknown rx_feedback_other rx_wrong_addr rx_feedback_unsent rx_malformed"
counters() {	# counters NS -- the DROPS counters of NS's master, in order
	# shellcheck disable=SC2086
	tc -n "$1" -s -j qdisc show dev stripe0 |
		jq -r '.[0].master as $m |
			[$ARGS.positional[] | $m[.] // 0 | tostring] |
			join(" ")' --args $DROPS
}
delta() {	# delta BEFORE AFTER NAME -- how much counter NAME grew
	local -a b a n
	local i
	read -ra b <<<"$1"
	read -ra a <<<"$2"
	read -ra n <<<"$DROPS"
	for i in "${!n[@]}"; do
		if [ "${n[i]}" = "$3" ]; then
			echo $(( ${a[i]:-0} - ${b[i]:-0} ))
			return
		fi
	done
	echo 0
}
drops_log() {	# drops_log BEFORE AFTER -- each counter's growth, for log
	local c out=""
	for c in $DROPS; do
		out="$out ${c#rx_} +$(delta "$1" "$2" "$c")"
	done
	echo "${out# }"
}
left_all() { each_field "$1" links left; }	# left_all NS -- in link order
peer_ids() { each_field "$1" peers id; }	# the ids NS's master heard lately
has_id() { grep -qw -- "$2" <<<"$1"; }	# has_id LIST WORD
lacks_id() { ! has_id "$1" "$2"; }
iperf_mbit() {	# iperf_mbit SECS -- a TCP stream gw -> bl, Mbit/s received
	ip netns exec "$BL" iperf3 -s -1 -D
	wait_for listening "$BL" 5201
	ip netns exec "$GW" iperf3 -c 10.9.0.2 -t "$1" -J 2>/dev/null |
		jq '.end.sum_received.bits_per_second / 1e6 | floor' 2>/dev/null
}

gw_id=$(master_field "$GW" sender_id)
bl_id=$(master_field "$BL" sender_id)
g2mac=$(ip -n "$GW" link show g2 | awk '/link\/ether/ {print $2}')
b2mac=$(ip -n "$BL" link show b2 | awk '/link\/ether/ {print $2}')
L2=1	# g2's id on the wire: the second link to join
NL=6
FRESH_A=$(( 0x7E570000 + ($$ & 0xffff) ))	# made-up ids, not gw's or bl's
FRESH_B=$(( 0x7E580000 + ($$ & 0xffff) ))
log "gw sender $gw_id, g2 $g2mac; bl sender $bl_id, b2 $b2mac; fx forges as $FRESH_A (feedback), $FRESH_B (markers)"
check "fx knows both masters' ids and link 2's addresses" \
	test -n "$gw_id" -a -n "$bl_id" -a -n "$g2mac" -a -n "$b2mac" -a \
	"$gw_id" != "$FRESH_A" -a "$gw_id" != "$FRESH_B" -a \
	"$bl_id" != "$FRESH_A" -a "$bl_id" != "$FRESH_B"

# forge MODE DST SENDER PEER SECS [UNTIL] -- fx sends forged stripe frames
# to DST on link 2's segment, 200 a second for SECS (and not past UNTIL,
# seconds since the epoch, if given); prints how many.
#  feedback: header flags FEEDBACK, sender SENDER, every other field 0 but
#    tstamp (the kernel refuses a feedback header with proto, flow, link,
#    gseq or fseq set); body: peer PEER, n = NL, then per wire link id
#    0..NL-1 a report: link L2 DELIVERING (age 0, frames and bytes rising,
#    queue 0, lost 0), every other LOST (age 0xffff ms, no frames, queue
#    2 s, lost rising by 64 a report)
#  marker: header alone, flags MARKER, sender SENDER, link L2, lseq and
#    gseq rising (gseq from 2^30), proto, flow, fseq 0 (PEER unused)
# With FORGE_ETYPE=0x88B6 the same frames go under an EtherType that
# stripe never sees: the reference, so that what fx's frames cost the
# guest's CPU (a Python loop, under TCG) is not counted against stripe.
forge() {
	ip netns exec "$FX" python3 - fx0 "$2" "$1" "$3" "$4" "$L2" "$NL" 200 \
		"$5" "${6:-0}" "${FORGE_ETYPE:-0x88B5}" <<'PY'
import socket, struct, sys, time
ifname, dst, mode = sys.argv[1], bytes.fromhex(sys.argv[2].replace(":", "")), sys.argv[3]
sender, peer, link, nlinks = (int(x) for x in sys.argv[4:8])
rate, secs, until = float(sys.argv[8]), float(sys.argv[9]), float(sys.argv[10])
etype = int(sys.argv[11], 16)
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((ifname, 0))
src = s.getsockname()[4]
eth = dst + src + struct.pack("!H", etype)
# header (version 4): version flags proto sender flow link lseq gseq fseq
# tstamp; feedback body: peer n reserved[3]; link report: link state age_ms
# frames bytes queue_us lost
HDR, FB, REP = "!BBHIHBBIII", "!IB3x", "!BBHIIII"
V, F_MARKER, F_FEEDBACK = 4, 0x01, 0x02
DELIVERING, LOST = 1, 2
assert struct.calcsize(HDR) == 24 and struct.calcsize(FB) == 8
assert struct.calcsize(REP) == 20
def now_us():
    return (time.time_ns() // 1000) & 0xFFFFFFFF
t0 = time.monotonic()
sent = 0
while time.monotonic() - t0 < secs and (not until or time.time() < until):
    if mode == "feedback":
        hdr = struct.pack(HDR, V, F_FEEDBACK, 0, sender, 0, 0, 0, 0, 0, now_us())
        body = struct.pack(FB, peer, nlinks)
        for l in range(nlinks):
            if l == link:
                frames = 1000 + 10 * sent
                body += struct.pack(REP, l, DELIVERING, 0, frames & 0xFFFFFFFF,
                                    (frames * 8000) & 0xFFFFFFFF, 0, 0)
            else:
                body += struct.pack(REP, l, LOST, 0xFFFF, 0, 0, 2000000,
                                    (64 * sent) & 0xFFFFFFFF)
        frame = eth + hdr + body
    else:
        frame = eth + struct.pack(HDR, V, F_MARKER, 0, sender, 0, link,
                                  sent & 0xFF, (1 << 30) + sent, 0, now_us())
    s.send(frame)
    sent += 1
    time.sleep(max(0, t0 + sent / rate - time.monotonic()))
print(sent)
PY
}
# links_out NS SECS -- each second for SECS, how many of NS's links are
# out of rotation (flag lost: the peer's reports)
links_out() {
	local i
	for ((i = 0; i < $2; i++)); do
		sleep 1
		links_flagged "$1" lost | wc -w
	done | tr '\n' ' '
}
# forged_stream SECS MODE DST SENDER PEER [UNTIL] -- a stream of SECS with
# fx forging throughout: MBIT and SENT; OUT_GW, gw's links out of rotation
# each second of it (links_out)
forged_stream() {
	local secs=$1 fpid opid
	shift
	forge "$1" "$2" "$3" "$4" $(( secs + 1 )) "${5:-0}" >"$OUT.sent" &
	fpid=$!
	links_out "$GW" $(( secs - 1 )) >"$OUT.out" &
	opid=$!
	MBIT=$(iperf_mbit "$secs")
	wait "$fpid" "$opid"
	OUT_GW=$(cat "$OUT.out" 2>/dev/null)
	SENT=$(cat "$OUT.sent" 2>/dev/null)
	SENT=${SENT:-0}
}

# --- a) forged feedback: every link but link 2 lost, 2 s of queue ---
FORGE_ETYPE=0x88B6 forged_stream 8 feedback "$g2mac" "$FRESH_A" "$gw_id"
clean=$MBIT ref_out=$OUT_GW
log "a) 8 s stream beside fx's frames under another EtherType ($SENT): ${clean:-none} Mbit/s"
check "a) a stream runs beside frames stripe never sees (the reference)" \
	test "${clean:-0}" -gt 0
gw0=$(counters "$GW") bl0=$(counters "$BL")
lgw0=$(left_all "$GW") lbl0=$(left_all "$BL")
fb0=$(master_field "$GW" rx_feedback) bltx0=$(master_field "$BL" tx_feedback)
forged_stream 8 feedback "$g2mac" "$FRESH_A" "$gw_id"
gw1=$(counters "$GW") bl1=$(counters "$BL")
lgw1=$(left_all "$GW") lbl1=$(left_all "$BL")
gw_peers=$(peer_ids "$GW")
fb=$(( $(master_field "$GW" rx_feedback) - fb0 ))
bltx=$(( $(master_field "$BL" tx_feedback) - bltx0 ))
dropped=0
for c in rx_feedback_unknown rx_feedback_other rx_wrong_addr rx_feedback_unsent; do
	dropped=$(( dropped + $(delta "$gw0" "$gw1" "$c") ))
done
log "a) with $SENT forged reports to gw: ${MBIT:-none} Mbit/s (clean ${clean:-none});" \
    "gw took $fb reports (bl sent $bltx); gw dropped: $(drops_log "$gw0" "$gw1"); bl: $(drops_log "$bl0" "$bl1")"
log "a) links' left counters gw $lgw0 -> $lgw1, bl $lbl0 -> $lbl1;" \
    "gw's link flags now: $(for i in 1 2 3 4 5 6; do printf 'g%s[%s] ' "$i" "$(link_field "$GW" "g$i" flags)"; done)"
check "a) fx sent its forged reports (about 200/s: $SENT)" test "$SENT" -ge 800
check "a) gw takes no more reports than bl sent ($fb of $bltx)" \
	test "$fb" -le "$bltx"
check "a) gw counts them as dropped ($dropped of $SENT: unknown, other, wrong_addr, unsent)" \
	test $(( dropped * 10 )) -ge $(( SENT * 9 ))
# Believed, the forger's reports (five links LOST, 200 a second) would hold
# five links out for the whole run.  A link may still leave for a moment
# on a report of bl's (a busy receiver's false LOST, issue 12: on the debug
# kernel two or three at once, beside frames stripe never sees too): most
# seconds, at most one is out.
med_out=$(tr ' ' '\n' <<<"$OUT_GW" | grep . | sort -n |
	awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
check "a) gw's links stay in rotation while fx forges (out each second: $OUT_GW; beside frames stripe never sees: $ref_out)" \
	test -n "$med_out" -a "${med_out:-9}" -le 1
check "a) the made-up reporter got no state at gw (peers: $gw_peers)" \
	lacks_id "$gw_peers" "$FRESH_A"
# Two 8 s streams of one boot differ by up to a fifth here (idle host,
# 2026-12-06: forged against reference 0.89 to 1.18): the bar is what
# that noise leaves.  What believed frames would do, the checks above see.
check_timing "a) goodput with the forger >= 80 % of beside frames stripe never sees (${MBIT:-none} vs ${clean:-none})" \
	at_least "${MBIT:-0}" "${clean:-0}" 80

# --- b), c) link 2 black-holed from gw to bl ---
# cut: what gw sends on link 2 is lost (bl's frames to gw and fx's to bl
# pass); gw leaves the link on bl's reports.  heal: gw takes it back.
cut() {
	tc -n "$SW" qdisc replace dev x2g root netem loss 100% limit 10000
	CUT_AT=$(date +%s)
}
heal() { tc -n "$SW" qdisc del dev x2g root; }
# g2_lost -- gw's g2 is out of rotation on bl's reports (after traffic)
g2_lost() {
	ip netns exec "$GW" ping -q -c 10 -s 8000 -i 0.01 -W 1 10.9.0.2 >/dev/null
	has_id "$(link_field "$GW" g2 flags)" lost
}
g2_back() { ! g2_lost; }
# hole NAME SENDER -- a 6 s stream with link 2 cut, fx forging markers
# to bl's b2 as SENDER (under FORGE_ETYPE): MBIT, SENT; gw's g2 left/back counters
# once it left and after the stream (L0 B0 L1 B1) and its flags then
# (FLAGS); bl's drop counters from before the cut and after the stream
# (C0 C1) and its peers then (PEERS)
hole() {
	local when="" fpid=""
	C0=$(counters "$BL")
	wait_for g2_back
	cut
	# As gw (c), from the cut on, and done before bl may take fx's
	# address for gw's: it believes a sender's new address on a link
	# where the old one was silent for 10 s (STRIPE_RX_REBIND_NS), and gw
	# was last heard on b2 before the cut (g2_back's pings, then a read
	# of tc that takes seconds on the debug kernel: there, with the forger
	# until 8 s after the cut, bl counted only half of its frames wrong,
	# most likely the rebind, issue 11's gap).  6 s
	# after the cut the forger stops (waiting for g2 to leave takes
	# seconds on the debug kernel, so it starts at the cut).  A
	# made-up sender (b) has no address to take: it forges throughout
	# the stream.
	if [ "$2" = "$gw_id" ]; then
		forge marker "$b2mac" "$2" 0 9 $(( CUT_AT + 6 )) >"$OUT.sent" &
		fpid=$!
	fi
	wait_for g2_lost
	L0=$(link_field "$GW" g2 left) B0=$(link_field "$GW" g2 back)
	if [ -n "$fpid" ]; then
		MBIT=$(iperf_mbit 6)
		wait "$fpid"
		SENT=$(cat "$OUT.sent" 2>/dev/null)
		SENT=${SENT:-0}
		when=" (from the cut to 6 s after it)"
	else
		forged_stream 6 marker "$b2mac" "$2" 0
	fi
	C1=$(counters "$BL")
	PEERS=$(peer_ids "$BL")
	L1=$(link_field "$GW" g2 left) B1=$(link_field "$GW" g2 back)
	FLAGS=$(link_field "$GW" g2 flags)
	log "$1: ${MBIT:-none} Mbit/s, $SENT forged markers$when;" \
	    "gw's g2 left $L0 -> $L1, back $B0 -> $B1, flags [$FLAGS];" \
	    "bl dropped: $(drops_log "$C0" "$C1")"
	heal
}
# stays_out -- after hole: g2 left before the stream, and stayed out
stays_out() {
	has_id "$FLAGS" lost && [ -n "$L0" ] && [ "$L0" = "$L1" ] &&
		[ -n "$B0" ] && [ "$B0" = "$B1" ] && [ "${L0:-0}" -gt 0 ]
}

FORGE_ETYPE=0x88B6 hole "b) link 2 black-holed, fx's markers under another EtherType" "$FRESH_B"
hole_mbit=$MBIT
check "b) control: the black hole takes link 2 out of gw's rotation, for good (left $L0 -> $L1, back $B0 -> $B1, [$FLAGS])" \
	stays_out
check "b) control: the stream runs on the other five links" \
	test "${hole_mbit:-0}" -gt 0

hole "b) link 2 black-holed, fx's markers as a made-up sender" "$FRESH_B"
check "b) fx sent its markers to bl's b2 (about 200/s: $SENT)" \
	test "$SENT" -ge 500
check "b) link 2 stays out of gw's rotation, no flap (left $L0 -> $L1, back $B0 -> $B1, [$FLAGS])" \
	stays_out
check "b) bl keeps no state for the made-up sender (peers: $PEERS)" \
	lacks_id "$PEERS" "$FRESH_B"
check_timing "b) goodput with the forger >= 80 % of the black hole's beside frames stripe never sees (${MBIT:-none} vs ${hole_mbit:-none})" \
	at_least "${MBIT:-0}" "${hole_mbit:-0}" 80

hole "c) link 2 black-holed, fx's markers as gw ($gw_id)" "$gw_id"
wrong=$(delta "$C0" "$C1" rx_wrong_addr)
# Fewer than in b: the forger stops 6 s after the cut (see hole); in those
# 6 s the debug kernel's Python sent 450, an idle distro one 981.
check "c) fx sent its markers to bl's b2 ($SENT)" test "$SENT" -ge 200
check "c) bl refuses them for their source address (wrong_addr +$wrong of $SENT)" \
	test $(( wrong * 10 )) -ge $(( SENT * 9 ))
check "c) link 2 stays out of gw's rotation, no flap (left $L0 -> $L1, back $B0 -> $B1, [$FLAGS])" \
	stays_out
check_timing "c) goodput with the forger >= 80 % of the black hole's beside frames stripe never sees (${MBIT:-none} vs ${hole_mbit:-none})" \
	at_least "${MBIT:-0}" "${hole_mbit:-0}" 80

check "link 2 comes back into gw's rotation once healed" wait_for g2_back

# --- d) every kind of forged frame, 10 000 a second ---
# The issue's forger: fx sends, in turn, a report to gw's g2 under a
# made-up reporter calling five links LOST; a report to bl's b2 as gw; a
# marker to b2 under a made-up id and one as gw; a data frame to b2 as gw
# with an fseq far ahead; and one under a new made-up id each time (bl's
# table fills with them).  Frames built once, 1024 of them, sent round
# and round, 10 000 a second (what the VM's Python achieves is logged and
# checked).  Against the same frames under another EtherType: gw's links
# stay in rotation, bl refuses the frames as gw for their address, and
# the stream keeps its goodput within the noise of two 8 s streams.
flood_mix() {	# flood_mix SECS ETHERTYPE -- prints how many were sent
	ip netns exec "$FX" python3 - fx0 "$g2mac" "$b2mac" "$gw_id" "$bl_id" \
		"$FRESH_A" "$FRESH_B" "$L2" "$NL" 10000 "$1" "$2" <<'PY'
import random, socket, struct, sys, time
ifname = sys.argv[1]
g2, b2 = (bytes.fromhex(a.replace(":", "")) for a in sys.argv[2:4])
gw, bl, fresh_a, fresh_b, link, nlinks = (int(x) for x in sys.argv[4:10])
rate, secs, etype = float(sys.argv[10]), float(sys.argv[11]), int(sys.argv[12], 16)
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
s.bind((ifname, 0))
src = s.getsockname()[4]
HDR, FB, REP = "!BBHIHBBIII", "!IB3x", "!BBHIIII"
V, F_MARKER, F_FEEDBACK = 4, 0x01, 0x02
DELIVERING, LOST = 1, 2
IP = bytes.fromhex("4500001c000000004011000000000000000000000000000000000000")
rnd = random.Random(11)
def eth(dst):
    return dst + src + struct.pack("!H", etype)
def report(sender, peer, k):
    body = struct.pack(FB, peer, nlinks)
    for l in range(nlinks):
        if l == link:
            body += struct.pack(REP, l, DELIVERING, 0, 1000 + 10 * k, 8000 * k, 0, 0)
        else:
            body += struct.pack(REP, l, LOST, 0xFFFF, 0, 0, 2000000, 64 * k)
    return struct.pack(HDR, V, F_FEEDBACK, 0, sender, 0, 0, 0, 0, 0, k) + body
frames = []
for k in range(1024):
    kind = k % 6
    if kind == 0:
        f = eth(g2) + report(fresh_a, gw, k)
    elif kind == 1:
        f = eth(b2) + report(gw, bl, k)
    elif kind in (2, 3):
        f = eth(b2) + struct.pack(HDR, V, F_MARKER, 0, fresh_b if kind == 2 else gw,
                                  0, link, k & 0xFF, (1 << 30) + k, 0, k)
    elif kind == 4:
        f = eth(b2) + struct.pack(HDR, V, 0, 0x0800, gw, rnd.randrange(256), link,
                                  k & 0xFF, (1 << 30) + k, (1 << 29) + k, k) + IP
    else:
        f = eth(b2) + struct.pack(HDR, V, 0, 0x0800, 0x7E600000 + k, rnd.randrange(256),
                                  link, 0, rnd.getrandbits(32), rnd.getrandbits(32), k) + IP
    frames.append(f)
t0 = time.monotonic()
sent = 0
while time.monotonic() - t0 < secs:
    for _ in range(50):
        try:
            s.send(frames[sent & 1023])
        except OSError:
            pass
        sent += 1
    time.sleep(max(0, t0 + sent / rate - time.monotonic()))
print(sent)
PY
}
# mix_stream ETHERTYPE -- an 8 s stream with fx's mix throughout: MBIT,
# SENT, OUT_GW
mix_stream() {
	local fpid opid
	flood_mix 9 "$1" >"$OUT.sent" &
	fpid=$!
	links_out "$GW" 7 >"$OUT.out" &
	opid=$!
	MBIT=$(iperf_mbit 8)
	wait "$fpid" "$opid"
	OUT_GW=$(cat "$OUT.out" 2>/dev/null)
	SENT=$(cat "$OUT.sent" 2>/dev/null)
	SENT=${SENT:-0}
}
mix_stream 0x88B6
clean=$MBIT ref_out=$OUT_GW ref_sent=$SENT
gw0=$(counters "$GW") bl0=$(counters "$BL")
late0=$(master_field "$BL" rx_late) drops0=$(backlog_drops)
ns0=$(master_field "$BL" rx_no_state) mk0=$(master_field "$BL" rx_markers)
mix_stream 0x88B5
gw1=$(counters "$GW") bl1=$(counters "$BL")
wrong=$(delta "$bl0" "$bl1" rx_wrong_addr)
late=$(( $(master_field "$BL" rx_late) - late0 )) drops=$(( $(backlog_drops) - drops0 ))
log "d) 8 s stream beside fx's mix: ${MBIT:-none} Mbit/s ($SENT frames in 9 s);" \
    "beside the same under another EtherType ${clean:-none} ($ref_sent);" \
    "gw dropped: $(drops_log "$gw0" "$gw1"); bl: $(drops_log "$bl0" "$bl1");" \
    "bl's late frames +$late, no_state +$(( $(master_field "$BL" rx_no_state) - ns0 ))," \
    "markers taken +$(( $(master_field "$BL" rx_markers) - mk0 )); frames the kernel dropped on its backlogs: $drops"
# (Python under TCG: 9661 a second on the distro kernel, 1178 on the
# debug one, which then also drops frames on its backlogs)
check_timing "d) fx sent its mix at 5000 a second at least ($SENT in 9 s)" \
	test "$SENT" -ge 45000
# Half of the mix is frames as gw to bl: each is refused for its address,
# unless the kernel dropped it before stripe saw it
check "d) bl refuses the frames as gw for their address (wrong_addr +$wrong, of $SENT / 2; $drops dropped on backlogs)" \
	test $(( (wrong + drops) * 4 )) -ge "$SENT"
med_out=$(tr ' ' '\n' <<<"$OUT_GW" | grep . | sort -n |
	awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
check "d) gw's links stay in rotation (out each second: $OUT_GW; beside frames stripe never sees: $ref_out)" \
	test -n "$med_out" -a "${med_out:-9}" -le 1
check_timing "d) goodput with the forger >= 80 % of beside the same frames stripe never sees (${MBIT:-none} vs ${clean:-none})" \
	at_least "${MBIT:-0}" "${clean:-0}" 80
# Why links left, both masters (a busy receiver's false LOST shows here)
log "links left, by reason: $(dmesg | sed -n 's/.*: link \([a-z0-9]*\) delivers nothing to the peer (\(.*\)): left/\1 (\2)/p' |
	sort | uniq -c | tr -s ' \n' ' ')"
tap_done
