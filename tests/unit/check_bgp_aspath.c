/* SPDX-License-Identifier: ISC */
/* AS paths: wire parsing, RFC 6793 merge, encoding for 2-octet peers, prepend, loops, text,
 * private AS stripping and set as-path exclude. */
#include "lib/compat.h"

#include "bgpd/wire/bgp_codec.h"
#include "bgpd/wire/bgp_open.h"
#include "tests/unit/codec_test.h"

static uint8_t wire[70000];
static uint8_t out[BGP_ASPATH_MAX_DATA];

/* Parse a wire path given in hex; returns the interned path or NULL (reason in *why). */
static struct bgp_aspath *wparse(const char *h, unsigned asn_size, bool as4_path, const char **why)
{
	size_t n = hex(wire, sizeof(wire), h), len = 0;

	*why = NULL;
	if (bgp_aspath_wire_parse(wire, n, asn_size, as4_path, out, &len, why) < 0)
		return NULL;
	return bgp_aspath_intern_data(out, len);
}

static void assert_text(const struct bgp_aspath *p, const char *want)
{
	char buf[8192];

	ck_assert_ptr_nonnull(p);
	ck_assert_int_ge(bgp_aspath_to_str(p, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, want);
}

static struct bgp_aspath *path(const char *s)
{
	struct bgp_aspath *p = bgp_aspath_from_str(s);

	ck_assert_msg(p != NULL, "cannot parse \"%s\"", s);
	return p;
}

START_TEST(test_wire_parse)
{
	struct bgp_aspath *p;
	const char *why;

	p = wparse("02 02 0000fde9 0000fdea 01 02 00000001 00000002", 4, false, &why);
	assert_text(p, "65001 65002 {1,2}");
	ck_assert_uint_eq(p->path_len, 3);
	ck_assert_uint_eq(p->first_as, 65001);
	bgp_aspath_unref(p);
	p = wparse("02 02 fde9 fdea 01 02 0001 0002", 2, false, &why);
	assert_text(p, "65001 65002 {1,2}");
	bgp_aspath_unref(p);
	p = wparse("03 02 0000fe4c 0000fe4d 02 01 fa56ea00 04 01 00000005", 4, false, &why);
	assert_text(p, "(65100 65101) 4200000000 [5]");
	ck_assert_uint_eq(p->path_len, 1);
	ck_assert_uint_eq(p->first_as, 4200000000u);
	bgp_aspath_unref(p);
	p = wparse("", 4, false, &why);
	assert_text(p, "");
	ck_assert_uint_eq(p->path_len, 0);
	ck_assert_uint_eq(p->first_as, 0);
	bgp_aspath_unref(p);
}
END_TEST

START_TEST(test_wire_malformed)
{
	const char *why;

	/* RFC 7606 7.2: overrun, underrun (a lone octet), zero length, unknown type. */
	ck_assert_ptr_null(wparse("02 03 0000fde9 0000fdea", 4, false, &why));
	ck_assert_str_eq(why, "AS_PATH segment overruns the attribute");
	ck_assert_ptr_null(wparse("02 01 0000fde9 02", 4, false, &why));
	ck_assert_str_eq(why, "AS_PATH ends inside a segment header");
	ck_assert_ptr_null(wparse("02 00", 4, false, &why));
	ck_assert_str_eq(why, "AS_PATH segment of length zero");
	ck_assert_ptr_null(wparse("05 01 0000fde9", 4, false, &why));
	ck_assert_str_eq(why, "AS_PATH segment of unknown type");
	ck_assert_ptr_null(wparse("00 01 0000fde9", 4, false, &why));
	/* A 2-octet path read as 4-octet overruns. */
	ck_assert_ptr_null(wparse("02 02 fde9 fdea", 4, false, &why));
	/* RFC 7607: AS 0. */
	ck_assert_ptr_null(wparse("02 02 fde9 0000", 2, false, &why));
	ck_assert_str_eq(why, "AS 0 in AS_PATH");
	/* RFC 6793 3: no confederation segments in AS4_PATH. */
	ck_assert_ptr_null(wparse("03 01 0000fe4c", 4, true, &why));
	ck_assert_str_eq(why, "confederation segment in AS4_PATH");
	ck_assert_ptr_null(wparse("04 01 0000fe4c", 4, true, &why));
}
END_TEST

START_TEST(test_text)
{
	static const char *const good[] = {
		"",	     "65001",	     "65001 65002 {1,2}", "(65001 65002) 65003",
		"[1,2] 3 4", "4294967295 1", "{7} 1 {3,4}",
	};
	struct bgp_aspath *p;
	size_t i;
	char small[8];

	for (i = 0; i < array_size(good); i++) {
		p = path(good[i]);
		assert_text(p, good[i]);
		bgp_aspath_unref(p);
	}
	/* Extra spaces are tolerated and normalised. */
	p = path("  1   2 { 3 , 4 }");
	assert_text(p, "1 2 {3,4}");
	/* Truncation is reported. */
	ck_assert_int_eq(bgp_aspath_to_str(p, small, sizeof(small)), -1);
	ck_assert_uint_eq(strlen(small), sizeof(small) - 1);
	bgp_aspath_unref(p);
	ck_assert_ptr_null(bgp_aspath_from_str("1 {2"));
	ck_assert_ptr_null(bgp_aspath_from_str("{}"));
	ck_assert_ptr_null(bgp_aspath_from_str("1 }"));
	ck_assert_ptr_null(bgp_aspath_from_str("{1 (2)}"));
	ck_assert_ptr_null(bgp_aspath_from_str("abc"));
	ck_assert_ptr_null(bgp_aspath_from_str("0"));
	ck_assert_ptr_null(bgp_aspath_from_str("4294967296"));
	ck_assert_ptr_null(bgp_aspath_from_str("1 -2"));
	ck_assert_ptr_null(bgp_aspath_from_str(NULL));
}
END_TEST

START_TEST(test_text_long_sequence)
{
	char s[4096], *o = s;
	struct bgp_aspath *p;
	int i;

	/* 300 ASes: two segments (255 + 45), printed as one run. */
	for (i = 1; i <= 300; i++)
		o += sprintf(o, "%s%d", i > 1 ? " " : "", i);
	p = path(s);
	ck_assert_uint_eq(p->data[0], AS_SEG_SEQUENCE);
	ck_assert_uint_eq(p->data[1], 255);
	ck_assert_uint_eq(p->data[2 + 255 * 4], AS_SEG_SEQUENCE);
	ck_assert_uint_eq(p->data[3 + 255 * 4], 45);
	ck_assert_uint_eq(p->path_len, 300);
	assert_text(p, s);
	bgp_aspath_unref(p);
}
END_TEST

START_TEST(test_intern)
{
	struct bgp_aspath *a, *b, *c;
	size_t before = bgp_aspath_count();

	a = path("65001 65002");
	b = path("65001 65002");
	c = path("65001 65003");
	ck_assert_ptr_eq(a, b);
	ck_assert_ptr_ne(a, c);
	ck_assert_uint_eq(a->refcnt, 2);
	ck_assert_uint_eq(bgp_aspath_count(), before + 2);
	bgp_aspath_unref(a);
	bgp_aspath_unref(b);
	bgp_aspath_unref(c);
	ck_assert_uint_eq(bgp_aspath_count(), before);
	/* intern_raw validates. */
	ck_assert_ptr_null(bgp_aspath_intern_raw((const uint8_t *)"\x02\x02\x00\x00", 4));
	ck_assert_ptr_null(bgp_aspath_intern_raw((const uint8_t *)"\x02\x00", 2));
	a = bgp_aspath_intern_raw((const uint8_t *)"\x02\x01\x01\x00\x00\x00", 6);
	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(a->path_len, 1);
	bgp_aspath_unref(a);
	a = bgp_aspath_empty();
	b = bgp_aspath_empty();
	ck_assert_ptr_eq(a, b);
	ck_assert_uint_eq(a->len, 0);
	bgp_aspath_unref(a);
	bgp_aspath_unref(b);
}
END_TEST

START_TEST(test_prepend)
{
	struct bgp_aspath *p, *q, *e;
	char s[4096], *o = s;
	int i;

	e = bgp_aspath_empty();
	p = bgp_aspath_prepend(e, 65001);
	assert_text(p, "65001");
	q = bgp_aspath_prepend(p, 65000);
	assert_text(q, "65000 65001");
	ck_assert_uint_eq(q->data[1], 2); /* one segment */
	ck_assert_uint_eq(q->path_len, 2);
	ck_assert_uint_eq(q->first_as, 65000);
	bgp_aspath_unref(p);
	bgp_aspath_unref(q);
	bgp_aspath_unref(e);
	/* Before a leading SET or confed segment: a new SEQUENCE. */
	p = path("{1,2}");
	q = bgp_aspath_prepend(p, 3);
	assert_text(q, "3 {1,2}");
	bgp_aspath_unref(p);
	bgp_aspath_unref(q);
	p = path("(65100) 1");
	q = bgp_aspath_prepend(p, 3);
	assert_text(q, "3 (65100) 1");
	bgp_aspath_unref(p);
	bgp_aspath_unref(q);

	/* 254 ASes: the 255th fits in the segment; the 256th opens a new one. */
	for (i = 2; i <= 255; i++)
		o += sprintf(o, "%s%d", i > 2 ? " " : "", i);
	p = path(s);
	ck_assert_uint_eq(p->data[1], 254);
	q = bgp_aspath_prepend(p, 1);
	ck_assert_uint_eq(q->len, 2 + 255 * 4);
	ck_assert_uint_eq(q->data[1], 255);
	ck_assert_uint_eq(q->path_len, 255);
	bgp_aspath_unref(p);
	p = bgp_aspath_prepend(q, 65000);
	ck_assert_uint_eq(p->data[0], AS_SEG_SEQUENCE);
	ck_assert_uint_eq(p->data[1], 1);
	ck_assert_uint_eq(p->data[6], AS_SEG_SEQUENCE);
	ck_assert_uint_eq(p->data[7], 255);
	ck_assert_uint_eq(p->path_len, 256);
	ck_assert_uint_eq(p->first_as, 65000);
	ck_assert(bgp_aspath_contains(p, 255));
	ck_assert(bgp_aspath_contains(p, 65000));
	bgp_aspath_unref(q);
	q = bgp_aspath_prepend(p, 65000);
	ck_assert_uint_eq(q->data[1], 2);
	ck_assert_uint_eq(q->path_len, 257);
	bgp_aspath_unref(p);
	bgp_aspath_unref(q);
	ck_assert_ptr_null(bgp_aspath_prepend(NULL, 1));
}
END_TEST

START_TEST(test_loop_and_length)
{
	struct bgp_aspath *p = path("(65100 65101) 1 2 {3,4} [5]");

	ck_assert(bgp_aspath_contains(p, 65100));
	ck_assert(bgp_aspath_contains(p, 2));
	ck_assert(bgp_aspath_contains(p, 4));
	ck_assert(bgp_aspath_contains(p, 5));
	ck_assert(!bgp_aspath_contains(p, 6));
	ck_assert(!bgp_aspath_contains(NULL, 6));
	/* RFC 4271 9.1.2.2 a: SEQUENCE counts each, SET one, confed none. */
	ck_assert_uint_eq(p->path_len, 3);
	/* The neighbouring AS skips the confederation part. */
	ck_assert_uint_eq(p->first_as, 1);
	ck_assert_uint_eq(bgp_aspath_leftmost(p), 0);
	ck_assert(bgp_aspath_has_confed(p));
	bgp_aspath_unref(p);
	p = path("{1,2} 3");
	ck_assert_uint_eq(p->first_as, 0);
	ck_assert_uint_eq(p->path_len, 2);
	ck_assert(!bgp_aspath_has_confed(p));
	bgp_aspath_unref(p);
}
END_TEST

/* Merge two text paths (AS_PATH in 4-octet form, AS4_PATH) and compare the result. */
static void merge(const char *p2s, const char *p4s, const char *want)
{
	struct bgp_aspath *p2 = path(p2s), *p4 = path(p4s), *m;
	uint8_t res[BGP_ASPATH_MAX_DATA];
	size_t len = 0;

	ck_assert_int_eq(bgp_aspath_as4_merge(p2->data, p2->len, p4->data, p4->len, res, &len), 0);
	m = bgp_aspath_intern_raw(res, (uint16_t)len);
	ck_assert_msg(m != NULL, "merge of \"%s\" and \"%s\" is not a valid path", p2s, p4s);
	assert_text(m, want);
	bgp_aspath_unref(m);
	bgp_aspath_unref(p2);
	bgp_aspath_unref(p4);
}

START_TEST(test_as4_merge)
{
	char s2[4096], s4[64], want[4096], *o = s2, *w = want;
	int i;

	/* RFC 6793 4.2.3: take the extra leading ASes of AS_PATH, then AS4_PATH. */
	merge("100 23456", "4200000000", "100 4200000000");
	merge("100 200 23456 23456", "4200000001 4200000002", "100 200 4200000001 4200000002");
	/* Same count: AS4_PATH alone. */
	merge("23456 23456", "4200000001 4200000002", "4200000001 4200000002");
	/* Fewer ASes in AS_PATH than AS4_PATH: AS4_PATH is ignored. */
	merge("23456", "1 2", "23456");
	/* A SET counts one. */
	merge("100 {23456,300}", "{4200000000,300}", "100 {4200000000,300}");
	merge("{100,200} 23456", "4200000000", "{100,200} 4200000000");
	/* Confederation segments count zero and are kept when leading. */
	merge("(65100) 100 23456", "4200000000", "(65100) 100 4200000000");
	merge("(65100) 23456", "4200000000", "(65100) 4200000000");
	/* A partly taken SEQUENCE is joined with AS4_PATH's first SEQUENCE. */
	merge("100 200 300", "4200000000 23", "100 4200000000 23");
	/* The join respects the 255 limit: 255 + 10 taken, AS4_PATH of 5. */
	for (i = 1; i <= 265; i++)
		o += sprintf(o, "%s%d", i > 1 ? " " : "", i);
	strcpy(s4, "4200000001 4200000002 4200000003 4200000004 4200000005");
	for (i = 1; i <= 260; i++)
		w += sprintf(w, "%d ", i);
	strcpy(w, s4);
	merge(s2, s4, want);
	/* Empty AS4_PATH data (the parser refuses it, the merge copes). */
	merge("1 2", "", "1 2");
}
END_TEST

START_TEST(test_encode)
{
	struct bgp_aspath *p = path("(65100) 65001 4200000000 {1,4200000001}");
	uint8_t buf[256], want[256];
	struct stream s;
	bool needs;
	size_t n;

	/* 4-octet peer: as is. */
	stream_init_writer(&s, buf, sizeof(buf));
	ck_assert_int_eq(bgp_aspath_encode(&s, p, true, &needs), 0);
	ck_assert(!needs);
	n = hex(want, sizeof(want),
		"40 02 1a 03 01 0000fe4c 02 02 0000fde9 fa56ea00 01 02 00000001 fa56ea01");
	ck_assert_uint_eq(s.endp, n);
	ck_assert_mem_eq(buf, want, n);
	/* 2-octet peer: AS_TRANS, and AS4_PATH without the confederation segment. */
	stream_init_writer(&s, buf, sizeof(buf));
	ck_assert_int_eq(bgp_aspath_encode(&s, p, false, &needs), 0);
	ck_assert(needs);
	ck_assert_int_eq(bgp_aspath_encode_as4(&s, p), 0);
	n = hex(want, sizeof(want),
		"40 02 10 03 01 fe4c 02 02 fde9 5ba0 01 02 0001 5ba0"
		"c0 11 14 02 02 0000fde9 fa56ea00 01 02 00000001 fa56ea01");
	ck_assert_uint_eq(s.endp, n);
	ck_assert_mem_eq(buf, want, n);
	bgp_aspath_unref(p);
	/* All mappable: no AS4_PATH needed. */
	p = path("65001 65002");
	stream_init_writer(&s, buf, sizeof(buf));
	ck_assert_int_eq(bgp_aspath_encode(&s, p, false, &needs), 0);
	ck_assert(!needs);
	/* No room. */
	stream_init_writer(&s, buf, 5);
	ck_assert_int_eq(bgp_aspath_encode(&s, p, true, &needs), -1);
	bgp_aspath_unref(p);
	/* Only confederation segments: nothing to put in AS4_PATH. */
	p = path("(4200000000)");
	stream_init_writer(&s, buf, sizeof(buf));
	ck_assert_int_eq(bgp_aspath_encode_as4(&s, p), 0);
	ck_assert_uint_eq(s.endp, 0);
	bgp_aspath_unref(p);
}
END_TEST

/* Every test releases what it interned (the module keeps the empty path). */
static void no_leak(void)
{
	ck_assert_uint_le(bgp_aspath_count(), 1);
}

/* remove-private-AS's building blocks: the private ranges, all-private, strip and replace. */
START_TEST(test_private_as)
{
	struct bgp_aspath *p = bgp_aspath_from_str("64512 64513"), *q;
	char buf[128];

	ck_assert(bgp_as_is_private(64512) && bgp_as_is_private(65535));
	ck_assert(bgp_as_is_private(4200000000u) && !bgp_as_is_private(64511));
	ck_assert(bgp_aspath_all_private(p));
	q = bgp_aspath_strip_private(p, 0, 0);
	bgp_aspath_to_str(q, buf, sizeof(buf));
	ck_assert_str_eq(buf, ""); /* every segment emptied and gone */
	bgp_aspath_unref(q);
	q = bgp_aspath_strip_private(p, 64513, 0); /* the neighbor's own AS stays */
	bgp_aspath_to_str(q, buf, sizeof(buf));
	ck_assert_str_eq(buf, "64513");
	bgp_aspath_unref(q);
	bgp_aspath_unref(p);
	p = bgp_aspath_from_str("");
	ck_assert(!bgp_aspath_all_private(p));
	bgp_aspath_unref(p);
}
END_TEST

/* What FRR's set as-path exclude does: every occurrence, in every kind of segment; a segment
 * left empty goes; the segments around it are not merged. */
static void check_exclude(const char *path, const uint32_t *asns, uint32_t n, const char *want)
{
	struct bgp_aspath *p = bgp_aspath_from_str(path), *q;
	char buf[256];

	ck_assert_ptr_nonnull(p);
	q = bgp_aspath_exclude(p, asns, n);
	ck_assert_ptr_nonnull(q);
	bgp_aspath_to_str(q, buf, sizeof(buf));
	ck_assert_msg(strcmp(buf, want) == 0, "exclude from \"%s\": \"%s\", want \"%s\"", path, buf,
		      want);
	bgp_aspath_unref(q);
	bgp_aspath_unref(p);
}

START_TEST(test_exclude)
{
	static const uint32_t one[] = { 65001 };
	static const uint32_t two[] = { 65002, 65001 };

	check_exclude("65001 65002 65001 65003", one, 1, "65002 65003");
	check_exclude("65002 {65001,65004} 65005", one, 1, "65002 {65004} 65005");
	check_exclude("65002 {65001} 65005", one, 1, "65002 65005"); /* two SEQUENCEs now */
	check_exclude("(65001 65006) [65001,65007] 65008", one, 1, "(65006) [65007] 65008");
	check_exclude("65001 65002", two, 2, ""); /* the whole path: an empty one, as FRR */
	check_exclude("65003 65004", two, 2, "65003 65004");
	check_exclude("", one, 1, "");
	ck_assert_ptr_null(bgp_aspath_exclude(NULL, one, 1));
	/* The segments are kept apart: 2 SEQUENCE segments, so 65002 and 65005 stay 2 hops
	 * in 2 segments and the path is not equal to the one-segment "65002 65005". */
	{
		struct bgp_aspath *p = bgp_aspath_from_str("65002 {65001} 65005");
		struct bgp_aspath *q = bgp_aspath_exclude(p, one, 1);
		struct bgp_aspath *flat = bgp_aspath_from_str("65002 65005");

		ck_assert_ptr_ne(q, flat);
		bgp_aspath_unref(flat);
		bgp_aspath_unref(q);
		bgp_aspath_unref(p);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("bgp_aspath");
	TCase *tc = tcase_create("aspath");

	tcase_add_test(tc, test_wire_parse);
	tcase_add_test(tc, test_wire_malformed);
	tcase_add_test(tc, test_text);
	tcase_add_test(tc, test_text_long_sequence);
	tcase_add_test(tc, test_intern);
	tcase_add_test(tc, test_prepend);
	tcase_add_test(tc, test_loop_and_length);
	tcase_add_test(tc, test_as4_merge);
	tcase_add_test(tc, test_encode);
	tcase_add_test(tc, test_private_as);
	tcase_add_test(tc, test_exclude);
	tcase_add_checked_fixture(tc, NULL, no_leak);
	suite_add_tcase(s, tc);
	return run_suite(s);
}
