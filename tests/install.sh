#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make install, autoload and the boot scripts, in the VM (its root is a
# throw-away overlay, so installing there is harmless):
#   - make install DESTDIR=...: every file where it belongs, the plugin in
#     the directory the installed tc loads plugins from; make uninstall
#     leaves nothing;
#   - make install: "ip link add ... type stripe" and "tc qdisc add ...
#     stripe" each load the module (both aliases), modprobe -r unloads it;
#   - on the testbed, gw brings stripe0 up from an interfaces stanza with
#     the real ifupdown (ifup -a, links with stanzas of their own, strict
#     rp_filter), bl brings stripe1 up from the unit's ExecStart (run twice
#     at once, as parallel starts would); a stream crosses every link;
#     ifdown and the unit's ExecStop remove all they made;
#   - with STRIPE_TEST_DKMS=1 (it compiles the module in the emulated
#     guest: minutes), make dkms-install builds and installs the module
#     through DKMS, and make dkms-uninstall removes it.
# Run: TESTS=install scripts/run-tests, or
#   STRIPE_TEST_DKMS=1 scripts/vm-run --timeout 1800 --mem 3072 -- \
#	tests/run-netns tests/install.sh
source "$(dirname "$0")/lib.sh"
require_vm
# make install installs the distro kernel's build; the debug tier loads its
# own module from build/ and has nothing to install.
if debug_kernel; then
	tap_skip "install" "installs the distro kernel's module; the debug kernel has its own build"
	tap_done
	exit 0
fi
cd "$TOP" || exit 1
N=6
WORK=$(mktemp -d)
# The build is the host's (make before the test): -o all installs it as is.
MK=(make -s -o all -o module -o plugins -o tools PREFIX=/usr/local)

T0=$(date +%s)
phase() { log "$1 at $(( $(date +%s) - T0 )) s"; }
# joined NS DEV MASTER -- DEV is a link of MASTER, the ip or the tc way
joined() {
	ip -n "$1" link show dev "$2" | grep -q "master $3 " ||
		tc -n "$1" qdisc show dev "$2" root | grep -q "master $3"
}
loaded() { grep -q '^sch_stripe ' /proc/modules; }
unload() { ip link del tmp-s0 2>/dev/null; modprobe -r sch_stripe; }

