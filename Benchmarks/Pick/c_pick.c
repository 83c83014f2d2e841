/*
 * The least a `pick` can be: a static C program that sends `estimator pick`'s
 * request line to the session's control socket and prints the reply, with no
 * argument checks, no runtime and no search for the socket. `make
 * bench-pick` runs it beside `estimator pick 8` so that the session's share
 * of the round trip (waking its threads) and the client's share (starting a
 * Swift program) are measured apart.
 *
 *   c_pick SOCKET CARD
 */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc != 3 || strlen(argv[1]) >= sizeof(((struct sockaddr_un *)0)->sun_path)) return 64;
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strcpy(address.sun_path, argv[1]);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&address, sizeof address) != 0) return 69;
    char line[64];
    int length = snprintf(line, sizeof line, "{\"request\":\"pick\",\"card\":\"%s\"}\n", argv[2]);
    if (length <= 0 || length >= (int)sizeof line || send(fd, line, (size_t)length, MSG_NOSIGNAL) != length) return 74;
    char reply[4096];
    ssize_t n = read(fd, reply, sizeof reply);
    if (n <= 0) return 74;
    return write(1, reply, (size_t)n) == n ? 0 : 74;
}
