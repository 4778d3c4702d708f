/* SPDX-License-Identifier: ISC */
/* OPEN and capabilities: byte vectors both ways, negotiation, every RFC 4271 6.2 error. */
#include "lib/compat.h"

#include "bgpd/wire/bgp_header.h"
#include "bgpd/wire/bgp_open.h"
#include "tests/unit/codec_test.h"

#define MARKER "ffffffffffffffffffffffffffffffff"

static struct bgp_open_local local_default(void)
{
	struct bgp_open_local l;

	memset(&l, 0, sizeof(l));
	l.asn = 65001;
	l.id = ip4("10.0.0.1");
	l.holdtime = 180;
	l.af[BGP_AF_IPV4_UNICAST] = true;
	l.af[BGP_AF_IPV6_UNICAST] = true;
	l.route_refresh = true;
	l.enhanced_rr = true;
	l.ext_message = true;
	l.remote_as_type = BGP_REMOTE_AS_SPECIFIED;
	l.remote_as = 65002;
	return l;
}

/* Decode an OPEN body given in hex. */
static int open_dec(const char *body, struct bgp_open *o, struct bgp_error *e)
{
	uint8_t buf[4096];
	size_t n = hex(buf, sizeof(buf), body);

	memset(e, 0, sizeof(*e));
	return bgp_open_decode(o, buf, n, e);
}

static int open_recv(const char *body, const struct bgp_open_local *l, struct bgp_open_result *r,
		     struct bgp_error *e)
{
	uint8_t buf[4096];
	size_t n = hex(buf, sizeof(buf), body);

	memset(e, 0, sizeof(*e));
	return bgp_open_receive(buf, n, l, r, e);
}

/* ---- encoding ---- */

START_TEST(test_encode_default)
{
	struct bgp_open_local l = local_default();
	uint8_t buf[4096], want[256];
	size_t n, wn;

	n = bgp_open_encode(buf, sizeof(buf), &l);
	wn = hex(want, sizeof(want),
		 MARKER "0039 01 | 04 fde9 00b4 0a000001 | 1c | 02 1a"
			"| 01 04 0001 00 01 | 01 04 0002 00 01 | 02 00 | 80 00 | 46 00 | 06 00"
			"| 41 04 0000fde9");
	ck_assert_uint_eq(n, wn);
	ck_assert_mem_eq(buf, want, n);
}
END_TEST

START_TEST(test_encode_as4_minimal)
{
	struct bgp_open_local l;
	uint8_t buf[4096], want[256];
	size_t n, wn;

	memset(&l, 0, sizeof(l));
	l.asn = 4200000000u;
	l.id = ip4("192.0.2.1");
	l.holdtime = 90;
	l.af[BGP_AF_IPV4_UNICAST] = true;
	n = bgp_open_encode(buf, sizeof(buf), &l);
	/* My AS is AS_TRANS (RFC 6793 4.1). */
	wn = hex(want, sizeof(want),
		 MARKER "002b 01 | 04 5ba0 005a c0000201 | 0e | 02 0c"
			"| 01 04 0001 00 01 | 41 04 fa56ea00");
	ck_assert_uint_eq(n, wn);
	ck_assert_mem_eq(buf, want, n);
	/* Does not fit: nothing written. */
	ck_assert_uint_eq(bgp_open_encode(buf, 40, &l), 0);
}
END_TEST

START_TEST(test_encode_extended_params)
{
	struct bgp_open_local l;
	uint8_t buf[4096], want[256];
	size_t n, wn;
	struct bgp_open o;
	struct bgp_error e;

	memset(&l, 0, sizeof(l));
	l.asn = 65001;
	l.id = ip4("10.0.0.1");
	l.holdtime = 180;
	l.af[BGP_AF_IPV4_UNICAST] = true;
	l.force_ext_opt_params = true;
	n = bgp_open_encode(buf, sizeof(buf), &l);
	/* RFC 9072: Non-Ext OP Len 255, type 255, 2-byte lengths. */
	wn = hex(want, sizeof(want),
		 MARKER "002f 01 | 04 fde9 00b4 0a000001 | ff ff 000f | 02 000c"
			"| 01 04 0001 00 01 | 41 04 0000fde9");
	ck_assert_uint_eq(n, wn);
	ck_assert_mem_eq(buf, want, n);
	/* And it decodes back. */
	ck_assert_int_eq(bgp_open_decode(&o, buf + 19, n - 19, &e), 0);
	ck_assert(o.ext_opt_params);
	ck_assert(o.caps.mp[BGP_AF_IPV4_UNICAST]);
	ck_assert(o.caps.as4);
	ck_assert_uint_eq(o.asn, 65001);
}
END_TEST

