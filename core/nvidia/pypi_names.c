/*
 * pypi_names.c: the names of the package index, pure: NVIDIA's wheel
 * projects, wheel file names, their versions and platform tags, and
 * whether a url is the index's (pypi.h). Apart from pypi.c so that what
 * links them (a lockfile's checks in cuenv itself) does not link the
 * fetching.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/xalloc.h"
#include "nvidia/nvlib.h"
#include "nvidia/pypi.h"

/*
 * NVIDIA's wheel for a redist component ("cuda_cudart" for CUDA 12): the
 * library table's wheel name; components that ship no library of that
 * table (the compiler, headers) are named here.
 */
char *pypi_wheel_project(const char *comp, unsigned major, enum kit_kind k)
{
	static const char *const tools[][2] = {
		{ "cuda_nvcc", "nvidia-cuda-nvcc" },
		{ "cuda_cccl", "nvidia-cuda-cccl" },
	};
	const char *wheel = NULL;
	struct buf b = BUF_INIT;

	for (size_t i = 0; i < NVLIB_COUNT && !wheel; i++) {
		const struct nvlib *e = nvlib_get((enum nvlib_id)i);

		if (e->component && e->wheel && !strcmp(e->component, comp))
			wheel = e->wheel;
	}
	for (size_t i = 0; i < sizeof(tools) / sizeof(*tools) && !wheel; i++)
		if (!strcmp(comp, tools[i][0]))
			wheel = tools[i][1];
	if (!wheel)
		return NULL;
	buf_adds(&b, wheel);
	/* CUDA 13's wheels dropped the suffix; cuDNN's kept it. */
	if (major < 13 || k == KIT_CUDNN)
		buf_printf(&b, "-cu%u", major);
	return buf_detach(&b);
}

/* The machine name in the wheels for platform, or NULL: Jetson
 * (linux-aarch64) and Windows have none of NVIDIA's wheels. */
static const char *wheel_arch(const char *platform)
{
	return !strcmp(platform, "linux-x86_64")    ? "x86_64"
	       : !strcmp(platform, "linux-sbsa")    ? "aarch64"
	       : !strcmp(platform, "linux-ppc64le") ? "ppc64le"
						    : NULL;
}

bool pypi_platform_has_wheels(const char *platform)
{
	return wheel_arch(platform) != NULL;
}

int pypi_wheel_fits(const char *name, const char *platform)
{
	const char *arch = wheel_arch(platform), *tag, *end;
	size_t n = strlen(name), a;

	/* Jetson (linux-aarch64) and Windows: none of NVIDIA's wheels */
	if (!arch || n <= 4 || strcmp(name + n - 4, ".whl"))
		return 0;
	end = name + n - 4;
	for (tag = end; tag > name && tag[-1] != '-';)
		tag--;
	if (tag == name)
		return 0;
	tag--;
	a = strlen(arch);
	/* The platform tag, each of its dotted alternatives a Linux one for
	 * the processor: manylinux_2_17_x86_64.manylinux2014_x86_64. */
	for (tag++; tag < end;) {
		const char *dot = memchr(tag, '.', (size_t)(end - tag));
		const char *stop = dot ? dot : end;
		size_t len = (size_t)(stop - tag);

		if (len <= a || tag[len - a - 1] != '_' ||
		    memcmp(stop - a, arch, a) ||
		    !mem_find(tag, len, "linux", 5))
			return 0;
		tag = dot ? dot + 1 : end;
	}
	return 1;
}

/* Is c one of the characters PEP 503 folds into one '-'? */
static int name_sep(char c)
{
	return c == '-' || c == '_' || c == '.';
}

int pypi_wheel_is_of(const char *file, const char *project)
{
	const char *dash = strchr(file, '-');
	const char *f = file, *p = project;

	if (!dash)
		return 0;
	/* PEP 503's normal form on both sides: lower case, each run of
	 * '-', '_' and '.' one '-' (a wheel's name writes it '_'). */
	while (f < dash && *p) {
		if (name_sep(*f) && name_sep(*p)) {
			while (f < dash && name_sep(*f))
				f++;
			while (name_sep(*p))
				p++;
			continue;
		}
		if (tolower((unsigned char)*f) != tolower((unsigned char)*p))
			return 0;
		f++;
		p++;
	}
	return f == dash && !*p;
}

/* a and b's first n characters equal, ASCII case aside? */
static int same_nocase(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (tolower((unsigned char)a[i]) !=
		    tolower((unsigned char)b[i]))
			return 0;
	return 1;
}

/* scheme://host[:port] of url: its length, 0 when it has none. */
static size_t url_origin(const char *url)
{
	const char *s = strstr(url, "://");

	if (!s || s == url)
		return 0;
	s += 3;
	return (size_t)(s - url) + strcspn(s, "/?#");
}

int pypi_url_on_index(const char *url, const char *index)
{
	static const char pypi[] = "https://pypi.org";
	static const char files[] = "https://files.pythonhosted.org";
	size_t u = url_origin(url), i = url_origin(index);

	if (!u || !i)
		return 0;
	if (u == i && same_nocase(url, index, u))
		return 1;
	/* pypi.org serves its files from files.pythonhosted.org */
	return i == sizeof(pypi) - 1 && same_nocase(index, pypi, i) &&
	       u == sizeof(files) - 1 && same_nocase(url, files, u);
}

int pypi_pin_check(const char *url, const char *index, const char *project,
		   const char *version, const char *platform,
		   struct cuenv_err *err)
{
	const char *file = strrchr(url, '/'), *d1, *d2;
	struct buf v = BUF_INIT;
	int rc = CUENV_OK;

	file = file ? file + 1 : url;
	d1 = strchr(file, '-');
	d2 = d1 ? strchr(d1 + 1, '-') : NULL;
	if (d2)
		buf_add(&v, d1 + 1, (size_t)(d2 - d1 - 1));
	if (!d2 || !pypi_wheel_is_of(file, project))
		rc = cuenv_fail(err, CUENV_E_INTEGRITY,
				"'%s' is not a wheel of %s", file, project);
	else if (pypi_release_post(v.data, version) < 0)
		rc = cuenv_fail(err, CUENV_E_INTEGRITY, "'%s' is %s %s, not %s",
				file, project, v.data, version);
	else if (!pypi_wheel_fits(file, platform))
		rc = cuenv_fail(err, CUENV_E_INTEGRITY,
				"'%s' is not a wheel for %s", file, platform);
	else if (index && !pypi_url_on_index(url, index))
		rc = cuenv_fail(err, CUENV_E_INTEGRITY,
				"'%s' is not on the package index in force "
				"('%s')",
				url, index);
	buf_release(&v);
	return rc;
}

long pypi_release_post(const char *wheel_version, const char *version)
{
	size_t n = strlen(version);
	const char *p = wheel_version + n;
	long post = 0;

	if (strncmp(wheel_version, version, n))
		return -1;
	if (!*p)
		return 0;
	if (strncmp(p, ".post", 5) || !p[5])
		return -1;
	for (p += 5; *p; p++) {
		if (*p < '0' || *p > '9' || post > 99999)
			return -1;
		post = post * 10 + (*p - '0');
	}
	return post + 1;
}
