/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target: UPDATE decoding (RFC 7606 paths), the input side's peek at undecoded
 * UPDATEs (bgp_update_peek()), NLRI walking, and the property that
 * whatever decodes to an announcement can be encoded again by the builder and decodes again.
 * Input: one byte of session flags (bit 0 4-octet AS, bit 1 eBGP, bit 2 extended messages,
 * bit 3 take the second IPv4 attribute set of a mixed UPDATE),
 * then the UPDATE body (after the 19-byte header). See tests/fuzz/README.md.
 */
#include "lib/compat.h"

#include "bgpd/wire/bgp_codec.h"
#include "bgpd/wire/bgp_update.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t msg[65535];

static void reencode(const struct bgp_update *u, const struct bgp_codec_ctx *ctx)
{
	struct bgp_codec_ctx ictx = *ctx;
	struct bgp_update_builder ub;
	struct bgp_update u2;
	struct bgp_error err;
	struct stream nlri;
	struct prefix p;
	size_t len;
	int af;

	/* Send it on over iBGP (no first-AS rule) with the same AS size. */
	ictx.ebgp = false;
	for (af = 0; af < BGP_AF_MAX; af++) {
		if (!u->has_announced[af])
			continue;
		if (bgp_ub_begin_announce(&ub, msg, sizeof(msg), &ictx, af, u->attr) < 0)
			continue; /* attributes too long for one message */
		nlri = u->announced[af];
		while (bgp_nlri_next(&nlri, af, &p))
			if (bgp_ub_add(&ub, &p) != 0)
				break;
		len = bgp_ub_finish(&ub);
		if (!len)
			continue;
		if (bgp_update_decode(&u2, msg + 19, len - 19, &ictx, &err) != 0 ||
		    u2.treat_as_withdraw || !u2.has_announced[af])
			abort(); /* our own output must be acceptable */
		bgp_update_release(&u2);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bgp_codec_ctx ctx = { .local_as = 65001, .peer_as = 65002 };
	struct bgp_update_peek pk;
	struct bgp_update u;
	struct bgp_error err;
	struct prefix p;
	struct stream s;
	int af;

	if (size < 1)
		return 0;
	ctx.as4 = data[0] & 1;
	ctx.ebgp = data[0] & 2;
	ctx.extended_message = data[0] & 4;
	if (!ctx.ebgp)
		ctx.peer_as = ctx.local_as;
	/* The input side peeks at UPDATEs before they are decoded: any bytes at all. */
	bgp_update_peek_start(&pk, ctx.as4, ctx.ebgp);
	bgp_update_peek(data + 1, size - 1, &pk);
	for (af = 0; af < BGP_AF_MAX; af++)
		if (pk.n[af] > BGP_PEEK_MAX)
			abort();
	if (pk.nsets > BGP_PEEK_SETS)
		abort();
	bgp_update_peek_prefetch(&pk);
	if (bgp_update_decode(&u, data + 1, size - 1, &ctx, &err) != 0)
		return 0;
	for (af = 0; af < BGP_AF_MAX; af++) {
		s = u.withdrawn[af];
		while (bgp_nlri_next(&s, af, &p))
			;
		s = u.announced[af];
		while (bgp_nlri_next(&s, af, &p))
			;
	}
	if (u.attr) {
		char buf[1024];

		bgp_attr_to_str(u.attr, buf, sizeof(buf));
		reencode(&u, &ctx);
	}
	/* A mixed IPv4 UPDATE with two next hops (RFC 7606 5.1): the second set, taken or not. */
	if (data[0] & 8) {
		struct bgp_update sub;

		if (bgp_update_take_mp4(&u, &sub)) {
			if (!sub.attr)
				abort();
			s = sub.announced[BGP_AF_IPV4_UNICAST];
			while (bgp_nlri_next(&s, BGP_AF_IPV4_UNICAST, &p))
				;
			reencode(&sub, &ctx);
			bgp_update_release(&sub);
		}
	}
	bgp_update_release(&u);
	return 0;
}