START_TEST(test_round_trip)
{
	struct bgp_open_local l = local_default(), peer = local_default();
	struct bgp_open_result r;
	struct bgp_error e;
	uint8_t buf[4096];
	size_t n;

	/* The peer (AS 65002) opens to us; we expect 65002. */
	peer.asn = 65002;
	peer.id = ip4("10.0.0.2");
	peer.holdtime = 90;
	n = bgp_open_encode(buf, sizeof(buf), &peer);
	ck_assert_uint_gt(n, 19);
	ck_assert_int_eq(bgp_open_receive(buf + 19, n - 19, &l, &r, &e), 0);
	ck_assert(r.af[BGP_AF_IPV4_UNICAST]);
	ck_assert(r.af[BGP_AF_IPV6_UNICAST]);
	ck_assert(r.as4);
	ck_assert(r.route_refresh);
	ck_assert(r.enhanced_rr);
	ck_assert(r.ext_message);
	ck_assert_uint_eq(r.holdtime, 90);
	ck_assert_uint_eq(r.keepalive, 30);
	ck_assert_uint_eq(r.remote_as, 65002);
	ck_assert_uint_eq(r.remote_id.s_addr, ip4("10.0.0.2").s_addr);
	ck_assert(r.ebgp);
	ck_assert(r.remote.route_refresh_old);
	ck_assert_uint_eq(r.remote.unknown, 0);
}
END_TEST

/* ---- decoding ---- */

START_TEST(test_decode_caps_in_separate_params)
{
	struct bgp_open o;
	struct bgp_error e;

	/* One capability per optional parameter (older speakers), with an unknown one (FQDN). */
	ck_assert_int_eq(open_dec("04 fdea 00b4 0a000002 | 1a"
				  "| 02 06 01 04 0002 00 01 | 02 02 80 00 | 02 04 49 02 0078"
				  "| 02 06 41 04 0000fdea",
				  &o, &e),
			 0);
	ck_assert_uint_eq(o.version, 4);
	ck_assert_uint_eq(o.my_as, 65002);
	ck_assert_uint_eq(o.holdtime, 180);
	ck_assert_uint_eq(o.asn, 65002);
	ck_assert(o.caps.present);
	ck_assert(o.caps.mp_any);
	ck_assert(!o.caps.mp[BGP_AF_IPV4_UNICAST]);
	ck_assert(o.caps.mp[BGP_AF_IPV6_UNICAST]);
	ck_assert(!o.caps.route_refresh);
	ck_assert(o.caps.route_refresh_old);
	ck_assert_uint_eq(o.caps.unknown, 1);
	ck_assert(!o.ext_opt_params);
}
END_TEST

START_TEST(test_decode_mp_other_family)
{
	struct bgp_open o;
	struct bgp_error e;

	/* IPv4 multicast (SAFI 2) and L2VPN EVPN: counted, ignored. */
	ck_assert_int_eq(open_dec("04 fdea 00b4 0a000002 | 0e | 02 0c 01 04 0001 00 02"
				  "| 01 04 0019 00 46",
				  &o, &e),
			 0);
	ck_assert(o.caps.mp_any);
	ck_assert(!o.caps.mp[BGP_AF_IPV4_UNICAST]);
	ck_assert_uint_eq(o.caps.unknown, 2);
}
END_TEST

