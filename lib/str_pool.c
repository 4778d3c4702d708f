/* SPDX-License-Identifier: ISC */
/* See str_pool.h. */
#include "lib/compat.h"

#include "lib/hash.h"
#include "lib/str_pool.h"

/* 8 KiB blocks: a daemon's command definitions intern some tens of KiB of distinct text. */
#define BLOCK_BYTES 8192
#define BLOCK_HEAD ((size_t)8) /* the link to the previous block (a pointer) */
_Static_assert(sizeof(char *) <= BLOCK_HEAD, "a block link must fit its head");

static char *pool_copy(struct str_pool *p, const char *s, size_t len)
{
	char *dst;

	if (len + 1 > BLOCK_BYTES - BLOCK_HEAD) {
		/* Longer than a block: a block of its own, linked behind the current one so the
		 * current one keeps filling. */
		char *big = XMALLOC(p->mtype, BLOCK_HEAD + len + 1);

		if (p->block) {
			memcpy(big, p->block, BLOCK_HEAD);
			memcpy(p->block, &big, BLOCK_HEAD);
		} else {
			memset(big, 0, BLOCK_HEAD);
			p->block = big;
			p->used = BLOCK_BYTES; /* full: the next string starts a new block */
		}
		dst = big + BLOCK_HEAD;
	} else {
		if (!p->block || p->used + len + 1 > BLOCK_BYTES) {
			char *b = XMALLOC(p->mtype, BLOCK_BYTES);

			memcpy(b, &p->block, BLOCK_HEAD);
			p->block = b;
			p->used = BLOCK_HEAD;
		}
		dst = p->block + p->used;
		p->used += len + 1;
	}
	memcpy(dst, s, len);
	dst[len] = '\0';
	return dst;
}

static void grow(struct str_pool *p)
{
	size_t n = p->nslots ? p->nslots * 2 : 256;
	const char **v = XCALLOC(p->mtype, n * sizeof(*v));

	for (size_t i = 0; i < p->nslots; i++) {
		const char *s = p->slots[i];
		size_t at;

		if (!s)
			continue;
		at = hash_bytes(s, strlen(s), 0) & (n - 1);
		while (v[at])
			at = (at + 1) & (n - 1);
		v[at] = s;
	}
	XFREE(p->mtype, p->slots);
	p->slots = v;
	p->nslots = n;
}

const char *str_pool_intern(struct str_pool *p, const char *s, size_t len)
{
	size_t at;

	if ((p->count + 1) * 4 > p->nslots * 3)
		grow(p);
	at = hash_bytes(s, len, 0) & (p->nslots - 1);
	for (;;) {
		const char *have = p->slots[at];

		if (!have)
			break;
		if (strncmp(have, s, len) == 0 && have[len] == '\0')
			return have;
		at = (at + 1) & (p->nslots - 1);
	}
	p->slots[at] = pool_copy(p, s, len);
	p->count++;
	return p->slots[at];
}

size_t str_pool_count(const struct str_pool *p)
{
	return p->count;
}

void str_pool_free(struct str_pool *p)
{
	while (p->block) {
		char *prev;

		memcpy(&prev, p->block, BLOCK_HEAD);
		XFREE(p->mtype, p->block);
		p->block = prev;
	}
	XFREE(p->mtype, p->slots);
	p->used = p->nslots = p->count = 0;
}
