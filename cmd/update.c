#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/catalog.h"
#include "../core/digest.h"
#include "../core/file.h"
#include "../core/fetch.h"
#include "../core/install.h"
#include "../core/plat_fs.h"
#include "../core/pypi.h"
#include "../core/needs.h"
#include "../core/refresh.h"
#include "../core/wheel.h"
#include "../core/version.h"
#include "../core/xalloc.h"
#include "cmd.h"

static const char usage[] =
	"usage: cuenv update " CMD_SYN_OPTS "\n"
	"       cuenv update --frameworks " CMD_SYN_OPTS "\n"
	"\n"
	"Refresh the catalogue: read the listings of NVIDIA's redist folders\n"
	"(compute/cuda/redist/ and compute/cudnn/redist/, or the same paths\n"
	"under a mirror), fetch every redistrib_<version>.json the catalogue\n"
	"lacks, check it (and its sha256, where the shipped pin list knows\n"
	"it), and keep it in $CUENV_ROOT/manifests, where list-remote and\n"
	"install find it. Manifests already known are not fetched again.\n";

enum { O_MIRROR, O_FRAMEWORKS, O_INDEX };

static const struct cmd_option opts[] = {
	[O_MIRROR] = { "mirror", .arg = "URL",
		       .help = "NVIDIA's paths under URL (also CUENV_MIRROR)" },
	[O_FRAMEWORKS] = { "frameworks", .forms = CMD_NAMED,
			   .help = "instead, refresh the framework table that\n"
				   "`install --for` falls back on offline: for\n"
				   "each minor release of torch and tensorflow\n"
				   "on the package index, its newest wheel's\n"
				   "metadata, read by range requests as `cuenv\n"
				   "needs NAME==VERSION` reads it, into\n"
				   "$CUENV_ROOT/manifests/compat/frameworks.tsv" },
	[O_INDEX] = { "index", .forms = CMD_FORM(2), .arg = "URL",
		      .help = "the package index (also CUENV_PYPI_INDEX)" },
};

#ifdef CUENV_NET /* the rest runs in cuenv-net */

/*
 * The pin list of NVIDIA's own manifest files (redistrib-json-sha256.tsv)
 * into pins, when there is one: from the catalogue in use, so
 * CUENV_MANIFESTS's own list when it is set.
 */
static int read_pins(const struct cuenv_ctx *ctx, struct buf *pins)
{
	struct buf path = BUF_INIT;
	struct cuenv_err e = CUENV_ERR_INIT;
	const char *only = env_get(ctx->envp, "CUENV_MANIFESTS");
	int found = 0;

	if (only && *only)
		buf_adds(&path, only);
	if (path.len || !cmd_data_dir(ctx, &path)) {
		buf_adds(&path, "/redistrib-json-sha256.tsv");
		found = !file_read(path.data, 1 << 20, FILE_MAY_BE_MISSING,
				   pins, &e);
	}
	err_release(&e);
	buf_release(&path);
	return found;
}

