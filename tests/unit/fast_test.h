/* SPDX-License-Identifier: ISC */
/*
 * For tests whose loops make hundreds of thousands of comparisons: Check records every passing
 * ck_assert() (a write to its log channel), and these only cost something on failure; and a
 * small repeatable generator (xorshift64*) for their random data.
 */
#ifndef SKUA_FAST_TEST_H
#define SKUA_FAST_TEST_H

#include <check.h>
#include <stdint.h>

#define FAST_ASSERT(c)                                                                       \
	do {                                                                                 \
		if (!(c))                                                                    \
			ck_abort_msg("%s:%d: assertion failed: %s", __FILE__, __LINE__, #c); \
	} while (0)
#define FAST_EQ(a, b) FAST_ASSERT((a) == (b))

/* The next number of the sequence in *state (never seeded with 0). */
static inline uint64_t xorshift64s(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545f4914f6cdd1dull;
}

#endif /* SKUA_FAST_TEST_H */
