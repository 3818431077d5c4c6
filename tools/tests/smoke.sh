#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Loopback smoke test for stripe-perf: real client and server over
# 127.0.0.1 / ::1 only, on ephemeral ports. TAP output; exit 1 on failure.
#
#   tests/smoke.sh ./stripe-perf ../Documentation/stripe-perf.1

BIN=${1:-./stripe-perf}
MAN=${2:-../Documentation/stripe-perf.1}
NAME=smoke
. "$(dirname "$0")/lib.sh"

# jcheck FILE PYTHON-EXPRESSION: true if the expression holds for d = JSON
jcheck()
{
	python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)' "$1" "$2" 2>>"$T/jcheck.err"
}


# stamp: each line of stdin as it arrives, after the time and a tab
stamp()
{
	python3 -u -c 'import sys, time
for l in iter(sys.stdin.readline, ""):
    sys.stdout.write("%.3f\t%s" % (time.monotonic(), l))'
}

# reap PID: wait for a one-off server to finish its test, at most 5 s
reap()
{
	local i

	for i in $(seq 50); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.1
	done
	kill "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

# run a command; its exit code in RC, its duration in ms in ELAPSED
timed()
{
	local t0 t1

	t0=$(date +%s%N)
	"$@"
	RC=$?
	t1=$(date +%s%N)
	ELAPSED=$(((t1 - t0) / 1000000))
}

# --- flags and documentation ---------------------------------------------

"$BIN" -c 127.0.0.1 -P 0 >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 2 ] && grep -q -- '-P' "$T/err"
ok $? "bad flag value: exit 2 naming -P" "$T/err"

"$BIN" --no-such-flag >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 2 ] && grep -q -- '--no-such-flag' "$T/err"
ok $? "unknown flag: exit 2 naming it" "$T/err"

"$BIN" -h >"$T/usage"
ok $? "-h prints usage, exit 0"

# one version, the top Makefile's (review U6)
VERSION=$(sed -n 's/^VERSION *:*= *//p' "$(dirname "$0")/../../Makefile")
"$BIN" --version >"$T/version" 2>&1 &&
	[ "$(cat "$T/version")" = "stripe-perf $VERSION" ]
ok $? "--version prints the top Makefile's version ($VERSION)" "$T/version"
"$BIN" -v >"$T/version" 2>&1 &&
	[ "$(cat "$T/version")" = "stripe-perf $VERSION" ]
ok $? "-v prints the version, as iperf3's" "$T/version"

# every option of the usage text is in the man page, and back
python3 - "$T/usage" "$MAN" >"$T/opts.diff" 2>&1 <<'PY'
import re, sys
tok = re.compile(r'(?<![\w-])(--[a-z][a-z0-9-]*|-[a-zA-Z0-9])(?![\w-])')
usage = set()
for line in open(sys.argv[1]):
    m = re.match(r'\s+(-.*?)(\s{2,}|$)', line)
    if m:
        usage |= set(tok.findall(m.group(1)))
man, lines = set(), open(sys.argv[2]).read().split('\n')
for i, line in enumerate(lines[:-1]):
    if line.startswith('.TP') and lines[i + 1].startswith('.B'):
        man |= set(tok.findall(lines[i + 1].replace('\\-', '-')))
if not usage or usage != man:
    print('only in usage:', sorted(usage - man))
    print('only in man page:', sorted(man - usage))
    sys.exit(1)
PY
ok $? "usage text and man page list the same options" "$T/opts.diff"

# --- loopback runs -----------------------------------------------------------

start_server main -B 127.0.0.1 -i 0
ok $? "server listens on an ephemeral port ($PORT)" "$T/main.err"

# a second client while the first test runs is told the server is busy
"$BIN" -c 127.0.0.1 -p "$PORT" -t 2 -J >"$T/tcp.json" 2>"$T/tcp.err" &
first=$!
sleep 0.7
timed "$BIN" -c 127.0.0.1 -p "$PORT" -t 1 >"$T/busy.out" 2>"$T/busy.err"
[ $RC -eq 1 ] && grep -q busy "$T/busy.err"
ok $? "second client during a test: exit 1, 'busy'" "$T/busy.err"
wait $first
rc=$?

[ $rc -eq 0 ]
ok $? "TCP 2 s client->server: exit 0" "$T/tcp.err"

