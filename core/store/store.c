#include "store/store.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "plat/file.h"
#include "nvidia/nvlib.h"
#include "plat/plat_fs.h"
#include "plat/plat_lock.h"
#include "plat/plat_path.h"
#include "plat/plat_sys.h"
#include "store/trust.h"
#include "base/version.h"
#include "base/xalloc.h"

/* ---- installs ----------------------------------------------------------- */

void store_version_init(struct store_version *in, enum kit_kind kind)
{
	memset(in, 0, sizeof(*in));
	in->kind = kind;
}

void store_version_release(struct store_version *in)
{
	FREE_EACH(in->version, in->name, in->dir, in->prefix,
		  in->cupti_version);
	STRV_RELEASE_EACH(&in->bin, &in->lib, &in->include, &in->cupti,
			  &in->notes, &in->sources, &in->warnings,
			  &in->searched, &in->linked, &in->links);
	store_version_init(in, in->kind);
}

void store_version_free(struct store_version *in)
{
	if (!in)
		return;
	store_version_release(in);
	free(in);
}

void store_version_list_release(struct store_version_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		store_version_free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

char *store_version_make_name(const struct store_version *in)
{
	struct buf b = BUF_INIT;

	buf_adds(&b, in->version);
	if (in->kind == KIT_CUDNN)
		buf_printf(&b, "-cuda%u", in->cuda_major);
	return buf_detach(&b);
}

bool store_version_is_missing(const struct store_version *in)
{
	return in->registered && in->prefix && !store_is_dir(in->prefix);
}

bool store_version_part_from_wheel(const struct store_version *in,
				   const char *component)
{
	size_t n = strlen(component);

	if (in->registered)
		return false;
	for (size_t i = 0; i < in->sources.n; i++) {
		const char *s = in->sources.v[i], *url = strrchr(s, ' ');
		size_t len;

		if (strncmp(s, component, n) || s[n] != ' ' || !url)
			continue;
		len = strlen(url);
		return len > 4 && !strcmp(url + len - 4, ".whl");
	}
	return false;
}

/* Is dir prefix/SUB/leaf, one folder SUB deep? Then its length less
 * "/leaf" (the folder prefix/SUB). */
static size_t wheel_part(const char *dir, const char *prefix, const char *leaf)
{
	size_t n = strlen(prefix), len = strlen(dir), l = strlen(leaf);
	const char *sub = dir + n + 1, *end = dir + len - l - 1;

	if (len <= n + l + 2 || strncmp(dir, prefix, n) ||
	    (dir[n] != '/' && dir[n] != '\\') || strcmp(end + 1, leaf) ||
	    (*end != '/' && *end != '\\'))
		return 0;
	for (const char *c = sub; c < end; c++)
		if (*c == '/' || *c == '\\')
			return 0;
	return (size_t)(end - dir);
}

static bool lists(const struct strv *v, const char *prefix, const char *leaf)
{
	size_t n = strlen(prefix);

	for (size_t i = 0; i < v->n; i++)
		if (!strncmp(v->v[i], prefix, n) &&
		    (v->v[i][n] == '/' || v->v[i][n] == '\\') &&
		    !strcmp(v->v[i] + n + 1, leaf))
			return true;
	return false;
}

char *store_version_cuda_home(const struct store_version *in)
{
	const char *rt = nvlib_get(NVLIB_CUDART)->wheel_dir;
	size_t n, rn = strlen(rt);

	if (!in->prefix)
		return NULL;
	if (lists(&in->bin, in->prefix, "bin") ||
	    lists(&in->include, in->prefix, "include"))
		return xstrdup(in->prefix);
	for (size_t i = 0; i < in->bin.n; i++) {
		n = wheel_part(in->bin.v[i], in->prefix, "bin");
		if (n)
			return xstrndup(in->bin.v[i], n);
	}
	/* the runtime's wheel (cuda_runtime.h) before cuBLAS's and the rest */
	for (int any = 0; any < 2; any++)
		for (size_t i = 0; i < in->include.n; i++) {
			const char *d = in->include.v[i];

			n = wheel_part(d, in->prefix, "include");
			if (n &&
			    (any ||
			     (n > rn && !strncmp(d + n - rn, rt, rn) &&
			      (d[n - rn - 1] == '/' || d[n - rn - 1] == '\\'))))
				return xstrndup(d, n);
		}
	return xstrdup(in->prefix);
}

bool store_version_name_is_valid(enum kit_kind kind, const char *name)
{
	const char *dash;
	char *v;
	bool ok;

	if (kind != KIT_CUDNN)
		return version_is_valid(name);
	dash = strstr(name, "-cuda");
	if (!dash || !dash[5])
		return false;
	if (strspn(dash + 5, "0123456789") != strlen(dash + 5) ||
	    strlen(dash + 5) > 3 || dash[5] == '0')
		return false;
	v = xstrndup(name, (size_t)(dash - name));
	ok = version_is_valid(v);
	free(v);
	return ok;
}

/* ---- the store ---------------------------------------------------------- */

int store_mkdir_p(const char *path, struct cuenv_err *err)
{
	struct buf b = BUF_INIT;
	int rc = CUENV_OK;

	size_t root = 0;

	/* the root ("/", "C:\\", "\\\\server\\share\\") is there already */
	plat_path_kind(plat_path_native(), path, &root);
	buf_adds(&b, path);
	if (root && root >= b.len)
		goto out;
	for (char *p = b.data + (root ? root : 1);; p++) {
		char c = *p;

		if (!plat_path_is_sep(plat_path_native(), c) && c != '\0')
			continue;
		*p = '\0';
		if (plat_mkdir(b.data, 0755) && errno != EEXIST) {
			rc = cuenv_fail(err, CUENV_E_STORE,
					"cannot create '%s': %s", b.data,
					strerror(errno));
			break;
		}
		*p = c;
		if (!c)
			break;
	}
out:
	buf_release(&b);
	return rc;
}

int store_open(struct store *st, const char *root, bool create,
	       struct cuenv_err *err)
{
	static const char *const sub[] = { "versions/cuda", "versions/cudnn",
					   "versions/cupti", ".staging",
					   "run" };
	struct buf b = BUF_INIT;
	int rc = CUENV_OK;

	st->root = xstrdup(root);
	st->warnings = (struct strv)STRV_INIT;
	st->lock_fd = -1;
	st->lock_what = NULL;
	st->waiting = NULL;
	st->waiting_ctx = NULL;
	if (!plat_path_is_abs(plat_path_native(), root))
		return cuenv_fail(err, CUENV_E_STORE,
				  "CUENV_ROOT must be an absolute path, not "
				  "'%s'",
				  root);
	for (size_t i = 0; create && i < sizeof(sub) / sizeof(*sub); i++) {
		buf_reset(&b);
		buf_path(&b, root, sub[i]);
		rc = store_mkdir_p(b.data, err);
		if (rc)
			break;
	}
	buf_release(&b);
	return rc;
}

void store_release(struct store *st)
{
	if (st->lock_fd >= 0)
		plat_close(st->lock_fd);
	st->lock_fd = -1;
	free(st->lock_what);
	st->lock_what = NULL;
	free(st->root);
	st->root = NULL;
	strv_release(&st->warnings);
}

/* ---- locks -------------------------------------------------------------- */

/*
 * Locks belong to the open file, not to the process (plat_lock.h: open
 * file description locks; LockFileEx): two threads of one install
 * exclude each other as two processes do, and the kernel never sees a
 * false deadlock between two installs' threads (fcntl's process-wide
 * record locks did: EDEADLK).
 */
int store_lock_fd(int fd, int exclusive, int wait)
{
	if (!plat_lock(fd, exclusive, wait))
		return 0;
	return errno == EAGAIN ? -1 : -2;
}

int store_lock_path(const char *path, int exclusive, int wait)
{
	int fd = plat_open(path, PLAT_O_WRITE | PLAT_O_CREATE, 0644), r, e;

	if (fd < 0)
		return -2;
	r = store_lock_fd(fd, exclusive, wait);
	if (!r)
		return fd;
	e = errno;
	plat_close(fd);
	errno = e;
	return r;
}

void store_lock_describe(struct store *st, const char *what)
{
	free(st->lock_what);
	st->lock_what = what ? xstrdup(what) : NULL;
}

/* The holder's line in the lock file ("install cuda 12.4.1 (pid 42)"). */
static void read_holder(int fd, struct buf *out)
{
	char line[256];
	ssize_t n = file_pread_full(fd, line, sizeof(line) - 1, 0);
	char *nl;

	buf_reset(out);
	if (n <= 0)
		return;
	line[n] = '\0';
	nl = strchr(line, '\n');
	if (nl)
		*nl = '\0';
	buf_add_display(out, line, 200);
}

static void write_holder(const struct store *st, int fd)
{
	struct buf b = BUF_INIT;

	buf_printf(&b, "%s (pid %ld)\n",
		   st->lock_what ? st->lock_what : "cuenv", plat_sys_pid());
	/*
	 * A shared holder may overwrite another's line: either is true. The
	 * line is only a courtesy to whoever waits: failures do not matter.
	 */
	if (!plat_ftruncate(fd, 0) && plat_pwrite(fd, b.data, b.len, 0) < 0)
		b.len = 0;
	buf_release(&b);
}

static int lock_store(struct store *st, int exclusive, struct cuenv_err *err)
{
	struct buf path = BUF_INIT, who = BUF_INIT;
	int rc = CUENV_OK, r;

	if (st->lock_fd >= 0)
		return CUENV_OK;
	buf_path(&path, st->root, ".lock");
	st->lock_fd = plat_open(path.data, PLAT_O_WRITE | PLAT_O_CREATE, 0644);
	if (st->lock_fd < 0) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot open '%s': %s",
				path.data, strerror(errno));
		goto out;
	}
	r = store_lock_fd(st->lock_fd, exclusive, 0);
	if (r == -1) {
		read_holder(st->lock_fd, &who);
		if (st->waiting)
			st->waiting(st->waiting_ctx,
				    who.len ? who.data : "another cuenv");
		r = store_lock_fd(st->lock_fd, exclusive, 1);
	}
	if (r) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot lock '%s': %s",
				path.data, strerror(errno));
		plat_close(st->lock_fd);
		st->lock_fd = -1;
		goto out;
	}
	write_holder(st, st->lock_fd);
