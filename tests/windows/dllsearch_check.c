/*
 * dllsearch_check.c: core/dllsearch's model against a real loader (wine's
 * implementation of Windows' search order): for each placement of copies
 * of one DLL, the copy LoadLibrary takes (GetModuleFileName) must be the
 * one dll_search names first, and "none" must be error 126.
 *
 * Run from BASE\app\ (the application's folder); BASE holds p1, p2 and
 * cwd. Plain C (cmocka is not cross-built): prints each case, exits 1 on
 * a difference. Usage: dllsearch_check.exe BASE FAKE.dll
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "../../core/artifact/dllsearch.h"
#include "../../core/plat/plat_path.h"

#define NAME "cuenvfake64_110.dll"

static char base[MAX_PATH], fake[MAX_PATH], sys32[MAX_PATH];

static bool exists(void *ctx, const char *dir, const char *name)
{
	char p[2 * MAX_PATH];

	(void)ctx;
	snprintf(p, sizeof(p), "%s\\%s", dir, name);
	return GetFileAttributesA(p) != INVALID_FILE_ATTRIBUTES;
}

/* The folder of a place's name: app, cwd, p1, p2 under base; sys32. */
static void place_dir(const char *place, char *out, size_t n)
{
	if (!strcmp(place, "sys32"))
		snprintf(out, n, "%s", sys32);
	else
		snprintf(out, n, "%s\\%s", base, place);
}

static void put(const char *place, int on)
{
	char dir[MAX_PATH], p[2 * MAX_PATH];

	place_dir(place, dir, sizeof(dir));
	snprintf(p, sizeof(p), "%s\\%s", dir, NAME);
	if (on)
		CopyFileA(fake, p, FALSE);
	else
		DeleteFileA(p);
}

struct scenario {
	const char *copies; /* places holding a copy, space-separated */
	const char *path;   /* PATH: places, ';'-separated */
	int python38;	    /* LOAD_LIBRARY_SEARCH_DEFAULT_DIRS + p2 added */
};

static const struct scenario cases[] = {
	{ "app p1 p2 cwd sys32", "p1;p2", 0 },
	{ "p1 p2 cwd sys32", "p1;p2", 0 },
	{ "p1 p2 cwd", "p1;p2", 0 },
	{ "p1 p2", "p1;p2", 0 },
	{ "p1 p2", "p2;p1", 0 },
	{ "p2", "p1;p2", 0 },
	{ "p2", "p1", 0 },
	{ "", "p1;p2", 0 },
	{ "p1 p2 cwd", "p1;p2", 1 },
	{ "p1 sys32", "p1", 1 },
	{ "app p2", "p1", 1 },
	{ "p1", "p1", 1 },
};

static int run(const struct scenario *c)
{
	static const char *const places[] = { "app", "cwd", "p1", "p2",
					      "sys32" };
	char path[4 * MAX_PATH] = "", got[MAX_PATH] = "none", want[MAX_PATH];
	char tmp[MAX_PATH], *p, *save;
	struct dll_process proc = { 0 };
	struct dll_search s;
	struct strv added = STRV_INIT;
	DLL_DIRECTORY_COOKIE cookie = 0;
	HMODULE h;
	DWORD e = 0;

	for (size_t i = 0; i < sizeof(places) / sizeof(*places); i++) {
		char word[16];

		snprintf(word, sizeof(word), " %s ", places[i]);
		snprintf(tmp, sizeof(tmp), " %s ", c->copies);
		put(places[i], strstr(tmp, word) != NULL);
	}
	snprintf(tmp, sizeof(tmp), "%s", c->path);
	for (p = strtok_r(tmp, ";", &save); p; p = strtok_r(NULL, ";", &save)) {
		char dir[MAX_PATH];

		place_dir(p, dir, sizeof(dir));
		if (*path)
			strcat(path, ";");
		strcat(path, dir);
	}
	SetEnvironmentVariableA("PATH", path);

	proc.mode = c->python38 ? DLL_PYTHON38 : DLL_STANDARD;
	place_dir("app", want, sizeof(want));
	proc.app_dir = want;
	proc.system_root = getenv("SystemRoot");
	place_dir("cwd", tmp, sizeof(tmp));
	proc.cwd = tmp;
	proc.path = path;
	if (c->python38) {
		wchar_t w[MAX_PATH];
		char dir[MAX_PATH];

		place_dir("p2", dir, sizeof(dir));
		strv_push(&added, dir);
		proc.added = &added;
		MultiByteToWideChar(CP_UTF8, 0, dir, -1, w, MAX_PATH);
		cookie = AddDllDirectory(w);
		h = LoadLibraryExA(NAME, NULL,
				   LOAD_LIBRARY_SEARCH_DEFAULT_DIRS);
	} else {
		h = LoadLibraryA(NAME);
	}
	if (h) {
		GetModuleFileNameA(h, got, sizeof(got));
		*strrchr(got, '\\') = 0;
		FreeLibrary(h);
	} else {
		e = GetLastError();
	}
	if (cookie)
		RemoveDllDirectory(cookie);

	dll_search_init(&s);
	dll_search(&proc, NAME, exists, NULL, &s);
	snprintf(want, sizeof(want), "%s", s.n ? s.v[0].dir : "none");
	dll_search_release(&s);
	strv_release(&added);

	int same = plat_path_equal(&plat_path_windows, got, want) &&
		   (h || e == ERROR_MOD_NOT_FOUND);
	printf("%s copies [%s] PATH [%s]%s: loader %s (error %lu), model %s\n",
	       same ? "ok  " : "DIFF", c->copies, c->path,
	       c->python38 ? " python3.8" : "", got, (unsigned long)e, want);
	return same ? 0 : 1;
}

int main(int argc, char **argv)
{
	int bad = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: dllsearch_check BASE FAKE.dll\n");
		return 2;
	}
	snprintf(base, sizeof(base), "%s", argv[1]);
	snprintf(fake, sizeof(fake), "%s", argv[2]);
	GetSystemDirectoryA(sys32, sizeof(sys32));
	{
		char cwd[MAX_PATH];

		place_dir("cwd", cwd, sizeof(cwd));
		SetCurrentDirectoryA(cwd);
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		bad |= run(&cases[i]);
	put("sys32", 0);
	printf("dllsearch: %zu cases, %s\n", sizeof(cases) / sizeof(*cases),
	       bad ? "the model differs from the loader" : "all agree");
	return bad;
}
