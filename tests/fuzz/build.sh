#!/bin/sh
# Build the libFuzzer targets with clang (outside the autotools build, which must not need
# clang). Usage: tests/fuzz/build.sh [OUTDIR]   (default /tmp/skua-fuzz)
# Then: OUTDIR/fuzz_update OUTDIR/corpus-update tests/fuzz/corpus/update -max_total_time=60
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-/tmp/skua-fuzz}
cc=${CC:-clang}
mkdir -p "$out"
flags="-g -O1 -std=gnu11 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -fno-omit-frame-pointer -I$top -Wall -Wno-unused-parameter"
lib="$top/lib/memory.c $top/lib/log.c $top/lib/hash.c $top/lib/prefix.c"
codec="$top/bgpd/wire/bgp_af.c $top/bgpd/wire/bgp_error.c $top/bgpd/wire/bgp_header.c $top/bgpd/wire/bgp_open.c
       $top/bgpd/wire/bgp_notify.c $top/bgpd/wire/bgp_attr.c $top/bgpd/wire/bgp_attr_intern.c
       $top/bgpd/wire/bgp_aspath.c $top/bgpd/wire/bgp_community.c $top/bgpd/wire/bgp_update.c"
for t in fuzz_update fuzz_open; do
	# shellcheck disable=SC2086
	$cc $flags -o "$out/$t" "$top/tests/fuzz/$t.c" $codec $lib -lpthread
	echo "built $out/$t"
done
