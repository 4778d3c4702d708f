/* SPDX-License-Identifier: ISC */
/*
 * Test doubles for the RIB side's unit tests and benchmark (tests/unit/rib_fake.c): a fake
 * instance and fake peers whose "session" decodes every UPDATE the RIB sends with the codec
 * (bgp_update_decode) and keeps what the peer would hold, so tests assert on the wire result.
 */
#ifndef SKUA_RIB_TEST_H
#define SKUA_RIB_TEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bgpd/core/bgp.h"
#include "bgpd/core/bgp_msg.h"
#include "bgpd/wire/bgp_attr.h"
#include "lib/prefix.h"

struct ptree;
struct bgp_update;

struct fake_peer {
	struct bgp_peer peer; /* first: the session doubles find the fake from the peer */
	struct bgp_session_info info;
	size_t space;	       /* what send_space() reports; SIZE_MAX = no limit. Like the
				* session, a message may be queued while space > 0 (it may overshoot). */
	size_t overshoot;      /* the largest overshoot seen */
	uint64_t sent_at_zero; /* messages queued with no room at all (must stay 0) */
	bool decode;	       /* decode what is sent (false: count bytes only) */
	bool keep;	       /* keep what is decoded in adj[] (false: count prefixes only) */
	bool established;
	/* what was sent to this peer */
	uint64_t msgs; /* UPDATE messages */
	uint64_t bytes;
	uint64_t msgs_announce; /* UPDATEs announcing something */
	uint64_t msgs_withdraw; /* UPDATEs withdrawing something */
	uint64_t pfx_announced;
	uint64_t pfx_withdrawn;
	uint64_t spurious_withdraw; /* withdrawals of prefixes the peer did not have */
	uint64_t eor[BGP_AF_MAX];
	uint64_t borr[BGP_AF_MAX]; /* RFC 7313 BoRR / EoRR received */
	uint64_t eorr[BGP_AF_MAX];
	char rr_log[16];  /* the first 15 messages: U (UPDATE), B (BoRR), E (EoRR) */
	unsigned rr_nlog; /* how many are in rr_log (a test sets it to 0 to start again) */
	uint64_t msgs_after_eor[BGP_AF_MAX]; /* announcements after End-of-RIB */
	uint64_t decode_errors;
	uint64_t treat_as_withdraw;
	uint64_t discarded;	       /* RFC 7606 discards seen (OR of bits) */
	struct ptree *adj[BGP_AF_MAX]; /* prefix -> struct bgp_attr * (reference held) */
	/* max_prefix_exceeded() calls: how many, and the last limit */
	uint32_t maxpfx_calls[BGP_AF_MAX];
	uint32_t maxpfx_limit;
	/* Called with every UPDATE the RIB sends this peer, whole, and its decoding (before the
	 * fake applies it); NULL = none. */
	void (*tap)(struct fake_peer *fp, const uint8_t *msg, size_t len,
		    const struct bgp_update *upd);
};

/* The session side as the RIB sees it (bgpd/core/bgp_msg.h): doubles that decode what is sent
 * into the fake peer. fake_bgp_new() hands it to rib_new(). */
extern const struct bgp_session_ops fake_session_ops;

/* The instance: AS asn, router id rid, no event loop (fake_run() runs the RIB's work); creates
 * its RIB with the session doubles. */
struct bgp *fake_bgp_new(uint32_t asn, const char *rid);
void fake_bgp_free(struct bgp *bgp);

/* A configured peer at addr in remote_as; local is our address on the session. */
struct fake_peer *fake_peer_new(struct bgp *bgp, const char *addr, uint32_t remote_as,
				const char *local, const char *router_id);
void fake_peer_up(struct fake_peer *fp);
void fake_peer_down(struct fake_peer *fp);
void fake_peer_free(struct fake_peer *fp);
/* Forget what the peer holds (after a session reset). */
void fake_peer_clear(struct fake_peer *fp);

/* An attribute template: AS path text, next hop (IPv4 or IPv6 text), origin. The template
 * holds an AS path reference: release with tmpl_release(). */
void tmpl_init(struct bgp_attr *t, const char *aspath, const char *nexthop, uint8_t origin);
void tmpl_release(struct bgp_attr *t);

/* Send the RIB UPDATEs from fp, as many prefixes per message as fit. */
void fake_announce(struct fake_peer *fp, enum bgp_af af, const struct bgp_attr *tmpl,
		   const struct prefix *p, size_t n);
void fake_withdraw(struct fake_peer *fp, enum bgp_af af, const struct prefix *p, size_t n);
/* Deliver one raw UPDATE body (after the header) as the session side would. */
int fake_deliver(struct fake_peer *fp, const uint8_t *body, size_t len);

/* Run the RIB's deferred work to completion (at most max_turns turns). */
void fake_run(struct bgp *bgp, unsigned max_turns);

/* What fp holds for prefix text s (NULL: nothing). */
const struct bgp_attr *fake_adj(struct fake_peer *fp, const char *s);
size_t fake_adj_count(struct fake_peer *fp, enum bgp_af af);

struct prefix tpfx(const char *s);
/* n prefixes /len from base (IPv4: base.x.y.0/24 style, counted up by 2^(32-len)). */
void tpfx_range(struct prefix *out, size_t n, const char *base, unsigned len);

/* The withdrawal tests' set-up: a new instance (AS 65001) with two eBGP peers up, e1 (AS
 * 65002, 10.0.0.2) that feeds and e2 (AS 65003, 10.0.1.2) that receives. */
struct bgp *fake_bgp_two_peers(struct fake_peer **e1, struct fake_peer **e2);
/* Frees what fake_bgp_two_peers() made, then checks that the RIB's memory and every attribute
 * set went with it. */
void fake_bgp_two_peers_free(struct bgp *bgp, struct fake_peer *e1, struct fake_peer *e2);
/* e1 announces table[0 .. n - 1], one attribute set (AS path "65002 N") per ten prefixes, the
 * RIB runs, and e2 holds all n. */
void fake_announce_table(struct fake_peer *e1, struct fake_peer *e2, const struct prefix *table,
			 size_t n);

/* Bytes held by the RIB's own memory types. */
uint64_t rib_mem_bytes(void);
uint64_t rib_mem_allocs(void);

#endif /* SKUA_RIB_TEST_H */
