/* SPDX-License-Identifier: ISC */
/*
 * Confirmed commits (`commit confirmed N`): the commit applies at once, and is undone unless
 * confirmed by a plain `commit` within N minutes. The safety net for a change that may cut
 * the operator off (FRR PR #3442 brought it to FRR's northbound daemons; Junos has it).
 *
 * skua keeps one pending confirmed commit for the whole daemon, not one per vty as FRR does:
 * it outlives the session that made it (`vtysh -c ... -c 'commit confirmed 5'` returns at
 * once, and a lost ssh session must not undo the change early), and any config session can
 * confirm it with `commit`.
 *
 * On timeout the commit's own changes are undone by a three-way merge (changes from "after"
 * back to "before", replayed onto running), so commits made meanwhile by others survive.
 * If a later commit touched the same settings, the merge conflicts and the configuration
 * from before the confirmed commit is restored whole: reverting to a state the operator
 * knew was safe beats keeping a mix nobody tested. Either way it is logged.
 *
 * The unit is one minute; SKUA_CONFIRM_UNIT_MS (milliseconds) replaces it, for tests only.
 */
#include "lib/compat.h"

#include "lib/event.h"
#include "lib/log.h"
#include "lib/northbound.h"
#include "lib/northbound_cli.h"
#include "lib/northbound_private.h"

static struct event_base *(*get_event_base)(void);

static struct {
	bool pending;
	uint32_t txid;		 /* the confirmed commit (the first, if re-armed) */
	struct lyd_node *before; /* running before it */
	struct lyd_node *after;	 /* running after it (and after later re-armed commits) */
	struct ev *timer;
	uint64_t deadline_ms; /* monotime_ms() */
} confirm;

void nb_set_event_loop(struct event_base *(*get)(void))
{
	get_event_base = get;
}

uint32_t nb_confirm_unit_ms(void)
{
	const char *s = getenv("SKUA_CONFIRM_UNIT_MS");
	char *end;
	unsigned long v;

	if (!s || !*s)
		return 60 * 1000;
	v = strtoul(s, &end, 10);
	if (*end || v == 0 || v > 60 * 1000)
		return 60 * 1000;
	return (uint32_t)v;
}

static void confirm_clear(void)
{
	event_free(confirm.timer);
	lyd_free_all(confirm.before);
	lyd_free_all(confirm.after);
	memset(&confirm, 0, sizeof(confirm));
}

static void timeout_cb(int fd, short what, void *arg)
{
	nb_confirm_expire();
}

bool nb_confirm_pending(uint32_t *txid, int64_t *remaining_ms)
{
	if (!confirm.pending)
		return false;
	if (txid)
		*txid = confirm.txid;
	if (remaining_ms) {
		uint64_t now = monotime_ms();

		*remaining_ms =
			confirm.deadline_ms > now ? (int64_t)(confirm.deadline_ms - now) : 0;
	}
	return true;
}

int nb_confirm_arm(const struct lyd_node *before, uint32_t txid, unsigned minutes,
		   struct nb_error *err)
{
	struct event_base *base = get_event_base ? get_event_base() : NULL;
	uint64_t msec = (uint64_t)minutes * nb_confirm_unit_ms();

	memset(err, 0, sizeof(*err));
	if (msec > UINT32_MAX)
		msec = UINT32_MAX;
	if (!confirm.pending) {
		if (!base) {
			snprintf(err->msg, sizeof(err->msg),
				 "commit confirmed needs the daemon's event loop (not running)");
			return -1;
		}
		confirm.timer = event_timer_new(base, timeout_cb, NULL);
		if (!confirm.timer) {
			snprintf(err->msg, sizeof(err->msg), "cannot start the confirm timer");
			return -1;
		}
		confirm.pending = true;
		confirm.txid = txid;
		confirm.before = nb_tree_dup(before);
	}
	/* A later `commit confirmed` extends the window and takes its changes along. */
	lyd_free_all(confirm.after);
	confirm.after = nb_tree_dup(nb_running());
	confirm.deadline_ms = monotime_ms() + msec;
	event_timer_add(confirm.timer, (uint32_t)msec, 0);
	return 0;
}

void nb_confirm_accept(void)
{
	if (confirm.pending)
		log_notice("confirmed commit %u confirmed", confirm.txid);
	confirm_clear();
}

/* Commit tree as a rollback; 0 or -1 (err). */
static int commit_tree(const struct lyd_node *tree, const char *comment, uint32_t *txid,
		       struct nb_error *err)
{
	struct nb_candidate *c = nb_candidate_new_from(tree);
	int ret;

	nb_candidate_set_origin(c, NB_SRC_ROLLBACK, NULL, comment);
	ret = nb_candidate_commit_id(c, txid, err);
	nb_candidate_free(c);
	return ret;
}

int nb_confirm_expire(void)
{
	struct lyd_node *merged = NULL;
	struct nb_error err;
	char comment[NB_COMMENT_MAX + 1];
	uint32_t id, txid = 0, last;
	int ret;

	if (!confirm.pending)
		return 0;
	id = confirm.txid;
	last = nb_history_last_id();
	log_warn("confirmed commit %u was not confirmed in time: rolling back", id);
	snprintf(comment, sizeof(comment), "confirmed commit %u timed out", id);
	if (nb_merge_onto_running(confirm.after, confirm.before, &merged, &err) == 0) {
		ret = commit_tree(merged, comment, &txid, &err);
		lyd_free_all(merged);
		if (ret == 0) {
			log_notice("confirmed commit %u undone (transaction %u)%s", id, txid,
				   last > id ? "; later commits kept" : "");
			confirm_clear();
			return 0;
		}
	}
	/* A later commit changed the same settings: back to the state before it, whole. */
	if (err.xpath[0]) {
		char cmd[300];

		nb_path_command(err.xpath, cmd, sizeof(cmd));
		log_warn("confirmed commit %u: a later commit changed \"%s\" too; restoring the "
			 "configuration from before it (transactions %u to %u undone)",
			 id, cmd, id, last);
	} else {
		log_warn("confirmed commit %u: %s; restoring the configuration from before it "
			 "(transactions %u to %u undone)",
			 id, err.msg, id, last);
	}
	snprintf(comment, sizeof(comment), "confirmed commit %u timed out (full restore)", id);
	ret = commit_tree(confirm.before, comment, &txid, &err);
	if (ret < 0)
		log_err("confirmed commit %u: cannot restore the previous configuration: %s", id,
			err.msg);
	confirm_clear();
	return ret;
}

void nb_confirm_terminate(void)
{
	confirm_clear();
}
