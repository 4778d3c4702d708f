/* SPDX-License-Identifier: ISC */
/* vty sessions: output buffer, hostname and prompts (FRR: printf(node->prompt, hostname)). */
#include "lib/compat.h"

#include <limits.h>
#include <unistd.h>

#include "lib/command_private.h"
#include "lib/vty.h"

DEFINE_MTYPE(VTY, "vty session");

#ifndef HOST_NAME_MAX
#define HOST_NAME_MAX 255
#endif

static char vty_hostname[HOST_NAME_MAX + 1];
static bool vty_hostname_set;

int vty_out(struct vty *vty, const char *fmt, ...)
{
	size_t before = vty->out.len;
	va_list ap;

	va_start(ap, fmt);
	sbuf_vprintf(&vty->out, fmt, ap);
	va_end(ap);
	return (int)(vty->out.len - before);
}

struct vty *vty_new(int fd)
{
	struct vty *vty = XCALLOC(MTYPE_VTY, sizeof(*vty));

	vty->fd = fd;
	vty->node = ENABLE_NODE;
	sbuf_init(&vty->out);
	return vty;
}

void vty_free(struct vty *vty)
{
	if (!vty)
		return;
	/* A session that ends inside configuration mode leaves it (the northbound unlocks). */
	cmd_config_leave(vty);
	sbuf_free(&vty->out);
	XFREE(MTYPE_VTY, vty);
}

bool vty_is_privileged(const struct vty *vty)
{
	if (vty->fd < 0)
		return true; /* the configuration file: its owner wrote it */
	return vty->cred_known && (vty->uid == 0 || vty->uid == geteuid());
}

void vty_set_hostname(const char *name)
{
	if (!name || !*name) {
		vty_hostname_set = false;
		return;
	}
	snprintf(vty_hostname, sizeof(vty_hostname), "%s", name);
	vty_hostname_set = true;
}

const char *vty_get_hostname(void)
{
	if (!vty_hostname_set) {
		/* Default: the system's name, looked up each time until `hostname` sets one. */
		if (gethostname(vty_hostname, sizeof(vty_hostname) - 1) != 0 || !vty_hostname[0])
			snprintf(vty_hostname, sizeof(vty_hostname), "skua");
		vty_hostname[sizeof(vty_hostname) - 1] = '\0';
	}
	return vty_hostname;
}

const char *vty_prompt(struct vty *vty, char *buf, size_t size)
{
	const struct cmd_node *cn = cmd_node_get(vty->node);

	if (!size)
		return buf;
	/* The prompt formats are data of the nodes, each with exactly one %s. */
	snprintf(buf, size, cn && cn->prompt ? cn->prompt : "%s# ", vty_get_hostname());
	return buf;
}
