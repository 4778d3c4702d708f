/* SPDX-License-Identifier: ISC */
/*
 * The RPKI show commands (bgpd/show/bgp_show_rpki.c) through the command engine, on a store
 * filled through a transaction as an RTR cache fills it, compared with FRR 8.4's output
 * captured against StayRTR (the reference texts below are that capture's). The RTR manager
 * is a double here: its status is whatever the test sets, and its exec calls are recorded.
 */
#include "lib/compat.h"

#include <check.h>

#include "bgpd/rpki/rpki_db.h"
#include "bgpd/rtr/rtr.h"
#include "bgpd/show/bgp_show.h"
#include "lib/command.h"
#include "lib/vty.h"

/* ---- the RTR manager's double -------------------------------------------------------- */

static struct rtr_cache_status caches[3];
static int ncaches;
static uint8_t active_group;
static char exec_calls[64];

void rtr_status_walk(rtr_status_cb cb, void *arg)
{
	for (int i = 0; i < ncaches; i++)
		cb(&caches[i], arg);
}

uint8_t rtr_active_group(void)
{
	return active_group;
}

const char *rtr_state_name(enum rtr_state s)
{
	static const char *const names[] = { "idle",	      "resolving", "connecting",
					     "tls-handshake", "syncing",   "established",
					     "error" };

	return (size_t)s < array_size(names) ? names[s] : "?";
}

void rtr_reset(void)
{
	strcat(exec_calls, "reset ");
}

void rtr_start(void)
{
	strcat(exec_calls, "start ");
}

void rtr_stop(void)
{
	strcat(exec_calls, "stop ");
}

/* ---- fixtures ----------------------------------------------------------------------------- */

static struct rpki_db *db;
static struct vty *vty;

static struct prefix pfx(const char *s)
{
	struct prefix p;

	ck_assert_int_eq(prefix_from_str(&p, s, true), 0);
	return p;
}

/* The reference capture's cache: 127.0.0.1 8282 preference 1, connected, three VRPs. */
static void reference_cache(void)
{
	memset(caches, 0, sizeof(caches));
	caches[0].config = (struct rtr_cache_config){
		.transport = RTR_TRANSPORT_TCP, .host = "127.0.0.1", .port = 8282, .preference = 1
	};
	caches[0].state = RTR_STATE_ESTABLISHED;
	caches[0].have_serial = true;
	caches[0].version = 1;
	caches[0].session_id = 4711;
	caches[0].serial = 3;
	caches[0].refresh = 3600;
	caches[0].retry = 600;
	caches[0].expire = 7200;
	caches[0].vrps_v4 = 2;
	caches[0].vrps_v6 = 1;
	caches[0].pdus_rx = 6;
	caches[0].pdus_tx = 1;
	caches[0].connects = 1;
	ncaches = 1;
	active_group = 1;
}

static void fill_store(void)
{
	static const char *const vrps[] = { "198.51.100.0/24", "203.0.113.0/24",
					    "2001:db8:1::/48" };
	int src = rpki_source_add(db, "127.0.0.1 8282");
	struct rpki_txn *txn;
	uint32_t providers[] = { 64501, 64502 };

	ck_assert_int_ge(src, 0);
	rpki_db_set_active(db, true);
	txn = rpki_txn_begin(db, src, true);
	for (size_t i = 0; i < array_size(vrps); i++) {
		struct rpki_vrp v = { .prefix = pfx(vrps[i]), .asn = 64500 };

		v.max_len = v.prefix.len;
		ck_assert_int_eq(rpki_txn_vrp(txn, &v, true), 0);
	}
	ck_assert_int_eq(rpki_txn_aspa(txn, 64500, providers, 2, true), 0);
	ck_assert_uint_eq(rpki_txn_commit(txn), 4);
}

static void setup(void)
{
	cmd_init();
	bgp_show_rpki_init();
	vty = vty_new(-1);
	db = rpki_db_new();
	rpki_db_set_default(db);
	ncaches = 0;
	active_group = 0;
	exec_calls[0] = '\0';
}

