/* SPDX-License-Identifier: ISC */
/*
 * AS paths: wire parsing for 2- and 4-octet sessions, the RFC 6793 AS4_PATH merge, encoding
 * with AS_TRANS for 2-octet peers, interning, prepend, loop check and FRR's text form.
 *
 * Internal form (struct bgp_aspath data): the segments as on the wire but always with 4-octet
 * ASNs in host order: type (1), count (1), count x u32 (unaligned, read with memcpy).
 */
#include "lib/compat.h"

#include <errno.h>

#include "bgpd/wire/bgp_codec.h"
#include "bgpd/wire/bgp_open.h"
#include "bgpd/wire/bgp_vstore.h"
#include "lib/hash.h"
#include "lib/log.h"
#include "lib/log_limit.h"

DEFINE_MTYPE(BGP_ASPATH, "BGP AS path");

#define SEG_MAX 255 /* ASes per segment: the count is one octet */

static struct bgp_aspath *aspath_empty_path;

/*
 * Paths up to BGP_VSTORE_MAX_SIZE bytes (header included: 60 ASes in one segment) live in a
 * store of slabs with a 4-byte index slot each (bgp_vstore.c). A full table has about 100k
 * distinct paths of 2 to 8 ASes (26 to 50 bytes): malloc would add a 16-byte header and round
 * up to 16, and lib/hash.c a 12-byte slot. The rare longer paths go to malloc and lib/hash.c.
 */
static struct bgp_vstore aspath_store;
static struct hash *aspath_large_hash;
static size_t aspath_large_bytes;

static size_t aspath_obj_size(size_t len)
{
	return (sizeof(struct bgp_aspath) + len + 7) & ~(size_t)7;
}

static bool aspath_is_large(size_t len)
{
	return aspath_obj_size(len) > BGP_VSTORE_MAX_SIZE;
}

/*
 * Lookup key: an AS path header followed by room for the largest path. Parsers write their
 * result straight into it, so that a path already interned costs a hash and a compare, no
 * allocation. Static like the intern tables: the codec runs on one thread (nothing here is
 * locked), and thread-local 64 KiB buffers would cost every thread of the process.
 */
static _Alignas(struct bgp_aspath) uint8_t key_buf[sizeof(struct bgp_aspath) + BGP_ASPATH_MAX_DATA];

static struct bgp_aspath *key_path(void)
{
	return (struct bgp_aspath *)key_buf;
}

uint8_t *bgp_aspath_key_data(void)
{
	return key_path()->data;
}

static uint32_t aspath_hash_key(const void *item)
{
	return ((const struct bgp_aspath *)item)->hash;
}

static bool aspath_eq(const void *a, const void *b)
{
	const struct bgp_aspath *pa = a, *pb = b;

	return pa->len == pb->len && memcmp(pa->data, pb->data, pa->len) == 0;
}

static void aspath_init(void)
{
	if (!aspath_store.mt)
		bgp_vstore_init(&aspath_store, MTYPE_BGP_ASPATH, MTYPE_BGP_VSTORE_INDEX, aspath_eq);
}

/* ---- walking the internal form ---- */

/* Validate internal data: known segment types, non-empty segments, no overrun. */
static bool data_valid(const uint8_t *d, size_t len)
{
	size_t i = 0;

	while (i < len) {
		if (len - i < 2 || d[i] < AS_SEG_SET || d[i] > AS_SEG_CONFED_SET || d[i + 1] == 0)
			return false;
		if ((size_t)d[i + 1] * 4 > len - i - 2)
			return false;
		i += 2 + (size_t)d[i + 1] * 4;
	}
	return true;
}

unsigned bgp_aspath_data_count(const uint8_t *d, size_t len)
{
	unsigned n = 0;
	size_t i;

	/* RFC 4271 9.1.2.2 a and RFC 6793 4.2.3: a SET counts one, confed segments none. */
	for (i = 0; i + 2 <= len; i += 2 + (size_t)d[i + 1] * 4) {
		if (d[i] == AS_SEG_SEQUENCE)
			n += d[i + 1];
		else if (d[i] == AS_SEG_SET)
			n += 1;
	}
	return n;
}

