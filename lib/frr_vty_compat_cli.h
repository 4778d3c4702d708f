/* SPDX-License-Identifier: ISC */
/*
 * FRR's vty lines (password, enable password, line vty, exec-timeout ...) accepted and ignored
 * with a note in the log, and `service password-encryption` refused with its reason.
 */
#ifndef SKUA_FRR_VTY_COMPAT_CLI_H
#define SKUA_FRR_VTY_COMPAT_CLI_H

/* Install VTY_NODE (`line vty`) and the commands into CONFIG_NODE and VTY_NODE. Needs
 * cmd_init() first. */
void frr_vty_compat_cli_init(void);

#endif /* SKUA_FRR_VTY_COMPAT_CLI_H */
