/*
 * plat_main.h: what main() takes from the system, as UTF-8 (issue 13).
 *
 * plat_main_args: the program's arguments and whole environment
 * ("NAME=value" strings, NULL-terminated). POSIX: argv and environ as
 * they are. Windows: the UTF-16 command line split by CommandLineToArgvW
 * and GetEnvironmentStringsW's block, converted to UTF-8: the C
 * runtime's argv and environ are in the ANSI code page, which turns a
 * folder such as "naïve café" into question marks on most systems. The
 * console's output code page is set to UTF-8 too, so that what cuenv
 * prints shows as written. The strings live until the process exits;
 * on a failure (out of memory) the C runtime's are kept.
 */
#ifndef CUENV_PLAT_MAIN_H
#define CUENV_PLAT_MAIN_H

void plat_main_args(int *argc, char ***argv, char ***envp);

#endif
