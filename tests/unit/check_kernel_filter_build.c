/* SPDX-License-Identifier: ISC */
/*
 * kernel/gtsm_filter.c without privileges: the exact program for the worked example of
 * doc/gtsm-kernel.md, the classic-BPF validity rules the kernel applies, the verdict for every
 * rule at and below its minimum (run by a small interpreter of the opcodes we emit, with the
 * kernel's semantics: SKF_NET_OFF loads, a failed load returns 0), capacity figures and -E2BIG,
 * duplicates, families, and memory ownership. The same programs are attached to real listeners
 * in check_kernel_filter_live.
 */
#include "lib/compat.h"

#include <arpa/inet.h>
#include <check.h>
#include <linux/filter.h>

#include "kernel/kernel_security.h"

/* ---- a classic BPF interpreter for the opcodes the compiler emits ---- */

static void validate(const struct kernel_gtsm_prog *p)
{
	ck_assert_uint_ge(p->len, 1);
	ck_assert_uint_le(p->len, BPF_MAXINSNS);
	for (unsigned pc = 0; pc < p->len; pc++) {
		const struct sock_filter *f = &p->insns[pc];

		switch (f->code) {
		case BPF_LD | BPF_B | BPF_ABS:
		case BPF_LD | BPF_W | BPF_ABS:
			/* only the network header, through the negative offset */
			ck_assert_int_ge((int32_t)f->k, SKF_NET_OFF);
			ck_assert_int_lt((int32_t)f->k, SKF_NET_OFF + 40);
			break;
		case BPF_LD | BPF_MEM:
		case BPF_ST:
			ck_assert_uint_lt(f->k, BPF_MEMWORDS);
			break;
		case BPF_MISC | BPF_TAX:
		case BPF_MISC | BPF_TXA:
		case BPF_ALU | BPF_RSH | BPF_K:
		case BPF_RET | BPF_K:
			break;
		case BPF_JMP | BPF_JA:
			ck_assert_uint_lt(pc + 1 + f->k, p->len);
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
		case BPF_JMP | BPF_JGE | BPF_K:
			ck_assert_uint_lt(pc + 1 + f->jt, p->len);
			ck_assert_uint_lt(pc + 1 + f->jf, p->len);
			break;
		default:
			ck_abort_msg("unexpected opcode 0x%x at %u", f->code, pc);
		}
	}
	ck_assert_uint_eq(p->insns[p->len - 1].code, BPF_RET | BPF_K);
}

static uint32_t run(const struct kernel_gtsm_prog *p, const uint8_t *net, size_t len)
{
	uint32_t a = 0, x = 0, mem[BPF_MEMWORDS];
	bool set[BPF_MEMWORDS] = { false };
	unsigned steps = 0;

	for (unsigned pc = 0; pc < p->len; pc++) {
		const struct sock_filter *f = &p->insns[pc];
		size_t off, size;

		if (steps++ > 100000)
			ck_abort_msg("runaway program");
		switch (f->code) {
		case BPF_LD | BPF_B | BPF_ABS:
		case BPF_LD | BPF_W | BPF_ABS:
			off = (size_t)((int32_t)f->k - SKF_NET_OFF);
			size = BPF_SIZE(f->code) == BPF_B ? 1 : 4;
			if (off + size > len)
				return 0; /* the kernel's verdict on a failed load */
			a = 0;
			for (size_t i = 0; i < size; i++)
				a = a << 8 | net[off + i];
			break;
		case BPF_LD | BPF_MEM:
			if (!set[f->k])
				ck_abort_msg("M[%u] read before written", f->k);
			a = mem[f->k];
			break;
		case BPF_ST:
			mem[f->k] = a;
			set[f->k] = true;
			break;
		case BPF_MISC | BPF_TAX:
			x = a;
			break;
		case BPF_MISC | BPF_TXA:
			a = x;
			break;
		case BPF_ALU | BPF_RSH | BPF_K:
			a >>= f->k;
			break;
		case BPF_JMP | BPF_JA:
			pc += f->k;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K:
			pc += a == f->k ? f->jt : f->jf;
			break;
		case BPF_JMP | BPF_JGE | BPF_K:
			pc += a >= f->k ? f->jt : f->jf;
			break;
		case BPF_RET | BPF_K:
			return f->k;
		default:
			ck_abort_msg("opcode 0x%x", f->code);
		}
	}
	ck_abort_msg("fell off the program");
	return 0;
}

