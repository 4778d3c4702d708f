/* SPDX-License-Identifier: ISC */
/*
 * The instance and peer lifecycle (bgpd/instance/bgp_instance.c): create/lookup/delete with
 * dense reused indexes, inherited values, what configuration changes do to a running session,
 * the socket TTL policy, and a session flapped 1,000 times through the session layer with the
 * memory counters of lib/memory.h compared before and after (doc/architecture.md "Memory and
 * ownership": a peer's session state is released in one place).
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>
#include <unistd.h>

#include "bgpd/instance/bgp_instance.h"
#include "bgpd/session/bgp_network.h"
#include "bgpd/session/bgp_session.h"
#include "kernel/kernel.h"
#include "lib/event.h"
#include "lib/memory.h"
#include "tests/unit/session_test.h"

#define REMOTE_AS 65002
#define REMOTE_ID "192.0.2.1"

static int lfd = -1;

static void setup(void)
{
	uint16_t port;

	st_setup();
	lfd = st_listen(&port);
	bgp_network_set_remote_port(port);
	ck_assert_int_eq(bgp_network_listen(st_base, "127.0.0.1", 0), 1);
}

static void teardown(void)
{
	close(lfd);
	st_teardown();
}

static struct ipaddr addr(const char *s)
{
	struct ipaddr a;

	ck_assert_int_eq(ipaddr_from_str(&a, s), 0);
	return a;
}

START_TEST(test_peer_create_lookup_delete)
{
	uint64_t allocs = mem_total_allocated(), bytes = mem_total_bytes();
	struct bgp *bgp;
	struct bgp_peer *p1, *p2, *p3, *p4;
	struct ipaddr a;

	st_setup();
	bgp = bgp_get();
	a = addr("192.0.2.1");
	p1 = bgp_peer_create(bgp, &a);
	a = addr("2001:db8::2");
	p2 = bgp_peer_create(bgp, &a);
	a = addr("192.0.2.3");
	p3 = bgp_peer_create(bgp, &a);
	ck_assert_ptr_nonnull(p1);
	ck_assert_ptr_nonnull(p2);
	ck_assert_ptr_nonnull(p3);
	ck_assert_uint_eq(bgp->peer_count, 3);
	ck_assert_uint_eq(rib_calls.attach, 3);
	ck_assert_uint_eq(p1->index, 0);
	ck_assert_uint_eq(p2->index, 1);
	ck_assert_uint_eq(p3->index, 2);
	ck_assert_str_eq(p2->name, "2001:db8::2");
	ck_assert_ptr_nonnull(p1->session);
	/* A duplicate is refused; lookups find by address, IPv4-mapped included. */
	a = addr("192.0.2.3");
	ck_assert_ptr_null(bgp_peer_create(bgp, &a));
	ck_assert_ptr_eq(bgp_peer_lookup(bgp, &a), p3);
	a = addr("::ffff:192.0.2.1");
	ck_assert_ptr_eq(bgp_peer_lookup(bgp, &a), p1);
	a = addr("192.0.2.99");
	ck_assert_ptr_null(bgp_peer_lookup(bgp, &a));

	/* Indexes are dense and reused. */
	bgp_peer_delete(p2);
	ck_assert_uint_eq(rib_calls.detach, 1);
	a = addr("2001:db8::2");
	ck_assert_ptr_null(bgp_peer_lookup(bgp, &a));
	a = addr("192.0.2.4");
	p4 = bgp_peer_create(bgp, &a);
	ck_assert_uint_eq(p4->index, 1);
	p4->conf.description = XSTRDUP(MTYPE_BGP_PEER_CONF, "transit-a");
	st_pump(20);
	st_teardown();
	ck_assert_uint_eq(rib_calls.detach, 4);
	/* Everything the instance, its peers and their sessions held is gone. */
	ck_assert_uint_eq(mem_total_allocated(), allocs);
	ck_assert_uint_eq(mem_total_bytes(), bytes);
}
END_TEST

