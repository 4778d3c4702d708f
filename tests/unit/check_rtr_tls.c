/* SPDX-License-Identifier: ISC */
/*
 * RTR over TLS against an in-process OpenSSL server, with a CA and certificates the test
 * makes with the openssl command in a temporary directory: a good certificate synchronises
 * (and the status names the TLS version and the verified subject), a client certificate is
 * presented when the cache asks for one; a wrong CA, a certificate for another host and an
 * expired certificate each fail with OpenSSL's reason in the status.
 */
#include "lib/compat.h"

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/ssl.h>

#include "bgpd/rpki/rpki_db.h"
#include "tests/unit/rtr_test.h"

static char dir[64];
static uint8_t buf[RTR_PDU_MAX];

static void run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void run(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	ck_assert_msg(system(cmd) == 0, "failed: %s", cmd);
}

/* A CA, and a certificate signed by it with these SANs, valid for days (-1: expired). */
static void make_ca(const char *name)
{
	run("cd %s && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes "
	    "-keyout %s.key -out %s.pem -subj '/CN=%s' -days 30 2>/dev/null",
	    dir, name, name, name);
}

static void make_cert(const char *name, const char *ca, const char *san, int days)
{
	run("cd %s && printf 'subjectAltName=%s\\n' > %s.ext && "
	    "openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout %s.key "
	    "-out %s.csr -subj '/CN=%s' 2>/dev/null && "
	    "openssl x509 -req -in %s.csr -CA %s.pem -CAkey %s.key -CAcreateserial -out %s.pem "
	    "-days %d -extfile %s.ext 2>/dev/null",
	    dir, san, name, name, name, name, name, ca, ca, name, days, name);
}

