/* SPDX-License-Identifier: ISC */
/*
 * The RPKI store: VRPs and ASPA records from every RTR cache, and validation against them.
 *
 * Sources. Each cache that feeds the store is a source (a small id, at most RPKI_SOURCE_MAX).
 * A record (a VRP, an ASPA) is held once, with the set of sources that announced it: the
 * effective data is the union over sources, and dropping a source (its data expired, it was
 * unconfigured, a more preferred cache has synchronised: RFC 8210 10) removes its bit from
 * every record and the records no source holds any more.
 *
 * Transactions. An RTR client collects the PDUs of one Cache Response and applies them at End
 * of Data: rpki_txn_begin(), one call per announcement or withdrawal, rpki_txn_commit(). Each
 * call checks the PDU against the source's data and the transaction so far (RFC 8210 5.6:
 * announcing what the source already holds, or withdrawing what it does not, is an error the
 * client reports to the cache); an error leaves the store untouched and the client aborts the
 * transaction. A reset transaction (the answer to a Reset Query) replaces the source's whole
 * set: what it does not announce again is withdrawn at commit. Nothing a transaction does is
 * visible, to validation or to the watcher, before rpki_txn_commit().
 *
 * Watcher. After a commit (or a source dropped), the watcher learns which routes may have a
 * new state: for every VRP prefix added or removed, vrp_changed() (routes equal to or more
 * specific than it); for any ASPA change, aspa_changed() (any path may be affected, so the
 * watcher walks everything it holds); when a commit changed so much that a full walk is
 * cheaper (more than RPKI_CHANGE_FULL_WALK prefixes), or the store went from unused to used
 * and back, all_changed() instead. The RIB is the watcher (bgpd/rib/bgp_rib_rpki.c) and does
 * the revalidation in bounded batches per loop turn.
 *
 * Memory: records come from MTYPE_RPKI_VRP / MTYPE_RPKI_ASPA (`show memory`), and
 * rpki_db_memory() counts them with the trees.
 */
#ifndef SKUA_RPKI_DB_H
#define SKUA_RPKI_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bgpd/rpki/rpki.h"
#include "lib/memory.h"
#include "lib/prefix.h"

struct bgp_aspath;

DECLARE_MTYPE(RPKI_DB);	  /* struct rpki_db, its trees and transactions */
DECLARE_MTYPE(RPKI_VRP);  /* VRP records */
DECLARE_MTYPE(RPKI_ASPA); /* ASPA records and their provider sets */

#define RPKI_SOURCE_MAX 32	      /* caches feeding one store at once */
#define RPKI_CHANGE_FULL_WALK 4096    /* prefixes changed by one commit beyond which: all_changed */
#define RPKI_ASPA_PROVIDERS_MAX 65535 /* providers in one ASPA record (RTR's 16-bit count) */

/* One Validated ROA Payload (RFC 6811 2: prefix, maximum length, origin AS). */
struct rpki_vrp {
	struct prefix prefix; /* host bits zero */
	uint8_t max_len;      /* prefix.prefixlen <= max_len <= 32 / 128 */
	uint32_t asn;	      /* 0: the prefix must not be originated (RFC 6483 4) */
};

struct rpki_db;
struct rpki_txn;

struct rpki_db *rpki_db_new(void);
void rpki_db_free(struct rpki_db *db);

/* The daemon's store (the route-maps' `match rpki` reads it; bgpd/main.c creates it). NULL
 * until set: then every route is RPKI_NOT_USED. */
struct rpki_db *rpki_db_default(void);
void rpki_db_set_default(struct rpki_db *db);

/* ---- sources ---- */

/* A new source named name (the cache's "host port", for logs and show). Returns its id
 * (0..RPKI_SOURCE_MAX-1), or -ENOSPC. */
int rpki_source_add(struct rpki_db *db, const char *name);
/* Remove every record of the source (expiry, unconfigured, superseded) and free its id. The
 * watcher is told what changed. */
void rpki_source_drop(struct rpki_db *db, int source);
/* Forget the source's data but keep its id (Cache Reset, a new session id): the next reset
 * transaction fills it again. */
void rpki_source_clear(struct rpki_db *db, int source);
size_t rpki_source_vrp_count(const struct rpki_db *db, int source, int family);
size_t rpki_source_aspa_count(const struct rpki_db *db, int source);

/* Whether validation is in use: at least one source exists (a cache is configured, even if
 * none is connected yet: routes are then RPKI_NOTFOUND, never NOT_USED). The RTR layer calls
 * this when the first cache is configured and when the last one is removed. */
void rpki_db_set_active(struct rpki_db *db, bool active);
bool rpki_db_active(const struct rpki_db *db);