out:
	buf_release(&path);
	buf_release(&who);
	return rc;
}

int store_lock(struct store *st, struct cuenv_err *err)
{
	return lock_store(st, 1, err);
}

int store_lock_shared(struct store *st, struct cuenv_err *err)
{
	return lock_store(st, 0, err);
}

/* ---- receipts ------------------------------------------------------------ */

/* A receipt's largest size read (a toolkit's lists of folders and sources
 * stay far below). */
#define RECEIPT_MAX (16u << 20)

static json_t *dirs_to_json(const struct strv *dirs, const char *prefix)
{
	json_t *a = json_array();
	size_t plen = strlen(prefix);

	for (size_t i = 0; i < dirs->n; i++) {
		const char *d = dirs->v[i];

		if (!strncmp(d, prefix, plen) &&
		    plat_path_is_sep(plat_path_native(), d[plen]))
			d += plen + 1;
		else if (!strcmp(d, prefix))
			d = ".";
		else /* detect and install only find folders inside it */
			BUG("folder '%s' outside prefix '%s'", d, prefix);
		json_array_append_new(a, json_string(d));
	}
	return a;
}

static int dirs_from_json(json_t *a, const char *prefix, struct strv *out)
{
	size_t i;
	json_t *v;

	if (!json_is_array(a))
		return -1;
	json_array_foreach(a, i, v) {
		const char *s = json_string_value(v);
		struct buf b = BUF_INIT;

		if (!s ||
		    plat_path_kind(plat_path_native(), s, NULL) !=
			    PLAT_PATH_RELATIVE ||
		    strstr(s, ".."))
			return -1;
		if (!strcmp(s, "."))
			buf_adds(&b, prefix);
		else
			buf_path(&b, prefix, s);
		/* ':' and the like would split PATH (core/store/trust.h) */
		if (!trust_path_listable(b.data)) {
			buf_release(&b);
			return -1;
		}
		strv_push_take(out, buf_detach(&b));
	}
	return 0;
}

