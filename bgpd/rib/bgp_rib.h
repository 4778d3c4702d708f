/* SPDX-License-Identifier: ISC */
/*
 * The RIB side of bgpd: Adj-RIB-In and Loc-RIB in one structure (one struct bgp_dest per
 * prefix, holding one struct bgp_path per source), the change journal that drives the
 * Adj-RIB-Out (bgp_adj_out.c), and the per-session state of each peer.
 *
 * Layout, chosen for full tables (budget: about 140 bytes per prefix learned from one peer and
 * advertised to another, everything included):
 *   - prefix tree (lib/table.h) per address family, whose stored nodes hold the struct
 *     bgp_dest inline (ptree_new_inline()): the prefix is stored once, in the node's key,
 *     and there is no pointer from the tree to the dest nor an allocation of its own
 *   - struct bgp_dest: path list, peers advertised to (bitmap), version (16 bytes, packed:
 *     its node 32 bytes for IPv4, 44 for IPv6, plus the tree's glue nodes, 16 or 28 bytes);
 *     its prefix length and FIB flag are in the node's header, the selection (PATH_F_BEST
 *     and its reason) on the best path
 *   - struct bgp_path, slab-allocated: next, interned attribute set, source id, last update
 *     (16 bytes, packed; the list links are 32-bit handles into the slab, bgp_path_ref, and
 *     the set is named by its 32-bit id in the attribute store, path_attr())
 *   - the journal: one pointer per change, trimmed as soon as every peer has read it
 * There is no per-prefix per-peer object on the output side (see bgp_adj_out.c).
 *
 * Sources: every Established session is a struct rib_src with a small dense id. Paths name
 * their source by id (4 bytes instead of an 8-byte pointer) and the id is also the bit of the
 * session in every dest's "advertised to" bitmap. A session that goes down keeps its rib_src
 * (paths marked stale by src->up == false) until a bounded walk has removed its paths and bits;
 * if the peer comes back meanwhile, the new session gets a new rib_src and its paths replace
 * the stale ones prefix by prefix.
 */
#ifndef SKUA_BGP_RIB_H
#define SKUA_BGP_RIB_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include "bgpd/core/bgp.h"
#include "bgpd/core/bgp_msg.h"
#include "bgpd/rib/bgp_rib_api.h"
#include "bgpd/rib/bgp_slab.h"
#include "bgpd/wire/bgp_attr.h"
#include "bgpd/wire/bgp_update.h"
#include "lib/memory.h"
#include "lib/prefix.h"
#include "lib/table.h"

struct ev;
struct ptree;
struct ptree_where;
struct rib_gr;
struct rib_gr_walk;
struct adj_out_cache;
struct rmap_ctx;

DECLARE_MTYPE(BGP_RIB);	       /* struct bgp_rib and its tables */
DECLARE_MTYPE(BGP_RIB_PEER);   /* struct rib_peer */
DECLARE_MTYPE(BGP_RIB_SRC);    /* struct rib_src */
DECLARE_MTYPE(BGP_PATH_SLAB);  /* chunks of struct bgp_path */
DECLARE_MTYPE(BGP_JOURNAL);    /* change journal chunks */
DECLARE_MTYPE(BGP_ADV_BITMAP); /* "advertised to" bitmaps of more than 63 sessions */
DECLARE_MTYPE(BGP_ADJ_OUT);    /* output batches, pending output, export caches */
DECLARE_MTYPE(BGP_AGGREGATE);  /* aggregate-address (bgp_rib_aggregate.c) */

/* Defaults, as FRR's. */
#define BGP_DEFAULT_LOCAL_PREF 100
#define BGP_WEIGHT_LOCAL 32768

/* Work per loop turn (prefixes visited), see bgp_rib_work.c. */
#define RIB_BATCH 2000
#define RIB_TURN_BUDGET 4000
/* Down sessions whose paths and bits one walk of the table removes together. */
#define RIB_CLEAN_BATCH 64
/* A session whose journal cursor lags more than max(this, 2 x table size) entries behind is
 * switched to a walk of the table (bgp_adj_out.c), so the journal stays bounded. */
#define RIB_JOURNAL_LAG_MIN 65536

/* A path's handle in its RIB's path slab (bgp_slab.h), numbered in bgp_path_dir: 4 bytes where
 * a pointer is 8, in every path and every dest. 0 = none. Read it with bgp_path_at(). */
typedef uint32_t bgp_path_ref;

