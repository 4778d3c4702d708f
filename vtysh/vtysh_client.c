/* SPDX-License-Identifier: ISC */
/* vtysh's side of the vty socket protocol (lib/vty.h): send a request, read the reply. */
#include "lib/compat.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "lib/command.h"
#include "vtysh/vtysh.h"

DEFINE_MTYPE(VTYSH, "vtysh");

int vtysh_connect(struct vtysh_client *c, const char *path)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd;

	c->fd = -1;
	c->path = path;
	if (strlen(path) >= sizeof(sun.sun_path))
		return -ENAMETOOLONG;
	memcpy(sun.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
		int err = errno;

		close(fd);
		return -err;
	}
	c->fd = fd;
	return 0;
}

void vtysh_disconnect(struct vtysh_client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

void vtysh_connect_error(const char *path, int err)
{
	const char *hint;
	struct stat st;

	/* FRR's --vty_socket names the directory of the daemons' sockets; skua's the socket. */
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		fprintf(stderr,
			"vtysh: %s is a directory: --vty-socket (or --vty_socket) names bgpd's "
			"socket itself, not its directory as in FRR; try --vty-socket "
			"%s%sbgpd.vty\n",
			path, path, path[0] && path[strlen(path) - 1] == '/' ? "" : "/");
		return;
	}

	switch (err) {
	case EACCES:
	case EPERM:
		hint = "run as root or as a member of group skuavty";
		break;
	case ENAMETOOLONG:
		hint = "the socket path is too long; use a shorter --vty-socket PATH";
		break;
	default:
		hint = "is bgpd running? use --vty-socket PATH";
		break;
	}
	fprintf(stderr, "vtysh: cannot connect to bgpd at %s: %s (%s)\n", path, strerror(err),
		hint);
}

bool vtysh_status_ok(int status)
{
	return status == CMD_SUCCESS || status == CMD_WARNING;
}

static int send_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static void emit(FILE *out, struct sbuf *text, const char *p, size_t n)
{
	if (!n)
		return;
	if (out)
		fwrite(p, 1, n, out);
	else if (text)
		sbuf_put(text, p, n);
}

int vtysh_request(struct vtysh_client *c, char kind, const char *line, FILE *out, struct sbuf *text)
{
	size_t len = strlen(line);
	char *req, buf[65536];
	int nuls = 0, rc;

	if (c->fd < 0)
		return -ENOTCONN;
	req = XMALLOC(MTYPE_VTYSH, len + 2);
	req[0] = kind;
	memcpy(req + 1, line, len + 1);
	rc = send_all(c->fd, req, len + 2);
	XFREE(MTYPE_VTYSH, req);
	if (rc < 0)
		return rc;

	/* Text up to the first NUL; the terminator is three NULs, then the status byte. */
	for (;;) {
		ssize_t n = recv(c->fd, buf, sizeof(buf), 0);
		size_t run = 0;

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -EPIPE;
		for (ssize_t i = 0; i < n; i++) {
			if (nuls == 3) {
				emit(out, text, buf + i - run, run);
				if (out)
					fflush(out);
				return (unsigned char)buf[i];
			}
			if (buf[i] == '\0') {
				emit(out, text, buf + i - run, run);
				run = 0;
				nuls++;
				continue;
			}
			nuls = 0; /* a stray NUL inside the text: not a terminator, drop it */
			run++;
		}
		emit(out, text, buf + n - run, run);
	}
}
