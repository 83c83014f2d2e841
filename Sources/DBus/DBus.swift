// The typed Swift layer over libdbus-1 (DESIGN §3). Knows nothing of Bluetooth.
