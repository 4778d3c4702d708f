/* SPDX-License-Identifier: ISC */
/*
 * GTSM on the shared listening socket (RFC 5082 section 3, "Dangerous" packets MAY be dropped):
 * a classic BPF socket filter, compiled from the configured peers, that drops a GTSM peer's
 * segments whose TTL / hop limit is below that peer's minimum. Linux runs a TCP socket's filter
 * (tcp_filter) on the listener for the SYN and for the segment that completes the handshake,
 * which the listener's min TTL never covers; everything that is not a GTSM peer's is accepted.
 *
 * The IP header is read through SKF_NET_OFF (the skb's data starts at the TCP header there):
 * IPv4 TTL byte 8, source 12..15; IPv6 hop limit byte 7, source 8..23. Program layout and limits:
 * doc/gtsm-kernel.md. In short:
 *
 *   dispatch:  ldb [net+0]; rsh #4; jeq #4 -> v4; ja v6
 *   v4:        ldb [net+8]; tax; ld [net+12]; BLOCK...; ret #accept
 *   v6:        jeq #6 else ret #accept; ldb [net+7]; tax; M[0..3] = source words; BLOCK...;
 *              ret #accept
 *   BLOCK:     [v6: ld M[0]; jne w0 -> next; ld M[1]; jne w1 -> next; ld M[2]; jne w2 -> next;
 *              ld M[3]]  jeq #addr_1 -> tail(min_1) ... jeq #addr_n -> tail(min_n); ja next;
 *              tail(m): txa; jge #m -> accept, drop  (one tail per distinct minimum);
 *              accept: ret #-1; drop: ret #0
 *
 * Conditional jumps reach at most 255 instructions ahead, so a block is at most 256 instructions
 * long and every jump stays inside its block; blocks are chained by falling through.
 *
 * The same compiler, with "accept" and "drop" replaced by the indexes of the listener and of the
 * sink, builds the reuseport selector of a GTSM listener group (gtsm_group.c).
 */
#include "lib/compat.h"

#include <linux/filter.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "kernel/kernel_sec_private.h"

DEFINE_MTYPE(KERNEL_GTSM_FILTER, "GTSM socket filter");

#define RET_ACCEPT 0xffffffffu /* keep the whole segment */
#define RET_DROP 0u
#define BLOCK_MAX 256u	   /* a jump from a block's first instruction reaches its end */
#define V6_BLOCK_HEADER 7u /* ld, jeq for words 0..2, then ld M[3] */
#define BLOCK_TRAILER 3u   /* ja next; ret accept; ret drop */

struct rule {
	uint8_t family;
	uint8_t min;
	uint8_t plen;  /* 0: exact; else a prefix rule (emitted after the exact blocks) */
	uint32_t w[4]; /* source address words in host order (what BPF_LD|BPF_W yields) */
	struct ipaddr addr;
};

/*
 * Writes when buf is set (and within cap); always counts, so one routine sizes and emits. pass and
 * fail are what the program returns for a packet that meets its peer's minimum (or is no GTSM
 * peer's) and for one below it: accept / drop for the socket filter, listener / sink index for
 * the reuseport selector (gtsm_group.c).
 */
struct emitter {
	struct sock_filter *buf;
	unsigned cap;
	unsigned len;
	uint32_t pass, fail;
};

static void emit(struct emitter *e, uint16_t code, unsigned jt, unsigned jf, uint32_t k)
{
	if (e->buf && e->len < e->cap) {
		e->buf[e->len].code = code;
		e->buf[e->len].jt = (uint8_t)jt;
		e->buf[e->len].jf = (uint8_t)jf;
		e->buf[e->len].k = k;
	}
	e->len++;
}

/* Offset of a forward jump from the instruction about to be emitted to target. */
static unsigned fwd(const struct emitter *e, unsigned target)
{
	return target - (e->len + 1);
}

