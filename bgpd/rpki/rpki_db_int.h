/* SPDX-License-Identifier: ISC */
/*
 * The store's insides, shared by its files (rpki_db.c: the store, sources, watcher; rpki_vrp.c:
 * VRPs and origin validation; rpki_aspa.c: ASPA records and path verification; rpki_txn.c:
 * transactions). Nothing outside bgpd/rpki includes this.
 */
#ifndef SKUA_RPKI_DB_INT_H
#define SKUA_RPKI_DB_INT_H

#include "bgpd/rpki/rpki_db.h"
#include "lib/table.h"

/*
 * VRPs: one prefix tree per family maps a prefix to the VRPs on it (usually one). Each VRP is
 * 12 bytes there (max_len, asn, the sources holding it); the set is one allocation sorted by
 * (max_len, asn), which is also the walk order the header promises.
 */
struct vrp_ent {
	uint32_t asn;
	uint32_t sources; /* bit s: source s holds it; never 0 while stored */
	uint8_t max_len;
};

struct vrp_set {
	uint16_t n, cap;
	struct vrp_ent e[];
};

/* One ASPA record: the customer, each source's provider set, and their union (what
 * verification reads), all sorted ascending. */
struct aspa_src {
	uint32_t source;
	uint32_t n;
	uint32_t *prov;
};

struct aspa_rec {
	uint32_t customer;
	uint32_t sources;
	uint32_t nsrc; /* entries in src[] (one per bit of sources) */
	uint32_t nunion;
	uint32_t *uni;
	struct aspa_src *src;
};

/* What one commit (or a source dropped) changed, for the watcher. */
struct rpki_changes {
	struct prefix *pfx; /* VRP prefixes whose effective set changed (duplicates allowed) */
	size_t npfx, cap;
	bool overflow; /* more than RPKI_CHANGE_FULL_WALK: all_changed() instead */
	bool aspa;
};

struct rpki_db {
	struct ptree *vrp4, *vrp6;
	size_t vrp_bytes;	/* the vrp_set allocations */
	size_t vrp_count[2];	/* distinct VRPs, IPv4 and IPv6 */
	struct aspa_rec **aspa; /* sorted by customer */
	size_t naspa, aspa_cap;
	size_t aspa_bytes;     /* the records and their arrays */
	uint32_t sources_used; /* ids in use */
	char *source_name[RPKI_SOURCE_MAX];
	size_t src_vrp[RPKI_SOURCE_MAX][2]; /* VRPs each source holds, per family */
	size_t src_aspa[RPKI_SOURCE_MAX];
	uint32_t source_gen[RPKI_SOURCE_MAX]; /* bumped when a source is cleared or dropped */
	bool active;
	uint32_t local_as; /* origin of empty paths, 0 = none (rpki_db_set_local_as()) */
	const struct rpki_watch_ops *watch;
	void *watch_arg;
};

static inline int vrp_fam_idx(int family)
{
	return family == AF_INET6;
}

static inline struct ptree *vrp_tree(const struct rpki_db *db, int family)
{
	return family == AF_INET ? db->vrp4 : family == AF_INET6 ? db->vrp6 : NULL;
}

/* rpki_vrp.c */
/* Does source hold vrp? */
bool vrp_held(const struct rpki_db *db, const struct rpki_vrp *vrp, int source);
/* Give vrp source's bit (adds) or take it away (!add); the VRP record appears or goes when
 * the first source comes or the last one leaves, and its prefix is noted in ch. */
void vrp_set_source(struct rpki_db *db, const struct rpki_vrp *vrp, int source, bool add,
		    struct rpki_changes *ch);
/* Take source's bit from every VRP (ch notes the prefixes whose set changed). */
void vrp_drop_source(struct rpki_db *db, int source, struct rpki_changes *ch);
typedef void (*vrp_source_cb)(const struct rpki_vrp *vrp, void *arg);
/* Every VRP that source holds (the walk collects; cb may not change the store). */
void vrp_source_walk(const struct rpki_db *db, int source, vrp_source_cb cb, void *arg);
void vrp_free_all(struct rpki_db *db);

/* rpki_aspa.c */
const struct aspa_rec *aspa_find(const struct rpki_db *db, uint32_t customer);
/* Does source have a record for customer? Its providers in *prov, *n (a record may have
 * none). */
bool aspa_source_get(const struct rpki_db *db, uint32_t customer, int source, const uint32_t **prov,
		     uint32_t *n);
/* Set source's record for customer (providers sorted, unique) or remove it (prov NULL). */
void aspa_set_source(struct rpki_db *db, uint32_t customer, int source, const uint32_t *prov,
		     uint32_t n, bool present, struct rpki_changes *ch);
void aspa_drop_source(struct rpki_db *db, int source, struct rpki_changes *ch);
void aspa_free_all(struct rpki_db *db);

/* rpki_db.c */
void rpki_changes_note(struct rpki_changes *ch, const struct prefix *p);
/* Tell the watcher what ch says, then forget it. */
void rpki_changes_notify(struct rpki_db *db, struct rpki_changes *ch);

#endif /* SKUA_RPKI_DB_INT_H */
