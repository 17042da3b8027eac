/*
 * loadcheck.c: what a framework's process sees on Windows, for the
 * Windows end-to-end suite (tests/windows/e2e.sh): the variables it was
 * given and the file LoadLibrary takes for each DLL name, as TensorFlow's
 * loader asks for cudart64_110.dll.
 *
 *   loadcheck.exe [-e NAME]... [-x CODE] DLL...
 *
 * Prints "NAME=value" or "NAME unset" for each -e, then "DLL -> PATH" (the
 * module's file, GetModuleFileNameW, in UTF-8) or "DLL: error N"
 * (GetLastError: 126 is "the specified module could not be found").
 * Exits CODE when given, else with the number of DLLs not loaded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

static void print_utf8(const wchar_t *w)
{
	char u[4 * MAX_PATH];

	if (!WideCharToMultiByte(CP_UTF8, 0, w, -1, u, sizeof(u), NULL, NULL))
		strcpy(u, "?");
	fputs(u, stdout);
}

static void show_var(const char *name)
{
	wchar_t wname[256], value[32767];

	MultiByteToWideChar(CP_UTF8, 0, name, -1, wname, 256);
	if (!GetEnvironmentVariableW(wname, value, 32767)) {
		printf("%s unset\n", name);
		return;
	}
	printf("%s=", name);
	print_utf8(value);
	putchar('\n');
}

int main(int argc, char **argv)
{
	int failed = 0, code = -1;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-e") && i + 1 < argc) {
			show_var(argv[++i]);
		} else if (!strcmp(argv[i], "-x") && i + 1 < argc) {
			code = atoi(argv[++i]);
		} else {
			wchar_t w[MAX_PATH], file[MAX_PATH];
			HMODULE h;

			MultiByteToWideChar(CP_UTF8, 0, argv[i], -1, w, MAX_PATH);
			h = LoadLibraryW(w);
			if (!h) {
				printf("%s: error %lu\n", argv[i],
				       (unsigned long)GetLastError());
				failed++;
				continue;
			}
			GetModuleFileNameW(h, file, MAX_PATH);
			printf("%s -> ", argv[i]);
			print_utf8(file);
			putchar('\n');
		}
	}
	fflush(stdout);
	return code >= 0 ? code : failed;
}
