#ifndef ESTIMATOR_CMOSQUITTO_SHIM_H
#define ESTIMATOR_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
#include <mqtt_protocol.h>
#endif