/* Exact rules first (sorted by address, for the blocks), then prefix rules longest first. */
static int rule_cmp(const void *pa, const void *pb)
{
	const struct rule *a = pa, *b = pb;

	if (a->family != b->family)
		return a->family < b->family ? -1 : 1;
	if (!a->plen != !b->plen)
		return a->plen ? 1 : -1;
	if (a->plen != b->plen)
		return a->plen > b->plen ? -1 : 1;
	for (int i = 0; i < 4; i++)
		if (a->w[i] != b->w[i])
			return a->w[i] < b->w[i] ? -1 : 1;
	return 0;
}

/*
 * How many rules from r[0..avail) go into one block: IPv6 rules share their first three words,
 * and header + entries + trailer + two instructions per distinct minimum stay within BLOCK_MAX.
 */
static unsigned block_take(const struct rule *r, unsigned avail, bool v6)
{
	bool seen[256] = { false };
	unsigned fixed = (v6 ? V6_BLOCK_HEADER : 0) + BLOCK_TRAILER;
	unsigned n = 0, distinct = 0;

	while (n < avail) {
		unsigned d = distinct + !seen[r[n].min];

		if (v6 && memcmp(r[n].w, r[0].w, 3 * sizeof(uint32_t)) != 0)
			break;
		if (fixed + (n + 1) + 2 * d > BLOCK_MAX)
			break;
		seen[r[n].min] = true;
		distinct = d;
		n++;
	}
	return n;
}

static void emit_block(struct emitter *e, const struct rule *r, unsigned n, bool v6)
{
	uint8_t mins[256];
	int tail_of[256];
	unsigned d = 0, start = e->len, header = v6 ? V6_BLOCK_HEADER : 0;
	unsigned tails, accept, end;

	for (unsigned i = 0; i < 256; i++)
		tail_of[i] = -1;
	for (unsigned i = 0; i < n; i++)
		if (tail_of[r[i].min] < 0) {
			tail_of[r[i].min] = (int)d;
			mins[d++] = r[i].min;
		}
	tails = start + header + n + 1;
	accept = tails + 2 * d;
	end = accept + 2;

	if (v6) {
		/* A non-matching word skips the whole block: no rule in it can match. */
		for (unsigned i = 0; i < 3; i++) {
			emit(e, BPF_LD | BPF_MEM, 0, 0, i);
			emit(e, BPF_JMP | BPF_JEQ | BPF_K, 0, fwd(e, end), r[0].w[i]);
		}
		emit(e, BPF_LD | BPF_MEM, 0, 0, 3);
	}
	for (unsigned i = 0; i < n; i++)
		emit(e, BPF_JMP | BPF_JEQ | BPF_K, fwd(e, tails + 2 * (unsigned)tail_of[r[i].min]),
		     0, r[i].w[v6 ? 3 : 0]);
	emit(e, BPF_JMP | BPF_JA, 0, 0, fwd(e, end));
	for (unsigned i = 0; i < d; i++) {
		emit(e, BPF_MISC | BPF_TXA, 0, 0, 0); /* A = TTL / hop limit (kept in X) */
		emit(e, BPF_JMP | BPF_JGE | BPF_K, fwd(e, accept), fwd(e, accept + 1), mins[i]);
	}
	emit(e, BPF_RET | BPF_K, 0, 0, e->pass);
	emit(e, BPF_RET | BPF_K, 0, 0, e->fail);
}

static uint32_t word_mask(unsigned bits)
{
	return bits >= 32 ? 0xffffffffu : bits == 0 ? 0 : ~(0xffffffffu >> bits);
}

/*
 * One prefix rule, after the exact blocks (X holds the TTL / hop limit):
 *   per word the prefix covers: ld (v4: [net+12], v6: M[i]); [and #mask]; jne #word -> next
 *   txa; jge #min -> pass, fail; ret pass; ret fail
 */
