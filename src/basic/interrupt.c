#include "basic/interrupt.h"

#include <signal.h>
#include <stdatomic.h>
#include <string.h>

static atomic_int received_signal;

static void on_signal(int sig)
{
	atomic_store_explicit(&received_signal, sig, memory_order_relaxed);
}

void interrupt_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocking wait returns EINTR and notices the flag. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

bool interrupt_requested(void)
{
	return atomic_load_explicit(&received_signal, memory_order_relaxed) != 0;
}

int interrupt_signal(void)
{
	return atomic_load_explicit(&received_signal, memory_order_relaxed);
}
