/*
 * needs_json.c: `cuenv needs --json`'s report, built from the scan, the
 * Python frameworks, the installed match and the catalogue's offer (the
 * command only writes it).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/json_util.h"
#include "needs/needs.h"
#include "base/xalloc.h"

void needs_fetches_add(struct needs_fetches *fs, const char *wheel,
		       const char *index, const struct needs_fetched *f)
{
	struct needs_fetched *x;

	fs->v = xrealloc(fs->v, (fs->n + 1) * sizeof(*fs->v));
	x = &fs->v[fs->n++];
	*x = *f;
	x->wheel = xstrdup(wheel);
	x->index = xstrdup(index);
	x->why = f->why ? xstrdup(f->why) : NULL;
}

void needs_fetches_release(struct needs_fetches *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		free(fs->v[i].wheel);
		free((char *)fs->v[i].why);
		free(fs->v[i].index);
	}
	free(fs->v);
	memset(fs, 0, sizeof(*fs));
}

/* What was read of wheels on an index (range requests). */
static json_t *json_fetched(const struct needs_fetches *rms)
{
	json_t *f = json_array();

	for (size_t i = 0; i < rms->n; i++) {
		const struct needs_fetched *r = &rms->v[i];
		json_t *o = json_pack("{s:s, s:s, s:I, s:I, s:I, s:b}", "wheel",
				      r->wheel, "index", r->index, "size",
				      (json_int_t)r->size, "bytes_fetched",
				      (json_int_t)r->bytes, "requests",
				      (json_int_t)r->requests, "core_metadata",
				      r->metadata);

		/* why this wheel of the release (pip's choice for here) */
		json_object_set_new(o, "chosen", json_str_or_null(r->why));
		json_array_append_new(f, o);
	}
	return f;
}

static json_t *json_sonames(const struct needs_scan *s)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < s->n; i++) {
		const struct needs_want *w = &s->v[i];

		/* releases: none before needs_describe */
		json_array_append_new(
			arr, json_pack("{s:s, s:s?, s:s, s:s*, s:o, s:o, s:o, "
				       "s:s?, s:s?, s:s?, s:b, s:b, s:b}",
				       "soname", w->soname, "dll", w->dll,
				       "library", elf_cuda_lib_name(w->lib),
				       "releases", w->range, "needed_by",
				       json_strv(&w->needed_by), "loaded_by",
				       json_strv(&w->loaded_by), "named_by",
				       json_strv(&w->named_by), "provided_by",
				       w->provided_by, "found", w->found,
				       "found_elsewhere", w->elsewhere,
				       "required", needs_want_required(w),
				       "alternative", w->alternative, "plugin",
				       needs_want_plugin(w)));
	}
	return arr;
}

/* builds of one library for several CUDA releases (needs_alt) */
static json_t *json_alternatives(const struct needs_scan *s)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < s->nalt; i++)
		json_array_append_new(arr,
				      json_pack("{s:s, s:o, s:s?}", "pattern",
						s->alt[i].pattern, "builds",
						json_strv(&s->alt[i].files),
						"met_by", s->alt[i].met));
	return arr;
}

static json_t *json_reports(const struct needs_scan *s)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < s->nrep; i++) {
		const struct needs_report *r = &s->rep[i];

		json_array_append_new(
			arr, json_pack("{s:s, s:s?, s:s, s:s?, s:s?, s:o, s:o}",
				       "framework", r->framework, "version",
				       r->version, "source", r->source,
				       "cuda_min", r->cuda, "cudnn_min",
				       r->cudnn, "dlls", json_strv(&r->dlls),
				       "notes", json_strv(&r->notes)));
	}
	return arr;
}

/* the CUDA libraries the files are themselves (soname, path) */
static json_t *json_provides(const struct needs_scan *s)
{
	json_t *arr = json_array();

	for (size_t i = 0; i + 1 < s->provides.n; i += 2)
		json_array_append_new(arr, json_pack("{s:s, s:s}", "soname",
						     s->provides.v[i], "path",
						     s->provides.v[i + 1]));
	return arr;
}