static uint32_t data_first_as(const uint8_t *d, size_t len)
{
	size_t i = 0;

	/* The neighbouring AS for MED comparison: skip our confederation's segments (RFC 5065
	 * 5.3), then the path must start with a SEQUENCE. */
	while (i + 2 <= len && (d[i] == AS_SEG_CONFED_SEQUENCE || d[i] == AS_SEG_CONFED_SET))
		i += 2 + (size_t)d[i + 1] * 4;
	if (i + 6 <= len && d[i] == AS_SEG_SEQUENCE)
		return bgp_get_u32(d + i + 2);
	return 0;
}

uint32_t bgp_aspath_leftmost(const struct bgp_aspath *p)
{
	if (!p || p->len < 6 || p->data[0] != AS_SEG_SEQUENCE)
		return 0;
	return bgp_get_u32(p->data + 2);
}

bool bgp_aspath_has_confed(const struct bgp_aspath *p)
{
	size_t i;

	if (!p)
		return false;
	for (i = 0; i + 2 <= p->len; i += 2 + (size_t)p->data[i + 1] * 4)
		if (p->data[i] == AS_SEG_CONFED_SEQUENCE || p->data[i] == AS_SEG_CONFED_SET)
			return true;
	return false;
}

/* ---- interning ---- */

uint32_t bgp_aspath_hash(const uint8_t *data, size_t len)
{
	return hash_bytes(data, len, 0x61737061u);
}

void bgp_aspath_prefetch(uint32_t hv, size_t len)
{
	if (!aspath_is_large(len)) /* the long ones are in lib/hash.c */
		bgp_vstore_prefetch(&aspath_store, hv);
}

struct bgp_aspath *bgp_aspath_intern_data(const uint8_t *data, size_t len)
{
	struct bgp_aspath *key = key_path(), *p;

	if (len > BGP_ASPATH_MAX_DATA)
		return NULL;
	aspath_init();
	if (len && data != key->data)
		memmove(key->data, data, len);
	key->len = (uint16_t)len;
	key->hash = bgp_aspath_hash(key->data, len);
	if (aspath_is_large(len))
		p = aspath_large_hash ? hash_lookup(aspath_large_hash, key) : NULL;
	else
		p = bgp_vstore_lookup(&aspath_store, key, key->hash);
	if (p) {
		p->refcnt++;
		return p;
	}
	if (aspath_is_large(len)) {
		if (!aspath_large_hash)
			aspath_large_hash =
				hash_new(aspath_hash_key, aspath_eq, "BGP AS paths (long)");
		aspath_large_bytes += aspath_obj_size(len);
		p = XMALLOC(MTYPE_BGP_ASPATH, aspath_obj_size(len));
	} else {
		p = bgp_vstore_add(&aspath_store, key->hash, aspath_obj_size(len));
	}
	p->refcnt = 1;
	p->hash = key->hash;
	p->len = (uint16_t)len;
	p->path_len = (uint16_t)MIN(bgp_aspath_data_count(key->data, len), UINT16_MAX);
	p->first_as = data_first_as(key->data, len);
	memcpy(p->data, key->data, len);
	if (aspath_is_large(len))
		hash_insert(aspath_large_hash, p);
	return p;
}

struct bgp_aspath *bgp_aspath_intern_raw(const uint8_t *data, uint16_t len)
{
	if (!data_valid(data, len))
		return NULL;
	return bgp_aspath_intern_data(data, len);
}

struct bgp_aspath *bgp_aspath_empty(void)
{
	if (!aspath_empty_path) {
		/* Held by the module (one reference) so the empty path is never freed and
		 * re-created as routes come and go. */
		aspath_empty_path = bgp_aspath_intern_data(NULL, 0);
	}
	return bgp_aspath_ref(aspath_empty_path);
}

struct bgp_aspath *bgp_aspath_ref(struct bgp_aspath *p)
{
	if (p)
		p->refcnt++;
	return p;
}

void bgp_aspath_unref(struct bgp_aspath *p)
{
	if (!p)
		return;
	if (p->refcnt == 0) {
		log_err("BUG: AS path reference count underflow; please report");
		return;
	}
	if (--p->refcnt)
		return;
	if (aspath_is_large(p->len)) {
		hash_remove(aspath_large_hash, p);
		aspath_large_bytes -= aspath_obj_size(p->len);
		XFREE(MTYPE_BGP_ASPATH, p);
		return;
	}
	bgp_vstore_del(&aspath_store, p);
}