/* An IP header (+ 20 bytes of TCP) from src with this TTL / hop limit. */
static size_t packet(uint8_t *buf, const char *src, int ttl)
{
	struct ipaddr a;

	ck_assert_int_eq(ipaddr_from_str(&a, src), 0);
	memset(buf, 0, 60);
	if (a.family == AF_INET) {
		buf[0] = 0x45;
		buf[8] = (uint8_t)ttl;
		buf[9] = IPPROTO_TCP;
		memcpy(&buf[12], &a.u.v4, 4);
		memcpy(&buf[16], "\xc6\x33\x64\x01", 4);
		return 40;
	}
	buf[0] = 0x60;
	buf[6] = IPPROTO_TCP;
	buf[7] = (uint8_t)ttl;
	memcpy(&buf[8], &a.u.v6, 16);
	return 60;
}

static bool accepts(const struct kernel_gtsm_prog *p, const char *src, int ttl)
{
	uint8_t buf[60];
	size_t len = packet(buf, src, ttl);

	return run(p, buf, len) != 0;
}

static struct kernel_gtsm_peer peer(const char *addr, int min)
{
	struct kernel_gtsm_peer p;

	memset(&p, 0, sizeof(p));
	ck_assert_int_eq(ipaddr_from_str(&p.addr, addr), 0);
	p.min_ttl = (uint8_t)min;
	return p;
}

#define ALL (KERNEL_GTSM_FILTER_V4 | KERNEL_GTSM_FILTER_V6)
#define NET(o) ((uint32_t)(SKF_NET_OFF + (o)))
#define S(c, k)                \
	{                      \
		(c), 0, 0, (k) \
	}
#define J(c, t, f, k)              \
	{                          \
		(c), (t), (f), (k) \
	}

