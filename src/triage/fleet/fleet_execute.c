/* fleet's whole procedure in order: the fan-out (fleet.c), the outliers
 * judged and confirmed (fleet_judge.c), each host's document kept
 * (fleet_record.c). The one file that calls all three, so that none of them
 * calls another back. See triage/fleet/fleet.h. */
#include "triage/fleet/fleet.h"

#include <stdio.h>

#include "basic/interrupt.h"
#include "basic/log.h"

ssize_t fleet_execute(struct fleet_plan *plan, const struct progress *progress, unsigned confirm_runs,
		      const char *results_dir, struct fleet_host **ret_hosts, struct fleet_judgement *jd)
{
	char why[256];
	if (fleet_begin(plan, why, sizeof(why)) < 0) {
		log_msg(LOG_ERR, "%s", why);
		return -1;
	}
	struct fleet_host *hosts = fleet_hosts_new(plan);
	struct progress live = *progress;
	plan->progress = &live;
	log_msg(LOG_INFO, "FLEET: '%s' on %zu hosts, %u at a time", plan->command[0], plan->n_hosts, plan->parallel);
	size_t ok = fleet_run(plan, hosts, plan->n_hosts);
	if (!interrupt_requested())
		fleet_judge(plan, hosts, plan->n_hosts, confirm_runs, jd);
	else
		snprintf(jd->why_not, sizeof(jd->why_not), "interrupted");
	fleet_end(plan);
	plan->progress = NULL; /* LIVE ends here */
	fleet_write_files(results_dir, hosts, plan->n_hosts);
	*ret_hosts = hosts;
	return (ssize_t)ok;
}