void bgp_aspath_prefetch_release(const struct bgp_aspath *p)
{
	if (p && p->refcnt == 1 && !aspath_is_large(p->len))
		bgp_vstore_prefetch(&aspath_store, p->hash);
}

size_t bgp_aspath_count(void)
{
	bgp_attr_release_pending(); /* queued sets hold paths */
	return aspath_store.live + (aspath_large_hash ? hash_count(aspath_large_hash) : 0);
}

size_t bgp_aspath_memory(void)
{
	bgp_attr_release_pending();
	return aspath_large_bytes + (aspath_large_hash ? hash_memory(aspath_large_hash) : 0) +
	       bgp_vstore_memory(&aspath_store);
}

void bgp_aspath_trim(void)
{
	bgp_attr_release_pending();
	bgp_vstore_trim(&aspath_store);
}

void bgp_aspath_finish(void)
{
	size_t left;

	if (aspath_empty_path) {
		struct bgp_aspath *p = aspath_empty_path;

		aspath_empty_path = NULL;
		bgp_aspath_unref(p);
	}
	left = bgp_aspath_count();
	if (left)
		log_warn("BGP AS paths: %zu still referenced at exit (a leak)", left);
	hash_free(aspath_large_hash);
	aspath_large_hash = NULL;
	/* Slabs of leaked paths stay: freeing them would turn the leak into a use after free. */
	bgp_vstore_fini(&aspath_store);
}

/* ---- wire ---- */

int bgp_aspath_wire_parse(const uint8_t *w, size_t len, unsigned asn_size, bool as4_path,
			  uint8_t *out, size_t *out_len, const char **reason)
{
	size_t i = 0, o = 0, k;
	uint8_t type, count;
	uint32_t asn;

	while (i < len) {
		/* RFC 7606 7.2: underrun, overrun, unknown type and zero-length segments. */
		if (len - i < 2) {
			*reason = "AS_PATH ends inside a segment header";
			return -1;
		}
		type = w[i];
		count = w[i + 1];
		if (type < AS_SEG_SET || type > AS_SEG_CONFED_SET) {
			*reason = "AS_PATH segment of unknown type";
			return -1;
		}
		if (as4_path && type >= AS_SEG_CONFED_SEQUENCE) {
			/* RFC 6793 3: confederation segments are invalid in AS4_PATH. */
			*reason = "confederation segment in AS4_PATH";
			return -1;
		}
		if (count == 0) {
			*reason = "AS_PATH segment of length zero";
			return -1;
		}
		if ((size_t)count * asn_size > len - i - 2) {
			*reason = "AS_PATH segment overruns the attribute";
			return -1;
		}
		if (o + 2 + (size_t)count * 4 > BGP_ASPATH_MAX_DATA) {
			*reason = "AS_PATH longer than skua handles (64 KiB in 4-octet form)";
			return -1;
		}
		out[o++] = type;
		out[o++] = count;
		i += 2;
		for (k = 0; k < count; k++, i += asn_size) {
			if (asn_size == 4)
				asn = (uint32_t)w[i] << 24 | (uint32_t)w[i + 1] << 16 |
				      (uint32_t)w[i + 2] << 8 | w[i + 3];
			else
				asn = (uint32_t)w[i] << 8 | w[i + 1];
			if (asn == 0) {
				/* RFC 7607 2: AS 0 makes the path malformed. */
				*reason = "AS 0 in AS_PATH";
				return -1;
			}
			bgp_put_u32(out + o, asn);
			o += 4;
		}
	}
	*out_len = o;
	return 0;
}

static size_t put_seg(uint8_t *out, size_t o, uint8_t type, const uint8_t *asns, unsigned n)
{
	out[o] = type;
	out[o + 1] = (uint8_t)n;
	memcpy(out + o + 2, asns, (size_t)n * 4);
	return o + 2 + (size_t)n * 4;
}