/* One path: what one source says about one prefix.
 *
 * Packed to 20 bytes (24 with the attribute pointer aligned): its slab keeps it 4-aligned
 * and the compiler reads attr unaligned. Never take a member's address. */
struct bgp_path {
	bgp_path_ref next;
	/* Its attribute set: interned, one reference held. Its id + 1 (0: none), read with
	 * path_attr(): 4 bytes where a pointer takes 8, on every path of every prefix. */
	uint32_t attr_ref;
	uint32_t src : 20;  /* struct rib_src id (0 = locally originated), < RIB_SRC_MAX */
	uint32_t flags : 6; /* PATH_F_* */
	/* On the selected path (PATH_F_BEST) only: why it won, enum bgp_sel_reason. It is kept
	 * here rather than in the dest, whose every byte costs a million nodes a byte. */
	uint32_t reason : 6;
	uint32_t uptime; /* wall clock seconds of the last change (Last update) */
} __attribute__((packed, aligned(4)));
_Static_assert(sizeof(struct bgp_path) == 16, "struct bgp_path is counted per prefix");
#define RIB_SRC_MAX (1u << 20)

/* path->flags. A path of a source kept across its session's loss (graceful restart, struct
 * rib_src) is stale as a whole through its source; these mark single paths. */
/* Not re-announced since an enhanced route refresh's BoRR (RFC 7313). */
#define PATH_F_STALE 0x01
/* Long-lived stale (RFC 9494): LLGR_STALE added, least preferred. */
#define PATH_F_LLGR_STALE 0x02
/* Announced since a BoRR, ahead of the walk that marks the session's paths stale: the walk
 * leaves it fresh and clears this (bgp_rib_refresh.c). */
#define PATH_F_RR_SEEN 0x04
/* A network statement whose `bgp network import-check` fails (no kernel route for it): kept in
 * the table as FRR keeps it, shown but never valid, so never best nor advertised. */
#define PATH_F_IMPORT_FAILED 0x08
/* The selected best path, always the head of its dest's list (dest_best()); never on any
 * other path. */
#define PATH_F_BEST 0x10

/* The dest's flags, in a spare byte of its tree node (bgp_dest_flags()). */
#define DEST_F_FIB 0x01 /* a route for it is installed in the kernel (bgpd/rib/bgp_rib_fib.c) */

/* One prefix: the inline value of its node in the AF's prefix tree, which holds the address
 * (bgp_dest_prefix()) and its length (bgp_dest_plen()). It lives from rib_dest_get() until the
 * journal frees it (no paths left, every reader past it: rib_journal_trim()).
 *
 * Packed to 16 bytes: the tree puts it right after the key, 4-aligned, which makes an IPv6
 * node 44 bytes and an IPv4 node 32 (x86 reads a word at any address; the compiler knows
 * these may be unaligned). Never take a member's address. */
struct bgp_dest {
	bgp_path_ref paths; /* best first when its PATH_F_BEST is set */
	uintptr_t adv;	    /* sessions this prefix is advertised to (bgp_adj_out.c) */
	uint32_t version;   /* journal position of the last change (low 32 bits) */
} __attribute__((packed));
_Static_assert(sizeof(struct bgp_dest) == 16, "struct bgp_dest is counted per prefix");

/* The chunk numbers of every RIB's path slab (bgp_rib.c): one table for the process, so that a
 * handle decodes without its RIB. */
extern struct bgp_slab_dir bgp_path_dir;

static inline struct bgp_path *bgp_path_at(bgp_path_ref ref)
{
	return ref ? (struct bgp_path *)bgp_slab_dir_at(&bgp_path_dir, ref, sizeof(struct bgp_path))
		   : NULL;
}
/* path's attribute set, NULL if it has none. */
static inline struct bgp_attr *path_attr(const struct bgp_path *path)
{
	return path->attr_ref ? bgp_attr_at(path->attr_ref - 1) : NULL;
}

/* Point path at interned set attr (NULL: none); the reference it held is the caller's. */
static inline void path_attr_set(struct bgp_path *path, const struct bgp_attr *attr)
{
	path->attr_ref = attr ? attr->id + 1 : 0;
}

/* The path lists are read through these; only bgp_rib.c and the decision's move of the best
 * to the head write the handles. */
static inline struct bgp_path *path_next(const struct bgp_path *path)
{
	return bgp_path_at(path->next);
}
/* dest's first path (its best when PATH_F_BEST is set), NULL when it has none. */
static inline struct bgp_path *dest_paths(const struct bgp_dest *dest)
{
	return bgp_path_at(dest->paths);
}
/* Whether dest has a path, without decoding the handle. */
static inline bool dest_has_paths(const struct bgp_dest *dest)
{
	return dest->paths != 0;
}