# a server's default --max-time is minutes, not a day (review U6)
"$BIN" -c 127.0.0.1 -p "$PORT" -t 590 -O 11 >"$T/long.out" 2>&1
[ $? -eq 1 ] && grep -q 'at most 600 s' "$T/long.out"
ok $? "default server: a test of more than 600 s is refused" "$T/long.out"
python3 -m json.tool "$T/tcp.json" >/dev/null 2>"$T/json.err"
ok $? "TCP -J output is valid JSON" "$T/json.err"
jcheck "$T/tcp.json" 'd["summary"]["integrity_ok"] and
	all(s["corrupt_bytes"] == 0 for s in d["summary"]["remote"]["streams"])
	and d["end"]["sum_received"]["bytes"] > 0 and
	d["end"]["sum_received"]["bytes"] == d["end"]["sum_sent"]["bytes"]'
ok $? "TCP: zero corruption, every byte sent was received" "$T/tcp.json"
jcheck "$T/tcp.json" 'd["summary"]["local"]["role"] == "sender" and
	d["summary"]["remote"]["role"] == "receiver" and
	"retransmits" in d["end"]["sum_sent"] and
	all("rtt_us" in s["tcp"] and "reord_seen" in s["tcp"]
	    for s in d["summary"]["local"]["streams"]) and
	len(d["summary"]["local"]["intervals"]) == 2 and
	len(d["summary"]["remote"]["intervals"]) == 2'
ok $? "TCP: both sides, TCP_INFO fields and 2 intervals reported" \
	"$T/tcp.json"
jcheck "$T/tcp.json" 'd["start"]["version"] == "stripe-perf '"$VERSION"'"'
ok $? "JSON: the version is the top Makefile's" "$T/tcp.json"

"$BIN" -c 127.0.0.1 -p "$PORT" -t 2 -u -b 100M -J >"$T/udp.json" \
	2>"$T/udp.err"
ok $? "UDP 2 s at 100 Mbit/s: exit 0" "$T/udp.err"
python3 -m json.tool "$T/udp.json" >/dev/null 2>"$T/json.err"
ok $? "UDP -J output is valid JSON" "$T/json.err"
jcheck "$T/udp.json" 'd["end"]["sum"]["lost_packets"] == 0 and
	d["summary"]["udp"]["duplicates"] == 0 and
	d["summary"]["udp"]["corrupt"] == 0 and
	d["summary"]["udp"]["received"] == d["end"]["sum"]["packets"] > 0'
ok $? "UDP: zero loss, duplicates and corruption on loopback" "$T/udp.json"
jcheck "$T/udp.json" 'd["end"]["sum"]["out_of_order"] == 0 and
	d["summary"]["udp"]["reordered_ratio"] == 0 and
	d["summary"]["udp"]["owd_us"]["p99"] > 0'
ok $? "UDP: zero reordering, one-way delay measured" "$T/udp.json"
jcheck "$T/udp.json" 'abs(d["end"]["sum_received"]["bits_per_second"] -
	100e6) < 5e6'
ok $? "UDP: receiver goodput within 5% of 100 Mbit/s" "$T/udp.json"

"$BIN" -c 127.0.0.1 -p "$PORT" -t 1 -R -P 2 -J >"$T/rev.json" \
	2>"$T/rev.err" &&
	jcheck "$T/rev.json" 'd["summary"]["integrity_ok"] and
		d["summary"]["local"]["role"] == "receiver" and
		len(d["summary"]["local"]["streams"]) == 2'
ok $? "TCP -R -P 2: server sends, 2 streams intact" "$T/rev.err"

"$BIN" -c 127.0.0.1 -p "$PORT" -t 1 -R -u -b 50M -J >"$T/revu.json" \
	2>"$T/revu.err" &&
	jcheck "$T/revu.json" 'd["end"]["sum"]["lost_packets"] == 0 and
		d["summary"]["integrity_ok"]'
ok $? "UDP -R: no loss, intact" "$T/revu.err"

# iperf3's -C, -w, --logfile, --timestamps (issue 15)
"$BIN" -c 127.0.0.1 -p "$PORT" -t 0.5 -C reno -w 256K -J >"$T/cc.json" \
	2>"$T/cc.err" &&
	jcheck "$T/cc.json" 'd["end"]["sender_tcp_congestion"] == "reno" and
		d["end"]["receiver_tcp_congestion"] == "reno"'
