#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A server left listening meets hostile peers (issue 15, defects 1 and 4):
# tests/forger.py states a UDP test and sends datagrams jumping the
# sequence number ahead, with another test's cookie, from another address,
# and garbage, while it holds slowloris control connections; then an honest
# client runs. With --bidir it greets the server's doubled set of data
# connections with bad ids and resets the streams the server sends on.
# With --idle-data it fills the server's data connection slots during a
# test's setup with connections that never greet.
# The server's resident memory must stay under MEM_BOUND_KB and the honest
# results must be right. Loopback only, ephemeral ports.
# TAP output; exit 1 on failure.
#
#   tests/hostile.sh ./stripe-perf

BIN=${1:-./stripe-perf}
HERE=$(dirname "$0")
# 4 streams of 127 jumps of 2^24 cost the unbounded bitmap 1 GB; the
# server's own footprint (receive batch, per-stream state) is under 16 MB
MEM_BOUND_KB=32768
NAME=hostile
. "$(dirname "$0")/lib.sh"

# status_kb PID FIELD: a /proc/PID/status figure in kB
status_kb()
{
	awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status" 2>/dev/null
}

# cpu_ticks PID: user + system clock ticks so far
cpu_ticks()
{
	awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null
}

# fcheck FILE EXPR: EXPR holds for d = the forger's JSON (server keys
# under d["server"], values as strings)
fcheck()
{
	python3 -c 'import json, sys
d = json.loads(open(sys.argv[1]).readline())
s = lambda k: int(d["server"].get(k, "0"))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2" 2>>"$T/fcheck.err"
}

# --- the forger, then an honest client past its slowloris connections ----

start_server srv -B 127.0.0.1
srv=$SPID
python3 "$HERE/forger.py" "$PORT" --hold 6 >"$T/forge.json" \
	2>"$T/forge.err" &
forger=$!
pids+=($forger)
for i in $(seq 150); do
	[ -s "$T/forge.json" ] && break
	kill -0 $forger 2>/dev/null || break
	sleep 0.1
done
cat "$T/forge.err" >>"$T/forge.json"
hwm=$(status_kb "$srv" VmHWM)
echo "# server VmHWM ${hwm:-?} kB after the forger (bound $MEM_BOUND_KB kB)"
fcheck "$T/forge.json" 'd["results"] == "RESULTS"' && [ -n "$hwm" ] &&
	[ "$hwm" -lt $MEM_BOUND_KB ]
ok $? "forged sequence jumps: server resident memory stays under the bound" \
	"$T/forge.json"
fcheck "$T/forge.json" 's("t.udp.received") == d["sent"]["jump"]'
ok $? "forged test: every well-formed jump is one datagram, nothing more" \
	"$T/forge.json"
fcheck "$T/forge.json" 's("t.udp.foreign") == d["sent"]["wrong_cookie"] + d["sent"]["other_address"]'
ok $? "another test's cookie or another address: foreign, not counted" \
	"$T/forge.json"

# the slowloris connections are still held: an honest client runs at once
t0=$(date +%s%N)
"$BIN" -c 127.0.0.1 -p "$PORT" -u -b 20M -t 1 -J >"$T/honest.json" \
	2>"$T/honest.err"
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
echo "# honest client: exit $rc after $ms ms"
[ $rc -eq 0 ] && [ $ms -lt 4000 ]
ok $? "honest client beside slowloris connections: runs at once (${ms} ms)" \
	"$T/honest.err"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
# sent, lost: in end.sum; received, foreign: in summary.udp
e, u = d["end"]["sum"], d["summary"]["udp"]
sys.exit(0 if u["received"] == e["packets"] > 1000 and
         not e["lost_packets"] and not u["foreign"] else 1)' \
	"$T/honest.json" 2>>"$T/honest.err"
ok $? "honest client: every datagram sent is received, none foreign" \
	"$T/honest.json"
hwm=$(status_kb "$srv" VmHWM)
[ -n "$hwm" ] && [ "$hwm" -lt $MEM_BOUND_KB ]
ok $? "server memory still under the bound after both (${hwm:-?} kB)"

# --- --bidir: the server accepts twice the connections and sends on half -

start_server bidir -B 127.0.0.1
bsrv=$SPID
timeout 30 python3 "$HERE/forger.py" "$PORT" --bidir >"$T/bidir.json" \
	2>&1
