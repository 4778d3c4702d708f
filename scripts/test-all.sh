#!/bin/bash
# SPDX-License-Identifier: ISC
#
# Everything, as root on Debian 12: install dependencies, build, Check unit tests, the same
# with ASan+UBSan, then the namespace lab.  The lab runs skua's sanitizer build when it built
# (a memory error or undefined behaviour in a real session then fails its scenario), else the
# normal build.  Prints one summary line per suite, then, alone on the last line,
# "N passed, N failed" summing every suite.  Exits non-zero when anything failed.
#
#   SKUA_BUILDDIR        normal build directory (default build/)
#   SKUA_ASAN_BUILDDIR   sanitizer build directory (default build-asan/)
#   SKIP_INSTALL=1       do not run install-deps.sh
#   SKIP_ASAN=1          skip the sanitizer build and its unit tests (the lab uses build/)
#   LAB_TIMEOUT          bound on the whole lab run in seconds (default 1200)
#   FUZZ_SECONDS         how long each fuzz target runs (default 20; 0 skips the fuzz suite)
#   PYTEST_ARGS          extra pytest arguments for the lab (e.g. "-k selftest")
#   SKUA_DEB             a skua_*.deb built earlier: the lab's package test uses it instead of
#                        building one (by default it builds it once, from `make distdir` of the
#                        lab's build directory, without the unit tests: about a minute)
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
B=${SKUA_BUILDDIR:-$top/build}
BA=${SKUA_ASAN_BUILDDIR:-$top/build-asan}
PY=/usr/bin/python3

passed=0
failed=0
lines=()
t_start=$(date +%s)

note() { printf '\n=== test-all: %s\n' "$*"; }

# record SUITE PASSED FAILED SECONDS [REMARK]
record() {
	passed=$((passed + $2))
	failed=$((failed + $3))
	lines+=("$(printf '%-18s %5d passed %5d failed %5ss  %s' "$1" "$2" "$3" "$4" "${5:-}")")
}

# unit_suite NAME BUILDDIR: `make check` there and sum every Check program's
# "NN%: Checks: N, Failures: F, Errors: E" lines (from its .log).
unit_suite() {
	local name=$1 dir=$2 t0 rc p=0 f=0 n=0 remark=""
	t0=$(date +%s)
	find "$dir" -name '*.trs' -delete 2>/dev/null
	note "$name: make check in $dir"
	(cd "$dir" && make -j"$(nproc)" check)
	rc=$?
	local trs log counts status
	while IFS= read -r trs; do
		n=$((n + 1))
		log=${trs%.trs}.log
		status=$(sed -n 's/^:test-result: //p' "$trs" | head -1)
		counts=$(grep -hoE 'Checks: [0-9]+, Failures: [0-9]+, Errors: [0-9]+' "$log" 2>/dev/null |
			awk -F'[:,] *' '{c += $2; fl += $4; e += $6} END {if (NR) print c, fl + e}')
		if [ -z "$counts" ]; then
			case "$status" in
			SKIP) ;;
			PASS) p=$((p + 1)) ;; # a test that is not a Check program (shell smoke test)
			*)
				f=$((f + 1))
				remark+=", ${log#"$dir"/}: no Check summary ($status)"
				;;
			esac
			continue
		fi
		local checks bad
		read -r checks bad <<<"$counts"
		p=$((p + checks - bad))
		f=$((f + bad))
		if [ "$bad" -eq 0 ] && [ "$status" != PASS ]; then
			# All checks passed yet the program failed: a sanitizer report or a crash at exit.
			f=$((f + 1))
			remark+=", ${log#"$dir"/}: $status after its checks"
		fi
	done < <(find "$dir" -name '*.trs' | sort)
	if [ "$n" -eq 0 ]; then
		f=$((f + 1))
		remark="no Check suite ran (make check exit $rc)"
	elif [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		remark="make check exited $rc"
	fi
	[ "$n" -gt 0 ] && remark="$n test programs$remark"
	record "$name" "$p" "$f" $(($(date +%s) - t0)) "$remark"
}

