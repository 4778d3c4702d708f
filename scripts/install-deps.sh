#!/bin/bash
# SPDX-License-Identifier: ISC
#
# Install what skua needs to build and to run its tests, on Debian 12, as root.
# Idempotent and quick when everything is there: one dpkg-query, no apt-get.
# debhelper, lintian and logrotate are for the Debian package's lab test
# (tests/lab/test_package.py), mandoc for the man pages' lint (make check).
#
# The peers' packages (frr, bird2, gobgpd, exabgp) ship system services.  When this script is
# the one installing them, they are kept from starting (policy-rc.d) and then disabled: the lab
# runs its own instances inside network namespaces.  Services that were already installed are
# left alone; the lab does not need them stopped (its daemons live in their own namespaces
# with their own sockets), see doc/lab.md.
set -euo pipefail

BUILD_DEPS=(build-essential autoconf automake libtool pkg-config libevent-dev libssl-dev
	libyang2-dev libyang2-tools check libedit-dev libmnl-dev libcap-dev)
TEST_DEPS=(frr bird2 gobgpd exabgp python3-scapy python3-pytest python3-pytest-timeout
	python3-pytest-xdist tcpdump iproute2 nftables strace clang libclang-rt-14-dev clang-format stayrtr rtr-tools frr-rpki-rtrlib
	debhelper lintian mandoc logrotate)
SERVICES=(frr bird gobgpd exabgp stayrtr)

say() { printf 'install-deps: %s\n' "$*"; }
die() { printf 'install-deps: error: %s\n' "$*" >&2; exit 1; }

# bgpd gives its vty socket (mode 0660) to the group skuavty: members may run vtysh without
# root.  Started as root, bgpd becomes the user skua (-u) once its sockets are open.
ensure_users() {
	[ "$(id -u)" -eq 0 ] || return 0
	if ! getent group skuavty >/dev/null; then
		groupadd --system skuavty && say "created the group skuavty (members may use vtysh)"
	fi
	if ! getent passwd skua >/dev/null; then
		useradd --system --user-group --home-dir /nonexistent --no-create-home \
			--shell /usr/sbin/nologin skua &&
			say "created the system user skua (bgpd runs as skua after start-up)"
	fi
}

missing=()
installed=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${BUILD_DEPS[@]}" "${TEST_DEPS[@]}" \
	2>/dev/null || true)
for p in "${BUILD_DEPS[@]}" "${TEST_DEPS[@]}"; do
	grep -qE "^$p ii" <<<"$installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
	say "all build and test dependencies are installed"
	ensure_users
	exit 0
fi

[ "$(id -u)" -eq 0 ] || die "missing ${missing[*]}; run this as root (su -, then $0)"
command -v apt-get >/dev/null || die "missing ${missing[*]} and no apt-get: this script targets Debian 12"

say "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive

# Keep freshly installed daemons from starting (invoke-rc.d honours policy-rc.d, 101 = deny),
# unless the machine already has its own policy.
policy=/usr/sbin/policy-rc.d
own_policy=no
if [ ! -e "$policy" ]; then
	printf '#!/bin/sh\n# installed by skua scripts/install-deps.sh for the duration of apt-get\nexit 101\n' >"$policy"
	chmod 755 "$policy"
	own_policy=yes
	trap 'rm -f "$policy"' EXIT
fi

apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null

# The packages we just installed enable their services for the next boot: undo that.
if [ -d /run/systemd/system ]; then
	for s in "${SERVICES[@]}"; do
		for p in "${missing[@]}"; do
			case "$p:$s" in
			frr:frr | bird2:bird | gobgpd:gobgpd | exabgp:exabgp)
				if systemctl disable --now "$s.service" >/dev/null 2>&1; then
					say "disabled the system $s service (the lab runs its own)"
				fi ;;
			esac
		done
	done
fi

[ "$own_policy" = yes ] && rm -f "$policy"
trap - EXIT
ensure_users
say "done"
