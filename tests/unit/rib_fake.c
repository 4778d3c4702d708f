/* SPDX-License-Identifier: ISC */
/* Test doubles of the session side for the RIB's tests (see rib_test.h). */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>

#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "bgpd/wire/bgp_update.h"
#include "lib/core_mtypes.h"
#include "lib/memory.h"
#include "lib/table.h"
#include "tests/unit/rib_test.h"

/* Check's assertions record their location on every call (a write per assertion): the hot
 * paths below only call into Check when something is wrong. */
#define FAKE_CHECK(cond, ...)                      \
	do {                                       \
		if (!(cond))                       \
			ck_abort_msg(__VA_ARGS__); \
	} while (0)

struct prefix tpfx(const char *s)
{
	struct prefix p;

	if (prefix_from_str(&p, s, true) < 0)
		ck_abort_msg("bad prefix %s", s);
	return p;
}

void tpfx_range(struct prefix *out, size_t n, const char *base, unsigned len)
{
	struct prefix b = tpfx(base);

	for (size_t i = 0; i < n; i++) {
		out[i] = b;
		out[i].len = (uint8_t)len;
		if (b.family == AF_INET) {
			uint32_t a =
				ntohl(b.u.v4.s_addr) + (uint32_t)i * (UINT32_C(1) << (32 - len));

			out[i].u.v4.s_addr = htonl(a);
		} else {
			/* IPv6: count in the 32 bits that end at bit len. */
			unsigned hi = (len - 1) / 32;
			uint32_t w;

			memcpy(&w, &out[i].u.v6.s6_addr[hi * 4], 4);
			w = htonl(ntohl(w) + (uint32_t)i * (UINT32_C(1) << (32 * (hi + 1) - len)));
			memcpy(&out[i].u.v6.s6_addr[hi * 4], &w, 4);
		}
	}
}

struct bgp *fake_bgp_new(uint32_t asn, const char *rid)
{
	struct bgp *bgp = calloc(1, sizeof(*bgp));

	ck_assert_ptr_nonnull(bgp);
	bgp->asn = asn;
	inet_pton(AF_INET, rid, &bgp->router_id);
	TAILQ_INIT(&bgp->peers);
	for (int af = 0; af < BGP_AF_MAX; af++)
		TAILQ_INIT(&bgp->networks[af]);
	rib_new(bgp, &fake_session_ops);
	ck_assert_ptr_nonnull(bgp->rib);
	return bgp;
}

void fake_bgp_free(struct bgp *bgp)
{
	rib_free(bgp->rib);
	ck_assert_ptr_null(bgp->rib);
	free(bgp);
}

static int adj_release_cb(const struct prefix *p, void *value, void *arg)
{
	(void)p;
	(void)arg;
	bgp_attr_unref(value);
	return 0;
}

void fake_peer_clear(struct fake_peer *fp)
{
	for (int af = 0; af < BGP_AF_MAX; af++) {
		if (fp->adj[af]) {
			ptree_walk(fp->adj[af], adj_release_cb, NULL);
			ptree_free(fp->adj[af], NULL);
		}
		fp->adj[af] = ptree_new(bgp_af_family(af));
	}
}

struct fake_peer *fake_peer_new(struct bgp *bgp, const char *addr, uint32_t remote_as,
				const char *local, const char *router_id)
{
	struct fake_peer *fp = calloc(1, sizeof(*fp));

	ck_assert_ptr_nonnull(fp);
	fp->peer.bgp = bgp;
	ck_assert_int_eq(ipaddr_from_str(&fp->peer.conf.addr, addr), 0);
	fp->peer.conf.remote_as = remote_as;
	snprintf(fp->peer.name, sizeof(fp->peer.name), "%s", addr);
	fp->space = SIZE_MAX;
	fp->decode = true;
	fp->keep = true;
	fp->info.af[BGP_AF_IPV4_UNICAST] = true;
	fp->info.af[BGP_AF_IPV6_UNICAST] = true;
	/* A member AS of the confederation set on bgp beforehand: confed-external. */
	fp->info.confed = remote_as != bgp->asn && bgp_confed_member(bgp, remote_as);
	fp->info.ebgp = remote_as != bgp->asn && !fp->info.confed;
	fp->info.remote_as = remote_as;
	inet_pton(AF_INET, router_id, &fp->info.remote_id);
	fp->info.remote_addr = fp->peer.conf.addr;
	ck_assert_int_eq(ipaddr_from_str(&fp->info.local_addr, local), 0);
	fp->info.max_msg_size = 4096;
	fp->info.codec.as4 = true;
	fp->info.codec.ebgp = fp->info.ebgp;
	fp->info.codec.local_as = bgp->asn;
	fp->info.codec.peer_as = remote_as;
	fake_peer_clear(fp);
	rib_peer_attach(&fp->peer);
	ck_assert_ptr_nonnull(fp->peer.rib);
	return fp;
}

