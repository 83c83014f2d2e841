/* The C side of the D-Bus signal benchmark, straight on libdbus-1.
 *   c_peer send ADDRESS COUNT     emits COUNT PropertiesChanged-shaped signals
 *   c_peer receive ADDRESS COUNT  the reference receiver: unpacks the same fields
 *   c_peer drain ADDRESS COUNT    the bus's delivery ceiling: reads the socket raw and
 *                                 only frames the messages (no parsing, no validation)
 * A receiver prints "ready" once its match rule is installed, then times from the
 * first signal to the last and prints
 * "<messages per second> <resident kB> <checksum> <CPU microseconds per message>". */
#include <dbus/dbus.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define RULE "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'"

static DBusConnection *connect_bus(const char *address) {
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *connection = dbus_connection_open_private(address, &error);
    if (!connection || !dbus_bus_register(connection, &error)) {
        fprintf(stderr, "c_peer: %s\n", error.message);
        exit(1);
    }
    return connection;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* User and system CPU time of the whole process, in seconds. */
static double cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

static long resident_kb(void) {
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) { if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0; fclose(f); }
    return resident * 4;
}

static void append_variant_string(DBusMessageIter *dict, const char *key, const char *value) {
    DBusMessageIter entry, variant;
    dbus_message_iter_open_container(dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &key);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "s", &variant);
    dbus_message_iter_append_basic(&variant, DBUS_TYPE_STRING, &value);
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(dict, &entry);
}

static int send_signals(DBusConnection *connection, long count) {
    const char *interface = "org.bluez.Device1";
    for (long i = 0; i < count; i++) {
        DBusMessage *signal = dbus_message_new_signal(
            "/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF", "org.freedesktop.DBus.Properties", "PropertiesChanged");
        DBusMessageIter args, dict, entry, variant, invalidated;
        dbus_message_iter_init_append(signal, &args);
        dbus_message_iter_append_basic(&args, DBUS_TYPE_STRING, &interface);
        dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "{sv}", &dict);
        append_variant_string(&dict, "Name", "0101087E04A8BD10");
        const char *rssi_key = "RSSI";
        dbus_int16_t rssi = (dbus_int16_t)(-40 - i % 50);
        dbus_message_iter_open_container(&dict, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
        dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &rssi_key);
        dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "n", &variant);
        dbus_message_iter_append_basic(&variant, DBUS_TYPE_INT16, &rssi);
        dbus_message_iter_close_container(&entry, &variant);
        dbus_message_iter_close_container(&dict, &entry);
        dbus_message_iter_close_container(&args, &dict);
        dbus_message_iter_open_container(&args, DBUS_TYPE_ARRAY, "s", &invalidated);
        dbus_message_iter_close_container(&args, &invalidated);
        dbus_connection_send(connection, signal, NULL);
        dbus_message_unref(signal);
        /* Keep libdbus's outgoing queue short. */
        if (i % 256 == 255) dbus_connection_flush(connection);
    }
    dbus_connection_flush(connection);
    /* The bus answers in order: once this reply is back, every signal has been routed. */
    DBusMessage *call = dbus_message_new_method_call(
        "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId");
    DBusMessage *reply = dbus_connection_send_with_reply_and_block(connection, call, -1, NULL);
    dbus_message_unref(call);
    if (!reply) return 1;
    dbus_message_unref(reply);
    return 0;
}

/* Unpacks sa{sv}as: the interface, Name, RSSI and the invalidated list. */
static int unpack(DBusMessage *message, long *checksum) {
    DBusMessageIter args, dict, entry, variant, invalidated;
    const char *interface, *key, *name = NULL;
    dbus_int16_t rssi = 0;
    if (!dbus_message_iter_init(message, &args) || dbus_message_iter_get_arg_type(&args) != DBUS_TYPE_STRING) return 0;
    dbus_message_iter_get_basic(&args, &interface);
    dbus_message_iter_next(&args);
    if (dbus_message_iter_get_arg_type(&args) != DBUS_TYPE_ARRAY) return 0;
    dbus_message_iter_recurse(&args, &dict);
    while (dbus_message_iter_get_arg_type(&dict) == DBUS_TYPE_DICT_ENTRY) {
        dbus_message_iter_recurse(&dict, &entry);
        dbus_message_iter_get_basic(&entry, &key);
        dbus_message_iter_next(&entry);
        dbus_message_iter_recurse(&entry, &variant);
        if (strcmp(key, "Name") == 0 && dbus_message_iter_get_arg_type(&variant) == DBUS_TYPE_STRING)
            dbus_message_iter_get_basic(&variant, &name);
        else if (strcmp(key, "RSSI") == 0 && dbus_message_iter_get_arg_type(&variant) == DBUS_TYPE_INT16)
            dbus_message_iter_get_basic(&variant, &rssi);
        dbus_message_iter_next(&dict);
    }
    dbus_message_iter_next(&args);
    if (dbus_message_iter_get_arg_type(&args) != DBUS_TYPE_ARRAY) return 0;
    dbus_message_iter_recurse(&args, &invalidated);
    while (dbus_message_iter_get_arg_type(&invalidated) == DBUS_TYPE_STRING) dbus_message_iter_next(&invalidated);
    *checksum += (name ? (long)strlen(name) : 0) + rssi + (long)strlen(interface);
    return 1;
}

