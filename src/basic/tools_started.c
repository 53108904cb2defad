#include "basic/tools_started.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t tools_lock = PTHREAD_MUTEX_INITIALIZER;
static char tools_names[TOOLS_MAX][TOOL_NAME_MAX];
static size_t tools_count;

void tools_note_started(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');
	const char *name = slash ? slash + 1 : argv0;
	pthread_mutex_lock(&tools_lock);
	size_t i = 0;
	while (i < tools_count && strcmp(tools_names[i], name) != 0)
		i++;
	if (i == tools_count && tools_count < TOOLS_MAX)
		snprintf(tools_names[tools_count++], TOOL_NAME_MAX, "%s", name);
	pthread_mutex_unlock(&tools_lock);
}

void tools_forget(void)
{
	pthread_mutex_lock(&tools_lock);
	tools_count = 0;
	pthread_mutex_unlock(&tools_lock);
}

size_t tools_started(char (*names)[TOOL_NAME_MAX], size_t max)
{
	pthread_mutex_lock(&tools_lock);
	size_t n = tools_count < max ? tools_count : max;
	for (size_t i = 0; i < n; i++)
		memcpy(names[i], tools_names[i], TOOL_NAME_MAX);
	pthread_mutex_unlock(&tools_lock);
	return n;
}