/*
 * A registered install whose library folders are shared with other
 * software: its <dir>/lib of links stands in for them.
 */
static void use_links(struct store_version *in)
{
	struct strv *lists[] = { &in->lib, &in->cupti };
	struct buf own = BUF_INIT;

	buf_path(&own, in->dir, "lib");
	for (size_t l = 0; l < 2; l++) {
		bool had = false;

		for (size_t i = lists[l]->n; i-- > 0;) {
			if (strv_find(&in->linked, lists[l]->v[i]) >= 0) {
				strv_remove(lists[l], i);
				had = true;
			}
		}
		if (had && strv_find(lists[l], own.data) < 0)
			strv_push(lists[l], own.data);
	}
	buf_release(&own);
}

int store_read_receipt(const char *dir, struct store_version *in,
		       struct cuenv_err *err)
{
	struct buf path = BUF_INIT;
	struct buf text = BUF_INIT;
	struct cuenv_err ferr = CUENV_ERR_INIT;
	json_error_t jerr;
	json_t *j = NULL;
	const char *kind, *version, *prefix, *cupti;
	int major = 0, registered = 0;
	enum kit_kind kk;
	int rc = CUENV_OK;

	store_version_init(in, KIT_CUDA);
	buf_path(&path, dir, RECEIPT_NAME);
	/* Not json_load_file: its fopen takes Windows' ANSI code page. */
	if (file_read(path.data, RECEIPT_MAX, 0, &text, &ferr)) {
		rc = cuenv_fail(err, CUENV_E_MANIFEST, "bad receipt '%s': %s",
				path.data, strerror(errno));
		err_release(&ferr);
		goto out;
	}
	j = json_loadb(text.data, text.len, JSON_REJECT_DUPLICATES, &jerr);
	if (!j) {
		rc = cuenv_fail(err, CUENV_E_MANIFEST, "bad receipt '%s': %s",
				path.data, jerr.text);
		goto out;
	}
	kind = version = prefix = cupti = NULL;
	if (json_unpack_ex(j, &jerr, 0, "{s:s, s:s, s:i, s:b, s?s, s?s}",
			   "kind", &kind, "version", &version, "cuda_major",
			   &major, "registered", &registered, "prefix", &prefix,
			   "cupti_version", &cupti) ||
	    kit_kind_parse(kind, &kk) || !version_is_valid(version) ||
	    major <= 0 || major > 999 || (registered && !prefix) ||
	    (prefix && !trust_path_listable(prefix))) {
		rc = cuenv_fail(err, CUENV_E_MANIFEST, "bad receipt '%s'",
				path.data);
		goto out;
	}
	in->kind = kk;
	in->version = xstrdup(version);
	in->cuda_major = (unsigned)major;
	in->registered = registered;
	in->dir = xstrdup(dir);
	in->prefix = xstrdup(registered ? prefix : dir);
	in->name = xstrdup(plat_path_last(dir));
	if (cupti)
		in->cupti_version = xstrdup(cupti);
	if (dirs_from_json(json_object_get(j, "bin"), in->prefix, &in->bin) ||
	    dirs_from_json(json_object_get(j, "lib"), in->prefix, &in->lib) ||
	    dirs_from_json(json_object_get(j, "include"), in->prefix,
			   &in->include) ||
	    dirs_from_json(json_object_get(j, "cupti"), in->prefix,
			   &in->cupti) ||
	    (json_object_get(j, "searched") &&
	     dirs_from_json(json_object_get(j, "searched"), in->prefix,
			    &in->searched)) ||
	    (json_object_get(j, "linked") &&
	     dirs_from_json(json_object_get(j, "linked"), in->prefix,
			    &in->linked))) {
		store_version_release(in);
		rc = cuenv_fail(err, CUENV_E_MANIFEST,
				"bad directory list in receipt '%s'",
				path.data);
		goto out;
	}
	if (in->linked.n)
		use_links(in);
	json_t *srcs = json_object_get(j, "sources"), *sv;
	size_t si;
	json_array_foreach(srcs, si, sv) {
		const char *n = NULL, *h = NULL, *u = NULL;
		struct buf line = BUF_INIT;

		if (json_unpack(sv, "{s:s, s:s, s:s}", "name", &n, "sha256", &h,
				"url", &u))
			continue;
		buf_printf(&line, "%s %s %s", n, h, u);
		strv_push_take(&in->sources, buf_detach(&line));
	}
	json_t *notes = json_object_get(j, "components");
	const char *k;
	json_t *v;
	json_object_foreach(notes, k, v) {
		struct buf n = BUF_INIT;

		if (!json_is_string(v))
			continue;
		buf_printf(&n, "%s %s", k, json_string_value(v));
		strv_push_take(&in->notes, buf_detach(&n));
	}
out:
	json_decref(j);
	buf_release(&text);
	buf_release(&path);
	return rc;
}