# build_step NAME ARGS...: scripts/build.sh ARGS; records a failure when it fails.
build_step() {
	local name=$1 t0
	shift
	t0=$(date +%s)
	note "$name: scripts/build.sh $*"
	if bash scripts/build.sh "$@"; then
		return 0
	fi
	record "$name" 0 1 $(($(date +%s) - t0)) "build failed"
	return 1
}

# static_suite BUILDDIR: the layer rule (scripts/check-layers) and the source format
# (make format-check), one check each.
static_suite() {
	local t0 p=0 f=0 remark=""
	t0=$(date +%s)
	note "static: scripts/check-layers, make format-check"
	if python3 scripts/check-layers; then p=$((p + 1)); else f=$((f + 1)); remark+="check-layers failed "; fi
	if (cd "$1" && make -s format-check); then
		p=$((p + 1))
	else
		f=$((f + 1))
		remark+="format-check failed (clang-format -i the files it names)"
	fi
	record static "$p" "$f" $(($(date +%s) - t0)) "$remark"
}

# fuzz_suite: build the libFuzzer targets (tests/fuzz/build.sh) and run each one for FUZZ_SECONDS
# from its seed corpus (tests/fuzz/corpus/NAME) with inputs up to 65,535 bytes (RFC 8654
# extended messages). One check per target: a crash, leak, sanitizer report or an input slower
# than 30 s fails it (the log and the input are kept in the remark's directory).
fuzz_suite() {
	local secs=${FUZZ_SECONDS:-20} t0 p=0 f=0 remark="" out=/tmp/skua-fuzz-$$ t name runs
	[ "$secs" -gt 0 ] || return 0
	t0=$(date +%s)
	note "fuzz: tests/fuzz/build.sh, then ${secs}s per target"
	if ! sh tests/fuzz/build.sh "$out"; then
		record fuzz 0 1 $(($(date +%s) - t0)) "tests/fuzz/build.sh failed (clang, libclang-rt-14-dev)"
		return
	fi
	for t in "$out"/fuzz_*; do
		name=${t##*/fuzz_}
		[ -d "$top/tests/fuzz/corpus/$name" ] || { f=$((f + 1)); remark+="fuzz_$name: no seed corpus; "; continue; }
		mkdir -p "$out/corpus-$name"
		if (cd "$out" && "./fuzz_$name" "corpus-$name" "$top/tests/fuzz/corpus/$name" \
			-max_len=65535 -timeout=30 -max_total_time="$secs" -print_final_stats=1 \
			>"fuzz_$name.log" 2>&1); then
			p=$((p + 1))
			runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$out/fuzz_$name.log" |
				grep -oE '[0-9]+$')
			remark+="$name ${runs:-?} runs; "
		else
			f=$((f + 1))
			remark+="fuzz_$name FAILED (log and input in $out); "
			tail -30 "$out/fuzz_$name.log"
		fi
	done
	[ "$f" -eq 0 ] && rm -rf "$out"
	record fuzz "$p" "$f" $(($(date +%s) - t0)) "$remark"
}

# kernel_patch_suite: kernel/patches apply to Debian's linux-source-6.1 when it is installed
# (tests/kernel/patch-applies.sh), one check. The patched kernel's proof under qemu
# (tests/kernel/run.sh) takes tens of minutes and is not part of this suite.
kernel_patch_suite() {
	local t0 rc
	t0=$(date +%s)
	note "kernel-patch: tests/kernel/patch-applies.sh"
	bash tests/kernel/patch-applies.sh
	rc=$?
	case $rc in
	0) record kernel-patch 1 0 $(($(date +%s) - t0)) "applies to linux-source-6.1" ;;
	77) record kernel-patch 0 0 $(($(date +%s) - t0)) "skipped: linux-source-6.1 not installed" ;;
	*) record kernel-patch 0 1 $(($(date +%s) - t0)) "kernel/patches do not apply (see above)" ;;
	esac
}