static void teardown(void)
{
	rpki_db_set_default(NULL);
	rpki_db_free(db);
	vty_free(vty);
	cmd_terminate();
}

static const char *run(const char *line)
{
	sbuf_reset(&vty->out);
	cmd_execute(vty, line, false);
	return vty->out.buf ? vty->out.buf : "";
}

/* ---- FRR 8.4's texts (FRR-RPKI-OUTPUT.md) ----------------------------------------------- */

#define FRR_PREFIX_TABLE                                                      \
	"RPKI/RTR prefix table\n"                                             \
	"Prefix                                   Prefix Length  Origin-AS\n" \
	"198.51.100.0                                24 -  24        64500\n" \
	"203.0.113.0                                 24 -  24        64500\n" \
	"2001:db8:1::                                48 -  48        64500\n" \
	"Number of IPv4 Prefixes: 2\n"                                        \
	"Number of IPv6 Prefixes: 1\n"

#define FRR_PREFIX_TABLE_JSON                  \
	"{\n"                                  \
	"  \"prefixes\":[\n"                   \
	"    {\n"                              \
	"      \"prefix\":\"198.51.100.0\",\n" \
	"      \"prefixLenMin\":24,\n"         \
	"      \"prefixLenMax\":24,\n"         \
	"      \"asn\":64500\n"                \
	"    },\n"                             \
	"    {\n"                              \
	"      \"prefix\":\"203.0.113.0\",\n"  \
	"      \"prefixLenMin\":24,\n"         \
	"      \"prefixLenMax\":24,\n"         \
	"      \"asn\":64500\n"                \
	"    },\n"                             \
	"    {\n"                              \
	"      \"prefix\":\"2001:db8:1::\",\n" \
	"      \"prefixLenMin\":48,\n"         \
	"      \"prefixLenMax\":48,\n"         \
	"      \"asn\":64500\n"                \
	"    }\n"                              \
	"  ],\n"                               \
	"  \"ipv4PrefixCount\":2,\n"           \
	"  \"ipv6PrefixCount\":1\n"            \
	"}\n"

START_TEST(test_no_connection)
{
	/* No cache configured: FRR's words, for every table, and an error key in JSON. */
	ck_assert_str_eq(run("show rpki prefix-table"), "No connection to RPKI cache server.\n");
	ck_assert_str_eq(run("show rpki prefix 198.51.100.0/24"),
			 "No connection to RPKI cache server.\n");
	ck_assert_str_eq(run("show rpki as-number 64500"), "No connection to RPKI cache server.\n");
	ck_assert_str_eq(run("show rpki aspa-table"), "No connection to RPKI cache server.\n");
	ck_assert_str_eq(run("show rpki cache-connection"),
			 "No connection to RPKI cache server.\n");
	ck_assert_str_eq(run("show rpki prefix-table json"),
			 "{\n  \"error\":\"No connection to RPKI cache server.\"\n}\n");
	ck_assert_str_eq(run("show rpki cache-server"), "");
	ck_assert_str_eq(run("show rpki cache-server json"), "{\n  \"servers\":[]\n}\n");

	/* Configured, never synchronised, store empty: the same. */
	reference_cache();
	caches[0].state = RTR_STATE_CONNECTING;
	caches[0].have_serial = false;
	rpki_db_set_active(db, true);
	ck_assert_str_eq(run("show rpki prefix-table"), "No connection to RPKI cache server.\n");
	ck_assert_str_eq(run("show rpki cache-connection"),
			 "No connection to RPKI cache server.\n");
}
END_TEST

START_TEST(test_prefix_table)
{
	reference_cache();
	fill_store();
	ck_assert_str_eq(run("show rpki prefix-table"), FRR_PREFIX_TABLE);
	ck_assert_str_eq(run("show rpki prefix-table json"), FRR_PREFIX_TABLE_JSON);
	/* FRR's as-number view is the prefix table of one origin. */
	ck_assert_str_eq(run("show rpki as-number 64500"), FRR_PREFIX_TABLE);
	ck_assert_str_eq(run("show rpki as-number 64501"),
			 "RPKI/RTR prefix table\n"
			 "Prefix                                   Prefix Length  Origin-AS\n"
			 "Number of IPv4 Prefixes: 0\n"
			 "Number of IPv6 Prefixes: 0\n");
}
END_TEST