# --- make install DESTDIR ---
D=$WORK/destdir
KVER=$(uname -r)
TCDIR=$(scripts/iproute2-libdir tc)
if "${MK[@]}" install DESTDIR="$D" >"$WORK/install.log" 2>&1; then
	missing=
	for f in "lib/modules/$KVER/updates/sch_stripe.ko" "${TCDIR#/}/q_stripe.so" \
		 usr/local/bin/stripe-perf usr/local/sbin/stripe-bundle \
		 usr/local/share/man/man8/tc-stripe.8 \
		 usr/local/share/man/man8/stripe-bundle.8 \
		 usr/local/share/man/man1/stripe-perf.1 \
		 etc/network/if-pre-up.d/stripe etc/network/if-post-down.d/stripe \
		 usr/local/lib/systemd/system/stripe@.service; do
		[ -e "$D/$f" ] || missing="$missing $f"
	done
	for f in ip-plugin/*.so; do
		[ -e "$f" ] || continue
		[ -e "$D$(scripts/iproute2-libdir ip)/${f#ip-plugin/}" ] ||
			missing="$missing ${f#ip-plugin/}"
	done
	if [ -z "$missing" ]; then
		tap_ok "make install DESTDIR: module, plugins (tc's own dir $TCDIR), tools, man pages, boot scripts"
	else
		tap_fail "make install DESTDIR: every file in place" "missing:$missing"
	fi
	grep -q '/usr/local/sbin/stripe-bundle' "$D/usr/local/lib/systemd/system/stripe@.service" &&
	grep -q '/usr/local/sbin/stripe-bundle' "$D/etc/network/if-pre-up.d/stripe" &&
		tap_ok "the unit and the hook call stripe-bundle where PREFIX put it" ||
		tap_fail "the unit and the hook call stripe-bundle where PREFIX put it"
	"${MK[@]}" uninstall DESTDIR="$D" >>"$WORK/install.log" 2>&1
	left=$(find "$D" -type f -o -type l)
	[ -z "$left" ] && tap_ok "make uninstall DESTDIR leaves no file" ||
		tap_fail "make uninstall DESTDIR leaves no file" "$left"
else
	tap_fail "make install DESTDIR" "$(tail -5 "$WORK/install.log")"
fi

# --- make install into the (overlay) root, then autoload ---
phase "install into the root"
rm -f "$TCDIR/q_stripe.so"
check "make install (depmod)" "${MK[@]}" install
modinfo -n sch_stripe 2>/dev/null | grep -q "/lib/modules/$KVER/updates/" &&
	tap_ok "modinfo finds the module in updates/" ||
	tap_fail "modinfo finds the module in updates/" "$(modinfo -n sch_stripe 2>&1)"

loaded && unload
if ip link add tmp-s0 type stripe 2>"$WORK/err" && loaded; then
	tap_ok "ip link add type stripe loads the module (rtnl-link-stripe)"
else
	tap_fail "ip link add type stripe loads the module (rtnl-link-stripe)" "$(cat "$WORK/err")"
fi
check "modprobe -r sch_stripe after ip link del" unload
! loaded && tap_ok "the module is gone" || tap_fail "the module is gone"

ip link add tmp-v0 type veth peer name tmp-v1
# No master of that name: the qdisc is refused, but its kind is known,
# which needs the module.
tc qdisc add dev tmp-v0 root stripe master tmp-none >"$WORK/err" 2>&1
if loaded; then
	tap_ok "tc qdisc add ... stripe loads the module (sch_stripe / net-sch-stripe)"
else
	tap_fail "tc qdisc add ... stripe loads the module (sch_stripe / net-sch-stripe)" \
		"$(cat "$WORK/err")"
fi
ip link del tmp-v0
check "modprobe -r sch_stripe after tc" unload

# --- the boot scripts on the testbed ---
phase "boot scripts"
tb_setup $N 1500
gl="" bls=""
for i in $(seq 1 $N); do
	gl="$gl g$i"
	bls="$bls b$i"
	# the links start down: the bundle brings them up
	ip -n $GW link set "g$i" down
	ip -n $BL link set "b$i" down
done
# A distro's strict reverse-path filter (all=1): without more, ARP for the
# master's addresses arriving on a link (no address of its own) is dropped.
for ns in $GW $BL; do
	ip netns exec $ns sysctl -qw net.ipv4.conf.all.rp_filter=1
done
rpf_all() {	# rpf_all NS -- every interface's rp_filter, name=value
	ip netns exec "$1" sh -c 'cd /proc/sys/net/ipv4/conf &&
		for d in *; do echo "$d=$(cat $d/rp_filter)"; done' |
		grep -v '^stripe[01]='
}
RPF_GW=$(rpf_all $GW)
RPF_BL=$(rpf_all $BL)

# gw: ifupdown, ifup -a over the bundle and stanzas of its links
{
	for i in $(seq 1 $N); do
		printf 'auto g%s\niface g%s inet manual\n\n' "$i" "$i"
	done
	cat <<EOF
auto stripe0
iface stripe0 inet static
	address 10.9.0.1/24
	stripe-links$gl
	stripe-reorder on
	stripe-weights 1 1 1 1 2 2
EOF
} >"$WORK/interfaces"
mkdir -p "$WORK/ifstate"
IFUP=(ip netns exec $GW ifup -i "$WORK/interfaces" --state-dir "$WORK/ifstate")
IFDOWN=(ip netns exec $GW ifdown -i "$WORK/interfaces" --state-dir "$WORK/ifstate")
if ! command -v ifup >/dev/null; then
	tap_skip "ifup -a brings stripe0 up" "ifupdown not installed (scripts/deps)"
else
	check "ifup -a brings stripe0 up from its stanza" "${IFUP[@]}" -a
	ip -n $GW -d link show stripe0 2>/dev/null | grep -qw stripe &&
		tap_ok "stripe0 exists in gw" || tap_fail "stripe0 exists in gw"
	n=0
	for i in $(seq 1 $N); do
		joined $GW "g$i" stripe0 && n=$((n + 1))
	done
	[ "$n" = $N ] && tap_ok "all $N links joined stripe0" ||
		tap_fail "all $N links joined stripe0" "joined: $n"
	{ ip -n $GW -d link show dev g5; tc -n $GW qdisc show dev g5 root; } |
		grep -q 'weight 2' &&
		tap_ok "stripe-weights: g5 has weight 2" ||
		tap_fail "stripe-weights: g5 has weight 2" \
			"$(ip -n $GW -d link show dev g5; tc -n $GW qdisc show dev g5 root)"
	ip -n $GW -d link show dev stripe0 | grep -q 'reorder on' ||
		tc -n $GW qdisc show dev stripe0 root | grep -q 'reorder on' &&
		tap_ok "stripe-reorder on: the master has it" ||
		tap_fail "stripe-reorder on: the master has it" \
			"$(ip -n $GW -d link show dev stripe0)"

	rpf=$(ip netns exec $GW sh -c 'cd /proc/sys/net/ipv4/conf &&
		echo $(cat all/rp_filter g1/rp_filter lo/rp_filter)')
	[ "$rpf" = "0 0 1" ] &&
		tap_ok "strict rp_filter: all and the links 0, lo keeps 1" ||
		tap_fail "strict rp_filter: all and the links 0, lo keeps 1" \
			"all, g1, lo: $rpf"
fi

# bl: the unit's own ExecStart/ExecStop, %i expanded as systemd does
UNIT=/usr/local/lib/systemd/system/stripe@.service
unit_cmd() {	# unit_cmd KEY INSTANCE
	sed -n "s/^$1=//p" "$UNIT" | sed "s/%i/$2/g"
}
mkdir -p /etc/stripe
cat >/etc/stripe/stripe1.conf <<EOF
# bl's end, as the unit reads it
links=$bls
reorder=on
weights=1 1 1 1 2 2
address=10.9.0.2/24
EOF
start=$(unit_cmd ExecStart stripe1)
stop=$(unit_cmd ExecStop stripe1)
log "ExecStart: $start"
log "ExecStop: $stop"
# two starts at once: the second must find the bundle made, not fail
ip netns exec $BL sh -c "$start" >"$WORK/start1" 2>&1 &
p1=$!
ip netns exec $BL sh -c "$start" >"$WORK/start2" 2>&1
r2=$?
wait $p1
r1=$?
[ "$r1" = 0 ] && [ "$r2" = 0 ] &&
	tap_ok "the unit's ExecStart, twice at once, both succeed" ||
	tap_fail "the unit's ExecStart, twice at once, both succeed" \
		"$(cat "$WORK/start1" "$WORK/start2")"
BL_STATE=$(ls /run/stripe/netns-*/stripe1.state 2>/dev/null | head -1)
n=$(grep -c '^link ' "$BL_STATE" 2>/dev/null)
[ "$n" = $N ] && tap_ok "each link joined once (state has $N links)" ||
	tap_fail "each link joined once" "$(cat "$BL_STATE" 2>&1)"

