#include "fixture.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "plat/plat_path.h"
#include "base/version.h"
#include "base/xalloc.h"

extern char **environ;

/* ---- the temporary root -------------------------------------------------- */

int fx_setup(void **state)
{
	const char *tmp = getenv("TMPDIR");
	struct buf templ = BUF_INIT;
	struct fixture *fx;
	char *real;

	if (!tmp || !*tmp)
		tmp = "/tmp";
	buf_path(&templ, tmp, "cuenv-unit-XXXXXX");
	if (!mkdtemp(templ.data)) {
		fprintf(stderr, "mkdtemp '%s': %s\n", templ.data,
			strerror(errno));
		buf_release(&templ);
		return -1;
	}
	real = realpath(templ.data, NULL);
	buf_release(&templ);
	if (!real)
		return -1;
	fx = xcalloc(1, sizeof(*fx));
	fx->root = real;
	*state = fx;
	return 0;
}

static int rm_entry(const char *path, const struct stat *sb, int flag,
		    struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path);
	return unlink(path);
}

/* Make every folder writable and searchable first, so nftw can go in. */
static int open_entry(const char *path, const struct stat *sb, int flag,
		      struct FTW *ftw)
{
	(void)ftw;
	if (flag == FTW_D || flag == FTW_DNR)
		chmod(path, (sb->st_mode & 07777) | 0700);
	return 0;
}

int fx_remove_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -1;
	nftw(path, open_entry, 16, FTW_PHYS);
	return nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int fx_teardown(void **state)
{
	struct fixture *fx = *state;
	int rc;

	if (!fx)
		return 0;
	rc = fx_remove_tree(fx->root);
	if (rc)
		fprintf(stderr, "cannot remove '%s': %s\n", fx->root,
			strerror(errno));
	free(fx->root);
	free(fx);
	*state = NULL;
	return rc ? -1 : 0;
}

/* ---- files --------------------------------------------------------------- */

char *fx_path(const struct fixture *fx, const char *rel)
{
	struct buf b = BUF_INIT;

	if (!*rel)
		return xstrdup(fx->root);
	buf_path(&b, fx->root, rel);
	return buf_detach(&b);
}

static void mkdir_p(const char *path)
{
	char *p = xstrdup(path);

	for (char *s = p + 1;; s++) {
		char c = *s;

		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST)
			fail_msg("mkdir '%s': %s", p, strerror(errno));
		*s = c;
		if (!c)
			break;
	}
	free(p);
}

void fx_mkdir(const struct fixture *fx, const char *rel)
{
	char *p = fx_path(fx, rel);

	mkdir_p(p);
	free(p);
}

static void make_parent(const char *path)
{
	char *p = xstrdup(path);
	char *slash = strrchr(p, '/');

	if (slash && slash != p) {
		*slash = '\0';
		mkdir_p(p);
	}
	free(p);
}

static void write_file(const struct fixture *fx, const char *rel,
		       const void *data, size_t len, mode_t mode)
{
	char *p = fx_path(fx, rel);
	int fd;

	make_parent(p);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0)
		fail_msg("open '%s': %s", p, strerror(errno));
	for (size_t off = 0; off < len;) {
		ssize_t n = write(fd, (const char *)data + off, len - off);

		if (n < 0)
			fail_msg("write '%s': %s", p, strerror(errno));
		off += (size_t)n;
	}
	if (close(fd))
		fail_msg("close '%s': %s", p, strerror(errno));
	if (chmod(p, mode))
		fail_msg("chmod '%s': %s", p, strerror(errno));
	free(p);
}

void fx_write_bytes(const struct fixture *fx, const char *rel, const void *data,
		    size_t len)
{
	write_file(fx, rel, data, len, 0644);
}

void fx_write(const struct fixture *fx, const char *rel, const char *text)
{
	write_file(fx, rel, text, strlen(text), 0644);
}

void fx_touch(const struct fixture *fx, const char *rel)
{
	write_file(fx, rel, "", 0, 0644);
}

void fx_touch_exec(const struct fixture *fx, const char *rel)
{
	write_file(fx, rel, "#!/bin/sh\n", 10, 0755);
}

char *fx_script(const struct fixture *fx, const char *rel, const char *body)
{
	struct buf text = BUF_INIT;

	buf_printf(&text, "#!/bin/sh\n%s", body);
	write_file(fx, rel, text.data, text.len, 0755);
	buf_release(&text);
	return fx_path(fx, rel);
}

void fx_symlink(const struct fixture *fx, const char *target, const char *rel)
{
	char *p = fx_path(fx, rel);

	make_parent(p);
	if (symlink(target, p))
		fail_msg("symlink '%s': %s", p, strerror(errno));
	free(p);
}

bool fx_exists(const struct fixture *fx, const char *rel)
{
	char *p = fx_path(fx, rel);
	struct stat st;
	bool ok = !lstat(p, &st);

	free(p);
	return ok;
}

char *fx_read(const struct fixture *fx, const char *rel)
{
	char *p = fx_path(fx, rel);
	struct buf b = BUF_INIT;
	char chunk[4096];
	FILE *f = fopen(p, "rb");
	size_t n;

	if (!f)
		fail_msg("fopen '%s': %s", p, strerror(errno));
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(&b, chunk, n);
	fclose(f);
	free(p);
	return buf_detach(&b);
}