static int update_kind(const struct cuenv_ctx *ctx, const char *base,
		       const struct fetch_opts *fo, enum kit_kind kind,
		       const struct catalog *known, const char *pins,
		       unsigned *added, struct cuenv_err *err)
{
	const char *k = kit_kind_name(kind);
	struct buf url = BUF_INIT, html = BUF_INIT, body = BUF_INIT,
		   dir = BUF_INIT, path = BUF_INIT;
	struct strv versions = STRV_INIT;
	struct plat_stat st;
	int rc = CUENV_OK;

	buf_printf(&url, "%s/compute/%s/redist/", base, k);
	if (!strncmp(url.data, "file://", 7)) {
		/* A mirror on disk: its folder is the listing. */
		struct plat_dir *d = plat_opendir(url.data + 7);
		const char *name;

		if (!d) {
			rc = cuenv_fail(err, CUENV_E_FETCH,
					"cannot read '%s': %s", url.data,
					strerror(errno));
			goto out;
		}
		while ((name = plat_readdir(d)))
			buf_printf(&html, "%s\n", name);
		plat_closedir(d);
	} else {
		rc = fetch_to_buf(url.data, fo, 8 << 20, &html, err);
		if (rc)
			goto out;
	}
	refresh_listed(html.data, &versions);
	buf_printf(&dir, "%s/manifests", ctx->root);
	plat_mkdir(dir.data, 0755);
	buf_printf(&dir, "/%s", k);
	plat_mkdir(dir.data, 0755);
	for (size_t i = 0; i < versions.n; i++) {
		const char *v = versions.v[i];

		buf_reset(&path);
		buf_printf(&path, "%s/redistrib_%s.json", dir.data, v);
		if (refresh_known(known, kind, v) || !plat_stat(path.data, &st))
			continue;
		buf_reset(&url);
		buf_printf(&url, "%s/compute/%s/redist/redistrib_%s.json", base,
			   k, v);
		rc = fetch_to_buf(url.data, fo, 16 << 20, &body, err);
		if (!rc)
			rc = refresh_accept(pins, url.data, body.data, body.len,
					    catalog_platform(), kind, v, err);
		if (!rc)
			rc = file_write(path.data, body.data, body.len,
					FILE_MODE_KEEP, err);
		if (rc)
			goto out;
		printf("added %s %s\n", k, v);
		(*added)++;
	}
out:
	strv_release(&versions);
	buf_release(&url);
	buf_release(&html);
	buf_release(&body);
	buf_release(&dir);
	buf_release(&path);
	return rc;
}

/* ---- the framework table, from the package index ------------------------ */

/* Projects on the index, the table's name for each, and the oldest minor
 * release read (older wheels carry no build_info.py or pins). */
static const struct {
	const char *project, *table, *floor;
} fw_projects[] = {
	{ "torch", "pytorch", "2.0" },
	{ "tensorflow", "tensorflow", "2.4" },
};

static int by_version(const void *a, const void *b)
{
	return version_cmp_str(*(char *const *)a, *(char *const *)b);
}

static int update_frameworks(const struct cuenv_ctx *ctx, const char *index,
			     struct cuenv_err *err)
{
	struct fetch_opts fo = FETCH_OPTS_INIT;
	struct buf table = BUF_INIT, path = BUF_INIT, page = BUF_INIT;
	unsigned rows = 0;
	uint64_t bytes = 0;
	int rc = CUENV_OK;

