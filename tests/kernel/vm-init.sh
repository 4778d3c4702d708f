#!/bin/bash
# SPDX-License-Identifier: ISC
#
# PID 1 of the test VM that tests/kernel/run.sh boots. The root is the host's / over virtio-9p,
# read-only; this makes what must be writable writable (tmpfs, overlays), mounts the results
# share, runs the tests named on the kernel command line and powers off. Kernel parameters:
#   skua.top=DIR       the skua tree (this script's, on the host)
#   skua.tests=A,B     icmp (icmp_minttl.py), selftest, lab (tests/lab/scenarios/gtsm_attack)
#   skua.builddir=DIR  SKUA_BUILDDIR for the lab
#   skua.selftest=BIN  the built tcp_minttl_icmp selftest (kernel/patches/0002)
#   skua.timescale=N   SKUALAB_TIME_SCALE for the lab (run.sh: 10 under TCG)
# Every test runs under `timeout`; whatever happens, the VM powers off at the end.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8

poweroff_now() {
	sync
	busybox poweroff -f
	echo o >/proc/sysrq-trigger # fallback; if both fail, PID 1 exits, the kernel panics and
	exit 1                      # panic=-1 with qemu -no-reboot ends the VM
}
trap poweroff_now EXIT

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs -o mode=755 tmpfs /run
mount -t tmpfs -o mode=1777 tmpfs /tmp

arg() { sed -n "s/.*\bskua\.$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
top=$(arg top)
tests=$(arg tests)
builddir=$(arg builddir)
selftest=$(arg selftest)
timescale=$(arg timescale)

# Writable copies (in RAM) of the directories the tests write into.
for dir in /etc /var /root /home "$top"; do
	[ -d "$dir" ] || continue
	up=/run/overlay$dir
	mkdir -p "$up/upper" "$up/work"
	mount -t overlay overlay -o "lowerdir=$dir,upperdir=$up/upper,workdir=$up/work" "$dir"
done
mkdir -p /run/netns /run/results /var/run
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 results /run/results || {
	echo "vm-init: cannot mount the results share (9p tag 'results')" >&2
	exit 1
}
results=/run/results
uname -r >"$results/booted"
ip link set lo up

for test in ${tests//,/ }; do
	case $test in
	icmp)
		timeout 600 /usr/bin/python3 "$top/tests/kernel/icmp_minttl.py" scenario \
			--out "$results/icmp.json" >"$results/icmp.log" 2>&1
		echo $? >"$results/icmp.rc"
		;;
	selftest)
		timeout 120 "$selftest" >"$results/selftest.log" 2>&1
		echo $? >"$results/selftest.rc"
		;;
	lab)
		(cd "$top" && SKUA_BUILDDIR=$builddir SKUALAB_STRICT=1 \
			SKUALAB_TIME_SCALE=${timescale:-1} timeout 1500 \
			/usr/bin/python3 -m pytest -p no:cacheprovider \
			tests/lab/scenarios/gtsm_attack -q) >"$results/lab.log" 2>&1
		echo $? >"$results/lab.rc"
		;;
	none) ;; # a boot probe
	*) echo "vm-init: unknown test '$test' (known: icmp, selftest, lab)" >"$results/$test.rc" ;;
	esac
done
