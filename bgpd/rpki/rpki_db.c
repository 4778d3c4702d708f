/* SPDX-License-Identifier: ISC */
/*
 * The RPKI store: its life, its sources, the daemon's default store, and the watcher (what a
 * commit changed, told once the commit is done).
 */
#include "lib/compat.h"

#include <errno.h>
#include <malloc.h>

#include "bgpd/rpki/rpki_db_int.h"

DEFINE_MTYPE(RPKI_DB, "RPKI store");
DEFINE_MTYPE(RPKI_VRP, "RPKI VRPs");
DEFINE_MTYPE(RPKI_ASPA, "RPKI ASPA records");

static struct rpki_db *default_db;

struct rpki_db *rpki_db_new(void)
{
	struct rpki_db *db = XCALLOC(MTYPE_RPKI_DB, sizeof(*db));

	db->vrp4 = ptree_new(AF_INET);
	db->vrp6 = ptree_new(AF_INET6);
	return db;
}

void rpki_db_free(struct rpki_db *db)
{
	if (!db)
		return;
	if (db == default_db)
		default_db = NULL;
	vrp_free_all(db);
	aspa_free_all(db);
	for (int s = 0; s < RPKI_SOURCE_MAX; s++)
		XFREE(MTYPE_RPKI_DB, db->source_name[s]);
	XFREE(MTYPE_RPKI_DB, db);
}

struct rpki_db *rpki_db_default(void)
{
	return default_db;
}

void rpki_db_set_default(struct rpki_db *db)
{
	default_db = db;
}

/* ---- sources ---- */

static bool source_ok(const struct rpki_db *db, int source)
{
	return db && source >= 0 && source < RPKI_SOURCE_MAX && (db->sources_used & (1u << source));
}

int rpki_source_add(struct rpki_db *db, const char *name)
{
	for (int s = 0; s < RPKI_SOURCE_MAX; s++) {
		if (db->sources_used & (1u << s))
			continue;
		db->sources_used |= 1u << s;
		db->source_name[s] = XSTRDUP(MTYPE_RPKI_DB, name ? name : "");
		return s;
	}
	return -ENOSPC;
}

void rpki_source_clear(struct rpki_db *db, int source)
{
	struct rpki_changes ch = { 0 };

	if (!source_ok(db, source))
		return;
	db->source_gen[source]++; /* a transaction begun before applies nothing */
	vrp_drop_source(db, source, &ch);
	aspa_drop_source(db, source, &ch);
	rpki_changes_notify(db, &ch);
}

void rpki_source_drop(struct rpki_db *db, int source)
{
	if (!source_ok(db, source))
		return;
	rpki_source_clear(db, source);
	XFREE(MTYPE_RPKI_DB, db->source_name[source]);
	db->sources_used &= ~(1u << source);
}

size_t rpki_source_vrp_count(const struct rpki_db *db, int source, int family)
{
	if (!source_ok(db, source))
		return 0;
	if (family == AF_UNSPEC)
		return db->src_vrp[source][0] + db->src_vrp[source][1];
	return db->src_vrp[source][vrp_fam_idx(family)];
}

size_t rpki_source_aspa_count(const struct rpki_db *db, int source)
{
	return source_ok(db, source) ? db->src_aspa[source] : 0;
}

void rpki_db_set_active(struct rpki_db *db, bool active)
{
	if (db->active == active)
		return;
	db->active = active;
	/* Every route goes from NOT_USED to a state, or back. */
	if (db->watch && db->watch->all_changed)
		db->watch->all_changed(db->watch_arg);
}

void rpki_db_set_local_as(struct rpki_db *db, uint32_t asn)
{
	if (db->local_as == asn)
		return;
	db->local_as = asn;
	/* Our own routes' state may change: they are everywhere in the table. */
	if (db->active && db->watch && db->watch->all_changed)
		db->watch->all_changed(db->watch_arg);
}

bool rpki_db_active(const struct rpki_db *db)
{
	return db && db->active;
}

/* ---- watcher ---- */

void rpki_db_watch(struct rpki_db *db, const struct rpki_watch_ops *ops, void *arg)
{
	db->watch = ops;
	db->watch_arg = ops ? arg : NULL;
}

static int pfx_cmp(const void *a, const void *b)
{
	return prefix_cmp(a, b);
}

/* Sort the noted prefixes and drop the repeats. */
static void changes_unique(struct rpki_changes *ch)
{
	size_t i, u = 0;

	qsort(ch->pfx, ch->npfx, sizeof(*ch->pfx), pfx_cmp);
	for (i = 0; i < ch->npfx; i++)
		if (!u || prefix_cmp(&ch->pfx[u - 1], &ch->pfx[i]))
			ch->pfx[u++] = ch->pfx[i];
	ch->npfx = u;
}

void rpki_changes_note(struct rpki_changes *ch, const struct prefix *p)
{
	if (ch->overflow)
		return;
	if (ch->npfx == RPKI_CHANGE_FULL_WALK * 2) {
		/* Duplicates are possible (several VRPs on one prefix): count the distinct
		 * ones before giving up on the prefix list. */
		changes_unique(ch);
		if (ch->npfx > RPKI_CHANGE_FULL_WALK) {
			ch->overflow = true;
			XFREE(MTYPE_RPKI_DB, ch->pfx);
			ch->npfx = ch->cap = 0;
			return;
		}
	}
	if (ch->npfx == ch->cap) {
		ch->cap = ch->cap ? ch->cap * 2 : 16;
		ch->pfx = XREALLOC(MTYPE_RPKI_DB, ch->pfx, ch->cap * sizeof(*ch->pfx));
	}
	ch->pfx[ch->npfx++] = *p;
}

void rpki_changes_notify(struct rpki_db *db, struct rpki_changes *ch)
{
	const struct rpki_watch_ops *w = db->watch;
	size_t i;

	if (!ch->overflow && ch->npfx) {
		changes_unique(ch);
		if (ch->npfx > RPKI_CHANGE_FULL_WALK)
			ch->overflow = true;
	}
	if (w) {
		if (ch->overflow) {
			if (w->all_changed)
				w->all_changed(db->watch_arg);
		} else {
			if (w->vrp_changed)
				for (i = 0; i < ch->npfx; i++)
					w->vrp_changed(db->watch_arg, &ch->pfx[i]);
			/* A full walk covers the ASPA change too; else it has its own call. */
			if (ch->aspa && w->aspa_changed)
				w->aspa_changed(db->watch_arg);
		}
	}
	XFREE(MTYPE_RPKI_DB, ch->pfx);
	memset(ch, 0, sizeof(*ch));
}

size_t rpki_db_memory(const struct rpki_db *db)
{
	if (!db)
		return 0;
	return malloc_usable_size((void *)db) + ptree_memory(db->vrp4) + ptree_memory(db->vrp6) +
	       db->vrp_bytes + db->aspa_bytes +
	       (db->aspa ? malloc_usable_size((void *)db->aspa) : 0);
}
