/* SPDX-License-Identifier: ISC */
/*
 * The AS path of an aggregate formed with as-set (RFC 4271 9.2.2.2), as FRR 8.4 computes it
 * (bgp_aspath.c aspath_aggregate()): the segments both paths begin with, as far as they agree
 * (same type, the same ASes from the start), then one AS_SET of every other AS of either path,
 * sorted and without duplicates. Applied to the contributors one after the other; the result
 * does not depend on their order.
 */
#include "lib/compat.h"

#include <stdlib.h>
#include <string.h>

#include "bgpd/wire/bgp_attr.h"
#include "lib/memory.h"

static DEFINE_MTYPE(BGP_ASPATH_AGGR, "BGP AS path aggregation scratch");

static uint32_t seg_as(const uint8_t *seg, unsigned k)
{
	uint32_t as;

	memcpy(&as, seg + 2 + (size_t)k * 4, 4);
	return as;
}

static int u32_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Every AS of the segments of d from byte offset off, skipping the first `from` of the first. */
static size_t rest_add(const uint8_t *d, size_t len, size_t off, unsigned from, uint32_t *set,
		       size_t n)
{
	while (off + 2 <= len) {
		for (unsigned k = from; k < d[off + 1]; k++)
			set[n++] = seg_as(d + off, k);
		from = 0;
		off += 2 + (size_t)d[off + 1] * 4;
	}
	return n;
}

struct bgp_aspath *bgp_aspath_aggregate(const struct bgp_aspath *a, const struct bgp_aspath *b)
{
	/* The output is never longer than both inputs plus a header per 255 set members. */
	size_t cap = (size_t)a->len + b->len + 2 * ((a->len + b->len) / 4 / 255 + 1);
	uint8_t *out = XMALLOC(MTYPE_BGP_ASPATH_AGGR, cap);
	uint32_t *set = XMALLOC(MTYPE_BGP_ASPATH_AGGR, ((size_t)(a->len + b->len) / 4 + 1) * 4);
	size_t ia = 0, ib = 0, olen = 0, n = 0, m;
	unsigned match = 0;
	struct bgp_aspath *res = NULL;

	/* The common leading segments. */
	while (ia + 2 <= a->len && ib + 2 <= b->len) {
		const uint8_t *sa = a->data + ia, *sb = b->data + ib;
		unsigned minlen = MIN(sa[1], sb[1]);

		if (sa[0] != sb[0])
			break;
		for (match = 0; match < minlen; match++)
			if (seg_as(sa, match) != seg_as(sb, match))
				break;
		if (match) {
			out[olen] = sa[0];
			out[olen + 1] = (uint8_t)match;
			memcpy(out + olen + 2, sa + 2, (size_t)match * 4);
			olen += 2 + (size_t)match * 4;
		}
		if (match != minlen || sa[1] != sb[1])
			break;
		match = 0;
		ia += 2 + (size_t)sa[1] * 4;
		ib += 2 + (size_t)sb[1] * 4;
	}
	/* Everything else into one AS_SET. */
	n = rest_add(a->data, a->len, ia, match, set, n);
	n = rest_add(b->data, b->len, ib, match, set, n);
	qsort(set, n, sizeof(*set), u32_cmp);
	for (size_t i = m = 0; i < n; i++)
		if (!m || set[m - 1] != set[i])
			set[m++] = set[i];
	for (size_t i = 0; i < m; i += 255) {
		size_t k = MIN(m - i, (size_t)255);

		out[olen] = AS_SEG_SET;
		out[olen + 1] = (uint8_t)k;
		memcpy(out + olen + 2, set + i, k * 4);
		olen += 2 + k * 4;
	}
	if (olen <= UINT16_MAX)
		res = bgp_aspath_intern_raw(out, (uint16_t)olen);
	XFREE(MTYPE_BGP_ASPATH_AGGR, set);
	XFREE(MTYPE_BGP_ASPATH_AGGR, out);
	return res;
}
