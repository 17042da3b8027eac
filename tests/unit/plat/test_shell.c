#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "plat/shell.h"

/*
 * Quoting is checked by running real shells on the emitted code and
 * comparing the bytes they end up with, never by eye.
 */

static const char *const spaces[] = {
    "plain", "with space", "  lead", "trail  ", "tab\there", "", NULL};
static const char *const quotes[] = {"it's",	   "'",	      "''", "a'b'c",
				     "\"double\"", "'\"'\"'", NULL};
static const char *const backslashes[] = {
    "back\\slash", "\\", "end\\", "\\'", "\\\\'\\", "\\n\\t", NULL};
static const char *const dollars[] = {"$HOME",	  "${X}", "$(id)",	"`id`",
				      "$((1+1))", "a$",	  "!x !! ^a^b", NULL};
static const char *const globs[] = {"*",   "?",	    "[a-z]*",	      "~",
				    "~/x", "{a,b}", "a;b|c&d<e>f(g)", NULL};
static const char *const newlines[] = {
    "one\ntwo",	   "\n", "trailing\n\n", "\r\n", "\x01\x1b[31m\x7f",
    "caf\xc3\xa9", NULL};

/* Run sh-family shell (argv0) on code, then print $X; compare with want. */
static void sh_round_trip(const char *shell, const char *code, const char *want)
{
	char *argv[] = {
	    (char *)shell, "-c",	 "eval \"$1\"; printf %s \"$X\"",
	    (char *)shell, (char *)code, NULL};
	char *zsh_argv[] = {
	    (char *)shell, "-f",	 "-c", "eval \"$1\"; printf %s \"$X\"",
	    (char *)shell, (char *)code, NULL};
	struct buf out = BUF_INIT;
	int rc;

	rc = fx_run(strcmp(shell, "zsh") ? argv : zsh_argv, &out);
	if (rc != 0 || out.len != strlen(want) || strcmp(out.data, want))
		fail_msg("%s: code [%s] gave [%s] (exit %d), want [%s]", shell,
			 code, out.data, rc, want);
	buf_release(&out);
}

static void sh_quote_all(const char *shell, const char *const *cases)
{
	struct buf code = BUF_INIT;

	if (!fx_have_program(shell))
		skip();
	for (; *cases; cases++) {
		buf_reset(&code);
		buf_adds(&code, "X=");
		shell_quote(SHELL_SH, *cases, &code);
		sh_round_trip(shell, code.data, *cases);
	}
	buf_release(&code);
}

static bool have_fish(void)
{
	char *argv[] = {"fish", "--no-config", "-c", "printf ok", NULL};
	struct buf out = BUF_INIT;
	bool ok;

	ok = fx_have_program("fish") && fx_run(argv, &out) == 0 &&
	     !strcmp(out.data, "ok");
	buf_release(&out);
	return ok;
}

/* Run fish on code followed by tail; return its stdout in out. */
static int fish_run(const char *code, const char *tail, struct buf *out)
{
	struct buf script = BUF_INIT;
	char *argv[] = {"fish", "--no-config", "-c", NULL, NULL};
	int rc;

	buf_printf(&script, "%s\n%s", code, tail);
	argv[3] = script.data;
	rc = fx_run(argv, out);
	buf_release(&script);
	return rc;
}

static void fish_quote_all(const char *const *cases)
{
	struct buf code = BUF_INIT, out = BUF_INIT;

	if (!have_fish())
		skip();
	for (; *cases; cases++) {
		int rc;

		buf_reset(&code);
		buf_adds(&code, "set X ");
		shell_quote(SHELL_FISH, *cases, &code);
		rc = fish_run(code.data, "printf %s \"$X\"", &out);
		if (rc != 0 || out.len != strlen(*cases) ||
		    strcmp(out.data, *cases))
			fail_msg("fish: code [%s] gave [%s] (exit %d), want "
				 "[%s]",
				 code.data, out.data, rc, *cases);
	}
	buf_release(&code);
	buf_release(&out);
}

/* ---- sh quoting ---------------------------------------------------------- */

static void test_shell_quote_sh_keeps_spaces(void **state)
{
	(void)state;
	sh_quote_all("sh", spaces);
}

static void test_shell_quote_sh_keeps_single_quotes(void **state)
{
	(void)state;
	sh_quote_all("sh", quotes);
}

static void test_shell_quote_sh_keeps_backslashes(void **state)
{
	(void)state;
	sh_quote_all("sh", backslashes);
}

static void test_shell_quote_sh_expands_no_dollar_or_backtick(void **state)
{
	(void)state;
	sh_quote_all("sh", dollars);
}

static void test_shell_quote_sh_expands_no_globs(void **state)
{
	(void)state;
	sh_quote_all("sh", globs);
}

static void test_shell_quote_sh_keeps_newlines_and_control_bytes(void **state)
{
	(void)state;
	sh_quote_all("sh", newlines);
}

static void test_shell_quote_sh_works_in_bash(void **state)
{
	(void)state;
	sh_quote_all("bash", quotes);
	sh_quote_all("bash", backslashes);
	sh_quote_all("bash", dollars);
	sh_quote_all("bash", globs);
	sh_quote_all("bash", newlines);
}

static void test_shell_quote_sh_works_in_zsh(void **state)
{
	(void)state;
	sh_quote_all("zsh", quotes);
	sh_quote_all("zsh", backslashes);
	sh_quote_all("zsh", dollars);
	sh_quote_all("zsh", globs);
	sh_quote_all("zsh", newlines);
}