static int cmp_install(const void *a, const void *b)
{
	const struct store_version *x = *(const struct store_version *const *)a;
	const struct store_version *y = *(const struct store_version *const *)b;

	return version_cmp_build(x->version, x->cuda_major, y->version,
				 y->cuda_major);
}

void store_version_list_sort(struct store_version_list *l)
{
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), cmp_install);
}

int store_list(struct store *st, enum kit_kind kind,
	       struct store_version_list *out, struct cuenv_err *err)
{
	struct buf dir = BUF_INIT, sub = BUF_INIT;
	const char *name;
	struct plat_dir *d;
	int rc = CUENV_OK;

	buf_path(&dir, st->root, "versions");
	buf_path(&dir, dir.data, kit_kind_name(kind));
	d = plat_opendir(dir.data);
	if (!d) {
		if (errno != ENOENT)
			rc = cuenv_fail(err, CUENV_E_STORE,
					"cannot read '%s': %s", dir.data,
					strerror(errno));
		goto out;
	}
	while ((name = plat_readdir(d))) {
		struct cuenv_err e2 = CUENV_ERR_INIT;
		struct store_version *in;
		struct plat_stat sst;

		if (name[0] == '.')
			continue;
		buf_reset(&sub);
		buf_path(&sub, dir.data, name);
		if (!store_version_name_is_valid(kind, name)) {
			strv_push(&st->warnings, sub.data);
			continue;
		}
		buf_adds(&sub, "/" RECEIPT_NAME);
		if (plat_stat(sub.data,
			      &sst)) /* incomplete: silently ignored */
			continue;
		buf_setlen(&sub, sub.len - strlen("/" RECEIPT_NAME));
		in = xmalloc(sizeof(*in));
		if (store_read_receipt(sub.data, in, &e2) || in->kind != kind) {
			store_version_release(in);
			strv_push(&st->warnings,
				  e2.rc ? e2.msg.data : sub.data);
			err_release(&e2);
			free(in);
			continue;
		}
		out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
		out->v[out->n++] = in;
	}
	plat_closedir(d);
	store_version_list_sort(out);
out:
	buf_release(&dir);
	buf_release(&sub);
	return rc;
}

static int write_receipt(const char *dir, const struct store_version *in,
			 struct cuenv_err *err)
{
	struct buf path = BUF_INIT;
	json_t *j = json_object(), *comp = json_object();
	char *text;
	const char *prefix = in->registered ? in->prefix : dir;
	int rc = CUENV_OK;

