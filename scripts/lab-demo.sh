#!/bin/bash
# SPDX-License-Identifier: ISC
#
# The README's first command: install the dependencies, build skua, and run three skua bgpd
# routers in network namespaces (a triangle, eBGP over IPv4 and IPv6, every session under GTSM
# and TCP-MD5, each router announcing an IPv4 and an IPv6 network); print every router's
# summary, tables and GTSM state; tear everything down.
#
# As root:
#   scripts/lab-demo.sh            # install, build, run, tear down
#   scripts/lab-demo.sh --hold     # ... and keep the lab up until Enter
#   scripts/lab-demo.sh --no-build # use the existing build (build/ or $SKUA_BUILDDIR)
#
# The routers' configs are tests/lab/scenarios/demo/r*/bgpd.conf; the same lab is tested by
# tests/lab/scenarios/demo/test_demo.py.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
hold=()
build=yes
for a in "$@"; do
	case "$a" in
	--hold) hold=(--hold) ;;
	--no-build) build=no ;;
	-h | --help) sed -n '4,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "lab-demo.sh: unknown argument $a (try --help)" >&2; exit 2 ;;
	esac
done

if [ "$(id -u)" -ne 0 ]; then
	echo "lab-demo.sh: network namespaces need root: run it as root (su -, then $0 $*)" >&2
	exit 1
fi

bash scripts/install-deps.sh
[ "$build" = yes ] && bash scripts/build.sh

SHOW=("show ip bgp summary" "show bgp ipv4 unicast" "show bgp ipv6 unicast")

# Every session is protected by GTSM (ttl-security hops 1: the kernel drops segments from a
# peer farther than one hop, the handshake included) and TCP-MD5 (password); doc/gtsm.md.
SHOW+=("show bgp gtsm")

PYTHONPATH=$top/tests/lab exec /usr/bin/python3 -m skualab up "$top/tests/lab/scenarios/demo" \
	"${SHOW[@]/#/--show=}" "${hold[@]}"
