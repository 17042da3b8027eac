/*
 * plan_index.h: `cuenv install --for FRAMEWORK==VERSION` from the
 * framework's own wheel on the package index, read as `cuenv needs
 * NAME==VERSION` reads it (core/wheel, by range requests): the CUDA and
 * cuDNN its metadata says it was built with. The light planning is
 * core/plan's (plan_framework_from_wheel); this part downloads, so it
 * sits with the network modules.
 */
#ifndef CUENV_PLAN_INDEX_H
#define CUENV_PLAN_INDEX_H

#include "base/buf.h"
#include "nvidia/catalog.h"
#include "nvidia/compat.h"
#include "net/fetch.h"

/*
 * The build for_spec ("torch==2.1.2"; "pytorch" is the index's "torch")
 * names, from its wheel on index (http:// and file:// allowed when the
 * index is one; no retries: an index that does not answer falls back at
 * once), into out (one row, as plan_framework_from_wheel gives it).
 * said gets what to tell the user ("torch 2.1.2 was built with CUDA
 * 12.1 and cuDNN 8.9.2 or later (its wheel W on INDEX)"). Returns
 * CUENV_OK; CUENV_NO when the index has no answer (unreachable, no such
 * wheel, metadata silent on CUDA, or a spec without ==VERSION: the
 * caller falls back to the shipped table), why then saying why (empty
 * for a bad spec, which the table's check words).
 */
int plan_index_framework(const char *for_spec, const char *index,
			 const struct fetch_opts *fo, const struct catalog *cat,
			 struct framework_builds *out, struct buf *why,
			 struct buf *said);

/*
 * plan_index_framework, with what `install --for` tells the user onto
 * said: on CUENV_OK the index's answer; on CUENV_NO, when the index was
 * asked and gave none, "WHY; the shipped framework table answers" (the
 * caller then asks that table). Nothing for a spec without ==VERSION.
 */
int plan_index_for(const char *for_spec, const char *index,
		   const struct fetch_opts *fo, const struct catalog *cat,
		   struct framework_builds *out, struct buf *said);

#endif
