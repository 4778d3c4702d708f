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

#include "bgpd/wire/bgp_af.h"
#include "bgpd/wire/bgp_attr.h"
#include "bgpd/wire/bgp_error.h"
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
	/* Why (static text) treat_as_withdraw or a discard happened, NULL when neither did:
	 * "AS_PATH segment overruns the attribute". The caller logs it with the peer (RFC 7606 6
	 * also wants the NLRI and the whole message logged). */
	const char *reason;
	struct stream withdrawn[BGP_AF_MAX];
	struct stream announced[BGP_AF_MAX];
	bool has_withdrawn[BGP_AF_MAX];
	bool has_announced[BGP_AF_MAX];
	/* End-of-RIB marker (RFC 4724 2): an empty UPDATE (IPv4) or an empty MP_UNREACH. */
	bool end_of_rib[BGP_AF_MAX];
	/*
	 * IPv4 unicast prefixes in both the classic fields and MP_(UN)REACH_NLRI of one UPDATE
	 * (RFC 7606 5.1: receivers must accept it). The two are copied end to end into an owned
	 * buffer so that withdrawn[]/announced[] stay one reader each; bgp_update_release()
	 * frees it. Index 0: withdrawals, 1: announcements.
	 */
	uint8_t *joined[2];
	/*
	 * Only in such a mixed UPDATE, when MP_REACH_NLRI's next hop differs from NEXT_HOP's:
	 * the MP_REACH_NLRI prefixes need their own attribute set (attr->nexthop = the MP next
	 * hop). They are NOT in announced[]; a caller gets them as an UPDATE of their own with
	 * bgp_update_take_mp4(). Released by bgp_update_release() when not taken.
	 */
	struct bgp_attr *attr_mp4;
	struct stream announced_mp4;
	bool has_announced_mp4;
};

/*
 * Conventions of a decoded UPDATE:
 * - attr is set only when something is announced in a family we handle and the UPDATE is not
 *   treat-as-withdraw; pure withdrawals and End-of-RIB carry none.
 * - IPv4 unicast routes find their next hop in attr->nexthop whichever field carried them
 *   (a 4-byte MP_REACH_NLRI next hop is copied there); IPv6 in bgp_attr_mp_nh_global(attr)
 *   (and bgp_attr_mp_nh_local(attr) when mp_nh_len is 32). MP_REACH/MP_UNREACH are not
 *   flagged in attr->present.
 * - Families we do not handle (MP_REACH/MP_UNREACH with another AFI/SAFI) are ignored; the
 *   RIB must still ignore families that were not negotiated with the peer.
 * - IPv4 unicast prefixes both in the NLRI field and MP_REACH_NLRI, or both in Withdrawn
 *   Routes and MP_UNREACH_NLRI, of one UPDATE (RFC 7606 5.1 asks senders not to, and
 *   receivers to accept it) are joined into one reader; see joined[] and attr_mp4.
 *
 * Decode the body of an UPDATE (after the 19-byte header). On success returns 0 and fills upd
 * (the caller releases it with bgp_update_release()). On an error that must reset the session
 * returns -1 and fills err with the NOTIFICATION to send (RFC 4271 6.3, RFC 7606).
 */
int bgp_update_decode(struct bgp_update *upd, const uint8_t *body, size_t len,
		      const struct bgp_codec_ctx *ctx, struct bgp_error *err);
void bgp_update_release(struct bgp_update *upd);

/*
 * Move the MP_REACH_NLRI IPv4 prefixes that carry a next hop of their own (see attr_mp4) out
 * of upd into sub, a self-contained UPDATE (announced[IPv4] only, its own attribute
 * reference) that the caller processes and releases like any other. Returns false, sub
 * zeroed, when upd has none (every UPDATE but a rare mixed one). Processing sub before upd
 * makes the classic NLRI field win when one prefix is in both with different next hops.
 */
bool bgp_update_take_mp4(struct bgp_update *upd, struct bgp_update *sub);

/* The next prefix of a validated NLRI reader; false at the end. */
bool bgp_nlri_next(struct stream *nlri, enum bgp_af af, struct prefix *p);

/*
 * The prefixes of UPDATEs not decoded yet, as a hint (bgp_update_peek.c): the input side reads
 * them from the next UPDATEs in its buffer so that the RIB fetches their tree descents
 * together (rib_prefetch()). Up to BGP_PEEK_MAX a family; the caller zeroes n[] to start.
 */
