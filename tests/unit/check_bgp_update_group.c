/* SPDX-License-Identifier: ISC */
/*
 * Update groups (bgpd/rib/bgp_update_group.c, the sharing in bgp_adj_out.c): collectors with
 * the same output are served from one decision and one encoding per batch, and get exactly
 * what they would get alone: the whole table, nothing sent back to its source, withdrawals
 * only where they had the prefix. A collector with another policy gets its own output; one
 * that is blocked, refreshes or leaves neither stalls nor disturbs the others.
 */
#include "lib/compat.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bgpd/rib/bgp_adj_out.h"
#include "bgpd/rib/bgp_rib.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "bgpd/rib/bgp_update_group.h"
#include "bgpd/wire/bgp_codec.h"
#include "lib/plist.h"
#include "lib/table.h"
#include "tests/unit/rib_test.h"

#define V4 BGP_AF_IPV4_UNICAST
#define RUN_ALL 1000000
#define NCOL 4
#define NPFX 10000

static struct bgp *bgp;
static struct fake_peer *feeder, *col[NCOL];
static struct prefix pfx[NPFX];

/* Collectors on one LAN with the DUT at 10.0.9.1: same next hop self, same output. */
static struct fake_peer *collector(int i)
{
	char addr[32];

	snprintf(addr, sizeof(addr), "10.0.9.%d", i + 10);
	return fake_peer_new(bgp, addr, 65100 + (uint32_t)i, "10.0.9.1", "9.9.9.9");
}

static void setup(void)
{
	bgp = fake_bgp_new(65001, "10.0.0.1");
	feeder = fake_peer_new(bgp, "10.0.0.2", 65002, "10.0.0.1", "2.2.2.2");
	fake_peer_up(feeder);
	for (int i = 0; i < NCOL; i++) {
		col[i] = collector(i);
		fake_peer_up(col[i]);
	}
	fake_run(bgp, RUN_ALL);
	tpfx_range(pfx, NPFX, "20.0.0.0/24", 24);
}

static void teardown(void)
{
	for (int i = 0; i < NCOL; i++) {
		free(col[i]->peer.conf.plist[V4][BGP_DIR_OUT]);
		col[i]->peer.conf.plist[V4][BGP_DIR_OUT] = NULL;
	}
	prefix_list_reset();
	fake_peer_free(feeder);
	for (int i = 0; i < NCOL; i++)
		if (col[i])
			fake_peer_free(col[i]);
	fake_bgp_free(bgp);
	ck_assert_uint_eq(rib_mem_allocs(), 0);
	ck_assert_uint_eq(bgp_attr_count(), 0);
}

static void feed(struct fake_peer *from, const struct prefix *p, size_t n, const char *path)
{
	struct bgp_attr t;

	tmpl_init(&t, path, "10.0.0.2", BGP_ORIGIN_IGP);
	fake_announce(from, V4, &t, p, n);
	tmpl_release(&t);
}

/* fp holds exactly the n prefixes from p, each with the same set as col[0] holds, its
 * counters agree and it was never sent a withdrawal for something it did not have. */
static void holds_table(struct fake_peer *fp, const struct prefix *p, size_t n)
{
	char buf[PREFIX_STRLEN];

	ck_assert_uint_eq(fake_adj_count(fp, V4), n);
	for (size_t i = 0; i < n; i += 97) {
		const struct bgp_attr *a = fake_adj(fp, prefix_to_str(&p[i], buf, sizeof(buf)));

		ck_assert_ptr_nonnull(a);
		ck_assert_ptr_eq(a, fake_adj(col[0], buf));
	}
	ck_assert_uint_eq(rib_peer_sent(&fp->peer, V4), n);
	ck_assert_uint_eq(fp->spurious_withdraw, 0);
	ck_assert_uint_eq(fp->decode_errors, 0);
}