int fx_count_entries(const struct fixture *fx, const char *rel)
{
	char *p = fx_path(fx, rel);
	DIR *d = opendir(p);
	struct dirent *de;
	int n = 0;

	if (!d)
		fail_msg("opendir '%s': %s", p, strerror(errno));
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	free(p);
	return n;
}

/* ---- fake installs ------------------------------------------------------- */

/* rel joined with a formatted name; the caller frees it. */
static char *sub_path(const char *rel, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static char *sub_path(const char *rel, const char *fmt, ...)
{
	struct buf name = BUF_INIT, p = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&name, fmt, ap);
	va_end(ap);
	buf_path(&p, rel, name.data);
	buf_release(&name);
	return buf_detach(&p);
}

static void put(const struct fixture *fx, char *rel, const char *text,
		mode_t mode)
{
	write_file(fx, rel, text, strlen(text), mode);
	free(rel);
}

void fake_cuda_classic(const struct fixture *fx, const char *rel,
		       unsigned major)
{
	put(fx, sub_path(rel, "bin/nvcc"), "#!/bin/sh\n", 0755);
	put(fx, sub_path(rel, "lib64/libcudart.so"), "", 0644);
	put(fx, sub_path(rel, "lib64/libcudart.so.%u", major), "", 0644);
	put(fx, sub_path(rel, "include/cuda_runtime_api.h"),
	    "/* no version here */\n", 0644);
	put(fx, sub_path(rel, "extras/CUPTI/lib64/libcupti.so"), "", 0644);
	put(fx, sub_path(rel, "extras/CUPTI/lib64/libcupti.so.%u", major), "",
	    0644);
}

void fake_cudnn_tarball(const struct fixture *fx, const char *rel,
			const char *version)
{
	struct buf text = BUF_INIT;
	struct version v;

	if (version_parse(version, &v) || v.n < 3)
		fail_msg("fake_cudnn_tarball: bad version '%s'", version);
	buf_printf(&text,
		   "#ifndef CUDNN_VERSION_H_\n#define CUDNN_VERSION_H_\n"
		   "#define CUDNN_MAJOR %lu\n#define CUDNN_MINOR %lu\n"
		   "#define CUDNN_PATCHLEVEL %lu\n#endif\n",
		   v.part[0], v.part[1], v.part[2]);
	put(fx, sub_path(rel, "include/cudnn_version.h"), text.data, 0644);
	put(fx, sub_path(rel, "lib/libcudnn.so"), "", 0644);
	put(fx, sub_path(rel, "lib/libcudnn.so.%lu", v.part[0]), "", 0644);
	put(fx, sub_path(rel, "lib/libcudnn_ops.so.%lu", v.part[0]), "", 0644);
	buf_release(&text);
}

static void push_dir(struct strv *sv, const char *prefix, const char *sub)
{
	struct buf b = BUF_INIT;

	buf_path(&b, prefix, sub);
	strv_push_take(sv, buf_detach(&b));
}

void fx_register(struct store *st, struct store_version *in)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	if (store_register(st, in, &err))
		fail_msg("store_register: %s", err.msg.data);
	store_version_free(in);
}

struct store_version *fx_install_new(enum kit_kind kind, const char *version,
				     unsigned cuda_major, const char *prefix)
{
	struct store_version *in = xmalloc(sizeof(*in));

	store_version_init(in, kind);
	in->version = xstrdup(version);
	in->cuda_major = cuda_major;
	in->prefix = xstrdup(prefix);
	in->registered = true;
	in->name = store_version_make_name(in);
	if (kind == KIT_CUDA) {
		push_dir(&in->bin, prefix, "bin");
		push_dir(&in->lib, prefix, "lib64");
		push_dir(&in->lib, prefix, "extras/CUPTI/lib64");
		push_dir(&in->include, prefix, "include");
		push_dir(&in->cupti, prefix, "extras/CUPTI/lib64");
	} else {
		push_dir(&in->lib, prefix, "lib");
		push_dir(&in->include, prefix, "include");
	}
	return in;
}

void fx_list_push(struct store_version_list *l, struct store_version *in)
{
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = in;
}

/* ---- environments -------------------------------------------------------- */

void fx_env(struct envmap *env, const char *const *vars)
{
	for (; *vars; vars++)
		strv_push(&env->vars, *vars);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void sorted(const struct envmap *env, struct strv *out)
{
	for (size_t i = 0; i < env->vars.n; i++)
		strv_push(out, env->vars.v[i]);
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_str);
}