static void emit_prefix_rule(struct emitter *e, const struct rule *r, bool v6)
{
	unsigned words = v6 ? (r->plen + 31u) / 32u : 1, len = 4, start = e->len;

	for (unsigned i = 0; i < words; i++)
		len += word_mask(r->plen - 32u * i) == 0xffffffffu ? 2 : 3;
	for (unsigned i = 0; i < words; i++) {
		uint32_t mask = word_mask(r->plen - 32u * i);

		if (v6)
			emit(e, BPF_LD | BPF_MEM, 0, 0, i);
		else
			emit(e, BPF_LD | BPF_W | BPF_ABS, 0, 0, (uint32_t)(SKF_NET_OFF + 12));
		if (mask != 0xffffffffu)
			emit(e, BPF_ALU | BPF_AND | BPF_K, 0, 0, mask);
		emit(e, BPF_JMP | BPF_JEQ | BPF_K, 0, fwd(e, start + len), r->w[i] & mask);
	}
	emit(e, BPF_MISC | BPF_TXA, 0, 0, 0);
	emit(e, BPF_JMP | BPF_JGE | BPF_K, 0, 1, r->min);
	emit(e, BPF_RET | BPF_K, 0, 0, e->pass);
	emit(e, BPF_RET | BPF_K, 0, 0, e->fail);
}

static void emit_section(struct emitter *e, const struct rule *r, unsigned n, bool v6)
{
	unsigned exact = 0;

	while (exact < n && !r[exact].plen)
		exact++;
	if (v6) {
		/* Reached for every non-IPv4 packet; A holds the version nibble. */
		emit(e, BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 6);
		emit(e, BPF_RET | BPF_K, 0, 0, e->pass);
	}
	if (n == 0) {
		emit(e, BPF_RET | BPF_K, 0, 0, e->pass);
		return;
	}
	if (v6) {
		emit(e, BPF_LD | BPF_B | BPF_ABS, 0, 0, (uint32_t)(SKF_NET_OFF + 7));
		emit(e, BPF_MISC | BPF_TAX, 0, 0, 0);
		for (unsigned i = 0; i < 4; i++) {
			emit(e, BPF_LD | BPF_W | BPF_ABS, 0, 0,
			     (uint32_t)(SKF_NET_OFF + 8 + 4 * i));
			emit(e, BPF_ST, 0, 0, i);
		}
	} else {
		emit(e, BPF_LD | BPF_B | BPF_ABS, 0, 0, (uint32_t)(SKF_NET_OFF + 8));
		emit(e, BPF_MISC | BPF_TAX, 0, 0, 0);
		emit(e, BPF_LD | BPF_W | BPF_ABS, 0, 0, (uint32_t)(SKF_NET_OFF + 12));
	}
	for (unsigned done = 0; done < exact;) {
		unsigned take = block_take(r + done, exact - done, v6);

		emit_block(e, r + done, take, v6);
		done += take;
	}
	for (unsigned i = exact; i < n; i++)
		emit_prefix_rule(e, &r[i], v6);
	emit(e, BPF_RET | BPF_K, 0, 0, e->pass);
}

/* The whole program; r holds the IPv4 rules, then the IPv6 rules (sorted). */
static void emit_program(struct emitter *e, const struct rule *r, unsigned n4, unsigned n6)
{
	struct emitter probe = { NULL, 0, 0, e->pass, e->fail };
	unsigned v6_start;

	emit_section(&probe, r, n4, false);
	v6_start = 4 + probe.len;

	emit(e, BPF_LD | BPF_B | BPF_ABS, 0, 0, (uint32_t)SKF_NET_OFF);
	emit(e, BPF_ALU | BPF_RSH | BPF_K, 0, 0, 4);
	emit(e, BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 4);
	emit(e, BPF_JMP | BPF_JA, 0, 0, fwd(e, v6_start));
	emit_section(e, r, n4, false);
	emit_section(e, r + n4, n6, true);
}

