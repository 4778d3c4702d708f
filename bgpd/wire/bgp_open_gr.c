/* SPDX-License-Identifier: ISC */
/*
 * The Graceful Restart capability (RFC 4724 3, with RFC 8538 2's N bit) and the Long-lived
 * Graceful Restart capability (RFC 9494 3), both ways. bgp_open.c calls these for code 64 and
 * 71; they live apart because their per-family lists are the one variable-length shape among
 * our capabilities.
 *
 *   GR:   flags (4 bits: R 0x8, N 0x4) | restart time (12 bits), then per family
 *         AFI (2) SAFI (1) flags (1: F 0x80)
 *   LLGR: per family AFI (2) SAFI (1) flags (1: F 0x80) stale time (3)
 *
 * As FRR, a GR capability shorter than its 2-byte header is a malformed OPEN, and a trailing
 * partial family entry (of either) is ignored: the peer gets the session, without that family.
 */
#include "lib/compat.h"

#include "bgpd/wire/bgp_codec.h"
#include "bgpd/wire/bgp_open.h"

#define GR_R_BIT 0x8000
#define GR_N_BIT 0x4000
#define GR_TIME_MASK 0x0fff
#define GR_ENTRY_LEN 4
#define LLGR_ENTRY_LEN 7
#define AF_F_BIT 0x80
#define LLGR_TIME_MAX 0xffffff

static size_t put_af(uint8_t *d, size_t o, enum bgp_af af, bool fwd)
{
	uint16_t afi = bgp_af_afi(af);

	d[o] = (uint8_t)(afi >> 8);
	d[o + 1] = (uint8_t)afi;
	d[o + 2] = BGP_SAFI_UNICAST;
	d[o + 3] = fwd ? AF_F_BIT : 0;
	return o + GR_ENTRY_LEN;
}

size_t bgp_cap_gr_put(uint8_t *d, size_t o, const struct bgp_open_local *l)
{
	uint16_t v = l->gr_time & GR_TIME_MASK;
	size_t start = o;
	int af;

	if (!l->gr)
		return o;
	if (l->gr_restart)
		v |= GR_R_BIT;
	if (l->gr_notification)
		v |= GR_N_BIT;
	d[o + 2] = (uint8_t)(v >> 8);
	d[o + 3] = (uint8_t)v;
	o += 4;
	for (af = 0; af < BGP_AF_MAX; af++)
		if (l->gr_af[af])
			o = put_af(d, o, af, l->gr_fwd[af]);
	d[start] = BGP_CAP_GRACEFUL_RESTART;
	d[start + 1] = (uint8_t)(o - start - 2);
	return o;
}

size_t bgp_cap_llgr_put(uint8_t *d, size_t o, const struct bgp_open_local *l)
{
	uint32_t t = MIN(l->llgr_time, (uint32_t)LLGR_TIME_MAX);
	size_t start = o;
	int af;

	if (!l->llgr)
		return o;
	o += 2;
	for (af = 0; af < BGP_AF_MAX; af++) {
		if (!l->llgr_af[af])
			continue;
		o = put_af(d, o, af, l->llgr_fwd[af]);
		d[o] = (uint8_t)(t >> 16);
		d[o + 1] = (uint8_t)(t >> 8);
		d[o + 2] = (uint8_t)t;
		o += 3;
	}
	d[start] = BGP_CAP_LLGR;
	d[start + 1] = (uint8_t)(o - start - 2);
	return o;
}

/* One AFI/SAFI/flags entry; the family's index, or -1 for a family we do not handle. */
static int get_af(struct stream *v, bool *fwd)
{
	uint16_t afi = 0;
	uint8_t safi = 0, flags = 0;

	stream_get_u16(v, &afi);
	stream_get_u8(v, &safi);
	stream_get_u8(v, &flags);
	*fwd = (flags & AF_F_BIT) != 0;
	return bgp_af_from_afi_safi(afi, safi);
}

int bgp_cap_gr_parse(struct bgp_caps *caps, struct stream *v, struct bgp_error *err)
{
	uint16_t hdr = 0;
	bool fwd;
	int af;

	if (stream_get_u16(v, &hdr) < 0)
		return bgp_error_set(err, BGP_ERR_OPEN, BGP_ERR_UNSPECIFIC, NULL, 0,
				     "graceful restart capability shorter than 2 bytes");
	/* A repeated capability replaces the earlier one (the last one counts, as FRR). */
	memset(caps->gr_af, 0, sizeof(caps->gr_af));
	memset(caps->gr_fwd, 0, sizeof(caps->gr_fwd));
	caps->gr = true;
	caps->gr_restart = (hdr & GR_R_BIT) != 0;
	caps->gr_notification = (hdr & GR_N_BIT) != 0;
	caps->gr_time = hdr & GR_TIME_MASK;
	while (stream_readable(v) >= GR_ENTRY_LEN) {
		af = get_af(v, &fwd);
		if (af < 0)
			continue;
		caps->gr_af[af] = true;
		caps->gr_fwd[af] = fwd;
	}
	return 0;
}

int bgp_cap_llgr_parse(struct bgp_caps *caps, struct stream *v)
{
	uint8_t t[3] = { 0 };
	bool fwd;
	int af;

	caps->llgr = true;
	while (stream_readable(v) >= LLGR_ENTRY_LEN) {
		af = get_af(v, &fwd);
		stream_get_bytes(v, t, 3);
		if (af < 0)
			continue;
		caps->llgr_af[af] = true;
		caps->llgr_fwd[af] = fwd;
		caps->llgr_time[af] = (uint32_t)t[0] << 16 | (uint32_t)t[1] << 8 | t[2];
	}
	return 0;
}
