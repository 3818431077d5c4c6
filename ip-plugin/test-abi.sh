#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The plugins import only symbols the ip binary exports (or libc's):
# a symbol ip lacks would make dlopen fail and "type stripe" unknown.
# Then ip itself runs them: parsing, help and printing, each through
# ip's own struct link_util, so a member at the wrong offset shows here.
IP=${IP:-/sbin/ip}
cd "$(dirname "$0")" || exit 1
rc=0
exported=$(nm -D --defined-only "$IP" | awk '{print $3}')
for so in link_stripe.so link_stripe_slave.so; do
	for sym in $(nm -D --undefined-only "$so" | awk '$1 == "U" && $2 !~ /@/ {print $2}'); do
		if grep -qx "$sym" <<<"$exported"; then
			echo "ok - $so: $sym is exported by $IP"
		else
			echo "not ok - $so: $sym is not exported by $IP"
			rc=1
		fi
	done
	for sym in stripe_link_util stripe_slave_link_util; do
		if nm -D --defined-only "$so" | grep -qw "$sym"; then
			echo "ok - $so defines $sym"
		else
			echo "not ok - $so does not define $sym"
			rc=1
		fi
	done
done
# ip finds the plugin itself: help comes from it, and a bad value or a
# repeated option is refused before anything is sent to the kernel.
out=$(IP_LIB_DIR=$PWD "$IP" link add stripe-t0 type stripe reorder maybe 2>&1)
if grep -q 'invalid reorder "maybe"' <<<"$out"; then
	echo "ok - ip loads link_stripe.so and refuses a bad value"
else
	echo "not ok - ip with IP_LIB_DIR=$PWD: $out"
	rc=1
fi
out=$(IP_LIB_DIR=$PWD "$IP" link add stripe-t0 type stripe reorder on \
	reorder off 2>&1)
if grep -q 'duplicate "reorder": "off" is the second value' <<<"$out"; then
	echo "ok - ip refuses an option given twice"
else
	echo "not ok - reorder given twice: $out"
	rc=1
fi
out=$(IP_LIB_DIR=$PWD "$IP" link add stripe-t0 type stripe help 2>&1)
if grep -q 'hold-max TIME' <<<"$out"; then
	echo "ok - ip link add type stripe help"
else
	echo "not ok - help: $out"
	rc=1
fi
# ip calls the plugin by the offsets of its own struct link_util
# (ip_abi.h): print_help, and print_opt with maxattr attributes, each
# checked in the ip binary itself (abi-check.c checks the source).
out=$(IP_LIB_DIR=$PWD "$IP" link help stripe_slave 2>&1)
if grep -q 'weight N|auto' <<<"$out"; then
	echo "ok - ip link help stripe_slave (print_help)"
else
	echo "not ok - ip link help stripe_slave: $out"
	rc=1
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# A master's and a link's RTM_NEWLINK, each with its last attribute
if ! ${CC:-cc} -Wall -Werror -I../include/uapi -o "$tmp/gen" \
	../plugin-common/tests/dump.c || ! "$tmp/gen" ip-opts >"$tmp/dump"; then
	echo "not ok - the RTM_NEWLINK generator does not build or run"
	exit 1
fi
out=$(IP_LIB_DIR=$PWD "$IP" -d monitor file "$tmp/dump" 2>&1)
if grep -q '^ *stripe reorder on quantum 3000 memory-limit 1048576 *$' <<<"$out"; then
	echo "ok - ip -d shows a master's options, the last too (print_opt, maxattr)"
else
	echo "not ok - ip -d monitor file, master: $out"
	rc=1
fi
if grep -q '^ *stripe_slave weight auto limit 500 speed 1000Mb/s *$' <<<"$out"; then
	echo "ok - ip -d shows a link's options, the last too (print_opt, maxattr)"
else
	echo "not ok - ip -d monitor file, link: $out"
	rc=1
fi
exit $rc