fcheck "$T/bidir.json" '(d["start"] == "START" and d["bad"] == 5 and
	d["refused"] == d["bad"])'
ok $? "--bidir: greetings past the last id, taken twice, foreign or garbage are refused" \
	"$T/bidir.json"
fcheck "$T/bidir.json" '(d["verbs"][-2:] == ["RESULTS", "RESULTS"] and
	d["corrupt_bytes"] > 0)'
ok $? "--bidir: reset streams end the test with both sides' results" \
	"$T/bidir.json"
"$BIN" -c 127.0.0.1 -p "$PORT" -t 1 --bidir -P 2 -J >"$T/bidir-c.json" \
	2>"$T/bidir-c.err" && python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["summary"]["integrity_ok"] and
         d["summary"]["bidir_reverse"]["integrity_ok"] and
         d["end"]["sum_received_bidir_reverse"]["bytes"] > 0 else 1)' \
	"$T/bidir-c.json" 2>>"$T/bidir-c.err"
ok $? "--bidir: an honest client after it runs both ways intact" \
	"$T/bidir-c.err"
hwm=$(status_kb "$bsrv" VmHWM)
kill -0 "$bsrv" 2>/dev/null && [ -n "$hwm" ] && [ "$hwm" -lt $MEM_BOUND_KB ]
ok $? "--bidir: the server lives on, memory under the bound (${hwm:-?} kB)"

# --- idle data connections during setup are evicted (review U6) --------

# every slot taken by connections that never greet: the oldest makes room
# for the first stream, the rest go after the 2 s greeting timeout, so the
# second stream, greeted 2.2 s later, gets in and the test starts
start_server idledata -B 127.0.0.1
timeout 20 python3 "$HERE/forger.py" "$PORT" --idle-data 2.2 \
	>"$T/idledata.json" 2>&1
fcheck "$T/idledata.json" '(d["idle"] == 128 and
	d["closed_for_room"] == 1 and d["closed_after_wait"] == 128 and
	d["start"] == "START" and d.get("results") == "RESULTS")'
ok $? "idle data connections: evicted for room and after 2 s, the test starts" \
	"$T/idledata.json"
grep -q '128 data connections evicted without a greeting (127 silent for 2000 ms, 1 for room)' \
	"$T/idledata.err"
ok $? "idle data connections: the server counts what it evicted" \
	"$T/idledata.err"

# --- an idle control connection delays no one (defect 4) ---------------

start_server idle -B 127.0.0.1
python3 -c 'import socket, sys, time
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
print("connected", flush=True)
time.sleep(8)' "$PORT" >"$T/idle.py" &
pids+=($!)
for i in $(seq 50); do
	[ -s "$T/idle.py" ] && break
	sleep 0.1
done
sleep 0.1	# and the server has accepted it
t0=$(date +%s%N)
"$BIN" -c 127.0.0.1 -p "$PORT" -t 0.5 >"$T/idle-c.out" 2>&1
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
[ $rc -eq 0 ] && [ $ms -lt 2500 ]
ok $? "an idle control connection does not stall the next client (${ms} ms)" \
	"$T/idle-c.out"

# --- out of descriptors: no spinning on accept (defect 4) ---------------

# 4 descriptors: stdio and the listener; every accept fails with EMFILE
(ulimit -n 4 && exec "$BIN" -s -p 0 -B 127.0.0.1) >"$T/fd.out" \
	2>"$T/fd.err" &
fdsrv=$!
pids+=($fdsrv)
PORT=
for i in $(seq 50); do
	PORT=$(sed -n 's/^Server listening on .* port \([0-9]*\).*/\1/p' \
		"$T/fd.out" 2>/dev/null)
	[ -n "$PORT" ] && break
	sleep 0.1
done
python3 -c 'import socket, sys, time
held = [socket.create_connection(("127.0.0.1", int(sys.argv[1])))
        for i in range(4)]
time.sleep(3)' "$PORT" &
pids+=($!)
sleep 0.5
c0=$(cpu_ticks $fdsrv)
sleep 2
c1=$(cpu_ticks $fdsrv)
echo "# server without descriptors to spare: $((c1 - c0)) CPU ticks in 2 s"
[ -n "$c0" ] && [ -n "$c1" ] && [ $((c1 - c0)) -lt 40 ]
ok $? "out of descriptors: the server does not spin ($((c1 - c0)) ticks in 2 s)" \
	"$T/fd.err"

tap_end
