#!/bin/bash
# SPDX-License-Identifier: ISC
#
# The kernel patch's proof, in one command (as root):
#   tests/kernel/run.sh [--lab] [--accel auto|kvm|tcg]
# builds the unpatched and the patched 6.1 kernel if missing (tests/kernel/build-kernels.sh,
# into $KBUILD, default /var/tmp/skua-kernel), boots each under qemu with the host's / as a
# read-only 9p root (tests/kernel/vm-init.sh), runs the forged-ICMP scenario
# (tests/kernel/icmp_minttl.py) and the kernel selftest from kernel/patches/0002 in both and, with --lab, skua's gtsm_attack lab on the patched
# one (SKUA_BUILDDIR, default ./build, must hold a build: scripts/build.sh). Prints both
# kernels' results side by side; results stay in $KBUILD/results/KIND/.
# --accel auto (default) uses KVM when a probe VM boots under it within 60 s, else TCG
# (at once when /dev/kvm is PVM, which cannot run this kernel at speed).
# The lab runs with SKUALAB_TIME_SCALE (tests/lab/skualab/timescale.py): as given in the
# environment, else 10 under TCG (3.5-6 times the host's time, more when loaded), 1 under KVM.
# The VM has no network device; every run is bounded by VM_TIMEOUT seconds (default 900, 2400
# with --lab), then the VM is killed.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
kbuild=${KBUILD:-/var/tmp/skua-kernel}
builddir=${SKUA_BUILDDIR:-$top/build}
lab=no
accel=auto
usage() {
	sed -n '4,19p' "$0" | sed 's/^# \{0,1\}//'
	exit "${1:-0}"
}
while [ $# -gt 0 ]; do
	case $1 in
	--lab) lab=yes ;;
	--accel) [ $# -ge 2 ] || usage 2; accel=$2; shift ;;
	-h | --help) usage 0 ;;
	*) echo "run.sh: unknown argument $1" >&2; usage 2 ;;
	esac
	shift
done
vm_timeout=${VM_TIMEOUT:-$([ $lab = yes ] && echo 2400 || echo 900)}

[ "$(id -u)" = 0 ] || { echo "run.sh: run as root (the VM reads the host's / as root)" >&2; exit 1; }
command -v qemu-system-x86_64 >/dev/null || {
	echo "run.sh: qemu-system-x86_64 missing: apt-get install qemu-system-x86" >&2
	exit 1
}
if [ $lab = yes ] && [ ! -x "$builddir/bgpd/bgpd" ]; then
	echo "run.sh: no bgpd in $builddir: run scripts/build.sh or set SKUA_BUILDDIR" >&2
	exit 1
fi

"$top/tests/kernel/build-kernels.sh" "$kbuild"

# The kernel selftest of kernel/patches/0002 (a new file: its one hunk, without the "+"s),
# built against the 6.1 source's kselftest.h; vm-init.sh runs it on both kernels.
selftest=$kbuild/selftest/tcp_minttl_icmp
mkdir -p "$kbuild/selftest"
awk '/^\+\+\+ b\/tools\/testing\/selftests\/net\/tcp_minttl_icmp.c/ { file = 1; next }
	file && /^@@/ { body = 1; next }
	body && !/^\+/ { exit }
	body { print substr($0, 2) }' "$top"/kernel/patches/0002-*.patch >"$selftest.c"
gcc -Wall -O2 -I"$kbuild/linux-source-6.1/tools/testing/selftests/net" -o "$selftest" "$selftest.c"

qemu_pid=
cleanup() { [ -z "$qemu_pid" ] || kill "$qemu_pid" 2>/dev/null || true; }
# A signal ends the run: without the exit, the handler would return and the next VM boot.
trap cleanup EXIT
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM

# boot KIND ACCEL TESTS RESULTS TIMEOUT: one VM, killed after TIMEOUT s; console in RESULTS.
boot() {
	local kind=$1 acc=$2 tests=$3 out=$4 limit=$5 accopt
	rm -rf "$out"
	mkdir -p "$out"
	[ "$acc" = kvm ] && accopt=-enable-kvm || accopt="-accel tcg"
	# shellcheck disable=SC2086 # accopt is two words for TCG
	qemu-system-x86_64 $accopt -m 2G -smp 2 -nographic -no-reboot -nic none \
		-kernel "$kbuild/bzImage-$kind" \
		-append "console=ttyS0 root=rootfs rootfstype=9p rootflags=trans=virtio,version=9p2000.L,msize=262144 ro init=$top/tests/kernel/vm-init.sh panic=-1 skua.top=$top skua.tests=$tests skua.builddir=$builddir skua.selftest=$selftest skua.timescale=${time_scale:-1}" \
		-virtfs local,path=/,mount_tag=rootfs,security_model=none,readonly=on,multidevs=remap \
		-virtfs local,path="$out",mount_tag=results,security_model=none \
		</dev/null >"$out/console.log" 2>&1 &
	qemu_pid=$!
	local waited=0
	while kill -0 "$qemu_pid" 2>/dev/null; do
		if [ $waited -ge "$limit" ]; then
			echo "run.sh: the $kind VM ($acc) did not finish within $limit s: killed" \
				"(console: $out/console.log)" >&2
			kill "$qemu_pid"
			break
		fi
		sleep 1
		waited=$((waited + 1))
	done
	wait "$qemu_pid" || true
	qemu_pid=
	[ -e "$out/booted" ]
}

# /dev/kvm served by PVM (kvm_pvm, no VMX/SVM in the CPU flags) emulates a stock guest
# kernel instruction by instruction: it never gets past the decompressor (README.md).
kvm_is_pvm() {
	[ -d /sys/module/kvm_pvm ] && ! grep -qw -e vmx -e svm /proc/cpuinfo
}

if [ "$accel" = auto ]; then
	accel=tcg
	if [ ! -w /dev/kvm ]; then
		echo "run.sh: no writable /dev/kvm"
	elif kvm_is_pvm; then
		echo "run.sh: /dev/kvm is PVM (kvm_pvm, no VMX/SVM): it runs only PVM guest kernels" \
			"at speed (tests/kernel/README.md)"
	elif boot unpatched kvm none "$kbuild/results/probe" 60; then
		accel=kvm
	fi
	echo "run.sh: accelerator $accel"
fi
time_scale=${SKUALAB_TIME_SCALE:-$([ "$accel" = tcg ] && echo 10 || echo 1)}
[ $lab = yes ] && echo "run.sh: the lab runs with SKUALAB_TIME_SCALE=$time_scale"

for kind in unpatched patched; do
	tests=icmp,selftest
	[ $kind = patched ] && [ $lab = yes ] && tests=icmp,selftest,lab
	echo "run.sh: booting the $kind kernel ($tests)"
	boot $kind "$accel" $tests "$kbuild/results/$kind" "$vm_timeout" ||
		echo "run.sh: the $kind VM never reached its init: see $kbuild/results/$kind/console.log" >&2
done

/usr/bin/python3 "$top/tests/kernel/report.py" "$kbuild/results/unpatched" "$kbuild/results/patched"
