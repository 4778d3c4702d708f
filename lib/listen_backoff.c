/* SPDX-License-Identifier: ISC */
/* A listener paused while descriptors are exhausted (lib/listen_backoff.h). */
#include "lib/compat.h"

#include "lib/core_mtypes.h"
#include "lib/event.h"
#include "lib/listen_backoff.h"
#include "lib/log.h"
#include "lib/log_limit.h"

DEFINE_MTYPE(LISTEN_BACKOFF, "Listener backoff");

struct listen_backoff {
	struct ev *listener; /* not owned */
	struct ev *timer;
	bool paused;
	struct log_limit limit; /* one line a minute per listener */
	char name[128];
};

static void resume_cb(int fd, short what, void *arg)
{
	struct listen_backoff *lb = arg;

	(void)fd;
	(void)what;
	lb->paused = false;
	if (event_add(lb->listener) != 0)
		log_err("%s: cannot watch the listener again after a pause (event loop refused); "
			"no new connections are accepted until a restart",
			lb->name);
}

struct listen_backoff *listen_backoff_new(struct event_base *base, struct ev *listener,
					  const char *name)
{
	struct listen_backoff *lb = XCALLOC(MTYPE_LISTEN_BACKOFF, sizeof(*lb));

	lb->listener = listener;
	lb->timer = event_timer_new(base, resume_cb, lb);
	if (!lb->timer) {
		XFREE(MTYPE_LISTEN_BACKOFF, lb);
		return NULL;
	}
	lb->limit = (struct log_limit)LOG_LIMIT_INIT(60000, 1);
	snprintf(lb->name, sizeof(lb->name), "%s", name);
	return lb;
}

void listen_backoff_free(struct listen_backoff *lb)
{
	if (!lb)
		return;
	event_free(lb->timer);
	XFREE(MTYPE_LISTEN_BACKOFF, lb);
}

bool listen_backoff_wanted(int err)
{
	return err == EMFILE || err == ENFILE || err == ENOBUFS || err == ENOMEM;
}

void listen_backoff_pause(struct listen_backoff *lb, int err)
{
	log_limited(&lb->limit, LOG_LVL_ERR,
		    "%s: cannot accept a connection: %s; not accepting for %d ms (raise the "
		    "descriptor limit, ulimit -n or systemd's LimitNOFILE, or close sessions)",
		    lb->name, strerror(err), LISTEN_BACKOFF_MS);
	if (lb->paused)
		return;
	event_del(lb->listener);
	if (event_timer_add(lb->timer, LISTEN_BACKOFF_MS, 0) != 0) {
		/* Without a timer the pause would never end: better the old spin than silence. */
		event_add(lb->listener);
		return;
	}
	lb->paused = true;
}

bool listen_backoff_paused(const struct listen_backoff *lb)
{
	return lb && lb->paused;
}