START_TEST(test_effective_values)
{
	struct bgp_peer *peer;
	struct bgp *bgp;
	struct ipaddr a;

	st_setup();
	bgp = bgp_get();
	a = addr("192.0.2.1");
	peer = bgp_peer_create(bgp, &a);
	ck_assert_uint_eq(bgp_peer_keepalive(peer), 60);
	ck_assert_uint_eq(bgp_peer_holdtime(peer), 180);
	bgp->keepalive = 10;
	bgp->holdtime = 30;
	ck_assert_uint_eq(bgp_peer_holdtime(peer), 30);
	peer->conf.timers_configured = true;
	peer->conf.keepalive = 3;
	peer->conf.holdtime = 9;
	ck_assert_uint_eq(bgp_peer_keepalive(peer), 3);
	ck_assert_uint_eq(bgp_peer_holdtime(peer), 9);

	/* IPv4 unicast follows `bgp default ipv4-unicast`; IPv6 needs activate. */
	ck_assert(bgp_peer_af_activated(peer, BGP_AF_IPV4_UNICAST));
	ck_assert(!bgp_peer_af_activated(peer, BGP_AF_IPV6_UNICAST));
	bgp->default_ipv4_unicast = false;
	ck_assert(!bgp_peer_af_activated(peer, BGP_AF_IPV4_UNICAST));
	peer->conf.af_activation[BGP_AF_IPV4_UNICAST] = BGP_AF_ACT_ON;
	peer->conf.af_activation[BGP_AF_IPV6_UNICAST] = BGP_AF_ACT_ON;
	ck_assert(bgp_peer_af_activated(peer, BGP_AF_IPV4_UNICAST));
	ck_assert(bgp_peer_af_activated(peer, BGP_AF_IPV6_UNICAST));

	peer->conf.remote_as = ST_LOCAL_AS;
	ck_assert(!bgp_peer_is_ebgp(peer));
	ck_assert_uint_eq(bgp_peer_remote_as_expected(peer), ST_LOCAL_AS);
	peer->conf.remote_as = REMOTE_AS;
	ck_assert(bgp_peer_is_ebgp(peer));
	peer->conf.remote_as_type = BGP_REMOTE_AS_INTERNAL;
	ck_assert(!bgp_peer_is_ebgp(peer));
	ck_assert_uint_eq(bgp_peer_remote_as_expected(peer), 0);
	peer->conf.remote_as_type = BGP_REMOTE_AS_EXTERNAL;
	ck_assert(bgp_peer_is_ebgp(peer));

	/* Graceful restart: the neighbor's own mode, else the instance's. */
	ck_assert_int_eq(bgp_peer_gr_mode(peer), BGP_GR_HELPER);
	bgp->gr_mode = BGP_GR_RESTART;
	ck_assert_int_eq(bgp_peer_gr_mode(peer), BGP_GR_RESTART);
	peer->conf.gr_mode = BGP_GR_DISABLE;
	ck_assert_int_eq(bgp_peer_gr_mode(peer), BGP_GR_DISABLE);
	bgp->gr_mode = BGP_GR_HELPER;
	peer->conf.gr_mode = BGP_GR_INHERIT;

	ck_assert_str_eq(bgp_af_json_name(BGP_AF_IPV6_UNICAST), "ipv6Unicast");
	ck_assert_str_eq(bgp_af_text_name(BGP_AF_IPV4_UNICAST), "IPv4 Unicast");
	ck_assert_int_eq(bgp_af_from_afi_safi(2, 1), BGP_AF_IPV6_UNICAST);
	ck_assert_int_eq(bgp_af_from_afi_safi(1, 2), -1);
	st_teardown();
}
END_TEST

