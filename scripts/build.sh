#!/bin/bash
# SPDX-License-Identifier: ISC
#
# Build skua out of tree.
#   scripts/build.sh                  -> build/       (or $SKUA_BUILDDIR)
#   scripts/build.sh --sanitizers     -> build-asan/  (ASan + UBSan, or $SKUA_ASAN_BUILDDIR)
#   scripts/build.sh --builddir DIR   -> DIR
# Runs ./bootstrap.sh first when configure is missing or older than configure.ac or a *.am
# fragment, and configure when the build directory has no Makefile yet (later changes to
# configure.ac or *.am are picked up by make's own rebuild rules).
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
sanitizers=no
builddir=

usage() {
	sed -n '4,10p' "$0" | sed 's/^# \{0,1\}//'
	exit "${1:-0}"
}

while [ $# -gt 0 ]; do
	case "$1" in
	--sanitizers) sanitizers=yes ;;
	--builddir) [ $# -ge 2 ] || usage 2; builddir=$2; shift ;;
	--builddir=*) builddir=${1#--builddir=} ;;
	-h | --help) usage 0 ;;
	*) echo "build.sh: unknown argument $1" >&2; usage 2 ;;
	esac
	shift
done

if [ -z "$builddir" ]; then
	if [ "$sanitizers" = yes ]; then
		builddir=${SKUA_ASAN_BUILDDIR:-$top/build-asan}
	else
		builddir=${SKUA_BUILDDIR:-$top/build}
	fi
fi

stale_configure() {
	[ -x "$top/configure" ] || return 0
	[ -n "$(find "$top/configure.ac" "$top/Makefile.am" -newer "$top/configure" 2>/dev/null)" ] && return 0
	[ -n "$(find "$top" \( -path "$top/.git" -o -path "$top/build*" \) -prune -o \
		-name '*.am' -newer "$top/configure" -print 2>/dev/null | head -1)" ]
}

if stale_configure; then
	echo "build.sh: ./bootstrap.sh"
	# Several checkouts' builds may share a machine: serialise autoreconf in the tree.
	if command -v flock >/dev/null; then
		flock /tmp/skua-bootstrap.lock sh "$top/bootstrap.sh"
	else
		sh "$top/bootstrap.sh"
	fi
fi

mkdir -p "$builddir"
cd "$builddir"
if [ ! -f Makefile ]; then
	args=()
	[ "$sanitizers" = yes ] && args+=(--enable-sanitizers)
	echo "build.sh: configure${args[*]:+ ${args[*]}} in $builddir"
	"$top/configure" -q "${args[@]}"
fi
echo "build.sh: make -j$(nproc) in $builddir"
make -j"$(nproc)"