int bgp_aspath_as4_merge(const uint8_t *p2, size_t len2, const uint8_t *p4, size_t len4,
			 uint8_t *out, size_t *out_len)
{
	unsigned n2 = bgp_aspath_data_count(p2, len2), n4 = bgp_aspath_data_count(p4, len4);
	unsigned need, take;
	size_t i, o = 0, last = SIZE_MAX;
	uint8_t type, count = 0;

	/*
	 * RFC 6793 4.2.3: fewer ASes in AS_PATH than in AS4_PATH means AS4_PATH is bogus (an old
	 * speaker cannot remove ASes), so AS_PATH stands alone.
	 */
	if (n2 < n4 || len2 + len4 > BGP_ASPATH_MAX_DATA) {
		memmove(out, p2, len2);
		*out_len = len2;
		return 0;
	}
	/*
	 * Otherwise take as many ASes from the front of AS_PATH as it has more than AS4_PATH
	 * (the ones prepended by old speakers since the path left the last new one), then
	 * AS4_PATH. Confederation segments count zero; they are taken while still in the
	 * leading part (leading, or adjacent to a segment that is taken).
	 */
	need = n2 - n4;
	for (i = 0; i + 2 <= len2; i += 2 + (size_t)count * 4) {
		type = p2[i];
		count = p2[i + 1];
		if (type == AS_SEG_CONFED_SEQUENCE || type == AS_SEG_CONFED_SET) {
			last = o;
			o = put_seg(out, o, type, p2 + i + 2, count);
			continue;
		}
		if (need == 0)
			break;
		take = type == AS_SEG_SET ? count : MIN(need, (unsigned)count);
		last = o;
		o = put_seg(out, o, type, p2 + i + 2, take);
		need -= type == AS_SEG_SET ? 1 : take;
		if (take < count)
			break; /* a partly taken SEQUENCE: what follows is not adjacent */
	}
	/* Join the taken SEQUENCE with AS4_PATH's leading SEQUENCE when the count allows. */
	if (last != SIZE_MAX && out[last] == AS_SEG_SEQUENCE && len4 >= 2 &&
	    p4[0] == AS_SEG_SEQUENCE && (unsigned)out[last + 1] + p4[1] <= SEG_MAX) {
		size_t seglen = (size_t)p4[1] * 4;

		memcpy(out + o, p4 + 2, seglen);
		o += seglen;
		out[last + 1] = (uint8_t)(out[last + 1] + p4[1]);
		p4 += 2 + seglen;
		len4 -= 2 + seglen;
	}
	memcpy(out + o, p4, len4);
	*out_len = o + len4;
	return 0;
}

int bgp_aspath_encode(struct stream *s, const struct bgp_aspath *p, bool as4, bool *needs_as4)
{
	size_t i, k, len = 0;
	uint8_t count;
	uint32_t asn;

	*needs_as4 = false;
	if (as4) {
		len = p->len;
	} else {
		for (i = 0; i + 2 <= p->len; i += 2 + (size_t)p->data[i + 1] * 4)
			len += 2 + (size_t)p->data[i + 1] * 2;
	}
	if (bgp_attr_put_header(s, BGP_ATTR_FLAG_TRANSITIVE, BGP_ATTR_AS_PATH, len) < 0 ||
	    stream_writable(s) < len)
		return -1;
	for (i = 0; i + 2 <= p->len; i += 2 + (size_t)count * 4) {
		count = p->data[i + 1];
		stream_put_u8(s, p->data[i]);
		stream_put_u8(s, count);
		for (k = 0; k < count; k++) {
			asn = bgp_get_u32(p->data + i + 2 + k * 4);
			if (as4) {
				stream_put_u32(s, asn);
			} else if (asn > UINT16_MAX) {
				/* RFC 6793 4.2.2: non-mappable ASes become AS_TRANS. */
				stream_put_u16(s, BGP_AS_TRANS);
				*needs_as4 = true;
			} else {
				stream_put_u16(s, (uint16_t)asn);
			}
		}
	}
	return 0;
}