/*
 * The change journal of one address family: dests whose best path (or its attributes)
 * changed, in order. Positions are 64-bit and start at 1; the table version is the last
 * position used. A dest is appended again only when some reader has already gone past its
 * latest entry: see rib_journal_mark().
 */
#define RIB_JCHUNK 4096
struct rib_journal {
	struct bgp_dest ***chunk; /* chunk[i][j] is position base + i * RIB_JCHUNK + j */
	/* where[i][j]: where the withdrawal found the dest of chunk[i][j] in the tree, so that
	 * the trim frees it without a descent (rib_journal_note_where()). A chunk's array is
	 * made by its first note and goes with it: an announcement makes none. */
	struct ptree_where **where;
	uint32_t nwhere; /* where[] arrays allocated */
	uint32_t nchunk;
	uint32_t cap;
	uint64_t base;
	uint64_t tail;	 /* first live position */
	uint64_t head;	 /* next position to write */
	uint64_t passed; /* highest reader cursor ever: entries below it were read by
			  * someone (or are behind a walk that started later) */
};

/* Output state of one session for one address family (bgp_adj_out.c). */
enum rib_out_mode {
	RIB_OUT_OFF = 0, /* not negotiated */
	RIB_OUT_WALK,	 /* sending the whole table: ordered walk from walk_last */
	RIB_OUT_JOURNAL, /* following the journal from cursor */
};

struct rib_out_af {
	enum rib_out_mode mode;
	bool walk_started;
	bool eor_sent;
	struct prefix walk_last;
	uint64_t cursor;  /* WALK: where the journal will be read from after the walk */
	uint64_t eor_pos; /* send End-of-RIB once cursor reaches it */
	/* Enhanced route refresh (RFC 7313): a BoRR went out; the EoRR follows the walk's end
	 * once cursor reaches eorr_pos (set when the walk ends). */
	bool eorr_wait;
	uint64_t eorr_pos;
};

/* Why a path was refused on input (counted per source, shown by `show bgp neighbors`). */
struct rib_in_stats {
	uint32_t as_loop;	    /* our AS in AS_PATH (RFC 4271 9.1.2) */
	uint32_t originator_loop;   /* ORIGINATOR_ID is our router id (RFC 4456 8) */
	uint32_t cluster_loop;	    /* our cluster id in CLUSTER_LIST (RFC 4456 8) */
	uint32_t treat_as_withdraw; /* RFC 7606 */
	uint32_t filtered; /* denied by the inbound prefix list, filter-list or route-map */
};

/* A peer's enhanced route refresh of one family (bgp_rib_refresh.c). */
enum rib_rr_phase {
	RIB_RR_IDLE = 0,
	RIB_RR_MARKING,	 /* after its BoRR: the walk marking its paths stale */
	RIB_RR_OPEN,	 /* marked, waiting for its EoRR */
	RIB_RR_SWEEPING, /* after its EoRR: the walk removing what is still stale */
};

/* Long-lived graceful restart of one family of a session (bgp_rib_llgr.c). */
enum rib_llgr_phase {
	RIB_LLGR_IDLE = 0,
	RIB_LLGR_MARKING,  /* the walk adding LLGR_STALE (removing NO_LLGR routes) */
	RIB_LLGR_ON,	   /* long-lived stale until the stale time is over */
	RIB_LLGR_FLUSHING, /* the walk removing what is still long-lived stale */
};

