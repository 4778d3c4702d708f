/* SPDX-License-Identifier: ISC */
/* Rate-limited logging (lib/log_limit.h): a fixed window per call site. */
#include "lib/compat.h"

#include "lib/event.h"
#include "lib/log.h"
#include "lib/log_limit.h"

bool log_limit_allow(struct log_limit *ll, uint64_t *suppressed)
{
	uint64_t now = monotime_ms();

	if (!ll->started || now - ll->window_start >= ll->interval_ms) {
		ll->started = true;
		ll->window_start = now;
		ll->passed = 0;
	}
	if (ll->passed >= ll->burst) {
		ll->suppressed++;
		return false;
	}
	ll->passed++;
	if (suppressed)
		*suppressed = ll->suppressed;
	ll->suppressed = 0;
	return true;
}

void vlog_limited(struct log_limit *ll, int level, const char *fmt, va_list ap)
{
	uint64_t dropped;

	/* A line no target wants costs no token: turning debugging on later shows the next. */
	if (!log_would_log(level) || !log_limit_allow(ll, &dropped))
		return;
	if (dropped)
		zlog(level,
		     "%llu similar messages suppressed (at most %u every %g s are logged); the "
		     "next one follows",
		     (unsigned long long)dropped, ll->burst, ll->interval_ms / 1000.0);
	vzlog(level, fmt, ap);
}

void log_limited(struct log_limit *ll, int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog_limited(ll, level, fmt, ap);
	va_end(ap);
}
