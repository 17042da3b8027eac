/*
 * ldsearch.h: the folders the dynamic loader searches without being
 * told (no LD_LIBRARY_PATH): its own defaults (detect_loader_defaults),
 * those the loader configuration names and those of the loader cache's
 * entries, each as a real path, once. `cuenv add` decides with them how
 * activation exposes a registered install (detect.h).
 */
#ifndef CUENV_LDSEARCH_H
#define CUENV_LDSEARCH_H

#include "base/buf.h"

/*
 * Append to out the loader's defaults, then each folder that the
 * configuration at conf_path (/etc/ld.so.conf) and the entries of the
 * cache at cache_path (/etc/ld.so.cache) name, as a real path, unless
 * out holds it already; a folder that does not exist is left out, and
 * an unreadable or missing file adds nothing. Reads both files and
 * resolves each folder.
 */
void ldsearch_dirs(const char *conf_path, const char *cache_path,
		   struct strv *out);

#endif