START_TEST(test_prefix_lookup)
{
	reference_cache();
	fill_store();
	ck_assert_str_eq(run("show rpki prefix 198.51.100.0/24"),
			 "Prefix                                   Prefix Length  Origin-AS\n"
			 "198.51.100.0                                24 -  24        64500\n");
	/* A more specific prefix than the VRP allows: no VRP reaches it (FRR's filter). */
	ck_assert_str_eq(run("show rpki prefix 198.51.100.0/25"),
			 "Prefix                                   Prefix Length  Origin-AS\n");
	ck_assert_str_eq(run("show rpki prefix 2001:db8:1::/48 64500"),
			 "Prefix                                   Prefix Length  Origin-AS\n"
			 "2001:db8:1::                                48 -  48        64500\n");
	ck_assert_str_eq(run("show rpki prefix 2001:db8:1::/48 64999"),
			 "Prefix                                   Prefix Length  Origin-AS\n");
	ck_assert_str_eq(run("show rpki prefix 203.0.113.0/24 json"),
			 "{\n  \"prefixes\":[\n    {\n      \"prefix\":\"203.0.113.0\",\n"
			 "      \"prefixLenMin\":24,\n      \"prefixLenMax\":24,\n"
			 "      \"asn\":64500\n    }\n  ]\n}\n");
}
END_TEST

/* show memory lists the store's types while it holds records (every MTYPE is listed). */
START_TEST(test_memory)
{
	const char *out;

	reference_cache();
	fill_store();
	out = run("show memory");
	ck_assert_msg(strstr(out, "RPKI store") && strstr(out, "RPKI VRPs") &&
			      strstr(out, "RPKI ASPA records"),
		      "show memory:\n%s", out);
	out = run("show memory json");
	ck_assert_ptr_nonnull(strstr(out, "\"name\":\"RPKI VRPs\""));
}
END_TEST

START_TEST(test_aspa_table)
{
	reference_cache();
	fill_store();
	ck_assert_str_eq(run("show rpki aspa-table"), "RPKI/RTR ASPA table\n"
						      "Customer-AS   Provider-AS\n"
						      "64500         64501 64502\n"
						      "Number of ASPA records: 1\n");
	ck_assert_str_eq(run("show rpki aspa-table json"),
			 "{\n  \"aspas\":[\n    {\n      \"customerAsn\":64500,\n"
			 "      \"providers\":[\n        64501,\n        64502\n      ]\n    }\n"
			 "  ],\n  \"aspaCount\":1\n}\n");
}
END_TEST

