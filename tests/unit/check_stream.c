/* SPDX-License-Identifier: ISC */
/*
 * lib/stream.h/.c: checked getters never read past the end (every buffer here is a heap
 * allocation of the exact length, so ASan flags a one-byte overread), sub-streams are bounded,
 * putters fail when full without writing, and the *_at setters check their bounds.
 */
#include "lib/compat.h"

#include <check.h>

#include "lib/core_mtypes.h"
#include "lib/stream.h"

static uint8_t *exact_copy(const void *src, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);

	if (len)
		memcpy(p, src, len);
	return p;
}

START_TEST(test_getters_values)
{
	static const uint8_t bytes[] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a,
					 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13 };
	uint8_t *buf = exact_copy(bytes, sizeof(bytes)), u8, out[3];
	struct stream s;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	stream_init_reader(&s, buf, sizeof(bytes));
	ck_assert_uint_eq(stream_readable(&s), 19);
	ck_assert_int_eq(stream_get_u8(&s, &u8), 0);
	ck_assert_uint_eq(u8, 0x01);
	ck_assert_int_eq(stream_get_u16(&s, &u16), 0);
	ck_assert_uint_eq(u16, 0x0203);
	ck_assert_int_eq(stream_get_u32(&s, &u32), 0);
	ck_assert_uint_eq(u32, 0x04050607);
	ck_assert_int_eq(stream_get_u64(&s, &u64), 0);
	ck_assert(u64 == 0x08090a0b0c0d0e0full);
	ck_assert_int_eq(stream_peek_u8(&s, 0, &u8), 0);
	ck_assert_uint_eq(u8, 0x10);
	ck_assert_int_eq(stream_peek_u8(&s, 3, &u8), 0);
	ck_assert_uint_eq(u8, 0x13);
	ck_assert_int_eq(stream_peek_u8(&s, 4, &u8), -1);
	ck_assert_int_eq(stream_skip(&s, 1), 0);
	ck_assert_int_eq(stream_get_bytes(&s, out, 3), 0);
	ck_assert_uint_eq(out[0], 0x11);
	ck_assert_uint_eq(out[2], 0x13);
	ck_assert_uint_eq(stream_readable(&s), 0);
	ck_assert_int_eq(stream_get_u8(&s, &u8), -1);
	free(buf);
}
END_TEST

