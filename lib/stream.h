/* SPDX-License-Identifier: ISC */
/*
 * A bounded byte buffer for the wire (OpenBGPD's ibuf idea). Readers get checked getters that
 * return -1 instead of reading past the end, and sub-streams so that an inner length (an
 * attribute, a capability, an NLRI block) can never overrun its parent. Writers get checked
 * putters that fail with -1 when the capacity is reached, so an encoder can stop at a message
 * boundary. Nothing here asserts on wire data.
 *
 * Getters are inline: they run once per field of every UPDATE of a full table.
 */
#ifndef SKUA_STREAM_H
#define SKUA_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct stream {
	uint8_t *data;
	size_t getp; /* next byte to read */
	size_t endp; /* one past the last valid byte (next byte to write) */
	size_t size; /* capacity of data */
	bool owned;  /* data was allocated by stream_new() and is freed by stream_free() */
};

/* A heap stream of the given capacity (MTYPE_STREAM). */
struct stream *stream_new(size_t size);
void stream_free(struct stream *s);
/* Grow capacity (writers that build a large reply); -1 if not owned. */
int stream_resize(struct stream *s, size_t size);

/* A read-only view of len bytes at data (no copy; the caller keeps data alive). */
static inline void stream_init_reader(struct stream *s, const void *data, size_t len)
{
	s->data = (uint8_t *)data;
	s->getp = 0;
	s->endp = len;
	s->size = len;
	s->owned = false;
}

/* A writer over a caller's buffer of capacity size. */
static inline void stream_init_writer(struct stream *s, void *data, size_t size)
{
	s->data = data;
	s->getp = 0;
	s->endp = 0;
	s->size = size;
	s->owned = false;
}

static inline size_t stream_readable(const struct stream *s)
{
	return s->endp - s->getp;
}

static inline size_t stream_writable(const struct stream *s)
{
	return s->size - s->endp;
}

static inline const uint8_t *stream_pnt(const struct stream *s)
{
	return s->data + s->getp;
}

static inline void stream_reset(struct stream *s)
{
	s->getp = 0;
	s->endp = 0;
}

/* ---- checked readers: 0 on success, -1 (nothing consumed) when too short ---- */

static inline int stream_get_u8(struct stream *s, uint8_t *v)
{
	if (stream_readable(s) < 1)
		return -1;
	*v = s->data[s->getp++];
	return 0;
}

static inline int stream_get_u16(struct stream *s, uint16_t *v)
{
	if (stream_readable(s) < 2)
		return -1;
	*v = (uint16_t)((uint16_t)s->data[s->getp] << 8 | s->data[s->getp + 1]);
	s->getp += 2;
	return 0;
}

static inline int stream_get_u32(struct stream *s, uint32_t *v)
{
	const uint8_t *p;

	if (stream_readable(s) < 4)
		return -1;
	p = s->data + s->getp;
	*v = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	s->getp += 4;
	return 0;
}

static inline int stream_get_u64(struct stream *s, uint64_t *v)
{
	uint32_t hi, lo;

	if (stream_readable(s) < 8)
		return -1;
	stream_get_u32(s, &hi);
	stream_get_u32(s, &lo);
	*v = (uint64_t)hi << 32 | lo;
	return 0;
}

static inline int stream_get_bytes(struct stream *s, void *dst, size_t n)
{
	if (stream_readable(s) < n)
		return -1;
	memcpy(dst, s->data + s->getp, n);
	s->getp += n;
	return 0;
}

static inline int stream_skip(struct stream *s, size_t n)
{
	if (stream_readable(s) < n)
		return -1;
	s->getp += n;
	return 0;
}

static inline int stream_peek_u8(const struct stream *s, size_t off, uint8_t *v)
{
	if (stream_readable(s) <= off)
		return -1;
	*v = s->data[s->getp + off];
	return 0;
}

/*
 * Take the next len bytes as a sub-stream (a reader bounded to them) and consume them from s.
 * The sub-stream shares the data; it is never longer than what s had left.
 */
static inline int stream_get_sub(struct stream *s, size_t len, struct stream *sub)
{
	if (stream_readable(s) < len)
		return -1;
	stream_init_reader(sub, s->data + s->getp, len);
	s->getp += len;
	return 0;
}

/* ---- checked writers: 0 on success, -1 (nothing written) when full ---- */

static inline int stream_put_u8(struct stream *s, uint8_t v)
{
	if (stream_writable(s) < 1)
		return -1;
	s->data[s->endp++] = v;
	return 0;
}

static inline int stream_put_u16(struct stream *s, uint16_t v)
{
	if (stream_writable(s) < 2)
		return -1;
	s->data[s->endp++] = (uint8_t)(v >> 8);
	s->data[s->endp++] = (uint8_t)v;
	return 0;
}

static inline int stream_put_u32(struct stream *s, uint32_t v)
{
	if (stream_writable(s) < 4)
		return -1;
	s->data[s->endp++] = (uint8_t)(v >> 24);
	s->data[s->endp++] = (uint8_t)(v >> 16);
	s->data[s->endp++] = (uint8_t)(v >> 8);
	s->data[s->endp++] = (uint8_t)v;
	return 0;
}

static inline int stream_put_u64(struct stream *s, uint64_t v)
{
	if (stream_writable(s) < 8)
		return -1;
	stream_put_u32(s, (uint32_t)(v >> 32));
	stream_put_u32(s, (uint32_t)v);
	return 0;
}

static inline int stream_put_bytes(struct stream *s, const void *src, size_t n)
{
	if (stream_writable(s) < n)
		return -1;
	if (n)
		memcpy(s->data + s->endp, src, n);
	s->endp += n;
	return 0;
}

/* Overwrite a u16 written earlier (a length field filled in after its contents). */
static inline int stream_set_u16_at(struct stream *s, size_t pos, uint16_t v)
{
	if (s->endp < 2 || pos > s->endp - 2) /* not pos + 2 > endp: that wraps for huge pos */
		return -1;
	s->data[pos] = (uint8_t)(v >> 8);
	s->data[pos + 1] = (uint8_t)v;
	return 0;
}

static inline int stream_set_u8_at(struct stream *s, size_t pos, uint8_t v)
{
	if (pos >= s->endp)
		return -1;
	s->data[pos] = v;
	return 0;
}

#endif /* SKUA_STREAM_H */