/* ---- transactions ---- */

/* Changes of one source, applied together at commit. reset: the source's whole set follows. */
struct rpki_txn *rpki_txn_begin(struct rpki_db *db, int source, bool reset);
/*
 * One VRP announced (announce) or withdrawn. 0, or:
 *   -EEXIST  announced, and the source already holds it (or this transaction announced it)
 *   -ENOENT  withdrawn, and the source does not hold it
 *   -EINVAL  malformed: prefix length or max_len out of range, max_len < prefix length
 */
int rpki_txn_vrp(struct rpki_txn *txn, const struct rpki_vrp *vrp, bool announce);
/* One ASPA record: announced (replacing the source's record for the customer, RTR v2 has no
 * per-provider withdrawal) or withdrawn (providers ignored). Errors as rpki_txn_vrp(), except
 * that announcing a customer the source holds is a replacement, not -EEXIST (announcing it
 * twice in one transaction is); -EINVAL: customer AS 0, more than RPKI_ASPA_PROVIDERS_MAX
 * providers, or the customer among its own providers. Providers may come in any order. */
int rpki_txn_aspa(struct rpki_txn *txn, uint32_t customer_as, const uint32_t *providers,
		  size_t nproviders, bool announce);
/* Apply every change and tell the watcher; frees txn. Returns the number of records changed. */
size_t rpki_txn_commit(struct rpki_txn *txn);
/* Drop the transaction, store untouched; frees txn. */
void rpki_txn_abort(struct rpki_txn *txn);

/* ---- validation ---- */

/* RFC 6811 2 for a route to p whose AS_PATH is aspath. The origin: the last AS of a final
 * AS_SEQUENCE; for an empty path or a final confederation segment (a route originated in our
 * AS or confederation, learned over iBGP or our own) the local AS given below; a final AS_SET
 * (or no local AS given) has no origin, NONE, and matches no VRP. */
enum rpki_state rpki_validate(const struct rpki_db *db, const struct prefix *p,
			      const struct bgp_aspath *aspath);
/* The AS that originates routes with an empty path (RFC 6811 2: the BGP speaker's own AS);
 * 0: none (such routes have origin NONE). The RIB sets its instance's AS. */
void rpki_db_set_local_as(struct rpki_db *db, uint32_t asn);
/* The same for a known origin AS (origin_known false: NONE, as above). */
enum rpki_state rpki_validate_origin(const struct rpki_db *db, const struct prefix *p,
				     uint32_t origin, bool origin_known);
/* ASPA verification of aspath received from a neighbor in AS neighbor_as, by procedure dir.
 * The neighbor must be the path's first AS (else ASPA_INVALID); neighbor_as 0 skips that check
 * (a transparent route server, which does not add its AS). */
enum aspa_state rpki_aspa_verify(const struct rpki_db *db, const struct bgp_aspath *aspath,
				 uint32_t neighbor_as, enum aspa_dir dir);

/* ---- watcher ---- */

struct rpki_watch_ops {
	void (*vrp_changed)(void *arg, const struct prefix *p);
	void (*aspa_changed)(void *arg);
	void (*all_changed)(void *arg);
};
/* One watcher per store (the RIB of the instance); ops NULL removes it. */
void rpki_db_watch(struct rpki_db *db, const struct rpki_watch_ops *ops, void *arg);

/* ---- reading, for show commands ---- */

typedef int (*rpki_vrp_cb)(const struct rpki_vrp *vrp, void *arg);
/* Every VRP of family (AF_INET, AF_INET6, AF_UNSPEC both: IPv4 first) in prefix order, then
 * max_len, then asn; each once however many sources hold it. A non-zero return stops the
 * walk and is returned. */
int rpki_vrp_walk(const struct rpki_db *db, int family, rpki_vrp_cb cb, void *arg);
/* The VRPs that cover p (prefix equal to or shorter than p's and containing it): those that
 * decide p's state (`show rpki prefix`). */
int rpki_vrp_walk_covering(const struct rpki_db *db, const struct prefix *p, rpki_vrp_cb cb,
			   void *arg);
size_t rpki_vrp_count(const struct rpki_db *db, int family);

typedef int (*rpki_aspa_cb)(uint32_t customer_as, const uint32_t *providers, size_t n, void *arg);
/* Every ASPA record in customer order (providers sorted, the union over sources). */
int rpki_aspa_walk(const struct rpki_db *db, rpki_aspa_cb cb, void *arg);
size_t rpki_aspa_count(const struct rpki_db *db);

/* Bytes held by records, trees and indexes. */
size_t rpki_db_memory(const struct rpki_db *db);

#endif /* SKUA_RPKI_DB_H */