static void test_shell_quote_sh_is_single_quoted(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	shell_quote(SHELL_BASH, "a'b\\c", &b);
	assert_string_equal(b.data, "'a'\\''b\\c'");
	buf_reset(&b);
	shell_quote(SHELL_SH, "", &b);
	assert_string_equal(b.data, "''");
	buf_release(&b);
}

/* ---- fish quoting -------------------------------------------------------- */

static void test_shell_quote_fish_keeps_spaces(void **state)
{
	(void)state;
	fish_quote_all(spaces);
}

static void test_shell_quote_fish_keeps_single_quotes(void **state)
{
	(void)state;
	fish_quote_all(quotes);
}

static void test_shell_quote_fish_keeps_backslashes(void **state)
{
	(void)state;
	fish_quote_all(backslashes);
}

static void test_shell_quote_fish_expands_no_dollar_or_backtick(void **state)
{
	(void)state;
	fish_quote_all(dollars);
}

static void test_shell_quote_fish_expands_no_globs(void **state)
{
	(void)state;
	fish_quote_all(globs);
}

static void test_shell_quote_fish_keeps_newlines_and_control_bytes(void **state)
{
	(void)state;
	fish_quote_all(newlines);
}

static void test_shell_quote_fish_escapes_quote_and_backslash(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	shell_quote(SHELL_FISH, "a'b\\c", &b);
	assert_string_equal(b.data, "'a\\'b\\\\c'");
	buf_release(&b);
}

/* ---- export -------------------------------------------------------------- */

static void test_shell_export_sh_exports_to_children(void **state)
{
	static const char *const value = "/opt/it's here/$x`y`\n*";
	struct buf code = BUF_INIT, out = BUF_INIT;
	char *argv[] = {"sh", "-c", "eval \"$1\"; sh -c 'printf %s \"$X_Y\"'",
			"sh", NULL, NULL};

	(void)state;
	shell_export(SHELL_SH, "X_Y", value, &code);
	argv[4] = code.data;
	assert_int_equal(fx_run(argv, &out), 0);
	assert_string_equal(out.data, value);
	buf_release(&code);
	buf_release(&out);
}

static void test_shell_export_sh_unsets_null_value(void **state)
{
	struct buf code = BUF_INIT, out = BUF_INIT;
	char *argv[] = {
	    "sh", "-c", "X=1; export X; eval \"$1\"; printf %s \"${X-gone}\"",
	    "sh", NULL, NULL};

	(void)state;
	shell_export(SHELL_BASH, "X", NULL, &code);
	assert_string_equal(code.data, "unset X;\n");
	argv[4] = code.data;
	assert_int_equal(fx_run(argv, &out), 0);
	assert_string_equal(out.data, "gone");
	buf_release(&code);
	buf_release(&out);
}

static void test_shell_export_fish_exports_to_children(void **state)
{
	static const char *const value = "it's \\ $x (y) *\n";
	struct buf code = BUF_INIT, out = BUF_INIT;

	(void)state;
	if (!have_fish())
		skip();
	shell_export(SHELL_FISH, "CUENV_ACTIVE", value, &code);
	assert_int_equal(
	    fish_run(code.data, "sh -c 'printf %s \"$CUENV_ACTIVE\"'", &out),
	    0);
	assert_string_equal(out.data, value);
	buf_release(&code);
	buf_release(&out);
}

static void test_shell_export_fish_splits_path_variables(void **state)
{
	struct buf code = BUF_INIT;

	(void)state;
	shell_export(SHELL_FISH, "LD_LIBRARY_PATH", "/a b:/c'd::/e", &code);
	assert_string_equal(code.data, "set -gx LD_LIBRARY_PATH '/a b' "
				       "'/c\\'d' '' '/e';\n");
	buf_release(&code);
}

static void
test_shell_export_fish_path_list_reaches_children_joined(void **state)
{
	static const char *const value = "/a b:/c'd::/e\\f";
	struct buf code = BUF_INIT, out = BUF_INIT;

	(void)state;
	if (!have_fish())
		skip();
	shell_export(SHELL_FISH, "LD_LIBRARY_PATH", value, &code);
	assert_int_equal(fish_run(code.data,
				  "printf '%s|' (count $LD_LIBRARY_PATH)\n"
				  "sh -c 'printf %s \"$LD_LIBRARY_PATH\"'",
				  &out),
			 0);
	assert_string_equal(out.data, "4|/a b:/c'd::/e\\f");
	buf_release(&code);
	buf_release(&out);
}

static void test_shell_export_fish_keeps_other_values_whole(void **state)
{
	struct buf code = BUF_INIT;

	(void)state;
	shell_export(SHELL_FISH, "CUENV_ACTIVE", "a:b", &code);
	assert_string_equal(code.data, "set -gx CUENV_ACTIVE 'a:b';\n");
	buf_reset(&code);
	shell_export(SHELL_FISH, "X", NULL, &code);
	assert_string_equal(code.data, "set -e X;\n");
	buf_release(&code);
}

static void test_shell_export_skips_invalid_names(void **state)
{
	struct buf code = BUF_INIT;

	(void)state;
	shell_export(SHELL_SH, "A-B", "x", &code);
	shell_export(SHELL_FISH, "A;rm", "x", &code);
	shell_export(SHELL_ZSH, "", NULL, &code);
	assert_string_equal(code.data, "");
	buf_release(&code);
}

