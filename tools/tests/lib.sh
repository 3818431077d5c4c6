# SPDX-License-Identifier: GPL-2.0
# Shared by the loopback tests (smoke.sh, hostile.sh); source it after
# setting BIN and NAME. Gives T (a scratch directory removed at exit),
# pids (killed at exit), ok (TAP), start_server and tap_end.

T=$(mktemp -d "/tmp/stripe-perf-$NAME.XXXXXX")
n=0
failed=0
pids=()

cleanup()
{
	local p

	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

# ok STATUS DESCRIPTION [FILE]: one TAP line; FILE is shown on failure
ok()
{
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
		[ -n "$3" ] && sed 's/^/#   /' "$3" | head -20
	fi
}

# start_server NAME ARGS...: a server on an ephemeral port; sets PORT and
# SPID, appends the pid to pids
start_server()
{
	local name=$1 i

	shift
	"$BIN" -s -p 0 "$@" >"$T/$name.out" 2>"$T/$name.err" &
	SPID=$!
	pids+=($SPID)
	PORT=
	for i in $(seq 50); do
		PORT=$(sed -n 's/^Server listening on .* port \([0-9]*\).*/\1/p' \
			"$T/$name.out" "$T/$name.err" 2>/dev/null | head -1)
		[ -n "$PORT" ] && return 0
		sleep 0.1
	done
	return 1
}

# tap_end: the plan and the summary line; the exit status
tap_end()
{
	echo "1..$n"
	echo "$NAME: $((n - failed)) passed, $failed failed"
	[ $failed -eq 0 ]
}
