#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Netlink stress: raw RTM_NEWQDISC / RTM_NEWLINK requests of kind "stripe"
# with boundary and garbage options (tests/nlstress.py, no tc plugin in the
# way).  Every request must be answered, refusals should carry an extack
# message, and afterwards what tc shows must be consistent.  The random part
# is seeded: STRIPE_NL_SEED=N repeats a run, STRIPE_NL_ITERS sets its length.
source "$(dirname "$0")/lib.sh"
require_vm
stripe_load || exit 1

NS=nl-$$
NL="ip netns exec $NS python3 $TOP/tests/nlstress.py"
SEED=${STRIPE_NL_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
ITERS=${STRIPE_NL_ITERS:-2000}

refs0=$(awk '$1 == "sch_stripe" { print $3 }' /proc/modules)
cleanup() { ip netns del $NS 2>/dev/null; return 0; }
trap cleanup EXIT
ip netns add $NS
ip -n $NS link set lo up
for m in sm0 sm1; do
	ip -n $NS link add $m type stripe
	tc -n $NS qdisc add dev $m root stripe
done
ip -n $NS link add v0 type veth peer v1
ip -n $NS link add v2 type veth peer v3
ip -n $NS link add vb0 type veth peer vb1
ip -n $NS link add pv0 type veth peer pv1
for d in v0 v1 v2 v3 vb0 vb1 pv0 pv1 sm0 sm1; do
	ip -n $NS link set $d up
done
tc -n $NS qdisc add dev pv0 root handle 1: prio

# raw DESC MSG DEV OP ATTR... -- a request sent raw is refused with an
# extack message containing MSG; the message is logged
raw() {
	local desc=$1 out
	shift
	if out=$($NL expect "$@" 2>&1); then
		tap_ok "$desc"
		echo "$out"
	else
		tap_fail "$desc" "$out"
	fi
}

# warned -- the kernel log has a warning or report
REPORT='BUG:|WARNING:|KASAN:|UBSAN:|Oops|suspected memory leak|possible circular|possible recursive|inconsistent lock'
warned() { dmesg | grep -qE "$REPORT"; }
nreports() { dmesg | grep -cE "$REPORT"; }

# --- boundaries, sent raw (the plugin would refuse them itself) ---
raw "raw weight 1001 on create" \
	"weight must be auto (0) or 1 to 1000" vb0 create \
	MASTER:str:sm0 WEIGHT:u32:1001
raw "raw weight 0xffffffff on create" \
	"weight must be auto (0) or 1 to 1000" vb0 create \
	MASTER:str:sm0 WEIGHT:u32:0xffffffff
check "weight 1000 is accepted" \
	tc -n $NS qdisc add dev vb0 root stripe master sm0 weight 1000
check "weight 1 is accepted on change" \
	tc -n $NS qdisc change dev vb0 root stripe master sm0 weight 1
check "... and shown" \
	sh -c "tc -n $NS qdisc show dev vb0 | grep -q 'weight 1 '"
# auto is weight 0 on the wire, as for ip link: back to the link speed
check "weight auto is accepted on change" \
	tc -n $NS qdisc change dev vb0 root stripe weight auto
check "... and the weight typed is gone" \
	sh -c "! tc -n $NS qdisc show dev vb0 | grep -q 'weight '"
check "weight 1 again, which the refused requests below must keep" \
	tc -n $NS qdisc change dev vb0 root stripe weight 1
raw "raw weight 1001 on change" \
	"weight must be auto (0) or 1 to 1000" vb0 change WEIGHT:u32:1001
raw "raw reorder 2 on the master" \
	"reorder must be off or on" sm0 change REORDER:u8:2
raw "raw reorder 255 on the master (replace)" \
	"reorder must be off or on" sm0 replace REORDER:u8:255
raw "raw hold-auto 2 on the master" \
	"hold-auto must be off or on" sm0 change HOLD_AUTO:u8:2
raw "raw quantum 255 on the master" \
	"quantum must be 256 to 1048576 bytes" sm0 change \
	QUANTUM:u32:255
raw "raw quantum 1048577 on the master" \
	"quantum must be 256 to 1048576 bytes" sm0 change \
	QUANTUM:u32:1048577
# Each of the master's ranged options is refused by name (kernel/options.c)
raw "raw hold-max 0 on the master" \
	"hold-max must be 1 us to 1 s" sm0 change HOLD_MAX_US:u32:0
raw "raw flow-limit 0 on the master" \
	"flow-limit must be 1 to 1048576 packets" sm0 change FLOW_LIMIT:u32:0
raw "raw buffer-limit 1048577 on the master" \
	"buffer-limit must be 1 to 1048576 packets" sm0 change \
	BUFFER_LIMIT:u32:1048577
raw "raw memory-limit 65535 on the master" \
	"memory-limit must be 65536 to 2147483648 bytes" sm0 change \
	14:u32:65535	# TCA_STRIPE_MEMORY_LIMIT
raw "raw probe-interval 9999 us on the master" \
	"probe-interval must be 10 ms to 60 s" sm0 change \
	PROBE_INTERVAL_US:u32:9999
raw "raw master name of 16 characters" \
	"Attribute failed policy validation" vb1 create MASTER:str:abcdefghijklmnop
raw "raw master name of 15 characters that does not exist" \
	"no master of that name" vb1 create MASTER:str:abcdefghijklmno
# A u32 option of the wrong length: the core refuses it ("invalid attribute
# length") and, with extack on, dumps the attribute's policy in the ack.
if [ "${STRIPE_NL_BADLEN:-1}" != 0 ]; then
	raw "raw weight of 8 bytes is refused" "" vb1 create \
		MASTER:str:sm0 WEIGHT:u64:1
	if warned; then
		tap_fail "no kernel warning from refusing it" \
			"$(dmesg | grep -A1 -E "$REPORT" | head -2)"
	else
		tap_ok "no kernel warning from refusing it"
	fi
else
	tap_skip "raw weight of 8 bytes" "STRIPE_NL_BADLEN=0"
fi
check "the refused requests changed nothing" \
	bash -c "tc -n $NS -j qdisc show dev vb0 | grep -q '\"weight\":1,' &&
		 tc -n $NS -j qdisc show dev sm0 | grep -q '\"quantum\":1514' &&
		 ! tc -n $NS qdisc show dev vb1 | grep -q stripe"

# --- random requests ---
reports0=$(nreports)
log "seed $SEED, $ITERS iterations (STRIPE_NL_SEED=$SEED to repeat)"
start=$(date +%s)
out=$($NL stress "$SEED" "$ITERS")
rc=$?
echo "$out" | grep '^#'
summary=$(echo "$out" | grep '^{' | tail -1)
log "$(($(date +%s) - start)) s: $summary"
case $rc in
0) tap_ok "every one of the random requests was answered (seed $SEED)" ;;
2) tap_fail "every one of the random requests was answered (seed $SEED)" \
	"a request got no answer within 10 s" ;;