static void setup(void)
{
	struct rtr_timers t = { .polling_period = 3600,
				.retry_interval = 60,
				.expire_interval = 7200 };

	snprintf(dir, sizeof(dir), "/tmp/check_rtr_tls.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	make_ca("ca");
	make_ca("otherca");
	make_cert("good", "ca", "IP:127.0.0.1,DNS:localhost", 30);
	make_cert("otherhost", "ca", "DNS:rtr.example", 30);
	make_cert("expired", "ca", "IP:127.0.0.1", -1);
	make_cert("client", "ca", "DNS:router.example", 30);
	rt_setup(10);
	rtr_timers_set(&t);
}

static void teardown(void)
{
	rt_teardown();
	run("rm -rf %s", dir);
}

static void tls_cache(uint16_t port, const char *ca, const char *cert, const char *key)
{
	char ca_path[128], cert_path[128], key_path[128], err[256] = "";
	struct rtr_cache_config c = {
		.transport = RTR_TRANSPORT_TLS,
		.host = "127.0.0.1",
		.port = port,
		.preference = 1,
		.ca_file = ca_path,
	};

	snprintf(ca_path, sizeof(ca_path), "%s/%s.pem", dir, ca);
	if (cert) {
		snprintf(cert_path, sizeof(cert_path), "%s/%s.pem", dir, cert);
		snprintf(key_path, sizeof(key_path), "%s/%s.key", dir, key);
		c.client_cert = cert_path;
		c.client_key = key_path;
	}
	ck_assert_msg(rtr_cache_set(&c, err, sizeof(err)) == 0, "rtr_cache_set: %s", err);
}

static void server(struct fake_cache *fc, const char *name)
{
	char cert[128], key[128];

	snprintf(cert, sizeof(cert), "%s/%s.pem", dir, name);
	snprintf(key, sizeof(key), "%s/%s.key", dir, name);
	fc_listen_tls(fc, cert, key);
}

static void sync_over_tls(struct fake_cache *fc)
{
	struct rtr_pdu q;
	struct rtr_cache_status s;

	ck_assert(fc_accept(fc, 5000));
	fc_expect(fc, RTR_PDU_RESET_QUERY, &q, buf, sizeof(buf));
	fc_cache_response(fc);
	fc_prefix(fc, true, "198.51.100.0/24", 24, 64500);
	fc_end_of_data(fc, 1, 3600, 600, 7200);
	rt_wait_state(1, RTR_STATE_ESTABLISHED, 3000);
	ck_assert(rt_has_vrp("198.51.100.0/24", 24, 64500));
	s = rt_status(1);
	ck_assert_msg(!strncmp(s.tls_version, "TLSv1.", 6), "tls_version %s", s.tls_version);
	ck_assert_msg(strstr(s.tls_peer, "CN=good") != NULL, "tls_peer %s", s.tls_peer);
}

START_TEST(test_good_certificate)
{
	struct fake_cache fc;

	server(&fc, "good");
	tls_cache(fc.port, "ca", NULL, NULL);
	sync_over_tls(&fc);
	fc_close(&fc);
}
END_TEST

START_TEST(test_client_certificate)
{
	struct fake_cache fc;
	char ca[128];

	server(&fc, "good");
	snprintf(ca, sizeof(ca), "%s/ca.pem", dir);
	ck_assert_int_eq(SSL_CTX_load_verify_locations(fc.ctx, ca, NULL), 1);
	SSL_CTX_set_verify(fc.ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, NULL);
	tls_cache(fc.port, "ca", "client", "client");
	sync_over_tls(&fc);
	fc_close(&fc);
}
END_TEST

START_TEST(test_client_key_mismatch)
{
	char ca[128], cert[128], key[128], err[256] = "";
	struct rtr_cache_config c = { .transport = RTR_TRANSPORT_TLS,
				      .host = "127.0.0.1",
				      .port = 324,
				      .preference = 1,
				      .ca_file = ca,
				      .client_cert = cert,
				      .client_key = key };

	snprintf(ca, sizeof(ca), "%s/ca.pem", dir);
	snprintf(cert, sizeof(cert), "%s/client.pem", dir);
	snprintf(key, sizeof(key), "%s/good.key", dir);
	ck_assert_int_lt(rtr_cache_check(&c, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "mismatch") != NULL, "%s",
		      err); /* OpenSSL: key values mismatch */
	c.client_key = NULL;
	ck_assert_int_lt(rtr_cache_check(&c, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "needs its key") != NULL, "%s", err);
}
END_TEST

/* The handshake fails; the status says why in OpenSSL's words. */
static void expect_failure(const char *server_cert, const char *ca, const char *reason)
{
	struct fake_cache fc;
	struct rtr_cache_status s;

	server(&fc, server_cert);
	tls_cache(fc.port, ca, NULL, NULL);
	ck_assert(!fc_accept(&fc, 3000));
	rt_wait_state(1, RTR_STATE_ERROR, 3000);
	s = rt_status(1);
	ck_assert_msg(strstr(s.last_error, "certificate verification failed") &&
			      strstr(s.last_error, reason),
		      "last_error \"%s\", wanted \"%s\"", s.last_error, reason);
	ck_assert_str_eq(s.tls_version, "");
	ck_assert_uint_eq(rpki_vrp_count(rt_db, AF_UNSPEC), 0);
	fc_close(&fc);
}

START_TEST(test_wrong_ca)
{
	expect_failure("good", "otherca", "unable to get local issuer certificate");
}
END_TEST

START_TEST(test_wrong_host)
{
	expect_failure("otherhost", "ca", "IP address mismatch");
}
END_TEST

START_TEST(test_expired)
{
	expect_failure("expired", "ca", "certificate has expired");
}
END_TEST

/* A cache that accepts TCP (the kernel does, from the listen queue) but never answers the
 * ClientHello: the handshake times out after 30 protocol seconds (300 ms here). */
START_TEST(test_handshake_timeout)
{
	struct fake_cache fc;
	struct rtr_cache_status s;

	server(&fc, "good");
	tls_cache(fc.port, "ca", NULL, NULL);
	rt_wait_state(1, RTR_STATE_TLS_HANDSHAKE, 3000);
	rt_wait_state(1, RTR_STATE_ERROR, 3000);
	s = rt_status(1);
	ck_assert_msg(strstr(s.last_error, "TLS handshake timed out"), "last_error: %s",
		      s.last_error);
	fc_close(&fc);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rtr_tls");
	TCase *tc = tcase_create("tls");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_good_certificate);
	tcase_add_test(tc, test_client_certificate);
	tcase_add_test(tc, test_client_key_mismatch);
	tcase_add_test(tc, test_wrong_ca);
	tcase_add_test(tc, test_wrong_host);
	tcase_add_test(tc, test_expired);
	tcase_add_test(tc, test_handshake_timeout);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