/* One session (or the local source, id 0). */
struct rib_src {
	uint32_t id;
	bool local; /* network statements */
	bool up;    /* Established; false = its paths are stale and being removed */
	/* Down, but graceful restart keeps its paths usable (bgp_rib_gr.c; RFC 4724 4.2). */
	bool gr_stale;
	bool ebgp;    /* outside our confederation */
	bool confed;  /* another member AS of it: attributes as iBGP, not split-horizoned */
	bool blocked; /* waiting for rib_peer_writable() */
	bool nh_warned[BGP_AF_MAX]; /* logged that we have no next hop to send for the AF */
	struct bgp_peer *peer;	    /* NULL for the local source and after rib_peer_detach() */
	struct rib_peer *rp;	    /* likewise */
	char name[IPADDR_STRLEN];
	struct in_addr remote_id;
	uint32_t remote_as;
	struct ipaddr remote_addr;
	struct ipaddr local_addr;
	struct bgp_codec_ctx codec;
	size_t max_msg;
	bool af[BGP_AF_MAX];
	bool eor_rcvd[BGP_AF_MAX];
	bool gr_capable;	       /* negotiated Graceful Restart (bgp_session_info.gr) */
	bool gr_peer_restarting;       /* ... with the R bit: it waits for our End-of-RIB */
	uint32_t accepted[BGP_AF_MAX]; /* paths of this source in the RIB (pfxRcd) */
	uint32_t sent[BGP_AF_MAX];     /* dests whose bitmap has this source's bit (pfxSnt) */
	/* maximum-prefix: over the limit / past the warning threshold (logged once each, FRR's
	 * PEER_STATUS_PREFIX_LIMIT and _THRESHOLD). */
	bool pfx_over[BGP_AF_MAX];
	bool pfx_warned[BGP_AF_MAX];
	struct rib_in_stats in_stats;
	/* soft-reconfiguration inbound: prefix -> attributes as received (reference held), for
	 * re-running the inbound policy and `received-routes`; NULL when not kept. */
	struct ptree *adj_in[BGP_AF_MAX];
	int64_t up_since;
	/* Enhanced route refresh (bgp_rib_refresh.c): negotiated; per family the phase of the
	 * peer's refresh (enum rib_rr_phase), whether its EoRR came, the walk under way, until
	 * when at most, the prefixes announced or withdrawn since the BoRR (only when the routes
	 * are kept as received), the paths the sweep removed. */
	bool enhanced_rr;
	uint8_t rr_phase[BGP_AF_MAX];
	bool rr_eorr[BGP_AF_MAX];
	bool rr_started[BGP_AF_MAX];
	bool rr_adj_in_stage[BGP_AF_MAX];
	struct prefix rr_last[BGP_AF_MAX];
	uint64_t rr_deadline_ms[BGP_AF_MAX];
	struct ptree *rr_seen[BGP_AF_MAX]; /* prefix -> (void *)1 */
	uint32_t rr_removed[BGP_AF_MAX];
	struct ev *rr_ev;
	/* Long-lived graceful restart (bgp_rib_llgr.c): both sides advertised it (so it may be
	 * sent LLGR_STALE routes); the families whose paths are long-lived stale, until when. */
	bool llgr;
	uint32_t llgr_time[BGP_AF_MAX]; /* the peer's stale time per family, 0 = no LLGR */
	uint8_t llgr_phase[BGP_AF_MAX]; /* enum rib_llgr_phase */
	bool llgr_started[BGP_AF_MAX];	/* the walk under way, and where it is */
	struct prefix llgr_last[BGP_AF_MAX];
	uint32_t llgr_kept[BGP_AF_MAX], llgr_dropped[BGP_AF_MAX], llgr_removed[BGP_AF_MAX];
	uint64_t llgr_deadline_ms[BGP_AF_MAX];
	struct ev *llgr_ev;
	struct bgp_rib *llgr_rib; /* its timer's RIB */

	/* neighbor X default-originate (bgp_rib_deforig.c): the default route this session is
	 * sent in place of the table's, interned (reference held); NULL = none now. */
	struct bgp_attr *deforig[BGP_AF_MAX];

	/* Output (bgp_adj_out.c) */
	uint64_t mrai_last_ms; /* monotime of the last UPDATE batch sent (advertisement-interval) */
	struct ev *mrai_ev;    /* wakes the output when the interval is over */
	struct rib_out_af out[BGP_AF_MAX];
	struct adj_out_cache *cache;
	uint8_t *obuf; /* the UPDATE being filled (max_msg bytes) */
	struct bgp_update_builder oub;
	uint8_t *owire; /* its attributes as encoded (export_wire()); owire_len 0 = withdrawals */
	size_t owire_len;
	size_t owire_cap;
	enum bgp_af oaf;
	bool open;     /* oub holds an unfinished message */
	uint8_t *pend; /* encoded messages the session could not take yet */
	size_t pend_len;
	size_t pend_off;
	size_t pend_cap;
	/* While a batch of its is shared with its update group: every message is copied there. */
	struct adj_out_batch *tee;

	/* Removal of a down session's paths and bits (bgp_rib_work.c) */
	TAILQ_ENTRY(rib_src) clean_entry;
	/* Graceful restart (bgp_rib_gr.c): what the peer's capability said, then the helper's
	 * state once the session is lost; NULL when GR was not negotiated. */
	struct rib_gr *gr;
};

