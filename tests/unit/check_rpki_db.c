/* SPDX-License-Identifier: ISC */
/*
 * The RPKI store (bgpd/rpki): route origin validation (RFC 6811) at its edges, ASPA
 * verification (draft-ietf-sidrops-aspa-verification, upstream and downstream), transactions
 * (errors, reset diff, abort), several sources, what the watcher is told, the walks' order, and
 * memory given back.
 */
#include "lib/compat.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bgpd/rpki/rpki_db.h"
#include "bgpd/wire/bgp_attr.h"

static struct prefix P(const char *s) {
	struct prefix p;

	ck_assert_msg(prefix_from_str(&p, s, false) == 0, "cannot parse %s", s);
	return p;
}

static struct rpki_vrp
V(const char *pfx, unsigned max_len, uint32_t asn) {
	struct rpki_vrp v = { .prefix = P(pfx), .max_len = (uint8_t)max_len, .asn = asn };

	return v;
}

/* One committed transaction of one VRP; the error the store gave, or 0. */
static int
vrp1(struct rpki_db *db, int src, const char *pfx, unsigned max_len, uint32_t asn, bool announce)
{
	struct rpki_txn *txn = rpki_txn_begin(db, src, false);
	struct rpki_vrp v = V(pfx, max_len, asn);
	int ret;

	ck_assert_ptr_nonnull(txn);
	ret = rpki_txn_vrp(txn, &v, announce);
	if (ret)
		rpki_txn_abort(txn);
	else
		rpki_txn_commit(txn);
	return ret;
}

static enum rpki_state rov(struct rpki_db *db, const char *pfx, const char *path)
{
	struct bgp_aspath *a = bgp_aspath_from_str(path);
	struct prefix p = P(pfx);
	enum rpki_state s;

	ck_assert_msg(a != NULL, "cannot parse path %s", path);
	s = rpki_validate(db, &p, a);
	bgp_aspath_unref(a);
	return s;
}

static struct rpki_db *new_active(int *src)
{
	struct rpki_db *db = rpki_db_new();

	*src = rpki_source_add(db, "192.0.2.1 3323");
	ck_assert_int_eq(*src, 0);
	rpki_db_set_active(db, true);
	return db;
}

static void teardown(void)
{
	/* every test frees what it made: the record types must be back to nothing */
	ck_assert_uint_eq(MTYPE_RPKI_DB->allocated, 0);
	ck_assert_uint_eq(MTYPE_RPKI_VRP->allocated, 0);
	ck_assert_uint_eq(MTYPE_RPKI_ASPA->allocated, 0);
	ck_assert_uint_eq(MTYPE_RPKI_VRP->bytes, 0);
}

/* ---- origin validation ---- */

START_TEST(test_rov_maxlen_and_origin)
{
	int src;
	struct rpki_db *db = new_active(&src);

	ck_assert_int_eq(rov(db, "192.0.2.0/24", "65001"), RPKI_NOTFOUND); /* empty store */
	ck_assert_int_eq(vrp1(db, src, "198.51.100.0/22", 24, 65001, true), 0);
	/* maxLength edges: /22../24 match, /25 is too specific, a shorter prefix is uncovered */
	ck_assert_int_eq(rov(db, "198.51.100.0/22", "65002 65001"), RPKI_VALID);
	ck_assert_int_eq(rov(db, "198.51.101.0/24", "65001"), RPKI_VALID);
	ck_assert_int_eq(rov(db, "198.51.101.128/25", "65001"), RPKI_INVALID);
	ck_assert_int_eq(rov(db, "198.51.96.0/21", "65001"), RPKI_NOTFOUND);
	ck_assert_int_eq(rov(db, "198.51.104.0/24", "65001"), RPKI_NOTFOUND); /* beside it */
	/* the wrong origin, an origin only in the middle of the path */
	ck_assert_int_eq(rov(db, "198.51.100.0/24", "65002"), RPKI_INVALID);
	ck_assert_int_eq(rov(db, "198.51.100.0/24", "65001 65002"), RPKI_INVALID);
	ck_assert_int_eq(rov(db, "198.51.100.0/24", "65002 65001 65001 65001"), RPKI_VALID);
	/* origin NONE: a final AS_SET, an empty path, a path of confederation segments only;
	 * covered routes are invalid, uncovered not found */
	ck_assert_int_eq(rov(db, "198.51.100.0/24", "65002 {65001}"), RPKI_INVALID);
	ck_assert_int_eq(rov(db, "198.51.100.0/24", "65002 {65001,65003}"), RPKI_INVALID);
	ck_assert_int_eq(rov(db, "198.51.100.0/24", ""), RPKI_INVALID);
	ck_assert_int_eq(rov(db, "198.51.100.0/24", "(65001)"), RPKI_INVALID);
	ck_assert_int_eq(rov(db, "203.0.113.0/24", "65002 {65001}"), RPKI_NOTFOUND);
	/* a set before a final sequence does not hide the origin */
	ck_assert_int_eq(rov(db, "198.51.100.0/24", "{65009} 65001"), RPKI_VALID);
	/* with our AS known, an empty path and a confederation-only one are ours (RFC 6811 2) */
	rpki_db_set_local_as(db, 65001);
	ck_assert_int_eq(rov(db, "198.51.100.0/24", ""), RPKI_VALID);
	ck_assert_int_eq(rov(db, "198.51.100.0/24", "(65010 65011)"), RPKI_VALID);
	ck_assert_int_eq(rov(db, "198.51.100.0/24", "65002 {65001}"), RPKI_INVALID);
	ck_assert_int_eq(rov(db, "198.51.100.0/24", "(65010) 65002"), RPKI_INVALID);
	rpki_db_set_local_as(db, 65002);
	ck_assert_int_eq(rov(db, "198.51.100.0/24", ""), RPKI_INVALID);
	rpki_db_set_local_as(db, 0);

	/* the origin as given: unknown is NONE, AS 0 is never an origin */
	struct prefix p = P("198.51.100.0/24");

	ck_assert_int_eq(rpki_validate_origin(db, &p, 65001, true), RPKI_VALID);
	ck_assert_int_eq(rpki_validate_origin(db, &p, 65001, false), RPKI_INVALID);

	/* not in use: NOT_USED whatever the data */
	rpki_db_set_active(db, false);
	ck_assert_int_eq(rov(db, "198.51.100.0/24", "65001"), RPKI_NOT_USED);
	ck_assert_int_eq(rpki_validate(NULL, &p, NULL), RPKI_NOT_USED);
	rpki_db_free(db);
}
END_TEST

