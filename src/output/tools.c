#include "output/tools.h"

#include "basic/tools_started.h"
#include "basic/toolversion.h"

void json_tools(struct json *j)
{
	char names[TOOLS_MAX][TOOL_NAME_MAX];
	/* The list as it stands: asking a program its version starts programs too. */
	size_t n = tools_started(names, TOOLS_MAX);
	json_begin_array(j, "tools");
	for (size_t i = 0; i < n; i++) {
		char version[128];
		json_begin_object(j, NULL);
		json_string(j, "name", names[i]);
		json_string(j, "version", tool_version(names[i], version, sizeof(version)) == 0 ? version : NULL);
		json_end_object(j);
	}
	json_end_array(j);
}
