#include "triage/doctor_judgement.h"

bool doctor_pool_layer_stands_out(double pool_read, double twin_read, double member_read)
{
	if (pool_read <= 0 || twin_read <= 0 || member_read <= 0)
		return false;
	return pool_read < DOCTOR_POOL_TO_TWIN * twin_read && pool_read < DOCTOR_POOL_TO_MEMBER * member_read;
}
