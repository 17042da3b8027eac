#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/xalloc.h"
#include "cmd.h"

static const char usage[] =
	"usage: cuenv modules [--format lua|tcl] [DIR]\n"
	"\n"
	"Write an environment modulefile for every CUDA and cuDNN version\n"
	"available, for Lmod (lua, the default) or Environment Modules\n"
	"(tcl), into DIR (default $CUENV_ROOT/modules):\n"
	"\n"
	"  DIR/cuda/<version>[.lua]          CUDA_HOME, CUDA_PATH, PATH, ...\n"
	"  DIR/cudnn/<version>-cuda<M>[.lua]  needs a cuda/<M>.x module loaded\n"
	"\n"
	"Then `module use DIR` (or MODULEPATH=DIR) and\n"
	"`module load cuda/12.4.1 cudnn/9.1.0.70-cuda12` set the same\n"
	"variables as `cuenv env` for that selection; `module unload` undoes\n"
	"them. Files are replaced atomically; each written is printed.\n";

enum { O_FORMAT };

static const struct cmd_option opts[] = {
	[O_FORMAT] = { "format", .arg = "F", .value = OPT_WORD,
		       .words = "lua tcl",
		       .help = "lua (Lmod, the default) or tcl (Environment "
			       "Modules)" },
};

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
		   const struct install *in)
{
	struct buf desc = BUF_INIT;

	buf_printf(&desc, "%s %s (cuenv)", what, in->version);
	if (f->tcl) {
		buf_adds(f->out, "#%Module1.0\n");
		buf_adds(f->out, "# Written by `cuenv modules`; rerun it rather "
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

/* The same variables env_activate sets for this CUDA alone. */
static void cuda_module(const struct fmt *f, const struct install *in)
{
	struct strv lib = STRV_INIT, bin = STRV_INIT, inc = STRV_INIT;
	struct strv link = STRV_INIT, none = STRV_INIT;
	size_t n = strlen(in->prefix);
	/* the linker reads no ld.so.cache: only /usr's folders are its own */
	bool system = n >= 4 && !strcmp(in->prefix + n - 4, "/usr");

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
	setvar(f, "setenv", "CUDA_HOME", in->prefix);
	setvar(f, "setenv", "CUDA_PATH", in->prefix);
	/* pushenv: unloading a cuDNN module on top gives this back. */
	setvar(f, "pushenv", "CUENV_ACTIVE", in->version);
	strv_release(&lib);
	strv_release(&bin);
	strv_release(&inc);
	strv_release(&link);
}

/*
 * cuDNN on top of a loaded CUDA module of its major: its directories go
 * in front of CUDA's, as env_activate puts them.
 */
static void cudnn_module(const struct fmt *f, const struct install *in,
			 const struct install_list *cudas)
{
	struct buf label = BUF_INIT;

	header(f, "cuDNN", in);
	buf_adds(f->out, f->tcl ? "conflict cudnn\nprereq" : "conflict(\"cudnn\")\nprereq_any(");
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
		buf_adds(f->out, "set cuenv_cuda {}\n"
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

/* Write data to path through a temporary file in the same folder. */
static int write_atomic(const char *path, const struct buf *data,
			struct cuenv_err *err)
{
	struct buf tmp = BUF_INIT;
	FILE *fp;
	int fd, rc = CUENV_OK;

	buf_printf(&tmp, "%s.tmp.XXXXXX", path);
	fd = mkstemp(tmp.data);
	if (fd < 0) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot create %s: %s",
				tmp.data, strerror(errno));
		goto out;
	}
	fp = fdopen(fd, "w");
	if (!fp) {
		close(fd);
		unlink(tmp.data);
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot write %s: %s",
				tmp.data, strerror(errno));
		goto out;
	}
	fchmod(fd, 0644);
	if (fwrite(data->data, 1, data->len, fp) != data->len ||
	    fflush(fp) || fsync(fd)) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot write %s: %s",
				tmp.data, strerror(errno));
		fclose(fp);
		unlink(tmp.data);
		goto out;
	}
	if (fclose(fp) || rename(tmp.data, path)) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot write %s: %s",
				path, strerror(errno));
		unlink(tmp.data);
	}
out:
	buf_release(&tmp);
	return rc;
}

static int write_kind(const struct fmt *f, const char *dir, const char *kind,
		      const struct install_list *list,
		      const struct install_list *cudas, struct cuenv_err *err)
{
	struct buf sub = BUF_INIT, path = BUF_INIT, data = BUF_INIT;
	struct fmt g = { f->tcl, &data };
	int rc = CUENV_OK;

	buf_path(&sub, dir, kind);
	for (size_t i = 0; i < list->n && !rc; i++) {
		const struct install *in = list->v[i];
		const char *name = in->kind == KIT_CUDA ? in->version : in->name;

		if (in->kind == KIT_CUDNN) {
			size_t k;

			for (k = 0; k < cudas->n; k++)
				if (cudas->v[k]->cuda_major == in->cuda_major)
					break;
			if (k == cudas->n) {
				cmd_warn("no module for cudnn %s: no CUDA %u "
					 "installed for it to depend on",
					 in->name, in->cuda_major);
				continue;
			}
		}
		rc = store_mkdir_p(sub.data, err);
		if (rc)
			break;
		buf_reset(&data);
		if (in->kind == KIT_CUDA)
			cuda_module(&g, in);
		else
			cudnn_module(&g, in, cudas);
		buf_reset(&path);
		buf_printf(&path, "%s/%s%s", sub.data, name,
			   f->tcl ? "" : ".lua");
		rc = write_atomic(path.data, &data, err);
		if (!rc)
			printf("%s\n", path.data);
	}
	buf_release(&sub);
	buf_release(&path);
	buf_release(&data);
	return rc;
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	const char *format = "lua";
	struct install_list cudas = { 0 }, cudnns = { 0 };
	struct buf dir = BUF_INIT;
	struct store st;
	struct fmt f = { 0, NULL };
	int rc = CUENV_OK;

	if (ctx->opt.arg[O_FORMAT])
		format = ctx->opt.arg[O_FORMAT];
	if (!strcmp(format, "tcl")) {
		f.tcl = 1;
	} else if (strcmp(format, "lua")) {
		cuenv_fail(err, CUENV_E_USAGE, "modules: unknown format '%s'",
			   format);
		return cuenv_hint(err, "formats: lua (Lmod), tcl "
				       "(Environment Modules)");
	}
	if (optind < argc)
		buf_sets(&dir, argv[optind]);
	else
		buf_path(&dir, ctx->root, "modules");

	rc = store_open(&st, ctx->root, false, err);
	if (!rc)
		rc = store_list(&st, KIT_CUDA, &cudas, err);
	if (!rc)
		rc = store_list(&st, KIT_CUDNN, &cudnns, err);
	for (size_t i = 0; i < st.warnings.n; i++)
		cmd_warn("skipped an incomplete version: %s", st.warnings.v[i]);
	store_release(&st);
	if (!rc && !cudas.n && !cudnns.n)
		cmd_note("nothing installed yet: no modules written");
	if (!rc)
		rc = write_kind(&f, dir.data, "cuda", &cudas, &cudas, err);
	if (!rc)
		rc = write_kind(&f, dir.data, "cudnn", &cudnns, &cudas, err);
	install_list_release(&cudas);
	install_list_release(&cudnns);
	buf_release(&dir);
	return rc;
}

CUENV_CMD(modules, "modules", 0, 1,
	  "write Lmod or Environment Modules modulefiles", CMD_OPTIONS(opts),
	  .run = run);