START_TEST(test_caches)
{
	const char *out;

	reference_cache();
	fill_store();
	/* FRR's two views, line for line; skua's details after FRR's line of each cache. */
	ck_assert_str_eq(run("show rpki cache-connection"),
			 "Connected to group 1\n"
			 "rpki tcp cache 127.0.0.1 8282 pref 1 (connected)\n");
	out = run("show rpki cache-server");
	ck_assert_msg(strstr(out, "host: 127.0.0.1 port: 8282, preference: 1\n"
				  "  transport: tcp\n"
				  "  state: established since never\n"
				  "  RTR version 1, session 4711, serial 3, last sync never\n"
				  "  refresh 3600s, retry 600s, expire 7200s\n"
				  "  records: 2 IPv4 VRPs, 1 IPv6 VRPs, 0 ASPA\n") == out,
		      "cache-server:\n%s", out);
	out = run("show rpki cache-server json");
	ck_assert_msg(strstr(out, "{\n  \"servers\":[\n    {\n      \"mode\":\"tcp\",\n"
				  "      \"host\":\"127.0.0.1\",\n      \"port\":\"8282\",\n"
				  "      \"preference\":1,\n") == out &&
			      strstr(out, "\"state\":\"established\"") &&
			      strstr(out, "\"serial\":3") && strstr(out, "\"tcpMd5\":false"),
		      "cache-server json:\n%s", out);
	ck_assert_str_eq(run("show rpki cache-connection json"),
			 "{\n  \"connectedGroup\":1,\n  \"connections\":[\n    {\n"
			 "      \"mode\":\"tcp\",\n      \"host\":\"127.0.0.1\",\n"
			 "      \"port\":\"8282\",\n      \"preference\":1,\n"
			 "      \"state\":\"connected\"\n    }\n  ]\n}\n");

	/* A second, TLS, cache that failed: listed, not connected, with its error. */
	caches[1].config = (struct rtr_cache_config){ .transport = RTR_TRANSPORT_TLS,
						      .host = "rpki.example.net",
						      .port = 324,
						      .preference = 2,
						      .ca_file = "/etc/skua/ca.pem" };
	caches[1].state = RTR_STATE_ERROR;
	snprintf(caches[1].last_error, sizeof(caches[1].last_error),
		 "certificate verify failed: unable to get local issuer certificate");
	ncaches = 2;
	ck_assert_str_eq(run("show rpki cache-connection"),
			 "Connected to group 1\n"
			 "rpki tcp cache 127.0.0.1 8282 pref 1 (connected)\n"
			 "rpki tls cache rpki.example.net 324 pref 2\n"
			 "  error: certificate verify failed: unable to get local issuer "
			 "certificate\n");
	out = run("show rpki cache-connection json");
	ck_assert_msg(strstr(out, "\"lastError\":\"certificate verify failed: unable to get "
				  "local issuer certificate\""),
		      "cache-connection json:\n%s", out);

	/* Nothing connected: FRR's sentence, then why each cache is not. */
	caches[0].state = RTR_STATE_ERROR;
	snprintf(caches[0].last_error, sizeof(caches[0].last_error), "connect: Connection refused");
	ck_assert_str_eq(run("show rpki cache-connection"),
			 "No connection to RPKI cache server.\n"
			 "rpki tcp cache 127.0.0.1 8282 pref 1\n"
			 "  error: connect: Connection refused\n"
			 "rpki tls cache rpki.example.net 324 pref 2\n"
			 "  error: certificate verify failed: unable to get local issuer "
			 "certificate\n");
	out = run("show rpki cache-connection json");
	ck_assert_msg(strstr(out, "\"error\":\"No connection to RPKI cache server.\"") &&
			      strstr(out, "\"lastError\":\"connect: Connection refused\""),
		      "cache-connection json, nothing connected:\n%s", out);
	caches[0].state = RTR_STATE_ESTABLISHED;
	caches[0].last_error[0] = '\0';
	out = run("show rpki cache-server");
	ck_assert_msg(strstr(out, "host: rpki.example.net port: 324, preference: 2\n"
				  "  transport: tls\n"
				  "  state: error since never\n") &&
			      strstr(out, "  TLS: ca-file /etc/skua/ca.pem, not established\n"
					  "  last error: certificate verify failed: unable to get "
					  "local issuer certificate\n"),
		      "tls cache:\n%s", out);
}
END_TEST

START_TEST(test_exec)
{
	ck_assert_str_eq(run("rpki reset"), "");
	run("rpki stop");
	run("rpki start");
	ck_assert_str_eq(exec_calls, "reset stop start ");
}
END_TEST

static Suite *rpki_show_suite(void)
{
	Suite *s = suite_create("bgp_show_rpki");
	TCase *tc = tcase_create("show");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_no_connection);
	tcase_add_test(tc, test_prefix_table);
	tcase_add_test(tc, test_prefix_lookup);
	tcase_add_test(tc, test_aspa_table);
	tcase_add_test(tc, test_memory);
	tcase_add_test(tc, test_caches);
	tcase_add_test(tc, test_exec);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(rpki_show_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