static void test_shell_apply_emits_every_change(void **state)
{
	struct env_change ch[] = {{"A", "1"}, {"B", NULL}};
	struct env_changes c = {ch, 2};
	struct buf code = BUF_INIT;

	(void)state;
	shell_apply(SHELL_SH, &c, &code);
	assert_string_equal(code.data, "export A='1';\nunset B;\n");
	buf_release(&code);
}

/* ---- hook variables ------------------------------------------------------ */

static void test_shell_array_bash_round_trips(void **state)
{
	struct strv items = STRV_INIT;
	struct buf code = BUF_INIT, out = BUF_INIT;
	char *argv[] = {
	    "bash", "-c", "eval \"$1\"; printf '%s|' ${#w[@]} \"${w[@]}\"",
	    "bash", NULL, NULL};

	(void)state;
	if (!fx_have_program("bash"))
		skip();
	strv_push(&items, "/p/it's/.cuenv");
	strv_push(&items, "/q r/$x/.cuenv");
	shell_array(SHELL_BASH, "w", &items, &code);
	argv[4] = code.data;
	assert_int_equal(fx_run(argv, &out), 0);
	assert_string_equal(out.data, "2|/p/it's/.cuenv|/q r/$x/.cuenv|");
	strv_release(&items);
	buf_release(&code);
	buf_release(&out);
}

static void test_shell_array_fish_round_trips(void **state)
{
	struct strv items = STRV_INIT;
	struct buf code = BUF_INIT, out = BUF_INIT;

	(void)state;
	if (!have_fish())
		skip();
	strv_push(&items, "/p/it's/.cuenv");
	strv_push(&items, "/q r/\\$x/.cuenv");
	shell_array(SHELL_FISH, "w", &items, &code);
	assert_int_equal(
	    fish_run(code.data, "printf '%s|' (count $w) $w", &out), 0);
	assert_string_equal(out.data, "2|/p/it's/.cuenv|/q r/\\$x/.cuenv|");
	strv_release(&items);
	buf_release(&code);
	buf_release(&out);
}

static void test_shell_local_sets_unexported_variable(void **state)
{
	struct buf code = BUF_INIT, out = BUF_INIT;
	char *argv[] = {"sh",
			"-c",
			"eval \"$1\"; printf %s \"$s\"; "
			"sh -c 'printf %s \"${s-unset}\"'",
			"sh",
			NULL,
			NULL};

	(void)state;
	shell_local(SHELL_SH, "s", "/r/run/1.stamp", &code);
	argv[4] = code.data;
	assert_int_equal(fx_run(argv, &out), 0);
	assert_string_equal(out.data, "/r/run/1.stampunset");
	buf_reset(&code);
	shell_local(SHELL_FISH, "s", "a'b", &code);
	assert_string_equal(code.data, "set -g s 'a\\'b';\n");
	buf_release(&code);
	buf_release(&out);
}

/* ---- names --------------------------------------------------------------- */

static void test_shell_name_ok_accepts_identifiers(void **state)
{
	(void)state;
	assert_true(shell_name_ok("PATH"));
	assert_true(shell_name_ok("_x1"));
	assert_true(shell_name_ok("__CUENV_STATE"));
	assert_true(shell_name_ok("a"));
}

static void test_shell_name_ok_rejects_non_identifiers(void **state)
{
	(void)state;
	assert_false(shell_name_ok(""));
	assert_false(shell_name_ok("1X"));
	assert_false(shell_name_ok("A-B"));
	assert_false(shell_name_ok("A B"));
	assert_false(shell_name_ok("A=B"));
	assert_false(shell_name_ok("$A"));
	assert_false(shell_name_ok("caf\xc3\xa9"));
	assert_false(shell_name_ok("A;rm"));
}

static void test_shell_parse_knows_every_shell(void **state)
{
	static const char *const names[] = {"bash", "zsh",  "fish",
					    "sh",   "pwsh", "cmd"};
	enum shell sh;

	(void)state;
	for (size_t i = 0; i < 6; i++) {
		assert_int_equal(shell_parse(names[i], &sh), 0);
		assert_string_equal(shell_name(sh), names[i]);
	}
	assert_int_equal(shell_parse("csh", &sh), -1);
	assert_int_equal(shell_parse("Bash", &sh), -1);
	assert_int_equal(shell_parse("powershell", &sh), -1);
	assert_int_equal(shell_parse("", &sh), -1);
}

/*
 * cmd.exe. The lines are read by
 *   for /f "delims=" %%i in ('cuenv env --format cmd') do set %%i
 * Microsoft's `for /?`: FOR /F hands each line whole to %%i ("delims="),
 * skips blank lines and lines starting with the eol character (';' by
 * default); the FOR body's %VAR%, ^ & | < > ( ) were parsed before %%i
 * got a value. `set /?`: `SET "variable=string"` takes up to the last
 * quote; `SET variable=` deletes. Delayed expansion (`setlocal
 * EnableDelayedExpansion`, `cmd /v:on`) expands !VAR! at execution time.
 * This model of SET's quoted form reads a line back to (name, value).
 */
static int cmd_set_model(const char *line, struct buf *name, struct buf *value)
{
	const char *eq, *last;
	size_t n = strlen(line);

	if (n < 3 || line[0] != '"' || line[n - 2] != '"' ||
	    line[n - 1] != '\n')
		return -1;
	if (strchr(line, '\r') || strchr(line, '\n') != line + n - 1)
		return -1; /* FOR /F would split it */
	last = strrchr(line, '"');
	eq = strchr(line + 1, '=');
	if (!eq || eq > last)
		return -1;
	buf_add(name, line + 1, (size_t)(eq - line - 1));
	buf_add(value, eq + 1, (size_t)(last - eq - 1));
	return 0;
}

