/* tests/fuzz/replay.c: a main() for the fuzz harnesses without libFuzzer, so
 * `meson test` runs each one (built by gcc like the rest) on its regression
 * inputs and on the captures in tests/data: replay DIR|FILE...
 * Every regular file given, or directly inside a directory given, is one
 * input; a crash or abort() in the harness fails the test. Prints TAP. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int count;

static void replay_file(const char *path)
{
	FILE *f = fopen(path, "rbe");
	if (!f)
		return;
	size_t cap = 4096, n = 0, got;
	uint8_t *buf = malloc(cap);
	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			uint8_t *grown = realloc(buf, cap * 2);
			if (!grown)
				free(buf);
			buf = grown;
			cap *= 2;
		}
	}
	fclose(f);
	if (!buf)
		abort();
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	count++;
}

static void replay(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		replay_file(path);
		return;
	}
	struct dirent **names;
	int n = scandir(path, &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		char file[4096];
		snprintf(file, sizeof(file), "%s/%s", path, names[i]->d_name);
		if (stat(file, &st) == 0 && S_ISREG(st.st_mode))
			replay_file(file);
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		replay(argv[i]);
	printf("ok 1 - %d inputs replayed without a crash\n1..1\n", count);
	return count > 0 ? 0 : 1;
}
