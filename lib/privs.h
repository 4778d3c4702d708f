/* SPDX-License-Identifier: ISC */
/*
 * Least privilege for a daemon started as root: it opens what needs root (its sockets, its
 * netlink channel, its pid file), then becomes an ordinary user that keeps only the few
 * capabilities its later work needs (binding port 179 for a new listener, writing routes over
 * netlink, attaching socket filters). Nothing typed at the vty or sent by a peer then runs
 * with root's power.
 */
#ifndef SKUA_PRIVS_H
#define SKUA_PRIVS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/capability.h>
#include <sys/types.h>

struct privs {
	bool drop; /* false: not started as root, there is nothing to drop */
	uid_t uid;
	gid_t gid;
	char user[64];
	char group[64];
};

/*
 * Look up the user and group to become (group NULL: the user's primary group). Started by an
 * ordinary user, the process stays who it is: that is fine unless a user or group other than
 * its own was asked for (explicit). Returns 0, or -1 with the reason and a remedy in err.
 */
int privs_resolve(struct privs *p, const char *user, const char *group, bool explicit, char *err,
		  size_t errlen);

/*
 * Become p's user and group for good (real, effective and saved ids; the supplementary groups
 * are reduced to p's group), keeping exactly the capabilities in keep, permitted and
 * effective. Also forbids gaining privileges again (no_new_privs). Checks that root cannot be
 * regained. Returns 0, or -1 with the reason in err. A no-op when !p->drop.
 */
int privs_drop(const struct privs *p, const cap_value_t *keep, int nkeep, char *err, size_t errlen);

/* The process's capability sets as text ("cap_net_bind_service,cap_net_admin=ep"), in buf. */
const char *privs_caps_text(char *buf, size_t len);

#endif /* SKUA_PRIVS_H */
