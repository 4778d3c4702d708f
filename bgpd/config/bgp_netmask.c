/* SPDX-License-Identifier: ISC */
/*
 * Address-and-mask and classful prefixes, turned into the A.B.C.D/M form every other command
 * takes, so that the statements behind them stay one (and print as FRR prints them: as a
 * prefix). FRR counts a mask's leading ones and ignores what follows; a mask such as
 * 255.0.255.0 is refused here instead, since nobody means it.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>

#include "bgpd/config/bgp_netmask.h"

/* The prefix length of a contiguous mask, or -1. */
static int mask_len(uint32_t m)
{
	int len = 0;

	while (len < 32 && (m & (UINT32_C(1) << (31 - len))))
		len++;
	/* Past the ones, nothing may be set. */
	if (len < 32 && (m & (UINT32_MAX >> len)))
		return -1;
	return len;
}

/* The classful length FRR gives an address without a mask, or -1 for class D and E. */
static int class_len(uint32_t a)
{
	if (a == 0)
		return 0;
	if ((a >> 31) == 0)
		return 8; /* A: 0.0.0.0 - 127.255.255.255 */
	if ((a >> 30) == 2)
		return 16; /* B: 128 - 191 */
	if ((a >> 29) == 6)
		return 24; /* C: 192 - 223 */
	return -1;
}

int bgp_netmask_prefix(const char *addr, const char *mask, char *out, size_t size, char *err,
		       size_t err_size)
{
	struct in_addr a, m;
	int len;

	if (!addr || inet_pton(AF_INET, addr, &a) != 1) {
		snprintf(err, err_size, "Malformed address %s: write it as A.B.C.D",
			 addr ? addr : "(none)");
		return -1;
	}
	if (mask) {
		if (inet_pton(AF_INET, mask, &m) != 1 || (len = mask_len(ntohl(m.s_addr))) < 0) {
			snprintf(err, err_size,
				 "Inconsistent address and mask: %s is not a netmask (ones, then "
				 "zeros, as 255.255.255.0); or write the prefix as A.B.C.D/M",
				 mask);
			return -1;
		}
	} else if ((len = class_len(ntohl(a.s_addr))) < 0) {
		snprintf(err, err_size,
			 "Inconsistent address and mask: %s has no class length (class D or E); "
			 "give its mask or write the prefix as A.B.C.D/M",
			 addr);
		return -1;
	}
	snprintf(out, size, "%s/%d", addr, len);
	return 0;
}