	fo.allow_http = !strncmp(index, "http://", 7); /* the user asked */
	fo.allow_file = !strncmp(index, "file://", 7);
	buf_adds(&table, "framework\tversion\tcuda\tcudnn\tsource\tnotes\n");
	for (size_t p = 0;
	     !rc && p < sizeof(fw_projects) / sizeof(*fw_projects); p++) {
		struct index_file *files = NULL;
		struct strv vers = STRV_INIT;
		size_t nf = 0;

		struct cuenv_err own = CUENV_ERR_INIT;

		if (pypi_index_files(index, fw_projects[p].project, &fo, &page,
				     &files, &nf, &own))
			cmd_warn("skipped %s: %s", fw_projects[p].project,
				 own.msg.data);
		else
			refresh_newest_per_minor(files, nf,
						 fw_projects[p].floor, &vers);
		err_release(&own);
		pypi_index_files_free(files, nf);
		if (vers.n)
			qsort(vers.v, vers.n, sizeof(*vers.v), by_version);
		for (size_t i = vers.n; !rc && i-- > 0;) {
			struct needs_scan s;
			struct wheel_requirement r;
			struct buf req = BUF_INIT;
			const char *cuda, *dnn;
			char *m = refresh_minor(vers.v[i]);

			needs_scan_init(&s);
			buf_printf(&req, "%s==%s", fw_projects[p].project,
				   vers.v[i]);
			rc = wheel_requirement_scan(&s, req.data, index, NULL,
						    &fo, &r, err);
			bytes += r.st.bytes;
			cuda = needs_newest_report(&s, NULL, 0);
			dnn = needs_newest_report(&s, NULL, 1);
			if (!rc && cuda) {
				buf_printf(&table,
					   "%s\t%s\t%s\t%s\tPyPI %s, read by "
					   "cuenv update from %s\tPyPI "
					   "default wheel\n",
					   fw_projects[p].table, m, cuda,
					   dnn ? dnn : "-", r.wheel, index);
				rows++;
			}
			free(m);
			buf_release(&req);
			wheel_requirement_release(&r);
			needs_scan_release(&s);
		}
		strv_release(&vers);
	}
	if (!rc && !rows)
		rc = cuenv_fail(err, CUENV_E_FETCH,
				"no framework release read "
				"from '%s'",
				index);
	if (rc)
		goto out;
	buf_printf(&path, "%s/manifests", ctx->root);
	plat_mkdir(path.data, 0755);
	buf_adds(&path, "/compat");
	plat_mkdir(path.data, 0755);
	buf_adds(&path, "/frameworks.tsv");
	rc = file_write(path.data, table.data, table.len, FILE_MODE_KEEP, err);
	if (!rc)
		printf("%u framework releases read from %s (%llu bytes of "
		       "their wheels) into %s\n",
		       rows, index, (unsigned long long)bytes, path.data);
out:
	buf_release(&table);
	buf_release(&path);
	buf_release(&page);
	return rc;
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct fetch_opts fo = FETCH_OPTS_INIT;
	struct catalog cat = { 0 };
	const char *mirror = env_get(ctx->envp, "CUENV_MIRROR");
	struct buf base = BUF_INIT, pins = BUF_INIT;
	const char *index = env_get(ctx->envp, "CUENV_PYPI_INDEX");
	unsigned added = 0;
	int rc = CUENV_OK, has_pins;

	(void)argc; /* options only: main checked there are no arguments */
	(void)argv;

	if (ctx->opt.arg[O_MIRROR])
		mirror = ctx->opt.arg[O_MIRROR];
	if (ctx->opt.arg[O_INDEX])
		index = ctx->opt.arg[O_INDEX];
	if (cmd_opt_given(&ctx->opt, O_FRAMEWORKS)) {
		rc = store_open(&ctx->store, ctx->root, true, err);
		if (!rc)
			rc = store_lock(&ctx->store, err);
		fetch_global_init();
		if (!rc)
			rc = update_frameworks(
				ctx,
				index && *index ? index
						: "https://pypi.org/simple",
				err);
		return rc;
	}
	if (mirror && *mirror) {
		rc = cmd_mirror_url(&cmd_update, mirror, &fo, err);
		if (rc)
			return rc;
		buf_adds(&base, mirror);
		while (base.len && base.data[base.len - 1] == '/')
			buf_setlen(&base, base.len - 1);
	} else {
		buf_adds(&base, NVIDIA_BASE);
	}
	rc = store_open(&ctx->store, ctx->root, true, err);
	cmd_store_waiting(&ctx->store, "update");
	if (!rc)
		rc = store_lock(&ctx->store, err);
	if (!rc)
		rc = cmd_catalog(ctx, &cat, err);
	fetch_global_init();
	has_pins = read_pins(ctx, &pins);
	for (int k = KIT_CUDA; !rc && k <= KIT_CUDNN; k++)
		rc = update_kind(ctx, base.data, &fo, (enum kit_kind)k, &cat,
				 has_pins ? pins.data : NULL, &added, err);
	if (!rc && added)
		printf("%u new manifest%s\n", added, added == 1 ? "" : "s");
	else if (!rc)
		printf("the catalogue is up to date\n");
	catalog_release(&cat);
	buf_release(&base);
	buf_release(&pins);
	return rc;
}

#endif /* CUENV_NET */

CUENV_CMD(update, "update", 0, 0,
	  "refresh the catalogue from NVIDIA's index (or a mirror)",
	  CMD_OPTIONS(opts), .flags = CMD_EXTERNAL, .run = CMD_NET_RUN(run));
