#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host tests for q_stripe.so, run against the real tc; no stripe kernel
# module is needed and nothing is configured in the kernel:
#
#  - the plugin imports only symbols that tc exports;
#  - "help" and every parse error give a clear message and a failure;
#  - valid options are encoded as the uapi header says: an LD_PRELOAD
#    shim catches tc's RTM_NEWQDISC in sendmsg(), decodes it independently
#    and fails the send, so the request never reaches the kernel;
#  - print_qopt/print_xstats, in text and JSON, on qdisc dumps that a
#    generator (../plugin-common/tests/dump.c) writes to a file and
#    "tc monitor file" replays, including unknown and truncated attributes.
#
# Output is TAP; the exit status is non-zero if any check failed.
# Environment: TC (default /sbin/tc), CC (default cc).

set -u

here=$(cd "$(dirname "$0")" && pwd)
TC=${TC:-/sbin/tc}
CC=${CC:-cc}
plugin=$here/q_stripe.so
uapi=$here/../include/uapi
# the dump generator and the JSON shim, ip's tests' too
common=$here/../plugin-common

n=0
failed=0

ok()
{
	n=$((n + 1))
	echo "ok $n - $1"
}

not_ok()
{
	local desc=$1 line

	shift
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n - $desc"
	for line in "$@"; do
		echo "#   $line"
	done
}

bail()
{
	echo "Bail out! $*"
	exit 1
}

[ -x "$TC" ] || bail "no tc at $TC"
[ -f "$plugin" ] || bail "no $plugin: run make first"

tmp=$(mktemp -d) || bail "mktemp failed"
trap 'rm -rf "$tmp"' EXIT

# tc must load our plugin and nothing else
export TC_LIB_DIR=$tmp/lib
mkdir "$tmp/lib" && cp "$plugin" "$tmp/lib/" || bail "cannot stage plugin"

# --- helpers compiled for the test --------------------------------------