START_TEST(test_same_output_rules)
{
	struct rib_src *a = col[0]->peer.rib->cur, *b = col[1]->peer.rib->cur;

	ck_assert(update_group_same_output(a, b, V4));
	ck_assert(!update_group_same_output(a, a, V4));
	/* The feeder has another local address: another next hop self. */
	ck_assert(!update_group_same_output(a, feeder->peer.rib->cur, V4));
	col[1]->peer.conf.local_as = 64999;
	ck_assert(!update_group_same_output(a, b, V4));
	col[1]->peer.conf.local_as = 0;
	col[1]->peer.conf.send_comm_off[V4] = BGP_SEND_COMM_ALL;
	ck_assert(!update_group_same_output(a, b, V4));
	col[1]->peer.conf.send_comm_off[V4] = 0;
	col[1]->peer.conf.adv_interval = 5;
	ck_assert(!update_group_same_output(a, b, V4));
	col[1]->peer.conf.adv_interval = 0;
	b->max_msg = 65535;
	ck_assert(!update_group_same_output(a, b, V4));
	b->max_msg = a->max_msg;
	ck_assert(update_group_same_output(b, a, V4));
}
END_TEST

START_TEST(test_fanout_shared)
{
	feed(feeder, pfx, NPFX, "65002 65200");
	fake_run(bgp, RUN_ALL);
	/* Batches were shared, and everyone got the same, whole table, in the same bytes. */
	ck_assert_uint_gt(bgp->rib->out_shared, 0);
	for (int i = 0; i < NCOL; i++) {
		holds_table(col[i], pfx, NPFX);
		ck_assert_uint_eq(col[i]->bytes, col[0]->bytes);
		ck_assert_uint_eq(col[i]->msgs, col[0]->msgs);
	}
	ck_assert_uint_eq(fake_adj_count(feeder, V4), 0);

	fake_withdraw(feeder, V4, pfx, NPFX / 2);
	fake_run(bgp, RUN_ALL);
	for (int i = 0; i < NCOL; i++) {
		holds_table(col[i], pfx + NPFX / 2, NPFX / 2);
		ck_assert_uint_eq(col[i]->pfx_withdrawn, NPFX / 2);
	}
	/* The withdrawn prefixes are freed once every collector was told. */
	ck_assert_uint_eq(ptree_count(bgp->rib->af[V4].tree), NPFX / 2);
}
END_TEST

START_TEST(test_mesh_not_sent_back)
{
	/* Every collector announces 1,000 prefixes of its own: each must get the others', never
	 * its own, though the four share batches where they can. */
	for (int i = 0; i < NCOL; i++) {
		char path[32];

		snprintf(path, sizeof(path), "%u", 65100 + i);
		feed(col[i], pfx + i * 1000, 1000, path);
		fake_run(bgp, RUN_ALL);
	}
	feed(feeder, pfx + NCOL * 1000, 3000, "65002");
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_gt(bgp->rib->out_shared, 0);
	for (int i = 0; i < NCOL; i++) {
		char buf[PREFIX_STRLEN];

		ck_assert_uint_eq(fake_adj_count(col[i], V4), (NCOL - 1) * 1000 + 3000);
		for (int k = 0; k < 1000; k += 50)
			ck_assert_ptr_null(fake_adj(
				col[i], prefix_to_str(&pfx[i * 1000 + k], buf, sizeof(buf))));
		ck_assert_ptr_nonnull(fake_adj(
			col[i], prefix_to_str(&pfx[((i + 1) % NCOL) * 1000], buf, sizeof(buf))));
		ck_assert_uint_eq(col[i]->spurious_withdraw, 0);
	}
	/* col[1] withdraws its routes: the others, which had them, are told; col[1], which
	 * never had them, is not (its bit differs from theirs: it cannot follow them there). */
	fake_withdraw(col[1], V4, pfx + 1000, 1000);
	fake_run(bgp, RUN_ALL);
	for (int i = 0; i < NCOL; i++) {
		ck_assert_uint_eq(fake_adj_count(col[i], V4),
				  (NCOL - 2) * 1000 + 3000 + (i == 1 ? 1000 : 0));
		ck_assert_uint_eq(col[i]->spurious_withdraw, 0);
	}
	/* One leaves: its routes are withdrawn from the others, only from them. */
	fake_peer_down(col[0]);
	fake_run(bgp, RUN_ALL);
	for (int i = 1; i < NCOL; i++) {
		size_t n = (NCOL - 3) * 1000 + 3000 + (i == 1 ? 1000 : 0);

		ck_assert_uint_eq(fake_adj_count(col[i], V4), n);
		ck_assert_uint_eq(col[i]->spurious_withdraw, 0);
		ck_assert_uint_eq(rib_peer_sent(&col[i]->peer, V4), n);
	}
}
END_TEST

