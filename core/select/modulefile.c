/*
 * modulefile.c: the text of `cuenv modules`' modulefiles, for Lmod (Lua)
 * and Environment Modules (Tcl), from an install's folders.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "select/modulefile.h"

#include "plat/plat_path.h"
#include "plat/file.h"

struct fmt {
	int tcl;
	struct buf *out;
};

/*
 * A string literal, "...": for Lua with \\ \" and \ddd for control
 * bytes; for Tcl with every character that Tcl substitutes or that ends
 * a word (\ " $ [ ] { } ;) backslashed and control bytes as \ooo.
 */
static void quote(const struct fmt *f, const char *s)
{
	const char *special = f->tcl ? "\\\"$[]{};" : "\\\"";

	buf_addc(f->out, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (strchr(special, *p))
			buf_printf(f->out, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			buf_printf(f->out, f->tcl ? "\\%03o" : "\\%03u",
				   (unsigned)*p);
		else
			buf_addc(f->out, (char)*p);
	}
	buf_addc(f->out, '"');
}

/* Prepend dirs to var so that they end up in this order at the front. */
static void prepend(const struct fmt *f, const char *var,
		    const struct strv *dirs)
{
	for (size_t i = dirs->n; i-- > 0;) {
		if (f->tcl) {
			buf_printf(f->out, "prepend-path %s ", var);
			quote(f, dirs->v[i]);
			buf_addc(f->out, '\n');
		} else {
			buf_printf(f->out, "prepend_path(\"%s\", ", var);
			quote(f, dirs->v[i]);
			buf_adds(f->out, ")\n");
		}
	}
}

static void setvar(const struct fmt *f, const char *fn, const char *var,
		   const char *value)
{
	if (f->tcl) {
		buf_printf(f->out, "%s %s ", fn, var);
		quote(f, value);
		buf_addc(f->out, '\n');
	} else {
		buf_printf(f->out, "%s(\"%s\", ", fn, var);
		quote(f, value);
		buf_adds(f->out, ")\n");
	}
}

static void add_unique(struct strv *to, const struct strv *from,
		       const struct strv *skip)
{
	for (size_t i = 0; i < from->n; i++)
		if (strv_find(to, from->v[i]) < 0 &&
		    strv_find(skip, from->v[i]) < 0)
			strv_push(to, from->v[i]);
}

static void header(const struct fmt *f, const char *what,
		   const struct store_version *in)
{
	struct buf desc = BUF_INIT;

	buf_printf(&desc, "%s %s (cuenv)", what, in->version);
	if (f->tcl) {
		buf_adds(f->out, "#%Module1.0\n");
		buf_adds(f->out,
			 "# Written by `cuenv modules`; rerun it rather "
			 "than editing.\n");
		buf_adds(f->out, "module-whatis ");
		quote(f, desc.data);
		buf_addc(f->out, '\n');
	} else {
		buf_adds(f->out, "-- Written by `cuenv modules`; rerun it "
				 "rather than editing.\n");
		buf_adds(f->out, "whatis(");
		quote(f, desc.data);
		buf_adds(f->out, ")\n");
	}
	buf_release(&desc);
}

void modulefile_cuda(int tcl, const struct store_version *in, struct buf *out)
{
	const struct fmt fmt = { tcl, out }, *f = &fmt;
	struct strv lib = STRV_INIT, bin = STRV_INIT, inc = STRV_INIT;
	struct strv link = STRV_INIT, none = STRV_INIT;
	size_t n = strlen(in->prefix);
	/* the linker reads no ld.so.cache: only /usr's folders are its own */
	bool system = n >= 4 && !strcmp(in->prefix + n - 4, "/usr");
	char *home = store_version_cuda_home(in);

	header(f, "CUDA", in);
	buf_adds(f->out, f->tcl ? "conflict cuda\n" : "conflict(\"cuda\")\n");
	/* what the loader and shell search already stays off (/usr/bin) */
	add_unique(&lib, &in->lib, &in->searched);
	add_unique(&lib, &in->cupti, &in->searched);
	add_unique(&bin, &in->bin, &in->searched);
	add_unique(&inc, &in->include, &in->searched);
	add_unique(&link, &in->lib, system ? &in->searched : &none);
	add_unique(&link, &in->cupti, system ? &in->searched : &none);
	prepend(f, "PATH", &bin);
	prepend(f, "LD_LIBRARY_PATH", &lib);
	prepend(f, "LIBRARY_PATH", &link);
	prepend(f, "CPATH", &inc);
	setvar(f, "setenv", "CUDA_HOME", home);
	setvar(f, "setenv", "CUDA_PATH", home);
	/* pushenv: unloading a cuDNN module on top gives this back. */
	setvar(f, "pushenv", "CUENV_ACTIVE", in->version);
	strv_release(&lib);
	strv_release(&bin);
	strv_release(&inc);
	strv_release(&link);
	free(home);
}

void modulefile_cudnn(int tcl, const struct store_version *in,
		      const struct store_version_list *cudas, struct buf *out)
{
	const struct fmt fmt = { tcl, out }, *f = &fmt;
	struct buf label = BUF_INIT;

	header(f, "cuDNN", in);
	buf_adds(f->out, f->tcl ? "conflict cudnn\nprereq"
				: "conflict(\"cudnn\")\nprereq_any(");
	for (size_t i = 0, n = 0; i < cudas->n; i++) {
		struct buf name = BUF_INIT;

		if (cudas->v[i]->cuda_major != in->cuda_major)
			continue;
		buf_printf(&name, "cuda/%s", cudas->v[i]->version);
		buf_adds(f->out, f->tcl ? " " : n ? ", " : "");
		quote(f, name.data);
		buf_release(&name);
		n++;
	}
	buf_adds(f->out, f->tcl ? "\n" : ")\n");
	prepend(f, "LD_LIBRARY_PATH", &in->lib);
	prepend(f, "LIBRARY_PATH", &in->lib);
	prepend(f, "CPATH", &in->include);
	setvar(f, "setenv", "CUDNN_PATH", in->prefix);
	buf_printf(&label, "+cudnn%s", in->version);
	if (f->tcl) {
		buf_adds(f->out,
			 "set cuenv_cuda {}\n"
			 "if {[info exists ::env(CUENV_ACTIVE)]} {\n"
			 "\tset cuenv_cuda $::env(CUENV_ACTIVE)\n"
			 "}\n"
			 "# Unloading pops the value pushed: name it as is.\n"
			 "if {![module-info mode unload]} {\n"
			 "\tappend cuenv_cuda ");
		quote(f, label.data);
		buf_adds(f->out, "\n}\npushenv CUENV_ACTIVE $cuenv_cuda\n");
	} else {
		buf_adds(f->out, "pushenv(\"CUENV_ACTIVE\", "
				 "(os.getenv(\"CUENV_ACTIVE\") or \"\") .. ");
		quote(f, label.data);
		buf_adds(f->out, ")\n");
	}
	buf_release(&label);
}

int modulefile_for(int tcl, const struct store_version *in,
		   const struct store_version_list *cudas, struct buf *name,
		   struct buf *out)
{
	size_t k = 0;

	if (in->kind == KIT_CUDNN) {
		while (k < cudas->n &&
		       cudas->v[k]->cuda_major != in->cuda_major)
			k++;
		if (k == cudas->n)
			return CUENV_NO;
	}
	buf_adds(name, in->kind == KIT_CUDA ? in->version : in->name);
	buf_adds(name, tcl ? "" : ".lua");
	if (in->kind == KIT_CUDA)
		modulefile_cuda(tcl, in, out);
	else
		modulefile_cudnn(tcl, in, cudas, out);
	return CUENV_OK;
}

/* ---- the files ------------------------------------------------------------- */

int modulefile_format(const char *format, int *tcl, struct cuenv_err *err)
{
	*tcl = !strcmp(format, "tcl");
	if (*tcl || !strcmp(format, "lua"))
		return CUENV_OK;
	cuenv_fail(err, CUENV_E_USAGE, "modules: unknown format '%s'", format);
	return cuenv_hint(err,
			  "formats: lua (Lmod), tcl (Environment Modules)");
}

/* The modules of list into dir/kind (see modulefile_write_all). */
static int write_kind(int tcl, const char *dir, const char *kind,
		      const struct store_version_list *list,
		      const struct store_version_list *cudas,
		      struct strv *written, struct strv *skipped,
		      struct cuenv_err *err)
{
	struct buf sub = BUF_INIT, path = BUF_INIT, data = BUF_INIT,
		   name = BUF_INIT;
	int rc = CUENV_OK;

	buf_path(&sub, dir, kind);
	for (size_t i = 0; i < list->n && !rc; i++) {
		const struct store_version *in = list->v[i];

		buf_reset(&name);
		buf_reset(&data);
		if (modulefile_for(tcl, in, cudas, &name, &data)) {
			buf_reset(&path);
			buf_printf(&path,
				   "no module for cudnn %s: no CUDA %u "
				   "installed for it to depend on",
				   in->name, in->cuda_major);
			strv_push(skipped, path.data);
			continue;
		}
		rc = store_mkdir_p(sub.data, err);
		if (rc)
			break;
		buf_reset(&path);
		buf_printf(&path, "%s/%s", sub.data, name.data);
		rc = file_write(path.data, data.data, data.len, 0644, err);
		if (!rc)
			strv_push(written, path.data);
	}
	buf_release(&name);
	buf_release(&sub);
	buf_release(&path);
	buf_release(&data);
	return rc;
}

int modulefile_write_all(int tcl, const char *dir,
			 const struct store_version_list *cudas,
			 const struct store_version_list *cudnns,
			 struct strv *written, struct strv *skipped,
			 struct cuenv_err *err)
{
	int rc = write_kind(tcl, dir, "cuda", cudas, cudas, written, skipped,
			    err);

	if (!rc)
		rc = write_kind(tcl, dir, "cudnn", cudnns, cudas, written,
				skipped, err);
	return rc;
}