ok $? "-C reno -w 256K: both ends ran reno" "$T/cc.err"
"$BIN" -c 127.0.0.1 -p "$PORT" -t 0.5 -C nosuchcc >"$T/cc2.out" 2>&1
[ $? -eq 1 ] && grep -q "congestion control 'nosuchcc'" "$T/cc2.out"
ok $? "-C with an unknown algorithm: exit 1, says which" "$T/cc2.out"
"$BIN" -c 127.0.0.1 -p "$PORT" -t 0.5 --logfile "$T/log.txt" \
	--timestamps='[%Y] ' >"$T/log.out" 2>&1
[ $? -eq 0 ] && [ ! -s "$T/log.out" ] &&
	grep -q "^\[20[0-9][0-9]\] Connecting to host" "$T/log.txt" &&
	! grep -qv '^\[20[0-9][0-9]\] ' "$T/log.txt"
ok $? "--logfile gets the output, --timestamps starts every line" \
	"$T/log.txt"

# iperf3's -O and --bidir (issue 15): the omitted second runs and is
# reported as omitted, and the results start after it
"$BIN" -c 127.0.0.1 -p "$PORT" -t 1 -O 1 -i 0.5 -J >"$T/omit.json" \
	2>"$T/omit.err" &&
	jcheck "$T/omit.json" 'd["start"]["test_start"]["omit"] == 1 and
		[i["sum"]["omitted"] for i in d["intervals"]] ==
		[True, True, False, False] and
		d["intervals"][2]["sum"]["start"] == 0 and
		0.9 < d["end"]["sum_sent"]["seconds"] < 1.1 and
		sum(i["sum"]["bytes"] for i in d["intervals"][2:]) ==
		d["end"]["sum_sent"]["bytes"] > 0 and
		d["summary"]["integrity_ok"]'
ok $? "TCP -O 1 -t 1: 2 omitted intervals, then 1 s of results" \
	"$T/omit.json"
"$BIN" -c 127.0.0.1 -p "$PORT" -t 1 -O 1 -u -b 50M -J >"$T/omitu.json" \
	2>"$T/omitu.err" &&
	jcheck "$T/omitu.json" 'd["end"]["sum"]["lost_packets"] == 0 and
		d["summary"]["udp"]["received"] ==
		d["end"]["sum"]["packets"] > 0 and
		abs(d["end"]["sum_received"]["bytes"] * 8 - 50e6) < 5e6 and
		d["intervals"][0]["sum"]["omitted"] and
		not d["intervals"][-1]["sum"]["omitted"]'
ok $? "UDP -O 1 -t 1: one second counted, none lost" "$T/omitu.json"
"$BIN" -c 127.0.0.1 -p "$PORT" -t 1 --bidir -P 2 -J >"$T/bidir.json" \
	2>"$T/bidir.err" &&
	jcheck "$T/bidir.json" 'd["start"]["test_start"]["bidir"] == 1 and
		[(s["sender"]["socket"], s["sender"]["sender"])
		 for s in d["end"]["streams"]] ==
		[(0, True), (1, True), (2, False), (3, False)] and
		all(d["end"][k]["bytes"] > 0 for k in ("sum_sent",
		    "sum_received", "sum_sent_bidir_reverse",
		    "sum_received_bidir_reverse")) and
		not d["end"]["sum_sent_bidir_reverse"]["sender"] and
		all("sum_bidir_reverse" in i for i in d["intervals"]) and
		d["summary"]["integrity_ok"] and
		d["summary"]["bidir_reverse"]["integrity_ok"] and
		d["summary"]["local"]["role"] == "sender" and
		d["summary"]["bidir_reverse"]["local"]["role"] == "receiver" and
		d["summary"]["bidir_reverse"]["remote"]["role"] == "sender"'
ok $? "TCP --bidir -P 2: both directions at once, intact, iperf3's keys" \
	"$T/bidir.json"
"$BIN" -c 127.0.0.1 -p "$PORT" -t 1 --bidir -u -b 20M -J \
	>"$T/bidiru.json" 2>"$T/bidiru.err" &&
	jcheck "$T/bidiru.json" 'all(d["end"][k]["lost_packets"] == 0 and
		s["udp"]["received"] == d["end"][k]["packets"] > 0
		for k, s in (("sum", d["summary"]), ("sum_bidir_reverse",
			     d["summary"]["bidir_reverse"]))) and
		d["end"]["sum_bidir_reverse"]["packets"] > 0'