static void test_shell_cmd_export_writes_quoted_set_argument(void **state)
{
	/* expected lines written from `set /?`'s quoted form */
	static const char *const cases[][2] = {
	    {"plain", "\"X=plain\"\n"},
	    {"with space", "\"X=with space\"\n"},
	    {"100% %PATH%", "\"X=100% %PATH%\"\n"},
	    {"a^b^^", "\"X=a^b^^\"\n"},
	    {"a&b|c<d>e", "\"X=a&b|c<d>e\"\n"},
	    {"(x86) \"q\"", "\"X=(x86) \"q\"\"\n"},
	    {"C:\\Program Files\\NVIDIA", "\"X=C:\\Program Files\\NVIDIA\"\n"},
	    {"caf\xc3\xa9", "\"X=caf\xc3\xa9\"\n"},
	    {";lead", "\"X=;lead\"\n"},
	    {"=eq", "\"X==eq\"\n"},
	};
	struct buf out = BUF_INIT, name = BUF_INIT, value = BUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		buf_reset(&out);
		buf_reset(&name);
		buf_reset(&value);
		assert_int_equal(shell_cmd_export("X", cases[i][0], &out), 0);
		assert_string_equal(out.data, cases[i][1]);
		assert_int_equal(cmd_set_model(out.data, &name, &value), 0);
		assert_string_equal(name.data, "X");
		assert_string_equal(value.data, cases[i][0]);
	}
	buf_release(&out);
	buf_release(&name);
	buf_release(&value);
}

static void test_shell_cmd_export_unsets_null_and_empty(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	/* `set /?`: "SET variable=" with nothing after it deletes */
	assert_int_equal(shell_cmd_export("CUDA_PATH", NULL, &out), 0);
	assert_string_equal(out.data, "\"CUDA_PATH=\"\n");
	buf_reset(&out);
	assert_int_equal(shell_cmd_export("CUDA_PATH", "", &out), 0);
	assert_string_equal(out.data, "\"CUDA_PATH=\"\n");
	buf_release(&out);
}

static void test_shell_cmd_export_refuses_what_set_cannot_carry(void **state)
{
	static const char *const bad[] = {"one\ntwo", "cr\r",	"\n",
					  "bang!",    "!PATH!", "a!b^c"};
	struct buf out = BUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_equal(shell_cmd_export("X", bad[i], &out), -1);
		assert_int_equal(out.len, 0);
	}
	assert_int_equal(shell_cmd_export("A B", "x", &out), -1);
	assert_int_equal(shell_cmd_export("A&B", "x", &out), -1);
	assert_int_equal(out.len, 0);
	buf_release(&out);
}

/*
 * PowerShell's strings, as this model reads them back (written from the
 * documents, not from shell.c):
 *
 *  - verbatim, about_Quoting_Rules: "No substitution is performed", and
 *    "To include a single quotation mark in a single-quoted string, use a
 *    second consecutive single quote"; the language specification
 *    (verbatim-string-literal) counts U+0027 and U+2018..U+201B as
 *    single-quote-character;
 *  - expandable, "...": the backtick escapes the next character
 *    (about_Special_Characters: `0 `a `b `e `f `n `r `t `u{} `v are
 *    special, read here as not ours), $ starts a variable or a
 *    subexpression, of which only $([char]0xHHHH) is read (a UTF-16 code
 *    unit), "" is one quote, and U+201C..U+201E end it too.
 *
 * Every byte must be ASCII: under a console code page that is not UTF-8
 * (1252: the bytes D1 92 of U+0452 read as "Ñ’", U+2019 a quote), only
 * ASCII reads the same. Returns the length read, or 0 when s is not one
 * whole string of that grammar.
 */
static size_t pwsh_quote_len(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;

	if (*u == '\'')
		return 1;
	if (u[0] == 0xe2 && u[1] == 0x80 && u[2] >= 0x98 && u[2] <= 0x9b)
		return 3;
	return 0;
}