# traffic over both
phase "traffic"
if wait_for ip netns exec $GW ping -c 1 -W 1 10.9.0.2; then
	tap_ok "gw reaches bl over the bundle"
	# the aggregate shaped on the master, where its root qdisc is free
	CAKE=0
	if ip -n $GW -d link show dev stripe0 | grep -qw reorder; then
		check "cake on the master" tc -n $GW qdisc replace dev stripe0 root \
			cake bandwidth 500mbit
		CAKE=1
	else
		tap_skip "cake on the master" "master options in its root qdisc (no ip link way)"
	fi
	ip netns exec $BL iperf3 -s -1 -D
	wait_for listening $BL 5201
	got=$(ip netns exec $GW iperf3 -c 10.9.0.2 -t 3 -J 2>/dev/null |
		python3 -c 'import json,sys; print(int(json.load(sys.stdin)["end"]["sum_received"]["bytes"]))' 2>/dev/null)
	used=0
	for i in $(seq 1 $N); do
		[ "$(link_stat $GW "g$i" tx_bytes)" -gt 100000 ] 2>/dev/null &&
			used=$((used + 1))
	done
	[ "${got:-0}" -gt 1000000 ] && [ "$used" = $N ] &&
		tap_ok "a stream over the bundle: ${got} bytes, all $N links used" ||
		tap_fail "a stream over the bundle uses every link" \
			"received ${got:-0} bytes, links with >100 KB: $used"
	if [ "$CAKE" = 1 ]; then
		sent=$(tc -n $GW -s -j qdisc show dev stripe0 root | python3 -c '
import json, sys
print(sum(q.get("bytes", 0) for q in json.load(sys.stdin) if q.get("kind") == "cake"))')
		[ "${sent:-0}" -gt 1000000 ] &&
			tap_ok "the stream went through cake on the master ($sent bytes)" ||
			tap_fail "the stream went through cake on the master" "cake sent ${sent:-0} bytes"
	fi
else
	tap_fail "gw reaches bl over the bundle" "$(ip -n $GW neigh; ip -n $BL neigh;
		ip netns exec $BL sysctl net.ipv4.conf.all.rp_filter net.ipv4.conf.b1.rp_filter;
		ip -n $BL -br link; ip -n $BL -br addr; ip -n $GW -br link)"
