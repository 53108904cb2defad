/* triage/matrix/matrix_image.h: raw and qcow2 image files as matrix targets, the
 * published benchmark's "raw image vs qcow2" comparison. I/O goes through
 * QEMU's own block layer with `qemu-img bench` (the format driver a VM's
 * disk would use), run by argv. qemu-img bench issues sequential I/O only:
 * random tests on an image are reported as not measured, with that reason. */
#ifndef IOTRIAGE_TRIAGE_MATRIX_IMAGE_H
#define IOTRIAGE_TRIAGE_MATRIX_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Creates DIR/.iotriage-matrix-RUN_ID.FORMAT ("raw" or "qcow2") of SIZE
 * bytes, every byte written with incompressible data (a qcow2 converted
 * from a filled raw file, so no cluster is left unallocated to read as
 * free zeros). FILE gets the path. Returns 0, -ENOENT when qemu-img is not
 * installed, or -errno with ERR. */
int mx_image_create(const char *dir, const char *run_id, const char *format, uint64_t size, char *file,
		    size_t file_len, char *err, size_t err_len);

/* One sequential pass over FILE: SIZE bytes in BS-sized I/Os, DEPTH in
 * flight, writes when WRITE, O_DIRECT (cache=none) when the file system
 * takes it, else through the page cache (*RET_DIRECT says which).
 * Returns 0 with the bytes and seconds, or -errno with ERR. */
int mx_image_bench(const char *file, const char *format, bool write, uint32_t bs, unsigned depth, uint64_t size,
		   int timeout_ms, uint64_t *ret_bytes, double *ret_seconds, bool *ret_direct, char *err,
		   size_t err_len);

/* "Run completed in 0.141 seconds." Returns 0 or -EINVAL. */
int mx_image_parse_seconds(const char *text, double *ret_seconds);

#endif