void fake_peer_up(struct fake_peer *fp)
{
	fp->established = true;
	rib_peer_up(&fp->peer, &fp->info);
}

void fake_peer_down(struct fake_peer *fp)
{
	fp->established = false;
	rib_peer_down(&fp->peer);
	fake_peer_clear(fp);
}

void fake_peer_free(struct fake_peer *fp)
{
	rib_peer_detach(&fp->peer);
	for (int af = 0; af < BGP_AF_MAX; af++) {
		ptree_walk(fp->adj[af], adj_release_cb, NULL);
		ptree_free(fp->adj[af], NULL);
	}
	free(fp);
}

void tmpl_init(struct bgp_attr *t, const char *aspath, const char *nexthop, uint8_t origin)
{
	struct bgp_attr_extra ex;
	struct ipaddr nh;

	memset(t, 0, sizeof(*t));
	t->aspath = bgp_aspath_from_str(aspath);
	ck_assert_msg(t->aspath != NULL, "bad AS path %s", aspath);
	t->origin = origin;
	t->present = ATTR_BIT(BGP_ATTR_ORIGIN) | ATTR_BIT(BGP_ATTR_AS_PATH);
	ck_assert_int_eq(ipaddr_from_str(&nh, nexthop), 0);
	if (nh.family == AF_INET) {
		t->nexthop = nh.u.v4;
		t->present |= ATTR_BIT(BGP_ATTR_NEXT_HOP);
	} else {
		bgp_attr_set_mp_nh(t, &ex, 16, &nh.u.v6, NULL);
		/* The template outlives ex: hold an interned copy instead. */
		if (t->extra == &ex)
			t->extra = bgp_attr_extra_intern(&ex);
	}
}

void tmpl_release(struct bgp_attr *t)
{
	bgp_aspath_unref(t->aspath);
	t->aspath = NULL;
	bgp_attr_extra_unref(t->extra);
	t->extra = NULL;
}

/* The codec context of the fake's own side of the session. */
static struct bgp_codec_ctx fake_ctx(const struct fake_peer *fp)
{
	struct bgp_codec_ctx ctx = fp->info.codec;

	ctx.local_as = fp->info.remote_as;
	/* The AS the fake knows us by: our local-as towards it, if any, or our confederation's
	 * identifier when it is outside (its first AS check). */
	ctx.peer_as = fp->peer.conf.local_as ? fp->peer.conf.local_as
		      : fp->info.ebgp	     ? bgp_outside_as(fp->peer.bgp)
					     : fp->peer.bgp->asn;
	return ctx;
}

int fake_deliver(struct fake_peer *fp, const uint8_t *body, size_t len)
{
	struct bgp_update upd;
	struct bgp_error err;

	memset(&upd, 0, sizeof(upd));
	if (bgp_update_decode(&upd, body, len, &fp->info.codec, &err) < 0)
		return -1;
	rib_update_received(&fp->peer, &upd);
	return 0;
}

static void fake_send_group(struct fake_peer *fp, enum bgp_af af, const struct bgp_attr *tmpl,
			    const struct prefix *p, size_t n)
{
	struct bgp_codec_ctx ctx = fake_ctx(fp);
	struct bgp_update_builder ub;
	uint8_t buf[4096];
	size_t i = 0;

	while (i < n) {
		size_t len;

		if (tmpl)
			ck_assert_int_eq(
				bgp_ub_begin_announce(&ub, buf, sizeof(buf), &ctx, af, tmpl), 0);
		else
			ck_assert_int_eq(bgp_ub_begin_withdraw(&ub, buf, sizeof(buf), &ctx, af), 0);
		while (i < n && bgp_ub_add(&ub, &p[i]) == 0)
			i++;
		len = bgp_ub_finish(&ub);
		ck_assert_uint_gt(len, 19);
		ck_assert_int_eq(fake_deliver(fp, buf + 19, len - 19), 0);
	}
}