/* doc/gtsm-kernel.md, "Worked example", instruction for instruction (derived by hand). */
START_TEST(test_worked_example)
{
	/* clang-format off */
	static const struct sock_filter want[] = {
		S(BPF_LD | BPF_B | BPF_ABS, NET(0)),	    /*  0 version/IHL byte */
		S(BPF_ALU | BPF_RSH | BPF_K, 4),	    /*  1 */
		J(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 4),	    /*  2 IPv4 -> 4 */
		S(BPF_JMP | BPF_JA, 13),		    /*  3 else -> 17 */
		S(BPF_LD | BPF_B | BPF_ABS, NET(8)),	    /*  4 TTL */
		S(BPF_MISC | BPF_TAX, 0),		    /*  5 X = TTL */
		S(BPF_LD | BPF_W | BPF_ABS, NET(12)),	    /*  6 A = source */
		J(BPF_JMP | BPF_JEQ | BPF_K, 2, 0, 0xc0000201), /*  7 192.0.2.1 -> 10 */
		J(BPF_JMP | BPF_JEQ | BPF_K, 3, 0, 0xc0000202), /*  8 192.0.2.2 -> 12 */
		S(BPF_JMP | BPF_JA, 6),			    /*  9 -> 16 */
		S(BPF_MISC | BPF_TXA, 0),		    /* 10 */
		J(BPF_JMP | BPF_JGE | BPF_K, 2, 3, 255),    /* 11 TTL >= 255 ? 14 : 15 */
		S(BPF_MISC | BPF_TXA, 0),		    /* 12 */
		J(BPF_JMP | BPF_JGE | BPF_K, 0, 1, 254),    /* 13 TTL >= 254 ? 14 : 15 */
		S(BPF_RET | BPF_K, 0xffffffff),		    /* 14 accept */
		S(BPF_RET | BPF_K, 0),			    /* 15 drop */
		S(BPF_RET | BPF_K, 0xffffffff),		    /* 16 other IPv4 source */
		J(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 6),	    /* 17 IPv6 ? 19 : 18 */
		S(BPF_RET | BPF_K, 0xffffffff),		    /* 18 neither family */
		S(BPF_LD | BPF_B | BPF_ABS, NET(7)),	    /* 19 hop limit */
		S(BPF_MISC | BPF_TAX, 0),		    /* 20 */
		S(BPF_LD | BPF_W | BPF_ABS, NET(8)),	    /* 21 source word 0 */
		S(BPF_ST, 0),				    /* 22 */
		S(BPF_LD | BPF_W | BPF_ABS, NET(12)),	    /* 23 */
		S(BPF_ST, 1),				    /* 24 */
		S(BPF_LD | BPF_W | BPF_ABS, NET(16)),	    /* 25 */
		S(BPF_ST, 2),				    /* 26 */
		S(BPF_LD | BPF_W | BPF_ABS, NET(20)),	    /* 27 */
		S(BPF_ST, 3),				    /* 28 */
		S(BPF_LD | BPF_MEM, 0),			    /* 29 block: 2001:db8:0:0 ... */
		J(BPF_JMP | BPF_JEQ | BPF_K, 0, 11, 0x20010db8), /* 30 else -> 42 */
		S(BPF_LD | BPF_MEM, 1),			    /* 31 */
		J(BPF_JMP | BPF_JEQ | BPF_K, 0, 9, 0),	    /* 32 else -> 42 */
		S(BPF_LD | BPF_MEM, 2),			    /* 33 */
		J(BPF_JMP | BPF_JEQ | BPF_K, 0, 7, 0),	    /* 34 else -> 42 */
		S(BPF_LD | BPF_MEM, 3),			    /* 35 */
		J(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 1),	    /* 36 2001:db8::1 -> 38 */
		S(BPF_JMP | BPF_JA, 4),			    /* 37 -> 42 */
		S(BPF_MISC | BPF_TXA, 0),		    /* 38 */
		J(BPF_JMP | BPF_JGE | BPF_K, 0, 1, 255),    /* 39 hop limit >= 255 ? 40 : 41 */
		S(BPF_RET | BPF_K, 0xffffffff),		    /* 40 */
		S(BPF_RET | BPF_K, 0),			    /* 41 */
		S(BPF_RET | BPF_K, 0xffffffff),		    /* 42 other IPv6 source */
	};
	/* clang-format on */
	struct kernel_gtsm_peer peers[] = {
		peer("2001:db8::1", 255), /* hops 1 */
		peer("192.0.2.2", 254),	  /* hops 2 */
		peer("198.51.100.7", 0),  /* no GTSM: no rule */
		peer("192.0.2.1", 255),	  /* hops 1 */
	};
	struct kernel_gtsm_prog prog;
	int len = kernel_gtsm_filter_build(peers, array_size(peers), ALL, &prog, NULL);

	ck_assert_int_eq(len, (int)array_size(want));
	ck_assert_uint_eq(prog.len, array_size(want));
	ck_assert_uint_eq(prog.rules_v4, 2);
	ck_assert_uint_eq(prog.rules_v6, 1);
	for (unsigned i = 0; i < array_size(want); i++) {
		const struct sock_filter *g = &prog.insns[i];

		ck_assert_msg(g->code == want[i].code && g->jt == want[i].jt &&
				      g->jf == want[i].jf && g->k == want[i].k,
			      "insn %u: got {0x%x,%u,%u,0x%x} want {0x%x,%u,%u,0x%x}", i, g->code,
			      g->jt, g->jf, g->k, want[i].code, want[i].jt, want[i].jf, want[i].k);
	}
	validate(&prog);
	/* the verdicts of the example */
	ck_assert(accepts(&prog, "192.0.2.1", 255));
	ck_assert(!accepts(&prog, "192.0.2.1", 254));
	ck_assert(accepts(&prog, "192.0.2.2", 254));
	ck_assert(!accepts(&prog, "192.0.2.2", 253));
	ck_assert(accepts(&prog, "198.51.100.7", 1));
	ck_assert(accepts(&prog, "203.0.113.9", 1));
	ck_assert(accepts(&prog, "2001:db8::1", 255));
	ck_assert(!accepts(&prog, "2001:db8::1", 254));
	ck_assert(accepts(&prog, "2001:db8::2", 1));
	ck_assert(accepts(&prog, "2001:db8:1::1", 1));
	kernel_gtsm_prog_free(&prog);
	ck_assert_ptr_null(prog.insns);
}
END_TEST

/* Many peers, several minimums, several IPv6 /96s: every rule at, below and above its minimum,
 * and addresses next to the configured ones. Documentation addresses only. */
