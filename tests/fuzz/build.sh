#!/bin/sh
# SPDX-License-Identifier: ISC
#
# Build the libFuzzer targets. The tree's libraries are built by the autotools build itself,
# configured with clang and -fsanitize=fuzzer-no-link,address,undefined in OUTDIR/build (the
# normal builds must not need clang); each tests/fuzz/fuzz_NAME.c is then linked with
# libFuzzer's main against the convenience archives of the layers it drives.
#
# Usage: tests/fuzz/build.sh [OUTDIR]        (default /tmp/skua-fuzz)
#   CC      the compiler (default clang; needs libclang-rt-14-dev for libFuzzer)
#   JOBS    make's parallelism (default: the number of processors)
#   FUZZ_TARGETS   only these targets, e.g. "fsm rib" (default: all)
# Then, e.g.: OUTDIR/fuzz_update WORKDIR tests/fuzz/corpus/update -max_len=65535
# Running them: tests/fuzz/README.md.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-/tmp/skua-fuzz}
cc=${CC:-clang}
jobs=${JOBS:-$(nproc)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
b=$out/build

# -Wno-error: the tree's -Werror is enforced by the gcc build; clang warns about things gcc
# does not (a warning here must not hide what the fuzzers find).
san="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
libcflags="$san -fsanitize=fuzzer-no-link -Wno-error"

if [ ! -x "$top/configure" ]; then
	echo "fuzz/build.sh: ./bootstrap.sh"
	# Several checkouts' builds may share a machine: serialise autoreconf in the tree.
	if command -v flock >/dev/null; then
		flock /tmp/skua-bootstrap.lock sh "$top/bootstrap.sh"
	else
		sh "$top/bootstrap.sh"
	fi
fi
mkdir -p "$b"
if [ ! -f "$b/Makefile" ]; then
	echo "fuzz/build.sh: configure CC=$cc in $b"
	(cd "$b" && "$top/configure" -q CC="$cc" CFLAGS="$libcflags")
fi

# The libraries of every layer a target links, from the top layer down (each archive before
# the ones it calls), as bgpd/subdir.am lists them.
SHOW="bgpd/show/libbgpshow"
CONFIG="bgpd/config/libbgpconfig"
INSTANCE="bgpd/instance/libbgpinstance"
SESSION="bgpd/session/libbgpsession"
FIB="bgpd/fib/libbgpfib"
RIB="bgpd/rib/libbgprib"
POLICY="bgpd/policy/libbgppolicy"
CORE="bgpd/core/libbgpcore"
WIRE="bgpd/wire/libbgpwire"
RTR="bgpd/rtr/librtr"
RPKI="bgpd/rpki/librpki"
NB="lib/libskuanb"
CLI="lib/libskuacli"
KERNEL="kernel/libkernel_null kernel/libkernelsec"
LIB="lib/libskua"

libs_wire="$WIRE $LIB"
# Session targets: the instance with its real RIB, on the null kernel.
libs_session="$INSTANCE $SESSION $FIB $RIB $POLICY $RPKI $CORE $WIRE $KERNEL $LIB"
libs_rib="$SHOW $RTR $RIB $POLICY $RPKI $CORE $WIRE kernel/libkernelsec $CLI $LIB"
# The RTR codec and ASPA merge with the real store (librtr's other members, pulled in by its
# memory type, need the kernel security layer).
libs_rtr="$RTR $RPKI $WIRE kernel/libkernelsec $LIB"
libs_daemon="$SHOW $CONFIG $RTR $INSTANCE $SESSION $FIB $RIB $POLICY $RPKI $CORE $WIRE $NB $CLI $KERNEL $LIB"

# Harness files linked into some targets (tests/fuzz/*.c that are not targets).
harness_session="fuzz_session.c fuzz_sandbox.c"
harness_daemon="fuzz_daemon.c fuzz_sandbox.c fuzz_json_check.c"

# target:libraries:harness files
targets="
update:$libs_wire:
open:$libs_wire:
framing:$libs_session:$harness_session
fsm:$libs_session:$harness_session
rib:$libs_rib:fuzz_json_check.c
config:$libs_daemon:$harness_daemon
json:$libs_daemon:$harness_daemon
vty:$libs_daemon:$harness_daemon
rtr_pdu:$libs_rtr:
rtr_session:$libs_rtr:fuzz_sandbox.c
"

all_libs=$(printf '%s\n' $libs_daemon $libs_rtr | sort -u | sed 's/$/.la/')
echo "fuzz/build.sh: make -j$jobs (the libraries) in $b"
# shellcheck disable=SC2086
if ! make -C "$b" -j"$jobs" $all_libs >"$out/make.log" 2>&1; then
	tail -40 "$out/make.log"
	echo "fuzz/build.sh: building the libraries failed (all of it in $out/make.log)" >&2
	exit 1
fi

# shellcheck disable=SC2086
syslibs=$(pkg-config --libs libevent_openssl libssl libevent libyang libcrypto)
flags="$san -fsanitize=fuzzer -std=gnu11 -DHAVE_CONFIG_H -I$top -I$b -Wall -Wextra -Wno-unused-parameter
       -Wno-missing-field-initializers"
# What would leave the process (connect(), log targets) goes through tests/fuzz/fuzz_sandbox.c
# in the targets that link the session side.
wrap="-Wl,--wrap=connect -Wl,--wrap=log_set_target"

echo "$targets" | while IFS=: read -r name libs extra; do
	[ -n "$name" ] || continue
	case " ${FUZZ_TARGETS:-$name} " in *" $name "*) ;; *) continue ;; esac
	objs=""
	for l in $libs; do
		objs="$objs $b/$(dirname "$l")/.libs/$(basename "$l").a"
	done
	srcs="$top/tests/fuzz/fuzz_$name.c"
	lflags=""
	for h in $extra; do
		srcs="$srcs $top/tests/fuzz/$h"
		case $h in fuzz_sandbox.c) lflags="$wrap" ;; esac
	done
	# shellcheck disable=SC2086
	$cc $flags $lflags -o "$out/fuzz_$name" $srcs $objs $syslibs -lpthread
	echo "built $out/fuzz_$name"
done