START_TEST(test_rov_as0_overlap_ipv6)
{
	int src;
	struct rpki_db *db = new_active(&src);
	struct prefix p;

	/* AS 0 (RFC 6483 4): covers, never matches, not even an origin 0 */
	ck_assert_int_eq(vrp1(db, src, "203.0.113.0/24", 32, 0, true), 0);
	ck_assert_int_eq(rov(db, "203.0.113.0/24", "65001"), RPKI_INVALID);
	p = P("203.0.113.0/24");
	ck_assert_int_eq(rpki_validate_origin(db, &p, 0, true), RPKI_INVALID);
	/* another VRP beside the AS 0 one makes that origin valid */
	ck_assert_int_eq(vrp1(db, src, "203.0.113.0/24", 24, 65001, true), 0);
	ck_assert_int_eq(rov(db, "203.0.113.0/24", "65001"), RPKI_VALID);
	ck_assert_int_eq(rov(db, "203.0.113.0/25", "65001"), RPKI_INVALID);

	/* overlapping VRPs: every covering one counts, the shorter one included */
	ck_assert_int_eq(vrp1(db, src, "10.0.0.0/8", 8, 65010, true), 0);
	ck_assert_int_eq(vrp1(db, src, "10.1.0.0/16", 24, 65020, true), 0);
	ck_assert_int_eq(vrp1(db, src, "10.0.0.0/8", 24, 65030, true), 0);
	ck_assert_int_eq(rov(db, "10.0.0.0/8", "65010"), RPKI_VALID);
	ck_assert_int_eq(rov(db, "10.1.1.0/24", "65010"), RPKI_INVALID); /* /8 max 8 */
	ck_assert_int_eq(rov(db, "10.1.1.0/24", "65020"), RPKI_VALID);
	ck_assert_int_eq(rov(db, "10.1.1.0/24", "65030"), RPKI_VALID); /* from the /8 */
	ck_assert_int_eq(rov(db, "10.1.1.0/25", "65030"), RPKI_INVALID);
	ck_assert_int_eq(rov(db, "10.2.0.0/16", "65020"), RPKI_INVALID);

	/* IPv6, and the families do not mix */
	ck_assert_int_eq(vrp1(db, src, "2001:db8::/32", 48, 65001, true), 0);
	ck_assert_int_eq(rov(db, "2001:db8:1::/48", "65001"), RPKI_VALID);
	ck_assert_int_eq(rov(db, "2001:db8:1::/49", "65001"), RPKI_INVALID);
	ck_assert_int_eq(rov(db, "2001:db9::/32", "65001"), RPKI_NOTFOUND);
	ck_assert_int_eq(rov(db, "::/0", "65001"), RPKI_NOTFOUND);
	ck_assert_int_eq(vrp1(db, src, "::/0", 128, 65005, true), 0);
	ck_assert_int_eq(rov(db, "2001:db8::1/128", "65005"), RPKI_VALID);
	ck_assert_int_eq(rov(db, "192.0.2.0/24", "65005"), RPKI_NOTFOUND);
	ck_assert_uint_eq(rpki_vrp_count(db, AF_INET), 5);
	ck_assert_uint_eq(rpki_vrp_count(db, AF_INET6), 2);
	ck_assert_uint_eq(rpki_vrp_count(db, AF_UNSPEC), 7);
	rpki_db_free(db);
}
END_TEST

/* ---- transactions ---- */

struct watch_log {
	int vrp, aspa, all;
	char last[64];
	char seen[16][64];
};

static void w_vrp(void *arg, const struct prefix *p)
{
	struct watch_log *w = arg;

	prefix_to_str(p, w->last, sizeof(w->last));
	if (w->vrp < 16)
		memcpy(w->seen[w->vrp], w->last, sizeof(w->last));
	w->vrp++;
}

static void w_aspa(void *arg)
{
	((struct watch_log *)arg)->aspa++;
}

static void w_all(void *arg)
{
	((struct watch_log *)arg)->all++;
}

static const struct rpki_watch_ops wops = { w_vrp, w_aspa, w_all };

