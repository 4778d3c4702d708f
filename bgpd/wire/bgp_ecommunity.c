/* SPDX-License-Identifier: ISC */
/*
 * Extended communities: text forms, ordering, and the eBGP filter. The interning of the
 * lists is bgp_community.c's, with the other community lists.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <string.h>

#include "bgpd/wire/bgp_codec.h"
#include "bgpd/wire/bgp_ecommunity.h"

/* The link bandwidth is an IEEE 754 single in bytes per second. */
static uint64_t lb_bytes_per_sec(uint32_t bits)
{
	float f;

	memcpy(&f, &bits, sizeof(f));
	if (!(f > 0.0f))
		return 0; /* negative, zero or NaN */
	if (f >= 18446744073709551616.0f)
		return UINT64_MAX;
	return (uint64_t)f;
}

/* FRR 8.4 (ecommunity_lb_str()) divides in integers, then prints with three decimals. */
static int lb_str(const uint32_t v[2], char *buf, size_t size)
{
	const uint64_t gbps = 1000 * 1000 * 1000 / 8, mbps = 1000 * 1000 / 8, kbps = 1000 / 8;
	uint64_t bw = lb_bytes_per_sec(v[1]);
	char rate[32];

	if (bw >= gbps)
		snprintf(rate, sizeof(rate), "%.3f Gbps", (double)(float)(bw / gbps));
	else if (bw >= mbps)
		snprintf(rate, sizeof(rate), "%.3f Mbps", (double)(float)(bw / mbps));
	else if (bw >= kbps)
		snprintf(rate, sizeof(rate), "%.3f Kbps", (double)(float)(bw / kbps));
	else
		snprintf(rate, sizeof(rate), "%" PRIu64 " bps", bw * 8);
	return snprintf(buf, size, "LB:%u:%" PRIu64 " (%s)", v[0] & 0xffff, bw, rate);
}

/* RFC 4360 3.1, 3.2, RFC 5668 2: "AS:NN" (2-octet AS, 4-octet value), "A.B.C.D:NN" or
 * "AS4:NN" (2-octet value). */
static int rt_soo_str(const uint32_t v[2], const char *kind, char *buf, size_t size)
{
	uint32_t global = (v[0] & 0xffff) << 16 | v[1] >> 16;
	struct in_addr a;
	char ip[INET_ADDRSTRLEN];

	switch (bgp_ecomm_type(v)) {
	case BGP_ECOMM_TYPE_AS2:
		return snprintf(buf, size, "%s:%u:%u", kind, v[0] & 0xffff, v[1]);
	case BGP_ECOMM_TYPE_IP:
		a.s_addr = htonl(global);
		inet_ntop(AF_INET, &a, ip, sizeof(ip));
		return snprintf(buf, size, "%s:%s:%u", kind, ip, v[1] & 0xffff);
	default:
		return snprintf(buf, size, "%s:%u:%u", kind, global, v[1] & 0xffff);
	}
}

/*
 * One value as FRR 8.4's ecommunity_ecom2str() writes it. *sub is that function's sub-type
 * variable, carried from value to value of a list: its opaque (type 3) and EVPN (type 6)
 * branches do not set it, so an unnamed value of those types shows the sub-type of the value
 * before it (0 for the first). Kept, so that the text (and expanded lists matching it) is
 * FRR's.
 */
int bgp_ecomm_str_in_list(const uint32_t v[2], uint8_t *sub, char *buf, size_t size)
{
	uint8_t type = bgp_ecomm_type(v), own = bgp_ecomm_subtype(v);

	switch (type) {
	case BGP_ECOMM_TYPE_AS2:
	case BGP_ECOMM_TYPE_IP:
	case BGP_ECOMM_TYPE_AS4:
		*sub = own;
		if (own == BGP_ECOMM_SUB_RT)
			return rt_soo_str(v, "RT", buf, size);
		if (own == BGP_ECOMM_SUB_SOO)
			return rt_soo_str(v, "SoO", buf, size);
		if (own == BGP_ECOMM_SUB_LB && type == BGP_ECOMM_TYPE_AS2)
			return lb_str(v, buf, size);
		break;
	case BGP_ECOMM_TYPE_AS2 | BGP_ECOMM_TYPE_NON_TRANSITIVE:
		*sub = own;
		if (own == BGP_ECOMM_SUB_LB)
			return lb_str(v, buf, size);
		break;
	case 0x03:		 /* opaque (RFC 4360 3.3) */
		if (own == 0x0c) /* encapsulation (RFC 5512): the tunnel type */
			return snprintf(buf, size, "ET:%u", v[1] & 0xffff);
		if (own == 0x0d)
			return snprintf(buf, size, "Default Gateway");
		break;
	case 0x06: /* EVPN: FRR names its kinds, skua shows them as unknown */
		break;
	default:
		*sub = own;
		break;
	}
	/* FRR prints type and sub-type in decimal for the kinds it has no name for. */
	return snprintf(buf, size, "UNK:%u, %u", type, *sub);
}

int bgp_ecomm_str(const uint32_t v[2], char *buf, size_t size)
{
	uint8_t sub = 0;

	return bgp_ecomm_str_in_list(v, &sub, buf, size);
}

