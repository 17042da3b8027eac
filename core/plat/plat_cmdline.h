/*
 * plat_cmdline.h: a Windows command line from an argv.
 *
 * CreateProcessW takes one string; the child's C runtime (or
 * CommandLineToArgvW) splits it again by Microsoft's rules ("Parsing C++
 * command-line arguments", learn.microsoft.com): white space separates
 * arguments; "..." groups; 2n backslashes before a quote give n
 * backslashes and the quote delimits, 2n+1 give n backslashes and a
 * literal quote; backslashes not before a quote are literal; inside
 * quotes "" is a literal quote. argv[0], the program, is read without
 * escapes: up to the next white space, or between two quotes.
 *
 * A pure function on UTF-8 bytes (the caller converts to UTF-16), built
 * and unit-tested on both systems; plat_proc_win.c uses it. The split,
 * the child's side, is the unit test's own (test_plat_cmdline.c).
 */
#ifndef CUENV_PLAT_CMDLINE_H
#define CUENV_PLAT_CMDLINE_H

#include "base/buf.h"

/*
 * Append argv (NULL-terminated, at least argv[0]) to out, each argument
 * quoted only where it must be, separated by one space, so that the
 * child's C runtime gives argv back. Returns 0, or -1 (out unchanged)
 * when argv[0] is empty or holds a quote, which no command line can give
 * back as the program.
 */
int plat_cmdline_quote(struct buf *out, const char *const *argv);

#endif
