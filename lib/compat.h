/* SPDX-License-Identifier: ISC */
/*
 * The one platform header, included first by every .c file: config.h, the libc headers
 * nearly every file needs, and a few compiler attributes.
 */
#ifndef SKUA_COMPAT_H
#define SKUA_COMPAT_H

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define SKUA_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define SKUA_UNUSED __attribute__((unused))
#define SKUA_NORETURN __attribute__((noreturn))
#define SKUA_WARN_UNUSED __attribute__((warn_unused_result))

#define array_size(a) (sizeof(a) / sizeof((a)[0]))

#ifndef MIN
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#endif
#ifndef MAX
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#endif

/* container_of: the struct that holds a member (intrusive lists and trees). */
#define container_of(ptr, type, member) ((type *)((char *)(ptr)-offsetof(type, member)))

#endif /* SKUA_COMPAT_H */
