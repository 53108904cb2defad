/* render/doctor.c: doctor's report on the terminal (see doctor.h). */
#include "render/doctor.h"

#include <stdio.h>

#include "render/ceph.h"

void doctor_print(const struct doctor *dr)
{
	printf("\n");
	for (int i = 0; i < DOCTOR_STEPS; i++) {
		const struct doctor_step *s = &dr->steps[i];
		if (s->state == STEP_NOT_RUN)
			continue;
		printf("Step %d, %s: %s%s\n", i + 1, doctor_step_titles[i],
		       s->state == STEP_FAILED ? "could not be completed: " : "", s->summary);
	}
	if (dr->have_ceph)
		ceph_step_print(&dr->ceph, stdout);
	const struct doctor_verdict *v = &dr->verdict;
	printf("\n");
	if (v->layer)
		printf("VERDICT: the %s layer: %s\n", v->layer, v->subject);
	else if (v->undetermined)
		printf("VERDICT: not determined: the media could not be measured\n");
	else
		printf("VERDICT: no layer stands out\n");
	printf("Evidence: %s\n", v->evidence);
	printf("How sure: %s\n", v->confidence);
	printf("Next: %s\n", v->next);
}
