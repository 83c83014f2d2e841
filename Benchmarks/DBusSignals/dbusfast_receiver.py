"""dbus-fast reference receiver for the D-Bus signal benchmark (python peer only).

Prints "ready" once its match rule is installed; then times from the first
PropertiesChanged signal to the last and prints
"<messages per second> <resident kB> <checksum> <CPU microseconds per message>".
"""
import asyncio
import resource
import sys
import time

from dbus_fast import Message, MessageType
from dbus_fast.aio import MessageBus

RULE = "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'"


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def resident_kb():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4


async def main(address, count):
    bus = await MessageBus(bus_address=address).connect()
    done = asyncio.get_running_loop().create_future()
    state = {"received": 0, "start": 0.0, "cpu_start": 0.0, "checksum": 0}

    def handler(message):
        if (message.message_type != MessageType.SIGNAL or message.interface != "org.freedesktop.DBus.Properties"
                or message.member != "PropertiesChanged"):
            return
        interface, changed, invalidated = message.body
        name = changed.get("Name")
        rssi = changed.get("RSSI")
        state["checksum"] += len(name.value if name else "") + (rssi.value if rssi else 0) + len(interface) + len(invalidated)
        state["received"] += 1
        if state["received"] == 1:
            state["start"] = time.perf_counter()
            state["cpu_start"] = cpu_seconds()
        if state["received"] == count and not done.done():
            done.set_result((time.perf_counter(), cpu_seconds()))

    bus.add_message_handler(handler)
    await bus.call(Message(destination="org.freedesktop.DBus", path="/org/freedesktop/DBus",
                           interface="org.freedesktop.DBus", member="AddMatch", signature="s", body=[RULE]))
    print("ready", flush=True)
    end, cpu_end = await done
    cpu_per_message = (cpu_end - state["cpu_start"]) * 1e6 / (count - 1)
    print(f"{(count - 1) / (end - state['start']):.0f} {resident_kb()} {state['checksum']} {cpu_per_message:.2f}",
          flush=True)


asyncio.run(main(sys.argv[1], int(sys.argv[2])))