START_TEST(test_txn_errors_and_abort)
{
	int src;
	struct rpki_db *db = new_active(&src);
	struct watch_log w = { 0 };
	struct rpki_txn *txn;
	struct rpki_vrp a = V("192.0.2.0/24", 24, 65001), b = V("198.51.100.0/24", 24, 65001);
	struct rpki_vrp bad;

	rpki_db_watch(db, &wops, &w);
	ck_assert_int_eq(vrp1(db, src, "192.0.2.0/24", 24, 65001, true), 0);
	ck_assert_int_eq(w.vrp, 1);
	ck_assert_str_eq(w.last, "192.0.2.0/24");

	txn = rpki_txn_begin(db, src, false);
	ck_assert_int_eq(rpki_txn_vrp(txn, &a, true), -EEXIST);	 /* held already */
	ck_assert_int_eq(rpki_txn_vrp(txn, &b, false), -ENOENT); /* never held */
	ck_assert_int_eq(rpki_txn_vrp(txn, &b, true), 0);
	ck_assert_int_eq(rpki_txn_vrp(txn, &b, true), -EEXIST); /* twice in one transaction */
	ck_assert_int_eq(rpki_txn_vrp(txn, &a, false), 0);
	ck_assert_int_eq(rpki_txn_vrp(txn, &a, false), -ENOENT); /* withdrawn twice */
	bad = V("192.0.2.0/24", 23, 65001);			 /* max_len < length */
	ck_assert_int_eq(rpki_txn_vrp(txn, &bad, true), -EINVAL);
	bad = V("192.0.2.0/24", 33, 65001);
	ck_assert_int_eq(rpki_txn_vrp(txn, &bad, true), -EINVAL);
	bad = V("2001:db8::/32", 129, 65001);
	ck_assert_int_eq(rpki_txn_vrp(txn, &bad, true), -EINVAL);
	/* nothing visible before commit, nothing at all after abort */
	ck_assert_int_eq(rov(db, "198.51.100.0/24", "65001"), RPKI_NOTFOUND);
	ck_assert_int_eq(rov(db, "192.0.2.0/24", "65001"), RPKI_VALID);
	rpki_txn_abort(txn);
	ck_assert_int_eq(rov(db, "198.51.100.0/24", "65001"), RPKI_NOTFOUND);
	ck_assert_int_eq(rov(db, "192.0.2.0/24", "65001"), RPKI_VALID);
	ck_assert_uint_eq(rpki_source_vrp_count(db, src, AF_INET), 1);
	ck_assert_int_eq(w.vrp, 1);

	/* the same, committed: the watcher hears of both prefixes, after the commit */
	txn = rpki_txn_begin(db, src, false);
	ck_assert_int_eq(rpki_txn_vrp(txn, &b, true), 0);
	ck_assert_int_eq(rpki_txn_vrp(txn, &a, false), 0);
	ck_assert_int_eq(w.vrp, 1);
	ck_assert_uint_eq(rpki_txn_commit(txn), 2);
	ck_assert_int_eq(w.vrp, 3);
	ck_assert_int_eq(rov(db, "192.0.2.0/24", "65001"), RPKI_NOTFOUND);
	ck_assert_int_eq(rov(db, "198.51.100.0/24", "65001"), RPKI_VALID);

	/* announced then withdrawn in one transaction: nothing changes, nobody is told */
	txn = rpki_txn_begin(db, src, false);
	ck_assert_int_eq(rpki_txn_vrp(txn, &a, true), 0);
	ck_assert_int_eq(rpki_txn_vrp(txn, &a, false), 0);
	ck_assert_uint_eq(rpki_txn_commit(txn), 0);
	ck_assert_int_eq(w.vrp, 3);
	ck_assert_int_eq(w.all + w.aspa, 0);

	/* host bits in a VRP prefix are masked, not a different VRP */
	txn = rpki_txn_begin(db, src, false);
	bad = V("198.51.100.77/24", 24, 65001);
	ck_assert_int_eq(rpki_txn_vrp(txn, &bad, true), -EEXIST);
	rpki_txn_abort(txn);
	ck_assert_ptr_null(rpki_txn_begin(db, 5, false)); /* no such source */
	rpki_db_free(db);
}
END_TEST

static void announce(struct rpki_txn *txn, const char *pfx, unsigned max_len, uint32_t asn)
{
	struct rpki_vrp v = V(pfx, max_len, asn);

	ck_assert_int_eq(rpki_txn_vrp(txn, &v, true), 0);
}

START_TEST(test_reset_diff)
{
	int src;
	struct rpki_db *db = new_active(&src);
	struct watch_log w = { 0 };
	struct rpki_txn *txn;

	txn = rpki_txn_begin(db, src, true);
	announce(txn, "192.0.2.0/24", 24, 65001);
	announce(txn, "198.51.100.0/24", 24, 65002);
	announce(txn, "203.0.113.0/24", 24, 65003);
	ck_assert_uint_eq(rpki_txn_commit(txn), 3);
	rpki_db_watch(db, &wops, &w);

	/* the same set again: no change, no call */
	txn = rpki_txn_begin(db, src, true);
	announce(txn, "203.0.113.0/24", 24, 65003);
	announce(txn, "192.0.2.0/24", 24, 65001);
	announce(txn, "198.51.100.0/24", 24, 65002);
	ck_assert_uint_eq(rpki_txn_commit(txn), 0);
	ck_assert_int_eq(w.vrp, 0);

	/* one kept, one gone, one with another AS (a change of the same prefix), one new */
	txn = rpki_txn_begin(db, src, true);
	announce(txn, "192.0.2.0/24", 24, 65001);
	announce(txn, "203.0.113.0/24", 24, 65009);
	announce(txn, "2001:db8::/32", 48, 65001);
	/* a reset starts from nothing: withdrawing what the source held is an error */
	struct rpki_vrp held = V("198.51.100.0/24", 24, 65002);

	ck_assert_int_eq(rpki_txn_vrp(txn, &held, false), -ENOENT);
	ck_assert_uint_eq(rpki_txn_commit(txn), 4); /* -198.51.100, -203/65003, +203/65009, +v6 */
	ck_assert_int_eq(w.vrp, 3);		    /* one call per prefix, in prefix order */
	ck_assert_str_eq(w.seen[0], "198.51.100.0/24");
	ck_assert_str_eq(w.seen[1], "203.0.113.0/24");
	ck_assert_str_eq(w.seen[2], "2001:db8::/32");
	ck_assert_int_eq(rov(db, "198.51.100.0/24", "65002"), RPKI_NOTFOUND);
	ck_assert_int_eq(rov(db, "203.0.113.0/24", "65003"), RPKI_INVALID);
	ck_assert_uint_eq(rpki_source_vrp_count(db, src, AF_UNSPEC), 3);

	/* an empty reset empties the source */
	txn = rpki_txn_begin(db, src, true);
	ck_assert_uint_eq(rpki_txn_commit(txn), 3);
	ck_assert_uint_eq(rpki_vrp_count(db, AF_UNSPEC), 0);
	rpki_db_free(db);
}
END_TEST

