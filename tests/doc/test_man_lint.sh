#!/bin/sh
# SPDX-License-Identifier: ISC
#
# The manual pages are clean for mandoc's linter at level warning (its STYLE notes, such as
# source lines longer than 80 bytes, are left out). Skipped (77) without mandoc.
srcdir=${srcdir:-$(dirname "$0")/../..}
if ! command -v mandoc >/dev/null 2>&1; then
	echo "test_man_lint: mandoc is not installed (apt-get install mandoc): skipped"
	exit 77
fi
rc=0
for page in "$srcdir"/doc/man/*.[1-8]; do
	if ! mandoc -T lint -W warning "$page"; then
		echo "test_man_lint: $page: mandoc -T lint found warnings or errors (above)"
		rc=1
	fi
done
[ "$rc" -eq 0 ] && echo "test_man_lint: every page is clean"
exit $rc
