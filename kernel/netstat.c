/* SPDX-License-Identifier: ISC */
/*
 * The namespace's TcpExt counters from /proc/net/netstat, for `show bgp gtsm` and tests.
 *
 * Format: for each section a pair of lines, "TcpExt: Name1 Name2 ..." then "TcpExt: 1 2 ...",
 * the n-th value belonging to the n-th name. The parser works on (text, len) without a NUL,
 * never reads past len, and treats a pair it cannot trust (no value line, different counts,
 * a value that is not a decimal number) as malformed rather than guessing.
 */
#include "lib/compat.h"

#include <fcntl.h>
#include <unistd.h>

#include "kernel/kernel_sec_private.h"

DEFINE_MTYPE(KERNEL_NETSTAT, "TcpExt counter text");

#define NETSTAT_PATH "/proc/net/netstat"
#define NETSTAT_MAX (64 * 1024) /* the file is about 6 KiB on Linux 6.x */

struct span {
	const char *p;
	size_t len;
};

/* The next line of t (without its '\n'); false at the end. */
static bool line_next(struct span *t, struct span *line)
{
	const char *nl;

	if (t->len == 0)
		return false;
	nl = memchr(t->p, '\n', t->len);
	line->p = t->p;
	line->len = nl ? (size_t)(nl - t->p) : t->len;
	t->p += nl ? line->len + 1 : line->len;
	t->len -= nl ? line->len + 1 : line->len;
	return true;
}

/* Does the line start with "<section>:"? Then leave the rest in *rest. */
static bool line_tag(const struct span *line, const char *section, struct span *rest)
{
	size_t n = strlen(section);

	if (line->len < n + 1 || memcmp(line->p, section, n) != 0 || line->p[n] != ':')
		return false;
	rest->p = line->p + n + 1;
	rest->len = line->len - n - 1;
	return true;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* The next whitespace-separated token of s; false when none is left. */
static bool token_next(struct span *s, struct span *tok)
{
	while (s->len && is_space(*s->p)) {
		s->p++;
		s->len--;
	}
	if (s->len == 0)
		return false;
	tok->p = s->p;
	tok->len = 0;
	while (s->len && !is_space(*s->p)) {
		s->p++;
		s->len--;
		tok->len++;
	}
	return true;
}

static int parse_u64(const struct span *tok, uint64_t *value)
{
	uint64_t v = 0;

	if (tok->len == 0)
		return -EINVAL;
	for (size_t i = 0; i < tok->len; i++) {
		unsigned d;

		if (tok->p[i] < '0' || tok->p[i] > '9')
			return -EINVAL;
		d = (unsigned)(tok->p[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*value = v;
	return 0;
}

/*
 * Look `name` up in one pair. Returns 0 (found), -ENOENT (not in this pair), -EINVAL, -ERANGE.
 * The counts are compared even when the name is found early, so a truncated value line is
 * reported as malformed instead of yielding a neighbour's number.
 */
static int pair_lookup(struct span names, struct span values, const char *name, uint64_t *value)
{
	size_t nlen = strlen(name);
	struct span n, v, found = { NULL, 0 };
	bool have = false;

	for (;;) {
		bool more_n = token_next(&names, &n);
		bool more_v = token_next(&values, &v);

		if (more_n != more_v)
			return -EINVAL;
		if (!more_n)
			break;
		if (!have && n.len == nlen && memcmp(n.p, name, nlen) == 0) {
			found = v;
			have = true;
		}
	}
	if (!have)
		return -ENOENT;
	return parse_u64(&found, value);
}

int kernel_netstat_parse(const char *text, size_t len, const char *section, const char *name,
			 uint64_t *value)
{
	struct span t = { text, len }, line, names, values;

	if (!text || !section || !name || !*section || !*name)
		return -EINVAL;
	while (line_next(&t, &line)) {
		int ret;

		if (!line_tag(&line, section, &names))
			continue;
		if (!line_next(&t, &line) || !line_tag(&line, section, &values))
			return -EINVAL; /* a name line without its value line */
		ret = pair_lookup(names, values, name, value);
		if (ret != -ENOENT)
			return ret;
	}
	return -ENOENT;
}

/* Read the whole file into an owned buffer (MTYPE_KERNEL_NETSTAT); *len is its length. */
static int netstat_slurp(char **out, size_t *len)
{
	char *buf = XMALLOC(MTYPE_KERNEL_NETSTAT, NETSTAT_MAX);
	size_t have = 0;
	int fd = open(NETSTAT_PATH, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		int ret = -errno;

		XFREE(MTYPE_KERNEL_NETSTAT, buf);
		return ret;
	}
	for (;;) {
		ssize_t r = read(fd, buf + have, NETSTAT_MAX - have);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int ret = -errno;

			close(fd);
			XFREE(MTYPE_KERNEL_NETSTAT, buf);
			return ret;
		}
		if (r == 0)
			break;
		have += (size_t)r;
		if (have == NETSTAT_MAX) {
			/* Far larger than any kernel writes: refuse rather than parse a cut line.
			 */
			close(fd);
			XFREE(MTYPE_KERNEL_NETSTAT, buf);
			return -EFBIG;
		}
	}
	close(fd);
	*out = buf;
	*len = have;
	return 0;
}

int kernel_netstat_read(const char *section, const char *name, uint64_t *value)
{
	char *buf = NULL;
	size_t len = 0;
	int ret = netstat_slurp(&buf, &len);

	if (ret < 0)
		return ret;
	ret = kernel_netstat_parse(buf, len, section, name, value);
	XFREE(MTYPE_KERNEL_NETSTAT, buf);
	return ret;
}

static const char *const counter_names[KERNEL_CNT__MAX] = {
	[KERNEL_CNT_MIN_TTL_DROP] = "TCPMinTTLDrop",
	[KERNEL_CNT_MD5_NOT_FOUND] = "TCPMD5NotFound",
	[KERNEL_CNT_MD5_UNEXPECTED] = "TCPMD5Unexpected",
	[KERNEL_CNT_MD5_FAILURE] = "TCPMD5Failure",
};

const char *kernel_gtsm_counter_name(enum kernel_gtsm_counter c)
{
	return (unsigned)c < KERNEL_CNT__MAX ? counter_names[c] : "(unknown)";
}

int kernel_gtsm_counters_parse(const char *text, size_t len, struct kernel_gtsm_counters *c)
{
	bool any = false;

	memset(c, 0, sizeof(*c));
	for (unsigned i = 0; i < KERNEL_CNT__MAX; i++) {
		int ret = kernel_netstat_parse(text, len, "TcpExt", counter_names[i], &c->value[i]);

		if (ret == -ENOENT)
			continue; /* an older kernel without this counter */
		if (ret < 0)
			return ret;
		c->present[i] = true;
		any = true;
	}
	return any ? 0 : -ENOENT;
}

int kernel_gtsm_counters_read(struct kernel_gtsm_counters *c)
{
	char *buf = NULL;
	size_t len = 0;
	int ret = netstat_slurp(&buf, &len);

	if (ret < 0) {
		memset(c, 0, sizeof(*c));
		return ret;
	}
	ret = kernel_gtsm_counters_parse(buf, len, c);
	XFREE(MTYPE_KERNEL_NETSTAT, buf);
	return ret;
}