void fake_announce(struct fake_peer *fp, enum bgp_af af, const struct bgp_attr *tmpl,
		   const struct prefix *p, size_t n)
{
	fake_send_group(fp, af, tmpl, p, n);
}

void fake_withdraw(struct fake_peer *fp, enum bgp_af af, const struct prefix *p, size_t n)
{
	fake_send_group(fp, af, NULL, p, n);
}

void fake_run(struct bgp *bgp, unsigned max_turns)
{
	rib_work_run(bgp->rib, max_turns);
}

const struct bgp_attr *fake_adj(struct fake_peer *fp, const char *s)
{
	struct prefix p = tpfx(s);

	return ptree_lookup(fp->adj[p.family == AF_INET ? 0 : 1], &p);
}

size_t fake_adj_count(struct fake_peer *fp, enum bgp_af af)
{
	return ptree_count(fp->adj[af]);
}

/* ---- the session side doubles ---- */

static struct fake_peer *fake_of(const struct bgp_peer *peer)
{
	return (struct fake_peer *)peer;
}

static size_t fake_send_space(const struct bgp_peer *peer)
{
	return fake_of(peer)->space;
}

static void fake_max_prefix_exceeded(struct bgp_peer *peer, enum bgp_af af, uint32_t limit)
{
	struct fake_peer *fp = (struct fake_peer *)peer;

	fp->maxpfx_calls[af]++;
	fp->maxpfx_limit = limit;
}

static int fake_send_route_refresh(struct bgp_peer *peer, enum bgp_af af)
{
	(void)peer;
	(void)af;
	return 0;
}

static void fake_apply(struct fake_peer *fp, struct bgp_update *upd)
{
	bool ann = false, wd = false;
	struct prefix p;

	if (upd->treat_as_withdraw)
		fp->treat_as_withdraw++;
	fp->discarded |= upd->discarded;
	for (int af = 0; af < BGP_AF_MAX; af++) {
		if (upd->end_of_rib[af])
			fp->eor[af]++;
		if (upd->has_withdrawn[af])
			while (bgp_nlri_next(&upd->withdrawn[af], af, &p)) {
				struct bgp_attr *old;

				wd = true;
				fp->pfx_withdrawn++;
				if (!fp->keep)
					continue;
				old = ptree_delete(fp->adj[af], &p);
				if (!old)
					fp->spurious_withdraw++;
				bgp_attr_unref(old);
			}
		if (upd->has_announced[af])
			while (bgp_nlri_next(&upd->announced[af], af, &p)) {
				void **slot;

				ann = true;
				fp->pfx_announced++;
				if (fp->eor[af])
					fp->msgs_after_eor[af]++;
				if (!fp->keep)
					continue;
				slot = ptree_get(fp->adj[af], &p);
				bgp_attr_unref(*slot);
				*slot = bgp_attr_ref(upd->attr);
			}
	}
	fp->msgs_announce += ann;
	fp->msgs_withdraw += wd;
}

static int fake_send(struct bgp_peer *peer, const uint8_t *msg, size_t len)
{
	struct fake_peer *fp = fake_of(peer);
	struct bgp_codec_ctx ctx = fake_ctx(fp);
	struct bgp_update upd;
	struct bgp_error err;
	static const uint8_t marker[16] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

	FAKE_CHECK(fp->established, "%s: send while not Established", peer->name);
	FAKE_CHECK(len >= 19 && len <= fp->info.max_msg_size, "%s: message of %zu bytes",
		   peer->name, len);
	FAKE_CHECK(memcmp(msg, marker, 16) == 0, "%s: bad marker", peer->name);
	FAKE_CHECK(((size_t)msg[16] << 8 | msg[17]) == len, "%s: length field differs", peer->name);
	if (msg[18] == 5) {
		/* ROUTE-REFRESH: the RIB sends only BoRR and EoRR (RFC 7313) itself. */
		FAKE_CHECK(len == 23 && msg[19] == 0 && (msg[20] == 1 || msg[20] == 2) &&
				   (msg[21] == 1 || msg[21] == 2) && msg[22] == 1,
			   "%s: ROUTE-REFRESH is no BoRR/EoRR", peer->name);
		if (msg[21] == 1)
			fp->borr[msg[20] - 1]++;
		else
			fp->eorr[msg[20] - 1]++;
		if (fp->rr_nlog < 15)
			fp->rr_log[fp->rr_nlog++] = msg[21] == 1 ? 'B' : 'E';
		return 0;
	}
	FAKE_CHECK(msg[18] == 2, "%s: message type %u, not UPDATE", peer->name, msg[18]);
	if (fp->rr_nlog < 15)
		fp->rr_log[fp->rr_nlog++] = 'U';
	fp->msgs++;
	fp->bytes += len;
	if (fp->space != SIZE_MAX) {
		if (fp->space == 0)
			fp->sent_at_zero++;
		if (len > fp->space)
			fp->overshoot = MAX(fp->overshoot, len - fp->space);
		fp->space = len >= fp->space ? 0 : fp->space - len;
	}
	if (!fp->decode)
		return 0;
	memset(&upd, 0, sizeof(upd));
	if (bgp_update_decode(&upd, msg + 19, len - 19, &ctx, &err) < 0) {
		fp->decode_errors++;
		return 0;
	}
	if (fp->tap)
		fp->tap(fp, msg, len, &upd);
	fake_apply(fp, &upd);
	bgp_update_release(&upd);
	return 0;
}