	json_object_set_new(j, "schema", json_integer(1));
	json_object_set_new(j, "kind", json_string(kit_kind_name(in->kind)));
	json_object_set_new(j, "version", json_string(in->version));
	json_object_set_new(j, "cuda_major", json_integer(in->cuda_major));
	json_object_set_new(j, "registered", json_boolean(in->registered));
	if (in->registered)
		json_object_set_new(j, "prefix", json_string(in->prefix));
	if (in->cupti_version)
		json_object_set_new(j, "cupti_version",
				    json_string(in->cupti_version));
	json_object_set_new(j, "bin", dirs_to_json(&in->bin, prefix));
	json_object_set_new(j, "lib", dirs_to_json(&in->lib, prefix));
	json_object_set_new(j, "include", dirs_to_json(&in->include, prefix));
	json_object_set_new(j, "cupti", dirs_to_json(&in->cupti, prefix));
	if (in->searched.n)
		json_object_set_new(j, "searched",
				    dirs_to_json(&in->searched, prefix));
	if (in->linked.n)
		json_object_set_new(j, "linked",
				    dirs_to_json(&in->linked, prefix));
	for (size_t i = 0; i < in->notes.n; i++) {
		const char *sp = strchr(in->notes.v[i], ' ');
		char *k;

		if (!sp)
			continue;
		k = xstrndup(in->notes.v[i], (size_t)(sp - in->notes.v[i]));
		json_object_set_new(comp, k, json_string(sp + 1));
		free(k);
	}
	json_object_set_new(j, "components", comp);
	if (in->sources.n) {
		json_t *src = json_array();

		for (size_t i = 0; i < in->sources.n; i++) {
			char *f[3] = { NULL };
			char *copy = xstrdup(in->sources.v[i]), *s = copy;

			for (int k = 0; k < 3 && s; k++) {
				f[k] = s;
				s = k < 2 ? strchr(s, ' ') : NULL;
				if (s)
					*s++ = '\0';
			}
			if (f[2])
				json_array_append_new(
					src, json_pack("{s:s, s:s, s:s}",
						       "name", f[0], "sha256",
						       f[1], "url", f[2]));
			free(copy);
		}
		json_object_set_new(j, "sources", src);
	}
	buf_path(&path, dir, RECEIPT_NAME);
	/*
	 * 0644 whatever the umask: activation refuses a receipt its group
	 * can write (core/store/trust.h), and umask 002 is common. Not
	 * json_dump_file: its fopen takes Windows' ANSI code page.
	 */
	text = json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS);
	if (text) /* NULL only when out of memory */
		rc = file_write(path.data, text, strlen(text), 0644, err);
	else
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot write '%s': %s",
				path.data, strerror(ENOMEM));
	free(text);
	json_decref(j);
	buf_release(&path);
	return rc;
}

int store_commit(struct store *st, struct store_version *in, const char *staged,
		 struct cuenv_err *err)
{
	struct buf dest = BUF_INIT;
	int rc;

	free(in->name);
	in->name = store_version_make_name(in);
	if (!store_version_name_is_valid(in->kind, in->name))
		BUG("invalid install name '%s'", in->name);
	buf_path(&dest, st->root, "versions");
	buf_path(&dest, dest.data, kit_kind_name(in->kind));
	rc = store_mkdir_p(dest.data, err);
	if (rc)
		goto out;
	buf_path(&dest, dest.data, in->name);
	rc = write_receipt(staged, in, err);
	if (!rc && plat_rename(staged, dest.data)) {
		if (errno == EEXIST || errno == ENOTEMPTY)
			rc = cuenv_fail(err, CUENV_E_CONFLICT,
					"%s %s is already in the store (%s)",
					kit_kind_name(in->kind), in->name,
					dest.data);
		else
			rc = cuenv_fail(err, CUENV_E_STORE,
					"cannot create '%s': %s", dest.data,
					strerror(errno));
	}
	if (rc)
		goto out;
	free(in->dir);
	in->dir = buf_detach(&dest);
	if (!in->registered) {
		free(in->prefix);
		in->prefix = xstrdup(in->dir);
	}
out:
	buf_release(&dest);
	return rc;
}

int store_commit_over(struct store *st, struct store_version *in,
		      const char *staged, const char *old,
		      struct cuenv_err *err)
{
	struct buf dest = BUF_INIT;
	int rc;

	free(in->name);
	in->name = store_version_make_name(in);
	if (!store_version_name_is_valid(in->kind, in->name))
		BUG("invalid install name '%s'", in->name);
	buf_path(&dest, st->root, "versions");
	buf_path(&dest, dest.data, kit_kind_name(in->kind));
	buf_path(&dest, dest.data, in->name);
	rc = write_receipt(staged, in, err);
	if (rc)
		goto out;
	if (!plat_rename_exchange(staged, dest.data)) {
		store_remove_tree(staged); /* the old files, now there */
	} else if (errno != ENOSYS && errno != EINVAL) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot replace '%s': %s",
				dest.data, strerror(errno));
	} else if (plat_rename(dest.data, old)) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot move '%s': %s",
				dest.data, strerror(errno));
	} else if (plat_rename(staged, dest.data)) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot create '%s': %s",
				dest.data, strerror(errno));
		if (plat_rename(old, dest.data))
			cuenv_hint(err, "its old files are in '%s'", old);
	} else {
		store_remove_tree(old);
	}
	if (rc)
		goto out;
	free(in->dir);
	in->dir = buf_detach(&dest);
	free(in->prefix);
	in->prefix = xstrdup(in->dir);
out:
	buf_release(&dest);
	return rc;
}

/* The folder of links made below, emptied and removed. */
static void remove_links(const char *dir)
{
	struct plat_dir *d = plat_opendir(dir);
	struct buf p = BUF_INIT;
	const char *name;

	while (d && (name = plat_readdir(d))) {
		if (name[0] != '.') {
			buf_reset(&p);
			buf_path(&p, dir, name);
			plat_unlink(p.data);
		}
	}
	plat_closedir(d);
	buf_release(&p);
	plat_rmdir(dir);
}