static void utf8_put(struct buf *b, unsigned long cp)
{
	if (cp < 0x80) {
		buf_addc(b, (char)cp);
	} else if (cp < 0x800) {
		buf_addc(b, (char)(0xc0 | cp >> 6));
		buf_addc(b, (char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		buf_addc(b, (char)(0xe0 | cp >> 12));
		buf_addc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
		buf_addc(b, (char)(0x80 | (cp & 0x3f)));
	} else {
		buf_addc(b, (char)(0xf0 | cp >> 18));
		buf_addc(b, (char)(0x80 | ((cp >> 12) & 0x3f)));
		buf_addc(b, (char)(0x80 | ((cp >> 6) & 0x3f)));
		buf_addc(b, (char)(0x80 | (cp & 0x3f)));
	}
}

static size_t pwsh_expandable_model(const char *s, struct buf *value)
{
	const char *p = s + 1;
	unsigned long hi = 0; /* a high surrogate waiting for its low one */

	for (;;) {
		unsigned long cu;
		char *end;

		if (!*p)
			return 0;
		if (*p == '"' && p[1] != '"')
			return hi ? 0 : (size_t)(p + 1 - s);
		if (hi && *p != '$')
			return 0;
		if (*p == '"') {
			buf_addc(value, '"');
			p += 2;
		} else if (*p == '`') {
			if (!p[1] || strchr("0abefnrtuv", p[1]))
				return 0;
			buf_addc(value, p[1]);
			p += 2;
		} else if (*p == '$') {
			if (strncmp(p, "$([char]0x", 10))
				return 0;
			cu = strtoul(p + 10, &end, 16);
			if (end == p + 10 || *end != ')' || cu > 0xffff)
				return 0;
			p = end + 1;
			if (cu >= 0xd800 && cu <= 0xdbff) {
				if (hi)
					return 0;
				hi = cu;
			} else if (cu >= 0xdc00 && cu <= 0xdfff) {
				if (!hi)
					return 0;
				utf8_put(value, 0x10000 +
						    ((hi - 0xd800) << 10) +
						    (cu - 0xdc00));
				hi = 0;
			} else {
				utf8_put(value, cu);
			}
		} else {
			buf_addc(value, *p++);
		}
	}
}

static size_t pwsh_string_model(const char *s, struct buf *value)
{
	const char *p = s;
	size_t q = pwsh_quote_len(p);

	for (size_t i = 0; s[i]; i++)
		if ((unsigned char)s[i] >= 0x80)
			fail_msg("not ASCII: %s", s);
	if (*s == '"')
		return pwsh_expandable_model(s, value);
	if (!q)
		return 0;
	p += q;
	for (;;) {
		if (!*p)
			return 0; /* unterminated */
		q = pwsh_quote_len(p);
		if (!q) {
			buf_addc(value, *p++);
			continue;
		}
		if (pwsh_quote_len(p + q)) { /* doubled: one quote */
			buf_add(value, p, q);
			p += q + pwsh_quote_len(p + q);
			continue;
		}
		return (size_t)(p + q - s);
	}
}

static void test_shell_pwsh_quote_ascii_only_and_reads_back(void **state)
{
	/* expected literals written from the grammar above */
	static const char *const cases[][2] = {
	    {"plain", "'plain'"},
	    {"it's", "'it''s'"},
	    {"$env:PATH `n $(id) @x \"d\"", "'$env:PATH `n $(id) @x \"d\"'"},
	    {"C:\\Program Files\\NVIDIA", "'C:\\Program Files\\NVIDIA'"},
	    {"one\ntwo", "'one\ntwo'"},
	    /* U+0452, whose second UTF-8 byte is U+2019 in code page 1252 */
	    {"C:\\\xd1\x92'", "\"C:\\$([char]0x0452)'\""},
	    {"\xe2\x80\x98l\xe2\x80\x99r",
	     "\"$([char]0x2018)l$([char]0x2019)r\""},
	    {"\xe2\x80\x9a\xe2\x80\x9b", "\"$([char]0x201A)$([char]0x201B)\""},
	    /* U+201C..U+201E end an expandable string: escaped like the rest */
	    {"\xe2\x80\x9c\xe2\x80\x9d\xe2\x80\x9e",
	     "\"$([char]0x201C)$([char]0x201D)$([char]0x201E)\""},
	    {"caf\xc3\xa9 '", "\"caf$([char]0x00E9) '\""},
	    {"\xc3\xa9 $env:X `n $(id) \"d\"\nz",
	     "\"$([char]0x00E9) `$env:X ``n `$(id) `\"d`\"\nz\""},
	    /* past U+FFFF: a surrogate pair */
	    {"\xf0\x9f\x98\x80!", "\"$([char]0xD83D)$([char]0xDE00)!\""},
	    {"\xef\xbf\xbf", "\"$([char]0xFFFF)\""},
	};
	struct buf out = BUF_INIT, value = BUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		buf_reset(&out);
		buf_reset(&value);
		buf_adds(&value, "");
		assert_int_equal(shell_pwsh_quote(cases[i][0], &out), 0);
		assert_string_equal(out.data, cases[i][1]);
		/* the literal ends exactly at its end, and reads back */
		assert_int_equal(pwsh_string_model(out.data, &value), out.len);
		assert_string_equal(value.data, cases[i][0]);
	}
	buf_reset(&out);
	shell_pwsh_quote("", &out);
	assert_string_equal(out.data, "''");
	buf_release(&out);
	buf_release(&value);
}

/* Bytes that are not UTF-8 (a lone continuation byte, a truncated, an
 * overlong or a surrogate's sequence) cannot be carried: U+FFFD each,
 * still ASCII, and -1. */
static void test_shell_pwsh_quote_refuses_what_is_not_utf8(void **state)
{
	static const char *const cases[][2] = {
	    {"a\x92z", "\"a$([char]0xFFFD)z\""},
	    {"\xd1", "\"$([char]0xFFFD)\""},
	    {"\xe2\x80z", "\"$([char]0xFFFD)$([char]0xFFFD)z\""},
	    {"\xc0\xaf", "\"$([char]0xFFFD)$([char]0xFFFD)\""},
	    {"\xed\xa0\x80",
	     "\"$([char]0xFFFD)$([char]0xFFFD)$([char]0xFFFD)\""},
	    {"\xf4\x90\x80\x80",
	     "\"$([char]0xFFFD)$([char]0xFFFD)$([char]0xFFFD)$([char]0xFFFD)\""},
	    {"\xff", "\"$([char]0xFFFD)\""},
	};
	struct buf out = BUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		buf_reset(&out);
		assert_int_equal(shell_pwsh_quote(cases[i][0], &out), -1);
		assert_string_equal(out.data, cases[i][1]);
	}
	buf_reset(&out);
	assert_int_equal(shell_pwsh_export("X", "\xd1", &out), -1);
	assert_string_equal(out.data, "$env:X = \"$([char]0xFFFD)\"\n");
	buf_release(&out);
}