/* What our OPEN advertises for each effective mode (FRR's rules), and what the RIB is told. */
START_TEST(test_gr_open_local)
{
	struct bgp_open_local l;
	struct bgp_open_result nego;
	struct bgp_session_info info;
	struct bgp_peer *peer;
	struct bgp *bgp;
	struct ipaddr a;

	st_setup();
	bgp = bgp_get();
	a = addr("192.0.2.1");
	peer = bgp_peer_create(bgp, &a);

	/* Helper (the default): the capability with N and the restart time, no family. */
	memset(&l, 0, sizeof(l));
	l.af[BGP_AF_IPV4_UNICAST] = l.af[BGP_AF_IPV6_UNICAST] = true;
	bgp_open_local_gr(peer, &l);
	ck_assert(l.gr);
	ck_assert(l.gr_notification);
	ck_assert(!l.gr_restart);
	ck_assert_uint_eq(l.gr_time, 120);
	ck_assert(!l.gr_af[BGP_AF_IPV4_UNICAST] && !l.gr_af[BGP_AF_IPV6_UNICAST]);
	ck_assert(!l.llgr);

	/* Restart mode: the advertised families listed. F only with preserve-fw-state and
	 * forwarding state that survived: none after a cold start (no session yet, nothing
	 * adopted), set for the family whose routes bgpd adopted across its restart; R while
	 * the restarted bgpd defers its selection. */
	bgp->gr_mode = BGP_GR_RESTART;
	bgp->gr_preserve_fw_state = true;
	bgp->gr_notification = false;
	bgp->gr_restart_time = 30;
	bgp->gr_fib_forwarding = true;
	memset(&l, 0, sizeof(l));
	l.af[BGP_AF_IPV4_UNICAST] = true;
	bgp_open_local_gr(peer, &l);
	ck_assert(l.gr && !l.gr_notification && !l.gr_restart);
	ck_assert_uint_eq(l.gr_time, 30);
	ck_assert(l.gr_af[BGP_AF_IPV4_UNICAST] && !l.gr_fwd[BGP_AF_IPV4_UNICAST]);
	ck_assert(!l.gr_af[BGP_AF_IPV6_UNICAST]);
	bgp->gr_fwd_preserved[BGP_AF_IPV4_UNICAST] = true;
	bgp->gr_restarting = true;
	memset(&l, 0, sizeof(l));
	l.af[BGP_AF_IPV4_UNICAST] = true;
	bgp_open_local_gr(peer, &l);
	ck_assert(l.gr_restart && l.gr_fwd[BGP_AF_IPV4_UNICAST]);
	bgp->gr_preserve_fw_state = false; /* the operator does not vouch for the FIB: no F */
	memset(&l, 0, sizeof(l));
	l.af[BGP_AF_IPV4_UNICAST] = true;
	bgp_open_local_gr(peer, &l);
	ck_assert(l.gr_restart && !l.gr_fwd[BGP_AF_IPV4_UNICAST]);
	bgp->gr_restarting = false;
	bgp->gr_fwd_preserved[BGP_AF_IPV4_UNICAST] = false;

	/* The neighbor's disable wins: no capability at all. */
	peer->conf.gr_mode = BGP_GR_DISABLE;
	memset(&l, 0, sizeof(l));
	l.af[BGP_AF_IPV4_UNICAST] = true;
	bgp_open_local_gr(peer, &l);
	ck_assert(!l.gr && !l.llgr);

	/* The RIB hears the peer's values for the families of the session only. */
	memset(&nego, 0, sizeof(nego));
	memset(&info, 0, sizeof(info));
	info.af[BGP_AF_IPV4_UNICAST] = true;
	nego.gr = true;
	nego.gr_notification = true;
	nego.remote.gr = true;
	nego.remote.gr_restart = true;
	nego.remote.gr_time = 90;
	nego.remote.gr_af[BGP_AF_IPV4_UNICAST] = nego.remote.gr_fwd[BGP_AF_IPV4_UNICAST] = true;
	nego.remote.gr_af[BGP_AF_IPV6_UNICAST] = true;
	bgp_session_info_gr(&info, &nego);
	ck_assert(info.gr && info.gr_notification && info.gr_restarting);
	ck_assert_uint_eq(info.gr_time, 90);
	ck_assert(info.gr_af[BGP_AF_IPV4_UNICAST] && info.gr_fwd[BGP_AF_IPV4_UNICAST]);
	ck_assert(!info.gr_af[BGP_AF_IPV6_UNICAST]);
	/* Not negotiated (we did not send it): nothing, whatever the peer said. */
	nego.gr = false;
	memset(&info, 0, sizeof(info));
	info.af[BGP_AF_IPV4_UNICAST] = true;
	bgp_session_info_gr(&info, &nego);
	ck_assert(!info.gr && !info.gr_af[BGP_AF_IPV4_UNICAST]);
	st_teardown();
}
END_TEST

