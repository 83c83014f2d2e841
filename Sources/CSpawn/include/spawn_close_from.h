#ifndef ESTIMATOR_SPAWN_CLOSE_FROM_H
#define ESTIMATOR_SPAWN_CLOSE_FROM_H
#include <spawn.h>
/* Adds a file action that closes every descriptor from `from` up in the
 * child (glibc's posix_spawn_file_actions_addclosefrom_np, which Swift's
 * Glibc module does not show: it is declared only under _GNU_SOURCE).
 * Returns 0 or an errno value, as the posix_spawn_file_actions_* calls do. */
int estimator_spawn_close_from(posix_spawn_file_actions_t *actions, int from);
#endif
