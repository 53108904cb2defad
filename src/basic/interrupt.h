/* basic/interrupt.h: SIGINT, SIGTERM and SIGHUP become a request to stop.
 *
 * The handler only sets a flag. Long-running work (the I/O loop, waits)
 * polls interrupt_requested() and unwinds normally, so every cleanup path
 * (loop devices, cgroups, temporary files) runs on a signal exactly as it
 * does on success. The command then exits 128 + signal number.
 */
#ifndef IOTRIAGE_BASIC_INTERRUPT_H
#define IOTRIAGE_BASIC_INTERRUPT_H

#include <stdbool.h>

void interrupt_install(void);
bool interrupt_requested(void);
/* The signal that was received, 0 if none. */
int interrupt_signal(void);

#endif