/* in->links as links in staged/lib, one per file name. */
static int make_links(const struct store_version *in, const char *staged,
		      struct cuenv_err *err)
{
	struct buf dir = BUF_INIT, p = BUF_INIT;
	int rc = CUENV_OK;

	if (!in->links.n)
		return CUENV_OK;
	buf_path(&dir, staged, "lib");
	if (plat_mkdir(dir.data, 0755)) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot create '%s': %s",
				dir.data, strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < in->links.n && !rc; i++) {
		buf_reset(&p);
		buf_path(&p, dir.data, plat_path_last(in->links.v[i]));
		if (plat_symlink(in->links.v[i], p.data) && errno != EEXIST)
			rc = cuenv_fail(err, CUENV_E_STORE,
					"cannot link '%s': %s", p.data,
					strerror(errno));
	}
out:
	buf_release(&dir);
	buf_release(&p);
	return rc;
}

int store_register(struct store *st, struct store_version *in,
		   struct cuenv_err *err)
{
	struct buf stage = BUF_INIT, r = BUF_INIT;
	int rc;

	buf_path(&stage, st->root, ".staging");
	rc = store_mkdir_p(stage.data, err);
	if (rc)
		goto out;
	buf_adds(&stage, "/register-XXXXXX");
	if (!plat_mkdtemp(stage.data)) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot create '%s': %s",
				stage.data, strerror(errno));
		goto out;
	}
	rc = make_links(in, stage.data, err);
	if (!rc)
		rc = store_commit(st, in, stage.data, err);
	if (rc) {
		buf_path(&r, stage.data, "lib");
		remove_links(r.data);
		buf_reset(&r);
		buf_path(&r, stage.data, RECEIPT_NAME);
		plat_unlink(r.data);
		plat_rmdir(stage.data);
	} else if (in->linked.n) {
		use_links(in);
	}
out:
	buf_release(&stage);
	buf_release(&r);
	return rc;
}

int store_is_dir(const char *path)
{
	struct plat_stat st;

	return !plat_stat(path, &st) && st.type == PLAT_F_DIR;
}

/* ---- walking trees ------------------------------------------------------- */

/*
 * Trees in the store come from archives: they may be deeper than PATH_MAX
 * and hold anything. The walk goes down from directory to directory with
 * openat(O_NOFOLLOW) and back up through "..", checked against the device
 * and inode it came from, so it holds two descriptors and no path at any
 * depth, and never follows a symbolic link.
 */
struct level {
	struct strv dirs; /* its subdirectories, to visit in turn */
	size_t next;
	struct plat_file_id id;
};

struct walk {
	int remove;	    /* delete what is visited */
	int stop_at_linked; /* measuring: the first linked file ends it */
	struct tree_stats *ts;
	int err; /* errno of the first failure */
};

static void walk_fail(struct walk *w, int e)
{
	if (!w->err)
		w->err = e ? e : EIO;
}

/* Count (and remove) one entry that is not a directory. */
static void walk_leaf(struct walk *w, int fd, const char *name,
		      const struct plat_stat *sb)
{
	if (sb->type == PLAT_F_REG) {
		if (sb->nlink > 1)
			w->ts->linked++;
		if (!w->remove || sb->nlink == 1)
			w->ts->bytes += sb->size;
	}
	if (w->remove && plat_unlink_at(fd, name) && errno != ENOENT)
		walk_fail(w, errno);
}

/*
 * Read the directory open at fd (whose status is sb): count and remove
 * what is not a directory, list the subdirectories in lv->dirs. All
 * names are read before anything is removed.
 */
static void walk_level(struct walk *w, int fd, const struct plat_stat *sb,
		       struct level *lv)
{
	struct strv leaves = STRV_INIT;
	struct plat_dir *d;
	const char *name;

	memset(lv, 0, sizeof(*lv));
	lv->id = sb->id;
	/* A read-only folder (0555 in an archive) cannot be emptied. */
	if (w->remove && (sb->perm & 0700) != 0700)
		plat_fchmod(fd, sb->perm | 0700);
	d = plat_fdopendir(fd);
	if (!d) {
		walk_fail(w, errno);
		return;
	}
	for (;;) {
		name = plat_readdir(d);
		if (!name)
			break;
		if (plat_readdir_is_dir(d))
			strv_push(&lv->dirs, name);
		else
			strv_push(&leaves, name);
	}
	if (errno)
		walk_fail(w, errno);
	plat_closedir(d);
	for (size_t i = 0; i < leaves.n; i++) {
		struct plat_stat st;

		if (w->stop_at_linked && w->ts->linked)
			break;
		if (plat_stat_at(fd, leaves.v[i], 1, &st)) {
			if (errno != ENOENT)
				walk_fail(w, errno);
		} else if (st.type == PLAT_F_DIR) {
			strv_push(&lv->dirs, leaves.v[i]); /* no d_type */
		} else {
			walk_leaf(w, fd, leaves.v[i], &st);
		}
	}
	strv_release(&leaves);
}

/* Open the subdirectory name of fd, not following a link. */
static int open_subdir(struct walk *w, int fd, const char *name)
{
	const unsigned flags = PLAT_O_READ | PLAT_O_DIR | PLAT_O_NOFOLLOW;
	int child = plat_open_at(fd, name, flags, 0);

	if (child < 0 && errno == EACCES && w->remove &&
	    !plat_chmod_at(fd, name, 0700))
		child = plat_open_at(fd, name, flags, 0);
	return child;
}