static json_t *json_frameworks(const struct needs_python *py)
{
	json_t *f = json_pack("{s:s, s:s?}", "python", py->exe,
			      "python_version", py->version);

	for (int i = 0; i < NEEDS_FRAMEWORKS; i++) {
		const struct needs_framework *fw = &py->fw[i];

		json_object_set_new(
			f, needs_framework_names[i],
			fw->absent ? json_pack("{s:s}", "absent", fw->absent)
				   : json_pack("{s:s, s:s?, s:s?, s:s*}",
					       "version", fw->version, "cuda",
					       fw->cuda, "cudnn", fw->cudnn,
					       "problem", fw->problem));
	}
	return f;
}

/* What --python found by the files: the interpreter, its sys.path, the
 * frameworks in it. */
static json_t *json_found(const struct needs_python *py)
{
	json_t *found = json_array();

	for (size_t i = 0; i < py->nfound; i++)
		json_array_append_new(
			found,
			json_pack("{s:s, s:o}", "name", py->found[i].name,
				  "folders", json_strv(&py->found[i].folders)));
	return json_pack("{s:s, s:o, s:o}", "interpreter", py->finder, "sites",
			 json_strv(&py->sites), "found", found);
}

/* The installed versions that provide everything. */
static json_t *json_installed(const struct needs_installed *in)
{
	const struct needs_combo *c = &in->pick;

	return json_pack("{s:s, s:s?, s:s?, s:b}", "cuda", c->cuda->version,
			 "cudnn", c->cudnn ? c->cudnn->version : NULL, "cupti",
			 c->cupti ? c->cupti->version : NULL, "active",
			 in->active);
}

/* What the catalogue offers. */
static json_t *json_offer(const struct needs_offer *o)
{
	return json_pack("{s:s, s:s, s:s?, s:s?, s:s}", "cuda",
			 o->cuda->version, "cuda_source",
			 source_name(o->cuda->source), "cudnn",
			 o->cudnn ? o->cudnn->version : NULL, "cupti",
			 o->cupti ? o->cupti->version : NULL, "install",
			 o->line);
}

json_t *needs_json(const struct needs_scan *s, const struct needs_python *py,
		   const struct needs_installed *in,
		   const struct needs_offer *o, const struct needs_fetches *fs,
		   bool satisfied)
{
	json_t *j = json_object();

	if (fs->n)
		json_object_set_new(j, "fetched", json_fetched(fs));
	json_object_set_new(j, "files_read",
			    json_integer((json_int_t)s->files));
	json_object_set_new(j, "sonames", json_sonames(s));
	json_object_set_new(j, "reports", json_reports(s));
	json_object_set_new(j, "alternatives", json_alternatives(s));
	{
		struct strv u = STRV_INIT;

		needs_unknown(s, py, &u);
		json_object_set_new(j, "unknown", json_strv(&u));
		strv_release(&u);
	}
	json_object_set_new(j, "provides", json_provides(s));
	if (py->finder)
		json_object_set_new(j, "python", json_found(py));
	if (py->exe)
		json_object_set_new(j, "frameworks", json_frameworks(py));
	json_object_set_new(j, "satisfied",
			    json_boolean(satisfied && !s->unread.n &&
					 !needs_unknown(s, py, NULL) &&
					 !needs_python_empty(s, py) &&
					 !s->outside.n));
	json_object_set_new(j, "not_found_outside_cuenv",
			    json_strv(&s->outside));
	if (s->unread.n)
		json_object_set_new(j, "unread", json_strv(&s->unread));
	json_object_set_new(j, "installed",
			    in->pick.cuda ? json_installed(in) : json_null());
	if (o->line) {
		json_object_set_new(j, "catalogue", json_offer(o));
	} else {
		json_object_set_new(j, "catalogue", json_null());
		if (o->why.len)
			json_object_set_new(j, "catalogue_problem",
					    json_string(o->why.data));
	}
	return j;
}