int bgp_aspath_encode_as4(struct stream *s, const struct bgp_aspath *p)
{
	size_t i, len = 0;
	uint8_t type, count;

	/* RFC 6793 3: AS4_PATH never carries confederation segments. */
	for (i = 0; i + 2 <= p->len; i += 2 + (size_t)p->data[i + 1] * 4)
		if (p->data[i] == AS_SEG_SEQUENCE || p->data[i] == AS_SEG_SET)
			len += 2 + (size_t)p->data[i + 1] * 4;
	if (len == 0)
		return 0;
	if (bgp_attr_put_header(s, BGP_ATTR_FLAG_OPTIONAL | BGP_ATTR_FLAG_TRANSITIVE,
				BGP_ATTR_AS4_PATH, len) < 0 ||
	    stream_writable(s) < len)
		return -1;
	for (i = 0; i + 2 <= p->len; i += 2 + (size_t)count * 4) {
		type = p->data[i];
		count = p->data[i + 1];
		if (type != AS_SEG_SEQUENCE && type != AS_SEG_SET)
			continue;
		stream_put_u8(s, type);
		stream_put_u8(s, count);
		for (size_t k = 0; k < count; k++)
			stream_put_u32(s, bgp_get_u32(p->data + i + 2 + k * 4));
	}
	return 0;
}

/* ---- operations ---- */

/* asn in front of p, into the leading segment of type seg when there is one with room (RFC
 * 4271 5.1.2; RFC 5065 6.1 b for AS_CONFED_SEQUENCE), else in a new one. what: for the log. */
/* p's data with asn in front, in a leading segment of type seg (a new one when the first is
 * of another type or full), written to out; its length. out has room for p->len + 6. */
static size_t prepend_data(uint8_t *out, const struct bgp_aspath *p, uint32_t asn, uint8_t seg)
{
	uint8_t tmp[4];
	size_t o;

	bgp_put_u32(tmp, asn);
	if (p->len >= 2 && p->data[0] == seg && p->data[1] < SEG_MAX) {
		out[0] = seg;
		out[1] = (uint8_t)(p->data[1] + 1);
		memcpy(out + 2, tmp, 4);
		memcpy(out + 6, p->data + 2, p->len - 2);
		return (size_t)p->len + 4;
	}
	/* Empty path, a leading segment of another type, or a full one: new segment. */
	o = put_seg(out, 0, seg, tmp, 1);
	memcpy(out + o, p->data, p->len);
	return o + p->len;
}

static struct bgp_aspath *prepend_into(struct bgp_aspath *p, uint32_t asn, uint8_t seg,
				       const char *what)
{
	uint8_t *out = key_path()->data;

	if (!p)
		return NULL;
	if ((size_t)p->len + 6 > BGP_ASPATH_MAX_DATA) {
		/* Cannot happen with real paths (16,000 ASes); keep the path rather than fail. */
		log_warn_limited("AS path too long to prepend %s %u; sent unchanged", what, asn);
		return bgp_aspath_ref(p);
	}
	return bgp_aspath_intern_data(out, prepend_data(out, p, asn, seg));
}

struct bgp_aspath *bgp_aspath_prepend_scratch(void *buf, size_t size, const struct bgp_aspath *p,
					      uint32_t asn)
{
	struct bgp_aspath *out = buf;
	size_t len;

	if (!p || size < sizeof(*out) || size - sizeof(*out) < (size_t)p->len + 6 ||
	    (size_t)p->len + 6 > BGP_ASPATH_MAX_DATA)
		return NULL;
	len = prepend_data(out->data, p, asn, AS_SEG_SEQUENCE);
	out->refcnt = 0;
	out->len = (uint16_t)len;
	out->hash = 0;
	out->path_len = (uint16_t)MIN(bgp_aspath_data_count(out->data, len), UINT16_MAX);
	out->first_as = data_first_as(out->data, len);
	return out;
}

struct bgp_aspath *bgp_aspath_prepend(struct bgp_aspath *p, uint32_t asn)
{
	return prepend_into(p, asn, AS_SEG_SEQUENCE, "AS");
}

struct bgp_aspath *bgp_aspath_prepend_confed(struct bgp_aspath *p, uint32_t asn)
{
	return prepend_into(p, asn, AS_SEG_CONFED_SEQUENCE, "member AS");
}

struct bgp_aspath *bgp_aspath_strip_confed(const struct bgp_aspath *p)
{
	uint8_t *out = key_path()->data;
	size_t i, o = 0;

