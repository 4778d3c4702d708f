/* SPDX-License-Identifier: ISC */
/*
 * What a listener does when accept() fails for want of descriptors (EMFILE, ENFILE) or of
 * kernel memory (ENOBUFS, ENOMEM): the pending connection stays on the queue, so the socket
 * stays readable and a level-triggered loop would call the listener back at once, for ever (one
 * connect at the limit cost 299 CPU ticks in 3 s and a million log lines). Instead the listener's
 * event is disarmed for LISTEN_BACKOFF_MS and then armed again, and one line per minute at most
 * says so.
 *
 * Why a pause and not the spare-descriptor trick (keep /dev/null open, close it to accept and
 * close the pending connection, reopen it): the trick turns away the one connection that might
 * be an operator or a peer coming back, and while the daemon stays at its limit every retry is
 * refused the same way, so nothing is gained over waiting. A pause leaves the connection queued:
 * it is served a second later if a descriptor was freed meanwhile, and it costs no descriptor
 * per listener while all is well.
 */
#ifndef SKUA_LISTEN_BACKOFF_H
#define SKUA_LISTEN_BACKOFF_H

#include <stdbool.h>

struct event_base;
struct ev;
struct listen_backoff;

#define LISTEN_BACKOFF_MS 1000

/*
 * For the listener whose (armed) fd event is listener; name says which in the log ("vty socket
 * /run/skua/bgpd.vty", "BGP listener 0.0.0.0:179"). The caller owns both and frees the backoff
 * before the event. NULL only when the loop refuses a timer.
 */
struct listen_backoff *listen_backoff_new(struct event_base *base, struct ev *listener,
					  const char *name);
void listen_backoff_free(struct listen_backoff *lb);

/* Is accept()'s errno one that leaves the connection queued for want of resources? */
bool listen_backoff_wanted(int err);

/*
 * accept() failed with err (a listen_backoff_wanted() one): disarm the listener, log (rate
 * limited), and arm it again in LISTEN_BACKOFF_MS. The caller stops accepting for this turn.
 */
void listen_backoff_pause(struct listen_backoff *lb, int err);

/* Is the listener paused now? */
bool listen_backoff_paused(const struct listen_backoff *lb);

#endif /* SKUA_LISTEN_BACKOFF_H */