START_TEST(test_every_rule_verdict)
{
	static const char *const nets[] = { "192.0.2", "198.51.100", "203.0.113" };
	enum { N4 = 700, N6 = 300 };
	static struct kernel_gtsm_peer peers[N4 + N6];
	struct kernel_gtsm_prog prog;
	char a[INET6_ADDRSTRLEN];
	int len;

	for (int i = 0; i < N4; i++) {
		snprintf(a, sizeof(a), "%s.%d", nets[i % 3], i / 3 + 1); /* hosts 1..234 */
		peers[i] = peer(a, 2 + (i * 7) % 254);
	}
	for (int i = 0; i < N6; i++) {
		snprintf(a, sizeof(a), "2001:db8:%x::%x", i % 5, 0x100 + i);
		peers[N4 + i] = peer(a, 2 + (i * 13) % 254);
	}
	len = kernel_gtsm_filter_build(peers, array_size(peers), ALL, &prog, NULL);
	ck_assert_int_gt(len, 0);
	ck_assert_uint_eq(prog.rules_v4, N4);
	ck_assert_uint_eq(prog.rules_v6, N6);
	validate(&prog);
	for (size_t i = 0; i < array_size(peers); i++) {
		int min = peers[i].min_ttl;

		ipaddr_to_str(&peers[i].addr, a, sizeof(a));
		ck_assert_msg(accepts(&prog, a, min), "%s at its minimum %d", a, min);
		ck_assert_msg(accepts(&prog, a, 255), "%s at 255", a);
		ck_assert_msg(!accepts(&prog, a, min - 1), "%s below its minimum %d", a, min);
		ck_assert_msg(!accepts(&prog, a, 1), "%s at TTL 1", a);
	}
	/* neighbours of configured addresses are not GTSM peers */
	ck_assert(accepts(&prog, "203.0.113.250", 1));
	ck_assert(accepts(&prog, "192.0.2.240", 1));
	ck_assert(accepts(&prog, "198.51.100.0", 1));
	ck_assert(accepts(&prog, "2001:db8:0::ff", 1));
	ck_assert(accepts(&prog, "2001:db8:5::100", 1));
	ck_assert(accepts(&prog, "2001:db8:0:1::100", 1)); /* same low word, other /96 */
	/* a truncated header fails the load: the kernel (and we) return 0 */
	{
		uint8_t buf[60];

		packet(buf, "192.0.2.1", 255);
		ck_assert_uint_eq(run(&prog, buf, 10), 0);
	}
	kernel_gtsm_prog_free(&prog);
}
END_TEST

/* Version nibbles other than 4 and 6 are not ours to judge. */
START_TEST(test_other_versions_accepted)
{
	struct kernel_gtsm_peer peers[] = { peer("192.0.2.1", 255), peer("2001:db8::1", 255) };
	struct kernel_gtsm_prog prog;
	uint8_t buf[60];

	ck_assert_int_gt(kernel_gtsm_filter_build(peers, 2, ALL, &prog, NULL), 0);
	packet(buf, "192.0.2.1", 1);
	buf[0] = 0x55;
	ck_assert_uint_ne(run(&prog, buf, 40), 0);
	kernel_gtsm_prog_free(&prog);
}
END_TEST

/* v4-mapped input is the IPv4 peer; duplicates (also through mapping) are refused. */
START_TEST(test_mapped_and_duplicates)
{
	struct kernel_gtsm_peer mapped[] = { peer("::ffff:192.0.2.1", 255) };
	struct kernel_gtsm_peer dup[] = { peer("192.0.2.1", 255), peer("::ffff:192.0.2.1", 254) };
	struct kernel_gtsm_peer dup6[] = { peer("2001:db8::1", 255), peer("2001:DB8::1", 255) };
	struct kernel_gtsm_prog prog;
	struct kernel_sec_err err;

	ck_assert_int_gt(kernel_gtsm_filter_build(mapped, 1, ALL, &prog, NULL), 0);
	ck_assert_uint_eq(prog.rules_v4, 1);
	ck_assert_uint_eq(prog.rules_v6, 0);
	ck_assert(!accepts(&prog, "192.0.2.1", 254));
	kernel_gtsm_prog_free(&prog);

	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(kernel_gtsm_filter_build(dup, 2, ALL, &prog, &err), -EINVAL);
	ck_assert_ptr_null(prog.insns);
	ck_assert_int_eq(err.code, -EINVAL);
	ck_assert_str_eq(err.option, "SO_ATTACH_FILTER");
	ck_assert_msg(strstr(err.msg, "peer 192.0.2.1") && strstr(err.msg, "listed twice") &&
			      strstr(err.msg, "Invalid argument"),
		      "%s", err.msg);
	ck_assert_int_eq(kernel_gtsm_filter_build(dup6, 2, ALL, NULL, NULL), -EINVAL);
	/* but the same address twice without GTSM is not a rule at all */
	dup[0].min_ttl = 0;
	ck_assert_int_gt(kernel_gtsm_filter_build(dup, 2, ALL, NULL, NULL), 0);
}
END_TEST