	if (!p || !bgp_aspath_has_confed(p))
		return NULL;
	for (i = 0; i + 2 <= p->len; i += 2 + (size_t)p->data[i + 1] * 4) {
		uint8_t type = p->data[i];

		if (type == AS_SEG_CONFED_SEQUENCE || type == AS_SEG_CONFED_SET)
			continue;
		o = put_seg(out, o, type, p->data + i + 2, p->data[i + 1]);
	}
	return bgp_aspath_intern_data(out, o);
}

bool bgp_aspath_contains(const struct bgp_aspath *p, uint32_t asn)
{
	size_t i, k;

	if (!p)
		return false;
	/* Every segment counts, confederation ones included (a loop is a loop). */
	for (i = 0; i + 2 <= p->len; i += 2 + (size_t)p->data[i + 1] * 4)
		for (k = 0; k < p->data[i + 1]; k++)
			if (bgp_get_u32(p->data + i + 2 + k * 4) == asn)
				return true;
	return false;
}

unsigned bgp_aspath_count_as(const struct bgp_aspath *p, uint32_t asn)
{
	unsigned n = 0;
	size_t i, k;

	if (!p)
		return 0;
	for (i = 0; i + 2 <= p->len; i += 2 + (size_t)p->data[i + 1] * 4)
		for (k = 0; k < p->data[i + 1]; k++)
			n += bgp_get_u32(p->data + i + 2 + k * 4) == asn;
	return n;
}

uint32_t bgp_aspath_origin_as(const struct bgp_aspath *p)
{
	size_t i, last = SIZE_MAX;

	if (!p)
		return 0;
	for (i = 0; i + 2 <= p->len; i += 2 + (size_t)p->data[i + 1] * 4)
		last = i;
	if (last == SIZE_MAX || p->data[last] != AS_SEG_SEQUENCE || !p->data[last + 1])
		return 0;
	return bgp_get_u32(p->data + last + 2 + (size_t)(p->data[last + 1] - 1) * 4);
}

bool bgp_as_is_private(uint32_t asn)
{
	return (asn >= 64512u && asn <= 65535u) || asn >= 4200000000u;
}

bool bgp_aspath_all_private(const struct bgp_aspath *p)
{
	size_t i, k, n = 0;

	if (!p)
		return false;
	for (i = 0; i + 2 <= p->len; i += 2 + (size_t)p->data[i + 1] * 4)
		for (k = 0; k < p->data[i + 1]; k++, n++)
			if (!bgp_as_is_private(bgp_get_u32(p->data + i + 2 + k * 4)))
				return false;
	return n > 0;
}

/* p with every AS number passed through map (0: dropped; AS 0 is never in a path); a segment
 * left empty goes. */
static struct bgp_aspath *map_asns(const struct bgp_aspath *p,
				   uint32_t (*map)(uint32_t as, const void *arg), const void *arg)
{
	uint8_t *out = key_path()->data;
	size_t i, k, o = 0;

	if (!p)
		return NULL;
	for (i = 0; i + 2 <= p->len; i += 2 + (size_t)p->data[i + 1] * 4) {
		size_t seg = o;
		unsigned kept = 0;

		out[o] = p->data[i];
		o += 2;
		for (k = 0; k < p->data[i + 1]; k++) {
			uint32_t as = map(bgp_get_u32(p->data + i + 2 + k * 4), arg);

			if (!as)
				continue;
			bgp_put_u32(out + o, as);
			o += 4;
			kept++;
		}
		if (kept)
			out[seg + 1] = (uint8_t)kept;
		else
			o = seg; /* nothing left of this segment */
	}
	return bgp_aspath_intern_data(out, o);
}

struct strip_private_arg {
	uint32_t keep, replace;
};

static uint32_t strip_private_map(uint32_t as, const void *arg)
{
	const struct strip_private_arg *a = arg;

	return bgp_as_is_private(as) && as != a->keep ? a->replace : as;
}

struct bgp_aspath *bgp_aspath_strip_private(const struct bgp_aspath *p, uint32_t keep,
					    uint32_t replace)
{
	struct strip_private_arg a = { .keep = keep, .replace = replace };

	return map_asns(p, strip_private_map, &a);
}

struct exclude_arg {
	const uint32_t *asns;
	uint32_t n;
};

static uint32_t exclude_map(uint32_t as, const void *arg)
{
	const struct exclude_arg *a = arg;

	for (uint32_t k = 0; k < a->n; k++)
		if (a->asns[k] == as)
			return 0;
	return as;
}

