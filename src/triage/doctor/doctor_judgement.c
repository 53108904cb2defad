#include "triage/doctor/doctor_judgement.h"

bool doctor_pool_layer_stands_out(double pool_read, double twin_read, double member_read)
{
	if (pool_read <= 0 || twin_read <= 0 || member_read <= 0)
		return false;
	return pool_read < DOCTOR_POOL_TO_TWIN * twin_read && pool_read < DOCTOR_POOL_TO_MEMBER * member_read;
}

double doctor_layout_healthy(enum layout_kind kind, bool btrfs, bool is_read)
{
	(void)kind, (void)is_read; /* one fraction per implementation since the model knows the mirror's stream */
	return btrfs ? DOCTOR_LAYOUT_BTRFS : DOCTOR_LAYOUT_ZFS;
}

bool doctor_pool_below_layout(enum layout_kind kind, bool btrfs, bool is_read, double figure, double expected,
			      double twin)
{
	if (figure <= 0 || expected <= 0 || twin <= 0)
		return false;
	double floor = doctor_layout_healthy(kind, btrfs, is_read) * DOCTOR_LAYOUT_MARGIN;
	return expected < DOCTOR_LAYOUT_TO_TWIN * twin && figure < floor * expected;
}