/* RFC 8538 as FRR 8.4 sends it, and which losses graceful restart covers. */
START_TEST(test_gr_hard_reset_and_cover)
{
	struct bgp_error e, out;
	struct bgp_session s;

	/* With the N bit, an administrative Cease becomes a Hard Reset carrying it. */
	bgp_error_set(&e, BGP_ERR_CEASE, BGP_ERR_CEASE_ADMIN_SHUTDOWN, "ab", 2, NULL);
	ck_assert(bgp_session_notify_hard_reset(true, &e, &out));
	ck_assert_uint_eq(out.code, BGP_ERR_CEASE);
	ck_assert_uint_eq(out.subcode, BGP_ERR_CEASE_HARD_RESET);
	ck_assert_uint_eq(out.data_len, 4);
	ck_assert_mem_eq(out.data,
			 "\x06\x02"
			 "ab",
			 4);
	for (uint8_t sub = BGP_ERR_CEASE_MAX_PREFIX; sub <= BGP_ERR_CEASE_ADMIN_RESET; sub++) {
		bgp_error_set(&e, BGP_ERR_CEASE, sub, NULL, 0, NULL);
		ck_assert(bgp_session_notify_hard_reset(true, &e, &out));
	}
	/* Not without the N bit, not for other Ceases or other errors. */
	ck_assert(!bgp_session_notify_hard_reset(false, &e, &out));
	bgp_error_set(&e, BGP_ERR_CEASE, BGP_ERR_CEASE_CONFIG_CHANGE, NULL, 0, NULL);
	ck_assert(!bgp_session_notify_hard_reset(true, &e, &out));
	bgp_error_set(&e, BGP_ERR_HOLD_TIMER, 0, NULL, 0, NULL);
	ck_assert(!bgp_session_notify_hard_reset(true, &e, &out));

	/* Which losses keep the routes. */
	memset(&s, 0, sizeof(s));
	ck_assert(!bgp_session_gr_covers(&s, BGP_DOWN_CLOSED)); /* no GR negotiated */
	s.info.gr = true;
	ck_assert(bgp_session_gr_covers(&s, BGP_DOWN_CLOSED));
	ck_assert(bgp_session_gr_covers(&s, BGP_DOWN_SOCKET_ERROR));
	s.have_last_notify = true;
	s.last_notify_sent = true;
	bgp_error_set(&s.last_notify, BGP_ERR_HOLD_TIMER, 0, NULL, 0, NULL);
	ck_assert(bgp_session_gr_covers(&s, BGP_DOWN_NOTIFY_SENT));
	/* Any other NOTIFICATION: only with the N bit, and not a Hard Reset. */
	bgp_error_set(&s.last_notify, BGP_ERR_CEASE, BGP_ERR_CEASE_CONFIG_CHANGE, NULL, 0, NULL);
	ck_assert(!bgp_session_gr_covers(&s, BGP_DOWN_CONFIG_CHANGE));
	s.last_notify_sent = false;
	bgp_error_set(&s.last_notify, BGP_ERR_UPDATE, 1, NULL, 0, NULL);
	ck_assert(!bgp_session_gr_covers(&s, BGP_DOWN_NOTIFY_RECEIVED));
	s.info.gr_notification = true;
	ck_assert(bgp_session_gr_covers(&s, BGP_DOWN_NOTIFY_RECEIVED));
	bgp_error_set(&s.last_notify, BGP_ERR_CEASE, BGP_ERR_CEASE_HARD_RESET, NULL, 0, NULL);
	ck_assert(!bgp_session_gr_covers(&s, BGP_DOWN_NOTIFY_RECEIVED));
	ck_assert(bgp_session_stop_flushes(BGP_ERR_CEASE_ADMIN_SHUTDOWN));
	ck_assert(!bgp_session_stop_flushes(BGP_ERR_CEASE_CONFIG_CHANGE));
}
END_TEST