static int walk_result(const struct walk *w)
{
	if (w->err) {
		errno = w->err;
		return -1;
	}
	return 0;
}

/* Stat a folder just opened (fd) into *sb: fd, or -1 (recorded; closed). */
static int stat_opened(struct walk *w, int fd, struct plat_stat *sb)
{
	if (!plat_fstat(fd, sb))
		return fd;
	walk_fail(w, errno);
	plat_close(fd);
	return -1;
}

/*
 * Open the tree's root (made searchable when removing), *sb its stat.
 * -1 when there is no folder to walk: a file or a link in its place was
 * taken as all of the tree, or the failure recorded.
 */
static int open_root(struct walk *w, const char *path, struct plat_stat *sb)
{
	const unsigned flags = PLAT_O_READ | PLAT_O_DIR | PLAT_O_NOFOLLOW;
	int fd;

	fd = plat_open(path, flags, 0);
	if (fd < 0 && errno == EACCES && w->remove && !plat_lstat(path, sb) &&
	    sb->type == PLAT_F_DIR && !plat_chmod(path, 0700))
		fd = plat_open(path, flags, 0);
	if (fd < 0) {
		int e = errno;

		/* A file or a link in place of the tree: that is all of it. */
		if ((e == ENOTDIR || e == ELOOP) && !plat_lstat(path, sb) &&
		    sb->type != PLAT_F_DIR)
			walk_leaf(w, PLAT_AT_CWD, path, sb);
		else
			walk_fail(w, e);
		return -1;
	}
	return stat_opened(w, fd, sb);
}

/*
 * Open top's next subfolder (fd: top's folder) and stat it into *sb: its
 * fd, or -1 when it is not to be entered: gone, a file or a link now
 * (then walked as a leaf), or a failure (recorded).
 */
static int enter_next(struct walk *w, int fd, struct level *top,
		      struct plat_stat *sb)
{
	const char *name = top->dirs.v[top->next++];
	int next = open_subdir(w, fd, name);

	if (next < 0) {
		if (errno == ENOTDIR || errno == ELOOP) {
			/* now a file or a link */
			if (!plat_stat_at(fd, name, 1, sb))
				walk_leaf(w, fd, name, sb);
		} else if (errno != ENOENT) {
			walk_fail(w, errno);
		}
		return -1;
	}
	return stat_opened(w, next, sb);
}

/*
 * A folder (fd) is done: back up to its parent, which must be top, the
 * folder we came from, and remove it there when removing. The parent's
 * fd (fd is closed), or -1 when the tree moved (recorded; fd stays open).
 */
static int leave_level(struct walk *w, int fd, const struct level *top)
{
	struct plat_stat sb;
	int next = plat_open_at(fd, "..", PLAT_O_READ | PLAT_O_DIR, 0);

	if (next < 0 || plat_fstat(next, &sb) || sb.id.dev != top->id.dev ||
	    sb.id.ino != top->id.ino) {
		/* The tree moved: stop rather than go astray. */
		walk_fail(w, next < 0 ? errno : EBUSY);
		if (next >= 0)
			plat_close(next);
		return -1;
	}
	plat_close(fd);
	if (w->remove && plat_rmdir_at(next, top->dirs.v[top->next - 1]) &&
	    errno != ENOENT)
		walk_fail(w, errno);
	return next;
}

static int walk_tree(const char *path, struct walk *w)
{
	struct level *lv;
	size_t depth = 0, cap = 1;
	struct plat_stat sb;
	int fd = open_root(w, path, &sb);

	if (fd < 0)
		return walk_result(w);
	lv = xmalloc(sizeof(*lv));
	walk_level(w, fd, &sb, &lv[depth++]);
	while (depth) {
		struct level *top = &lv[depth - 1];
		int next;

		if (w->stop_at_linked && w->ts->linked)
			break;
		if (top->next < top->dirs.n) {
			next = enter_next(w, fd, top, &sb);
			if (next < 0)
				continue;
			plat_close(fd);
			fd = next;
			if (depth == cap) {
				cap *= 2;
				lv = xrealloc(lv, cap * sizeof(*lv));
			}
			walk_level(w, fd, &sb, &lv[depth++]);
			continue;
		}
		/* This folder is done: back up to its parent, and rmdir it. */
		strv_release(&top->dirs);
		if (!--depth)
			break;
		next = leave_level(w, fd, &lv[depth - 1]);
		if (next < 0)
			break;
		fd = next;
	}
	while (depth)
		strv_release(&lv[--depth].dirs);
	plat_close(fd);
	free(lv);
	if (w->remove && !w->err && plat_rmdir(path))
		walk_fail(w, errno);
	return walk_result(w);
}

int store_remove_tree_stats(const char *path, struct tree_stats *ts)
{
	struct walk w = { .remove = 1, .ts = ts };

	memset(ts, 0, sizeof(*ts));
	return walk_tree(path, &w);
}

int store_remove_tree(const char *path)
{
	struct tree_stats ts;

	return store_remove_tree_stats(path, &ts);
}

