#ifndef ESTIMATOR_CDBUS_SHIM_H
#define ESTIMATOR_CDBUS_SHIM_H
#include <dbus/dbus.h>
#endif
