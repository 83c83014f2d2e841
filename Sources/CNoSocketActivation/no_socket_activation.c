/*
 * The two libsystemd functions that Debian's static libdbus-1.a calls, for the
 * fully static `estimator` that `make build` ships (there is no static
 * libsystemd to link, and loading libsystemd.so with its chain -- libgcrypt,
 * liblzma, libzstd, liblz4, libcap, libgpg-error -- was most of the start-up
 * cost of `estimator pick`; see mk/cli.mk).
 *
 * libdbus calls them in one place only: _dbus_listen_systemd_sockets()
 * (dbus-sysdeps-unix.c), which a *server* listening on a "systemd:" address
 * uses to take the sockets systemd passed it by socket activation. estimator
 * is a D-Bus client: it connects to the system bus and never listens on a
 * D-Bus address, so that path is never taken. Should it ever be, these
 * answer truthfully for this process: systemd passed it no sockets.
 *
 * Hidden: in a dynamically linked build (tests, the rig) libdbus-1.so keeps
 * calling libsystemd's own functions; these only stand in when libdbus-1.a
 * is linked into the executable.
 */

#include "no_socket_activation.h"

#define HIDDEN __attribute__((visibility("hidden")))

/* sd_listen_fds(3): the number of sockets passed; 0 = none. */
HIDDEN int sd_listen_fds(int unset_environment) {
    (void)unset_environment;
    return 0;
}

/* sd_is_socket(3): whether fd is a socket of that kind; 0 = it is not.
 * Only asked about sockets sd_listen_fds counted, so never reached. */
HIDDEN int sd_is_socket(int fd, int family, int type, int listening) {
    (void)fd;
    (void)family;
    (void)type;
    (void)listening;
    return 0;
}