/* Are src's paths usable: its session is up, or graceful restart keeps them (stale). */
static inline bool rib_src_usable(const struct rib_src *src)
{
	return src->up || src->gr_stale;
}
TAILQ_HEAD(rib_src_list, rib_src);

/* Per configured peer: the current session, if any. */
struct rib_peer {
	struct bgp_peer *peer;
	struct rib_src *cur;
};

struct rib_af {
	struct ptree *tree; /* inline values: struct bgp_dest */
	struct rib_journal journal;
	uint64_t paths;	     /* paths stored */
	uint64_t dests_live; /* dests with a path: the routes operators are shown */
	/* Withdrawals received since the last announcement (bgp_rib.c, withdraw_by_index()). */
	uint64_t withdrawn_run;
	/* Emptied dests left in the tree by a draining trim, reclaimed in bulk
	 * (bgp_rib_drain.c): draining since a trim's burst, until the reclaim; the sweep's walk
	 * and its cursor. */
	bool draining;
	bool sweeping;
	bool sweep_started;
	struct prefix sweep_last;
	uint32_t drain_clears, drain_sweeps; /* reclaims of each kind so far (tests, debugging) */
};

/* ---- the forwarding side, as the RIB sees it (bgpd/rib/bgp_rib_fib.c) ---- */

#define RIB_MAXPATHS 64 /* maximum-paths' upper bound */

/* The next hops a prefix is forwarded over: its best path and the paths equal to it
 * (maximum-paths), distinct next hop addresses in order. */
struct rib_fib_set {
	unsigned n;
	struct ipaddr nh[RIB_MAXPATHS];
};

/*
 * Installed by bgpd/fib/bgp_fib.c (which talks to the kernel); unset in unit tests and with
 * --no-fib, where nothing is installed and every next hop counts as reachable. Each call gets
 * the arg given with the ops to rib_fib_attach().
 */
struct rib_fib_ops {
	/* Does the kernel reach this next hop (next-hop tracking)? */
	bool (*nexthop_valid)(void *arg, const struct ipaddr *nh);
	/* Has this next hop's resolution changed since the revalidation walk began? */
	bool (*nexthop_changed)(void *arg, const struct ipaddr *nh);
	/* The IGP cost to this next hop: the metric of the route that resolves it. */
	uint32_t (*nexthop_metric)(void *arg, const struct ipaddr *nh);
	/* Forward p over set (set->n == 0: remove it). Returns whether a route is installed. */
	bool (*install)(void *arg, enum bgp_af af, const struct prefix *p, bool ebgp,
			const struct rib_fib_set *set, bool installed);
	/* A revalidation walk begins (again); then it has visited every prefix (all: and
	 * re-synced each). */
	void (*walk_begin)(void *arg);
	void (*walk_done)(void *arg, bool all);
};

struct rib_fib {
	const struct rib_fib_ops *ops;	  /* NULL = no forwarding side */
	void *arg;			  /* ... and what its calls get */
	uint16_t maxpaths[BGP_AF_MAX][2]; /* [af][0] eBGP, [af][1] iBGP: maximum-paths */
	/* The revalidation walk (next hops changed, FIB attached, maximum-paths changed). */
	bool walk_on;
	bool walk_again; /* asked again while walking: start over when done */
	bool walk_all;	 /* sync every prefix, not only those with a changed next hop */
	bool walk_started;
	bool walk_begun; /* walk_begin() was called for the walk under way */
	enum bgp_af walk_af;
	struct prefix walk_last;
};

/* RPKI revalidation (bgp_rib_rpki.c): prefixes whose routes may have a new validation state,
 * queued per family (a queued prefix covers its more specifics), and the walk under way. */
struct rib_rpki {
	struct ptree *queue[BGP_AF_MAX]; /* prefix -> (void *)1 */
	bool on;			 /* a walk under root is under way */
	bool rib_phase;			 /* walking the Loc-RIB (after the sources' Adj-RIB-In) */
	bool started;
	enum bgp_af af;
	uint32_t src_id; /* the source whose Adj-RIB-In is walked */
	struct prefix root;
	struct prefix last;
};