START_TEST(test_families_and_empty)
{
	struct kernel_gtsm_peer peers[] = { peer("192.0.2.1", 255), peer("2001:db8::1", 255),
					    peer("192.0.2.9", 0) };
	struct kernel_gtsm_peer bad = { .min_ttl = 255 };
	struct kernel_gtsm_prog prog;

	ck_assert_int_gt(kernel_gtsm_filter_build(peers, 3, KERNEL_GTSM_FILTER_V4, &prog, NULL), 0);
	ck_assert_uint_eq(prog.rules_v4, 1);
	ck_assert_uint_eq(prog.rules_v6, 0);
	ck_assert(accepts(&prog, "2001:db8::1", 1)); /* an AF_INET listener never sees it */
	kernel_gtsm_prog_free(&prog);
	ck_assert_int_gt(kernel_gtsm_filter_build(peers, 3, KERNEL_GTSM_FILTER_V6, &prog, NULL), 0);
	ck_assert_uint_eq(prog.rules_v4, 0);
	ck_assert_uint_eq(prog.rules_v6, 1);
	kernel_gtsm_prog_free(&prog);
	/* no rule: an accept-everything program (kernel_gtsm_filter_attach detaches instead) */
	ck_assert_int_gt(kernel_gtsm_filter_build(peers + 2, 1, ALL, &prog, NULL), 0);
	ck_assert_uint_eq(prog.rules_v4 + prog.rules_v6, 0);
	validate(&prog);
	ck_assert(accepts(&prog, "192.0.2.9", 1));
	kernel_gtsm_prog_free(&prog);
	ck_assert_int_eq(kernel_gtsm_filter_build(&bad, 1, ALL, NULL, NULL), -EINVAL);
}
END_TEST

/*
 * Capacity. Only 762 IPv4 documentation host addresses exist (192.0.2/24, 198.51.100/24,
 * 203.0.113/24), fewer than fit, so the size of each layout is checked against an independent
 * model (doc/gtsm-kernel.md "Limits") for every count that can be built, and the model gives the
 * limits; IPv6 (2001:db8::/32) reaches the limits for real.
 */
typedef struct kernel_gtsm_peer (*peer_fn)(int i);

#define V4_DOC_HOSTS 762

static struct kernel_gtsm_peer *peer_table(peer_fn make, int n)
{
	struct kernel_gtsm_peer *t = calloc((size_t)n, sizeof(*t));

	ck_assert_ptr_nonnull(t);
	for (int i = 0; i < n; i++)
		t[i] = make(i);
	return t;
}

static struct kernel_gtsm_peer v4_same_min(int i)
{
	static const uint32_t nets[] = { 0xc0000200u, 0xc6336400u, 0xcb007100u };
	struct kernel_gtsm_peer p = { .min_ttl = 255 };

	ck_assert_int_lt(i, V4_DOC_HOSTS);
	p.addr.family = AF_INET;
	p.addr.u.v4.s_addr = htonl(nets[i / 254] + (uint32_t)(i % 254) + 1);
	return p;
}

static struct kernel_gtsm_peer v4_distinct_min(int i)
{
	struct kernel_gtsm_peer p = v4_same_min(i);

	p.min_ttl = (uint8_t)(2 + i % 254); /* consecutive addresses never share a minimum */
	return p;
}

static struct kernel_gtsm_peer v6_same_96(int i)
{
	struct kernel_gtsm_peer p = { .min_ttl = 255 };
	uint32_t w = htonl((uint32_t)i + 1);

	p.addr.family = AF_INET6;
	p.addr.u.v6.s6_addr[0] = 0x20;
	p.addr.u.v6.s6_addr[1] = 0x01;
	p.addr.u.v6.s6_addr[2] = 0x0d;
	p.addr.u.v6.s6_addr[3] = 0xb8;
	memcpy(&p.addr.u.v6.s6_addr[12], &w, 4); /* 2001:db8::<i+1> */
	return p;
}