/* Every getter on every short length: fails, consumes nothing, leaves the output untouched. */
START_TEST(test_getters_short)
{
	for (size_t len = 0; len < 9; len++) {
		uint8_t src[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
		uint8_t *buf = exact_copy(src, len), u8 = 0xaa, dst[16];
		uint16_t u16 = 0xaaaa;
		uint32_t u32 = 0xaaaaaaaa;
		uint64_t u64 = 7;
		struct stream s;

		stream_init_reader(&s, buf, len);
		ck_assert_int_eq(stream_get_u8(&s, &u8), len >= 1 ? 0 : -1);
		stream_init_reader(&s, buf, len);
		ck_assert_int_eq(stream_get_u16(&s, &u16), len >= 2 ? 0 : -1);
		stream_init_reader(&s, buf, len);
		ck_assert_int_eq(stream_get_u32(&s, &u32), len >= 4 ? 0 : -1);
		stream_init_reader(&s, buf, len);
		ck_assert_int_eq(stream_get_u64(&s, &u64), len >= 8 ? 0 : -1);
		if (len < 8) {
			ck_assert_uint_eq(s.getp, 0);
			ck_assert(u64 == 7);
		}
		if (len < 4)
			ck_assert_uint_eq(u32, 0xaaaaaaaa);
		if (len < 2)
			ck_assert_uint_eq(u16, 0xaaaa);

		for (size_t n = 0; n <= len + 2; n++) {
			stream_init_reader(&s, buf, len);
			ck_assert_int_eq(stream_get_bytes(&s, dst, n), n <= len ? 0 : -1);
			ck_assert_uint_eq(s.getp, n <= len ? n : 0);
			stream_init_reader(&s, buf, len);
			ck_assert_int_eq(stream_skip(&s, n), n <= len ? 0 : -1);
			stream_init_reader(&s, buf, len);
			ck_assert_int_eq(stream_peek_u8(&s, n, &u8), n < len ? 0 : -1);
		}
		/* a huge length must not wrap around (volatile: keep the compiler from
		 * warning about the memcpy() that the check prevents) */
		volatile size_t huge = SIZE_MAX;

		stream_init_reader(&s, buf, len);
		ck_assert_int_eq(stream_skip(&s, huge), -1);
		ck_assert_int_eq(stream_get_bytes(&s, dst, huge), -1);
		ck_assert_int_eq(stream_peek_u8(&s, huge, &u8), -1);
		free(buf);
	}
}
END_TEST

START_TEST(test_sub_stream_bounded)
{
	/* An "attribute" of length 3 followed by other data: the inner reader sees only 3 bytes. */
	static const uint8_t msg[] = { 0x03, 0xaa, 0xbb, 0xcc, 0xdd, 0xee };
	uint8_t *buf = exact_copy(msg, sizeof(msg)), len, u8;
	struct stream s, sub, subsub;
	uint16_t u16;
	uint32_t u32;

	stream_init_reader(&s, buf, sizeof(msg));
	ck_assert_int_eq(stream_get_u8(&s, &len), 0);
	ck_assert_int_eq(stream_get_sub(&s, len, &sub), 0);
	ck_assert_uint_eq(stream_readable(&sub), 3);
	ck_assert_uint_eq(s.getp, 4); /* consumed from the parent */
	ck_assert_int_eq(stream_get_u32(&sub, &u32), -1);
	ck_assert_int_eq(stream_get_u16(&sub, &u16), 0);
	ck_assert_uint_eq(u16, 0xaabb);
	ck_assert_int_eq(stream_get_u16(&sub, &u16), -1); /* 0xcc 0xdd would be past the sub */
	ck_assert_int_eq(stream_get_sub(&sub, 2, &subsub), -1);
	ck_assert_int_eq(stream_get_sub(&sub, 1, &subsub), 0);
	ck_assert_int_eq(stream_get_u8(&subsub, &u8), 0);
	ck_assert_uint_eq(u8, 0xcc);
	ck_assert_int_eq(stream_get_u8(&subsub, &u8), -1);
	ck_assert_uint_eq(stream_readable(&sub), 0);

	/* the parent continues after the sub-stream */
	ck_assert_int_eq(stream_get_u8(&s, &u8), 0);
	ck_assert_uint_eq(u8, 0xdd);
	/* an inner length beyond what the parent holds fails and consumes nothing */
	ck_assert_int_eq(stream_get_sub(&s, 2, &sub), -1);
	ck_assert_uint_eq(s.getp, 5);
	ck_assert_int_eq(stream_get_sub(&s, SIZE_MAX, &sub), -1);
	ck_assert_int_eq(stream_get_sub(&s, 1, &sub), 0);
	ck_assert_int_eq(stream_get_sub(&s, 0, &sub), 0); /* empty sub at the very end */
	ck_assert_uint_eq(stream_readable(&sub), 0);
	ck_assert_int_eq(stream_get_u8(&sub, &u8), -1);
	free(buf);
}
END_TEST

START_TEST(test_putters_full)
{
	for (size_t cap = 0; cap < 10; cap++) {
		uint8_t *buf = malloc(cap ? cap : 1);
		struct stream s;
		static const uint8_t src[9] = { 9, 8, 7, 6, 5, 4, 3, 2, 1 };

		stream_init_writer(&s, buf, cap);
		ck_assert_int_eq(stream_put_u64(&s, 0x0102030405060708ull), cap >= 8 ? 0 : -1);
		ck_assert_uint_eq(s.endp, cap >= 8 ? 8 : 0);
		stream_reset(&s);
		ck_assert_int_eq(stream_put_u32(&s, 0x01020304), cap >= 4 ? 0 : -1);
		stream_reset(&s);
		ck_assert_int_eq(stream_put_u16(&s, 0x0102), cap >= 2 ? 0 : -1);
		stream_reset(&s);
		ck_assert_int_eq(stream_put_bytes(&s, src, 9), cap >= 9 ? 0 : -1);
		ck_assert_uint_eq(s.endp, cap >= 9 ? 9 : 0);
		stream_reset(&s);

		/* fill byte by byte, then every putter fails and endp stays */
		for (size_t i = 0; i < cap; i++)
			ck_assert_int_eq(stream_put_u8(&s, (uint8_t)i), 0);
		ck_assert_uint_eq(stream_writable(&s), 0);
		ck_assert_int_eq(stream_put_u8(&s, 1), -1);
		ck_assert_int_eq(stream_put_u16(&s, 1), -1);
		ck_assert_int_eq(stream_put_u32(&s, 1), -1);
		ck_assert_int_eq(stream_put_u64(&s, 1), -1);
		ck_assert_int_eq(stream_put_bytes(&s, src, 1), -1);
		ck_assert_int_eq(stream_put_bytes(&s, src, 0), 0);
		ck_assert_uint_eq(s.endp, cap);
		for (size_t i = 0; i < cap; i++)
			ck_assert_uint_eq(buf[i], i);
		free(buf);
	}
}
END_TEST

START_TEST(test_put_values_and_roundtrip)
{
	uint8_t buf[15];
	struct stream w, r;
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	stream_init_writer(&w, buf, sizeof(buf));
	ck_assert_int_eq(stream_put_u8(&w, 0xfe), 0);
	ck_assert_int_eq(stream_put_u16(&w, 0x1234), 0);
	ck_assert_int_eq(stream_put_u32(&w, 0xdeadbeef), 0);
	ck_assert_int_eq(stream_put_u64(&w, 0x0011223344556677ull), 0);
	ck_assert_uint_eq(buf[1], 0x12);
	ck_assert_uint_eq(buf[2], 0x34);
	ck_assert_uint_eq(buf[3], 0xde);
	ck_assert_uint_eq(buf[14], 0x77);
	stream_init_reader(&r, buf, w.endp);
	ck_assert_int_eq(stream_get_u8(&r, &u8), 0);
	ck_assert_int_eq(stream_get_u16(&r, &u16), 0);
	ck_assert_int_eq(stream_get_u32(&r, &u32), 0);
	ck_assert_int_eq(stream_get_u64(&r, &u64), 0);
	ck_assert_uint_eq(u8, 0xfe);
	ck_assert_uint_eq(u16, 0x1234);
	ck_assert_uint_eq(u32, 0xdeadbeef);
	ck_assert(u64 == 0x0011223344556677ull);
}
END_TEST

START_TEST(test_set_at_bounds)
{
	uint8_t *buf = malloc(8);
	struct stream s;

	stream_init_writer(&s, buf, 8);
	/* nothing written yet: nothing to overwrite */
	ck_assert_int_eq(stream_set_u16_at(&s, 0, 0x1111), -1);
	ck_assert_int_eq(stream_set_u8_at(&s, 0, 0x11), -1);
	stream_put_u16(&s, 0);	 /* length placeholder */
	stream_put_u8(&s, 0xab); /* contents */
	ck_assert_int_eq(stream_set_u16_at(&s, 0, 0x0102), 0);
	ck_assert_uint_eq(buf[0], 0x01);
	ck_assert_uint_eq(buf[1], 0x02);
	ck_assert_int_eq(stream_set_u16_at(&s, 1, 0x0304), 0);
	ck_assert_uint_eq(buf[1], 0x03);
	ck_assert_uint_eq(buf[2], 0x04);
	/* straddling or past endp (even inside the capacity) is refused */
	ck_assert_int_eq(stream_set_u16_at(&s, 2, 0xffff), -1);
	ck_assert_int_eq(stream_set_u16_at(&s, 3, 0xffff), -1);
	ck_assert_int_eq(stream_set_u16_at(&s, SIZE_MAX, 0xffff), -1);
	ck_assert_int_eq(stream_set_u16_at(&s, SIZE_MAX - 1, 0xffff), -1);
	ck_assert_int_eq(stream_set_u8_at(&s, 2, 0x55), 0);
	ck_assert_uint_eq(buf[2], 0x55);
	ck_assert_int_eq(stream_set_u8_at(&s, 3, 0x55), -1);
	ck_assert_int_eq(stream_set_u8_at(&s, SIZE_MAX, 0x55), -1);
	ck_assert_uint_eq(s.endp, 3);
	free(buf);
}
END_TEST

START_TEST(test_heap_stream)
{
	uint64_t before = MTYPE_STREAM->allocated + MTYPE_STREAM_DATA->allocated;
	struct stream *s = stream_new(4), view;
	uint8_t local[4];
	uint32_t v;

	ck_assert(s->owned);
	ck_assert_uint_eq(stream_writable(s), 4);
	ck_assert_int_eq(stream_put_u32(s, 0xa1b2c3d4), 0);
	ck_assert_int_eq(stream_put_u8(s, 1), -1);
	ck_assert_int_eq(stream_resize(s, 2), -1); /* would cut written data */
	ck_assert_int_eq(stream_resize(s, 4096), 0);
	ck_assert_uint_eq(stream_writable(s), 4092);
	ck_assert_int_eq(stream_put_u8(s, 1), 0);
	ck_assert_int_eq(stream_get_u32(s, &v), 0);
	ck_assert_uint_eq(v, 0xa1b2c3d4);
	ck_assert_int_eq(stream_resize(s, 5), 0);
	ck_assert_uint_eq(s->size, 5);

	stream_init_writer(&view, local, sizeof(local));
	ck_assert_int_eq(stream_resize(&view, 100), -1); /* not ours to grow */

	stream_free(s);
	stream_free(NULL);
	ck_assert_uint_eq(MTYPE_STREAM->allocated + MTYPE_STREAM_DATA->allocated, before);

	s = stream_new(0);
	ck_assert_int_eq(stream_put_u8(s, 1), -1);
	ck_assert_int_eq(stream_resize(s, 1), 0);
	ck_assert_int_eq(stream_put_u8(s, 1), 0);
	stream_free(s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stream");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_getters_values);
	tcase_add_test(tc, test_getters_short);
	tcase_add_test(tc, test_sub_stream_bounded);
	tcase_add_test(tc, test_putters_full);
	tcase_add_test(tc, test_put_values_and_roundtrip);
	tcase_add_test(tc, test_set_at_bounds);
	tcase_add_test(tc, test_heap_stream);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
