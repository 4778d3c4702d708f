#!/bin/bash
# SPDX-License-Identifier: ISC
#
# CI's cheap check of kernel/patches: every patch applies, without fuzz, to Debian 12's kernel
# source (/usr/src/linux-source-6.1.tar.xz, package linux-source-6.1). Extracts only the files
# the patches touch into a temporary directory. Exit 0 applies, 1 does not, 77 skipped (the
# source package is not installed).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
tarball=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
if [ ! -r "$tarball" ]; then
	echo "patch-applies.sh: $tarball not installed (apt-get install linux-source-6.1): skipped"
	exit 77
fi
tmp=$(mktemp -d /tmp/skua-kpatch.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

root=$(basename "$tarball" .tar.xz)
status=0
for p in "$top"/kernel/patches/*.patch; do
	# The files the patch changes (it creates the others); tar extracts everything without any.
	members=()
	while IFS= read -r file; do members+=("$root/$file"); done < <(sed -n 's|^--- a/||p' "$p")
	mkdir -p "$tmp/$root"
	[ ${#members[@]} -eq 0 ] || tar -xJf "$tarball" -C "$tmp" "${members[@]}"
	if patch -p1 --batch --dry-run -F0 -d "$tmp/$root" <"$p" >"$tmp/out" 2>&1; then
		echo "patch-applies.sh: ${p#"$top"/} applies to $root"
	else
		echo "patch-applies.sh: ${p#"$top"/} does NOT apply to $root:" >&2
		cat "$tmp/out" >&2
		status=1
	fi
done
exit $status