static struct kernel_gtsm_peer v6_own_96(int i)
{
	struct kernel_gtsm_peer p = v6_same_96(0);
	uint32_t w = htonl((uint32_t)i);

	memcpy(&p.addr.u.v6.s6_addr[8], &w, 4); /* 2001:db8::<i>:0:1, a /96 each */
	p.min_ttl = (uint8_t)(2 + i % 254);
	return p;
}

/* The model: fixed part + blocks of at most `cap` rules, each rule `per_rule` instructions and
 * each block `per_block` more. */
struct layout {
	peer_fn make;
	unsigned fixed, cap, per_rule, per_block;
	int limit; /* the documented figure */
	const char *what;
};

static const struct layout layouts[] = {
	/* dispatch 4 + v4 loads 3 + ret 1 + empty v6 section 3; block: jeq each, ja, 2 tail, 2 ret
	 */
	{ v4_same_min, 11, 251, 1, 5, 4005, "IPv4, one minimum" },
	/* three instructions per rule (jeq + its own tail) when every minimum in a block
	 * differs; block: ja, 2 ret */
	{ v4_distinct_min, 11, 84, 3, 3, 1344, "IPv4, distinct minimums" },
	/* dispatch 4 + empty v4 section 1 + v6 check 2 + loads 10 + ret 1; block header 7 */
	{ v6_same_96, 18, 244, 1, 12, 3886, "IPv6 in one /96, one minimum" },
	{ v6_own_96, 18, 1, 13, 0, 313, "IPv6, each in its own /96" },
};

static unsigned model(const struct layout *l, unsigned n)
{
	unsigned full = n / l->cap, rest = n % l->cap;

	return l->fixed + full * (l->cap * l->per_rule + l->per_block) +
	       (rest ? rest * l->per_rule + l->per_block : 0);
}

START_TEST(test_capacity_model)
{
	for (unsigned m = 0; m < array_size(layouts); m++) {
		const struct layout *l = &layouts[m];
		bool v4 = l->make == v4_same_min || l->make == v4_distinct_min;
		int buildable = v4 ? V4_DOC_HOSTS : 5000;
		struct kernel_gtsm_peer *t = peer_table(l->make, buildable);
		int limit = 0;

		/* the builder agrees with the model wherever addresses exist */
		for (int n = 1; n <= buildable; n++) {
			int got = kernel_gtsm_filter_build(t, (size_t)n, ALL, NULL, NULL);

			if (model(l, (unsigned)n) > BPF_MAXINSNS) {
				ck_assert_int_eq(got, -E2BIG);
				break;
			}
			ck_assert_msg(got == (int)model(l, (unsigned)n),
				      "%s, %d peers: %d, model %u", l->what, n, got,
				      model(l, (unsigned)n));
		}
		while (model(l, (unsigned)limit + 1) <= BPF_MAXINSNS)
			limit++;
		printf("capacity: %s: %d peers (model%s)\n", l->what, limit,
		       v4 ? "; builder checked up to 762" : " and builder");
		ck_assert_int_eq(limit, l->limit);
		free(t);
	}
}
END_TEST

/* Programs at exactly 4096 instructions: IPv6 alone, and all 762 IPv4 documentation hosts
 * topped up with IPv6 peers; one more peer is -E2BIG with a message that says what to do. */