START_TEST(test_other_policy_own_output)
{
	char buf[PREFIX_STRLEN];
	const struct bgp_attr *a;

	/* col[3] prepends a local-as: its AS paths differ, it cannot share. */
	fake_peer_down(col[3]);
	fake_run(bgp, RUN_ALL);
	fake_peer_clear(col[3]);
	col[3]->peer.conf.local_as = 64999;
	fake_peer_up(col[3]);
	fake_run(bgp, RUN_ALL);
	feed(feeder, pfx, NPFX, "65002 65200");
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_gt(bgp->rib->out_shared, 0);
	for (int i = 0; i < NCOL - 1; i++)
		holds_table(col[i], pfx, NPFX);
	ck_assert_uint_eq(fake_adj_count(col[3], V4), NPFX);
	a = fake_adj(col[3], prefix_to_str(&pfx[0], buf, sizeof(buf)));
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(bgp_aspath_leftmost(a->aspath), 64999);
	ck_assert_uint_eq(bgp_aspath_leftmost(fake_adj(col[0], buf)->aspath), 65001);
}
END_TEST

/* The feeder withdraws the whole table: shared batches carry it (out_shared), and every
 * collector is left with nothing, sent nothing it did not have, the Loc-RIB empty. */
static void withdraw_all_shared(void)
{
	bgp->rib->out_shared = 0;
	fake_withdraw(feeder, V4, pfx, NPFX);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_gt(bgp->rib->out_shared, 0);
	for (int i = 0; i < NCOL; i++) {
		ck_assert_uint_eq(fake_adj_count(col[i], V4), 0);
		ck_assert_uint_eq(rib_peer_sent(&col[i]->peer, V4), 0);
		ck_assert_uint_eq(col[i]->spurious_withdraw, 0);
	}
	ck_assert_uint_eq(ptree_count(bgp->rib->af[V4].tree), 0);
}

START_TEST(test_blocked_member)
{
	unsigned rounds = 0;

	/* col[1] takes 3,000 bytes at a time: the others get the table at once, it follows. */
	col[1]->space = 3000;
	feed(feeder, pfx, NPFX, "65002 65200");
	fake_run(bgp, RUN_ALL);
	for (int i = 0; i < NCOL; i++)
		if (i != 1)
			holds_table(col[i], pfx, NPFX);
	ck_assert_uint_lt(fake_adj_count(col[1], V4), NPFX);
	while (fake_adj_count(col[1], V4) < NPFX) {
		ck_assert_uint_eq(col[1]->sent_at_zero, 0);
		ck_assert_msg(++rounds < 500, "no progress");
		col[1]->space = 3000;
		rib_peer_writable(&col[1]->peer);
		fake_run(bgp, RUN_ALL);
	}
	holds_table(col[1], pfx, NPFX);
	ck_assert_uint_lt(col[1]->overshoot, 4096);

	/* Caught up, it shares again: a withdrawal of everything reaches all four alike. */
	col[1]->space = SIZE_MAX;
	withdraw_all_shared();
	for (int i = 0; i < NCOL; i++)
		ck_assert_uint_eq(col[i]->pfx_withdrawn, NPFX);
}
END_TEST

START_TEST(test_refresh_member)
{
	feed(feeder, pfx, NPFX / 2, "65002 65200");
	fake_run(bgp, RUN_ALL);
	/* col[2] asks for the table again while more comes: it walks alone, the others go on. */
	rib_route_refresh_received(&col[2]->peer, V4);
	feed(feeder, pfx + NPFX / 2, NPFX / 2, "65002 65300");
	fake_run(bgp, RUN_ALL);
	for (int i = 0; i < NCOL; i++)
		holds_table(col[i], pfx, NPFX);
	ck_assert_uint_eq(col[0]->pfx_announced, NPFX);
	/* It was sent the first half again by its walk, the second half once. */
	ck_assert_uint_eq(col[2]->pfx_announced, NPFX + NPFX / 2);
}
END_TEST

/* Outbound prefix list name on a collector (the test owns the string). */
static void out_plist(struct fake_peer *fp, const char *name)
{
	free(fp->peer.conf.plist[V4][BGP_DIR_OUT]);
	fp->peer.conf.plist[V4][BGP_DIR_OUT] = name ? strdup(name) : NULL;
	rib_resend(&fp->peer, V4);
}

