/* SPDX-License-Identifier: ISC */
/*
 * FRR's (and IOS's) older IPv4 spellings of a prefix, as `network A.B.C.D [mask A.B.C.D]` and
 * `aggregate-address A.B.C.D A.B.C.D` take them (bgp_netmask.c).
 */
#ifndef SKUA_BGP_NETMASK_H
#define SKUA_BGP_NETMASK_H

#include <stddef.h>

/*
 * addr and mask ("A.B.C.D") as "A.B.C.D/M" in out (host bits as given: the caller's rules
 * apply to them). mask NULL: the length of addr's class (A /8, B /16, C /24, 0.0.0.0 /0), as
 * FRR's netmask_str2prefix_str(). -1 with a message for the operator in err (a malformed
 * address, a mask whose ones are not contiguous, a class D or E address without a mask).
 */
int bgp_netmask_prefix(const char *addr, const char *mask, char *out, size_t size, char *err,
		       size_t err_size);

#endif /* SKUA_BGP_NETMASK_H */