START_TEST(test_capacity_limit)
{
	struct kernel_gtsm_peer *t = peer_table(v6_same_96, 3887);
	struct kernel_gtsm_peer *mix = calloc(5000, sizeof(*mix));
	struct kernel_gtsm_prog prog;
	struct kernel_sec_err err;
	char a[INET6_ADDRSTRLEN];
	int n6 = 0;

	ck_assert_int_eq(kernel_gtsm_filter_build(t, 3886, ALL, &prog, NULL), BPF_MAXINSNS);
	validate(&prog);
	for (int i = 0; i < 3886; i += 11) {
		ipaddr_to_str(&t[i].addr, a, sizeof(a));
		ck_assert_msg(accepts(&prog, a, 255) && !accepts(&prog, a, 254), "%s", a);
	}
	kernel_gtsm_prog_free(&prog);
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(kernel_gtsm_filter_build(t, 3887, ALL, NULL, &err), -E2BIG);
	ck_assert_msg(strstr(err.msg, "0 IPv4 + 3887 IPv6") && strstr(err.msg, "limit 4096") &&
			      strstr(err.msg, "E2BIG") && strstr(err.msg, "fewer GTSM peers"),
		      "%s", err.msg);
	free(t);

	ck_assert_ptr_nonnull(mix);
	for (int i = 0; i < V4_DOC_HOSTS; i++)
		mix[i] = v4_same_min(i);
	for (;;) {
		mix[V4_DOC_HOSTS + n6] = v6_same_96(n6);
		if (kernel_gtsm_filter_build(mix, (size_t)V4_DOC_HOSTS + n6 + 1, ALL, NULL, NULL) <
		    0)
			break;
		n6++;
	}
	printf("capacity: 762 IPv4 + %d IPv6 (one /96, one minimum) fill 4096\n", n6);
	ck_assert_int_eq(kernel_gtsm_filter_build(mix, (size_t)V4_DOC_HOSTS + n6, ALL, &prog, NULL),
			 BPF_MAXINSNS);
	validate(&prog);
	ck_assert(!accepts(&prog, "203.0.113.254", 254));
	ck_assert(accepts(&prog, "203.0.113.254", 255));
	kernel_gtsm_prog_free(&prog);
	free(mix);

	/* more rules than instructions: refused before anything is allocated */
	t = peer_table(v6_same_96, 5000);
	ck_assert_int_eq(kernel_gtsm_filter_build(t, 5000, ALL, NULL, NULL), -E2BIG);
	free(t);
	ck_assert_uint_eq(MTYPE_KERNEL_GTSM_FILTER->allocated, 0);
}
END_TEST

/* The largest buildable programs of each layout are valid and right for every rule. */
START_TEST(test_full_programs_valid)
{
	for (unsigned m = 0; m < array_size(layouts); m++) {
		const struct layout *l = &layouts[m];
		bool v4 = l->make == v4_same_min || l->make == v4_distinct_min;
		int n = v4 ? V4_DOC_HOSTS : l->limit;
		struct kernel_gtsm_peer *t = peer_table(l->make, n);
		struct kernel_gtsm_prog prog;
		char a[INET6_ADDRSTRLEN];

		ck_assert_int_gt(kernel_gtsm_filter_build(t, (size_t)n, ALL, &prog, NULL), 0);
		validate(&prog);
		for (int i = 0; i < n; i++) {
			ipaddr_to_str(&t[i].addr, a, sizeof(a));
			ck_assert_msg(accepts(&prog, a, t[i].min_ttl), "%s", a);
			ck_assert_msg(!accepts(&prog, a, t[i].min_ttl - 1), "%s", a);
		}
		kernel_gtsm_prog_free(&prog);
		free(t);
	}
	ck_assert_uint_eq(MTYPE_KERNEL_GTSM_FILTER->allocated, 0);
}
END_TEST

/* ---- the reuseport selector of the GTSM listener group (gtsm_group.c) ---- */

/*
 * The selector is the filter with "accept" -> 0 (the listener) and "drop" -> 1 (the sink): same
 * instructions otherwise, so everything proved about the filter's layout, limits and verdicts
 * holds for it; checked on the worked example and on a 1000-peer program.
 */
static void selector_is_filter(const struct kernel_gtsm_peer *peers, size_t n)
{
	struct kernel_gtsm_prog f, sel;
	int lf = kernel_gtsm_filter_build(peers, n, ALL, &f, NULL);
	int ls = kernel_gtsm_selector_build(peers, n, ALL, &sel, NULL);

	ck_assert_int_gt(lf, 1);
	ck_assert_int_eq(ls, lf);
	ck_assert_int_eq(kernel_gtsm_selector_build(peers, n, ALL, NULL, NULL), ls);
	ck_assert_uint_eq(sel.rules_v4, f.rules_v4);
	ck_assert_uint_eq(sel.rules_v6, f.rules_v6);
	validate(&sel);
	for (unsigned i = 0; i < f.len; i++) {
		struct sock_filter want = f.insns[i];

		if (want.code == (BPF_RET | BPF_K)) {
			ck_assert(want.k == 0xffffffffu || want.k == 0);
			want.k = want.k ? KERNEL_GTSM_GROUP_LISTENER : KERNEL_GTSM_GROUP_SINK;
		}
		ck_assert_msg(sel.insns[i].code == want.code && sel.insns[i].jt == want.jt &&
				      sel.insns[i].jf == want.jf && sel.insns[i].k == want.k,
			      "insn %u differs", i);
	}
	/* verdicts: the sink exactly where the filter drops */
	for (size_t i = 0; i < n; i++) {
		char a[INET6_ADDRSTRLEN];
		uint8_t buf[60];
		int min = peers[i].min_ttl;

		ipaddr_to_str(&peers[i].addr, a, sizeof(a));
		for (int ttl = min - 1; ttl <= min + 1 && ttl <= 255; ttl++) {
			size_t len;

			if (ttl < 1)
				continue;
			len = packet(buf, a, ttl);
			ck_assert_msg(run(&sel, buf, len) == (ttl < min
								      ? KERNEL_GTSM_GROUP_SINK
								      : KERNEL_GTSM_GROUP_LISTENER),
				      "%s TTL %d (minimum %d)", a, ttl, min);
			ck_assert_uint_eq(run(&f, buf, len) != 0, ttl >= min);
		}
	}
	kernel_gtsm_prog_free(&f);
	kernel_gtsm_prog_free(&sel);
}

