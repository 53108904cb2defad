/* bench/irq_path.h: whether a block device's completions arrive by a
 * hardware interrupt that fewer queues than CPUs share (virtio-blk, AHCI
 * SATA, a SAS HBA): the completion then lands on the interrupt's CPU, and a
 * worker pinned to another CPU waits for a cross-CPU wake-up on every I/O.
 * Measured on this project's VM (virtio-blk, one queue, its interrupt on
 * CPU 1): 4 KiB random reads at depth 1 on an ext4 file ran at 0.75 of
 * fio's rate pinned to CPU 0, and at 1.0 unpinned or pinned to CPU 1.
 *
 * Read from sysfs: a partition is judged by its disk, a dm or md device by
 * the devices below it (shared when any is); a disk outside the PCI tree
 * (loop, zram, scsi_debug, iSCSI) has no interrupt of its own, and one with a
 * hardware queue per CPU (NVMe) completes on the submitting CPU. */
#ifndef IOTRIAGE_BENCH_IRQ_PATH_H
#define IOTRIAGE_BENCH_IRQ_PATH_H

#include <stdbool.h>
#include <sys/types.h>

/* DEV: a block device's number, or a file's st_dev (0:N for file systems
 * without a block device: false). */
bool irq_path_shared(dev_t dev);

#endif
