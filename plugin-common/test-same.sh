#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test: tc and ip print a master the same (review U3).  One set of
# statistics attributes, put where the kernel puts it for each
# (kernel/stats.c: TCA_STATS_APP in tc's qdisc dump, IFLA_INFO_XSTATS in
# ip's link dump), is replayed through "tc -s monitor file" and
# "ip -s -d monitor file" with this tree's plugins, and so are the same
# options.  The JSON objects must be equal, keys, types and values: tc's
# role, master, links and peers and ip's info_xstats; tc's options and
# ip's info_data; a link's weight, limit and flags.  The text lines must
# be equal too, but for ip's indent.  No kernel module is needed.
#
# Output is TAP; the exit status is non-zero if any check failed.
# Environment: TC (default /sbin/tc), IP (default /sbin/ip), CC (cc).

set -u

here=$(cd "$(dirname "$0")" && pwd)
TC=${TC:-/sbin/tc}
IP=${IP:-/sbin/ip}
CC=${CC:-cc}

bail()
{
	echo "Bail out! $*"
	exit 1
}

[ -x "$TC" ] || bail "no tc at $TC"
[ -x "$IP" ] || bail "no ip at $IP"
command -v python3 >/dev/null || bail "python3 is needed"
for so in "$here/../tc-plugin/q_stripe.so" "$here/../ip-plugin/link_stripe.so" \
	  "$here/../ip-plugin/link_stripe_slave.so"; do
	[ -f "$so" ] || bail "no $so: build the plugins first (make check here)"
done

tmp=$(mktemp -d) || bail "mktemp failed"
trap 'rm -rf "$tmp"' EXIT

"$CC" -Wall -Werror -O2 -I"$here/../include/uapi" -o "$tmp/dump" \
	"$here/tests/dump.c" || bail "cannot build the dump generator"
"$CC" -Wall -Werror -O2 -fPIC -shared -o "$tmp/json.so" \
	"$here/tests/json_shim.c" -ldl || bail "cannot build the JSON shim"

# tc and ip load this tree's plugins and no other
mkdir "$tmp/tc" && cp "$here/../tc-plugin/q_stripe.so" "$tmp/tc/" ||
	bail "cannot stage the tc plugin"
export TC_LIB_DIR=$tmp/tc
export IP_LIB_DIR=$here/../ip-plugin

# "link": a link's qdisc, with the options of same-ip-link
for set in same-tc link same-ip same-ip-link; do
	"$tmp/dump" $set >"$tmp/$set" || bail "the generator failed on $set"
done

# run NAME CMD...: CMD's stdout in $tmp/NAME; stderr or a failure bails
run()
{
	local name=$1

	shift
	"$@" >"$tmp/$name" 2>"$tmp/$name.err" && [ ! -s "$tmp/$name.err" ] ||
		bail "$name: $* failed: $(head -3 "$tmp/$name.err")"
}

# ip's monitor opens no object for a link: the shim does, one link a file
run tc.json env STRIPE_SHIM_JSON=1 LD_PRELOAD="$tmp/json.so" \
	"$TC" -s -j monitor file "$tmp/same-tc"
run tc-link.json env STRIPE_SHIM_JSON=1 LD_PRELOAD="$tmp/json.so" \
	"$TC" -s -j monitor file "$tmp/link"
run ip.json env STRIPE_SHIM_JSON=object LD_PRELOAD="$tmp/json.so" \
	"$IP" -s -d -j monitor file "$tmp/same-ip"
run ip-link.json env STRIPE_SHIM_JSON=object LD_PRELOAD="$tmp/json.so" \
	"$IP" -s -d -j monitor file "$tmp/same-ip-link"
run tc.txt "$TC" -s monitor file "$tmp/same-tc"
run ip.txt "$IP" -s -d monitor file "$tmp/same-ip"

python3 - "$tmp" <<'EOF'
import json, re, sys

tmp = sys.argv[1]
n = failed = 0


def load(name):
    with open("%s/%s" % (tmp, name)) as f:
        return json.load(f)


def check(desc, want, got):
    """want and got equal, types too (1 != "1", True != 1)"""
    global n, failed
    n += 1
    same = json.dumps(want, sort_keys=True) == json.dumps(got, sort_keys=True)
    print("%sok %d - %s" % ("" if same else "not ", n, desc))
    if not same:
        failed += 1
        for line in diff(want, got, "")[:12]:
            print("#   " + line)


def diff(a, b, path):
    """where a (tc's) and b (ip's) differ, one line each"""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if k not in b:
                out.append("%s.%s: tc %s, ip has none" % (path, k,
                                                         json.dumps(a[k])))
            elif k not in a:
                out.append("%s.%s: ip %s, tc has none" % (path, k,
                                                         json.dumps(b[k])))
            else:
                out += diff(a[k], b[k], "%s.%s" % (path, k))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b))
                for d in diff(x, y, "%s[%d]" % (path, i))]
    if json.dumps(a) == json.dumps(b):
        return []
    return ["%s: tc %s, ip %s" % (path or "(top)", json.dumps(a),
                                  json.dumps(b))]


try:
    tc, = load("tc.json")
    tc_link, = load("tc-link.json")
    ip, = load("ip.json")
    ip_link, = load("ip-link.json")
except (ValueError, TypeError) as e:
    print("Bail out! the JSON is not one qdisc or link a file: %s" % e)
    sys.exit(1)

info = ip.get("linkinfo", {})
xstats = info.get("info_xstats", {})
check("json: the statistics are one object, ip's info_xstats as tc's",
      {k: tc.get(k) for k in ("role", "master", "links", "peers")}, xstats)
check("json: the master's statistics, every one",
      tc.get("master"), xstats.get("master"))
check("json: the links' statistics, flags an array",
      tc.get("links"), xstats.get("links"))
check("json: the options, ip's info_data as tc's",
      tc.get("options"), info.get("info_data"))
slave = ip_link.get("linkinfo", {}).get("info_slave_data", {})
check("json: a link's options, as tc prints its qdisc's",
      tc_link.get("options", {}).get("weight"), slave.get("weight"))
check("json: a link's limit", tc_link.get("options", {}).get("limit"),
      slave.get("limit"))
check("json: a link's flags, as tc's statistics give them",
      tc.get("links", [{}])[0].get("flags"), slave.get("flags"))


def stats_lines(name, indent):
    """the statistics' lines of a text output, without the indent"""
    words = ("master ", "member of ", "resequencer", "hold-us", "link ",
             "peer ")
    with open("%s/%s" % (tmp, name)) as f:
        return [l[len(indent):].rstrip() for l in f
                if l.startswith(indent) and l[len(indent):].startswith(words)]


def opts_line(name, before):
    with open("%s/%s" % (tmp, name)) as f:
        for line in f:
            m = re.search(before + r"(reorder .*)", line)
            if m:
                return m.group(1).rstrip()
    return None


tc_lines = stats_lines("tc.txt", "  ")
check("text: the statistics' lines (%d) but for the indent" % len(tc_lines),
      tc_lines, stats_lines("ip.txt", "    "))
check("text: the options", opts_line("tc.txt", r"refcnt \d+ "),
      opts_line("ip.txt", r"^    stripe "))

print("1..%d" % n)
print("test-same: %d passed, %d failed" % (n - failed, failed))
sys.exit(1 if failed else 0)
EOF