START_TEST(test_sources_union_and_drop)
{
	struct rpki_db *db = rpki_db_new();
	struct watch_log w = { 0 };
	int a = rpki_source_add(db, "a"), b = rpki_source_add(db, "b");
	struct rpki_txn *txn;

	rpki_db_set_active(db, true);
	ck_assert_int_eq(a, 0);
	ck_assert_int_eq(b, 1);
	ck_assert_int_eq(vrp1(db, a, "192.0.2.0/24", 24, 65001, true), 0);
	rpki_db_watch(db, &wops, &w);
	/* b announces the same VRP: one record, no visible change */
	ck_assert_int_eq(vrp1(db, b, "192.0.2.0/24", 24, 65001, true), 0);
	ck_assert_int_eq(w.vrp, 0);
	ck_assert_uint_eq(rpki_vrp_count(db, AF_INET), 1);
	ck_assert_uint_eq(rpki_source_vrp_count(db, a, AF_INET), 1);
	ck_assert_uint_eq(rpki_source_vrp_count(db, b, AF_INET), 1);
	/* a source withdraws only its own: b cannot withdraw what only a holds */
	ck_assert_int_eq(vrp1(db, a, "198.51.100.0/24", 24, 65001, true), 0);
	ck_assert_int_eq(vrp1(db, b, "198.51.100.0/24", 24, 65001, false), -ENOENT);
	ck_assert_int_eq(w.vrp, 1);

	/* dropping a: the shared VRP stays (b), a's own goes and is told */
	w.vrp = 0;
	rpki_source_drop(db, a);
	ck_assert_int_eq(w.vrp, 1);
	ck_assert_str_eq(w.last, "198.51.100.0/24");
	ck_assert_int_eq(rov(db, "192.0.2.0/24", "65001"), RPKI_VALID);
	ck_assert_int_eq(rov(db, "198.51.100.0/24", "65001"), RPKI_NOTFOUND);
	ck_assert_ptr_null(rpki_txn_begin(db, a, false)); /* its id is free */
	ck_assert_uint_eq(rpki_source_vrp_count(db, a, AF_INET), 0);

	/* clearing b keeps its id, empties it */
	rpki_source_clear(db, b);
	ck_assert_int_eq(w.vrp, 2);
	ck_assert_int_eq(rov(db, "192.0.2.0/24", "65001"), RPKI_NOTFOUND);
	txn = rpki_txn_begin(db, b, true);
	ck_assert_ptr_nonnull(txn);
	rpki_txn_abort(txn);
	ck_assert_int_eq(rpki_source_add(db, "c"), 0); /* the freed id is given again */

	/* a transaction open while its source is cleared applies nothing */
	txn = rpki_txn_begin(db, b, false);
	announce(txn, "198.51.100.0/24", 24, 65001);
	rpki_source_clear(db, b);
	ck_assert_uint_eq(rpki_txn_commit(txn), 0);
	ck_assert_int_eq(rov(db, "198.51.100.0/24", "65001"), RPKI_NOTFOUND);

	for (int i = 2; i < RPKI_SOURCE_MAX; i++)
		ck_assert_int_eq(rpki_source_add(db, "more"), i);
	ck_assert_int_eq(rpki_source_add(db, "too many"), -ENOSPC);
	rpki_db_free(db);
}
END_TEST