struct bgp_rib {
	struct bgp *bgp;
	const struct bgp_session_ops *sops; /* the session side (bgpd/core/bgp_msg.h) */
	struct rib_fib fib;
	struct rib_af af[BGP_AF_MAX];
	struct bgp_slab path_slab;
	struct rib_src **src; /* by id; NULL = free id */
	uint32_t src_cap;
	struct rib_src local; /* id 0 */
	struct ev *work;
	uint32_t rr_next;	     /* output: the session served first next turn */
	struct rib_src_list clean_q; /* down sessions waiting for the removal walk */
	/* The removal walk (bgp_rib_work.c): the sessions it removes, and where it is. */
	struct rib_src *clean_batch[RIB_CLEAN_BATCH];
	unsigned nclean;
	enum bgp_af clean_af;
	bool clean_started;
	struct prefix clean_last;
	/* Giving memory back after large releases (bgp_rib_release.c): the most dests and paths
	 * held since the last time and since the table was last empty, and how many times it
	 * ran. */
	size_t release_mark;
	size_t release_peak;
	uint64_t release_count;
	uint32_t nsessions;	     /* Established sessions (journal readers) */
	struct adj_out_batch *batch; /* scratch for one output batch */
	uint64_t out_shared;	     /* batches also sent to sessions of the same update group */
	struct rib_rpki rpki;
	/* The restarting speaker's deferred selection (bgp_rib_gr_defer.c). */
	bool gr_deferring;
	struct ev *gr_timer;  /* select-defer-time */
	uint64_t gr_since_ms; /* monotime_ms() when the deferral began */
	bool rerun; /* rib_in_rerun(): kept routes through the policy again, not received */
	struct rib_gr_walk *gr; /* graceful restart's removals of stale families (bgp_rib_gr.c) */
	/* aggregate-address per family: prefix -> struct rib_aggr (bgp_rib_aggregate.c), NULL
	 * when none; some is waiting to be recomputed. */
	struct ptree *aggr[BGP_AF_MAX];
	bool aggr_dirty;
	/* default-originate (bgp_rib_deforig.c): to be evaluated again; the table version it
	 * was last evaluated at (a route-map's condition follows the table), when, how often at
	 * most (RIB_DEFORIG_INTERVAL_MS; tests set 0) and the timer that brings the next one. */
	bool deforig_dirty;
	uint64_t deforig_version;
	uint64_t deforig_last_ms;
	uint32_t deforig_interval_ms;
	struct ev *deforig_timer;
	/* The drain (bgp_rib_drain.c): brings the sweep once the withdrawals have stopped. */
	struct ev *drain_timer;
};

/* The session side's calls, for a peer of this RIB. */
static inline const struct bgp_session_ops *rib_sops(const struct bgp_peer *peer)
{
	return peer->bgp->rib->sops;
}

/* The Adj-RIB-In as received (soft-reconfiguration inbound), or NULL (show commands). */
const struct ptree *rib_adj_in(const struct rib_src *src, enum bgp_af af);

/* ---- internal API of the RIB side (bgp_rib.c) ---- */

/* RFC 8212: src's updates in direction dir are discarded for want of a policy; log it (rate
 * limited per instance, as FRR). */
void rib_policy_missing_warn(struct bgp_rib *rib, const struct rib_src *src, enum bgp_af af,
			     enum bgp_dir dir);

void bgp_dest_prefix(const struct bgp_dest *dest, enum bgp_af af, struct prefix *p);
/* The dest of p, made (without paths) if the table has none. */
struct bgp_dest *rib_dest_get(struct bgp_rib *rib, enum bgp_af af, const struct prefix *p);
static inline struct rib_src *rib_src_get(const struct bgp_rib *rib, uint32_t id)
{
	return id < rib->src_cap ? rib->src[id] : NULL;
}
static inline struct bgp_path *dest_best(const struct bgp_dest *dest)
{
	struct bgp_path *head = dest_paths(dest);

	return head && (head->flags & PATH_F_BEST) ? head : NULL;
}
static inline unsigned bgp_dest_plen(const struct bgp_dest *dest, enum bgp_af af)
{
	return ptree_inline_len(bgp_af_family(af), dest);
}
/* DEST_F_* of dest: a byte of its node's header. */
static inline uint8_t *bgp_dest_flags(struct bgp_dest *dest, enum bgp_af af)
{
	return ptree_inline_spare(bgp_af_family(af), dest);
}
/* Remove the path of src (if any) from dest, re-run the decision and journal the change.
 * Does not free the dest (the journal does, see rib_journal_trim()). */
void rib_dest_remove_src(struct bgp_rib *rib, enum bgp_af af, struct bgp_dest *dest,
			 struct rib_src *src);
/* Give path (of dest) the attribute set attr (a reference is taken), re-run the decision and
 * journal the change. */
void rib_path_set_attr(struct bgp_rib *rib, enum bgp_af af, struct bgp_dest *dest,
		       struct bgp_path *path, struct bgp_attr *attr);