START_TEST(test_network_statements)
{
	struct prefix p;

	st_setup();
	ck_assert_int_eq(prefix_from_str(&p, "198.51.100.0/24", true), 0);
	ck_assert_int_eq(bgp_network_add(bgp_get(), BGP_AF_IPV4_UNICAST, &p), 0);
	ck_assert_int_eq(bgp_network_add(bgp_get(), BGP_AF_IPV4_UNICAST, &p), -EEXIST);
	ck_assert_int_eq(bgp_network_add(bgp_get(), BGP_AF_IPV6_UNICAST, &p), -EINVAL);
	ck_assert_uint_eq(rib_calls.net_sync, 1); /* only the statement added */
	ck_assert_int_eq(bgp_network_del(bgp_get(), BGP_AF_IPV4_UNICAST, &p), 0);
	ck_assert_int_eq(bgp_network_del(bgp_get(), BGP_AF_IPV4_UNICAST, &p), -ENOENT);
	ck_assert_uint_eq(rib_calls.net_sync, 2);
	ck_assert_int_eq(bgp_network_add(bgp_get(), BGP_AF_IPV4_UNICAST, &p), 0);
	st_teardown(); /* frees the remaining statement */
}
END_TEST

/* Sessions do not start without a router-id (FRR refuses router-id 0). */
START_TEST(test_no_router_id)
{
	struct bgp_peer *peer;
	struct bgp *bgp = bgp_get();

	bgp->router_id.s_addr = INADDR_ANY;
	peer = st_peer("127.0.0.1", REMOTE_AS, false);
	st_pump(50);
	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_IDLE);
	inet_pton(AF_INET, ST_LOCAL_ID, &bgp->router_id);
	bgp_session_kick(peer);
	ck_assert(st_state_is(peer, BGP_ST_CONNECT, 2000));
}
END_TEST

static int conn_ttl(struct bgp_peer *peer)
{
	return kernel_sock_get_ttl(bgp_session_primary(peer)->fd, AF_INET);
}

/* eBGP sends with TTL 1 unless ebgp-multihop; iBGP with 255; multihop changes apply live. */
START_TEST(test_ttl_policy)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	int fd = st_establish_outgoing(peer, lfd, REMOTE_AS, REMOTE_ID);

	ck_assert_int_eq(conn_ttl(peer), 1);
	peer->conf.ebgp_multihop = 5;
	bgp_peer_config_changed(peer, BGP_PEER_CHG_MULTIHOP);
	ck_assert_int_eq(conn_ttl(peer), 5);
	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_ESTABLISHED);
	close(fd);
	bgp_peer_delete(peer);

	peer = st_peer("127.0.0.1", ST_LOCAL_AS, false);
	fd = st_establish_outgoing(peer, lfd, ST_LOCAL_AS, REMOTE_ID);
	ck_assert_int_eq(conn_ttl(peer), 255);
	ck_assert(!rib_calls.last_info.ebgp);
	close(fd);
}
END_TEST

/* A remote-as change resets a running session with Cease / Other Configuration Change. */
START_TEST(test_remote_as_change_resets)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	int fd = st_establish_outgoing(peer, lfd, REMOTE_AS, REMOTE_ID);
	uint8_t body[8];
	size_t len;

	peer->conf.remote_as = 65003;
	bgp_peer_config_changed(peer, BGP_PEER_CHG_REMOTE_AS);
	ck_assert_int_eq(st_expect(fd, 3, body, sizeof(body), &len, 2000), 3);
	ck_assert_uint_eq(body[0], BGP_ERR_CEASE);
	ck_assert_uint_eq(body[1], BGP_ERR_CEASE_CONFIG_CHANGE);
	ck_assert_uint_eq(peer->session->last_reset, BGP_DOWN_REMOTE_AS);
	close(fd);
	/* ... and starts again at once (no idle hold for a configuration change). */
	ck_assert(st_state_is(peer, BGP_ST_CONNECT, 2000));
	fd = st_accept(lfd, 2000);
	ck_assert_int_ge(fd, 0);
	close(fd);
}
END_TEST

