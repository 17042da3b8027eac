/*
 * needs_json.c: `cuenv needs --json`'s report, built from the scan, the
 * Python frameworks, the installed match and the catalogue's offer (the
 * command only writes it).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "json_util.h"
#include "needs.h"
#include "xalloc.h"

void needs_fetches_add(struct needs_fetches *fs, const char *wheel,
		       const char *index, const struct needs_fetched *f)
{
	struct needs_fetched *x;

	fs->v = xrealloc(fs->v, (fs->n + 1) * sizeof(*fs->v));
	x = &fs->v[fs->n++];
	*x = *f;
	x->wheel = xstrdup(wheel);
	x->index = xstrdup(index);
}

void needs_fetches_release(struct needs_fetches *fs)
{
	for (size_t i = 0; i < fs->n; i++) {
		free(fs->v[i].wheel);
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
		json_t *x = json_object();

		json_object_set_new(x, "wheel", json_string(rms->v[i].wheel));
		json_object_set_new(x, "index", json_string(rms->v[i].index));
		json_object_set_new(x, "size",
				    json_integer((json_int_t)rms->v[i].size));
		json_object_set_new(x, "bytes_fetched",
				    json_integer((json_int_t)rms->v[i].bytes));
		json_object_set_new(x, "requests",
				    json_integer(
					    (json_int_t)rms->v[i].requests));
		json_object_set_new(x, "core_metadata",
				    json_boolean(rms->v[i].metadata));
		json_array_append_new(f, x);
	}
	return f;
}

static json_t *json_sonames(const struct needs_scan *s)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < s->n; i++) {
		const struct needs_want *w = &s->v[i];
		json_t *x = json_object();

		json_object_set_new(x, "soname", json_string(w->soname));
		json_object_set_new(x, "dll", json_str_or_null(w->dll));
		json_object_set_new(x, "library",
				    json_string(elf_cuda_lib_name(w->lib)));
		json_object_set_new(x, "releases", json_string(w->range));
		json_object_set_new(x, "needed_by", json_strv(&w->needed_by));
		json_object_set_new(x, "named_by", json_strv(&w->named_by));
		json_object_set_new(x, "provided_by",
				    json_str_or_null(w->provided_by));
		json_object_set_new(x, "found", json_str_or_null(w->found));
		json_object_set_new(x, "required",
				    json_boolean(needs_want_required(w)));
		json_array_append_new(arr, x);
	}
	return arr;
}

static json_t *json_reports(const struct needs_scan *s)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < s->nrep; i++) {
		const struct needs_report *r = &s->rep[i];
		json_t *x = json_object();

		json_object_set_new(x, "framework", json_string(r->framework));
		json_object_set_new(x, "version", json_str_or_null(r->version));
		json_object_set_new(x, "source", json_string(r->source));
		json_object_set_new(x, "cuda_min", json_str_or_null(r->cuda));
		json_object_set_new(x, "cudnn_min", json_str_or_null(r->cudnn));
		json_object_set_new(x, "dlls", json_strv(&r->dlls));
		json_array_append_new(arr, x);
	}
	return arr;
}

/* the CUDA libraries the files are themselves (soname, path) */
static json_t *json_provides(const struct needs_scan *s)
{
	json_t *arr = json_array();

	for (size_t i = 0; i + 1 < s->provides.n; i += 2) {
		json_t *x = json_object();

		json_object_set_new(x, "soname", json_string(s->provides.v[i]));
		json_object_set_new(x, "path",
				    json_string(s->provides.v[i + 1]));
		json_array_append_new(arr, x);
	}
	return arr;
}

static json_t *json_frameworks(const struct needs_python *py)
{
	json_t *f = json_object();

	json_object_set_new(f, "python", json_string(py->exe));
	json_object_set_new(f, "python_version", json_str_or_null(py->version));
	for (int i = 0; i < NEEDS_FRAMEWORKS; i++) {
		const struct needs_framework *fw = &py->fw[i];
		json_t *x = json_object();

		if (fw->absent) {
			json_object_set_new(x, "absent",
					    json_string(fw->absent));
		} else {
			json_object_set_new(x, "version",
					    json_string(fw->version));
			json_object_set_new(x, "cuda",
					    json_str_or_null(fw->cuda));
			json_object_set_new(x, "cudnn",
					    json_str_or_null(fw->cudnn));
			if (fw->problem)
				json_object_set_new(x, "problem",
						    json_string(fw->problem));
		}
		json_object_set_new(f, needs_framework_names[i], x);
	}
	return f;
}

/* The installed versions that provide everything. */
static json_t *json_installed(const struct needs_installed *in)
{
	const struct needs_combo *c = &in->pick;
	json_t *x = json_object();

	json_object_set_new(x, "cuda", json_string(c->cuda->version));
	json_object_set_new(x, "cudnn",
			    json_str_or_null(c->cudnn ? c->cudnn->version
						      : NULL));
	json_object_set_new(x, "cupti",
			    json_str_or_null(c->cupti ? c->cupti->version
						      : NULL));
	json_object_set_new(x, "active", json_boolean(in->active));
	return x;
}

/* What the catalogue offers. */
static json_t *json_offer(const struct needs_offer *o)
{
	json_t *x = json_object();

	json_object_set_new(x, "cuda", json_string(o->cuda->version));
	json_object_set_new(x, "cuda_source",
			    json_string(source_name(o->cuda->source)));
	json_object_set_new(x, "cudnn",
			    json_str_or_null(o->cudnn ? o->cudnn->version
						      : NULL));
	json_object_set_new(x, "cupti",
			    json_str_or_null(o->cupti ? o->cupti->version
						      : NULL));
	json_object_set_new(x, "install", json_string(o->line));
	return x;
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
	json_object_set_new(j, "provides", json_provides(s));
	if (py->exe)
		json_object_set_new(j, "frameworks", json_frameworks(py));
	json_object_set_new(j, "satisfied", json_boolean(satisfied));
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