void rib_src_free(struct bgp_rib *rib, struct rib_src *src);
/* A prefix of src's kept Adj-RIB-In (received: the attributes as received) through the inbound
 * policy again, as soft-reconfiguration inbound does: the RIB changes only if the outcome did. */
void rib_in_rerun(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af, const struct prefix *p,
		  const struct bgp_attr *received, uint32_t now);
/* neighbor X maximum-prefix against what src has accepted now (after its routes went through
 * the inbound policy again). */
void rib_src_max_prefix_check(struct rib_src *src, enum bgp_af af);
/* Does the neighbor's route-map for af in dir have a match rpki / match aspa clause? */
bool rib_rmap_validates(const struct bgp_peer *peer, enum bgp_af af, enum bgp_dir dir);
/* The route-map context of a route from src: its AS, and the ASPA procedure of its role (NULL
 * for our own routes). */
const struct rmap_ctx *rib_rmap_ctx(const struct rib_src *src, struct rmap_ctx *buf);

/* Walks kept per source and family (refresh, LLGR; bgp_rib_work.c): is one under way, and
 * run them, in source then family order, visiting at most budget prefixes. step may end with
 * the source freed (a flush releasing it): it is looked up again after every step. */
typedef bool (*rib_src_af_walking_fn)(const struct rib_src *src, enum bgp_af af);
typedef size_t (*rib_src_af_step_fn)(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af,
				     size_t budget);
bool rib_src_af_walk_pending(const struct bgp_rib *rib, rib_src_af_walking_fn walking);
size_t rib_src_af_walk_run(struct bgp_rib *rib, rib_src_af_walking_fn walking,
			   rib_src_af_step_fn step, size_t budget);

/* Enhanced route refresh, receiving side (bgp_rib_refresh.c). The refresh of af by src ends
 * as if its EoRR had come (the stale-path timer ran out; tests call it directly). */
void rib_refresh_expire(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af);
/* src's path for p was announced (or, with rib->rerun, its kept route went through the
 * policy again): its refresh marks as that makes them. */
void rib_refresh_path_updated(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af,
			      const struct prefix *p, struct bgp_path *path);
/* src announced or withdrew p (its kept Adj-RIB-In changed): remembered during a refresh. */
void rib_refresh_touched(struct rib_src *src, enum bgp_af af, const struct prefix *p);
/* The marking and sweeping walks, bounded (bgp_rib_work.c). */
bool rib_refresh_pending(const struct bgp_rib *rib);
size_t rib_refresh_run(struct bgp_rib *rib, size_t budget);
/* src goes: its refreshes end without removing anything, their timer and lists go. */
void rib_refresh_src_stop(struct rib_src *src);

/* Long-lived graceful restart (bgp_rib_llgr.c, RFC 9494). The kept paths of src in af become
 * long-lived stale for seconds (the peer's stale time for af): LLGR_STALE added, least
 * preferred, sent only to sessions with LLGR; those with NO_LLGR are removed. Called when
 * graceful restart's time for them runs out, or at the session's loss when only LLGR was
 * negotiated. The walk doing it runs with the RIB's work (rib_work_run() in tests). */
void rib_llgr_start(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af, uint32_t seconds);
/* The stale time of src in af ran out (its timer; tests call it directly): a walk removes the
 * long-lived stale paths. */
void rib_llgr_expire(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af);
/* Is af of src long-lived stale (or entering or leaving it)? */
bool rib_llgr_active(const struct rib_src *src, enum bgp_af af);
/* The walks, bounded (bgp_rib_work.c). */
bool rib_llgr_pending(const struct bgp_rib *rib);
size_t rib_llgr_run(struct bgp_rib *rib, size_t budget);
/* Graceful restart's time for src's kept af ran out (or af was not in its GR capability):
 * true when LLGR takes af over (its paths stay, long-lived stale for the peer's stale time),
 * false when the peer has no LLGR for af (the caller removes them). */
bool rib_llgr_takeover(struct bgp_rib *rib, struct rib_src *src, enum bgp_af af);
/* src goes: its LLGR timer goes (its paths are removed with it). */
void rib_llgr_src_stop(struct rib_src *src);
/* Does attr (an interned set) carry LLGR_STALE (RFC 9494 4.3: least preferred, only for LLGR
 * sessions)? */
bool rib_attr_llgr_stale(const struct bgp_attr *attr);

/* Journal (bgp_adj_out.c) */
void rib_journal_mark(struct bgp_rib *rib, enum bgp_af af, struct bgp_dest *dest);
/* dest was left without paths by a withdrawal that found it at *w: kept with its latest
 * journal entry, for the trim's delete (nothing when it has none). */