START_TEST(test_watcher_threshold)
{
	int src;
	struct rpki_db *db = new_active(&src);
	struct watch_log w = { 0 };
	struct rpki_txn *txn;
	char buf[64];

	rpki_db_watch(db, &wops, &w);
	/* exactly the threshold: one call per prefix (several VRPs on a prefix: one call) */
	txn = rpki_txn_begin(db, src, false);
	for (int i = 0; i < RPKI_CHANGE_FULL_WALK; i++) {
		snprintf(buf, sizeof(buf), "10.%d.%d.0/24", i / 256, i % 256);
		announce(txn, buf, 24, 65001);
		announce(txn, buf, 24, 65002);
	}
	ck_assert_uint_eq(rpki_txn_commit(txn), 2 * RPKI_CHANGE_FULL_WALK);
	ck_assert_int_eq(w.vrp, RPKI_CHANGE_FULL_WALK);
	ck_assert_int_eq(w.all, 0);

	/* one more than the threshold: one full walk instead */
	w.vrp = 0;
	txn = rpki_txn_begin(db, src, true);
	for (int i = 0; i <= RPKI_CHANGE_FULL_WALK; i++) {
		snprintf(buf, sizeof(buf), "11.%d.%d.0/24", i / 256, i % 256);
		announce(txn, buf, 24, 65001);
	}
	rpki_txn_commit(txn);
	ck_assert_int_eq(w.vrp, 0);
	ck_assert_int_eq(w.all, 1);
	ck_assert_int_eq(rov(db, "11.16.0.0/24", "65001"), RPKI_VALID);
	ck_assert_int_eq(rov(db, "10.0.0.0/24", "65001"), RPKI_NOTFOUND);

	/* in use / not in use: every route changes */
	rpki_db_set_active(db, false);
	rpki_db_set_active(db, false);
	ck_assert_int_eq(w.all, 2);
	rpki_db_set_active(db, true);
	ck_assert_int_eq(w.all, 3);

	/* many VRPs on few prefixes: the prefixes are counted, not the VRPs */
	w.vrp = w.all = 0;
	txn = rpki_txn_begin(db, src, false);
	for (int i = 0; i < 100; i++)
		for (int k = 0; k < 100; k++) {
			snprintf(buf, sizeof(buf), "12.0.%d.0/24", i);
			announce(txn, buf, 24, 64000 + (uint32_t)k);
		}
	ck_assert_uint_eq(rpki_txn_commit(txn), 10000);
	ck_assert_int_eq(w.vrp, 100);
	ck_assert_int_eq(w.all, 0);
	w.vrp = 0;

	/* no watcher: nothing called */
	rpki_db_watch(db, NULL, NULL);
	ck_assert_int_eq(vrp1(db, src, "192.0.2.0/24", 24, 1, true), 0);
	ck_assert_int_eq(w.vrp, 0);
	rpki_db_free(db);
}
END_TEST

/* ---- walks ---- */

struct walk_out {
	char s[16][64];
	int n, stop;
};

static int walk_cb(const struct rpki_vrp *v, void *arg)
{
	struct walk_out *o = arg;
	char p[48];

	prefix_to_str(&v->prefix, p, sizeof(p));
	snprintf(o->s[o->n], sizeof(o->s[0]), "%s-%u %u", p, v->max_len, v->asn);
	o->n++;
	return o->n == o->stop ? 42 : 0;
}

START_TEST(test_walks)
{
	struct rpki_db *db = rpki_db_new();
	int a = rpki_source_add(db, "a"), b = rpki_source_add(db, "b");
	struct walk_out o = { 0 };
	struct prefix p;

	ck_assert_int_eq(vrp1(db, a, "2001:db8::/32", 32, 65001, true), 0);
	ck_assert_int_eq(vrp1(db, a, "192.0.2.0/24", 24, 65002, true), 0);
	ck_assert_int_eq(vrp1(db, a, "192.0.2.0/24", 24, 65001, true), 0);
	ck_assert_int_eq(vrp1(db, b, "192.0.2.0/24", 24, 65001, true), 0); /* shared: once */
	ck_assert_int_eq(vrp1(db, a, "192.0.2.0/24", 23 + 2, 65000, true), 0);
	ck_assert_int_eq(vrp1(db, a, "192.0.0.0/16", 24, 65009, true), 0);
	ck_assert_int_eq(vrp1(db, b, "10.0.0.0/8", 8, 65009, true), 0);
	ck_assert_int_eq(rpki_vrp_walk(db, AF_UNSPEC, walk_cb, &o), 0);
	ck_assert_int_eq(o.n, 6);
	ck_assert_str_eq(o.s[0], "10.0.0.0/8-8 65009");
	ck_assert_str_eq(o.s[1], "192.0.0.0/16-24 65009");
	ck_assert_str_eq(o.s[2], "192.0.2.0/24-24 65001");
	ck_assert_str_eq(o.s[3], "192.0.2.0/24-24 65002");
	ck_assert_str_eq(o.s[4], "192.0.2.0/24-25 65000");
	ck_assert_str_eq(o.s[5], "2001:db8::/32-32 65001");

	o.n = 0;
	ck_assert_int_eq(rpki_vrp_walk(db, AF_INET6, walk_cb, &o), 0);
	ck_assert_int_eq(o.n, 1);
	o.n = 0;
	o.stop = 2;
	ck_assert_int_eq(rpki_vrp_walk(db, AF_UNSPEC, walk_cb, &o), 42);
	ck_assert_int_eq(o.n, 2);

	/* covering: shortest first, only those containing the prefix */
	o.n = 0;
	o.stop = 0;
	p = P("192.0.2.128/25");
	ck_assert_int_eq(rpki_vrp_walk_covering(db, &p, walk_cb, &o), 0);
	ck_assert_int_eq(o.n, 4);
	ck_assert_str_eq(o.s[0], "192.0.0.0/16-24 65009");
	ck_assert_str_eq(o.s[3], "192.0.2.0/24-25 65000");
	o.n = 0;
	p = P("192.0.3.0/24");
	ck_assert_int_eq(rpki_vrp_walk_covering(db, &p, walk_cb, &o), 0);
	ck_assert_int_eq(o.n, 1);
	rpki_db_free(db);
}
END_TEST

/* ---- ASPA ---- */

static void aspa1(struct rpki_db *db, int src, uint32_t customer, const uint32_t *prov, size_t n)
{
	struct rpki_txn *txn = rpki_txn_begin(db, src, false);

	ck_assert_int_eq(rpki_txn_aspa(txn, customer, prov, n, true), 0);
	rpki_txn_commit(txn);
}

static enum aspa_state verify(struct rpki_db *db, const char *path, uint32_t neighbor,
			      enum aspa_dir dir)
{
	struct bgp_aspath *a = bgp_aspath_from_str(path);
	enum aspa_state s;

	ck_assert_msg(a != NULL, "cannot parse path %s", path);
	s = rpki_aspa_verify(db, a, neighbor, dir);
	bgp_aspath_unref(a);
	return s;
}