void fx_assert_env_equal(const struct envmap *a, const struct envmap *b)
{
	struct strv sa = STRV_INIT, sb = STRV_INIT;
	bool same;

	sorted(a, &sa);
	sorted(b, &sb);
	same = sa.n == sb.n;
	for (size_t i = 0; same && i < sa.n; i++)
		same = !strcmp(sa.v[i], sb.v[i]);
	if (!same) {
		fprintf(stderr, "environments differ:\n");
		for (size_t i = 0; i < sa.n; i++)
			if (strv_find(&sb, sa.v[i]) < 0)
				fprintf(stderr, "  - %s\n", sa.v[i]);
		for (size_t i = 0; i < sb.n; i++)
			if (strv_find(&sa, sb.v[i]) < 0)
				fprintf(stderr, "  + %s\n", sb.v[i]);
	}
	strv_release(&sa);
	strv_release(&sb);
	assert_true(same);
}

/* ---- processes ----------------------------------------------------------- */

int fx_run(char *const argv[], struct buf *out)
{
	posix_spawn_file_actions_t fa;
	int pipefd[2], status;
	pid_t pid;
	char chunk[4096];
	ssize_t n;

	buf_reset(out);
	if (pipe(pipefd))
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	posix_spawn_file_actions_addclose(&fa, pipefd[0]);
	posix_spawn_file_actions_addclose(&fa, pipefd[1]);
	if (posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ)) {
		posix_spawn_file_actions_destroy(&fa);
		close(pipefd[0]);
		close(pipefd[1]);
		return -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	while ((n = read(pipefd[0], chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		buf_add(out, chunk, (size_t)n);
	}
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int fx_cc_shared(const struct fixture *fx, const char *rel, const char *soname,
		 const char *src, const char *libdir, const char *links)
{
	struct strv argv = STRV_INIT, ls = STRV_INIT;
	struct buf crel = BUF_INIT, arg = BUF_INIT, got = BUF_INIT;
	char *out = fx_path(fx, rel), *c, *dir = fx_path(fx, libdir);
	int rc;

	buf_printf(&crel, "%s.c", rel);
	fx_write(fx, crel.data, src);
	c = fx_path(fx, crel.data);
	strv_push(&argv, "cc");
	strv_push(&argv, "-shared");
	strv_push(&argv, "-fPIC");
	strv_push(&argv, "-o");
	strv_push(&argv, out);
	strv_push(&argv, c);
	buf_printf(&arg, "-Wl,-soname,%s", soname);
	strv_push(&argv, arg.data);
	strv_push(&argv, "-Wl,--no-as-needed");
	buf_reset(&arg);
	buf_printf(&arg, "-L%s", dir);
	strv_push(&argv, arg.data);
	if (*links)
		strv_split(&ls, links, ' ');
	for (size_t i = 0; i < ls.n; i++) {
		buf_reset(&arg);
		buf_printf(&arg, "-l:%s", ls.v[i]);
		strv_push(&argv, arg.data);
	}
	rc = fx_run(argv.v, &got); /* a strv ends in NULL */
	unlink(c);
	strv_release(&argv);
	strv_release(&ls);
	buf_release(&crel);
	buf_release(&arg);
	buf_release(&got);
	free(out);
	free(c);
	free(dir);
	return rc;
}

bool fx_have_program(const char *name)
{
	const char *path = getenv("PATH");
	struct strv dirs = STRV_INIT;
	bool found = false;

	if (!path)
		return false;
	strv_split(&dirs, path, ':');
	for (size_t i = 0; i < dirs.n && !found; i++) {
		struct buf p = BUF_INIT;

		buf_path(&p, *dirs.v[i] ? dirs.v[i] : ".", name);
		found = !access(p.data, X_OK);
		buf_release(&p);
	}
	strv_release(&dirs);
	return found;
}

void fx_cc_lib(const struct fixture *fx, const char *rel, const char *soname,
	       const char *src, const char *extra)
{
	struct strv argv = STRV_INIT, ex = STRV_INIT;
	struct buf got = BUF_INIT, srcname = BUF_INIT, so = BUF_INIT;
	char *o = fx_path(fx, rel), *c;

	buf_printf(&srcname, "%s.c", rel);
	fx_write(fx, srcname.data, src);
	c = fx_path(fx, srcname.data);
	buf_printf(&so, "-Wl,-soname,%s", soname);
	strv_push(&argv, "cc");
	strv_push(&argv, "-fPIC");
	strv_push(&argv, "-shared");
	strv_push(&argv, so.data);
	strv_push(&argv, "-Wl,--no-as-needed");
	strv_push(&argv, "-o");
	strv_push(&argv, o);
	strv_push(&argv, c);
	strv_split(&ex, extra, ' ');
	for (size_t i = 0; i < ex.n; i++)
		if (*ex.v[i])
			strv_push(&argv, ex.v[i]);
	if (fx_run(argv.v, &got))
		fail_msg("cc %s failed: %s", rel, got.data);
	STRV_RELEASE_EACH(&argv, &ex);
	BUF_RELEASE_EACH(&got, &srcname, &so);
	FREE_EACH(o, c);
}

int fx_teardown_chdir(void **state)
{
	if (chdir("/"))
		return -1;
	return fx_teardown(state);
}

const char *fx_kv(const struct strv *facts, const char *key)
{
	size_t n = strlen(key);

	for (size_t i = 0; i < facts->n; i++)
		if (!strncmp(facts->v[i], key, n) && facts->v[i][n] == '=')
			return facts->v[i] + n + 1;
	return NULL;
}