START_TEST(test_selector_is_filter)
{
	struct kernel_gtsm_peer example[] = {
		peer("2001:db8::1", 255),
		peer("192.0.2.2", 254),
		peer("198.51.100.7", 0),
		peer("192.0.2.1", 255),
	};
	static const char *const nets[] = { "192.0.2", "198.51.100", "203.0.113" };
	static struct kernel_gtsm_peer many[1000];
	char a[INET6_ADDRSTRLEN];

	selector_is_filter(example, array_size(example));
	for (int i = 0; i < 700; i++) {
		snprintf(a, sizeof(a), "%s.%d", nets[i % 3], i / 3 + 1);
		many[i] = peer(a, 2 + (i * 7) % 254);
	}
	for (int i = 0; i < 300; i++) {
		snprintf(a, sizeof(a), "2001:db8:%x::%x", i % 5, 0x100 + i);
		many[700 + i] = peer(a, 2 + (i * 13) % 254);
	}
	selector_is_filter(many, array_size(many));
}
END_TEST

/* No GTSM peer (none at all, only min 0, only the other family): the one instruction
 * "ret #0", never an empty or missing selector; errors as for the filter. */
START_TEST(test_selector_without_rules)
{
	struct kernel_gtsm_peer none[] = { peer("192.0.2.1", 0), peer("2001:db8::1", 0) };
	struct kernel_gtsm_peer v6[] = { peer("2001:db8::1", 255) };
	struct kernel_gtsm_peer dup[] = { peer("192.0.2.1", 255), peer("192.0.2.1", 254) };
	struct kernel_gtsm_prog sel;
	struct kernel_sec_err err;

	ck_assert_int_eq(kernel_gtsm_selector_build(NULL, 0, ALL, &sel, NULL), 1);
	ck_assert_uint_eq(sel.len, 1);
	ck_assert_uint_eq(sel.insns[0].code, BPF_RET | BPF_K);
	ck_assert_uint_eq(sel.insns[0].k, KERNEL_GTSM_GROUP_LISTENER);
	kernel_gtsm_prog_free(&sel);
	ck_assert_int_eq(kernel_gtsm_selector_build(none, 2, ALL, NULL, NULL), 1);
	ck_assert_int_eq(kernel_gtsm_selector_build(v6, 1, KERNEL_GTSM_FILTER_V4, NULL, NULL), 1);
	ck_assert_int_eq(kernel_gtsm_selector_build(dup, 2, ALL, &sel, &err), -EINVAL);
	ck_assert_str_eq(err.option, "SO_ATTACH_REUSEPORT_CBPF");
	ck_assert_msg(strstr(err.msg, "listed twice"), "%s", err.msg);
}
END_TEST

static Suite *filter_build_suite(void)
{
	Suite *s = suite_create("kernel_gtsm_filter_build");
	TCase *tc = tcase_create("build");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_worked_example);
	tcase_add_test(tc, test_every_rule_verdict);
	tcase_add_test(tc, test_other_versions_accepted);
	tcase_add_test(tc, test_mapped_and_duplicates);
	tcase_add_test(tc, test_families_and_empty);
	tcase_add_test(tc, test_capacity_model);
	tcase_add_test(tc, test_capacity_limit);
	tcase_add_test(tc, test_full_programs_valid);
	tcase_add_test(tc, test_selector_is_filter);
	tcase_add_test(tc, test_selector_without_rules);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(filter_build_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