fi

# down: everything made goes, everything changed comes back
phase "down"
if command -v ifdown >/dev/null; then
	check "ifdown stripe0" "${IFDOWN[@]}" stripe0
	left=""
	ip -n $GW link show stripe0 >/dev/null 2>&1 && left="$left stripe0"
	for i in $(seq 1 $N); do
		joined $GW "g$i" stripe0 && left="$left g$i:joined"
		tc -n $GW qdisc show dev "g$i" root | grep -qw stripe && left="$left g$i:qdisc"
	done
	ls /run/stripe/netns-*/stripe0.state >/dev/null 2>&1 && left="$left state"
	rpf=$(rpf_all $GW)
	[ "$rpf" = "$RPF_GW" ] ||
		left="$left rp_filter: now $(echo "$rpf" | grep -vxF "$RPF_GW" | tr '\n' ' ')"
	[ -z "$left" ] && tap_ok "ifdown removed all the hook made" ||
		tap_fail "ifdown removed all the hook made" "left:$left"
fi
check "the unit's ExecStop" ip netns exec $BL sh -c "$stop"
left=""
ip -n $BL link show stripe1 >/dev/null 2>&1 && left="$left stripe1"
for i in $(seq 1 $N); do
	joined $BL "b$i" stripe1 && left="$left b$i:joined"
	tc -n $BL qdisc show dev "b$i" root | grep -qw stripe && left="$left b$i:qdisc"
	ip -n $BL link show "b$i" | grep -q '[<,]UP[,>]' && left="$left b$i:up"
done
[ -e "$BL_STATE" ] && left="$left state"
rpf=$(rpf_all $BL)
[ "$rpf" = "$RPF_BL" ] ||
	left="$left rp_filter: now $(echo "$rpf" | grep -vxF "$RPF_BL" | tr '\n' ' ')"
[ -z "$left" ] && tap_ok "ExecStop removed all the unit made (links back down)" ||
	tap_fail "ExecStop removed all the unit made" "left:$left"
tb_cleanup
trap - EXIT
check "modprobe -r sch_stripe after the bundles" unload

phase "dkms"
# --- DKMS: it compiles the module in the emulated guest (many minutes on
# a busy host), so only on request ---
if ! command -v dkms >/dev/null; then
	tap_skip "make dkms-install" "dkms not installed (scripts/deps)"
elif [ "${STRIPE_TEST_DKMS:-0}" != 1 ]; then
	tap_skip "make dkms-install" "it builds in the VM; STRIPE_TEST_DKMS=1 to run it"
else
	"${MK[@]}" uninstall >/dev/null 2>&1
	t0=$(date +%s)
	if "${MK[@]}" dkms-install >"$WORK/dkms.log" 2>&1; then
		tap_ok "make dkms-install ($(( $(date +%s) - t0 )) s)"
	else
		tap_fail "make dkms-install" "$(tail -8 "$WORK/dkms.log")"
	fi
	modinfo -n sch_stripe 2>/dev/null | grep -q "/updates/dkms/" &&
		tap_ok "the module DKMS built is the one modprobe finds" ||
		tap_fail "the module DKMS built is the one modprobe finds" \
			"$(modinfo -n sch_stripe 2>&1)"
	ip link add tmp-s0 type stripe && loaded &&
		tap_ok "autoload of the DKMS module" || tap_fail "autoload of the DKMS module"
	check "modprobe -r after DKMS" unload
	"${MK[@]}" dkms-uninstall >>"$WORK/dkms.log" 2>&1
	if modinfo -n sch_stripe >/dev/null 2>&1 || [ -d /usr/src/stripe-0.1 ]; then
		tap_fail "make dkms-uninstall removes it" "$(modinfo -n sch_stripe 2>&1; ls /usr/src)"
	else
		tap_ok "make dkms-uninstall removes it"
	fi
fi
rm -rf "$WORK"
tap_done
