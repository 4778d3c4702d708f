/* SPDX-License-Identifier: ISC */
/* Memory types of the core library (lib/libskua.la); defined in the module that uses each. */
#ifndef SKUA_CORE_MTYPES_H
#define SKUA_CORE_MTYPES_H

#include "lib/memory.h"

DECLARE_MTYPE(STREAM);	       /* lib/stream.c: struct stream */
DECLARE_MTYPE(STREAM_DATA);    /* lib/stream.c: the data of an owned stream */
DECLARE_MTYPE(SBUF);	       /* lib/sbuf.c: text buffers (and what sbuf_steal() hands out) */
DECLARE_MTYPE(HASH);	       /* lib/hash.c: struct hash */
DECLARE_MTYPE(HASH_INDEX);     /* lib/hash.c: the slot arrays */
DECLARE_MTYPE(PTREE);	       /* lib/table.c: struct ptree and its chunk tables */
DECLARE_MTYPE(PTREE_SLAB);     /* lib/table.c: node slabs */
DECLARE_MTYPE(PTREE_DIR);      /* lib/table.c: the top-level directory of a large tree */
DECLARE_MTYPE(EVENT);	       /* lib/event.c: struct ev */
DECLARE_MTYPE(LOG);	       /* lib/log.c: file names and the like */
DECLARE_MTYPE(LISTEN_BACKOFF); /* lib/listen_backoff.c: struct listen_backoff */

#endif /* SKUA_CORE_MTYPES_H */
