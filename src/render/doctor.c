/* render/doctor.c: doctor's report on the terminal (see doctor.h). */
#include "render/doctor.h"

#include <stdio.h>

#include "render/ceph.h"

/* Every disk and group the media step named, with its kinds of evidence,
 * when there is more than the subject. */
static void print_named(const struct media_findings *f)
{
	if (f->count < 2)
		return;
	printf("Named:\n");
	for (size_t i = 0; i < f->count; i++) {
		char words[80];
		media_evidence_words(f->named[i].by, words, sizeof(words));
		printf("  %s%s: %s\n", f->named[i].is_group ? "group " : "", f->named[i].subject, words);
	}
}

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
	if (v->layer && dr->steps[0].explains && dr->media_named.count) {
		char words[80];
		media_evidence_words(dr->media_named.named[0].by, words, sizeof(words));
		printf("VERDICT: the %s layer: %s%s, named for its %s\n", v->layer, dr->media_named.named[0].is_group ? "group " : "",
		       v->subject, words);
		print_named(&dr->media_named);
	} else if (v->layer)
		printf("VERDICT: the %s layer: %s\n", v->layer, v->subject);
	else if (v->undetermined)
		printf("VERDICT: not determined: the media could not be measured\n");
	else
		printf("VERDICT: no layer stands out\n");
	printf("Evidence: %s\n", v->evidence);
	printf("How sure: %s\n", v->confidence);
	printf("Next: %s\n", v->next);
}