*) tap_fail "random requests (seed $SEED): state consistent every 500" \
	"nlstress.py exited $rc" ;;
esac
python3 - "$summary" <<'PY'
import json, sys
try:
    s = json.loads(sys.argv[1])
except ValueError:
    sys.exit(0)
print("# requests %d: ok %d, refused %d (%d with an extack message, %d without)"
      % (s["requests"], s["ok"], s["errors"], s["with_extack"],
         s["without_extack"]))
print("# refusals by errno: " + ", ".join(
    "%s %d" % kv for kv in sorted(s["by_errno"].items())))
for k, v in sorted(s["no_extack"].items()):
    print("# without extack: %-40s %d" % (k, v))
PY
# rtnetlink's own refusals (a deleted device, RTM_NEWLINK's "File exists",
# its IFLA_LINKINFO parse) have no message; every qdisc request should.
bare=$(python3 -c '
import json, sys
s = json.loads(sys.argv[1])
print(" ".join("%s:%d" % (k.replace(" ", "_"), v)
               for k, v in s["no_extack"].items()
               if not k.startswith(("newlink", "dellink")) and "(gone)" not in k))
' "$summary" 2>/dev/null)
if [ -n "$summary" ] && [ -z "$bare" ]; then
	tap_ok "every refused qdisc request to an existing device had an extack message"
else
	tap_fail "every refused qdisc request to an existing device had an extack message" "$bare"
fi
check "tc -s -j qdisc show of every device parses and is consistent" \
	$NL check
check "the stripe masters still work: a link joins sm0" \
	tc -n $NS qdisc replace dev vb1 root stripe master sm0 weight 7
check "and shows in sm0's statistics" \
	bash -c "tc -n $NS -s qdisc show dev sm0 | grep -q 'link vb1 weight 7'"
if [ "$(nreports)" != "$reports0" ]; then
	tap_fail "no new kernel report in the log from the random requests" \
		"$(dmesg | grep -E "$REPORT" | tail -n +$((reports0 + 1)) | head -3)"
else
	tap_ok "no new kernel report in the log from the random requests"
fi

# --- teardown: every reference the qdiscs took is returned ---
ip netns del $NS
if [ "$refs0" = 0 ]; then
	refs_zero() { [ "$(awk '$1 == "sch_stripe" { print $3 }' /proc/modules)" = 0 ]; }
	if wait_for refs_zero; then
		tap_ok "module use count back to 0 after the namespace is gone"
	else
		tap_fail "module use count back to 0 after the namespace is gone" \
			"$(grep sch_stripe /proc/modules)"
	fi
fi
tap_done