#define UP ASPA_DIR_UPSTREAM
#define DOWN ASPA_DIR_DOWNSTREAM

/*
 * The topology of the tests, provider above customer:
 *
 *          10 ------- 40            10 attests no provider (AS 0), 40 attests 10
 *         /  \         \
 *       20    30        (us, when 40 is our provider)
 *         \  /
 *           1                       1 attests 20 and 30; 20 and 30 attest 10
 *
 * 97, 98, 99 have no ASPA. A route's path is written as BGP carries it: the neighbor first.
 */
static struct rpki_db *aspa_topology(int *src)
{
	struct rpki_db *db = new_active(src);
	static const uint32_t p1[] = { 30, 20 }, p20[] = { 10 }, p30[] = { 10 }, p10[] = { 0 };
	static const uint32_t p40[] = { 10 };

	aspa1(db, *src, 1, p1, 2);
	aspa1(db, *src, 20, p20, 1);
	aspa1(db, *src, 30, p30, 1);
	aspa1(db, *src, 10, p10, 1);
	aspa1(db, *src, 40, p40, 1);
	return db;
}

START_TEST(test_aspa_upstream)
{
	int src;
	struct rpki_db *db = aspa_topology(&src);

	/* from a customer: every hop goes up */
	ck_assert_int_eq(verify(db, "20 1", 20, UP), ASPA_VALID);
	ck_assert_int_eq(verify(db, "10 20 1", 10, UP), ASPA_VALID);
	ck_assert_int_eq(verify(db, "20 20 20 1 1", 20, UP), ASPA_VALID); /* prepends: one hop */
	ck_assert_int_eq(verify(db, "1", 1, UP), ASPA_VALID);		  /* length 1 */
	ck_assert_int_eq(verify(db, "99", 99, UP), ASPA_VALID);
	/* 20 passed its provider's route to 30: 30 is not 20's provider */
	ck_assert_int_eq(verify(db, "30 20 1", 30, UP), ASPA_INVALID);
	ck_assert_int_eq(verify(db, "40 10 20 1", 40, UP), ASPA_INVALID); /* 10 has no provider */
	/* no attestation for a hop: unknown; but a hop proven wrong anywhere wins */
	ck_assert_int_eq(verify(db, "98 99", 98, UP), ASPA_UNKNOWN);
	ck_assert_int_eq(verify(db, "20 1 99", 20, UP), ASPA_UNKNOWN);
	ck_assert_int_eq(verify(db, "99 30 20 1", 99, UP), ASPA_INVALID);
	/* AS_SET anywhere, the empty path, a neighbor that is not the first AS */
	ck_assert_int_eq(verify(db, "20 {1}", 20, UP), ASPA_INVALID);
	ck_assert_int_eq(verify(db, "{20,30} 1", 20, UP), ASPA_INVALID);
	ck_assert_int_eq(verify(db, "", 20, UP), ASPA_INVALID);
	ck_assert_int_eq(verify(db, "20 1", 30, UP), ASPA_INVALID);
	ck_assert_int_eq(verify(db, "20 1", 0, UP), ASPA_VALID); /* not checked (route server) */
	/* our confederation's segments are not hops */
	ck_assert_int_eq(verify(db, "(65001 65002) 20 1", 20, UP), ASPA_VALID);
	/* no procedure, or not in use */
	ck_assert_int_eq(verify(db, "30 20 1", 30, ASPA_DIR_NONE), ASPA_NOT_USED);
	rpki_db_set_active(db, false);
	ck_assert_int_eq(verify(db, "30 20 1", 30, UP), ASPA_NOT_USED);
	rpki_db_free(db);
}
END_TEST

START_TEST(test_aspa_downstream)
{
	int src;
	struct rpki_db *db = aspa_topology(&src);

	/* from our provider 40: up from the origin to the top, then down to us */
	ck_assert_int_eq(verify(db, "40 10 20 1", 40, DOWN), ASPA_VALID);
	ck_assert_int_eq(verify(db, "40 40 10 10 20 1 1", 40, DOWN), ASPA_VALID);
	ck_assert_int_eq(verify(db, "40 10", 40, DOWN), ASPA_VALID);
	/* length 1 and 2 are always valid downstream: no valley fits in them */
	ck_assert_int_eq(verify(db, "40 1", 40, DOWN), ASPA_VALID);
	ck_assert_int_eq(verify(db, "40", 40, DOWN), ASPA_VALID);
	/* a valley: 1 -> 30 -> 20 (30 is not 20's customer) -> 10 -> 40 */
	ck_assert_int_eq(verify(db, "40 10 20 30 1", 40, DOWN), ASPA_INVALID);
	/* the same route from a customer is invalid too, from the first hop */
	ck_assert_int_eq(verify(db, "40 10 20 1", 40, UP), ASPA_INVALID);
	/* unattested hops at the bottom: up-ramp unproven, unknown */
	ck_assert_int_eq(verify(db, "40 10 97 98", 40, DOWN), ASPA_UNKNOWN);
	/* one peak, lateral hop at the top (20 and 30 as peers would be): 1 -> 20 then 30 down to
	 * 99? 99 has no ASPA, so the down side is unproven: unknown, not invalid */
	ck_assert_int_eq(verify(db, "99 30 20 1", 99, DOWN), ASPA_UNKNOWN);
	/* two proven valleys can't be one up-ramp plus one down-ramp */
	ck_assert_int_eq(verify(db, "40 10 30 1 20 10 40", 40, DOWN), ASPA_INVALID);
	ck_assert_int_eq(verify(db, "40 {10} 1", 40, DOWN), ASPA_INVALID);
	ck_assert_int_eq(verify(db, "10 20 1", 40, DOWN), ASPA_INVALID); /* not the neighbor */
	rpki_db_free(db);
}
END_TEST

