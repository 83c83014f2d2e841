#ifndef ESTIMATOR_NO_SOCKET_ACTIVATION_H
#define ESTIMATOR_NO_SOCKET_ACTIVATION_H
/* libsystemd's socket-activation queries as static libdbus-1.a calls them,
 * answered for a process that systemd passed no sockets (see the .c file).
 * Nothing calls them from Swift: the target exists to be linked. */
int sd_listen_fds(int unset_environment);
int sd_is_socket(int fd, int family, int type, int listening);
#endif