struct bgp_aspath *bgp_aspath_exclude(const struct bgp_aspath *p, const uint32_t *asns, uint32_t n)
{
	struct exclude_arg a = { .asns = asns, .n = n };

	return map_asns(p, exclude_map, &a);
}

int bgp_aspath_to_str(const struct bgp_aspath *p, char *buf, size_t size)
{
	static const char open_ch[] = { 0, '{', 0, '(', '[' };
	static const char close_ch[] = { 0, '}', 0, ')', ']' };
	size_t i, k, o = 0;
	uint8_t type, count;
	int n;

	if (!size)
		return -1;
	buf[0] = '\0';
	if (!p)
		return 0;
	/*
	 * FRR's form: SEQUENCE "1 2", SET "{1,2}", CONFED_SEQUENCE "(1 2)", CONFED_SET "[1,2]",
	 * segments separated by a space.
	 */
	for (i = 0; i + 2 <= p->len; i += 2 + (size_t)count * 4) {
		type = p->data[i];
		count = p->data[i + 1];
		if (i && o < size)
			buf[o++] = ' ';
		if (open_ch[type] && o < size)
			buf[o++] = open_ch[type];
		for (k = 0; k < count; k++) {
			const char *sep = "";

			if (k)
				sep = type == AS_SEG_SET || type == AS_SEG_CONFED_SET ? "," : " ";
			n = snprintf(buf + MIN(o, size - 1), size - MIN(o, size - 1), "%s%u", sep,
				     bgp_get_u32(p->data + i + 2 + k * 4));
			o += (size_t)n;
		}
		if (close_ch[type] && o < size)
			buf[o++] = close_ch[type];
	}
	if (o >= size) {
		buf[size - 1] = '\0';
		return -1; /* truncated */
	}
	buf[o] = '\0';
	return (int)o;
}

struct bgp_aspath *bgp_aspath_from_str(const char *s)
{
	uint8_t *out = key_path()->data;
	size_t o = 0, seg = SIZE_MAX;
	uint8_t type = 0, cur = AS_SEG_SEQUENCE;
	unsigned long v;
	char *end;

	if (!s)
		return NULL;
	while (*s) {
		if (*s == ' ' || *s == '\t' || (*s == ',' && cur != AS_SEG_SEQUENCE)) {
			s++;
			continue;
		}
		if (*s == '{' || *s == '(' || *s == '[') {
			if (cur != AS_SEG_SEQUENCE)
				return NULL; /* nested */
			cur = *s == '{'	  ? AS_SEG_SET
			      : *s == '(' ? AS_SEG_CONFED_SEQUENCE
					  : AS_SEG_CONFED_SET;
			seg = SIZE_MAX; /* a new segment starts */
			s++;
			continue;
		}
		if (*s == '}' || *s == ')' || *s == ']') {
			uint8_t want = *s == '}'   ? AS_SEG_SET
				       : *s == ')' ? AS_SEG_CONFED_SEQUENCE
						   : AS_SEG_CONFED_SET;

			if (cur != want || seg == SIZE_MAX)
				return NULL; /* unbalanced, or an empty set */
			cur = AS_SEG_SEQUENCE;
			seg = SIZE_MAX;
			s++;
			continue;
		}
		if (*s < '0' || *s > '9')
			return NULL;
		errno = 0;
		v = strtoul(s, &end, 10);
		if (errno || v == 0 || v > UINT32_MAX)
			return NULL;
		s = end;
		type = cur;
		/* A sequence longer than 255 continues in a new segment. */
		if (seg == SIZE_MAX || out[seg] != type || out[seg + 1] == SEG_MAX) {
			if (o + 6 > BGP_ASPATH_MAX_DATA)
				return NULL;
			seg = o;
			out[o++] = type;
			out[o++] = 0;
		}
		if (o + 4 > BGP_ASPATH_MAX_DATA)
			return NULL;
		bgp_put_u32(out + o, (uint32_t)v);
		o += 4;
		out[seg + 1]++;
	}
	if (cur != AS_SEG_SEQUENCE)
		return NULL; /* unclosed */
	return bgp_aspath_intern_data(out, o);
}