int bgp_ecommlist_str(const struct bgp_ecommlist *l, char *buf, size_t size)
{
	size_t len = 0;
	uint8_t sub = 0;
	uint32_t i;

	if (!size)
		return -1;
	buf[0] = '\0';
	for (i = 0; l && i < l->count; i++) {
		int n;

		if (i) {
			if (len + 1 >= size)
				return -1;
			buf[len++] = ' ';
			buf[len] = '\0';
		}
		n = bgp_ecomm_str_in_list(&l->val[2 * i], &sub, buf + len, size - len);
		if (n < 0 || (size_t)n >= size - len)
			return -1;
		len += (size_t)n;
	}
	return (int)len;
}

/* A decimal number of at most max, the whole of s[0..len). */
static int parse_num(const char *s, size_t len, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!len || len > 10)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

int bgp_ecomm_from_str(const char *s, uint8_t subtype, uint32_t v[2])
{
	const char *colon = strrchr(s, ':');
	char global[INET_ADDRSTRLEN];
	uint64_t g, local;
	struct in_addr a;
	size_t glen;

	if (!colon || colon == s)
		return -1;
	glen = (size_t)(colon - s);
	if (glen < sizeof(global) && memchr(s, '.', glen)) {
		memcpy(global, s, glen);
		global[glen] = '\0';
		if (inet_pton(AF_INET, global, &a) != 1 ||
		    parse_num(colon + 1, strlen(colon + 1), UINT16_MAX, &local) < 0)
			return -1;
		g = ntohl(a.s_addr);
		v[0] = (uint32_t)BGP_ECOMM_TYPE_IP << 24 | (uint32_t)subtype << 16 |
		       (uint32_t)(g >> 16);
		v[1] = (uint32_t)(g << 16) | (uint32_t)local;
		return 0;
	}
	if (parse_num(s, glen, UINT32_MAX, &g) < 0)
		return -1;
	if (g <= UINT16_MAX) {
		if (parse_num(colon + 1, strlen(colon + 1), UINT32_MAX, &local) < 0)
			return -1;
		v[0] = (uint32_t)BGP_ECOMM_TYPE_AS2 << 24 | (uint32_t)subtype << 16 | (uint32_t)g;
		v[1] = (uint32_t)local;
		return 0;
	}
	if (parse_num(colon + 1, strlen(colon + 1), UINT16_MAX, &local) < 0)
		return -1;
	v[0] = (uint32_t)BGP_ECOMM_TYPE_AS4 << 24 | (uint32_t)subtype << 16 | (uint32_t)(g >> 16);
	v[1] = (uint32_t)(g << 16) | (uint32_t)local;
	return 0;
}

int bgp_ecomm_value_str(const uint32_t v[2], char *buf, size_t size)
{
	uint8_t type = bgp_ecomm_type(v), sub = bgp_ecomm_subtype(v);
	char tmp[64];
	const char *colon;

	if (type > BGP_ECOMM_TYPE_AS4 || (sub != BGP_ECOMM_SUB_RT && sub != BGP_ECOMM_SUB_SOO))
		return bgp_ecomm_str(v, buf, size);
	rt_soo_str(v, "", tmp, sizeof(tmp));
	colon = strchr(tmp, ':'); /* after the empty kind */
	return snprintf(buf, size, "%s", colon ? colon + 1 : tmp);
}

void bgp_ecomm_lb(uint32_t as, uint32_t bytes_per_sec, bool transitive, uint32_t v[2])
{
	float f = (float)bytes_per_sec;
	uint8_t type = transitive ? BGP_ECOMM_TYPE_AS2
				  : BGP_ECOMM_TYPE_AS2 | BGP_ECOMM_TYPE_NON_TRANSITIVE;

	if (as > UINT16_MAX)
		as = 23456; /* AS_TRANS, RFC 6793 */
	v[0] = (uint32_t)type << 24 | (uint32_t)BGP_ECOMM_SUB_LB << 16 | as;
	memcpy(&v[1], &f, sizeof(v[1]));
}

static int u64_cmp(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	if (x[1] != y[1])
		return x[1] < y[1] ? -1 : 1;
	return 0;
}

uint32_t bgp_ecomm_sort_uniq(uint32_t *v, uint32_t n)
{
	uint32_t k = 0;

	qsort(v, n, 2 * sizeof(*v), u64_cmp);
	for (uint32_t i = 0; i < n; i++)
		if (!k || u64_cmp(&v[2 * (k - 1)], &v[2 * i]) != 0) {
			memmove(&v[2 * k], &v[2 * i], 2 * sizeof(*v));
			k++;
		}
	return k;
}

struct bgp_ecommlist *bgp_ecommlist_transitive(struct bgp_ecommlist *l)
{
	uint32_t *out, i, k = 0;

	if (!l)
		return NULL;
	for (i = 0; i < l->count && bgp_ecomm_transitive(&l->val[2 * i]); i++)
		;
	if (i == l->count)
		return bgp_ecommlist_ref(l);
	/* The key buffer holds a whole attribute's worth; l came from one. */
	out = bgp_ecommlist_key_vals();
	for (i = 0; i < l->count; i++)
		if (bgp_ecomm_transitive(&l->val[2 * i])) {
			out[2 * k] = l->val[2 * i];
			out[2 * k + 1] = l->val[2 * i + 1];
			k++;
		}
	return k ? bgp_ecommlist_intern(out, k) : NULL;
}
