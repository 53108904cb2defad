/* ramdisk/cfs.h: configfs for the kernel targets (nvmet.c, lio.c). ROOT
 * is the target's configfs tree, or, in the unit tests, a temporary
 * directory standing in for it ("emulated": default groups are made and
 * attribute files removed by hand). Returns 0 or -errno. */
#ifndef IOTRIAGE_RAMDISK_CFS_H
#define IOTRIAGE_RAMDISK_CFS_H

#include <stdbool.h>

/* Is ROOT a stand-in tree rather than configfs? */
bool cfs_emulated(const char *root);
/* rmdir of a group under ROOT; 0 when it is gone or was never there. */
int cfs_group_remove(const char *root, const char *path);
/* mkdir of a group under ROOT (with parents in a stand-in tree). */
int cfs_group_make(const char *root, const char *path);
/* Writes VALUE to DIR/NAME (created in a stand-in tree). */
int cfs_attr_write(const char *dir, const char *name, const char *value);
/* Removes the links (every entry not starting with '.') in DIR. */
void cfs_unlink_all(const char *dir);

#endif