/* The RIB's view of the sessions: these doubles, handed to rib_new() as the instance layer
 * hands the real session side's. */
const struct bgp_session_ops fake_session_ops = {
	.send_space = fake_send_space,
	.send = fake_send,
	.max_prefix_exceeded = fake_max_prefix_exceeded,
	.send_route_refresh = fake_send_route_refresh,
};

/* ---- memory ---- */

uint64_t rib_mem_bytes(void)
{
	struct mtype *const types[] = {
		MTYPE_BGP_RIB,	      MTYPE_BGP_RIB_PEER,  MTYPE_BGP_RIB_SRC,
		MTYPE_PTREE_SLAB,     MTYPE_BGP_PATH_SLAB, MTYPE_BGP_JOURNAL,
		MTYPE_BGP_ADV_BITMAP, MTYPE_BGP_ADJ_OUT,   MTYPE_BGP_AGGREGATE,
	};
	uint64_t total = 0;

	for (size_t i = 0; i < array_size(types); i++)
		total += types[i]->bytes;
	return total;
}

uint64_t rib_mem_allocs(void)
{
	struct mtype *const types[] = {
		MTYPE_BGP_RIB,	      MTYPE_BGP_RIB_PEER,  MTYPE_BGP_RIB_SRC,
		MTYPE_PTREE_SLAB,     MTYPE_BGP_PATH_SLAB, MTYPE_BGP_JOURNAL,
		MTYPE_BGP_ADV_BITMAP, MTYPE_BGP_ADJ_OUT,   MTYPE_BGP_AGGREGATE,
	};
	uint64_t total = 0;

	for (size_t i = 0; i < array_size(types); i++)
		total += types[i]->allocated;
	return total;
}

struct bgp *fake_bgp_two_peers(struct fake_peer **e1, struct fake_peer **e2)
{
	struct bgp *bgp = fake_bgp_new(65001, "10.0.0.1");

	*e1 = fake_peer_new(bgp, "10.0.0.2", 65002, "10.0.0.1", "2.2.2.2");
	*e2 = fake_peer_new(bgp, "10.0.1.2", 65003, "10.0.1.1", "3.3.3.3");
	fake_peer_up(*e1);
	fake_peer_up(*e2);
	fake_run(bgp, 100000); /* to completion (a bound, as the tests' RUN_ALL) */
	return bgp;
}

void fake_bgp_two_peers_free(struct bgp *bgp, struct fake_peer *e1, struct fake_peer *e2)
{
	fake_peer_free(e1);
	fake_peer_free(e2);
	fake_bgp_free(bgp);
	ck_assert_uint_eq(rib_mem_allocs(), 0);
	ck_assert_uint_eq(bgp_attr_count(), 0);
}

void fake_announce_table(struct fake_peer *e1, struct fake_peer *e2, const struct prefix *table,
			 size_t n)
{
	for (size_t i = 0; i < n; i += 10) {
		struct bgp_attr t;
		char path[32];

		snprintf(path, sizeof(path), "65002 %zu", 100 + i / 10);
		tmpl_init(&t, path, "10.0.0.2", BGP_ORIGIN_IGP);
		fake_announce(e1, BGP_AF_IPV4_UNICAST, &t, table + i, MIN(n - i, (size_t)10));
		tmpl_release(&t);
	}
	fake_run(e1->peer.bgp, 100000);
	ck_assert_uint_eq(fake_adj_count(e2, BGP_AF_IPV4_UNICAST), n);
}