static void test_shell_pwsh_export_assigns_and_removes(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	shell_pwsh_export("CUDA_PATH", "C:\\CUDA\\v11.2", &out);
	shell_pwsh_export("CUDNN_PATH", NULL, &out);
	shell_pwsh_export("BAD NAME", "x", &out);
	assert_string_equal(out.data, "$env:CUDA_PATH = 'C:\\CUDA\\v11.2'\n"
				      "Remove-Item Env:CUDNN_PATH -ErrorAction "
				      "SilentlyContinue\n");
	buf_release(&out);
}

/*
 * The hook's PowerShell: shell_export, shell_array and shell_local for
 * SHELL_PWSH. `$global:NAME = @('a', 'b')` is an array expression of
 * verbatim strings (about_Arrays: @() is an array even of one item or
 * none; about_Scopes: $global: sets the session's variable from within
 * the hook function that runs Invoke-Expression).
 */
static void pwsh_array_model(const char *line, const char *name,
			     struct strv *items)
{
	struct buf head = BUF_INIT;
	const char *p;

	buf_printf(&head, "$global:%s = @(", name);
	assert_true(!strncmp(line, head.data, head.len));
	p = line + head.len;
	while (*p != ')') {
		struct buf v = BUF_INIT;
		size_t n;

		buf_adds(&v, "");
		n = pwsh_string_model(p, &v);
		assert_true(n > 0);
		strv_push(items, v.data);
		buf_release(&v);
		p += n;
		if (*p == ',') {
			assert_int_equal(p[1], ' ');
			p += 2;
		}
	}
	assert_string_equal(p, ")\n");
	buf_release(&head);
}

static void test_shell_pwsh_hook_lines_read_back(void **state)
{
	static const char *const vals[] = {"C:\\Users\\it's me\\proj\\.cuenv",
					   "", "a \xe2\x80\x99 $x `n @(y)",
					   "one"};
	struct buf out = BUF_INIT;
	struct strv items = STRV_INIT, got = STRV_INIT;
	struct env_changes ch = {0};

	(void)state;
	for (size_t i = 0; i < 4; i++)
		strv_push(&items, vals[i]);
	shell_array(SHELL_PWSH, "__cuenv_watch", &items, &out);
	pwsh_array_model(out.data, "__cuenv_watch", &got);
	assert_int_equal(got.n, 4);
	for (size_t i = 0; i < 4; i++)
		assert_string_equal(got.v[i], vals[i]);
	strv_release(&got);
	strv_release(&items);

	/* none, and one: still arrays */
	buf_reset(&out);
	shell_array(SHELL_PWSH, "__cuenv_absent", &items, &out);
	assert_string_equal(out.data, "$global:__cuenv_absent = @()\n");
	buf_reset(&out);
	strv_push(&items, "x'");
	shell_array(SHELL_PWSH, "__cuenv_absent", &items, &out);
	assert_string_equal(out.data, "$global:__cuenv_absent = @('x''')\n");
	strv_release(&items);

	buf_reset(&out);
	shell_local(SHELL_PWSH, "__cuenv_stamp", "C:\\a'b", &out);
	assert_string_equal(out.data, "$global:__cuenv_stamp = 'C:\\a''b'\n");
	buf_reset(&out);
	shell_local(SHELL_PWSH, "__cuenv_said", "", &out);
	assert_string_equal(out.data, "$global:__cuenv_said = ''\n");

	/* exports are shell_pwsh_export's, __CUENV_STATE included */
	ch.n = 2;
	ch.v = calloc(2, sizeof *ch.v);
	ch.v[0].name = strdup("__CUENV_STATE");
	ch.v[0].value = strdup("1;S,CUDA_PATH,C:\\it's");
	ch.v[1].name = strdup("CUDNN_PATH");
	buf_reset(&out);
	shell_apply(SHELL_PWSH, &ch, &out);
	assert_string_equal(out.data,
			    "$env:__CUENV_STATE = '1;S,CUDA_PATH,C:\\it''s'\n"
			    "Remove-Item Env:CUDNN_PATH -ErrorAction "
			    "SilentlyContinue\n");
	env_changes_release(&ch);
	buf_release(&out);
}

/* cmd: set arguments only; no hook, so no arrays or shell variables. */
static void test_shell_cmd_hook_lines(void **state)
{
	struct buf out = BUF_INIT;
	struct strv items = STRV_INIT;

	(void)state;
	strv_push(&items, "C:\\proj\\.cuenv");
	shell_export(SHELL_CMD, "CUDA_PATH", "C:\\a b (x86) & ^", &out);
	shell_export(SHELL_CMD, "CUDNN_PATH", NULL, &out);
	shell_export(SHELL_CMD, "BANG", "a!b", &out); /* refused: nothing */
	shell_array(SHELL_CMD, "__cuenv_watch", &items, &out);
	shell_local(SHELL_CMD, "__cuenv_said", "x", &out);
	assert_string_equal(out.data, "\"CUDA_PATH=C:\\a b (x86) & ^\"\n"
				      "\"CUDNN_PATH=\"\n");
	strv_release(&items);
	buf_release(&out);
}

static void test_shell_quote_word_only_when_needed(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	shell_quote_word(&b, "/usr/local/cuda-12.4");
	assert_string_equal(b.data, "/usr/local/cuda-12.4");
	buf_reset(&b);
	shell_quote_word(&b, "/home/a b/it's");
	assert_string_equal(b.data, "'/home/a b/it'\\''s'");
	buf_reset(&b);
	shell_quote_word(&b, "");
	assert_string_equal(b.data, "''");
	buf_release(&b);
}

