#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# For the record, not a threshold: single-stream TCP goodput over stripe and
# over teql on the same testbed (scripts/demo, shortened).
source "$(dirname "$0")/lib.sh"
require_vm
out=$(SECS=${SECS:-4} "$TOP/scripts/demo" 2>&1)
echo "$out" | grep -A5 '^One TCP stream' | sed 's/^/# /'
for m in "ceiling" "stripe (reorder on)" "stripe (reorder off)" "teql"; do
	v=$(echo "$out" | grep "^$m" | awk '{print $(NF-1)}')
	if [ -n "$v" ] && python3 -c "import sys; sys.exit(0 if float('$v') > 0 else 1)"; then
		tap_ok "goodput measured: $m $v Mbit/s"
	else
		tap_fail "goodput measured: $m" "$(echo "$out" | tail -5)"
	fi
done
tap_done