START_TEST(test_decode_rfc9072)
{
	struct bgp_open o;
	struct bgp_error e;

	/* Non-Ext OP Len 255 + type 255 + 2-byte length; parameter length 2 bytes. */
	ck_assert_int_eq(
		open_dec("04 fdea 00b4 0a000002 | ff ff 0009 | 02 0006 01 04 0001 00 01", &o, &e),
		0);
	ck_assert(o.ext_opt_params);
	ck_assert(o.caps.mp[BGP_AF_IPV4_UNICAST]);
	/* RFC 9072 3: a Non-Ext OP Len other than 255 is ignored once type 255 follows. */
	ck_assert_int_eq(
		open_dec("04 fdea 00b4 0a000002 | 07 ff 0009 | 02 0006 01 04 0002 00 01", &o, &e),
		0);
	ck_assert(o.ext_opt_params);
	ck_assert(o.caps.mp[BGP_AF_IPV6_UNICAST]);
	/* Extended length overrunning the message. */
	ck_assert_int_eq(
		open_dec("04 fdea 00b4 0a000002 | ff ff 0010 | 02 0006 01 04 0001 00 01", &o, &e),
		-1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_UNSPECIFIC, "");
	/* Extended length field itself missing. */
	ck_assert_int_eq(open_dec("04 fdea 00b4 0a000002 | ff ff 00", &o, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_UNSPECIFIC, "");
}
END_TEST

START_TEST(test_decode_no_params)
{
	struct bgp_open o;
	struct bgp_error e;

	ck_assert_int_eq(open_dec("04 fdea 00b4 0a000002 00", &o, &e), 0);
	ck_assert(!o.caps.present);
	ck_assert(!o.caps.as4);
	ck_assert_uint_eq(o.asn, 65002);
}
END_TEST

START_TEST(test_decode_errors)
{
	struct bgp_open o;
	struct bgp_error e;

	/* RFC 4271 6.2: version; data = the version we support, 2 bytes. */
	ck_assert_int_eq(open_dec("03 fdea 00b4 0a000002 00", &o, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_OPEN_UNSUP_VERSION, "0004");
	ck_assert_int_eq(open_dec("05 fdea 00b4 0a000002 00", &o, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_OPEN_UNSUP_VERSION, "0004");
	/* Optional parameter length larger than what follows. */
	ck_assert_int_eq(open_dec("04 fdea 00b4 0a000002 08 02 02 02 00", &o, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_UNSPECIFIC, "");
	/* ... or smaller (trailing bytes). */
	ck_assert_int_eq(open_dec("04 fdea 00b4 0a000002 02 02 00 02 00", &o, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_UNSPECIFIC, "");
	/* A parameter overrunning the parameters. */
	ck_assert_int_eq(open_dec("04 fdea 00b4 0a000002 04 02 05 02 00", &o, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_UNSPECIFIC, "");
	/* A parameter header cut in half. */
	ck_assert_int_eq(open_dec("04 fdea 00b4 0a000002 01 02", &o, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_UNSPECIFIC, "");
	/* A capability overrunning its parameter. */
	ck_assert_int_eq(open_dec("04 fdea 00b4 0a000002 06 02 04 01 08 0001", &o, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_UNSPECIFIC, "");
	/* Unsupported optional parameter (1 = the old authentication parameter). */
	ck_assert_int_eq(open_dec("04 fdea 00b4 0a000002 04 01 02 0000", &o, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_OPEN_UNSUP_PARAM, "");
	/* Known capabilities with a wrong length. */
	ck_assert_int_eq(open_dec("04 fdea 00b4 0a000002 07 02 05 01 03 0001 01", &o, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_UNSPECIFIC, "");
	ck_assert_int_eq(open_dec("04 fdea 00b4 0a000002 06 02 04 41 02 fdea", &o, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_UNSPECIFIC, "");
	ck_assert_int_eq(open_dec("04 fdea 00b4 0a000002 05 02 03 02 01 00", &o, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_UNSPECIFIC, "");
	ck_assert_int_eq(open_dec("04 fdea 00b4 0a000002 05 02 03 06 01 00", &o, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_UNSPECIFIC, "");
	ck_assert_int_eq(open_dec("04 fdea 00b4 0a000002 05 02 03 46 01 00", &o, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_UNSPECIFIC, "");
}
END_TEST

/* ---- semantic checks and negotiation ---- */

START_TEST(test_bad_peer_as)
{
	struct bgp_open_local l = local_default();
	struct bgp_open_result r;
	struct bgp_error e;

	/* Not the configured AS: data is My AS, 2 bytes. */
	ck_assert_int_eq(open_recv("04 fde9 00b4 0a000002 00", &l, &r, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_OPEN_BAD_PEER_AS, "fde9");
	/* With the AS4 capability: data is its AS, 4 bytes. */
	ck_assert_int_eq(open_recv("04 fdeb 00b4 0a000002 08 02 06 41 04 0000fdeb", &l, &r, &e),
			 -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_OPEN_BAD_PEER_AS, "0000fdeb");
	/* AS 0 (RFC 7607), in My AS or in the capability. */
	l.remote_as = 0;
	ck_assert_int_eq(open_recv("04 0000 00b4 0a000002 00", &l, &r, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_OPEN_BAD_PEER_AS, "0000");
	ck_assert_int_eq(open_recv("04 5ba0 00b4 0a000002 08 02 06 41 04 00000000", &l, &r, &e),
			 -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_OPEN_BAD_PEER_AS, "00000000");
	/* My AS neither AS_TRANS nor the capability's AS. */
	ck_assert_int_eq(open_recv("04 fdea 00b4 0a000002 08 02 06 41 04 0000fdeb", &l, &r, &e),
			 -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_OPEN_BAD_PEER_AS, "0000fdeb");
	/* remote_as 0 = any: accepted. */
	ck_assert_int_eq(open_recv("04 fdeb 00b4 0a000002 08 02 06 41 04 0000fdeb", &l, &r, &e), 0);
	ck_assert_uint_eq(r.remote_as, 65003);
	/* internal / external. */
	l.remote_as_type = BGP_REMOTE_AS_INTERNAL;
	ck_assert_int_eq(open_recv("04 fdea 00b4 0a000002 00", &l, &r, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_OPEN_BAD_PEER_AS, "fdea");
	ck_assert_int_eq(open_recv("04 fde9 00b4 0a000002 00", &l, &r, &e), 0);
	ck_assert(!r.ebgp);
	l.remote_as_type = BGP_REMOTE_AS_EXTERNAL;
	ck_assert_int_eq(open_recv("04 fde9 00b4 0a000002 00", &l, &r, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_OPEN_BAD_PEER_AS, "fde9");
	ck_assert_int_eq(open_recv("04 fdea 00b4 0a000002 00", &l, &r, &e), 0);
	ck_assert(r.ebgp);
}
END_TEST

START_TEST(test_as4_peer)
{
	struct bgp_open_local l = local_default();
	struct bgp_open_result r;
	struct bgp_error e;

	l.remote_as = 4200000000u;
	ck_assert_int_eq(open_recv("04 5ba0 00b4 0a000002 08 02 06 41 04 fa56ea00", &l, &r, &e), 0);
	ck_assert_uint_eq(r.remote_as, 4200000000u);
	ck_assert(r.as4);
	/* Without the capability the peer would be AS 23456. */
	ck_assert_int_eq(open_recv("04 5ba0 00b4 0a000002 00", &l, &r, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_OPEN_BAD_PEER_AS, "5ba0");
}
END_TEST

START_TEST(test_hold_time)
{
	struct bgp_open_local l = local_default();
	struct bgp_open_result r;
	struct bgp_error e;

	ck_assert_int_eq(open_recv("04 fdea 0001 0a000002 00", &l, &r, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_OPEN_UNACCEPTABLE_HOLD, "0001");
	ck_assert_int_eq(open_recv("04 fdea 0002 0a000002 00", &l, &r, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_OPEN_UNACCEPTABLE_HOLD, "0002");
	ck_assert_int_eq(open_recv("04 fdea 0003 0a000002 00", &l, &r, &e), 0);
	ck_assert_uint_eq(r.holdtime, 3);
	ck_assert_uint_eq(r.keepalive, 1);
	ck_assert_int_eq(open_recv("04 fdea 0000 0a000002 00", &l, &r, &e), 0);
	ck_assert_uint_eq(r.holdtime, 0);
	ck_assert_uint_eq(r.keepalive, 0);
	ck_assert_int_eq(open_recv("04 fdea ffff 0a000002 00", &l, &r, &e), 0);
	ck_assert_uint_eq(r.holdtime, 180);
	l.holdtime = 0;
	ck_assert_int_eq(open_recv("04 fdea 00b4 0a000002 00", &l, &r, &e), 0);
	ck_assert_uint_eq(r.holdtime, 0);
}
END_TEST

START_TEST(test_bgp_identifier)
{
	struct bgp_open_local l = local_default();
	struct bgp_open_result r;
	struct bgp_error e;

	ck_assert_int_eq(open_recv("04 fdea 00b4 00000000 00", &l, &r, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_OPEN_BAD_BGP_ID, "00000000");
	/* Our own identifier: fine on eBGP ... */
	ck_assert_int_eq(open_recv("04 fdea 00b4 0a000001 00", &l, &r, &e), 0);
	/* ... not on iBGP (RFC 6286 2.2). */
	l.remote_as = 65001;
	ck_assert_int_eq(open_recv("04 fde9 00b4 0a000001 00", &l, &r, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_OPEN_BAD_BGP_ID, "0a000001");
	ck_assert_int_eq(open_recv("04 fde9 00b4 0a000003 00", &l, &r, &e), 0);
	ck_assert(!r.ebgp);
}
END_TEST

START_TEST(test_negotiation)
{
	struct bgp_open_local l = local_default();
	struct bgp_open_result r;
	struct bgp_error e;

	/* No capabilities at all: IPv4 unicast only, 2-octet AS, no route refresh. */
	ck_assert_int_eq(open_recv("04 fdea 005a 0a000002 00", &l, &r, &e), 0);
	ck_assert(r.af[BGP_AF_IPV4_UNICAST]);
	ck_assert(!r.af[BGP_AF_IPV6_UNICAST]);
	ck_assert(!r.as4);
	ck_assert(!r.route_refresh);
	ck_assert(!r.ext_message);
	ck_assert_uint_eq(r.holdtime, 90);
	/* Capabilities but no MP one: still implicit IPv4 unicast. */
	ck_assert_int_eq(open_recv("04 fdea 005a 0a000002 04 02 02 02 00", &l, &r, &e), 0);
	ck_assert(r.af[BGP_AF_IPV4_UNICAST]);
	ck_assert(r.route_refresh);
	/* IPv6 only on their side, both on ours. */
	ck_assert_int_eq(open_recv("04 fdea 005a 0a000002 08 02 06 01 04 0002 00 01", &l, &r, &e),
			 0);
	ck_assert(!r.af[BGP_AF_IPV4_UNICAST]);
	ck_assert(r.af[BGP_AF_IPV6_UNICAST]);
	/* Nothing in common: Unsupported Capability, data = our MP capabilities. */
	l.af[BGP_AF_IPV6_UNICAST] = false;
	ck_assert_int_eq(open_recv("04 fdea 005a 0a000002 08 02 06 01 04 0002 00 01", &l, &r, &e),
			 -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_OPEN_UNSUP_CAPABILITY, "01 04 0001 00 01");
	/* Extended message and enhanced route refresh need both sides. */
	l.af[BGP_AF_IPV6_UNICAST] = true;
	ck_assert_int_eq(open_recv("04 fdea 005a 0a000002 08 02 06 06 00 46 00 02 00", &l, &r, &e),
			 0);
	ck_assert(r.ext_message);
	ck_assert(r.enhanced_rr);
	ck_assert(r.route_refresh);
	l.ext_message = false;
	l.enhanced_rr = false;
	ck_assert_int_eq(open_recv("04 fdea 005a 0a000002 08 02 06 06 00 46 00 02 00", &l, &r, &e),
			 0);
	ck_assert(!r.ext_message);
	ck_assert(!r.enhanced_rr);
	ck_assert(r.remote.ext_message);
}
END_TEST

/* ---- graceful restart (RFC 4724, RFC 8538) and long-lived graceful restart (RFC 9494) ---- */

/* Decode an OPEN body from a heap copy of exactly its length: a read past the end is caught
 * by the sanitizers (the ASan build runs this suite). */
static int open_dec_exact(const char *body, struct bgp_open *o, struct bgp_error *e)
{
	uint8_t buf[4096], *copy;
	size_t n = hex(buf, sizeof(buf), body);
	int rc;

	copy = malloc(n);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, buf, n);
	memset(e, 0, sizeof(*e));
	rc = bgp_open_decode(o, copy, n, e);
	free(copy);
	return rc;
}

START_TEST(test_encode_gr)
{
	struct bgp_open_local l;
	uint8_t buf[4096], want[256];
	size_t n, wn;

	memset(&l, 0, sizeof(l));
	l.asn = 65001;
	l.id = ip4("10.0.0.1");
	l.holdtime = 180;
	l.af[BGP_AF_IPV4_UNICAST] = true;
	l.af[BGP_AF_IPV6_UNICAST] = true;
	/* Restart mode: R and N bits, 120 s, both families, F only on IPv4. */
	l.gr = true;
	l.gr_restart = true;
	l.gr_notification = true;
	l.gr_time = 120;
	l.gr_af[BGP_AF_IPV4_UNICAST] = l.gr_af[BGP_AF_IPV6_UNICAST] = true;
	l.gr_fwd[BGP_AF_IPV4_UNICAST] = true;
	/* LLGR: IPv6 only, F set, 3600 s. */
	l.llgr = true;
	l.llgr_time = 3600;
	l.llgr_af[BGP_AF_IPV6_UNICAST] = true;
	l.llgr_fwd[BGP_AF_IPV6_UNICAST] = true;
	n = bgp_open_encode(buf, sizeof(buf), &l);
	wn = hex(want, sizeof(want),
		 MARKER "0046 01 | 04 fde9 00b4 0a000001 | 29 | 02 27"
			"| 01 04 0001 00 01 | 01 04 0002 00 01"
			"| 40 0a c078 0001 01 80 0002 01 00"
			"| 47 07 0002 01 80 000e10"
			"| 41 04 0000fde9");
	ck_assert_uint_eq(n, wn);
	ck_assert_mem_eq(buf, want, n);

	/* Helper mode as FRR sends it: no families, N bit only; the restart time is masked to
	 * its 12 bits. */
	memset(l.gr_af, 0, sizeof(l.gr_af));
	l.gr_restart = false;
	l.gr_time = 0x1078;
	l.llgr = false;
	n = bgp_open_encode(buf, sizeof(buf), &l);
	wn = hex(want, sizeof(want),
		 MARKER "0035 01 | 04 fde9 00b4 0a000001 | 18 | 02 16"
			"| 01 04 0001 00 01 | 01 04 0002 00 01 | 40 02 4078"
			"| 41 04 0000fde9");
	ck_assert_uint_eq(n, wn);
	ck_assert_mem_eq(buf, want, n);
}
END_TEST

START_TEST(test_decode_gr)
{
	struct bgp_open o;
	struct bgp_error e;

	/* R and N, 4095 s; IPv4 with F, IPv6 without, IPv4 multicast ignored, then 3 bytes of a
	 * partial entry ignored as FRR does. */
	ck_assert_int_eq(open_dec_exact("04 fdea 00b4 0a000002 | 15 | 02 13"
					"| 40 11 cfff 0001 01 80 0002 01 00 0001 02 80 000201",
					&o, &e),
			 0);
	ck_assert(o.caps.gr);
	ck_assert(o.caps.gr_restart);
	ck_assert(o.caps.gr_notification);
	ck_assert_uint_eq(o.caps.gr_time, 4095);
	ck_assert(o.caps.gr_af[BGP_AF_IPV4_UNICAST]);
	ck_assert(o.caps.gr_fwd[BGP_AF_IPV4_UNICAST]);
	ck_assert(o.caps.gr_af[BGP_AF_IPV6_UNICAST]);
	ck_assert(!o.caps.gr_fwd[BGP_AF_IPV6_UNICAST]);
	ck_assert_uint_eq(o.caps.unknown, 0);

	/* Helper only (no families), no flags; the reserved bits 0x3000 are not the time. */
	ck_assert_int_eq(open_dec_exact("04 fdea 00b4 0a000002 | 06 | 02 04 | 40 02 3078", &o, &e),
			 0);
	ck_assert(o.caps.gr);
	ck_assert(!o.caps.gr_restart);
	ck_assert(!o.caps.gr_notification);
	ck_assert_uint_eq(o.caps.gr_time, 120);
	ck_assert(!o.caps.gr_af[BGP_AF_IPV4_UNICAST]);
	ck_assert(!o.caps.gr_af[BGP_AF_IPV6_UNICAST]);

	/* Shorter than its 2-byte header: malformed OPEN (2/0), as FRR. */
	ck_assert_int_eq(open_dec_exact("04 fdea 00b4 0a000002 | 04 | 02 02 | 40 00", &o, &e), -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_UNSPECIFIC, "");
	ck_assert_int_eq(open_dec_exact("04 fdea 00b4 0a000002 | 05 | 02 03 | 40 01 80", &o, &e),
			 -1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_UNSPECIFIC, "");
	/* Its length running past the message. */
	ck_assert_int_eq(
		open_dec_exact("04 fdea 00b4 0a000002 | 08 | 02 06 | 40 08 0078 0001 01", &o, &e),
		-1);
	assert_err(&e, BGP_ERR_OPEN, BGP_ERR_UNSPECIFIC, "");
}
END_TEST

START_TEST(test_decode_llgr)
{
	struct bgp_open o;
	struct bgp_error e;

	/* IPv4 F 1 s, IPv6 no F 16777215 s, a partial entry (6 bytes) ignored. */
	ck_assert_int_eq(
		open_dec_exact("04 fdea 00b4 0a000002 | 18 | 02 16"
			       "| 47 14 0001 01 80 000001 0002 01 00 ffffff 0001 01 80 0000",
			       &o, &e),
		0);
	ck_assert(o.caps.llgr);
	ck_assert(o.caps.llgr_af[BGP_AF_IPV4_UNICAST]);
	ck_assert(o.caps.llgr_fwd[BGP_AF_IPV4_UNICAST]);
	ck_assert_uint_eq(o.caps.llgr_time[BGP_AF_IPV4_UNICAST], 1);
	ck_assert(o.caps.llgr_af[BGP_AF_IPV6_UNICAST]);
	ck_assert(!o.caps.llgr_fwd[BGP_AF_IPV6_UNICAST]);
	ck_assert_uint_eq(o.caps.llgr_time[BGP_AF_IPV6_UNICAST], 0xffffff);
	/* Empty: the capability, no family. */
	ck_assert_int_eq(open_dec_exact("04 fdea 00b4 0a000002 | 04 | 02 02 | 47 00", &o, &e), 0);
	ck_assert(o.caps.llgr);
	ck_assert(!o.caps.llgr_af[BGP_AF_IPV4_UNICAST]);
}
END_TEST

START_TEST(test_negotiation_gr)
{
	struct bgp_open_local l = local_default(), peer = local_default();
	struct bgp_open_result r;
	struct bgp_error e;
	uint8_t buf[4096];
	size_t n;

	peer.asn = 65002;
	peer.id = ip4("10.0.0.2");
	/* The peer restarts (R), keeps IPv4's forwarding state, N bit, LLGR on IPv4. */
	peer.gr = true;
	peer.gr_restart = true;
	peer.gr_notification = true;
	peer.gr_time = 90;
	peer.gr_af[BGP_AF_IPV4_UNICAST] = true;
	peer.gr_fwd[BGP_AF_IPV4_UNICAST] = true;
	peer.llgr = true;
	peer.llgr_time = 86400;
	peer.llgr_af[BGP_AF_IPV4_UNICAST] = true;

	/* We advertise nothing of it: not negotiated, but what they sent is kept (show). */
	n = bgp_open_encode(buf, sizeof(buf), &peer);
	ck_assert_int_eq(bgp_open_receive(buf + 19, n - 19, &l, &r, &e), 0);
	ck_assert(!r.gr);
	ck_assert(!r.gr_notification);
	ck_assert(!r.llgr);
	ck_assert(r.remote.gr);
	ck_assert(r.remote.gr_restart);
	ck_assert_uint_eq(r.remote.gr_time, 90);
	ck_assert_uint_eq(r.remote.llgr_time[BGP_AF_IPV4_UNICAST], 86400);

	/* GR without N on our side: GR yes, N no; LLGR needs our LLGR too. */
	l.gr = true;
	ck_assert_int_eq(bgp_open_receive(buf + 19, n - 19, &l, &r, &e), 0);
	ck_assert(r.gr);
	ck_assert(!r.gr_notification);
	ck_assert(!r.llgr);
	l.gr_notification = true;
	l.llgr = true;
	ck_assert_int_eq(bgp_open_receive(buf + 19, n - 19, &l, &r, &e), 0);
	ck_assert(r.gr_notification);
	ck_assert(r.llgr);

	/* RFC 9494: LLGR without GR from the peer is not LLGR. */
	peer.gr = false;
	n = bgp_open_encode(buf, sizeof(buf), &peer);
	ck_assert_int_eq(bgp_open_receive(buf + 19, n - 19, &l, &r, &e), 0);
	ck_assert(!r.gr);
	ck_assert(!r.llgr);
	ck_assert(r.remote.llgr);
}
END_TEST

/* BGP Role (RFC 9234 4.1, code 9): the value kept for show; a bad length or an unknown value
 * is ignored (counted unknown), the OPEN still good. */
START_TEST(test_decode_role)
{
	struct bgp_open o;
	struct bgp_error e;

	ck_assert_int_eq(open_dec_exact("04 fdea 00b4 0a000002 | 05 | 02 03 | 09 01 03", &o, &e),
			 0);
	ck_assert(o.caps.role);
	ck_assert_uint_eq(o.caps.role_value, 3); /* customer */
	ck_assert_uint_eq(o.caps.unknown, 0);
	ck_assert_int_eq(open_dec_exact("04 fdea 00b4 0a000002 | 06 | 02 04 | 09 02 0300", &o, &e),
			 0);
	ck_assert(!o.caps.role);
	ck_assert_uint_eq(o.caps.unknown, 1);
	ck_assert_int_eq(open_dec_exact("04 fdea 00b4 0a000002 | 05 | 02 03 | 09 01 05", &o, &e),
			 0);
	ck_assert(!o.caps.role);
	ck_assert_uint_eq(o.caps.unknown, 1);
}
END_TEST

START_TEST(test_cap_names)
{
	ck_assert_str_eq(bgp_cap_name(BGP_CAP_AS4), "4 Byte AS");
	ck_assert_str_eq(bgp_cap_name(BGP_CAP_MP), "Multiprotocol Extensions");
	ck_assert_str_eq(bgp_cap_name(BGP_CAP_LLGR), "Long-lived Graceful Restart");
	ck_assert_str_eq(bgp_cap_name(BGP_CAP_ROLE), "Role");
	ck_assert_str_eq(bgp_cap_name(200), "Unknown");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bgp_open");
	TCase *enc = tcase_create("encode"), *dec = tcase_create("decode"),
	      *chk = tcase_create("check");

	tcase_add_test(enc, test_encode_default);
	tcase_add_test(enc, test_encode_as4_minimal);
	tcase_add_test(enc, test_encode_extended_params);
	tcase_add_test(enc, test_round_trip);
	tcase_add_test(dec, test_decode_caps_in_separate_params);
	tcase_add_test(dec, test_decode_mp_other_family);
	tcase_add_test(dec, test_decode_rfc9072);
	tcase_add_test(dec, test_decode_no_params);
	tcase_add_test(dec, test_decode_errors);
	tcase_add_test(chk, test_bad_peer_as);
	tcase_add_test(chk, test_as4_peer);
	tcase_add_test(chk, test_hold_time);
	tcase_add_test(chk, test_bgp_identifier);
	tcase_add_test(chk, test_negotiation);
	tcase_add_test(enc, test_encode_gr);
	tcase_add_test(dec, test_decode_gr);
	tcase_add_test(dec, test_decode_llgr);
	tcase_add_test(dec, test_decode_role);
	tcase_add_test(chk, test_negotiation_gr);
	tcase_add_test(chk, test_cap_names);
	suite_add_tcase(s, enc);
	suite_add_tcase(s, dec);
	suite_add_tcase(s, chk);
	return run_suite(s);
}