/* ---- cuenv init ---------------------------------------------------------- */

static void test_shell_fill_replaces_only_its_placeholders(void **state)
{
	struct buf out = BUF_INIT;

	(void)state;
	buf_adds(&out, "> ");
	shell_fill(&out, "@CUENV_BIN@ a@b @CUENV_SHELL@@CUENV_BIN@ @", "'/x'",
		   "zsh");
	assert_string_equal(out.data, "> '/x' a@b zsh'/x' @");
	buf_release(&out);
}

static void test_shell_fill_doskey_doubles_dollars_refuses_percent(void **state)
{
	struct buf out = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(shell_fill_doskey(&out,
					   "cuenv=@CUENV_BIN@ $* @CUENV_SHELL@",
					   "C:\\a $b\\cuenv.exe", &err),
			 CUENV_OK);
	assert_string_equal(out.data, "cuenv=\"C:\\a $$b\\cuenv.exe\" $* cmd");
	buf_reset(&out);
	assert_int_equal(
	    shell_fill_doskey(&out, "@CUENV_BIN@", "C:/100%/c.exe", &err),
	    CUENV_E_USAGE);
	assert_string_equal(err.msg.data,
			    "init: cmd cannot name 'C:/100%/c.exe' in a doskey "
			    "macro (it holds % or a quote)");
	assert_string_equal(err.hint.data,
			    "move cuenv to a folder without '%'");
	assert_int_equal(
	    shell_fill_doskey(&out, "@CUENV_BIN@", "C:\\a\"b", &err),
	    CUENV_E_USAGE);
	assert_int_equal(out.len, 0);
	buf_release(&out);
	err_release(&err);
}

static void test_shell_word_and_detect(void **state)
{
	(void)state;
	assert_string_equal(shell_word("bash"), "bash");
	assert_string_equal(shell_word("-zsh"), "zsh");
	assert_string_equal(shell_word("/usr/bin/fish"), "fish");
	assert_null(shell_word("/bin/sh"));
	assert_null(shell_word("bashful"));
	assert_null(shell_word("make"));
	assert_string_equal(shell_detect("zsh", "/bin/bash"), "zsh");
	assert_string_equal(shell_detect("make", "/bin/bash"), "bash");
	assert_string_equal(shell_detect(NULL, "/usr/bin/fish"), "fish");
	assert_null(shell_detect("make", "/bin/tcsh"));
	assert_null(shell_detect(NULL, NULL));
}

static const struct shell_templates fake_templates = {
    .sh = "SH(@CUENV_BIN@,@CUENV_SHELL@)",
    .bash = "BASH(@CUENV_BIN@)",
    .zsh = "ZSH(@CUENV_BIN@)",
    .fish = "FISH(@CUENV_BIN@,@CUENV_SHELL@)",
    .direnv = "DIRENV(@CUENV_BIN@,@CUENV_SHELL@)",
    .pwsh = "PWSH(@CUENV_BIN@,@CUENV_SHELL@)",
    .doskey = "DOSKEY(@CUENV_BIN@)",
};

/* shell_init_script's text for name (detected: zsh), or its error. */
static int init_text(const char *name, const char *detected, struct buf *out,
		     struct cuenv_err *err)
{
	buf_reset(out);
	return shell_init_script(&fake_templates, name, "/o'k/cuenv", detected,
				 out, err);
}

static void test_shell_init_script_each_shell(void **state)
{
	struct buf out = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(init_text("bash", NULL, &out, &err), CUENV_OK);
	assert_string_equal(out.data, "SH('/o'\\''k/cuenv',bash)"
				      "BASH('/o'\\''k/cuenv')");
	assert_int_equal(init_text("zsh", NULL, &out, &err), CUENV_OK);
	assert_string_equal(out.data, "SH('/o'\\''k/cuenv',zsh)"
				      "ZSH('/o'\\''k/cuenv')");
	assert_int_equal(init_text("fish", NULL, &out, &err), CUENV_OK);
	assert_string_equal(out.data, "FISH('/o\\'k/cuenv',fish)");
	assert_int_equal(init_text("pwsh", NULL, &out, &err), CUENV_OK);
	assert_string_equal(out.data, "PWSH('/o''k/cuenv',pwsh)");
	assert_int_equal(init_text("cmd", NULL, &out, &err), CUENV_OK);
	assert_string_equal(out.data, "DOSKEY(\"/o'k/cuenv\")");
	assert_int_equal(init_text("direnv", NULL, &out, &err), CUENV_OK);
	assert_string_equal(out.data, "DIRENV('/o'\\''k/cuenv',bash)");
	assert_int_equal(init_text("-", "zsh", &out, &err), CUENV_OK);
	assert_string_equal(out.data, "SH('/o'\\''k/cuenv',zsh)"
				      "ZSH('/o'\\''k/cuenv')");
	buf_release(&out);
	err_release(&err);
}

