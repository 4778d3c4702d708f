/* SPDX-License-Identifier: ISC */
/*
 * UPDATE messages: decode into a validated struct bgp_update whose NLRI the RIB then walks
 * without allocating, and an encoder (builder) that packs as many prefixes as fit into one
 * message for one attribute set.
 */
#ifndef SKUA_BGP_UPDATE_H
#define SKUA_BGP_UPDATE_H

#include <stdbool.h>
#include <stdint.h>

#include "bgpd/bgp_attr.h"
#include "bgpd/bgp_error.h"
#include "bgpd/bgpd.h"
#include "lib/prefix.h"
#include "lib/stream.h"

/*
 * A decoded UPDATE. The NLRI fields are readers over the message buffer (valid until the
 * message is freed) that have already been checked for syntax, so bgp_nlri_next() cannot fail
 * on them. Withdrawn and announced sets are per address family.
 */
struct bgp_update {
	struct bgp_attr *attr; /* interned; NULL when the UPDATE carries no attributes */
	/* RFC 7606: the attributes were malformed in a way that makes every announced prefix
	 * in this UPDATE a withdrawal ("treat-as-withdraw"). */
	bool treat_as_withdraw;
	/* Attributes that were discarded under RFC 7606 "attribute discard" (for the log). */
	uint64_t discarded;
	struct stream withdrawn[BGP_AF_MAX];
	struct stream announced[BGP_AF_MAX];
	bool has_withdrawn[BGP_AF_MAX];
	bool has_announced[BGP_AF_MAX];
	/* End-of-RIB marker (RFC 4724 2): an empty UPDATE (IPv4) or an empty MP_UNREACH. */
	bool end_of_rib[BGP_AF_MAX];
};

/*
 * Decode the body of an UPDATE (after the 19-byte header). On success returns 0 and fills upd
 * (the caller releases it with bgp_update_release()). On an error that must reset the session
 * returns -1 and fills err with the NOTIFICATION to send (RFC 4271 6.3, RFC 7606).
 */
int bgp_update_decode(struct bgp_update *upd, const uint8_t *body, size_t len,
		      const struct bgp_codec_ctx *ctx, struct bgp_error *err);
void bgp_update_release(struct bgp_update *upd);

/* The next prefix of a validated NLRI reader; false at the end. */
bool bgp_nlri_next(struct stream *nlri, enum bgp_af af, struct prefix *p);

/*
 * The builder: one UPDATE message at a time into a caller's buffer of `size` bytes (4096, or
 * 65535 with extended messages). Usage for announcements:
 *   bgp_ub_begin_announce(&ub, buf, size, ctx, af, attr);   // writes header and attributes
 *   while (more && bgp_ub_add(&ub, &prefix) == 0) ...       // -1 = this one does not fit
 *   len = bgp_ub_finish(&ub);                               // complete message, header incl.
 * and for withdrawals bgp_ub_begin_withdraw(&ub, buf, size, ctx, af) then add/finish.
 * attr is already the attribute set for this peer (next hop, AS path prepended, LOCAL_PREF
 * only on iBGP...): the builder encodes what it is given. For IPv6 the prefixes go into
 * MP_REACH_NLRI/MP_UNREACH_NLRI and the attribute length is fixed up by finish.
 */
struct bgp_update_builder {
	struct stream s;
	const struct bgp_codec_ctx *ctx;
	enum bgp_af af;
	bool withdraw;
	size_t total_path_attr_len_pos; /* where the 2-byte attribute length lives */
	size_t withdrawn_len_pos;
	size_t mp_len_pos;              /* MP_(UN)REACH attribute length (extended, 2 bytes) */
	size_t attr_start;
	unsigned count;                 /* prefixes added */
};

int bgp_ub_begin_announce(struct bgp_update_builder *ub, uint8_t *buf, size_t size,
			  const struct bgp_codec_ctx *ctx, enum bgp_af af,
			  const struct bgp_attr *attr);
int bgp_ub_begin_withdraw(struct bgp_update_builder *ub, uint8_t *buf, size_t size,
			  const struct bgp_codec_ctx *ctx, enum bgp_af af);
int bgp_ub_add(struct bgp_update_builder *ub, const struct prefix *p);
size_t bgp_ub_finish(struct bgp_update_builder *ub);
/* End-of-RIB marker for af into buf; returns the message length. */
size_t bgp_update_end_of_rib(uint8_t *buf, size_t size, enum bgp_af af);

#endif /* SKUA_BGP_UPDATE_H */
