/*
 * A child started with posix_spawn inherits every descriptor its parent has
 * open without close-on-exec, whichever thread opened it: a pipe or socket
 * pair another thread is setting up for a child of its own at that moment
 * included. Holding such an end keeps the other child's end-of-file from
 * coming, and a parent that waits for it (Foundation's Process notices a
 * child's exit that way) waits as long as the wrong child lives. Closing
 * everything above the descriptors the child is given, in the child, is the
 * only race-free way: marking descriptors close-on-exec in the parent
 * misses those another thread opens meanwhile.
 */
#define _GNU_SOURCE
#include "spawn_close_from.h"

int estimator_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}