/*
 * Cases on fresh stores, in the notation of draft-ietf-sidrops-aspa-verification (-17,
 * sections 6.1 and 6.2: hop(), the up-ramp and down-ramp), as an independent implementation
 * (APNIC's Rust demo of that draft) tests them. AS n here is 64500 + n; a record lists the
 * customer then its providers (0: "no providers"); a path is written neighbor first.
 */
struct aspa_case {
	const char *name;
	uint32_t rec[5][4]; /* customer, providers..., 0-terminated; empty rows end */
	const char *path;
	enum aspa_dir dir;
	enum aspa_state want;
};

static const struct aspa_case aspa_cases[] = {
	{ "up: one AS", { { 0 } }, "1", UP, ASPA_VALID },
	{ "up: no records", { { 0 } }, "3 2 1", UP, ASPA_UNKNOWN },
	{ "up: AS_SET", { { 0 } }, "1 {2}", UP, ASPA_INVALID },
	{ "up: every hop up", { { 1, 2 }, { 2, 3 } }, "3 2 1", UP, ASPA_VALID },
	{ "up: 2 -> 3 not up", { { 1, 3 }, { 2, 3 } }, "3 2 1", UP, ASPA_INVALID },
	{ "up: AS 0, no provider", { { 1, 0 } }, "2 1", UP, ASPA_INVALID },
	{ "down: one AS", { { 0 } }, "1", DOWN, ASPA_VALID },
	{ "down: two ASes", { { 0 } }, "2 1", DOWN, ASPA_VALID },
	{ "down: no records", { { 0 } }, "3 2 1", DOWN, ASPA_UNKNOWN },
	{ "down: AS_SET", { { 0 } }, "1 {2}", DOWN, ASPA_INVALID },
	{ "down: origin attests 2", { { 1, 2 } }, "3 2 1", DOWN, ASPA_VALID },
	{ "down: neighbor attests 2", { { 3, 2 } }, "3 2 1", DOWN, ASPA_VALID },
	{ "down: both attest 2", { { 1, 2 }, { 3, 2 } }, "3 2 1", DOWN, ASPA_VALID },
	{ "down: all attest", { { 1, 2 }, { 2, 0 }, { 3, 2 } }, "3 2 1", DOWN, ASPA_VALID },
	{ "down: 1 -> 2 lateral", { { 1, 4 }, { 3, 2 } }, "3 2 1", DOWN, ASPA_VALID },
	{ "down: 3 unattested", { { 1, 4 } }, "3 2 1", DOWN, ASPA_UNKNOWN },
	{ "down: valley", { { 1, 4 }, { 3, 5 } }, "3 2 1", DOWN, ASPA_INVALID },
	{ "down: two apexes",
	  { { 1, 2 }, { 2, 0 }, { 3, 2, 4 }, { 4, 0 } },
	  "4 3 2 1",
	  DOWN,
	  ASPA_INVALID },
};

static const char *path_of(const char *in, char *out, size_t size)
{
	size_t o = 0;

	/* each number n becomes 64500 + n; the rest is copied */
	while (*in && o + 8 < size) {
		if (*in >= '0' && *in <= '9') {
			unsigned long n = strtoul(in, (char **)&in, 10);

			o += (size_t)snprintf(out + o, size - o, "%lu", 64500 + n);
		} else {
			out[o++] = *in++;
		}
	}
	out[o] = '\0';
	return out;
}

START_TEST(test_aspa_draft_cases)
{
	for (size_t i = 0; i < sizeof(aspa_cases) / sizeof(aspa_cases[0]); i++) {
		const struct aspa_case *t = &aspa_cases[i];
		int s;
		struct rpki_db *db = new_active(&s);
		char path[128];

		for (int r = 0; r < 5 && t->rec[r][0]; r++) {
			uint32_t prov[3];
			size_t n = 0;

			for (int k = 1; k < 4 && (k == 1 || t->rec[r][k]); k++)
				prov[n++] = t->rec[r][k] ? 64500 + t->rec[r][k] : 0;
			aspa1(db, s, 64500 + t->rec[r][0], prov, n);
		}
		ck_assert_msg(verify(db, path_of(t->path, path, sizeof(path)), 0, t->dir) ==
				      t->want,
			      "%s: %s gave %s", t->name, path,
			      aspa_state_name(verify(db, path, 0, t->dir)));
		rpki_db_free(db);
	}
}
END_TEST

struct aspa_out {
	uint32_t customer[8];
	uint32_t prov[8][4];
	size_t n[8];
	int count;
};

static int aspa_walk_cb(uint32_t customer, const uint32_t *providers, size_t n, void *arg)
{
	struct aspa_out *o = arg;

	o->customer[o->count] = customer;
	o->n[o->count] = n;
	for (size_t i = 0; i < n && i < 4; i++)
		o->prov[o->count][i] = providers[i];
	o->count++;
	return 0;
}

