/* libdbus-1's own floor for `make bench-session`: the least a libdbus client can do
 * to follow the room. Subscribes with the session's match rules (org.bluez's object
 * additions and removals; Device1's PropertiesChanged under /org/bluez/hci0), reads
 * with libdbus's own loop (dbus_connection_read_write_dispatch) and, per signal, only
 * unpacks Name and RSSI into a small table by object path: no decoding of the local
 * name, no peer table, no timers. What the session spends above this is ours; what
 * this spends is libdbus's and the kernel's.
 *
 *   c_follower          bus address from DBUS_SYSTEM_BUS_ADDRESS; prints "ready" once
 *                       its rules are installed, a count of the signals on SIGTERM. */
#include <dbus/dbus.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#define PEERS 4096
static struct { char path[64]; char name[32]; int rssi; } table[PEERS];
static long signals_seen;
static volatile sig_atomic_t stopping;

static void stop(int signo) { (void)signo; stopping = 1; }

static void note(const char *path, const char *name, int rssi, int has_rssi) {
    unsigned long hash = 5381;
    for (const char *c = path; *c; c++) hash = hash * 33 + (unsigned char)*c;
    for (unsigned long probe = 0; probe < PEERS; probe++) {
        unsigned long slot = (hash + probe) % PEERS;
        if (table[slot].path[0] == 0) snprintf(table[slot].path, sizeof table[slot].path, "%s", path);
        else if (strcmp(table[slot].path, path) != 0) continue;
        if (name) snprintf(table[slot].name, sizeof table[slot].name, "%s", name);
        if (has_rssi) table[slot].rssi = rssi;
        return;
    }
}

/* PropertiesChanged (sa{sv}as): Name and RSSI of a Device1. */
static DBusHandlerResult filter(DBusConnection *connection, DBusMessage *message, void *data) {
    (void)connection, (void)data;
    if (!dbus_message_is_signal(message, DBUS_INTERFACE_PROPERTIES, "PropertiesChanged"))
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
    signals_seen++;
    DBusMessageIter args, dict, entry, variant;
    const char *interface, *key, *name = NULL;
    dbus_int16_t rssi = 0;
    int has_rssi = 0;
    if (!dbus_message_iter_init(message, &args) || dbus_message_iter_get_arg_type(&args) != DBUS_TYPE_STRING)
        return DBUS_HANDLER_RESULT_HANDLED;
    dbus_message_iter_get_basic(&args, &interface);
    if (strcmp(interface, "org.bluez.Device1") != 0 || !dbus_message_iter_next(&args) ||
        dbus_message_iter_get_arg_type(&args) != DBUS_TYPE_ARRAY)
        return DBUS_HANDLER_RESULT_HANDLED;
    dbus_message_iter_recurse(&args, &dict);
    while (dbus_message_iter_get_arg_type(&dict) == DBUS_TYPE_DICT_ENTRY) {
        dbus_message_iter_recurse(&dict, &entry);
        dbus_message_iter_get_basic(&entry, &key);
        dbus_message_iter_next(&entry);
        dbus_message_iter_recurse(&entry, &variant);
        int type = dbus_message_iter_get_arg_type(&variant);
        if (strcmp(key, "Name") == 0 && type == DBUS_TYPE_STRING) dbus_message_iter_get_basic(&variant, &name);
        else if (strcmp(key, "RSSI") == 0 && type == DBUS_TYPE_INT16) {
            dbus_message_iter_get_basic(&variant, &rssi);
            has_rssi = 1;
        }
        dbus_message_iter_next(&dict);
    }
    note(dbus_message_get_path(message), name, rssi, has_rssi);
    return DBUS_HANDLER_RESULT_HANDLED;
}

int main(void) {
    DBusError error;
    dbus_error_init(&error);
    DBusConnection *connection = dbus_bus_get_private(DBUS_BUS_SYSTEM, &error);
    if (!connection) { fprintf(stderr, "c_follower: %s\n", error.message); return 69; }
    dbus_connection_add_filter(connection, filter, NULL, NULL);
    dbus_bus_add_match(connection,
        "type='signal',sender='org.bluez',interface='org.freedesktop.DBus.ObjectManager'", &error);
    if (!dbus_error_is_set(&error))
        dbus_bus_add_match(connection,
            "type='signal',sender='org.bluez',path_namespace='/org/bluez/hci0',"
            "interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',arg0='org.bluez.Device1'",
            &error);
    if (dbus_error_is_set(&error)) { fprintf(stderr, "c_follower: %s\n", error.message); return 69; }
    struct sigaction action = { .sa_handler = stop };
    sigaction(SIGTERM, &action, NULL);  /* no SA_RESTART: the poll returns */
    printf("ready\n");
    fflush(stdout);
    while (!stopping && dbus_connection_read_write_dispatch(connection, -1)) {}
    printf("c_follower: %ld signals\n", signals_seen);
    return 0;
}
