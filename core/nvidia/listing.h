/*
 * listing.h: which releases of the catalogue `cuenv list-remote` (and
 * `install --list`) shows, and in which order.
 */
#ifndef CUENV_LISTING_H
#define CUENV_LISTING_H

#include <stddef.h>

#include "base/buf.h"
#include "nvidia/catalog.h"
#include "base/err.h"

/*
 * The releases of cat to list, borrowed from it: CUDA's, then cuDNN's
 * (only KIT_CUDA or KIT_CUDNN, or -1 for both), each oldest first (by version,
 * then CUDA major; one release from two sources: the redist one last),
 * those matching prefix (NULL: all), and unless all, only the newest of
 * each minor version (and CUDA major). *out is the caller's to free.
 */
void listing_select(const struct catalog *cat, int only, const char *prefix,
		    int all, const struct release ***out, size_t *n);

/*
 * The words of `list-remote [cuda|cudnn] [PREFIX]` (and `install --list`'s):
 * a kind first, then a version prefix, each at most once. *only gets
 * KIT_CUDA, KIT_CUDNN, or -1 for none (cupti is listed as the CUDA it
 * comes with); *prefix the prefix (borrowed) or NULL. Returns CUENV_OK,
 * or CUENV_E_USAGE naming list-remote: "too many arguments" for a word
 * after the prefix, else for a word that is neither a kind nor a version.
 */
int listing_words(int n, char *const *words, int *only, const char **prefix,
		  struct cuenv_err *err);

/*
 * v[0..n) as list-remote prints them onto out: "cuda   V  SOURCE" and
 * "cudnn  V  for CUDA M (SOURCE)" lines; with json an array of {kind,
 * version, cuda_major, source} indented by 2, and a newline.
 */
void listing_render(const struct release *const *v, size_t n, int json,
		    struct buf *out);

#endif
