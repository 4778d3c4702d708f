/* SPDX-License-Identifier: ISC */
/*
 * Dropping root: see privs.h. libcap sets the capability sets; the id changes are the plain
 * system calls, in the only safe order (groups first, while we still may change them).
 */
#include "lib/compat.h"

#include <grp.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "lib/privs.h"

static int copy_name(char *dst, size_t len, const char *src)
{
	if (strlen(src) >= len)
		return -1;
	memcpy(dst, src, strlen(src) + 1);
	return 0;
}

int privs_resolve(struct privs *p, const char *user, const char *group, bool explicit, char *err,
		  size_t errlen)
{
	struct passwd *pw;
	struct group *gr;

	memset(p, 0, sizeof(*p));
	p->uid = geteuid();
	p->gid = getegid();
	errno = 0;
	pw = getpwnam(user);
	if (!pw) {
		if (p->uid != 0 && !explicit)
			return 0; /* an ordinary user running bgpd by hand: stay as we are */
		snprintf(err, errlen,
			 "no user '%s'%s%s: create it (adduser --system --group %s), or name "
			 "another with -u USER (scripts/install-deps.sh and the Debian package "
			 "create the default user, skua)",
			 user, errno ? ": " : "", errno ? strerror(errno) : "", user);
		return -1;
	}
	if (copy_name(p->user, sizeof(p->user), user) < 0) {
		snprintf(err, errlen, "user name '%s' is too long", user);
		return -1;
	}
	p->gid = pw->pw_gid;
	if (group) {
		errno = 0;
		gr = getgrnam(group);
		if (!gr) {
			snprintf(err, errlen,
				 "no group '%s'%s%s: create it (addgroup --system %s), or name "
				 "another with -g GROUP",
				 group, errno ? ": " : "", errno ? strerror(errno) : "", group);
			return -1;
		}
		p->gid = gr->gr_gid;
	}
	gr = getgrgid(p->gid);
	if (copy_name(p->group, sizeof(p->group), gr ? gr->gr_name : "?") < 0) {
		snprintf(err, errlen, "group name of gid %u is too long", (unsigned)p->gid);
		return -1;
	}
	if (geteuid() != 0) {
		/* Not root: we can only be who we are. */
		if (explicit && (pw->pw_uid != geteuid() || p->gid != getegid())) {
			snprintf(err, errlen,
				 "-u/-g %s:%s asked for, but bgpd was not started as root and "
				 "cannot change its user: start it as root, or leave out -u and -g",
				 p->user, p->group);
			return -1;
		}
		p->uid = geteuid();
		p->gid = getegid();
		return 0;
	}
	p->uid = pw->pw_uid;
	p->drop = true;
	return 0;
}

int privs_drop(const struct privs *p, const cap_value_t *keep, int nkeep, char *err, size_t errlen)
{
	cap_t caps;
	int r;

	if (!p->drop)
		return 0;
	/* Keep the permitted set across the uid change; the effective set is set again below. */
	if (prctl(PR_SET_KEEPCAPS, 1L, 0L, 0L, 0L) < 0) {
		snprintf(err, errlen, "prctl(PR_SET_KEEPCAPS): %s", strerror(errno));
		return -1;
	}
	if (setgroups(1, &p->gid) < 0 || setresgid(p->gid, p->gid, p->gid) < 0) {
		snprintf(err, errlen, "cannot become group %s (gid %u): %s", p->group,
			 (unsigned)p->gid, strerror(errno));
		return -1;
	}
	if (setresuid(p->uid, p->uid, p->uid) < 0) {
		snprintf(err, errlen, "cannot become user %s (uid %u): %s", p->user,
			 (unsigned)p->uid, strerror(errno));
		return -1;
	}
	caps = cap_init();
	if (!caps) {
		snprintf(err, errlen, "cap_init: %s", strerror(errno));
		return -1;
	}
	r = 0;
	if (nkeep > 0)
		r = cap_set_flag(caps, CAP_PERMITTED, nkeep, keep, CAP_SET) |
		    cap_set_flag(caps, CAP_EFFECTIVE, nkeep, keep, CAP_SET);
	if (r < 0 || cap_set_proc(caps) < 0) {
		snprintf(err, errlen, "cannot set the capabilities to keep: %s", strerror(errno));
		cap_free(caps);
		return -1;
	}
	cap_free(caps);
	prctl(PR_SET_KEEPCAPS, 0L, 0L, 0L, 0L);
	/* bgpd never runs another program; should anything make it, that gains nothing. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) < 0) {
		snprintf(err, errlen, "prctl(PR_SET_NO_NEW_PRIVS): %s", strerror(errno));
		return -1;
	}
	if (p->uid != 0 && (setuid(0) == 0 || seteuid(0) == 0)) {
		snprintf(err, errlen, "root could be regained after the drop: refusing to run");
		return -1;
	}
#if defined(__SANITIZE_ADDRESS__)
	/* A uid change makes the process undumpable, and LeakSanitizer's tracer can then not
	 * attach to our threads at exit. Only sanitizer builds, which are never production. */
	prctl(PR_SET_DUMPABLE, 1L, 0L, 0L, 0L);
#endif
	return 0;
}

const char *privs_caps_text(char *buf, size_t len)
{
	cap_t caps = cap_get_proc();
	char *text = caps ? cap_to_text(caps, NULL) : NULL;

	snprintf(buf, len, "%s", text ? text : "?");
	if (text)
		cap_free(text);
	if (caps)
		cap_free(caps);
	return buf;
}
