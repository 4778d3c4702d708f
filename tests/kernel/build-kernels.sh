#!/bin/bash
# SPDX-License-Identifier: ISC
#
# Build the two test kernels from Debian's linux-source-6.1 if they are missing:
#   tests/kernel/build-kernels.sh KBUILD
# leaves KBUILD/bzImage-unpatched and KBUILD/bzImage-patched (the second with
# kernel/patches/0001-*.patch). Layout: KBUILD/linux-source-6.1 (extracted source),
# KBUILD/build (make O=, shared by both builds: the patched one is incremental),
# KBUILD/build-*.log. ~40 min per kernel from scratch on 2 cores; ccache is used when present.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
kbuild=${1:?usage: build-kernels.sh KBUILD}
tarball=/usr/src/linux-source-6.1.tar.xz
patch=$(ls "$top"/kernel/patches/0001-*.patch)
src=$kbuild/linux-source-6.1
obj=$kbuild/build

[ -e "$kbuild/bzImage-unpatched" ] && [ -e "$kbuild/bzImage-patched" ] && exit 0

[ -r "$tarball" ] || {
	echo "build-kernels.sh: $tarball missing: apt-get install linux-source-6.1" >&2
	exit 1
}
mkdir -p "$kbuild" "$obj"
if [ ! -d "$src" ]; then
	echo "build-kernels.sh: extracting $tarball into $kbuild"
	tar -xJf "$tarball" -C "$kbuild"
fi

cc=gcc
command -v ccache >/dev/null && cc="ccache gcc"
kmake() {
	nice -n 19 make -C "$src" O="$obj" CC="$cc" -j"$(nproc)" "$@"
}

# Is the patch in the source tree? (the tree is shared by both builds)
patched() { patch -p1 -R --dry-run -s -f -d "$src" <"$patch" >/dev/null 2>&1; }
set_patch() { # yes|no
	if [ "$1" = yes ] && ! patched; then patch -p1 -s -d "$src" <"$patch"; fi
	if [ "$1" = no ] && patched; then patch -p1 -R -s -d "$src" <"$patch"; fi
	return 0
}

if [ ! -e "$obj/.config" ]; then
	kmake defconfig kvm_guest.config
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
		"$top/tests/kernel/config.fragment"
	kmake olddefconfig
fi

for kind in unpatched patched; do
	[ -e "$kbuild/bzImage-$kind" ] && continue
	if [ $kind = patched ]; then set_patch yes; else set_patch no; fi
	echo "build-kernels.sh: building the $kind kernel (log: $kbuild/build-$kind.log)"
	if ! kmake bzImage >"$kbuild/build-$kind.log" 2>&1; then
		echo "build-kernels.sh: the $kind build failed: see $kbuild/build-$kind.log" >&2
		exit 1
	fi
	cp "$obj/arch/x86/boot/bzImage" "$kbuild/bzImage-$kind"
done