int store_measure_tree(const char *path, struct tree_stats *ts)
{
	struct walk w = { .stop_at_linked = 1, .ts = ts };

	memset(ts, 0, sizeof(*ts));
	return walk_tree(path, &w);
}

int store_lock_now(int fd)
{
	return plat_lock(fd, 1, 0);
}

/*
 * Like an install's staging folder, the trash folder's lock file exists
 * and is held before the folder does: a sweep that can take the lock
 * knows the uninstall died (kill -9, power loss) and may finish its work.
 */
int store_delete(struct store *st, const struct store_version *in,
		 struct cuenv_err *err)
{
	struct buf trash = BUF_INIT, lock = BUF_INIT;
	int lockfd, rc = CUENV_OK;

	buf_path(&lock, st->root, ".staging");
	buf_adds(&lock, "/trash-XXXXXX.lock");
	lockfd = plat_mkstemps(lock.data, 5);
	if (lockfd >= 0 && store_lock_now(lockfd)) {
		int e = errno;

		plat_close(lockfd);
		plat_unlink(lock.data);
		errno = e;
		lockfd = -1;
	}
	if (lockfd < 0) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot create '%s': %s",
				lock.data, strerror(errno));
		buf_reset(&lock);
		goto out;
	}
	buf_add(&trash, lock.data, lock.len - 5);
	if (plat_mkdir(trash.data, 0700)) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot create '%s': %s",
				trash.data, strerror(errno));
		goto out;
	}
	buf_adds(&trash, "/v");
	if (plat_rename(in->dir, trash.data)) {
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot remove '%s': %s",
				in->dir, strerror(errno));
		buf_setlen(&trash, trash.len - 2);
		plat_rmdir(trash.data);
		goto out;
	}
	buf_setlen(&trash, trash.len - 2);
	if (store_remove_tree(trash.data)) {
		/* The sweep of the next install or gc tries again. */
		rc = cuenv_fail(err, CUENV_E_STORE,
				"removed from the store, but cannot delete "
				"'%s': %s",
				trash.data, strerror(errno));
		buf_reset(&lock);
	}
	/* The version's install lock goes with it (see the contract). */
	buf_reset(&trash);
	buf_printf(&trash, "%s/.locks/%s-%s.lock", st->root,
		   kit_kind_name(in->kind), in->name);
	plat_unlink(trash.data);
out:
	if (lock.len)
		plat_unlink(lock.data);
	if (lockfd >= 0)
		plat_close(lockfd);
	buf_release(&trash);
	buf_release(&lock);
	return rc;
}

void store_global_path(const struct store *st, struct buf *out)
{
	buf_reset(out);
	buf_path(out, st->root, "version");
}

/* ---- hook stamps ---------------------------------------------------------- */

/* Remove stamps of shells that are gone (run when a new stamp appears). */
static void sweep_stamps(const char *dir)
{
	struct plat_dir *d = plat_opendir(dir);
	struct buf p = BUF_INIT;
	const char *name;

	if (!d)
		return;
	while ((name = plat_readdir(d))) {
		char *end;
		long pid = strtol(name, &end, 10);

		if (pid <= 0 || strcmp(end, ".stamp"))
			continue;
		if (!plat_sys_pid_alive(pid)) {
			buf_reset(&p);
			buf_path(&p, dir, name);
			plat_unlink(p.data);
		}
	}
	plat_closedir(d);
	buf_release(&p);
}

void store_sweep_stamps(const char *root)
{
	struct buf dir = BUF_INIT;

	buf_path(&dir, root, "run");
	sweep_stamps(dir.data);
	buf_release(&dir);
}

void store_stamp(struct store *st, long pid, struct buf *out)
{
	struct buf dir = BUF_INIT;
	int64_t sec;
	long nsec;
	int fd;

	buf_reset(out);
	buf_path(&dir, st->root, "run");
	buf_printf(out, "%s/%ld.stamp", dir.data, pid);
	fd = plat_open(out->data, PLAT_O_WRITE | PLAT_O_CREATE | PLAT_O_EXCL,
		       0644);
	if (fd < 0 && errno == ENOENT) {
		struct cuenv_err e = CUENV_ERR_INIT;

		store_mkdir_p(dir.data, &e);
		err_release(&e);
		fd = plat_open(out->data,
			       PLAT_O_WRITE | PLAT_O_CREATE | PLAT_O_EXCL,
			       0644);
	}
	if (fd >= 0)
		sweep_stamps(dir.data);
	else
		fd = plat_open(out->data, PLAT_O_WRITE, 0);
	if (fd < 0) {
		buf_reset(out);
		goto out;
	}
	/*
	 * Back-date by 50ms: file systems stamp files from a coarse clock,
	 * so a file written just after this run could otherwise look no
	 * newer than the stamp. The price is, at worst, one extra run.
	 */
	plat_sys_now(&sec, &nsec);
	nsec -= 50000000L; /* 50 ms */
	if (nsec < 0) {
		nsec += 1000000000L;
		sec--;
	}
	if (plat_set_times(fd, sec, nsec))
		buf_reset(out);
	plat_close(fd);
out:
	buf_release(&dir);
}
