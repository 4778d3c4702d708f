/* SPDX-License-Identifier: ISC */
/* Heap streams; the checked getters and putters are inline in lib/stream.h. */
#include "lib/compat.h"

#include "lib/core_mtypes.h"
#include "lib/stream.h"

DEFINE_MTYPE(STREAM, "Stream");
DEFINE_MTYPE(STREAM_DATA, "Stream data");

struct stream *stream_new(size_t size)
{
	struct stream *s = XMALLOC(MTYPE_STREAM, sizeof(*s));

	s->data = XMALLOC(MTYPE_STREAM_DATA, size ? size : 1);
	s->getp = 0;
	s->endp = 0;
	s->size = size;
	s->owned = true;
	return s;
}

void stream_free(struct stream *s)
{
	if (!s)
		return;
	if (s->owned)
		XFREE(MTYPE_STREAM_DATA, s->data);
	XFREE(MTYPE_STREAM, s);
}

int stream_resize(struct stream *s, size_t size)
{
	/* A caller's buffer cannot be reallocated, and shrinking below the data would lose it. */
	if (!s->owned || size < s->endp)
		return -1;
	s->data = XREALLOC(MTYPE_STREAM_DATA, s->data, size ? size : 1);
	s->size = size;
	return 0;
}
