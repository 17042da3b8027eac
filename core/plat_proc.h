/*
 * plat_proc.h: starting a program in place of cuenv (`cuenv exec`).
 *
 * The runner with pipes and a deadline (proc.h) is still POSIX only
 * (core/proc.c); its Windows back end is not written yet.
 */
#ifndef CUENV_PLAT_PROC_H
#define CUENV_PLAT_PROC_H

/*
 * Run argv[0] with envp as its whole environment (NULL: an empty one);
 * a name without a separator is looked up in envp's PATH.
 *
 * Linux: execvp in place of this process; returns only on failure.
 * Windows (no exec there): CreateProcessW with the command line quoted
 * by plat_cmdline_quote and an environment block sorted by name without
 * case (Path is PATH), then waits; returns the child's exit code (>= 0)
 * for the caller to exit with.
 *
 * Returns -1 with errno set when the program cannot be started (ENOENT:
 * not found).
 */
int plat_exec(char *const *argv, char *const *envp);

#endif
