/* SPDX-License-Identifier: ISC */
/*
 * Benchmark (not a test): the RPKI store (bgpd/rpki) loaded and queried as an RTR client and
 * the RIB would use it.
 *
 *   bench/bench_rpki [VRPs (500000)] [validations (1000000)]
 *
 * Load: N random VRPs (85% IPv4 /8../24 with max length up to 24, 15% IPv6 /19../48 with max
 * length up to 48; origins from 50,000 ASes), as one reset transaction of the first half then
 * serial transactions of 10,000 announcements each (a cache's first answer, then its
 * increments). Validation: M random prefixes (/24 and /48, origins drawn from the same ASes,
 * half of them taken from a stored VRP so that valid and invalid outcomes are frequent), each
 * validated against its path's origin. Reported: time per phase, the states counted, the
 * store's own bytes per VRP (rpki_db_memory()), and the VRP records' share (MTYPE_RPKI_VRP).
 * A fixed seed: runs are repeatable.
 */
#include "lib/compat.h"

#include <time.h>

#include "bgpd/rpki/rpki_db.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void random_vrp(struct rpki_vrp *v)
{
	uint64_t r = rnd();

	memset(v, 0, sizeof(*v));
	if (r % 100 < 85) {
		v->prefix.family = AF_INET;
		v->prefix.len = (uint8_t)(8 + (r >> 8) % 17);
		for (int i = 0; i < 4; i++)
			v->prefix.u.bytes[i] = (uint8_t)(rnd() >> 24);
		v->max_len = (uint8_t)(v->prefix.len + (r >> 16) % (25 - v->prefix.len));
	} else {
		v->prefix.family = AF_INET6;
		v->prefix.len = (uint8_t)(19 + (r >> 8) % 30);
		v->prefix.u.bytes[0] = 0x20;
		for (int i = 1; i < 8; i++)
			v->prefix.u.bytes[i] = (uint8_t)(rnd() >> 24);
		v->max_len = (uint8_t)(v->prefix.len + (r >> 16) % (49 - v->prefix.len));
	}
	prefix_apply_mask(&v->prefix);
	v->asn = 64496 + (uint32_t)((r >> 32) % 50000);
}

int main(int argc, char **argv)
{
	size_t nvrp = argc > 1 ? strtoul(argv[1], NULL, 10) : 500000;
	size_t nval = argc > 2 ? strtoul(argv[2], NULL, 10) : 1000000;
	struct rpki_db *db = rpki_db_new();
	int src = rpki_source_add(db, "bench 3323");
	struct rpki_vrp *vrps = malloc(nvrp * sizeof(*vrps)), v;
	struct rpki_txn *txn;
	size_t i, loaded = 0, dup = 0, states[4] = { 0 }, mem0;
	double t0, c0, tload, cload, tval, cval;

	if (!vrps || src < 0)
		return 1;
	for (i = 0; i < nvrp; i++)
		random_vrp(&vrps[i]);
	rpki_db_set_active(db, true);
	mem0 = rpki_db_memory(db);

	t0 = now();
	c0 = cpu();
	txn = rpki_txn_begin(db, src, true);
	for (i = 0; i < nvrp; i++) {
		if (i == nvrp / 2 || (i > nvrp / 2 && i % 10000 == 0)) {
			loaded += rpki_txn_commit(txn);
			txn = rpki_txn_begin(db, src, false);
		}
		if (rpki_txn_vrp(txn, &vrps[i], true) != 0)
			dup++; /* random duplicates: the cache would not send them */
	}
	loaded += rpki_txn_commit(txn);
	tload = now() - t0;
	cload = cpu() - c0;

	t0 = now();
	c0 = cpu();
	for (i = 0; i < nval; i++) {
		struct prefix p;
		uint32_t origin = 64496 + (uint32_t)(rnd() % 50000);

		if (i & 1) {
			/* inside a stored VRP: its origin half of the time */
			v = vrps[rnd() % nvrp];
			p = v.prefix;
			p.len = v.max_len;
			if (rnd() & 1)
				origin = v.asn;
		} else {
			random_vrp(&v);
			p = v.prefix;
			p.len = p.family == AF_INET ? 24 : 48;
			for (size_t k = 0; k < family_addr_bytes(p.family); k++)
				p.u.bytes[k] ^= (uint8_t)rnd();
			prefix_apply_mask(&p);
		}
		states[rpki_validate_origin(db, &p, origin, true)]++;
	}
	tval = now() - t0;
	cval = cpu() - c0;

	size_t count = rpki_vrp_count(db, AF_UNSPEC), mem = rpki_db_memory(db) - mem0;

	printf("load: %zu VRPs (%zu IPv4, %zu IPv6; %zu random duplicates refused) in %.3f s "
	       "(cpu %.3f s), %.0f VRPs/s\n",
	       count, rpki_vrp_count(db, AF_INET), rpki_vrp_count(db, AF_INET6), dup, tload, cload,
	       (double)loaded / cload);
	printf("validate: %zu prefixes in %.3f s (cpu %.3f s), %.0f ns each: valid %zu, "
	       "invalid %zu, not found %zu\n",
	       nval, tval, cval, cval * 1e9 / (double)nval, states[RPKI_VALID],
	       states[RPKI_INVALID], states[RPKI_NOTFOUND]);
	printf("memory: %zu bytes, %.1f bytes per VRP (of which VRP records %.1f)\n", mem,
	       (double)mem / (double)count, (double)MTYPE_RPKI_VRP->bytes / (double)count);
	rpki_db_free(db);
	free(vrps);
	return 0;
}
