#include "plat/plat_path.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

const struct plat_path_rules plat_path_posix = {
	.style = PLAT_PATH_POSIX, .sep = '/', .list_sep = ':', .fold_case = 0
};
const struct plat_path_rules plat_path_windows = {
	.style = PLAT_PATH_WINDOWS, .sep = '\\', .list_sep = ';', .fold_case = 1
};

/* The one place that asks which system this is. */
const struct plat_path_rules *plat_path_native(void)
{
#ifdef _WIN32
	return &plat_path_windows;
#else
	return &plat_path_posix;
#endif
}

static int win(const struct plat_path_rules *r)
{
	return r->style == PLAT_PATH_WINDOWS;
}

int plat_path_is_sep(const struct plat_path_rules *r, char c)
{
	return c == '/' || (win(r) && c == '\\');
}

static int letter(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Past one name (up to a separator or the end). */
static size_t name_end(const struct plat_path_rules *r, const char *p, size_t i)
{
	while (p[i] && !plat_path_is_sep(r, p[i]))
		i++;
	return i;
}

enum plat_path_kind plat_path_kind(const struct plat_path_rules *r,
				   const char *p, size_t *root_len)
{
	size_t n = 0;
	enum plat_path_kind k = PLAT_PATH_RELATIVE;

	if (!win(r)) {
		if (p[0] == '/') {
			n = 1;
			k = PLAT_PATH_ABSOLUTE;
		}
	} else if (plat_path_is_sep(r, p[0]) && plat_path_is_sep(r, p[1])) {
		if ((p[2] == '?' || p[2] == '.') && plat_path_is_sep(r, p[3])) {
			n = 4; /* \\?\ or \\.\ */
			k = PLAT_PATH_DEVICE;
		} else {
			/* \\server\share\: both names needed */
			size_t s = name_end(r, p, 2), e;

			if (s == 2 || !p[s]) {
				n = s; /* "\\" or "\\server": no share yet */
			} else {
				e = name_end(r, p, s + 1);
				n = p[e] ? e + 1 : e;
			}
			k = PLAT_PATH_UNC;
		}
	} else if (plat_path_is_sep(r, p[0])) {
		n = 1;
		k = PLAT_PATH_ROOT_RELATIVE;
	} else if (letter(p[0]) && p[1] == ':') {
		if (plat_path_is_sep(r, p[2])) {
			n = 3;
			k = PLAT_PATH_ABSOLUTE;
		} else {
			n = 2;
			k = PLAT_PATH_DRIVE_RELATIVE;
		}
	}
	if (root_len)
		*root_len = n;
	return k;
}

int plat_path_is_abs(const struct plat_path_rules *r, const char *path)
{
	switch (plat_path_kind(r, path, NULL)) {
	case PLAT_PATH_ABSOLUTE:
	case PLAT_PATH_UNC:
	case PLAT_PATH_DEVICE:
		return 1;
	default:
		return 0;
	}
}

/* The root as normalize writes it: separators made r->sep. */
static void add_root(const struct plat_path_rules *r, const char *p, size_t n,
		     struct buf *out)
{
	for (size_t i = 0; i < n; i++)
		buf_addc(out, plat_path_is_sep(r, p[i]) ? r->sep : p[i]);
}

void plat_path_split(const struct plat_path_rules *r, const char *path,
		     char **root, struct strv *parts)
{
	size_t n, i, e;
	struct buf b = BUF_INIT;

	plat_path_kind(r, path, &n);
	add_root(r, path, n, &b);
	if (root)
		*root = xstrdup(b.len ? b.data : "");
	buf_release(&b);
	for (i = n; path[i]; i = path[e] ? e + 1 : e) {
		e = name_end(r, path, i);
		if (e == i || (e == i + 1 && path[i] == '.'))
			continue;
		{
			char *name = xstrndup(path + i, e - i);

			strv_push_take(parts, name);
		}
	}
}

/* root + parts joined by r->sep; "." for nothing at all. */
static char *assemble(const struct plat_path_rules *r, const char *root,
		      const struct strv *parts, size_t nparts)
{
	struct buf b = BUF_INIT;

	buf_adds(&b, root);
	for (size_t i = 0; i < nparts; i++) {
		if (b.len && !plat_path_is_sep(r, b.data[b.len - 1]) &&
		    !(b.len == 2 && b.data[1] == ':' && win(r)))
			buf_addc(&b, r->sep);
		buf_adds(&b, parts->v[i]);
	}
	/* a UNC root without its share ("\\server") gets nothing added */
	if (!b.len)
		buf_adds(&b, ".");
	return buf_detach(&b);
}

char *plat_path_normalize(const struct plat_path_rules *r, const char *path)
{
	struct strv parts = { 0 };
	char *root, *s;

	if (plat_path_kind(r, path, NULL) == PLAT_PATH_DEVICE &&
	    path[0] == '\\' && path[1] == '\\' && path[3] == '\\')
		return xstrdup(path); /* literal after \\?\ */
	plat_path_split(r, path, &root, &parts);
	s = assemble(r, root, &parts, parts.n);
	free(root);
	strv_release(&parts);
	return s;
}

char *plat_path_join(const struct plat_path_rules *r, const char *a,
		     const char *b)
{
	size_t an, bn;
	enum plat_path_kind ak = plat_path_kind(r, a, &an);
	enum plat_path_kind bk = plat_path_kind(r, b, &bn);
	struct buf out = BUF_INIT;

	if (!*a || plat_path_is_abs(r, b))
		return xstrdup(b);
	if (bk == PLAT_PATH_ROOT_RELATIVE) {
		/* a's drive ("C:") or UNC share, then b */
		size_t keep = an;

		if (ak == PLAT_PATH_ABSOLUTE || ak == PLAT_PATH_DRIVE_RELATIVE)
			keep = 2;
		else if (ak == PLAT_PATH_DEVICE && letter(a[4]) && a[5] == ':')
			keep = 6; /* \\?\C: */
		else if (ak == PLAT_PATH_UNC && keep &&
			 plat_path_is_sep(r, a[keep - 1]))
			keep--;
		else if (ak != PLAT_PATH_UNC)
			keep = 0;
		buf_add(&out, a, keep);
		buf_adds(&out, b);
		return buf_detach(&out);
	}
	if (bk == PLAT_PATH_DRIVE_RELATIVE) {
		if (!((ak == PLAT_PATH_ABSOLUTE ||
		       ak == PLAT_PATH_DRIVE_RELATIVE) &&
		      lower(a[0]) == lower(b[0])))
			return xstrdup(b);
		b += 2;
		if (!*b)
			return xstrdup(a);
	}
	buf_adds(&out, a);
	if (!plat_path_is_sep(r, a[strlen(a) - 1]) &&
	    !(win(r) && ak == PLAT_PATH_DRIVE_RELATIVE && an == strlen(a)))
		buf_addc(&out, r->sep);
	buf_adds(&out, b);
	return buf_detach(&out);
}

char *plat_path_parent(const struct plat_path_rules *r, const char *path)
{
	struct strv parts = { 0 };
	char *root, *s = NULL;

	plat_path_split(r, path, &root, &parts);
	if (parts.n && (parts.n > 1 || *root) &&
	    strcmp(parts.v[parts.n - 1], ".."))
		s = assemble(r, root, &parts, parts.n - 1);
	free(root);
	strv_release(&parts);
	return s;
}

const char *plat_path_last(const char *path)
{
	const struct plat_path_rules *r = plat_path_native();
	const char *name = path;

	for (const char *p = path; *p; p++)
		if (plat_path_is_sep(r, *p))
			name = p + 1;
	return name;
}

int plat_path_up(struct buf *dir)
{
	char *up = plat_path_parent(plat_path_native(), dir->data);

	if (!up)
		return 0;
	buf_sets(dir, up);
	free(up);
	return 1;
}

int plat_path_equal(const struct plat_path_rules *r, const char *a,
		    const char *b)
{
	char *na = plat_path_normalize(r, a), *nb = plat_path_normalize(r, b);
	const char *p = na, *q = nb;
	int eq;

	for (; *p && *q; p++, q++) {
		char x = *p, y = *q;

		if (r->fold_case) {
			x = lower(x);
			y = lower(y);
		}
		if (x != y &&
		    !(plat_path_is_sep(r, x) && plat_path_is_sep(r, y)))
			break;
	}
	eq = !*p && !*q;
	free(na);
	free(nb);
	return eq;
}

/* ---- joining in a struct buf ---------------------------------------------- */

void buf_path(struct buf *b, const char *dir, const char *name)
{
	const struct plat_path_rules *r = plat_path_native();
	size_t from;

	if (dir != b->data)
		buf_adds(b, dir);
	while (b->len > 1 && plat_path_is_sep(r, b->data[b->len - 1]))
		buf_setlen(b, b->len - 1);
	if (!b->len || !plat_path_is_sep(r, b->data[b->len - 1]))
		buf_addc(b, r->sep);
	while (plat_path_is_sep(r, *name))
		name++;
	from = b->len;
	buf_adds(b, name);
	/* Windows: "bin/x64" below C:\CUDA is C:\CUDA\bin\x64. */
	for (size_t i = from; i < b->len; i++)
		if (plat_path_is_sep(r, b->data[i]))
			b->data[i] = r->sep;
}
