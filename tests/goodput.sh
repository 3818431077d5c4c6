#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Single-stream TCP goodput over stripe, teql and balance-rr on the same
# testbed (scripts/demo, shortened: equal links and a link that goes black).
# What it asserts is a ratio measured in the same run: when one of six links
# drops everything, stripe keeps most of its equal-links goodput and stays
# ahead of teql, which keeps sending a sixth of the stream into the hole.
# FULL=1 only (make check FULL=1): make check's failover and linkhealth
# assert the same black link for stripe, make bench PROFILES=blackhole
# beside teql and MPTCP.
source "$(dirname "$0")/lib.sh"
require_vm
if ! full; then
	tap_skip "goodput: make demo's black link" "its long form: make check FULL=1"
	tap_done
	exit 0
fi
out=$(SECS=${SECS:-4} CELLS="equal bad" "$TOP/scripts/demo" 2>&1)
echo "$out" | grep -A6 '^One TCP stream' | sed 's/^/# /'

pct() {	# pct CELL METHOD -- the demo's "% of the links' rate", or empty
	echo "$out" | awk -F'\t' -v c="$1" -v m="$2" \
		'$1 == "demo-row" && $2 == c && $3 == m { print $4 }'
}
gt() { python3 -c "import sys; sys.exit(0 if float('$1') > float('$2') else 1)"; }

for m in "stripe reorder on" "teql" "bonding balance-rr"; do
	v=$(pct equal "$m")
	if [ -n "$v" ] && gt "$v" 0; then
		tap_ok "goodput measured: $m on equal links: $v %"
	else
		tap_fail "goodput measured: $m on equal links" "$(echo "$out" | tail -5)"
	fi
done
s_eq=$(pct equal "stripe reorder on")
s_bad=$(pct bad "stripe reorder on")
t_bad=$(pct bad teql)
log "a link black from second 2: stripe ${s_bad:-?} % (equal: ${s_eq:-?} %), teql ${t_bad:-?} %"
check_timing "a black link: stripe keeps over half its goodput" \
	gt "${s_bad:-0}" "$(python3 -c "print(${s_eq:-0} / 2)")"
check_timing "a black link: stripe ahead of teql" gt "${s_bad:-0}" "${t_bad:-0}"
tap_done