START_TEST(test_policy_change_member)
{
	struct prefix_list_entry e = { .seq = 5, .action = PREFIX_PERMIT, .le = 24 };
	/* 20.0.0.0/12 holds the first 16 x 256 prefixes of pfx. */
	const size_t first = 4096;

	e.p = tpfx("20.0.0.0/12");
	prefix_list_entry_set(prefix_list_get(AF_INET, "FIRST"), &e);
	feed(feeder, pfx, NPFX / 2, "65002 65200");
	fake_run(bgp, RUN_ALL);
	/* col[2] now sends only 20.0.0.0/12: it leaves the group, is sent the withdrawals of
	 * what it no longer passes, and gets nothing of the second half. */
	out_plist(col[2], "FIRST");
	ck_assert(!update_group_same_output(col[0]->peer.rib->cur, col[2]->peer.rib->cur, V4));
	bgp->rib->out_shared = 0;
	feed(feeder, pfx + NPFX / 2, NPFX / 2, "65002 65300");
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_gt(bgp->rib->out_shared, 0);
	for (int i = 0; i < NCOL; i++)
		if (i != 2)
			holds_table(col[i], pfx, NPFX);
	ck_assert_uint_eq(fake_adj_count(col[2], V4), first);
	ck_assert_uint_eq(rib_peer_sent(&col[2]->peer, V4), first);
	ck_assert_uint_eq(col[2]->pfx_withdrawn, NPFX / 2 - first);
	ck_assert_uint_eq(col[2]->spurious_withdraw, 0);

	/* The policy goes: it is sent the rest and shares again; a withdrawal of everything
	 * reaches all four, each once per prefix it had. */
	out_plist(col[2], NULL);
	fake_run(bgp, RUN_ALL);
	holds_table(col[2], pfx, NPFX);
	ck_assert(update_group_same_output(col[0]->peer.rib->cur, col[2]->peer.rib->cur, V4));
	withdraw_all_shared();
	ck_assert_uint_eq(col[2]->pfx_withdrawn, NPFX / 2 - first + NPFX);
	ck_assert_uint_eq(col[0]->pfx_withdrawn, NPFX);
}
END_TEST

START_TEST(test_leave_and_rejoin)
{
	feed(feeder, pfx, NPFX / 2, "65002 65200");
	fake_run(bgp, RUN_ALL);
	/* col[1] leaves while the table grows, and comes back: it walks alone, then shares. */
	fake_peer_down(col[1]);
	feed(feeder, pfx + NPFX / 2, NPFX / 4, "65002 65300");
	fake_run(bgp, RUN_ALL);
	fake_peer_clear(col[1]);
	fake_peer_up(col[1]);
	feed(feeder, pfx + NPFX / 2 + NPFX / 4, NPFX / 4, "65002 65400");
	fake_run(bgp, RUN_ALL);
	for (int i = 0; i < NCOL; i++)
		holds_table(col[i], pfx, NPFX);
	withdraw_all_shared();
}
END_TEST