cat >"$tmp/shim.c" <<'EOF'
/*
 * LD_PRELOAD shim for tc.  sendmsg(): an RTM_NEWQDISC is decoded into
 * $STRIPE_SHIM_OUT and the send fails, so the kernel never sees it.
 * Linked with ../plugin-common/tests/json_shim.c: with $STRIPE_SHIM_JSON
 * set, "tc monitor file" prints JSON.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/stripe.h>

static const char *const names[TCA_STRIPE_MAX + 1] = {
	[TCA_STRIPE_MASTER] = "master",
	[TCA_STRIPE_WEIGHT] = "weight",
	[TCA_STRIPE_LIMIT] = "limit",
	[TCA_STRIPE_QUANTUM] = "quantum",
	[TCA_STRIPE_REORDER] = "reorder",
	[TCA_STRIPE_HOLD_MAX_US] = "hold_max_us",
	[TCA_STRIPE_FLOW_LIMIT] = "flow_limit",
	[TCA_STRIPE_BUFFER_LIMIT] = "buffer_limit",
	[TCA_STRIPE_STRIPE_MIN] = "stripe_min",
	[TCA_STRIPE_HOLD_AUTO] = "hold_auto",
	[TCA_STRIPE_PROBE_TARGET] = "probe_target",
	[TCA_STRIPE_PROBE_INTERVAL_US] = "probe_interval_us",
	[TCA_STRIPE_PROBE_TARGET6] = "probe_target6",
	[TCA_STRIPE_MEMORY_LIMIT] = "memory_limit",
};

static void decode_opt(FILE *f, struct rtattr *a)
{
	unsigned int type = a->rta_type, len = RTA_PAYLOAD(a);
	const unsigned char *p = RTA_DATA(a);
	__u32 v32;

	if (type > TCA_STRIPE_MAX || !names[type]) {
		fprintf(f, "unknown_%u len=%u\n", type, len);
	} else if (type == TCA_STRIPE_MASTER) {
		if (len == 0 || p[len - 1] != '\0')
			fprintf(f, "%s=UNTERMINATED\n", names[type]);
		else
			fprintf(f, "%s=%s\n", names[type], (const char *)p);
	} else if (type == TCA_STRIPE_REORDER || type == TCA_STRIPE_HOLD_AUTO) {
		if (len != 1)
			fprintf(f, "%s=BADLEN%u\n", names[type], len);
		else
			fprintf(f, "%s=%u\n", names[type], p[0]);
	} else if (type == TCA_STRIPE_PROBE_TARGET6) {
		char buf[INET6_ADDRSTRLEN];

		if (len != 16)
			fprintf(f, "%s=BADLEN%u\n", names[type], len);
		else
			fprintf(f, "%s=%s\n", names[type],
				inet_ntop(AF_INET6, p, buf, sizeof(buf)));
	} else if (len != 4) {
		fprintf(f, "%s=BADLEN%u\n", names[type], len);
	} else if (type == TCA_STRIPE_PROBE_TARGET) {
		fprintf(f, "%s=%u.%u.%u.%u\n", names[type], p[0], p[1], p[2],
			p[3]);
	} else {
		memcpy(&v32, p, 4);
		fprintf(f, "%s=%u\n", names[type], v32);
	}
}

static void decode(FILE *f, struct nlmsghdr *h)
{
	int len = h->nlmsg_len - NLMSG_LENGTH(sizeof(struct tcmsg));
	struct rtattr *a = (void *)((char *)NLMSG_DATA(h) +
				    NLMSG_ALIGN(sizeof(struct tcmsg)));

	for (; RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		int type = a->rta_type & NLA_TYPE_MASK;

		if (type == TCA_KIND) {
			fprintf(f, "kind=%.*s\n", (int)RTA_PAYLOAD(a),
				(char *)RTA_DATA(a));
		} else if (type == TCA_OPTIONS) {
			int olen = RTA_PAYLOAD(a);
			struct rtattr *o = RTA_DATA(a);

			fprintf(f, "options=%s\n",
				a->rta_type & NLA_F_NESTED ? "nested" : "flat");
			for (; RTA_OK(o, olen); o = RTA_NEXT(o, olen))
				decode_opt(f, o);
			if (olen)
				fprintf(f, "TRAILING=%d\n", olen);
		}
	}
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	static ssize_t (*real)(int, const struct msghdr *, int);
	const char *out = getenv("STRIPE_SHIM_OUT");
	struct nlmsghdr *h;
	FILE *f;

	if (out && msg->msg_iovlen >= 1 &&
	    msg->msg_iov[0].iov_len >= sizeof(*h)) {
		h = msg->msg_iov[0].iov_base;
		if (h->nlmsg_type == RTM_NEWQDISC) {
			f = fopen(out, "w");
			if (f) {
				decode(f, h);
				fclose(f);
			}
			errno = EOPNOTSUPP;
			return -1;
		}
	}
	if (!real)
		real = (ssize_t (*)(int, const struct msghdr *, int))
			dlsym(RTLD_NEXT, "sendmsg");
	return real(fd, msg, flags);
}
EOF

"$CC" -Wall -Werror -O2 -fPIC -shared -I"$uapi" -o "$tmp/shim.so" \
	"$tmp/shim.c" "$common/tests/json_shim.c" -ldl ||
	bail "cannot build the sendmsg shim"
"$CC" -Wall -Werror -O2 -I"$uapi" -o "$tmp/gen" "$common/tests/dump.c" ||
	bail "cannot build the dump generator"

# --- 1. ABI: the plugin must resolve against this tc --------------------

if nm -D --defined-only "$plugin" | grep -qw 'D stripe_qdisc_util'; then
	ok "plugin exports stripe_qdisc_util"
else
	not_ok "plugin exports stripe_qdisc_util"
fi

missing=
for sym in $(nm -D --undefined-only "$plugin" | awk '$1 == "U" {print $2}' |
	     grep -v '@'); do
	nm -D --defined-only "$TC" | awk '{print $3}' | grep -qx "$sym" ||
		missing="$missing $sym"
done
if [ -z "$missing" ]; then
	ok "every tc symbol the plugin imports is exported by $TC"
else
	not_ok "every tc symbol the plugin imports is exported by $TC" \
		"missing:$missing"
fi

if nm -D --defined-only "$plugin" | awk '$2 ~ /[TDB]/ {print $3}' |
   grep -vqx 'stripe_qdisc_util'; then
	not_ok "plugin exports nothing else" \
		"$(nm -D --defined-only "$plugin" | tr '\n' ' ')"
else
	ok "plugin exports nothing else"
fi

# --- 2. help and parse errors -------------------------------------------

# Runs "tc qdisc CMD dev lo root stripe ARGS" through the shim; sets rc,
# and leaves stderr in $tmp/err and the decoded request in $tmp/sent
# (absent if tc sent none).
tc_run()
{
	local cmd=$1

	shift
	rm -f "$tmp/sent"
	STRIPE_SHIM_OUT=$tmp/sent LD_PRELOAD=$tmp/shim.so \
		"$TC" qdisc "$cmd" dev lo root stripe "$@" \
		>"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
}

tc_add()
{
	tc_run add "$@"
}

tc_add help
missing=
for word in "Usage:" "master NAME" "weight N" "limit PACKETS" \
	    "reorder on|off" "quantum BYTES" "hold-max TIME" \
	    "flow-limit PACKETS" "buffer-limit PACKETS" "memory-limit BYTES" \
	    "stripe-min BYTES"; do
	grep -qF -- "$word" "$tmp/err" || missing="$missing [$word]"
done
if [ $rc -ne 0 ] && [ -z "$missing" ] && [ ! -e "$tmp/sent" ]; then
	ok "help prints usage with every option and sends nothing"
else
	not_ok "help prints usage with every option and sends nothing" \
		"rc=$rc missing:$missing" "$(head -3 "$tmp/err")"
fi

# expect_fail DESCRIPTION MESSAGE ARGS...: the plugin itself must reject
# ARGS (tc exits 1, as for any bad argument, MESSAGE on stderr, no request
# sent).
expect_fail()
{
	local desc=$1 msg=$2

	shift 2
	tc_add "$@"
	if [ $rc -eq 1 ] && grep -qF -- "$msg" "$tmp/err" &&
	   [ ! -e "$tmp/sent" ]; then
		ok "rejects $desc"
	else
		not_ok "rejects $desc" "args: $*" "rc=$rc, want message: $msg" \
			"got: $(head -2 "$tmp/err" | tr '\n' '|')" \
			"request sent: $([ -e "$tmp/sent" ] && echo yes || echo no)"
	fi
}

expect_fail "weight 0" 'invalid weight "0": must be 1..1000' weight 0
expect_fail "weight 1001" 'invalid weight "1001": must be 1..1000' \
	master stripe0 weight 1001
expect_fail "negative weight" \
	'invalid weight "-1": expected "auto" or a number' weight -1
expect_fail "weight with junk" \
	'invalid weight "5x": expected "auto" or a number' weight 5x
# ip's spelling too; "Auto" is no more ip's than tc's
expect_fail "weight Auto" 'invalid weight "Auto": expected "auto" or a number' \
	weight Auto
expect_fail "weight without a value" 'option "weight" needs a value' \
	master stripe0 weight
expect_fail "reorder maybe" \
	'invalid reorder "maybe": expected "on" or "off"' reorder maybe
expect_fail "quantum abc" 'invalid quantum "abc": expected a number' \
	quantum abc
expect_fail "quantum below the minimum" \
	'invalid quantum "255": must be 256..1048576' quantum 255
expect_fail "quantum above the maximum" \
	'invalid quantum "1048577": must be 256..1048576' quantum 1048577
expect_fail "probe-target not an address" \
	'invalid probe-target "10.0.0": expected an IPv4 or IPv6 address' \
	probe-target 10.0.0
expect_fail "probe-interval below 10 ms" \
	'invalid probe-interval "9ms": must be 10ms..60s' probe-interval 9ms
expect_fail "hold-max with an unknown unit" \
	'invalid hold-max "5parsecs": expected a time' hold-max 5parsecs
expect_fail "negative hold-max" 'invalid hold-max "-1ms": expected a time' \
	hold-max -1ms
expect_fail "hold-max above 1s" 'invalid hold-max "1001ms": must be 1us..1s' \
	hold-max 1001ms
# The kernel's ranges (kernel/qdisc.c stripe_validate()), refused here
# before anything is sent
expect_fail "hold-max 0" 'invalid hold-max "0": must be 1us..1s' hold-max 0
# issue 15, defect 7: strtod() would read it as 8 ms
expect_fail "hold-max as a hex float" \
	'invalid hold-max "0x1p3ms": expected a time' hold-max 0x1p3ms
expect_fail "hold-max that rounds to 0" \
	'invalid hold-max "0.4us": must be 1us..1s' hold-max 0.4us
expect_fail "limit 0" 'invalid limit "0": must be 1..1048576' \
	master stripe0 limit 0
expect_fail "limit above 2^20" 'invalid limit "1048577": must be 1..1048576' \
	limit 1048577
expect_fail "flow-limit 0" 'invalid flow-limit "0": must be 1..1048576' \
	reorder on flow-limit 0
expect_fail "flow-limit above 2^20" \
	'invalid flow-limit "1048577": must be 1..1048576' flow-limit 1048577
expect_fail "buffer-limit 0" 'invalid buffer-limit "0": must be 1..1048576' \
	buffer-limit 0
expect_fail "buffer-limit above 2^20" \
	'invalid buffer-limit "1048577": must be 1..1048576' \
	buffer-limit 1048577
expect_fail "memory-limit below 64 KiB" \
	'invalid memory-limit "65535": must be 65536..2147483648' \
	memory-limit 65535
expect_fail "memory-limit above 2 GiB" \
	'invalid memory-limit "2147483649": must be 65536..2147483648' \
	memory-limit 2147483649
expect_fail "limit out of u32" \
	'invalid limit "4294967296": expected a number' limit 4294967296
expect_fail "master name too long" \
	'invalid master "abcdefghijklmnop": not a device name' \
	master abcdefghijklmnop
expect_fail "master name with a slash" 'invalid master "a/b"' master a/b
expect_fail "an unknown option" 'unknown option "frobnicate"' \
	reorder on frobnicate 1
expect_fail "a misspelt option" 'unknown option "hold_max"' hold_max 10ms

# --- 3. encoding of valid options ---------------------------------------

# expect_sent DESCRIPTION EXPECTED ARGS...: EXPECTED is the decoded
# request, one attribute a line, after "kind=stripe" and "options=nested".
expect_sent()
{
	local desc=$1 want

	want=$(printf 'kind=stripe\noptions=nested\n%s' "$2")
	shift 2
	tc_add "$@"
	if [ -e "$tmp/sent" ] && [ "$(cat "$tmp/sent")" = "$want" ]; then
		ok "encodes $desc"
	else
		not_ok "encodes $desc" "args: $*" \
			"want: $(echo "$want" | tr '\n' ' ')" \
			"got:  $(cat "$tmp/sent" 2>/dev/null | tr '\n' ' ')" \
			"stderr: $(head -2 "$tmp/err" | tr '\n' '|')"
	fi
}

expect_sent "a link joining a master" \
	"$(printf 'master=stripe0\nweight=7\nlimit=500')" \
	master stripe0 weight 7 limit 500
# An option once a command (repeats: section 3b); bounds one side a time
expect_sent "link options at their lower bounds" \
	"$(printf 'weight=1\nlimit=1')" weight 1 limit 1
expect_sent "link options at their upper bounds" \
	"$(printf 'weight=1000\nlimit=1048576')" weight 1000 limit 1048576
# "weight auto" is TCA_STRIPE_WEIGHT 0, as IFLA_STRIPE_LINK_WEIGHT 0 for
# ip: the kernel derives the weight, on a new qdisc or on a change
expect_sent "weight auto as weight 0" \
	"$(printf 'master=stripe0\nweight=0\nlimit=500')" \
	master stripe0 weight auto limit 500
for cmd in change replace; do
	tc_run $cmd weight auto
	if [ -e "$tmp/sent" ] && grep -qx 'weight=0' "$tmp/sent"; then
		ok "encodes weight auto as weight 0 on tc qdisc $cmd"
	else
		not_ok "encodes weight auto as weight 0 on tc qdisc $cmd" \
			"rc=$rc" "got: $(head -2 "$tmp/err" | tr '\n' '|')"
	fi
done
tc_run change weight 3
if [ -e "$tmp/sent" ] && grep -qx 'weight=3' "$tmp/sent"; then
	ok "encodes weight 3 on tc qdisc change"
else
	not_ok "encodes weight 3 on tc qdisc change" "rc=$rc" \
		"got: $(head -2 "$tmp/err" | tr '\n' '|')"
fi
expect_sent "master options" \
	"$(printf 'reorder=1\nquantum=9000\nhold_max_us=10000\nflow_limit=64\nbuffer_limit=4096\nstripe_min=65536')" \
	reorder on quantum 9000 hold-max 10ms flow-limit 64 \
	buffer-limit 4096 stripe-min 65536
expect_sent "reorder off" "reorder=0" reorder off
expect_sent "hold-auto on" "hold_auto=1" hold-auto on
expect_sent "hold-auto off" "hold_auto=0" hold-auto off
expect_sent "master options at their lower bounds" \
	"$(printf 'quantum=256\nflow_limit=1\nbuffer_limit=1\nmemory_limit=65536\nprobe_interval_us=10000')" \
	quantum 256 flow-limit 1 buffer-limit 1 memory-limit 65536 \
	probe-interval 10ms
expect_sent "master options at their upper bounds" \
	"$(printf 'quantum=1048576\nflow_limit=1048576\nbuffer_limit=1048576\nmemory_limit=2147483648\nprobe_interval_us=60000000')" \
	quantum 1048576 flow-limit 1048576 buffer-limit 1048576 \
	memory-limit 2147483648 probe-interval 60s
for t in 250:250 250us:250 1.5ms:1500 0.001s:1000 1s:1000000 1us:1; do
	expect_sent "hold-max ${t%%:*}" "hold_max_us=${t#*:}" hold-max "${t%%:*}"
done
expect_sent "stripe-min 0 (the kernel accepts any value)" "stripe_min=0" \
	stripe-min 0
# One target of each family may be given
expect_sent "an IPv4 and an IPv6 probe-target" \
	"$(printf 'probe_target=192.0.2.1\nprobe_interval_us=10000\nprobe_target6=2001:db8::1')" \
	probe-target 192.0.2.1 probe-interval 10ms probe-target 2001:db8::1
expect_sent "probe-target none" "$(printf 'probe_target=0.0.0.0\nprobe_target6=::')" \
	probe-target none
expect_sent "no options as an empty nest" ""

# --- 3b. an option given twice -----------------------------------------

# Refused as iproute2 refuses one (duparg()), naming the option, rather
# than sent twice for the kernel to keep the last
expect_fail "weight given twice" 'duplicate "weight": "5" is the second value' \
	master stripe0 weight 4 weight 5
expect_fail "weight auto, then a number" \
	'duplicate "weight": "5" is the second value' weight auto weight 5
expect_fail "master given twice" \
	'duplicate "master": "stripe1" is the second value' \
	master stripe0 master stripe1
expect_fail "limit given twice, even the same" \
	'duplicate "limit": "10" is the second value' limit 10 limit 10
expect_fail "reorder given twice" \
	'duplicate "reorder": "off" is the second value' reorder on reorder off
expect_fail "hold-max given twice, in other units" \
	'duplicate "hold-max": "1ms" is the second value' \
	hold-max 1000us quantum 3000 hold-max 1ms
expect_fail "two IPv4 probe-targets" \
	'duplicate "probe-target": "192.0.2.2": one IPv4 and one IPv6 target at most' \
	probe-target 192.0.2.1 probe-target 192.0.2.2
expect_fail "two IPv6 probe-targets" \
	'duplicate "probe-target": "2001:db8::2"' \
	probe-target 2001:db8::1 probe-target 2001:db8::2
expect_fail "probe-target none and an address" \
	'duplicate "probe-target": "none"' probe-target 192.0.2.1 probe-target none
expect_fail "an address after probe-target none" \
	'duplicate "probe-target": "2001:db8::1"' \
	probe-target none probe-target 2001:db8::1

# Every option, given twice with a value it accepts, is refused
for opt in master:stripe0 weight:5 limit:10 reorder:on quantum:3000 \
	   hold-max:5ms flow-limit:10 buffer-limit:10 memory-limit:65536 \
	   stripe-min:0 hold-auto:on probe-target:192.0.2.1 \
	   probe-interval:1s; do
	o=${opt%%:*} v=${opt#*:}
	tc_add "$o" "$v" "$o" "$v"
	if [ $rc -eq 1 ] && grep -qF "duplicate \"$o\"" "$tmp/err" &&
	   [ ! -e "$tmp/sent" ]; then
		ok "rejects $o given twice"
	else
		not_ok "rejects $o given twice" "rc=$rc" \
			"got: $(head -2 "$tmp/err" | tr '\n' '|')" \
			"request sent: $([ -e "$tmp/sent" ] && echo yes || echo no)"
	fi
done

# --- 4. printing options and statistics ---------------------------------

"$tmp/gen" master >"$tmp/dump" && "$tmp/gen" link >>"$tmp/dump" ||
	bail "generator failed"

"$TC" -s monitor file "$tmp/dump" >"$tmp/text" 2>"$tmp/err"
rc=$?
# expect_line DESCRIPTION REGEX: a line of the text output matches
expect_line()
{
	if [ $rc -eq 0 ] && grep -qE -- "$2" "$tmp/text"; then
		ok "text: $1"
	else
		not_ok "text: $1" "rc=$rc, want /$2/" \
			"got: $(tr '\n' '|' <"$tmp/text") $(tr '\n' '|' <"$tmp/err")"
	fi
}

expect_line "master options" \
	'qdisc stripe 8001: .*reorder on quantum 3000 hold-max 10ms flow-limit 100 buffer-limit 1000 memory-limit 1048576 stripe-min 0 hold-auto on *$'
expect_line "master totals, sender id, markers" \
	'^  master stripe0 links 2 active 1 sender 0x0a0b0c0d tx 1000 pkts 5000000000 bytes busy 3 drops 4 rx 900 pkts 60000 bytes markers tx 11 rx 12$'
expect_line "resequencer, with the senders" \
	'^  resequencer in_order 800 resequenced 90 held 2 pkts 3000 bytes mem 8192 hold_max 4000us lost_link 1 lost_timeout 2 lost_limit 3 late 4 malformed 5 no_state 6 senders 2 hold_bound 7000us$'
expect_line "hold-time histogram, every bucket" \
	'^  hold-us <16:100 <64:101 <256:102 <1024:103 <4096:104 <16384:105 <65536:106 >=65536:107$'
expect_line "first link, markers and skew" \
	'^  link eth2 weight 10 flags up,carrier,active tx 101 pkts 102 bytes busy 103 drops 104 neigh_fail 105 rx 106 pkts 107 bytes markers tx 108 skew 250us$'
expect_line "second link, skew not measured yet" \
	'^  link eth3 weight 1 flags up tx 201 pkts 202 bytes busy 203 drops 204 neigh_fail 205 rx 206 pkts 207 bytes markers tx 208$'
expect_line "a peer the receiver hears" \
	'^  peer 0x01020304 heard 3ms ago links 2 silent 1 skew 250us frames 500 held 2 lost_link 1 lost_timeout 2 late 4$'
expect_line "link options" \
	'qdisc stripe 8002: .*master stripe0 weight 5 limit 1000 *$'
expect_line "link role names its master" '^  member of stripe0$'
expect_line "link without flags" \
	'^  link eth2 weight 5 flags none tx 301 pkts 302 bytes busy 303'
if grep -q '!!!\|42\b' "$tmp/text" "$tmp/err"; then
	not_ok "text: unknown attributes are skipped silently" \
		"$(grep '!!!\|42' "$tmp/text" "$tmp/err")"
else
	ok "text: unknown attributes are skipped silently"
fi

# check_json DUMP MIN: replays DUMP with "tc -s -j" and runs the Python
# checks on stdin with the JSON file as argv[1].  They print "ok - ..." or
# "not ok - ..." (and "#" comments); these are renumbered into our TAP
# stream, and fewer than MIN results (a crashed checker) is a failure.
check_json()
{
	local dump=$1 min=$2 name line results=0

	name=$(basename "$dump")
	if ! command -v python3 >/dev/null; then
		cat >/dev/null
		ok "json: $name checked # SKIP python3 not installed"
		return
	fi
	STRIPE_SHIM_JSON=1 LD_PRELOAD=$tmp/shim.so \
		"$TC" -s -j monitor file "$dump" >"$tmp/json" 2>"$tmp/err"
	rc=$?
	if [ $rc -ne 0 ] || [ -s "$tmp/err" ]; then
		cat >/dev/null
		not_ok "json: tc -s -j on $name succeeds quietly" \
			"rc=$rc $(head -3 "$tmp/err")"
		return
	fi
	python3 - "$tmp/json" >"$tmp/pyout" 2>&1
	while read -r line; do
		case $line in
		"ok - "*) ok "${line#ok - }"; results=$((results + 1)) ;;
		"not ok - "*)
			not_ok "${line#not ok - }"; results=$((results + 1)) ;;
		"#"*) echo "$line" ;;
		*) echo "# $line" ;;
		esac
	done <"$tmp/pyout"
	[ $results -ge "$min" ] ||
		not_ok "json: all checks on $name ran" \
			"only $results of $min results"
}

check_json "$tmp/dump" 10 <<'EOF'
import json, sys

try:
    m, l = json.load(open(sys.argv[1]))
except (ValueError, TypeError) as e:
    print("not ok - json: output is an array of two qdiscs: %s" % e)
    sys.exit(0)
link0 = {"name": "eth2", "ifindex": 3, "weight": 10,
         "flags": ["up", "carrier", "active"],
         "tx_packets": 101, "tx_bytes": 102, "tx_busy": 103,
         "tx_drops": 104, "neigh_fail": 105, "rx_packets": 106,
         "rx_bytes": 107, "tx_markers": 108, "rx_skew_us": 250}
bounds = [16, 64, 256, 1024, 4096, 16384, 65536]
hist = [{"ge_us": lo, "lt_us": hi, "packets": 100 + k}
        for k, (lo, hi) in enumerate(zip([0] + bounds, bounds))]
hist.append({"ge_us": 65536, "packets": 107})
master = m.get("master", {})
reseq = ("rx_in_order", "rx_resequenced", "rx_held", "rx_held_bytes",
         "rx_held_mem", "rx_hold_max_us", "rx_lost_link", "rx_lost_timeout",
         "rx_lost_limit", "rx_late", "rx_malformed", "rx_no_state",
         "rx_senders", "rx_hold_us", "rx_hold_hist")
links = m.get("links", [])
checks = [
    ("master options", m.get("options") == {
        "reorder": True, "quantum": 3000, "hold_max_us": 10000,
        "flow_limit": 100, "buffer_limit": 1000, "memory_limit": 1048576,
        "stripe_min": 0, "hold_auto": True}),
    ("master role", m.get("role") == "master"),
    ("master totals, sender id, markers", {
        k: v for k, v in master.items() if k not in reseq} == {
        "name": "stripe0", "links": 2, "active": 1,
        "sender_id": 0x0a0b0c0d, "tx_packets": 1000,
        "tx_bytes": 5000000000, "tx_busy": 3, "tx_drops": 4,
        "rx_packets": 900, "rx_bytes": 60000, "tx_markers": 11,
        "rx_markers": 12}),
    ("master resequencer, with the senders", {
        k: master.get(k) for k in reseq[:-1]} == {
        "rx_in_order": 800, "rx_resequenced": 90, "rx_held": 2,
        "rx_held_bytes": 3000, "rx_held_mem": 8192,
        "rx_hold_max_us": 4000, "rx_lost_link": 1,
        "rx_lost_timeout": 2, "rx_lost_limit": 3, "rx_late": 4,
        "rx_malformed": 5, "rx_no_state": 6, "rx_senders": 2,
        "rx_hold_us": 7000}),
    ("hold-time histogram, every bucket",
        master.get("rx_hold_hist") == hist),
    ("links array, markers and skew", len(links) == 2 and
        links[0] == link0 and links[1].get("name") == "eth3" and
        links[1].get("flags") == ["up"] and
        links[1].get("tx_markers") == 208),
    ("peers array", m.get("peers") == [{
        "id": 0x01020304, "age_ms": 3, "links": 2, "silent": 1,
        "skew_us": 250, "frames": 500, "held": 2, "lost_link": 1,
        "lost_timeout": 2, "late": 4}]),
    ("skew not measured: no rx_skew_us key",
        len(links) == 2 and "rx_skew_us" not in links[1]),
    ("link options", l.get("options") == {
        "master": "stripe0", "weight": 5, "limit": 1000}),
    ("link role", l.get("role") == "link" and
        l.get("master") == {"name": "stripe0"} and
        len(l.get("links", [])) == 1 and l["links"][0]["flags"] == []),
]
for desc, good in checks:
    print("%s - json: %s" % ("ok" if good else "not ok", desc))
    if not good:
        print("#   got: %s" % json.dumps(l if desc.startswith("link ")
                                         else m))
EOF

# The histogram cut short, and longer than the header knows
"$tmp/gen" hist-cut >"$tmp/hist" && "$tmp/gen" hist-long >>"$tmp/hist" ||
	bail "generator failed"
"$TC" -s monitor file "$tmp/hist" >"$tmp/text" 2>"$tmp/err"
rc=$?
expect_line "no markers, no sender: nothing printed" '^  master stripe1$'
expect_line "cut histogram: the buckets that were read, in their places" \
	'^  hold-us <16:5 <256:7$'
expect_line "skew too short to read: not printed" '^  link eth5$'
expect_line "markers tx without rx" '^  master stripe2 markers tx 3$'
expect_line "buckets past the last add to the unbounded one" \
	'^  hold-us <16:1 <64:2 <256:3 <1024:4 <4096:5 <16384:6 <65536:7 >=65536:27$'
if [ -s "$tmp/err" ]; then
	not_ok "text: the cut histogram prints no warnings" "$(cat "$tmp/err")"
else
	ok "text: the cut histogram prints no warnings"
fi

check_json "$tmp/hist" 3 <<'EOF'
import json, sys

try:
    cut, long_ = json.load(open(sys.argv[1]))
except (ValueError, TypeError) as e:
    print("not ok - json: output is an array of two qdiscs: %s" % e)
    sys.exit(0)
bounds = [16, 64, 256, 1024, 4096, 16384, 65536]
hist = [{"ge_us": lo, "lt_us": hi, "packets": 1 + k}
        for k, (lo, hi) in enumerate(zip([0] + bounds, bounds))]
hist.append({"ge_us": 65536, "packets": 8 + 9 + 10})
checks = [
    ("cut histogram: the buckets that were read", cut.get("master") == {
        "name": "stripe1", "rx_hold_hist": [
            {"ge_us": 0, "lt_us": 16, "packets": 5},
            {"ge_us": 64, "lt_us": 256, "packets": 7}]}),
    ("skew too short to read: no rx_skew_us key",
        cut.get("links") == [{"name": "eth5"}]),
    ("long histogram folded into the last bucket, tx markers alone",
        long_.get("master") == {"name": "stripe2", "tx_markers": 3,
                                "rx_hold_hist": hist}),
]
for desc, good in checks:
    print("%s - json: %s" % ("ok" if good else "not ok", desc))
    if not good:
        print("#   got: %s" % json.dumps([cut, long_]))
EOF

"$tmp/gen" bad >"$tmp/bad" || bail "generator failed"
"$TC" -s monitor file "$tmp/bad" >"$tmp/text" 2>"$tmp/err"
rc=$?
expect_line "short attributes are skipped, not read past" \
	'master AAAAAAAAAAAAAAA reorder 7 *$'
expect_line "u32 counter accepted for u64" '^  master \? tx 12345 pkts$'
expect_line "empty link" '^  link \?$'
if grep -q 'weight\|limit\|links\|flags' "$tmp/text"; then
	not_ok "text: short attributes print nothing" "$(cat "$tmp/text")"
else
	ok "text: short attributes print nothing"
fi

if command -v valgrind >/dev/null; then
	cat "$tmp/bad" "$tmp/hist" >"$tmp/vgdump"
	valgrind -q --error-exitcode=99 "$TC" -s monitor file "$tmp/vgdump" \
		>/dev/null 2>"$tmp/vg"
	rc=$?
	if [ $rc -eq 0 ]; then
		ok "valgrind: no invalid reads on malformed stats"
	else
		not_ok "valgrind: no invalid reads on malformed stats" \
			"rc=$rc" "$(head -20 "$tmp/vg")"
	fi
else
	ok "valgrind: no invalid reads # SKIP valgrind not installed"
fi

# --- 5. the man page matches the usage text ----------------------------

man=$here/../Documentation/tc-stripe.8
tc_add help
# The synopsis as rendered text, to compare with the usage lines
synopsis=$(groff -man -Tascii -P-cbou "$man" 2>/dev/null |
	   sed -n '/^SYNOPSIS/,/^DESCRIPTION/p' | tr -s ' \n' '  ')
missing=
while read -r line; do
	line=${line#Usage: }
	line=$(echo "$line" | sed 's/^\.\.\. stripe/tc qdisc ... stripe/' |
	       tr -s ' ')
	case $synopsis in
	*"$line"*) ;;
	*) missing="$missing [$line]" ;;
	esac
done < <(sed -n '1,/^$/p' "$tmp/err" | grep -v '^$')
if ! command -v groff >/dev/null; then
	ok "man page synopsis matches usage # SKIP groff not installed"
elif [ -z "$missing" ] && [ -n "$synopsis" ]; then
	ok "man page synopsis matches the usage text"
else
	not_ok "man page synopsis matches the usage text" \
		"not in synopsis:$missing" "synopsis: $synopsis"
fi

if ! command -v groff >/dev/null; then
	ok "man page renders cleanly # SKIP groff not installed"
elif warn=$(groff -man -ww -z "$man" 2>&1) && [ -z "$warn" ]; then
	ok "man page renders without groff warnings"
else
	not_ok "man page renders without groff warnings" "$warn"
fi

# --- 6. one spelling of the statistics (issue 15) -----------------------
# include/stripe_stats_names.h names every TCA_STRIPE_[MLP]STAT_ attribute;
# tc -j prints no other key for a master, a link or a peer; tc-stripe.8 documents
# every key tc -j prints.
STRIPE_SHIM_JSON=1 LD_PRELOAD=$tmp/shim.so \
	"$TC" -s -j monitor file "$tmp/dump" >"$tmp/json" 2>/dev/null
if out=$(python3 - "$here/.." "$tmp/json" <<'EOF_PY' 2>&1
import json, re, sys
top, dump = sys.argv[1], sys.argv[2]
uapi = open(top + "/include/uapi/linux/stripe.h").read()
names = open(top + "/include/stripe_stats_names.h").read()
man = open(top + "/Documentation/tc-stripe.8").read().replace("\\", "")
bad = []
table = {}
for kind in "MLP":
    enum = uapi[uapi.index("TCA_STRIPE_%sSTAT_UNSPEC" % kind):]
    enum = enum[:enum.index("__TCA_STRIPE_%sSTAT_MAX" % kind)]
    attrs = [a for a in re.findall(r"TCA_STRIPE_%sSTAT_(\w+)," % kind, enum)
             if a not in ("UNSPEC", "PAD")]
    got = dict(re.findall(r'\[TCA_STRIPE_%sSTAT_(\w+)\] = "(\w+)"' % kind,
                          names))
    table[kind] = set(got.values())
    bad += ["%sSTAT_%s has no name" % (kind, a) for a in attrs if a not in got]
m = json.load(open(dump))[0]
keys = set(m["master"]) | set(k for l in m["links"] for k in l) | \
    set(k for p in m["peers"] for k in p)
bad += ["tc -j master key %s not in the table" % k
        for k in m["master"] if k not in table["M"]]
bad += ["tc -j link key %s not in the table" % k
        for l in m["links"] for k in l if k not in table["L"]]
bad += ["tc -j peer key %s not in the table" % k
        for p in m["peers"] for k in p if k not in table["P"]]
bad += ["tc -j key %s not in tc-stripe.8" % k for k in sorted(keys)
        if not re.search(r"\b%s\b" % k, man)]
print("; ".join(bad))
sys.exit(1 if bad else 0)
EOF_PY
); then
	ok "statistics: one name per attribute, tc -j and tc-stripe.8 use it"
else
	not_ok "statistics: one name per attribute, tc -j and tc-stripe.8 use it" \
		"$out"
fi

echo "1..$n"
echo "test-parse: $((n - failed)) passed, $failed failed"
[ $failed -eq 0 ]