static void test_shell_init_script_refusals(void **state)
{
	struct buf out = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(init_text(NULL, "bash", &out, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "init: missing argument");
	assert_non_null(strstr(err.hint.data, "detect it: cuenv init -"));
	err_release(&err);
	err_init(&err);
	assert_int_equal(init_text(NULL, NULL, &out, &err), CUENV_E_USAGE);
	assert_string_equal(err.hint.data,
			    "name the shell: cuenv init bash (or zsh, fish)");
	assert_int_equal(init_text("-", NULL, &out, &err), CUENV_E_USAGE);
	assert_non_null(strstr(err.msg.data, "cannot tell the shell"));
	assert_int_equal(init_text("sh", "bash", &out, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "init: unsupported shell 'sh'");
	assert_int_equal(init_text("tc\nsh", NULL, &out, &err), CUENV_E_USAGE);
	assert_null(strchr(err.msg.data, '\n'));
	assert_int_equal(out.len, 0);
	buf_release(&out);
	err_release(&err);
}

static void test_shell_completion_script_each_shell(void **state)
{
	static const struct shell_completions c = {
	    .bash = "B", .zsh = "Z", .fish = "F"};
	struct cuenv_err err = CUENV_ERR_INIT;
	const char *text;

	(void)state;
	assert_int_equal(shell_completion_script(&c, "bash", &text, &err),
			 CUENV_OK);
	assert_string_equal(text, "B");
	assert_int_equal(shell_completion_script(&c, "zsh", &text, &err),
			 CUENV_OK);
	assert_string_equal(text, "Z");
	assert_int_equal(shell_completion_script(&c, "fish", &text, &err),
			 CUENV_OK);
	assert_string_equal(text, "F");
	assert_int_equal(shell_completion_script(&c, "pwsh", &text, &err),
			 CUENV_E_USAGE);
	assert_null(text);
	assert_string_equal(err.msg.data, "completion: unknown shell 'pwsh'");
	assert_string_equal(err.hint.data, "shells: bash, zsh, fish");
	assert_int_equal(shell_completion_script(&c, NULL, &text, &err),
			 CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "completion: missing argument");
	assert_string_equal(err.hint.data,
			    "name the shell: cuenv completion bash|zsh|fish");
	err_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_shell_quote_word_only_when_needed),
	    cmocka_unit_test(test_shell_fill_replaces_only_its_placeholders),
	    cmocka_unit_test(
		test_shell_fill_doskey_doubles_dollars_refuses_percent),
	    cmocka_unit_test(test_shell_word_and_detect),
	    cmocka_unit_test(test_shell_init_script_each_shell),
	    cmocka_unit_test(test_shell_init_script_refusals),
	    cmocka_unit_test(test_shell_completion_script_each_shell),
	    cmocka_unit_test(test_shell_pwsh_hook_lines_read_back),
	    cmocka_unit_test(test_shell_cmd_hook_lines),
	    cmocka_unit_test(test_shell_quote_sh_keeps_spaces),
	    cmocka_unit_test(test_shell_quote_sh_keeps_single_quotes),
	    cmocka_unit_test(test_shell_quote_sh_keeps_backslashes),
	    cmocka_unit_test(test_shell_quote_sh_expands_no_dollar_or_backtick),
	    cmocka_unit_test(test_shell_quote_sh_expands_no_globs),
	    cmocka_unit_test(
		test_shell_quote_sh_keeps_newlines_and_control_bytes),
	    cmocka_unit_test(test_shell_quote_sh_works_in_bash),
	    cmocka_unit_test(test_shell_quote_sh_works_in_zsh),
	    cmocka_unit_test(test_shell_quote_sh_is_single_quoted),
	    cmocka_unit_test(test_shell_quote_fish_keeps_spaces),
	    cmocka_unit_test(test_shell_quote_fish_keeps_single_quotes),
	    cmocka_unit_test(test_shell_quote_fish_keeps_backslashes),
	    cmocka_unit_test(
		test_shell_quote_fish_expands_no_dollar_or_backtick),
	    cmocka_unit_test(test_shell_quote_fish_expands_no_globs),
	    cmocka_unit_test(
		test_shell_quote_fish_keeps_newlines_and_control_bytes),
	    cmocka_unit_test(test_shell_quote_fish_escapes_quote_and_backslash),
	    cmocka_unit_test(test_shell_export_sh_exports_to_children),
	    cmocka_unit_test(test_shell_export_sh_unsets_null_value),
	    cmocka_unit_test(test_shell_export_fish_exports_to_children),
	    cmocka_unit_test(test_shell_export_fish_splits_path_variables),
	    cmocka_unit_test(
		test_shell_export_fish_path_list_reaches_children_joined),
	    cmocka_unit_test(test_shell_export_fish_keeps_other_values_whole),
	    cmocka_unit_test(test_shell_export_skips_invalid_names),
	    cmocka_unit_test(test_shell_apply_emits_every_change),
	    cmocka_unit_test(test_shell_array_bash_round_trips),
	    cmocka_unit_test(test_shell_array_fish_round_trips),
	    cmocka_unit_test(test_shell_local_sets_unexported_variable),
	    cmocka_unit_test(test_shell_name_ok_accepts_identifiers),
	    cmocka_unit_test(test_shell_name_ok_rejects_non_identifiers),
	    cmocka_unit_test(test_shell_parse_knows_every_shell),
	    cmocka_unit_test(test_shell_cmd_export_writes_quoted_set_argument),
	    cmocka_unit_test(test_shell_cmd_export_unsets_null_and_empty),
	    cmocka_unit_test(
		test_shell_cmd_export_refuses_what_set_cannot_carry),
	    cmocka_unit_test(test_shell_pwsh_quote_ascii_only_and_reads_back),
	    cmocka_unit_test(test_shell_pwsh_quote_refuses_what_is_not_utf8),
	    cmocka_unit_test(test_shell_pwsh_export_assigns_and_removes),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
