// The org.bluez client (DESIGN §3). Knows nothing of poker.