#define BGP_PEEK_MAX 32 /* as many as ptree_prefetch() interleaves */
/*
 * With the prefixes, the hashes the interning stores will look an UPDATE's AS_PATH and
 * COMMUNITIES up by, so that their index slots are loaded before the decode interns them
 * (bgp_update_peek_prefetch()). The AS_PATH's only from a 4-octet AS session (the stored form
 * is then the wire's); COMMUNITIES of up to BGP_PEEK_COMMUNITIES values (a full table's have
 * a few). Up to BGP_PEEK_SETS UPDATEs: as many as BGP_PEEK_MAX prefixes take at one a message.
 * And when both are known and the UPDATE carries nothing that goes to the extras (only
 * ORIGIN, AS_PATH, NEXT_HOP, MED, LOCAL_PREF, ATOMIC_AGGREGATE, COMMUNITIES, each once, and
 * prefixes in the NLRI field), the hash its attribute set will be interned under
 * (bgp_attr_plain_hash()): the set's slot was the announcement's largest miss left.
 */
#define BGP_PEEK_SETS BGP_PEEK_MAX
#define BGP_PEEK_COMMUNITIES 32
#define BGP_PEEK_F_ASPATH 0x01
#define BGP_PEEK_F_COMMUNITIES 0x02
#define BGP_PEEK_F_SET 0x04
struct bgp_peek_set {
	uint32_t aspath_hash;
	uint32_t comm_hash;
	uint32_t attr_hash;
	uint16_t aspath_len;
	uint8_t comm_count;
	uint8_t flags; /* BGP_PEEK_F_*: which of the above were read */
};
struct bgp_update_peek {
	bool as4;  /* the session's: set by the caller, with bgp_update_peek_start() */
	bool ebgp; /* the same: an external peer's LOCAL_PREF is discarded by the decode */
	uint8_t n[BGP_AF_MAX];
	uint8_t nsets;
	struct bgp_peek_set set[BGP_PEEK_SETS];
	struct prefix p[BGP_AF_MAX][BGP_PEEK_MAX];
};
/* Empty pk, for a session that does (as4) or does not speak 4-octet AS numbers, with an
 * external (ebgp) or internal peer. */
void bgp_update_peek_start(struct bgp_update_peek *pk, bool as4, bool ebgp);
/* Add the withdrawn and announced prefixes of an UPDATE's body (after the header) to pk, and
 * its AS_PATH and COMMUNITIES hashes, reading only within len and stopping at anything that
 * does not parse. False once a family's list is full (the caller stops peeking), true
 * otherwise. */
bool bgp_update_peek(const uint8_t *body, size_t len, struct bgp_update_peek *pk);
/* A hint, which changes nothing: start loading the interning stores' index slots of pk's AS
 * paths, community lists and attribute sets. */
void bgp_update_peek_prefetch(const struct bgp_update_peek *pk);

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
	size_t mp_len_pos; /* MP_(UN)REACH attribute length (extended, 2 bytes) */
	size_t attr_start;
	unsigned count;	 /* prefixes added */
	size_t size;	 /* capacity (after the 4096/65535 cap) */
	size_t tail_len; /* IPv6: attributes parked at the end until finish */
};

int bgp_ub_begin_announce(struct bgp_update_builder *ub, uint8_t *buf, size_t size,
			  const struct bgp_codec_ctx *ctx, enum bgp_af af,
			  const struct bgp_attr *attr);
/*
 * The same message from attributes encoded once beforehand, for a sender that packs many
 * UPDATEs with one set: bgp_update_attrs_encode() writes attr's wire form for af (IPv6: the
 * MP_REACH_NLRI next hop, then the other attributes) into buf and returns its length, -1 when
 * it does not fit; bgp_ub_begin_announce_wire() starts a message with it, byte for byte what
 * bgp_ub_begin_announce() writes for attr (-1 when it does not fit the message either).
 */
int bgp_update_attrs_encode(uint8_t *buf, size_t size, const struct bgp_attr *attr,
			    const struct bgp_codec_ctx *ctx, enum bgp_af af);
int bgp_ub_begin_announce_wire(struct bgp_update_builder *ub, uint8_t *buf, size_t size,
			       const struct bgp_codec_ctx *ctx, enum bgp_af af, const uint8_t *wire,
			       size_t wire_len);
int bgp_ub_begin_withdraw(struct bgp_update_builder *ub, uint8_t *buf, size_t size,
			  const struct bgp_codec_ctx *ctx, enum bgp_af af);
/* 0 added; -1 does not fit (finish this message, start another); -EINVAL the prefix is not
 * of the builder's family or its length is out of range (skip it). */
int bgp_ub_add(struct bgp_update_builder *ub, const struct prefix *p);
/* The message length, or 0 when no prefix was added (nothing to send: an empty IPv4
 * withdrawal would read as End-of-RIB). */
size_t bgp_ub_finish(struct bgp_update_builder *ub);
/* End-of-RIB marker for af into buf; returns the message length. */
size_t bgp_update_end_of_rib(uint8_t *buf, size_t size, enum bgp_af af);

#endif /* SKUA_BGP_UPDATE_H */
