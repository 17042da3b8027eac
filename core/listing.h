/*
 * listing.h: which releases of the catalogue `cuenv list-remote` (and
 * `install --list`) shows, and in which order.
 */
#ifndef CUENV_LISTING_H
#define CUENV_LISTING_H

#include <stddef.h>

#include "catalog.h"

/*
 * The releases of cat to list, borrowed from it: CUDA's, then cuDNN's
 * (only KIT_CUDA or KIT_CUDNN, or -1 for both), each oldest first (by version,
 * then CUDA major; one release from two sources: the redist one last),
 * those matching prefix (NULL: all), and unless all, only the newest of
 * each minor version (and CUDA major). *out is the caller's to free.
 */
void listing_select(const struct catalog *cat, int only, const char *prefix,
		    int all, const struct release ***out, size_t *n);

#endif