void rib_journal_note_where(struct bgp_rib *rib, enum bgp_af af, const struct bgp_dest *dest,
			    const struct ptree_where *w);
/* Drop entries every reader has passed (at most max); frees dests left without paths. */
size_t rib_journal_trim(struct bgp_rib *rib, enum bgp_af af, size_t max);
void rib_journal_free(struct bgp_rib *rib, enum bgp_af af);
static inline uint64_t rib_af_version(const struct bgp_rib *rib, enum bgp_af af)
{
	return rib->af[af].journal.head - 1;
}

/* Work scheduler (bgp_rib_work.c) */
void rib_work_init(struct bgp_rib *rib);
void rib_work_fini(struct bgp_rib *rib);
void rib_work_schedule(struct bgp_rib *rib);
/* Run queued work now until none is left or max_turns turns ran (tests, benchmarks). */
void rib_work_run(struct bgp_rib *rib, unsigned max_turns);
bool rib_work_pending(const struct bgp_rib *rib);
void rib_cleanup_start(struct bgp_rib *rib, struct rib_src *src);
/* One cleanup batch: returns the dests visited. */
size_t rib_cleanup_run(struct bgp_rib *rib, size_t budget);
bool rib_cleanup_pending(const struct bgp_rib *rib);

/* Our own routes (network statements, redistribution): the attributes FRR gives them, and
 * their path of the local source (one per prefix). */
void rib_local_template(enum bgp_af af, uint8_t origin, uint32_t med, struct bgp_attr *tmpl,
			struct bgp_attr_extra *ex);
void rib_local_set(struct bgp_rib *rib, enum bgp_af af, const struct prefix *p,
		   struct bgp_attr *attr);
void rib_local_del(struct bgp_rib *rib, enum bgp_af af, const struct prefix *p);

/* The forwarding side (bgpd/rib/bgp_rib_fib.c). The instance hook is told when the RIB of an
 * instance is created (up) and before it goes (not up: before its peers are deleted, so that
 * the forwarding side can leave the kernel's routes alone rather than remove them one by one). */
typedef void (*rib_fib_instance_hook)(struct bgp *bgp, struct bgp_rib *rib, bool up);
void rib_fib_set_instance_hook(rib_fib_instance_hook hook); /* calls: rib_fib_instance() */
/* Forward through ops from now on; arg goes with every call (the forwarding side's own). */
void rib_fib_attach(struct bgp_rib *rib, const struct rib_fib_ops *ops, void *arg);
void rib_fib_detach(struct bgp_rib *rib);
/* The next hops of a path (IPv4 NEXT_HOP or the MP_REACH global address). */
void rib_path_nexthop(const struct bgp_attr *attr, struct ipaddr *nh);
/* dest's forwarding set now (empty without a forwarding side). */
void rib_fib_set_of(const struct bgp_rib *rib, enum bgp_af af, const struct bgp_dest *dest,
		    struct rib_fib_set *set);
bool rib_fib_set_same(const struct rib_fib_set *a, const struct rib_fib_set *b);
/* Is path one of dest's multipaths (FRR's "multipath": the best and the paths equal to it,
 * maximum-paths counted), whether or not routes are installed? */
bool rib_path_multipath(const struct bgp_rib *rib, enum bgp_af af, const struct bgp_dest *dest,
			const struct bgp_path *path);
/* Is a route for p installed, as far as the RIB knows (the forwarding side's last answer)? */
bool rib_fib_installed(const struct bgp_rib *rib, enum bgp_af af, const struct prefix *p);
/* Hand dest's forwarding set to the forwarding side. */
void rib_fib_sync(struct bgp_rib *rib, enum bgp_af af, struct bgp_dest *dest);
/* Re-run the decision of every prefix whose paths use a changed next hop (all = every prefix,
 * and sync each with the kernel), bounded per loop turn. */
void rib_fib_revalidate(struct bgp_rib *rib, bool all);
size_t rib_fib_walk_run(struct bgp_rib *rib, size_t budget);
/* maximum-paths [ibgp] N for af. */
void rib_fib_maxpaths_set(struct bgp_rib *rib, enum bgp_af af, bool ibgp, unsigned n);

/* Bytes held by the RIB (dests, paths, trees, journal), for `show bgp memory`-style output. */
size_t rib_memory(const struct bgp_rib *rib);

#endif /* SKUA_BGP_RIB_H */