/* SIGTERM's path: Cease / Administrative Shutdown to every peer with a connection. */
START_TEST(test_shutdown_all)
{
	struct bgp_peer *peer = st_peer("127.0.0.1", REMOTE_AS, false);
	int fd = st_establish_outgoing(peer, lfd, REMOTE_AS, REMOTE_ID);
	uint8_t body[8];
	size_t len;

	bgp_shutdown_all(bgp_get());
	ck_assert_uint_eq(bgp_session_state(peer), BGP_ST_IDLE);
	ck_assert_int_eq(st_recv(fd, body, sizeof(body), &len, 2000), 3);
	ck_assert_uint_eq(body[0], BGP_ERR_CEASE);
	ck_assert_uint_eq(body[1], BGP_ERR_CEASE_ADMIN_SHUTDOWN);
	ck_assert_int_eq(st_recv(fd, NULL, 0, NULL, 2000), 0);
	close(fd);
}
END_TEST

struct mtype_count {
	const char *name;
	uint64_t allocated;
};

static void count_type(const struct mtype *mt, void *arg)
{
	struct mtype_count *c = arg;

	if (strcmp(mt->name, c->name) == 0)
		c->allocated = mt->allocated;
}

static uint64_t type_allocated(const char *name)
{
	struct mtype_count c = { name, 0 };

	mem_walk(count_type, &c);
	return c.allocated;
}

/* Flap a session 1,000 times; every flap goes through accept, OPEN, Established and close. */
START_TEST(test_flap_1000_no_leak)
{
	struct bgp_peer *peer = st_peer("127.0.0.2", REMOTE_AS, true);
	uint64_t allocs, bytes;
	int i;

	ck_assert(st_state_is(peer, BGP_ST_ACTIVE, 2000));
	allocs = mem_total_allocated();
	bytes = mem_total_bytes();
	for (i = 0; i < 1000; i++) {
		int fd = st_connect("127.0.0.2", bgp_network_listen_port(0));

		ck_assert_int_eq(st_recv(fd, NULL, 0, NULL, 2000), 1);
		st_send_open(fd, REMOTE_AS, 180, REMOTE_ID);
		st_send_keepalive(fd);
		ck_assert_msg(st_state_is(peer, BGP_ST_ESTABLISHED, 2000), "flap %d", i);
		close(fd);
		ck_assert_msg(st_state_is(peer, BGP_ST_IDLE, 2000), "flap %d", i);
		/* Fake clock: the IdleHoldTimer "expires" now; passive peers go to Active. */
		ck_assert_uint_eq(
			bgp_fsm_event(bgp_session_primary(peer), BGP_EV_IDLE_HOLD_EXPIRES),
			BGP_ST_ACTIVE);
	}
	ck_assert_uint_eq(peer->session->established_count, 1000);
	ck_assert_uint_eq(peer->session->dropped_count, 1000);
	ck_assert_uint_eq(rib_calls.up, 1000);
	ck_assert_uint_eq(rib_calls.down, 1000);
	ck_assert_uint_eq(type_allocated("BGP input buffer"), 0);
	ck_assert_uint_eq(type_allocated("BGP output queue"), 0);
	ck_assert_uint_eq(mem_total_allocated(), allocs);
	ck_assert_uint_eq(mem_total_bytes(), bytes);
}
END_TEST

static Suite *peer_suite(void)
{
	Suite *s = suite_create("bgp_peer");
	TCase *tl = tcase_create("lifecycle");
	TCase *ts = tcase_create("sessions");

	tcase_add_test(tl, test_peer_create_lookup_delete);
	tcase_add_test(tl, test_effective_values);
	tcase_add_test(tl, test_gr_open_local);
	tcase_add_test(tl, test_gr_hard_reset_and_cover);
	tcase_add_test(tl, test_network_statements);
	suite_add_tcase(s, tl);

	tcase_add_checked_fixture(ts, setup, teardown);
	tcase_set_timeout(ts, 120);
	tcase_add_test(ts, test_no_router_id);
	tcase_add_test(ts, test_ttl_policy);
	tcase_add_test(ts, test_remote_as_change_resets);
	tcase_add_test(ts, test_shutdown_all);
	tcase_add_test(ts, test_flap_1000_no_leak);
	suite_add_tcase(s, ts);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(peer_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