static int add_match(DBusConnection *connection) {
    DBusError error;
    dbus_error_init(&error);
    dbus_bus_add_match(connection, RULE, &error);
    if (dbus_error_is_set(&error)) { fprintf(stderr, "c_peer: %s\n", error.message); return 0; }
    printf("ready\n");
    fflush(stdout);
    return 1;
}

static void report(long received, double start, double cpu_start, long checksum) {
    double seconds = now() - start;
    printf("%.0f %ld %ld %.2f\n", (received - 1) / seconds, resident_kb(), checksum,
           (cpu_seconds() - cpu_start) * 1e6 / (received - 1));
}

/* The efficient libdbus receive loop: read_write then pop (no filter dispatch). */
static int receive_signals(DBusConnection *connection, long count) {
    if (!add_match(connection)) return 1;
    long received = 0, checksum = 0;
    double start = 0, cpu_start = 0;
    while (received < count && dbus_connection_read_write(connection, -1)) {
        DBusMessage *message;
        while (received < count && (message = dbus_connection_pop_message(connection))) {
            if (dbus_message_is_signal(message, "org.freedesktop.DBus.Properties", "PropertiesChanged") &&
                unpack(message, &checksum)) {
                if (received++ == 0) { start = now(); cpu_start = cpu_seconds(); }
            }
            dbus_message_unref(message);
        }
    }
    report(received, start, cpu_start, checksum);
    return received == count ? 0 : 1;
}

/* Reads the bus socket directly in large chunks and counts the signals by their framing
 * (fixed header, header-field array length, body length): as fast as the bus can deliver
 * to any receiver. libdbus only authenticated and registered; nothing else arrives before
 * "ready", so the stream starts on a message boundary. The sender is libdbus on this
 * host, so the lengths are in host byte order. */
static int drain_signals(DBusConnection *connection, long count) {
    if (!add_match(connection)) return 1;
    int fd;
    if (!dbus_connection_get_socket(connection, &fd)) return 1;
    static unsigned char buffer[1 << 20];
    size_t held = 0;
    long received = 0;
    double start = 0, cpu_start = 0;
    while (received < count) {
        ssize_t got = read(fd, buffer + held, sizeof buffer - held);
        if (got == 0) break;
        if (got < 0) {
            struct pollfd readable = { fd, POLLIN, 0 };
            poll(&readable, 1, -1);
            continue;
        }
        if (start == 0) { start = now(); cpu_start = cpu_seconds(); }
        held += (size_t)got;
        size_t offset = 0;
        while (held - offset >= 16) {
            uint32_t body, fields;
            memcpy(&body, buffer + offset + 4, 4);
            memcpy(&fields, buffer + offset + 12, 4);
            size_t length = 16 + ((fields + 7) & ~7u) + body;
            if (held - offset < length) break;
            if (buffer[offset + 1] == DBUS_MESSAGE_TYPE_SIGNAL) received++;
            offset += length;
        }
        memmove(buffer, buffer + offset, held - offset);
        held -= offset;
    }
    report(received, start, cpu_start, 0);
    return received == count ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: c_peer send|receive|drain ADDRESS COUNT\n"); return 64; }
    DBusConnection *connection = connect_bus(argv[2]);
    long count = atol(argv[3]);
    int status = strcmp(argv[1], "send") == 0      ? send_signals(connection, count)
                 : strcmp(argv[1], "drain") == 0   ? drain_signals(connection, count)
                                                   : receive_signals(connection, count);
    dbus_connection_close(connection);
    dbus_connection_unref(connection);
    return status;
}