START_TEST(test_members_bits_differ)
{
	char buf[PREFIX_STRLEN];

	/* col[1]'s routes go to the three others, not to col[1]: their bits differ from its. */
	feed(col[1], pfx, 1000, "65101 65300 65301");
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(col[1], V4), 0);
	/* The feeder's shorter path wins: all four are sent it, col[1] for the first time, the
	 * others as a replacement (a batch shared though one member's bits differ). */
	bgp->rib->out_shared = 0;
	feed(feeder, pfx, 1000, "65002");
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_gt(bgp->rib->out_shared, 0);
	for (int i = 0; i < NCOL; i++) {
		const struct bgp_attr *a =
			fake_adj(col[i], prefix_to_str(&pfx[7], buf, sizeof(buf)));

		ck_assert_uint_eq(fake_adj_count(col[i], V4), 1000);
		ck_assert_uint_eq(rib_peer_sent(&col[i]->peer, V4), 1000);
		ck_assert_ptr_nonnull(a);
		ck_assert_uint_eq(bgp_aspath_leftmost(a->aspath), 65001);
		ck_assert_uint_eq(col[i]->spurious_withdraw, 0);
	}
	ck_assert_uint_eq(col[0]->pfx_announced, 2000);
	ck_assert_uint_eq(col[1]->pfx_announced, 1000);
	/* The feeder withdraws: col[1]'s own routes are best again, withdrawn from col[1] only. */
	fake_withdraw(feeder, V4, pfx, 1000);
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_eq(fake_adj_count(col[1], V4), 0);
	ck_assert_uint_eq(rib_peer_sent(&col[1]->peer, V4), 0);
	ck_assert_uint_eq(col[1]->pfx_withdrawn, 1000);
	for (int i = 0; i < NCOL; i++) {
		if (i == 1)
			continue;
		ck_assert_uint_eq(fake_adj_count(col[i], V4), 1000);
		ck_assert_uint_eq(rib_peer_sent(&col[i]->peer, V4), 1000);
		ck_assert_uint_eq(col[i]->pfx_withdrawn, 0);
	}
	fake_withdraw(col[1], V4, pfx, 1000);
	fake_run(bgp, RUN_ALL);
	for (int i = 0; i < NCOL; i++) {
		ck_assert_uint_eq(fake_adj_count(col[i], V4), 0);
		ck_assert_uint_eq(rib_peer_sent(&col[i]->peer, V4), 0);
		ck_assert_uint_eq(col[i]->spurious_withdraw, 0);
	}
}
END_TEST

/* More members than the inline bitmap has bits (ids 64 and up): the same table, the same
 * counts, for members whose bits are spilled and those whose bits are not. */
#define NMANY 70
START_TEST(test_many_members)
{
	struct fake_peer *more[NMANY];

	for (int i = 0; i < NMANY; i++) {
		more[i] = collector(NCOL + i);
		fake_peer_up(more[i]);
	}
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_ge(more[NMANY - 1]->peer.rib->cur->id, 64);
	bgp->rib->out_shared = 0;
	feed(feeder, pfx, 2000, "65002 65200");
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_gt(bgp->rib->out_shared, 0);
	for (int i = 0; i < NMANY; i++)
		holds_table(more[i], pfx, 2000);
	for (int i = 0; i < NCOL; i++)
		holds_table(col[i], pfx, 2000);
	/* One of the high ids leaves and comes back while half is withdrawn. */
	fake_peer_down(more[NMANY - 1]);
	fake_withdraw(feeder, V4, pfx, 1000);
	fake_run(bgp, RUN_ALL);
	fake_peer_clear(more[NMANY - 1]);
	fake_peer_up(more[NMANY - 1]);
	fake_run(bgp, RUN_ALL);
	for (int i = 0; i < NMANY; i++) {
		holds_table(more[i], pfx + 1000, 1000);
		if (i != NMANY - 1)
			ck_assert_uint_eq(more[i]->pfx_withdrawn, 1000);
	}
	for (int i = 0; i < NCOL; i++)
		holds_table(col[i], pfx + 1000, 1000);
	fake_withdraw(feeder, V4, pfx + 1000, 1000);
	fake_run(bgp, RUN_ALL);
	for (int i = 0; i < NMANY; i++) {
		ck_assert_uint_eq(fake_adj_count(more[i], V4), 0);
		ck_assert_uint_eq(rib_peer_sent(&more[i]->peer, V4), 0);
		ck_assert_uint_eq(more[i]->spurious_withdraw, 0);
	}
	ck_assert_uint_eq(ptree_count(bgp->rib->af[V4].tree), 0);

	/* Ten members announce at once: batches with more sources than are checked as a set;
	 * none is sent its own routes back. */
	for (int i = 0; i < 10; i++) {
		char path[32];

		snprintf(path, sizeof(path), "%u", 65100 + NCOL + i);
		feed(more[i], pfx + i * 20, 20, path);
	}
	fake_run(bgp, RUN_ALL);
	for (int i = 0; i < NMANY; i++) {
		char buf[PREFIX_STRLEN];

		ck_assert_uint_eq(fake_adj_count(more[i], V4), i < 10 ? 180 : 200);
		ck_assert_uint_eq(rib_peer_sent(&more[i]->peer, V4), i < 10 ? 180 : 200);
		if (i < 10)
			ck_assert_ptr_null(
				fake_adj(more[i], prefix_to_str(&pfx[i * 20], buf, sizeof(buf))));
	}
	for (int i = 0; i < 10; i++)
		fake_withdraw(more[i], V4, pfx + i * 20, 20);
	fake_run(bgp, RUN_ALL);
	for (int i = 0; i < NMANY; i++) {
		ck_assert_uint_eq(fake_adj_count(more[i], V4), 0);
		ck_assert_uint_eq(more[i]->spurious_withdraw, 0);
	}
	for (int i = 0; i < NMANY; i++)
		fake_peer_free(more[i]);
}
END_TEST