static void rule_from_peer(struct rule *r, const struct kernel_gtsm_peer *p)
{
	memset(r, 0, sizeof(*r));
	r->addr = p->addr;
	ipaddr_unmap_v4(&r->addr);
	r->family = r->addr.family;
	r->min = p->min_ttl;
	r->plen = p->plen;
	for (unsigned i = 0; i < (r->family == AF_INET ? 1u : 4u); i++) {
		uint32_t w;

		memcpy(&w, &r->addr.u.bytes[4 * i], sizeof(w));
		r->w[i] = ntohl(w);
	}
}

static bool family_wanted(int family, unsigned families)
{
	return (family == AF_INET && (families & KERNEL_GTSM_FILTER_V4)) ||
	       (family == AF_INET6 && (families & KERNEL_GTSM_FILTER_V6));
}

int ksec_gtsm_compile(const struct kernel_gtsm_peer *peers, size_t n, unsigned families,
		      uint32_t pass, uint32_t fail, const char *option,
		      struct kernel_gtsm_prog *prog, struct kernel_sec_err *err)
{
	char subj[KSEC_SUBJECT_LEN];
	struct emitter e = { NULL, 0, 0, pass, fail };
	struct rule *rules;
	unsigned count = 0, n4 = 0, n6;

	if (prog)
		memset(prog, 0, sizeof(*prog));
	for (size_t i = 0; i < n; i++) {
		struct ipaddr a = peers[i].addr;

		if (peers[i].min_ttl == 0 && !(peers[i].exempt && !peers[i].plen))
			continue;
		ipaddr_unmap_v4(&a);
		if (a.family != AF_INET && a.family != AF_INET6)
			return ksec_fail(err, -EINVAL, option, "peer (unset)",
					 "every GTSM peer needs an IPv4 or IPv6 address",
					 "build (peer %zu of %zu)", i + 1, n);
		if (!family_wanted(a.family, families))
			continue;
		/* Every rule costs at least one instruction: fail before allocating much. */
		if (++count > BPF_MAXINSNS)
			return ksec_fail(err, -E2BIG, option, "listener",
					 "fewer GTSM peers per listener (doc/gtsm-kernel.md)",
					 "build (more than %d GTSM peers)", BPF_MAXINSNS);
	}

	rules = XCALLOC(MTYPE_KERNEL_GTSM_FILTER, sizeof(*rules) * (count ? count : 1));
	count = 0;
	for (size_t i = 0; i < n; i++) {
		struct rule r;

		if (peers[i].min_ttl == 0 && !(peers[i].exempt && !peers[i].plen))
			continue;
		rule_from_peer(&r, &peers[i]);
		if (!family_wanted(r.family, families))
			continue;
		rules[count++] = r;
		n4 += r.family == AF_INET;
	}
	n6 = count - n4;
	qsort(rules, count, sizeof(*rules), rule_cmp);
	for (unsigned i = 1; i < count; i++)
		if (rule_cmp(&rules[i - 1], &rules[i]) == 0) {
			ksec_peer_str(&rules[i].addr, subj, sizeof(subj));
			XFREE(MTYPE_KERNEL_GTSM_FILTER, rules);
			return ksec_fail(err, -EINVAL, option, subj, "list each GTSM peer once",
					 "build (peer listed twice)");
		}

	emit_program(&e, rules, n4, n6);
	if (e.len > BPF_MAXINSNS) {
		XFREE(MTYPE_KERNEL_GTSM_FILTER, rules);
		return ksec_fail(
			err, -E2BIG, option, "listener",
			"fewer GTSM peers per listener (doc/gtsm-kernel.md)",
			"build (%u IPv4 + %u IPv6 GTSM peers need %u instructions, limit %d)", n4,
			n6, e.len, BPF_MAXINSNS);
	}
	if (prog) {
		struct emitter out = { NULL, e.len, 0, pass, fail };

		out.buf = XCALLOC(MTYPE_KERNEL_GTSM_FILTER, sizeof(*out.buf) * e.len);
		emit_program(&out, rules, n4, n6);
		prog->insns = out.buf;
		prog->len = out.len;
		prog->rules_v4 = n4;
		prog->rules_v6 = n6;
	}
	XFREE(MTYPE_KERNEL_GTSM_FILTER, rules);
	return (int)e.len;
}