ok $? "UDP --bidir: both directions at once, none lost" "$T/bidiru.json"

# -b paces TCP as in iperf3 (review U6): the client's direction and, with
# --bidir, the server's, each near 30 Mbit/s
"$BIN" -c 127.0.0.1 -p "$PORT" -t 1 --bidir -b 30M -l 16K -J \
	>"$T/tcprate.json" 2>"$T/tcprate.err" &&
	jcheck "$T/tcprate.json" 'all(abs(d["end"][k]["bits_per_second"] -
		30e6) < 3e6 for k in ("sum_received",
		"sum_received_bidir_reverse")) and
		d["start"]["test_start"]["target_bitrate"] == 30000000 and
		d["summary"]["integrity_ok"] and
		d["summary"]["bidir_reverse"]["integrity_ok"]'
ok $? "TCP --bidir -b 30M: both directions paced to 30 Mbit/s" \
	"$T/tcprate.json"

# what tools written for iperf3 read (issue 15): a TCP and a UDP run, the
# receiving client of -R, and runs with -O and --bidir
for run in tcp udp rev revu omit omitu bidir bidiru tcprate; do
	python3 "$(dirname "$0")/iperf3_consumer.py" "$T/$run.json" \
		>"$T/i3-$run.out" 2>&1
	ok $? "iperf3 consumer reads the $run run: $(cat "$T/i3-$run.out")" \
		"$T/$run.json"
