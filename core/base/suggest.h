/*
 * suggest.h: the command an unknown command name most likely means, for
 * the "did you mean" hint.
 *
 * Words other tools use come first (pyenv's `shell` is cuenv's `use`),
 * then the nearest of the commands' names: at most two typing mistakes
 * away (an edit, or two neighbours swapped, counts one), and fewer than
 * the word has letters, so that "x" means nothing.
 */
#ifndef CUENV_SUGGEST_H
#define CUENV_SUGGEST_H

#include <stddef.h>

#include "base/err.h"

/*
 * The command line name most likely means: one of the other tools'
 * words' (a static string, sometimes with options: "use --unset"), or
 * the nearest of the n names (borrowed from names; the first of equally
 * near ones), or NULL.
 */
const char *suggest_command(const char *name, const char *const *names,
			    size_t n);

/*
 * The optimal string alignment distance of a and b: insertions,
 * deletions, substitutions and swaps of neighbours, each counting one.
 * 99 for words longer than 22 characters.
 */
size_t suggest_distance(const char *a, const char *b);

/*
 * The usage error for name, which no command has: "unknown option
 * 'NAME'" for one that begins with '-', else "'NAME' is not a cuenv
 * command" (name shortened for display), hinting "did you mean: cuenv
 * NEAR? (all commands: cuenv help)" when near (suggest_command's) is not
 * NULL and name is no option, else "see: cuenv help". Returns
 * CUENV_E_USAGE.
 */
int suggest_unknown(const char *name, const char *near, struct cuenv_err *err);

#endif