int kernel_gtsm_filter_build(const struct kernel_gtsm_peer *peers, size_t n, unsigned families,
			     struct kernel_gtsm_prog *prog, struct kernel_sec_err *err)
{
	return ksec_gtsm_compile(peers, n, families, RET_ACCEPT, RET_DROP, "SO_ATTACH_FILTER", prog,
				 err);
}

void kernel_gtsm_prog_free(struct kernel_gtsm_prog *prog)
{
	if (!prog)
		return;
	XFREE(MTYPE_KERNEL_GTSM_FILTER, prog->insns);
	memset(prog, 0, sizeof(*prog));
}

const char *ksec_listener_str(int fd, char *buf, size_t size)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	struct ipaddr a;
	uint16_t port = 0;
	char addr[SU_STRLEN];

	if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0 ||
	    ipaddr_from_sockaddr(&a, &port, (struct sockaddr *)&ss) < 0) {
		snprintf(buf, size, "listener");
		return buf;
	}
	snprintf(buf, size, "listener %s", ipaddr_port_to_str(&a, port, addr, sizeof(addr)));
	return buf;
}

int kernel_gtsm_filter_detach(int fd, struct kernel_sec_err *err)
{
	char subj[SU_STRLEN + 16];
	int unused = 0;

	if (setsockopt(fd, SOL_SOCKET, SO_DETACH_FILTER, &unused, sizeof(unused)) < 0) {
		if (errno == ENOENT)
			return 0; /* none attached: nothing to do */
		return ksec_fail(err, -errno, "SO_DETACH_FILTER",
				 ksec_listener_str(fd, subj, sizeof(subj)), NULL, "detach");
	}
	return 0;
}

int kernel_gtsm_filter_attach(int fd, const struct kernel_gtsm_peer *peers, size_t n,
			      struct kernel_sec_err *err)
{
	char subj[SU_STRLEN + 16];
	struct kernel_gtsm_prog prog;
	struct sock_fprog fprog;
	struct ksec_sock sock;
	unsigned families = 0;
	int ret;

	ret = ksec_sock_info(fd, &sock);
	if (ret < 0)
		return ksec_fail(err, ret, "SO_ATTACH_FILTER", "listener", NULL,
				 "attach (socket family)");
	if (sock.v4)
		families |= KERNEL_GTSM_FILTER_V4;
	if (sock.v6)
		families |= KERNEL_GTSM_FILTER_V6;
	ret = kernel_gtsm_filter_build(peers, n, families, &prog, err);
	if (ret < 0)
		return ret;
	if (prog.rules_v4 + prog.rules_v6 == 0) {
		kernel_gtsm_prog_free(&prog);
		return kernel_gtsm_filter_detach(fd, err);
	}
	fprog.len = (unsigned short)prog.len;
	fprog.filter = prog.insns;
	/* Attaching over an existing filter swaps the program in one step (sk_attach_filter). */
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &fprog, sizeof(fprog)) < 0) {
		ret = -errno;
		ksec_fail(err, ret, "SO_ATTACH_FILTER", ksec_listener_str(fd, subj, sizeof(subj)),
			  NULL, "attach (%u IPv4 + %u IPv6 GTSM peers, %u instructions)",
			  prog.rules_v4, prog.rules_v6, prog.len);
		kernel_gtsm_prog_free(&prog);
		return ret;
	}
	ret = (int)prog.len;
	kernel_gtsm_prog_free(&prog);
	return ret;
}

int kernel_gtsm_filter_len(int fd)
{
	socklen_t len = 0;

	/* With a zero length the kernel only reports the program's instruction count. */
	if (getsockopt(fd, SOL_SOCKET, SO_GET_FILTER, NULL, &len) < 0)
		return -errno;
	return (int)len;
}
