#!/bin/sh
# SPDX-License-Identifier: ISC
# The layer checker (scripts/check-layers) on the tree as it is, then on copies of it with one
# mistake planted each: it must pass the first and catch every mistake, naming where it is.
# Runs under `make check` (srcdir set) or by hand from the top of the tree.
set -u
top=$(cd "${srcdir:-$(dirname "$0")/../..}" && pwd)
checker="$top/scripts/check-layers"
tmp=$(mktemp -d /tmp/skua-layers.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0

ok() { printf 'ok   %s\n' "$1"; }
bad() { printf 'FAIL %s\n' "$1"; fails=$((fails + 1)); }

# copy NAME: a fresh copy of the checked folders (sources and READMEs only) in $tmp/NAME.
copy() {
	rm -rf "${tmp:?}/$1"
	mkdir -p "$tmp/$1"
	(cd "$top" && find lib kernel vtysh bgpd \( -name '*.[ch]' -o -name README.md \) \
		-exec cp --parents -t "$tmp/$1" {} +) || return 1
	echo "$tmp/$1"
}

# expect NAME TREE PATTERN: the checker fails on TREE with a line matching PATTERN.
expect() {
	out=$(python3 "$checker" --root "$2" 2>&1)
	rc=$?
	if [ "$rc" -eq 1 ] && printf '%s\n' "$out" | grep -q -- "$3"; then
		ok "$1"
	else
		bad "$1 (exit $rc, wanted 1 and a line matching '$3'):"
		printf '%s\n' "$out" | sed 's/^/     /'
	fi
}

# The tree itself is clean.
if out=$(python3 "$checker" --root "$top" 2>&1); then
	ok "the tree follows its layers"
else
	bad "the tree itself:"
	printf '%s\n' "$out" | sed 's/^/     /'
fi

# The RIB reaching into the session side (the edge the session/RIB interface exists to avoid).
t=$(copy rib-session) || { bad "copying the tree"; exit 1; }
sed -i '0,/^#include "bgpd\//s||#include "bgpd/session/bgp_session.h"\n#include "bgpd/|' \
	"$t/bgpd/rib/bgp_rib.c"
expect "rib including a session header" "$t" \
	'^bgpd/rib/bgp_rib.c:[0-9]*: includes bgpd/session/bgp_session.h: bgpd/rib may use .*not bgpd/session'

# The wire layer reaching up to the instance (what bgpd.h used to make it do).
t=$(copy wire-core) || { bad "copying the tree"; exit 1; }
printf '#include "bgpd/core/bgp.h"\n' >>"$t/bgpd/wire/bgp_open.h"
expect "wire including core" "$t" '^bgpd/wire/bgp_open.h:[0-9]*: includes bgpd/core/bgp.h: bgpd/wire may use lib'

# lib/ knowing of BGP.
t=$(copy lib-bgpd) || { bad "copying the tree"; exit 1; }
printf '#include "bgpd/wire/bgp_af.h"\n' >>"$t/lib/prefix.h"
expect "lib including bgpd" "$t" '^lib/prefix.h:[0-9]*: includes bgpd/wire/bgp_af.h: lib may use nothing'

# A rule that closes a cycle, and an include that uses it.
t=$(copy cycle) || { bad "copying the tree"; exit 1; }
sed -i 's|^Uses: lib$|Uses: bgpd/rib lib|' "$t/bgpd/wire/README.md"
printf '#include "bgpd/rib/bgp_rib.h"\n' >>"$t/bgpd/wire/bgp_attr.c"
expect "a cycle in the Uses lines" "$t" '^the Uses lines form a cycle: .*bgpd/wire.*bgpd/rib'
expect "a cycle in the includes" "$t" '^the includes form a cycle between layers: '

# A header path that names no file (a bare name, or a file moved away).
t=$(copy dangling) || { bad "copying the tree"; exit 1; }
printf '#include "bgp_rib.h"\n' >>"$t/bgpd/rib/bgp_decision.c"
expect "an include naming no file" "$t" '^bgpd/rib/bgp_decision.c:[0-9]*: includes "bgp_rib.h", which is no file'

# A folder of sources that is no layer.
t=$(copy stray) || { bad "copying the tree"; exit 1; }
mkdir -p "$t/bgpd/bmp" && printf '/* x */\n' >"$t/bgpd/bmp/bmp.c"
expect "a source file in no layer" "$t" '^bgpd/bmp/bmp.c: in no layer'

# A Uses line naming something that is not a layer.
t=$(copy unknown) || { bad "copying the tree"; exit 1; }
sed -i 's|^Uses: \(.*\) lib$|Uses: \1 bgpd/nowhere lib|' "$t/bgpd/policy/README.md"
expect "a Uses line naming no layer" "$t" '^bgpd/policy/README.md: Uses names bgpd/nowhere'

if [ "$fails" -eq 0 ]; then
	echo "test_check_layers: all passed"
	exit 0
fi
echo "test_check_layers: $fails failed"
exit 1