/* An attribute set too large for the collectors' 4,096-byte UPDATEs (the feeder has extended
 * messages): the leader withdraws instead of announcing while it sends, and its followers,
 * given its messages, must hold the same bits: none. */
START_TEST(test_oversized_set_shared)
{
	enum { N = 50, NCOMM = 1100 };
	const size_t attrs = 4 + 9 + 7 + 4 + 4 * NCOMM;
	uint8_t *body = malloc(2 + 2 + attrs + 4 * N);
	size_t o = 0;

	feeder->info.max_msg_size = 65535;
	feeder->info.codec.extended_message = true;
	/* No withdrawals; ORIGIN IGP, AS_PATH 65002, NEXT_HOP, 1,100 communities. */
	body[o++] = 0, body[o++] = 0;
	body[o++] = (uint8_t)(attrs >> 8), body[o++] = (uint8_t)attrs;
	memcpy(body + o, (const uint8_t[]){ 0x40, 1, 1, 0 }, 4);
	o += 4;
	memcpy(body + o, (const uint8_t[]){ 0x40, 2, 6, 2, 1, 0, 0, 0xfd, 0xea }, 9);
	o += 9;
	memcpy(body + o, (const uint8_t[]){ 0x40, 3, 4, 10, 0, 0, 2 }, 7);
	o += 7;
	body[o++] = 0xd0; /* optional transitive, extended length */
	body[o++] = BGP_ATTR_COMMUNITIES;
	body[o++] = (uint8_t)((4 * NCOMM) >> 8), body[o++] = (uint8_t)(4 * NCOMM);
	for (unsigned c = 0; c < NCOMM; c++) {
		uint32_t v = (65002u << 16) | c;

		body[o++] = (uint8_t)(v >> 24), body[o++] = (uint8_t)(v >> 16);
		body[o++] = (uint8_t)(v >> 8), body[o++] = (uint8_t)v;
	}
	for (unsigned i = 0; i < N; i++) {
		body[o++] = 24, body[o++] = 20, body[o++] = 0;
		body[o++] = (uint8_t)i; /* pfx[i], 20.0.i.0/24 */
	}
	ck_assert_int_eq(fake_deliver(feeder, body, o), 0);
	free(body);
	bgp->rib->out_shared = 0;
	fake_run(bgp, RUN_ALL);
	ck_assert_uint_gt(bgp->rib->out_shared, 0);
	for (int i = 0; i < NCOL; i++) {
		ck_assert_uint_eq(fake_adj_count(col[i], V4), 0);
		ck_assert_uint_eq(rib_peer_sent(&col[i]->peer, V4), 0);
	}
	/* A set that fits replaces it: all four get it, each counted once. */
	feed(feeder, pfx, N, "65002 65200");
	fake_run(bgp, RUN_ALL);
	for (int i = 0; i < NCOL; i++) {
		ck_assert_uint_eq(fake_adj_count(col[i], V4), N);
		ck_assert_uint_eq(rib_peer_sent(&col[i]->peer, V4), N);
	}
}
END_TEST

static Suite *update_group_suite(void)
{
	Suite *s = suite_create("bgp_update_group");
	TCase *tc = tcase_create("update_group");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_same_output_rules);
	tcase_add_test(tc, test_fanout_shared);
	tcase_add_test(tc, test_mesh_not_sent_back);
	tcase_add_test(tc, test_other_policy_own_output);
	tcase_add_test(tc, test_blocked_member);
	tcase_add_test(tc, test_refresh_member);
	tcase_add_test(tc, test_policy_change_member);
	tcase_add_test(tc, test_leave_and_rejoin);
	tcase_add_test(tc, test_members_bits_differ);
	tcase_add_test(tc, test_many_members);
	tcase_add_test(tc, test_oversized_set_shared);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(update_group_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