START_TEST(test_aspa_sources_and_txn)
{
	struct rpki_db *db = rpki_db_new();
	struct watch_log w = { 0 };
	int a = rpki_source_add(db, "a"), b = rpki_source_add(db, "b");
	static const uint32_t pa[] = { 40, 10, 10 }, pb[] = { 30 }, self[] = { 30, 20 };
	struct aspa_out o = { 0 };
	struct rpki_txn *txn;

	rpki_db_set_active(db, true);
	rpki_db_watch(db, &wops, &w);
	aspa1(db, a, 20, pa, 3); /* unsorted with a duplicate: stored as {10, 40} */
	ck_assert_int_eq(w.aspa, 1);
	ck_assert_int_eq(verify(db, "30 20 1", 30, UP), ASPA_INVALID);
	aspa1(db, b, 20, pb, 1); /* the union: {10, 30, 40} */
	ck_assert_int_eq(w.aspa, 2);
	ck_assert_int_eq(verify(db, "30 20", 30, UP), ASPA_VALID);
	ck_assert_int_eq(verify(db, "40 20", 40, UP), ASPA_VALID);
	ck_assert_int_eq(rpki_aspa_walk(db, aspa_walk_cb, &o), 0);
	ck_assert_int_eq(o.count, 1);
	ck_assert_uint_eq(o.n[0], 3);
	ck_assert_uint_eq(o.prov[0][0], 10);
	ck_assert_uint_eq(o.prov[0][1], 30);
	ck_assert_uint_eq(o.prov[0][2], 40);
	ck_assert_uint_eq(rpki_aspa_count(db), 1);
	ck_assert_uint_eq(rpki_source_aspa_count(db, a), 1);

	/* errors: a duplicate in one transaction, a withdrawal of nothing, malformed */
	txn = rpki_txn_begin(db, b, false);
	ck_assert_int_eq(rpki_txn_aspa(txn, 20, pb, 1, true), 0); /* a replacement is fine */
	ck_assert_int_eq(rpki_txn_aspa(txn, 20, pb, 1, true), -EEXIST);
	ck_assert_int_eq(rpki_txn_aspa(txn, 21, NULL, 0, false), -ENOENT);
	ck_assert_int_eq(rpki_txn_aspa(txn, 30, self, 2, true), -EINVAL); /* its own provider */
	ck_assert_int_eq(rpki_txn_aspa(txn, 0, pb, 1, true), -EINVAL);
	ck_assert_uint_eq(rpki_txn_commit(txn), 0); /* the same record again: no change */
	ck_assert_int_eq(w.aspa, 2);

	/* b's record replaced by one that leaves the union as it was: nobody is told */
	static const uint32_t pb2[] = { 40, 30 };

	txn = rpki_txn_begin(db, b, false);
	ck_assert_int_eq(rpki_txn_aspa(txn, 20, pb2, 2, true), 0);
	ck_assert_uint_eq(rpki_txn_commit(txn), 1);
	ck_assert_int_eq(w.aspa, 2);
	ck_assert_int_eq(verify(db, "30 20", 30, UP), ASPA_VALID);
	/* b dropped: a's set is what remains */
	rpki_source_drop(db, b);
	ck_assert_int_eq(w.aspa, 3);
	ck_assert_int_eq(verify(db, "30 20", 30, UP), ASPA_INVALID);
	/* a reset without the record withdraws it; a record with no providers is a record */
	txn = rpki_txn_begin(db, a, true);
	ck_assert_int_eq(rpki_txn_aspa(txn, 30, pb, 0, true), 0);
	ck_assert_uint_eq(rpki_txn_commit(txn), 2);
	ck_assert_int_eq(w.aspa, 4); /* one call per commit */
	ck_assert_int_eq(verify(db, "40 20", 40, UP), ASPA_UNKNOWN);
	ck_assert_int_eq(verify(db, "10 30", 10, UP), ASPA_INVALID);
	rpki_source_clear(db, a);
	ck_assert_int_eq(w.aspa, 5);
	ck_assert_uint_eq(rpki_aspa_count(db), 0);
	rpki_db_free(db);
}
END_TEST

/* ---- memory ---- */

START_TEST(test_memory)
{
	int src;
	struct rpki_db *db = new_active(&src);
	struct rpki_txn *txn = rpki_txn_begin(db, src, true);
	size_t empty = rpki_db_memory(db), full, n = 20000;
	char buf[64];

	for (size_t i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "%zu.%zu.%zu.0/24", 1 + i / 65536, (i / 256) % 256,
			 i % 256);
		announce(txn, buf, 24, 65000 + (uint32_t)(i % 7));
	}
	rpki_txn_commit(txn);
	full = rpki_db_memory(db);
	ck_assert_uint_gt(full, empty);
	ck_assert_uint_gt(MTYPE_RPKI_VRP->bytes, 0);
	fprintf(stderr, "check_rpki_db: %zu VRPs in %zu bytes: %.1f bytes per VRP\n", n,
		full - empty, (double)(full - empty) / (double)n);
	ck_assert_uint_le(full - empty, n * 96);
	/* withdrawn again: the records go back */
	txn = rpki_txn_begin(db, src, true);
	rpki_txn_commit(txn);
	ck_assert_uint_eq(MTYPE_RPKI_VRP->allocated, 0);
	ck_assert_uint_le(rpki_db_memory(db), empty + 16384);
	rpki_db_free(db);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rpki_db");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_rov_maxlen_and_origin);
	tcase_add_test(tc, test_rov_as0_overlap_ipv6);
	tcase_add_test(tc, test_txn_errors_and_abort);
	tcase_add_test(tc, test_reset_diff);
	tcase_add_test(tc, test_sources_union_and_drop);
	tcase_add_test(tc, test_watcher_threshold);
	tcase_add_test(tc, test_walks);
	tcase_add_test(tc, test_aspa_upstream);
	tcase_add_test(tc, test_aspa_downstream);
	tcase_add_test(tc, test_aspa_draft_cases);
	tcase_add_test(tc, test_aspa_sources_and_txn);
	tcase_add_test(tc, test_memory);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
