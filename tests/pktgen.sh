#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# scripts/pktgen, briefly (1 s per method, 64-byte packets): the kernel's
# pktgen, routed by gw onto the master, gets packets through stripe
# (reorder on; FULL=1: off too, and teql) to bl, and stripe spreads them
# over every link.  No speed thresholds: only that each method delivered.
source "$(dirname "$0")/lib.sh"
require_vm

if ! modprobe pktgen 2>/dev/null || ! modprobe dummy numdummies=0 2>/dev/null; then
	echo "# pktgen or dummy module unavailable"
	exit $KSFT_SKIP
fi
T=$(mktemp -d /tmp/pktgen-test.XXXXXX)
trap 'rm -rf "$T"' EXIT

# make check: stripe with reorder on, the forwarded path through the
# resequencer; FULL=1 adds reorder off and teql
METHODS="stripe-reorder"
full && METHODS="stripe stripe-reorder teql"
LINKS=${LINKS:-6}
SECS=1 SIZES=64 METHODS=$METHODS LINKS=$LINKS \
	"$TOP/scripts/pktgen" >"$T/out" 2>&1
rc=$?
sed 's/^/# /' "$T/out"
if ! grep '^{"bench": "pktgen"' "$T/out" | tail -1 >"$T/json" || [ ! -s "$T/json" ]; then
	tap_fail "scripts/pktgen prints its JSON line" "exit $rc" "$(tail -5 "$T/out")"
	tap_done
	exit 1
fi
tap_ok "scripts/pktgen prints its JSON line (exit $rc)"

# field METHOD EXPR -- evaluate EXPR (python, c = the method's cell)
field() {
	python3 - "$T/json" "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = next((c for c in d["results"] if c["method"] == sys.argv[2]), None)
print(eval(sys.argv[3]) if c else "missing")
PY
}

for m in $METHODS; do
	pps=$(field "$m" 'c["pps_delivered"]')
	if [ "$pps" != missing ] && [ "$pps" -gt 0 ]; then
		tap_ok "$m: pktgen's packets reach bl ($pps pps delivered)"
	else
		tap_fail "$m: pktgen's packets reach bl" "pps_delivered: $pps"
	fi
	case $m in
	stripe*) key=links_stripe_tx what="stripe link counters" ;;
	*) key=links_dev_tx what="link devices' tx counters" ;;
	esac
	idle=$(field "$m" "[i + 1 for i, x in enumerate(c.get('$key', [])) if x <= 0] or (len(c.get('$key', [])) != $LINKS and 'no counters' or 'none')")
	if [ "$idle" = none ]; then
		tap_ok "$m: the $what grew on every link"
	else
		tap_fail "$m: the $what grew on every link" "links that sent nothing: $idle"
	fi
done
tap_done
