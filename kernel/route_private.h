/* SPDX-License-Identifier: ISC */
/* The installer's message buffer, for the files of kernel/ that queue into it (private). */
#ifndef SKUA_KERNEL_ROUTE_PRIVATE_H
#define SKUA_KERNEL_ROUTE_PRIVATE_H

#include <libmnl/libmnl.h>
#include <stdint.h>

struct kernel_fib;

/* A new request at the end of kf's buffer (which is sent first if a page no longer fits);
 * kernel_fib_msg_end() counts it in once its attributes are put. Requests go to the kernel
 * in the order they were queued. */
struct nlmsghdr *kernel_fib_msg_begin(struct kernel_fib *kf, uint16_t type, uint16_t flags);
void kernel_fib_msg_end(struct kernel_fib *kf, struct nlmsghdr *nlh);

#endif /* SKUA_KERNEL_ROUTE_PRIVATE_H */