# lab_suite BUILDDIR: pytest tests/lab against the skua binaries in BUILDDIR.
lab_suite() {
	local dir=$1 t0 rc junit=$1/lab-junit.xml counts remark
	t0=$(date +%s)
	mkdir -p "$dir"
	rm -f "$junit"
	# Scenarios run side by side, one test file per worker (pytest-xdist's loadfile: a
	# module's tests share one lab and run in order). Each lab has its own namespaces named
	# after its worker's pid, so workers never meet; LAB_JOBS=1 runs them one by one.
	local jobs=${LAB_JOBS:-$(nproc)} par=()
	[ "$jobs" -gt 4 ] && jobs=4
	if [ "$jobs" -gt 1 ] && "$PY" -c "import xdist" 2>/dev/null; then
		par=(-n "$jobs" --dist loadfile)
	fi
	note "lab: pytest tests/lab (skua from $dir, ${par[1]:-1} worker(s))"
	# SIGINT first so the lab tears its namespaces down, SIGKILL a minute later.
	# shellcheck disable=SC2086
	SKUA_BUILDDIR=$dir SKUALAB_STRICT=1 timeout -s INT -k 60 "${LAB_TIMEOUT:-1200}" \
		"$PY" -m pytest tests/lab -v -p no:cacheprovider "${par[@]}" --junitxml="$junit" \
		${PYTEST_ARGS:-}
	rc=$?
	counts=$("$PY" - "$junit" <<-'EOF' 2>/dev/null
		import sys, xml.etree.ElementTree as ET
		root = ET.parse(sys.argv[1]).getroot()
		suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
		t = sum(int(s.get("tests", 0)) for s in suites)
		f = sum(int(s.get("failures", 0)) + int(s.get("errors", 0)) for s in suites)
		sk = sum(int(s.get("skipped", 0)) for s in suites)
		print(t - f - sk, f, sk)
	EOF
	)
	local p=0 f=0 sk=0
	[ -n "$counts" ] && read -r p f sk <<<"$counts"
	remark="skua from ${dir#"$top"/}, pytest exit $rc"
	[ "$sk" -gt 0 ] && remark+=", $sk skipped"
	case $rc in
	0 | 1) [ -z "$counts" ] && { f=$((f + 1)); remark+=", no junit report"; } ;;
	5) f=$((f + 1)); remark+=": no tests collected" ;;
	124) f=$((f + 1)); remark+=": the lab exceeded ${LAB_TIMEOUT:-1200}s and was interrupted" ;;
	*) f=$((f + 1)); remark+=": pytest did not finish normally" ;;
	esac
	record lab "$p" "$f" $(($(date +%s) - t0)) "$remark"
}

if [ "$(id -u)" -ne 0 ]; then
	echo "test-all.sh: run as root (the lab uses network namespaces): su -, then $0" >&2
	echo "0 passed, 1 failed"
	exit 1
fi

if [ "${SKIP_INSTALL:-0}" != 1 ]; then
	t0=$(date +%s)
	note "install: scripts/install-deps.sh"
	bash scripts/install-deps.sh || record install 0 1 $(($(date +%s) - t0)) "install-deps.sh failed"
fi

if build_step build --builddir "$B"; then
	unit_suite unit "$B"
	static_suite "$B"
fi
fuzz_suite
kernel_patch_suite

lab_build=$B
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
if [ "${SKIP_ASAN:-0}" != 1 ]; then
	if build_step build-asan --sanitizers --builddir "$BA"; then
		unit_suite unit-asan "$BA"
		lab_build=$BA
	fi
fi

lab_suite "$lab_build"

printf '\n=== test-all: summary (%ds)\n' $(($(date +%s) - t_start))
printf '%s\n' "${lines[@]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