done
# iperf3's tree, key for key and value for value (review U1, U2): a 2 s
# -P 2 run beside iperf3's own, live if iperf3 is installed, else against
# the document saved from iperf3 3.12 on loopback
I3="$(dirname "$0")/iperf3-3.12-P2.json"
i3pid=
if command -v iperf3 >/dev/null 2>&1; then
	I3PORT=$(python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	iperf3 -s -1 -B 127.0.0.1 -p "$I3PORT" >"$T/i3s.out" 2>&1 &
	pids+=($!)
	for i in $(seq 50); do
		grep -q 'listening' "$T/i3s.out" 2>/dev/null && break
		sleep 0.1
	done
	iperf3 -c 127.0.0.1 -p "$I3PORT" -t 2 -P 2 -J >"$T/i3.json" \
		2>"$T/i3.err" &
	i3pid=$!
fi
"$BIN" -c 127.0.0.1 -p "$PORT" -t 2 -P 2 -J >"$T/p2.json" 2>"$T/p2.err"
if [ -n "$i3pid" ] && wait "$i3pid"; then
	I3=$T/i3.json
fi
python3 "$(dirname "$0")/iperf3_compare.py" "$T/p2.json" "$I3" \
	>"$T/cmp.out" 2>&1
ok $? "TCP -P 2 -J as iperf3's ($(basename "$I3")): $(tail -1 "$T/cmp.out")" \
	"$T/cmp.out"
# stripe-perf's own object repeats no figure of iperf3's tree (review U2)
python3 "$(dirname "$0")/summary_own.py" \
	"$T"/{tcp,udp,rev,revu,omit,omitu,bidir,bidiru,tcprate,p2}.json \
	>"$T/own.out" 2>&1
ok $? "-J summary: $(tail -1 "$T/own.out")" "$T/own.out"

# iperf3 3.17's --json-stream (review U1): a 2 s test with the events
# on both ends, each line as it happens, each data as -J's of the same
# place (the client's against tcp.json above, the server's against a -J
# server's)
MAIN=$PORT
"$BIN" -s -p 0 -B 127.0.0.1 -1 --json-stream > >(stamp >"$T/jss.ev") \
	2>"$T/jss.err" &
jss=$!
pids+=($jss)
for i in $(seq 50); do
	PORT=$(sed -n 's/^Server listening on .* port \([0-9]*\).*/\1/p' \
		"$T/jss.err")
	[ -n "$PORT" ] && break
	sleep 0.1
done
"$BIN" -c 127.0.0.1 -p "$PORT" -t 2 --json-stream 2>"$T/jsc.err" |
	stamp >"$T/jsc.ev"
rc=${PIPESTATUS[0]}
reap "$jss"
for i in $(seq 20); do
	grep -q '"event":"end"' "$T/jss.ev" && break
	sleep 0.1
done
python3 "$(dirname "$0")/iperf3_stream.py" "$T/jsc.ev" "$T/tcp.json" \
	>"$T/jsc.out" 2>&1 && [ $rc -eq 0 ]
ok $? "--json-stream client, 2 s: $(tail -1 "$T/jsc.out")" "$T/jsc.out"
start_server jsj -B 127.0.0.1 -1 -J
"$BIN" -c 127.0.0.1 -p "$PORT" -t 1 >/dev/null 2>&1
reap "${pids[-1]}"
python3 "$(dirname "$0")/iperf3_stream.py" "$T/jss.ev" "$T/jsj.out" \
	>"$T/jss.out" 2>&1
ok $? "--json-stream server: $(tail -1 "$T/jss.out")" "$T/jss.out"
python3 "$(dirname "$0")/summary_own.py" "$T/jsj.out" >"$T/own-s.out" 2>&1
ok $? "-J summary of a server: $(tail -1 "$T/own-s.out")" "$T/own-s.out"
start_server jsb -B 127.0.0.1 -1
"$BIN" -c 127.0.0.1 -p "$PORT" -t 1 -i 0.5 --bidir -P 2 --json-stream \
	2>"$T/jsb.err" | stamp >"$T/jsb.ev"
rc=${PIPESTATUS[0]}
python3 "$(dirname "$0")/iperf3_stream.py" --lead 0.25 "$T/jsb.ev" \
	"$T/bidir.json" >"$T/jsb.out" 2>&1 && [ $rc -eq 0 ]
ok $? "--json-stream --bidir -P 2: $(tail -1 "$T/jsb.out")" "$T/jsb.out"
PORT=$MAIN

"$BIN" -c 127.0.0.1 -p "$PORT" -t 1 -O 0.5 -i 0.5 --bidir \
	>"$T/bidir.out" 2>&1 && grep -q '^\[  0\]\[TX-C\].*(omitted)' \
	"$T/bidir.out" && grep -q '^\[  1\]\[RX-C\]' "$T/bidir.out" &&
	grep -q '^\[  1\]\[RX-C\].*receiver (client)' "$T/bidir.out"
ok $? "text: --bidir lines tagged as iperf3 tags them, omitted marked" \
	"$T/bidir.out"

"$BIN" -c 127.0.0.1 -p "$PORT" -t 1 -u -b 10M -i 0.5 >"$T/human.out" \
	2>"$T/human.err" && grep -q 'one-way delay' "$T/human.out" &&
	grep -q '0.50-1.00' "$T/human.out"
ok $? "human output: intervals and UDP details" "$T/human.out"

"$BIN" -c 127.0.0.1 -p "$PORT" -t 1 --stripe-dev lo -J >"$T/st.json" \
	2>"$T/st.err" && grep -q 'no stripe qdisc on lo' "$T/st.err" &&
	jcheck "$T/st.json" 'd["summary"]["stripe"]["ok"] is False'
ok $? "--stripe-dev without a stripe qdisc: warning, run continues" \
	"$T/st.err"

"$BIN" -c 127.0.0.1 -p "$PORT" -t 0.5 --stripe-dev nosuchdev0 \
	>"$T/st2.out" 2>"$T/st2.err" && grep -q 'not found' "$T/st2.err"
ok $? "--stripe-dev of a missing device: warning, run continues" \
	"$T/st2.err"

if [ "$(sysctl -n net.mptcp.enabled 2>/dev/null)" = 1 ]; then
	start_server mptcp -B 127.0.0.1 --mptcp -1
	"$BIN" -c 127.0.0.1 -p "$PORT" -t 1 --mptcp -J >"$T/mp.json" \
		2>"$T/mp.err" &&
		jcheck "$T/mp.json" 'd["summary"]["integrity_ok"] and
			d["summary"]["local"]["streams"][0]["tcp"]["mptcp_subflows"] >= 1'
	ok $? "MPTCP 1 s: intact, subflows reported" "$T/mp.err"
else
	n=$((n + 1))
	echo "ok $n - # SKIP MPTCP disabled (net.mptcp.enabled)"
fi

if ip -6 addr show dev lo 2>/dev/null | grep -q '::1'; then
	start_server v6 -B ::1 -1
	"$BIN" -c ::1 -p "$PORT" -t 1 -6 -J >"$T/v6.json" 2>"$T/v6.err" &&
		jcheck "$T/v6.json" 'd["summary"]["integrity_ok"] and
			d["summary"]["family"] == "ipv6"'
	ok $? "TCP over ::1" "$T/v6.err"
else
	n=$((n + 1))
	echo "ok $n - # SKIP no ::1 on lo"
fi

# --- failures end on time -----------------------------------------------------

# a port nobody listens on: take one from the kernel, then close it
CLOSED=$(python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
timed "$BIN" -c 127.0.0.1 -p "$CLOSED" -t 1 >"$T/ref.out" 2>"$T/ref.err"
[ $RC -eq 1 ] && grep -qi 'refused' "$T/ref.err"
ok $? "connection refused: exit 1 with a clear message" "$T/ref.err"

# as iperf3's, a test that never ran ends its events too
"$BIN" -c 127.0.0.1 -p "$CLOSED" -t 1 --json-stream 2>/dev/null |
	stamp >"$T/jsr.ev"
[ "${PIPESTATUS[0]}" -eq 1 ] &&
	python3 "$(dirname "$0")/iperf3_stream.py" "$T/jsr.ev" - \
	>"$T/jsr.out" 2>&1
ok $? "--json-stream, connection refused: an error event, an empty end" \
	"$T/jsr.ev"

# a server that accepts and then says nothing
python3 -c 'import socket, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(4)
print(s.getsockname()[1], flush=True)
c, _ = s.accept(); time.sleep(8)' >"$T/mute.port" &
pids+=($!)
for i in $(seq 50); do
	[ -s "$T/mute.port" ] && break
	sleep 0.1
done
timed "$BIN" -c 127.0.0.1 -p "$(cat "$T/mute.port")" -t 1 \
	--connect-timeout 1000 >"$T/mute.out" 2>"$T/mute.err"
[ $RC -eq 1 ] && grep -q 'timed out' "$T/mute.err" &&
	[ "$ELAPSED" -lt 4000 ]
ok $? "silent server: exit 1 after the timeout (${ELAPSED} ms)" "$T/mute.err"

# a client that connects and then says nothing: dropped after the timeout,
# and a one-off server is still there for a real test
start_server dead -B 127.0.0.1 -1 --connect-timeout 1000
dead=${pids[-1]}
python3 -c 'import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
print("connected", flush=True)
time.sleep(6)' "$PORT" >"$T/dead-py.out" 2>&1 &
pids+=($!)
# connected, then the 1 s timeout (more under load, within 4 s)
for i in $(seq 40); do
	grep -q 'no test parameters' "$T/dead.err" && break
	sleep 0.1
done
cat "$T/dead-py.out" >>"$T/dead.err"
grep -q 'no test parameters' "$T/dead.err" && kill -0 "$dead" 2>/dev/null
ok $? "silent client: the server drops it after the timeout, keeps serving" \
	"$T/dead.err"
"$BIN" -c 127.0.0.1 -p "$PORT" -t 0.5 >"$T/dead-c.out" 2>&1
timed wait "$dead"
[ $RC -eq 0 ] && [ "$ELAPSED" -lt 2000 ]
ok $? "silent client: a one-off server still runs one test and exits" \
	"$T/dead-c.out"

# the server's own -i when the client asks for no intervals (issue 15);
# -V on both ends (review U6): the version and the test's settings
start_server sival -B 127.0.0.1 -1 -i 0.2 -V
"$BIN" -c 127.0.0.1 -p "$PORT" -t 1 -i 0 -V -l 64K >"$T/sival-c.out" 2>&1
wait "${pids[-1]}"
grep -q '0\.20-0\.40' "$T/sival.out"
ok $? "server -i 0.2: the server reports its own intervals" "$T/sival.out"
for f in sival sival-c; do
	grep -qx "stripe-perf $VERSION" "$T/$f.out" &&
		grep -q '^Starting Test: protocol: TCP, 1 streams, 65536 byte blocks,.* 1 second test' \
			"$T/$f.out"
	ok $? "-V ($f): version and the test's settings" "$T/$f.out"
done

tap_end
